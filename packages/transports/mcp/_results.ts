// Checks of McpClient's arguments and of the messages an MCP agent sends back, and the mapping of
// a `tools/call` answer to an `McpCallResult`.
import { extractAdcpErrorFromJsonRpcError, handleMcpResponse } from "@adcp-wire/core";
import { describe, isJsonObject as isObject, optionError, own } from "@adcp-wire/internal";
import { decideRecovery } from "@adcp-wire/recovery";
import { scanJsonDepth } from "@adcp-wire/security";
import {
  asRpcResponse,
  ownString,
  type RpcErrorObject,
  type RpcResponse,
  safeRpcMessage,
} from "../client/_rpc.ts";
import type { ResolvedClientLimits } from "../client/limits.ts";
import { AgentProtocolError } from "../errors.ts";
import { checkValueBounds } from "../read/_json.ts";
import type { McpCallResult, McpTask } from "./types.ts";

export function invalid(expected: string, seen: string): AgentProtocolError {
  return new AgentProtocolError("invalid_message", expected, seen);
}

export function checkToolCall(name: unknown, args: unknown): void {
  if (typeof name !== "string" || name === "") {
    throw optionError(TypeError, "call the tool", "name", "a non-empty string", name);
  }
  if (!isObject(args)) {
    throw optionError(TypeError, "call the tool", "args", "an object", args);
  }
}

export function checkTaskId(taskId: unknown): void {
  if (typeof taskId !== "string" || taskId === "") {
    throw optionError(TypeError, "use the task", "taskId", "a non-empty string", taskId);
  }
}

/** The response to request `id` in a JSON body (one response or a batch). */
export function findResponse(value: unknown, id: number): RpcResponse {
  for (const message of Array.isArray(value) ? value : [value]) {
    const rpc = asRpcResponse(message);
    if (rpc !== undefined && rpc.id === id) return rpc;
  }
  throw invalid(`a JSON-RPC response with id ${id}`, "none");
}

export function checkTask(value: unknown): McpTask {
  if (!isObject(value)) throw invalid("a task object", describe(value));
  const taskId = ownString(value, "taskId");
  const status = ownString(value, "status");
  if (taskId === undefined || taskId === "" || status === undefined) {
    throw invalid("a task with string taskId and status", "a task without them");
  }
  const poll = own(value, "pollInterval");
  const message = ownString(value, "statusMessage");
  return {
    taskId,
    status,
    pollInterval: typeof poll === "number" && Number.isFinite(poll) ? poll : undefined,
    statusMessage: message === undefined ? undefined : safeRpcMessage(message),
    raw: value,
  };
}

/**
 * Classifies a `tools/call` or `tasks/result` answer. JSON that the extraction will parse out of a
 * `content[].text` item is held to the call's depth bound before it is parsed, and to the node
 * bound after: for a server that returns only text, "that item is the entire response" (MCP
 * Response Extraction, Size Limits). Data from `structuredContent` was bounded with the body.
 *
 * @throws {JsonDepthLimitError | JsonNodeLimitError} When text-item JSON passes a bound.
 */
export function classifyToolResult(
  response: RpcResponse,
  limits: ResolvedClientLimits,
): McpCallResult {
  if (!response.ok) return classifyRpcError(response.error);
  const { maxJsonDepth, maxJsonNodes } = limits;
  const longest = scanTextItems(response.result, maxJsonDepth);
  const outcome = handleMcpResponse(response.result, {
    maxResponseBytes: Math.max(1, limits.maxResponseBytes),
  });
  // The depth was bounded before parsing; the node count needs a walk only for a text long enough
  // to hold more values than the bound (n values take at least 2n - 1 characters).
  const walk = (longest + 1) / 2 > maxJsonNodes;
  if (outcome.kind === "success" && walk) {
    const structured = isObject(response.result)
      ? own(response.result, "structuredContent")
      : undefined;
    if (outcome.data !== structured) checkValueBounds(outcome.data, maxJsonDepth, maxJsonNodes);
  }
  if (outcome.kind !== "error") return outcome;
  if (outcome.path === "text_fallback" && walk) {
    checkValueBounds(outcome.error, maxJsonDepth, maxJsonNodes);
  }
  return {
    kind: "error",
    error: outcome.error,
    path: outcome.path,
    rpcCode: undefined,
    decision: decideRecovery(outcome.error),
  };
}

/**
 * Scans, before anything parses them, the text items the extraction of `@adcp-wire/core` would
 * `JSON.parse`: those that start with `{` (after JSON whitespace) when the result has no
 * `structuredContent` object for success, or when it is an error whose `structuredContent` carries
 * no `adcp_error` (Transport Error Mapping, "Client Detection Order", steps 1 and 5).
 *
 * @returns The length of the longest text scanned (0 when none was).
 * @throws {JsonDepthLimitError} When one nests deeper than `maxDepth`.
 */
export function scanTextItems(result: unknown, maxDepth: number): number {
  if (!isObject(result)) return 0;
  const structured = own(result, "structuredContent");
  if (isObject(structured)) {
    if (!own(result, "isError") || own(structured, "adcp_error")) return 0;
  }
  const content = own(result, "content");
  if (!Array.isArray(content)) return 0;
  let longest = 0;
  for (let index = 0; index < content.length; index++) {
    const item = content[index];
    if (!isObject(item) || own(item, "type") !== "text") continue;
    const text = own(item, "text");
    if (typeof text !== "string" || !startsWithBrace(text)) continue;
    const scan = scanJsonDepth(text, maxDepth);
    if (!scan.valid) throw scan.error;
    if (text.length > longest) longest = text.length;
  }
  return longest;
}

/** Whether the first character of `text` after JSON whitespace is `{`. */
export function startsWithBrace(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0x7b) return true;
    if (unit !== 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d) return false;
  }
  return false;
}

export function classifyRpcError(error: RpcErrorObject): McpCallResult {
  const adcpError = extractAdcpErrorFromJsonRpcError(error);
  if (adcpError !== null) {
    return {
      kind: "error",
      error: adcpError,
      path: "jsonrpc_error",
      rpcCode: error.code,
      decision: decideRecovery(adcpError),
    };
  }
  return {
    kind: "jsonrpc_error",
    rpcCode: error.code,
    rpcMessage: safeRpcMessage(error.message),
    data: error.data,
  };
}
