import { isJsonObject, type JsonRecord } from "@adcp-wire/internal";
import {
  a2aErrorCandidate,
  checkDataPartCount,
  firstArtifactParts,
  resolveA2AExtractOptions,
  statusMessageParts,
  taskStateOf,
  textsOf,
} from "./_a2a.ts";
import { carriesAdcpError } from "./_json.ts";
import {
  type A2AExtractOptions,
  extractAdcpResponseFromA2A,
} from "./extract_adcp_response_from_a2a.ts";
import { unwrapA2AStreamEnvelope } from "./unwrap_a2a_stream_envelope.ts";
import { type ExtractedAdcpError, validateAdcpError } from "./validate_adcp_error.ts";

/**
 * What an A2A response means, as {@link handleA2AResponse} classifies it:
 *
 * - `"error"`: a valid AdCP structured error, and the detection path that found it;
 * - `"success"`: AdCP response data (the extracted DataPart, which carries its own AdCP `status`:
 *   a `failed` task may still carry data, so read it before acting);
 * - `"text"`: no machine-readable AdCP data, only text. When the response is an error without a
 *   valid structured error (a `failed` or `rejected` task without data, data whose `adcp_error`
 *   failed validation, anything that is not a task), the outcome also carries `isError: true`:
 *   fall back to generic error handling (Transport Error Mapping, "Client Detection Order"
 *   step 7), never to success.
 *
 * `text` is the `text` of every TextPart (own non-empty string `text`, with or without `kind`) of
 * `artifacts[0].parts`, then of `status.message.parts`, joined with `"\n"` (`""` when there is
 * none). It is seller-controlled.
 */
export type A2AResponseOutcome =
  | {
    readonly kind: "error";
    readonly error: ExtractedAdcpError;
    readonly path: "artifact" | "status_message";
  }
  | { readonly kind: "success"; readonly data: Record<string, unknown> }
  | {
    readonly kind: "text";
    readonly text: string;
    /** Present (and `true`) only when the response is an error without a valid structured error. */
    readonly isError?: true;
  };

/**
 * Classifies an A2A response as a structured error, success data or text: a valid error first, then
 * the data {@link extractAdcpResponseFromA2A} finds (data carrying an `adcp_error` is error text,
 * never success), then text, flagged `isError` for `failed` and `rejected` tasks and for anything
 * that is not a usable task.
 *
 * A2A Response Extraction, "Relationship to Error Extraction" (readings:
 * [docs/core.md](../../docs/core.md#classifying-an-a2a-response)).
 *
 * @param input An A2A response: any JSON value, or `undefined`.
 * @param options The DataPart size limit (1 MiB by default) and the expected DataPart count, as
 * for {@link extractAdcpResponseFromA2A}.
 * @returns The classified outcome.
 * @throws {WrapperDetectedError} When a final state's last DataPart is a `{ response: {...} }`
 * wrapper.
 * @throws {DataPartTooLargeError | UnexpectedPartCountError} As
 * {@link extractAdcpResponseFromA2A}; nothing else is thrown on any JSON value (objects with
 * throwing getters or revoked proxies are not JSON and may throw).
 * @throws {TypeError | RangeError} When an option is invalid, or not one of
 * {@link A2AExtractOptions}.
 *
 * @example Dispatching on the outcome
 * ```ts
 * import { handleA2AResponse } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const failed = (parts: unknown[]) => ({ status: { state: "failed" }, artifacts: [{ parts }] });
 * deepStrictEqual(
 *   handleA2AResponse(failed([{ data: { adcp_error: { code: "RATE_LIMITED" } } }])),
 *   {
 *     kind: "error",
 *     error: { code: "RATE_LIMITED" },
 *     path: "artifact",
 *   },
 * );
 * deepStrictEqual(handleA2AResponse(failed([{ text: "Invalid API token" }])), {
 *   kind: "text",
 *   text: "Invalid API token",
 *   isError: true,
 * });
 * const wrapped = {
 *   status: { state: "completed" },
 *   artifacts: [{ parts: [{ data: { response: {} } }] }],
 * };
 * strictEqual(throwsCode(() => handleA2AResponse(wrapped)), "WRAPPER_DETECTED");
 *
 * function throwsCode(fn: () => unknown): string | undefined {
 *   try {
 *     fn();
 *   } catch (e) {
 *     return (e as { code?: string }).code;
 *   }
 * }
 * ```
 */
export function handleA2AResponse(
  input: unknown,
  options?: A2AExtractOptions,
): A2AResponseOutcome {
  const { expectedDataParts } = resolveA2AExtractOptions(options);
  const task = unwrapA2AStreamEnvelope(input);
  if (!isJsonObject(task)) return { kind: "text", text: "", isError: true };
  // Before the error candidate: an injected `adcp_error` DataPart changes the count too.
  if (expectedDataParts !== undefined) checkDataPartCount(task, expectedDataParts);
  const candidate = a2aErrorCandidate(task);
  if (candidate !== undefined) {
    const error = validateAdcpError(candidate.value);
    if (error !== null) return { kind: "error", error, path: candidate.path };
  }
  const data: JsonRecord | null = extractAdcpResponseFromA2A(input, options);
  const text = [...textsOf(firstArtifactParts(task)), ...textsOf(statusMessageParts(task))]
    .join("\n");
  if (data !== null) {
    return carriesAdcpError(data)
      ? { kind: "text", text, isError: true }
      : { kind: "success", data };
  }
  const state = taskStateOf(task);
  return state === "failed" || state === "rejected"
    ? { kind: "text", text, isError: true }
    : { kind: "text", text };
}
