// The mapping of both protocol clients' results to the one AgentCallResult union: the task
// lifecycle read from A2A task states and from the AdCP payload's own `status`, JSON-RPC errors and
// malformed answers as failures, and `get_task_status` answers.
import { isFinalA2ATaskState, normalizeA2ATaskState, validateAdcpError } from "@adcp-wire/core";
import { isJsonObject, type JsonRecord, own } from "@adcp-wire/internal";
import { decideRecovery, type RecoveryDecision } from "@adcp-wire/recovery";
import { AdcpSigningError } from "@adcp-wire/signing";
import { statusMessageText } from "../a2a/_frames.ts";
import type { A2ACallResult } from "../a2a/types.ts";
import { transportAdcpError } from "../client/_retry.ts";
import {
  AdcpTransportError,
  AgentProtocolError,
  HttpStatusError,
  JsonRpcError,
} from "../errors.ts";
import type { McpCallResult, McpTask } from "../mcp/types.ts";
import {
  type AgentCallResult,
  type AgentFailed,
  type AgentProtocol,
  type AgentTask,
  type AgentTaskVia,
  MAX_AGENT_POLL_MS,
  MIN_AGENT_POLL_MS,
} from "./types.ts";

/** AdCP payload states that say the operation runs on. */
const RUNNING = new Set(["submitted", "working"]);

/** The string at `key` of `value`, own and non-empty. */
function ownText(value: JsonRecord, key: string): string | undefined {
  const text = own(value, key);
  return typeof text === "string" && text !== "" ? text : undefined;
}

/** The AdCP task state of a payload's `status`, normalized, or `null`. */
function payloadState(data: JsonRecord): string | null {
  return normalizeA2ATaskState(own(data, "status"));
}

/** A task handle. */
function handle(
  protocol: AgentProtocol,
  task: string,
  via: AgentTaskVia,
  taskId: string | undefined,
  contextId: string | undefined,
  state: string,
): AgentTask {
  return Object.freeze({ protocol, task, via, taskId, contextId, state });
}

/**
 * A success payload read for its AdCP lifecycle: `status` `submitted` or `working` is a pending
 * AdCP operation (polled by its `task_id`), `input-required` a question; anything else, the
 * terminal states included (a schema-valid business outcome such as a rejection with `errors[]` is
 * a completed task, A2A Profile Extension v3, "Response mapping"), is the task's response.
 */
export function payloadResult(
  protocol: AgentProtocol,
  task: string,
  data: JsonRecord,
  contextId: string | undefined,
  raw: McpCallResult | A2ACallResult | undefined,
): AgentCallResult {
  // Over A2A the native ids are the conversation (A2A Profile Extension v3: the continuation
  // descriptor); a payload's context_id does not replace them. MCP carries it in the payload.
  const context = protocol === "a2a"
    ? contextId ?? ownText(data, "context_id")
    : ownText(data, "context_id") ?? contextId;
  const ongoing = ongoingResult(protocol, task, "adcp_task", ownText(data, "task_id"), {
    data,
    context,
    raw,
  });
  return ongoing ?? { kind: "success", protocol, contextId: context, raw, data };
}

/**
 * The `pending` or `input_required` result an AdCP payload's `status` says it is (`submitted`,
 * `working`; `input-required`), with its handle; `undefined` for any other status.
 */
function ongoingResult(
  protocol: AgentProtocol,
  task: string,
  via: AgentTaskVia,
  taskId: string | undefined,
  answer: {
    readonly data: JsonRecord;
    readonly context: string | undefined;
    readonly raw: McpCallResult | A2ACallResult | undefined;
  },
): AgentCallResult | undefined {
  const { data, context, raw } = answer;
  const state = payloadState(data);
  if (state === null || (!RUNNING.has(state) && state !== "input-required")) return undefined;
  const ref = handle(protocol, task, via, taskId, context, state);
  const text = ownText(data, "message") ?? "";
  return state === "input-required"
    ? { kind: "input_required", protocol, contextId: context, raw, task: ref, data, text }
    : { kind: "pending", protocol, contextId: context, raw, task: ref, data, text };
}

/** A protocol client's error result as the union's. */
function errorResult(
  protocol: AgentProtocol,
  contextId: string | undefined,
  result: Extract<McpCallResult | A2ACallResult, { readonly kind: "error" }>,
): AgentCallResult {
  return {
    kind: "error",
    protocol,
    contextId,
    raw: result,
    error: result.error,
    decision: result.decision,
    source: result.path,
  };
}

/** McpClient's result of calling `task`, as the union. */
export function fromMcp(
  task: string,
  result: McpCallResult,
  contextId: string | undefined,
): AgentCallResult {
  const protocol = "mcp";
  switch (result.kind) {
    case "success":
      return payloadResult(protocol, task, result.data, contextId, result);
    case "error":
      return errorResult(protocol, contextId, result);
    case "text":
      return {
        kind: "text",
        protocol,
        contextId,
        raw: result,
        text: result.text,
        isError: result.isError === true,
      };
    case "jsonrpc_error":
      return failedResult(
        protocol,
        new JsonRpcError(result.rpcCode, result.rpcMessage, result.data, null),
      );
  }
}

/** MCP task statuses in the AdCP spelling (`input_required` asks for an elicitation). */
const MCP_TASK_STATES: Readonly<Record<string, string>> = {
  working: "working",
  input_required: "input-required",
  completed: "completed",
  failed: "failed",
  cancelled: "canceled",
};

/**
 * An MCP task that has not ended, as the union: `pending` while it works (or is in a status this
 * client does not know: the handle is kept, and a wait goes on polling), `input_required` when it
 * asks for input (answered over MCP with an elicitation, not by this client), and a `text` with
 * `isError: true` when it was cancelled (MCP 2025-11-25 tasks: a cancelled task has no result to
 * read). `undefined` for a task that ended `completed` or `failed`: its outcome is the underlying
 * request's, read with `tasks/result` ({@link fromMcpTaskResult}).
 */
export function fromMcpTask(
  task: string,
  mcpTask: McpTask,
  contextId: string | undefined,
): AgentCallResult | undefined {
  const protocol = "mcp";
  const state = Object.hasOwn(MCP_TASK_STATES, mcpTask.status)
    ? MCP_TASK_STATES[mcpTask.status]!
    : "unknown";
  if (state === "completed" || state === "failed") return undefined;
  const text = mcpTask.statusMessage ?? "";
  if (state === "canceled") {
    return {
      kind: "text",
      protocol,
      contextId,
      raw: undefined,
      text: text === "" ? "The task is canceled" : text,
      isError: true,
    };
  }
  const hint = mcpTask.pollInterval;
  const ref: AgentTask = Object.freeze({
    ...handle(protocol, task, "mcp_task", mcpTask.taskId, contextId, state),
    ...(hint === undefined
      ? {}
      : { pollIntervalMs: Math.min(MAX_AGENT_POLL_MS, Math.max(MIN_AGENT_POLL_MS, hint)) }),
  });
  const base = { protocol, contextId, raw: undefined, task: ref, data: null, text } as const;
  return state === "input-required"
    ? { kind: "input_required", ...base }
    : { kind: "pending", ...base };
}

/**
 * The `tasks/result` answer of an MCP task that ended `completed` or `failed`, as the union. A
 * failed task's result is its error: an AdCP error, an error text, or the JSON-RPC error the
 * request failed with; a failed task whose result claims success is refused
 * ({@link AgentProtocolError}), never reported as a success.
 */
export function fromMcpTaskResult(
  task: string,
  mcpTask: McpTask,
  result: McpCallResult,
  contextId: string | undefined,
): AgentCallResult {
  const answer = fromMcp(task, result, contextId);
  if (mcpTask.status !== "failed") return answer;
  if (answer.kind === "text") return { ...answer, isError: true };
  if (answer.kind === "error" || answer.kind === "failed") return answer;
  return failedResult(
    "mcp",
    new AgentProtocolError("invalid_message", "the error result of a failed task", "a success"),
  );
}

/** A2AClient's result of calling `task`, as the union. */
export function fromA2A(task: string, result: A2ACallResult): AgentCallResult {
  const protocol = "a2a";
  const contextId = result.contextId;
  const state = result.state;
  const ref = (): AgentTask =>
    handle(protocol, task, "a2a_task", result.taskId, contextId, state ?? "unknown");
  switch (result.kind) {
    case "error":
      return errorResult(protocol, contextId, result);
    case "jsonrpc_error":
      return failedResult(
        protocol,
        new JsonRpcError(result.rpcCode, result.rpcMessage, result.data, null),
      );
    case "malformed":
      return failedResult(
        protocol,
        new AgentProtocolError("invalid_message", "one authoritative DataPart", result.error.name),
      );
    case "auth_required":
      return {
        kind: "auth_required",
        protocol,
        contextId,
        raw: result,
        task: ref(),
        challenge: result.challenge,
        data: result.data,
      };
    case "message":
      return { kind: "text", protocol, contextId, raw: result, text: result.text, isError: false };
    case "text":
    case "success": {
      const data = result.kind === "success" ? result.data : null;
      // An interim task's question or progress note is the TextPart beside its DataPart.
      const text = result.kind === "text" ? result.text : statusMessageText(result.task);
      // A task in a state that is not final keeps its handle: running, or a state this client
      // does not know (a newer value), which a wait goes on polling rather than take as an end.
      const interim = state !== null && !isFinalA2ATaskState(state) && state !== "input-required";
      if (interim && result.taskId !== undefined) {
        return { kind: "pending", protocol, contextId, raw: result, task: ref(), data, text };
      }
      if (state === "input-required" && result.taskId !== undefined) {
        return {
          kind: "input_required",
          protocol,
          contextId,
          raw: result,
          task: ref(),
          data,
          text,
        };
      }
      if (data !== null) return payloadResult(protocol, task, data, contextId, result);
      return {
        kind: "text",
        protocol,
        contextId,
        raw: result,
        text,
        isError: result.kind === "text" && result.isError === true,
      };
    }
  }
}

/**
 * The answer of a `get_task_status` poll of `task` (`protocol/get-task-status-response.json`),
 * as the union: running and input-required states keep the handle (with the state seen), a
 * completed task is its `result` (or the status payload itself when the seller gave no result), a
 * failed one its `error` when that is a valid AdCP error, else its `result`; a canceled task, or a
 * failed one with neither, is an error text. A status this client does not know keeps the handle
 * (`pending`); an answer without a status is refused.
 */
export function fromTaskStatus(task: AgentTask, polled: AgentCallResult): AgentCallResult {
  if (polled.kind !== "success" && polled.kind !== "pending" && polled.kind !== "input_required") {
    return polled;
  }
  const data = polled.data;
  const { protocol, raw } = polled;
  // Each poll is its own invocation that completes with a get_task_status answer: a native task
  // still running, or an answer about another task, would move the buyer's waiting elsewhere.
  if (data === null || (polled.kind !== "success" && polled.task.via !== "adcp_task")) {
    return failedResult(
      protocol,
      new AgentProtocolError("invalid_message", "a get_task_status answer", "an unfinished task"),
    );
  }
  const taskType = own(data, "task_type");
  if (own(data, "task_id") !== task.taskId || (taskType !== undefined && taskType !== task.task)) {
    return failedResult(
      protocol,
      new AgentProtocolError(
        "invalid_message",
        "the status of the task that was polled",
        "another task's",
      ),
    );
  }
  const state = payloadState(data);
  const context = protocol === "a2a"
    ? task.contextId ?? ownText(data, "context_id")
    : ownText(data, "context_id") ?? task.contextId;
  const ongoing = ongoingResult(protocol, task.task, task.via, task.taskId, { data, context, raw });
  if (ongoing !== undefined) return ongoing;
  const result = own(data, "result");
  if (state === "completed") {
    return {
      kind: "success",
      protocol,
      contextId: context,
      raw,
      data: isJsonObject(result) ? result : data,
    };
  }
  if (state === "failed" || state === "rejected") {
    const error = validateAdcpError(own(data, "error"));
    if (error !== null) {
      return {
        kind: "error",
        protocol,
        contextId: context,
        raw,
        error,
        decision: decideRecovery(error),
        source: "task_status",
      };
    }
    if (isJsonObject(result)) {
      return { kind: "success", protocol, contextId: context, raw, data: result };
    }
  }
  if (state === "failed" || state === "rejected" || state === "canceled") {
    const text = ownText(data, "message") ?? `The task is ${state}`;
    return { kind: "text", protocol, contextId: context, raw, text, isError: true };
  }
  if (state !== null) {
    // A status this client does not know (a newer value) does not end the task: the handle is
    // kept, and a wait goes on polling.
    const ref = handle(protocol, task.task, task.via, task.taskId, context, state);
    const text = ownText(data, "message") ?? "";
    return { kind: "pending", protocol, contextId: context, raw, task: ref, data, text };
  }
  return failedResult(
    protocol,
    new AgentProtocolError(
      "invalid_message",
      "a get_task_status answer with a known status",
      state === null ? "none" : "another status",
    ),
  );
}

/**
 * A transport failure as a result member, with the recovery decision it stands for; a local
 * signing failure (the signer could not sign, nothing was sent) stands for none: `null`.
 */
export function failedResult(
  protocol: AgentProtocol,
  error: AdcpTransportError | AdcpSigningError,
): AgentFailed {
  const adcpError = error instanceof AdcpTransportError ? transportAdcpError(error) : null;
  const decision: RecoveryDecision | null = adcpError === null ? null : decideRecovery(adcpError);
  const failed: AgentFailed = {
    kind: "failed",
    protocol,
    contextId: undefined,
    raw: undefined,
    error,
    decision,
  };
  const signatureError = error instanceof HttpStatusError ? error.signatureError : undefined;
  return signatureError === undefined ? failed : { ...failed, signatureError };
}

/**
 * Whether `thrown` is a failure to return as `failed`: a transport failure, or the signer's own
 * (`SigningFailedError`, `TargetUriMalformedError` of `@adcp-wire/signing`). Anything else is
 * rethrown.
 */
export function isTransportFailure(
  thrown: unknown,
): thrown is AdcpTransportError | AdcpSigningError {
  return thrown instanceof AdcpTransportError || thrown instanceof AdcpSigningError;
}
