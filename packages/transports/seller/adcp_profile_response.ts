import { isPlainObject, notShown, optionError, optionKeys, own } from "@adcp-wire/internal";
import { checkSellerOptionKeys } from "./_option_keys.ts";
import { checkIds } from "./_profile_ids.ts";
import { checkSummary } from "./_summary.ts";

/** What the helper does, for its option errors. */
const ACTION = "build the AdCP profile task response";

/** The A2A Task of a profile response, as {@link adcpProfileTaskResponse} builds it. */
export type AdcpProfileTask = {
  /** The A2A Task id (the transport invocation). */
  id: string;
  /** The A2A context id. */
  contextId: string;
  /** `TASK_STATE_COMPLETED`, and the timestamp when one was given. */
  status: { state: "TASK_STATE_COMPLETED"; timestamp?: string };
  /** One artifact: the optional TextPart, then the DataPart holding the direct AdCP response. */
  artifacts: [{ artifactId: string; parts: Record<string, unknown>[] }];
};

/** A `SendMessage` answer on its `task` branch, as {@link adcpProfileTaskResponse} builds it. */
export type AdcpProfileTaskResponse = {
  /** The Task. */
  task: AdcpProfileTask;
};

/** Options of {@link adcpProfileTaskResponse}. */
export interface AdcpProfileTaskResponseOptions {
  /**
   * An advisory TextPart put before the DataPart ("A response artifact MAY also contain advisory
   * TextParts"): one line of prose, at most 256 UTF-8 bytes, not JSON text.
   * @default {undefined}
   */
  readonly summary?: string | undefined;
  /**
   * The artifact id: opaque, unique within the Task ("`adcp-result` above is merely an example
   * value").
   * @default {"adcp-result"}
   */
  readonly artifactId?: string | undefined;
  /**
   * The status timestamp (ISO 8601); omitted when unset.
   * @default {undefined}
   */
  readonly timestamp?: string | undefined;
}

/** The keys of {@link AdcpProfileTaskResponseOptions}. */
const OPTION_KEYS = optionKeys<AdcpProfileTaskResponseOptions>({
  summary: true,
  artifactId: true,
  timestamp: true,
});

/**
 * Builds the non-streaming `SendMessage` answer for what an AdCP handler returned, as the AdCP A2A
 * Profile Extension v3 maps it: the `task` branch, A2A `TASK_STATE_COMPLETED` (the handler has
 * returned, whatever its AdCP status: a success, a business rejection with `errors`, an AdCP
 * `input-required` result, a `get_task_status` poll response, or Submitted work), and one artifact
 * whose DataPart is the response itself. A Submitted response keeps its `task_id` in the DataPart
 * and nowhere else; the buyer polls it with a new `get_task_status` invocation.
 *
 * What it does not build: a native `TASK_STATE_INPUT_REQUIRED` before the handler returns
 * ({@link adcpProfileInputRequired}), and a fatal failure after execution started, which is
 * `{ task: adcpFailedTask(ids, error) }` (an A2A failed Task with an `adcp_error` DataPart).
 *
 * Spec: AdCP A2A Profile Extension v3, "Response mapping", "Submitted AdCP work".
 *
 * @param result The handler's direct AdCP response: a plain object that serializes as JSON, with
 * no `adcp_error` key and no `{ response: {...} }` wrapper; with `status: "submitted"`, a
 * non-empty string `task_id`.
 * @param ids The A2A Task's `id` and `contextId`.
 * @param options The advisory summary, the artifact id and the timestamp.
 * @returns The answer, for the JSON-RPC `result`.
 * @throws {TypeError} When `result`, `ids` or an option is refused (an unknown option key is named
 * with the nearest known one).
 * @throws {RangeError} When `options.summary` is over 256 UTF-8 bytes.
 *
 * @example Submitted work, still an A2A completed invocation
 * ```ts
 * import { adcpProfileTaskResponse } from "@adcp-wire/transports/seller";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const result = { status: "submitted", task_id: "adcp-task-9a21", message: "Awaiting IO" };
 * deepStrictEqual(
 *   adcpProfileTaskResponse(result, { id: "a2a-task-42", contextId: "ctx-42" }),
 *   {
 *     task: {
 *       id: "a2a-task-42",
 *       contextId: "ctx-42",
 *       status: { state: "TASK_STATE_COMPLETED" },
 *       artifacts: [{ artifactId: "adcp-result", parts: [{ data: result }] }],
 *     },
 *   },
 * );
 * ```
 */
export function adcpProfileTaskResponse(
  result: Record<string, unknown>,
  ids: { readonly id: string; readonly contextId: string },
  options: AdcpProfileTaskResponseOptions = {},
): AdcpProfileTaskResponse {
  checkResult(result);
  const { id, contextId } = checkIds(ids, ACTION);
  if (!isPlainObject(options)) {
    throw optionError(TypeError, ACTION, "options", "an object", options);
  }
  checkSellerOptionKeys(ACTION, options, OPTION_KEYS);
  const artifactId = options.artifactId ?? "adcp-result";
  if (typeof artifactId !== "string" || artifactId === "") {
    throw optionError(TypeError, ACTION, "options.artifactId", "a non-empty string", artifactId);
  }
  const timestamp = options.timestamp;
  if (
    timestamp !== undefined &&
    (typeof timestamp !== "string" || Number.isNaN(Date.parse(timestamp)))
  ) {
    throw optionError(TypeError, ACTION, "options.timestamp", "an ISO 8601 date-time", timestamp);
  }
  const parts: Record<string, unknown>[] = options.summary === undefined
    ? []
    : [{ text: checkSummary("options.summary", options.summary, ACTION) }];
  parts.push({ data: result });
  return {
    task: {
      id,
      contextId,
      status: timestamp === undefined
        ? { state: "TASK_STATE_COMPLETED" }
        : { state: "TASK_STATE_COMPLETED", timestamp },
      artifacts: [{ artifactId, parts }],
    },
  };
}

/** Refuses a result the profile's DataPart cannot carry. @throws {TypeError} */
function checkResult(result: unknown): void {
  if (!isPlainObject(result)) {
    throw optionError(TypeError, ACTION, "result", "a plain object", notShown(result));
  }
  if (Object.hasOwn(result, "adcp_error")) {
    throw optionError(
      TypeError,
      ACTION,
      "result",
      "a direct AdCP response without adcp_error (send a fatal failure as " +
        "{ task: adcpFailedTask(ids, error) })",
      result,
    );
  }
  const keys = Object.keys(result);
  if (keys.length === 1 && keys[0] === "response" && isPlainObject(own(result, "response"))) {
    throw optionError(
      TypeError,
      ACTION,
      "result",
      "the direct AdCP response, not a { response: {...} } framework wrapper",
      result,
    );
  }
  if (own(result, "status") === "submitted") {
    const taskId = own(result, "task_id");
    if (typeof taskId !== "string" || taskId === "") {
      throw optionError(
        TypeError,
        ACTION,
        "result.task_id",
        'a non-empty string when result.status is "submitted"',
        notShown(taskId),
      );
    }
  }
  try {
    JSON.stringify(result);
  } catch (cause) {
    const error = optionError(
      TypeError,
      ACTION,
      "result",
      "a value that serializes as JSON",
      result,
    );
    Object.defineProperty(error, "cause", { value: cause, writable: true, configurable: true });
    throw error;
  }
}
