// Reading the answers of an A2A agent: result frames of either wire version, task
// classification (extraction, auth challenges, recovery decisions), Messages and JSON-RPC errors.
import {
  type A2AExtractOptions,
  DataPartTooLargeError,
  extractAdcpErrorFromJsonRpcError,
  handleA2AResponse,
  isA2AStreamEnvelope,
  normalizeA2ATaskState,
  UnexpectedPartCountError,
  unwrapA2AStreamEnvelope,
  WrapperDetectedError,
} from "@adcp-wire/core";
import { describe, isJsonObject as isObject, type JsonRecord, own } from "@adcp-wire/internal";
import { decideRecovery } from "@adcp-wire/recovery";
import { ownString, type RpcErrorObject, safeRpcMessage } from "../client/_rpc.ts";
import { checkAuthChallenge } from "./auth_challenge.ts";
import { AgentProtocolError, ResponseTooLargeError } from "../errors.ts";
import type {
  A2ACallResult,
  A2AOutcome,
  A2AProtocolVersion,
  A2AStreamEvent,
  A2ATaskContext,
} from "./types.ts";

/** One result object of a send or stream answer, by its branch. */
export type Frame = { readonly type: A2AStreamEvent["type"]; readonly value: JsonRecord };

export const NO_TASK: A2ATaskContext = {
  task: undefined,
  state: null,
  taskId: undefined,
  contextId: undefined,
};

/**
 * The normalized `status.state` of a task or status update (A2A Response Extraction, step 1), or
 * `null` without a string state. Unknown values are returned as normalized, so callers can log
 * them.
 */
export function stateOf(value: JsonRecord): string | null {
  const status = own(value, "status");
  return normalizeA2ATaskState(isObject(status) ? own(status, "state") : undefined);
}

/**
 * `handleA2AResponse` under the call's DataPart bounds: a wrapper or an unexpected DataPart count
 * is a `"malformed"` outcome; an oversized DataPart throws (a size bound, as for a body).
 *
 * @throws {ResponseTooLargeError} With phase `"data-part"`.
 */
export function classifyA2A(task: unknown, extract: A2AExtractOptions): A2AOutcome {
  try {
    return handleA2AResponse(task, extract);
  } catch (error) {
    if (error instanceof WrapperDetectedError || error instanceof UnexpectedPartCountError) {
      return { kind: "malformed", error };
    }
    if (error instanceof DataPartTooLargeError) {
      throw new ResponseTooLargeError(error.limit, error.observed, "data-part");
    }
    throw error;
  }
}

/** Reads a result object as a frame of this client's wire version. */
export function readFrame(
  value: unknown,
  version: A2AProtocolVersion,
  sendResult: boolean,
): Frame {
  if (!isObject(value)) throw invalid("a result object", describe(value));
  if (version === "1.0") {
    const key = Object.keys(value)[0];
    const inner = key === undefined ? undefined : own(value, key);
    const allowed = !sendResult || key === "task" || key === "message";
    if (!isA2AStreamEnvelope(value) || !allowed || !isObject(inner)) {
      throw invalid(
        sendResult ? "a { task } or { message } result" : "a StreamResponse with one branch",
        "another shape",
      );
    }
    // Unwrapped exactly once: an inner value with an envelope key at its top level is nested
    // envelope smuggling (A2A Response Extraction, step 0: "MUST be rejected").
    if (unwrapA2AStreamEnvelope(value) === undefined) {
      throw invalid("a StreamResponse with one branch", "a nested envelope");
    }
    return { type: key as Frame["type"], value: inner };
  }
  const kind = own(value, "kind");
  const type = kind === "task"
    ? "task"
    : kind === "message"
    ? "message"
    : kind === "status-update" && !sendResult
    ? "statusUpdate"
    : kind === "artifact-update" && !sendResult
    ? "artifactUpdate"
    : undefined;
  if (type === undefined) throw invalid("a v0.3 result with a known kind", "another kind");
  return { type, value };
}

/** Classifies a task: handleA2AResponse, the auth challenge, and the recovery decision. */
export function classifyTask(
  task: JsonRecord,
  extract: A2AExtractOptions,
  authHosts: readonly string[],
): A2ACallResult {
  const state = stateOf(task);
  const context: A2ATaskContext = {
    task,
    state,
    taskId: ownString(task, "id") ?? ownString(task, "taskId"),
    contextId: ownString(task, "contextId"),
  };
  const outcome = classifyA2A(task, extract);
  if (outcome.kind === "error") {
    return { ...context, ...outcome, decision: decideRecovery(outcome.error) };
  }
  if (state === "auth-required" && (outcome.kind === "success" || outcome.kind === "text")) {
    const data = outcome.kind === "success" ? outcome.data : null;
    return {
      ...context,
      kind: "auth_required",
      challenge: checkAuthChallenge(data, { allowedHosts: authHosts }),
      data,
    };
  }
  return { ...context, ...outcome };
}

export function messageResult(message: JsonRecord): A2ACallResult {
  return { ...NO_TASK, kind: "message", message, text: partsText(own(message, "parts")) };
}

/** The non-empty `text` of every TextPart in `parts` (when it is an array), one a line. */
function partsText(parts: unknown): string {
  const texts = Array.isArray(parts)
    ? parts.flatMap((part) => {
      const text = isObject(part) ? own(part, "text") : undefined;
      return typeof text === "string" && text !== "" ? [text] : [];
    })
    : [];
  return texts.join("\n");
}

/**
 * The text of a task's status message (its TextParts, one a line; `""` without any): what an
 * interim state (`working`, `input-required`) says beside its DataPart, the seller's question
 * among it (AdCP A2A Profile Extension v3: a summary TextPart beside the data).
 */
export function statusMessageText(task: JsonRecord | undefined): string {
  const status = task === undefined ? undefined : own(task, "status");
  const message = isObject(status) ? own(status, "message") : undefined;
  return isObject(message) ? partsText(own(message, "parts")) : "";
}

export function classifyRpcError(error: RpcErrorObject): A2ACallResult {
  const adcpError = extractAdcpErrorFromJsonRpcError(error);
  if (adcpError !== null) {
    return {
      ...NO_TASK,
      kind: "error",
      error: adcpError,
      path: "jsonrpc_error",
      decision: decideRecovery(adcpError),
    };
  }
  return {
    ...NO_TASK,
    kind: "jsonrpc_error",
    rpcCode: error.code,
    rpcMessage: safeRpcMessage(error.message),
    data: error.data,
  };
}

export function invalid(expected: string, seen: string): AgentProtocolError {
  return new AgentProtocolError("invalid_message", expected, seen);
}
