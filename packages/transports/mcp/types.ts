// The public types of the MCP client: its options, the results of its calls, and the protocol
// versions it speaks.
import type { ExtractedAdcpError, McpResponseOutcome } from "@adcp-wire/core";
import type { RecoveryDecision } from "@adcp-wire/recovery";
import type { CallOptions, ClientOptions } from "../client/options.ts";

/**
 * The MCP protocol version {@link McpClient} asks for by default: `"2025-11-25"`.
 */
export const MCP_PROTOCOL_VERSION = "2025-11-25";

/**
 * The MCP protocol versions {@link McpClient} accepts from `initialize`. `structuredContent`
 * needs 2025-03-26 or later (Transport Error Mapping, "Tool-Level Errors"); 2024-11-05 servers are
 * still read through the text fallback.
 */
export const MCP_SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
]);

/**
 * Options of {@link McpClient}.
 */
export interface McpClientOptions extends ClientOptions {
  /**
   * The protocol version sent in `initialize`.
   * @default {"2025-11-25"}
   */
  readonly protocolVersion?: string | undefined;
  /**
   * The `clientInfo` sent in `initialize`. Default: name `"adcp-wire"`, version `"0.1.0"`.
   */
  readonly clientInfo?: { readonly name: string; readonly version: string } | undefined;
  /**
   * Most `tools/list` pages one {@link McpClient.listTools} call follows.
   * @default {100}
   */
  readonly maxPages?: number | undefined;
  /**
   * Most `Last-Event-ID` reconnects for one request whose SSE stream dropped.
   * @default {3}
   */
  readonly maxReconnects?: number | undefined;
  /**
   * Called with each JSON-RPC notification the server sends on a response stream
   * (`notifications/progress`, `notifications/message`, ...). Its values are seller-controlled.
   * @default {undefined}
   */
  readonly onNotification?: ((notification: McpNotification) => void) | undefined;
}

/**
 * A JSON-RPC notification from the server, as passed to `onNotification`.
 */
export interface McpNotification {
  /** The notification method. */
  readonly method: string;
  /** Its `params`, raw. */
  readonly params: unknown;
}

/**
 * Options of one {@link McpClient} call.
 */
export interface McpCallOptions extends CallOptions {
  /**
   * Adds an `idempotency_key` to the tool arguments of `callTool` / `callToolAsTask`: `true` for a
   * fresh UUID v4, minted once per call and the same on every retry of it, or the key to use. An
   * `idempotency_key` already in the arguments is kept. See {@link withIdempotencyKey}.
   * @default {false}
   */
  readonly idempotencyKey?: boolean | string | undefined;
}

/**
 * What `initialize` returned, after the version check.
 */
export interface McpInitializeResult {
  /** The negotiated protocol version, one of {@link MCP_SUPPORTED_PROTOCOL_VERSIONS}. */
  readonly protocolVersion: string;
  /** The server's `capabilities`, raw (`{}` when absent). */
  readonly capabilities: Record<string, unknown>;
  /** The server's `serverInfo`, raw. */
  readonly serverInfo: unknown;
  /** The session id the server assigned, if any. */
  readonly sessionId: string | undefined;
}

/**
 * A tool from `tools/list`: the server's object, with a string `name` checked.
 */
export interface McpTool {
  /** The tool name. */
  readonly name: string;
  /** Every other field (`description`, `inputSchema`, `execution`, ...), raw. */
  readonly [key: string]: unknown;
}

/**
 * What a `tools/call` (or `tasks/result`) returned:
 *
 * - the outcomes of `handleMcpResponse` of `@adcp-wire/core` (`"success"`, `"error"`, `"text"`,
 *   the last with `isError: true` for an error response without a valid structured error);
 * - `"error"` also for a JSON-RPC error carrying a valid `error.data.adcp_error` (path
 *   `"jsonrpc_error"`, with its `rpcCode`: the reserved `-32029`, `-32028`, `-32027` or any
 *   other);
 * - `"jsonrpc_error"` for a JSON-RPC error without one (`rpcMessage` sanitized, `data` raw).
 *
 * Every `"error"` carries the recovery decision of `decideRecovery` (`@adcp-wire/recovery`): the
 * budget-free decision for a first failure, or, when the client retried, the decision that ended
 * the retrying (for example `escalate_to_human` with reason `retry_budget_exhausted`).
 */
export type McpCallResult =
  | Exclude<McpResponseOutcome, { readonly kind: "error" }>
  | {
    readonly kind: "error";
    readonly error: ExtractedAdcpError;
    readonly path: "structured_content" | "text_fallback" | "jsonrpc_error";
    /** The JSON-RPC error code for path `"jsonrpc_error"`, otherwise `undefined`. */
    readonly rpcCode: number | undefined;
    readonly decision: RecoveryDecision;
  }
  | {
    readonly kind: "jsonrpc_error";
    readonly rpcCode: number;
    readonly rpcMessage: string;
    readonly data: unknown;
  };

/**
 * An MCP task (`tasks/get`, or the `task` of a `CreateTaskResult`), with its fields checked.
 */
export interface McpTask {
  /** The task id. */
  readonly taskId: string;
  /** `working`, `input_required`, `completed`, `failed`, `cancelled` (or a newer value). */
  readonly status: string;
  /** The server's suggested poll interval in milliseconds, when it gave a finite number. */
  readonly pollInterval: number | undefined;
  /** The server's status message, sanitized, when it gave one. */
  readonly statusMessage: string | undefined;
  /** The server's object, raw. */
  readonly raw: Record<string, unknown>;
}

/**
 * What a task-augmented `tools/call` returned: the task handle, or, from a server that ran the
 * tool at once, the tool result.
 */
export type McpTaskCreation =
  | { readonly kind: "task"; readonly task: McpTask }
  | { readonly kind: "result"; readonly result: McpCallResult };

/**
 * Options of {@link McpClient.callToolAsTask}.
 */
export interface McpTaskCallOptions extends McpCallOptions {
  /**
   * The task's requested time to live in milliseconds (`params.task.ttl`); omitted when unset.
   * @default {undefined}
   */
  readonly ttl?: number | undefined;
}

/**
 * Options of {@link McpClient.waitForTask}.
 */
export interface McpWaitOptions extends McpCallOptions {
  /**
   * How long to poll before giving up with a {@link DeadlineExceededError}, in milliseconds.
   * @default {300000}
   */
  readonly maxWaitMs?: number | undefined;
  /**
   * The least time between polls, in milliseconds, from 50 to 30,000. The server's
   * `pollInterval` may lengthen it (up to 30 s), never shorten it: the server does not choose
   * how often the client polls.
   * @default {1000}
   */
  readonly pollIntervalMs?: number | undefined;
}

/** One serialized JSON-RPC message: sent as `body`, byte for byte, on every attempt. */
