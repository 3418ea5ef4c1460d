import {
  a2aErrorCandidate,
  firstArtifactParts,
  statusMessageParts,
  taskStateOf,
  textsOf,
  unwrapStreamEnvelope,
} from "./_a2a.ts";
import { carriesAdcpError, isJsonObject, type JsonObject } from "./_json.ts";
import { WrapperDetectedError } from "./errors.ts";
import { extractAdcpResponseFromA2A } from "./extract_adcp_response_from_a2a.ts";
import { type AdcpError, validateAdcpError } from "./validate_adcp_error.ts";

/**
 * What an A2A response means, as {@linkcode handleA2AResponse} classifies it:
 *
 * - `"error"`: a valid AdCP structured error, and the detection path that found it;
 * - `"success"`: AdCP response data (the extracted DataPart, which carries its own AdCP `status`:
 *   a `failed` task may still carry data, so read it before acting);
 * - `"generic_error"`: an error without a valid structured error (Transport Error Mapping,
 *   "Client Detection Order" step 7), with the response's text for display;
 * - `"text"`: no machine-readable AdCP data and no sign of failure;
 * - `"malformed"`: the final-state DataPart is a `{ response: {...} }` framework wrapper, a
 *   server-side bug reported as data instead of thrown.
 *
 * `text` is the `text` of every TextPart (own non-empty string `text`, with or without `kind`) of
 * `artifacts[0].parts`, then of `status.message.parts`, joined with `"\n"` (`""` when there is
 * none). It is seller-controlled.
 *
 * @example An exhaustive switch
 * ```ts
 * import { type A2AResponseOutcome, handleA2AResponse } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * function describe(outcome: A2AResponseOutcome): string {
 *   switch (outcome.kind) {
 *     case "error":
 *       return `error ${outcome.error.code}`;
 *     case "success":
 *       return "success";
 *     case "generic_error":
 *     case "text":
 *       return `${outcome.kind}: ${outcome.text}`;
 *     case "malformed":
 *       return `malformed: ${outcome.error.code}`;
 *   }
 * }
 * const working = { status: { state: "working", message: { parts: [{ data: { percentage: 5 } }] } } };
 * strictEqual(describe(handleA2AResponse(working)), "success");
 * ```
 */
export type A2AResponseOutcome =
  | {
    readonly kind: "error";
    readonly error: AdcpError;
    readonly path: "artifact" | "status_message";
  }
  | { readonly kind: "success"; readonly data: Record<string, unknown> }
  | { readonly kind: "generic_error"; readonly text: string }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "malformed"; readonly error: WrapperDetectedError };

/**
 * Classifies an A2A response, composing error and success extraction as A2A Response Extraction,
 * "Relationship to Error Extraction" does, without ever throwing on its input:
 *
 * 1. {@linkcode extractAdcpErrorFromA2A}: a valid error gives `"error"`.
 * 2. {@linkcode extractAdcpResponseFromA2A}: a {@linkcode WrapperDetectedError} is returned as
 *    `"malformed"` rather than rethrown, so a buggy seller cannot crash the handler while the
 *    caller can still log it ("Wrapper Rejection": "throw or log an error, not silently unwrap").
 * 3. Data carrying an `adcp_error` (which failed validation in step 1) is `"generic_error"`,
 *    never `"success"`: the page's reference flow routes any `adcp_error` to error handling.
 *    Other data is `"success"`.
 * 4. With no data, the `failed` and `rejected` states give `"generic_error"`; any other state,
 *    unknown or absent included (`{ artifactUpdate }`, `{ message }`), gives `"text"`.
 *
 * A value that is not an object, or a nested-envelope smuggling attempt, is not a usable A2A
 * response: `"generic_error"` with empty text.
 *
 * @param input An A2A response: any JSON value, or `undefined`.
 * @returns The classified outcome; never throws.
 *
 * @example Dispatching on the outcome
 * ```ts
 * import { handleA2AResponse } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const failed = (parts: unknown[]) => ({ status: { state: "failed" }, artifacts: [{ parts }] });
 * deepStrictEqual(handleA2AResponse(failed([{ data: { adcp_error: { code: "RATE_LIMITED" } } }])), {
 *   kind: "error",
 *   error: { code: "RATE_LIMITED" },
 *   path: "artifact",
 * });
 * deepStrictEqual(handleA2AResponse(failed([{ text: "Invalid API token" }])), {
 *   kind: "generic_error",
 *   text: "Invalid API token",
 * });
 * const wrapped = { status: { state: "completed" }, artifacts: [{ parts: [{ data: { response: {} } }] }] };
 * strictEqual(handleA2AResponse(wrapped).kind, "malformed");
 * ```
 */
export function handleA2AResponse(input: unknown): A2AResponseOutcome {
  const task = unwrapStreamEnvelope(input);
  if (!isJsonObject(task)) return { kind: "generic_error", text: "" };
  const candidate = a2aErrorCandidate(task);
  if (candidate !== undefined) {
    const error = validateAdcpError(candidate.value);
    if (error !== null) return { kind: "error", error, path: candidate.path };
  }
  let data: JsonObject | null;
  try {
    data = extractAdcpResponseFromA2A(input);
  } catch (error) {
    if (error instanceof WrapperDetectedError) return { kind: "malformed", error };
    throw error; // unreachable: the extractor throws nothing else
  }
  const text = [...textsOf(firstArtifactParts(task)), ...textsOf(statusMessageParts(task))]
    .join("\n");
  if (data !== null) {
    return carriesAdcpError(data) ? { kind: "generic_error", text } : { kind: "success", data };
  }
  const state = taskStateOf(task);
  return state === "failed" || state === "rejected"
    ? { kind: "generic_error", text }
    : { kind: "text", text };
}
