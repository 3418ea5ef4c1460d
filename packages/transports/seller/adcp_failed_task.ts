import type { ExtractedAdcpError } from "@adcp-wire/core";
import { checkOptions, OUTGOING_ERROR_OPTION_NAMES } from "./_outgoing_options.ts";
import { preparedError } from "./_outgoing.ts";
import { payloadLayer } from "./_payload.ts";
import { checkSummary, redactedSummary } from "./_summary.ts";
import type { OutgoingErrorOptions } from "./check_outgoing_adcp_error.ts";
import { isJsonObject as isObject, optionError, optionKeys, own } from "@adcp-wire/internal";

/** What the helper does, for its option errors. */
const ACTION = "build the failed task";

/** The MIME type an AdCP error DataPart may declare (Transport Error Mapping, Error MIME Type). */
export const ADCP_ERROR_MIME_TYPE = "application/vnd.adcp.error+json";

/** Options of {@link adcpFailedTask}. */
export interface AdcpFailedTaskOptions extends OutgoingErrorOptions {
  /**
   * The wire form: A2A 1.0 ProtoJSON (`TASK_STATE_FAILED`, parts without `kind`) or v0.3
   * (`failed`, `kind` on the task and its parts).
   * @default {"1.0"}
   */
  readonly protocolVersion?: "1.0" | "0.3" | undefined;
  /**
   * The TextPart for humans and LLMs: one line of prose, leak-checked.
   * @default {"The request failed with CODE." (plus "Retry in N seconds." for a retry_after)}
   */
  readonly summary?: string | undefined;
  /**
   * The status timestamp (ISO 8601 UTC with milliseconds).
   * @default {new Date().toISOString()}
   */
  readonly timestamp?: string | undefined;
  /**
   * The artifact id.
   * @default {"error-result"}
   */
  readonly artifactId?: string | undefined;
  /**
   * Whether the DataPart declares `metadata.mimeType: "application/vnd.adcp.error+json"` (clients
   * must not require it).
   * @default {true}
   */
  readonly mimeType?: boolean | undefined;
  /**
   * Also set the payload layer of a fatal task failure: a DataPart holding the task payload,
   * `status: "failed"` and `errors` (`true`: `errors: [error]`), placed before the `adcp_error`
   * DataPart, which stays last. An object is the task payload, checked as in
   * {@link AdcpErrorResultOptions.payload}.
   * @default {false}
   */
  readonly payload?: boolean | Readonly<Record<string, unknown>> | undefined;
}

/** The keys of {@link AdcpFailedTaskOptions}. */
const OPTION_KEYS = optionKeys<AdcpFailedTaskOptions>({
  ...OUTGOING_ERROR_OPTION_NAMES,
  protocolVersion: true,
  summary: true,
  timestamp: true,
  artifactId: true,
  mimeType: true,
  payload: true,
});

/** The task a failed A2A AdCP call ends with, as {@link adcpFailedTask} builds it. */
export type AdcpFailedTask = {
  /** The task id. */
  id: string;
  /** The context id. */
  contextId: string;
  /** `"task"`, in the v0.3 form only. */
  kind?: "task";
  /** `TASK_STATE_FAILED` (1.0) or `failed` (v0.3), and the timestamp. */
  status: { state: "TASK_STATE_FAILED" | "failed"; timestamp: string };
  /** One artifact: a TextPart, the payload DataPart (with `payload`), the `adcp_error` DataPart. */
  artifacts: [{ artifactId: string; parts: Record<string, unknown>[] }];
};

/**
 * Builds the failed A2A task that carries an AdCP error: state failed, and one artifact holding a
 * TextPart for humans and LLMs and, last, the DataPart `{ adcp_error }` the buyer's extraction
 * reads. The error passes {@link checkOutgoingAdcpError} first, unless it came from
 * {@link forwardAdcpError}. The rules, the payload layer included, are in
 * `docs/outgoing-errors.md`.
 *
 * Spec: Transport Error Mapping, A2A Binding, Failed Tasks; A2A Response Extraction.
 *
 * @param ids The task's `id` and `contextId`.
 * @param error The error (`code` and `message` required).
 * @param options The wire form, summary, timestamp, artifact id, MIME type and payload layer.
 * @returns The task.
 * @throws {TypeError} When `ids` are not non-empty strings, an option is malformed or unknown
 * (named with the nearest known one), or the error is refused (the message names a refused `code`
 * that looks like one; unhandled in an A2A executor, it fails the task with no `adcp_error`: see
 * "When a helper refuses an error" in `docs/outgoing-errors.md`).
 * @throws {RangeError} When the error (or a payload error) is over 4096 serialized UTF-8 bytes, or
 * `options.summary` over 256.
 *
 * @example A 1.0 failed task
 * ```ts
 * import { adcpFailedTask } from "@adcp-wire/transports/seller";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const error = { code: "RATE_LIMITED", message: "Slow down", retry_after: 5 };
 * const task = adcpFailedTask({ id: "task_1", contextId: "ctx_1" }, error, { mimeType: false });
 * strictEqual(task.status.state, "TASK_STATE_FAILED");
 * deepStrictEqual(task.artifacts[0].parts, [
 *   { text: "The request failed with RATE_LIMITED. Retry in 5 seconds." },
 *   { data: { adcp_error: { ...error, recovery: "transient" } } },
 * ]);
 * ```
 */
export function adcpFailedTask(
  ids: { readonly id: string; readonly contextId: string },
  error: unknown,
  options: AdcpFailedTaskOptions = {},
): AdcpFailedTask {
  if (!isObject(ids)) throw optionError(TypeError, ACTION, "ids", "an object", ids);
  const id = own(ids, "id");
  const contextId = own(ids, "contextId");
  for (const [name, value] of [["ids.id", id], ["ids.contextId", contextId]] as const) {
    if (typeof value !== "string" || value === "") {
      throw optionError(TypeError, ACTION, name, "a non-empty string", value);
    }
  }
  const checked = checkOptions(options, ACTION, OPTION_KEYS);
  const version = options.protocolVersion ?? "1.0";
  if (version !== "1.0" && version !== "0.3") {
    throw optionError(TypeError, ACTION, "options.protocolVersion", '"1.0" or "0.3"', version);
  }
  const timestamp = options.timestamp ?? new Date().toISOString();
  if (typeof timestamp !== "string" || Number.isNaN(Date.parse(timestamp))) {
    throw optionError(
      TypeError,
      ACTION,
      "options.timestamp",
      "an ISO 8601 date-time",
      timestamp,
    );
  }
  const artifactId = options.artifactId ?? "error-result";
  if (typeof artifactId !== "string" || artifactId === "") {
    throw optionError(TypeError, ACTION, "options.artifactId", "a non-empty string", artifactId);
  }
  const mimeType = options.mimeType ?? true;
  if (typeof mimeType !== "boolean") {
    throw optionError(TypeError, ACTION, "options.mimeType", "a boolean", mimeType);
  }
  let summary = options.summary === undefined
    ? undefined
    : checkSummary("options.summary", options.summary, ACTION);
  const adcpError: ExtractedAdcpError = preparedError(error, checked);
  const payload = payloadLayer(options.payload, adcpError, checked);
  if (summary !== undefined) summary = redactedSummary(summary, checked);
  const text = summary ?? defaultSummary(adcpError);
  const metadata = mimeType ? { metadata: { mimeType: ADCP_ERROR_MIME_TYPE } } : {};
  if (version === "1.0") {
    return {
      id: id as string,
      contextId: contextId as string,
      status: { state: "TASK_STATE_FAILED", timestamp },
      artifacts: [{
        artifactId,
        parts: [
          { text },
          ...(payload === undefined ? [] : [{ data: payload }]),
          { data: { adcp_error: adcpError }, ...metadata },
        ],
      }],
    };
  }
  return {
    kind: "task",
    id: id as string,
    contextId: contextId as string,
    status: { state: "failed", timestamp },
    artifacts: [{
      artifactId,
      parts: [
        { kind: "text", text },
        ...(payload === undefined ? [] : [{ kind: "data", data: payload }]),
        { kind: "data", data: { adcp_error: adcpError }, ...metadata },
      ],
    }],
  };
}

/**
 * "The request failed with CODE." and, for a `retry_after` of 1 to 3600 seconds, "Retry in N
 * seconds.". A forwarded error's code is named only when it has the shape of an AdCP code, since
 * the summary is one line of prose.
 */
function defaultSummary(error: ExtractedAdcpError): string {
  const seconds = error.retry_after;
  const retry = typeof seconds === "number" && seconds >= 1 && seconds <= 3600
    ? ` Retry in ${seconds} second${seconds === 1 ? "" : "s"}.`
    : "";
  const code = /^[A-Z][A-Z0-9_]{0,63}$/.test(error.code) ? ` with ${error.code}` : "";
  return `The request failed${code}.${retry}`;
}
