// The public types of the MCP client: its options, the results of its calls, and the protocol
// versions it speaks.
import type { ExtractedAdcpError, McpResponseOutcome } from "@adcp-wire/core";
import type { RecoveryDecision } from "@adcp-wire/recovery";
import type { ClientLimits } from "../client/limits.ts";
import type { CallOptions, ClientOptions } from "../client/options.ts";

/**
 * The MCP protocol version {@linkcode McpClient} asks for by default: `"2025-11-25"`.
 *
 * @example Reading the default
 * ```ts
 * import { MCP_PROTOCOL_VERSION, MCP_SUPPORTED_PROTOCOL_VERSIONS } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * strictEqual(MCP_PROTOCOL_VERSION, "2025-11-25");
 * ok(MCP_SUPPORTED_PROTOCOL_VERSIONS.includes(MCP_PROTOCOL_VERSION));
 * ```
 */
export const MCP_PROTOCOL_VERSION = "2025-11-25";

/**
 * The MCP protocol versions {@linkcode McpClient} accepts from `initialize`. `structuredContent`
 * needs 2025-03-26 or later (Transport Error Mapping, "Tool-Level Errors"); 2024-11-05 servers are
 * still read through the text fallback.
 *
 * @example The accepted versions, newest first
 * ```ts
 * import { MCP_SUPPORTED_PROTOCOL_VERSIONS } from "@adcp-wire/transports";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 *
 * deepStrictEqual(MCP_SUPPORTED_PROTOCOL_VERSIONS, [
 *   "2025-11-25",
 *   "2025-06-18",
 *   "2025-03-26",
 *   "2024-11-05",
 * ]);
 * ok(Object.isFrozen(MCP_SUPPORTED_PROTOCOL_VERSIONS));
 * ```
 */
export const MCP_SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
]);

/**
 * Options of {@linkcode McpClient}.
 *
 * @example Headers sent with every request, to an in-memory agent
 * ```ts
 * import { McpClient, type McpClientOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const seen: string[] = [];
 * const options: McpClientOptions = {
 *   headers: { authorization: "Bearer demo-token" },
 *   fetch: async (_input, init) => {
 *     const { id, method } = await new Response(init?.body).json();
 *     seen.push(`${method} ${new Headers(init?.headers).get("authorization")}`);
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     const result = { protocolVersion: "2025-11-25", capabilities: {} };
 *     return Response.json({ jsonrpc: "2.0", id, result });
 *   },
 * };
 * await new McpClient("https://agent.example/mcp", options).connect();
 * deepStrictEqual(seen, [
 *   "initialize Bearer demo-token",
 *   "notifications/initialized Bearer demo-token",
 * ]);
 * ```
 */
export interface McpClientOptions extends ClientOptions {
  /**
   * The protocol version sent in `initialize`.
   * @default {"2025-11-25"}
   */
  readonly protocolVersion?: string | undefined;
  /**
   * The `clientInfo` sent in `initialize`.
   * @default {{ name: "adcp-wire", version: "0.1.0" }}
   */
  readonly clientInfo?: { readonly name: string; readonly version: string } | undefined;
  /**
   * Most `tools/list` pages one {@linkcode McpClient.listTools} call follows.
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
 *
 * @example A log message streamed before the response
 * ```ts
 * import { McpClient, type McpNotification } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const log = { method: "notifications/message", params: { level: "info", data: "Warming up" } };
 * const notifications: McpNotification[] = [];
 * const client = new McpClient("https://agent.example/mcp", {
 *   onNotification: (notification) => notifications.push(notification),
 *   fetch: async (_input, init) => {
 *     const { id } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     const result = { protocolVersion: "2025-11-25", capabilities: {} };
 *     const messages = [{ jsonrpc: "2.0", ...log }, { jsonrpc: "2.0", id, result }];
 *     const body = messages.map((message) => `data: ${JSON.stringify(message)}\n\n`).join("");
 *     return new Response(body, { headers: { "content-type": "text/event-stream" } });
 *   },
 * });
 * await client.connect();
 * deepStrictEqual(notifications, [log]);
 * ```
 */
export interface McpNotification {
  /** The notification method. */
  readonly method: string;
  /** Its `params`, raw. */
  readonly params: unknown;
}

/**
 * Options of one {@linkcode McpClient} call.
 *
 * @example A tighter byte cap for one call
 * ```ts
 * import { type McpCallOptions, McpClient } from "@adcp-wire/transports";
 * import { rejects, strictEqual } from "node:assert/strict";
 *
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: async (_input, init) => {
 *     const { id, method } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     const result = method === "initialize"
 *       ? { protocolVersion: "2025-11-25", capabilities: {} }
 *       : { content: [{ type: "text", text: "x".repeat(200) }] };
 *     return Response.json({ jsonrpc: "2.0", id, result });
 *   },
 * });
 * strictEqual((await client.callTool("get_products")).kind, "text"); // the client's limits
 * const options: McpCallOptions = { limits: { maxResponseBytes: 128 } };
 * await rejects(client.callTool("get_products", {}, options), {
 *   code: "RESPONSE_TOO_LARGE",
 *   limit: 128,
 * });
 * ```
 */
export interface McpCallOptions extends CallOptions {
  /**
   * Adds an `idempotency_key` to the tool arguments of `callTool` / `callToolAsTask`: `true` for a
   * fresh UUID v4, minted once per call and the same on every retry of it, or the key to use. An
   * `idempotency_key` already in the arguments is kept. See {@linkcode withIdempotencyKey}.
   * @default {false}
   */
  readonly idempotencyKey?: boolean | string | undefined;
}

/**
 * What `initialize` returned, after the version check.
 *
 * @example What `connect()` returns
 * ```ts
 * import { McpClient, type McpInitializeResult } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const serverInfo = { name: "demo", version: "1.0.0" };
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: async (_input, init) => {
 *     const { id } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     const result = { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo };
 *     const headers = { "mcp-session-id": "s-1" };
 *     return Response.json({ jsonrpc: "2.0", id, result }, { headers });
 *   },
 * });
 * const initialized: McpInitializeResult = await client.connect();
 * deepStrictEqual(initialized, {
 *   protocolVersion: "2025-06-18",
 *   capabilities: { tools: {} },
 *   serverInfo,
 *   sessionId: "s-1",
 * });
 * ```
 */
export interface McpInitializeResult {
  /** The negotiated protocol version, one of {@linkcode MCP_SUPPORTED_PROTOCOL_VERSIONS}. */
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
 *
 * @example Listing tools
 * ```ts
 * import { McpClient, type McpTool } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const tool = { name: "get_products", inputSchema: { type: "object" } };
 * const answers = [
 *   { result: { protocolVersion: "2025-11-25", capabilities: { tools: {} } } }, // to initialize
 *   { result: { tools: [tool] } }, // to tools/list
 * ];
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: async (_input, init) => {
 *     const { id } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     return Response.json({ jsonrpc: "2.0", id, ...answers.shift() });
 *   },
 * });
 * const tools: McpTool[] = await client.listTools();
 * strictEqual(tools[0]?.name, "get_products");
 * deepStrictEqual(tools, [tool]);
 * ```
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
 *
 * @example A reserved `-32029` JSON-RPC error comes back as an `"error"` member
 * ```ts
 * import { type McpCallResult, McpClient } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const adcp_error = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient" };
 * const answers = [
 *   { result: { protocolVersion: "2025-11-25", capabilities: {} } }, // to initialize
 *   { error: { code: -32029, message: "Rate limited", data: { adcp_error } } }, // to tools/call
 * ];
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: async (_input, init) => {
 *     const { id } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     return Response.json({ jsonrpc: "2.0", id, ...answers.shift() });
 *   },
 * });
 * const result: McpCallResult = await client.callTool("get_products", { brief: "CTV" });
 * ok(result.kind === "error");
 * strictEqual(result.path, "jsonrpc_error");
 * strictEqual(result.rpcCode, -32029);
 * strictEqual(result.error.code, "RATE_LIMITED");
 * strictEqual(result.decision.action, "retry");
 * ```
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
 *
 * @example Reading a task's state
 * ```ts
 * import { McpClient, type McpTask } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const state = {
 *   taskId: "t-1",
 *   status: "working",
 *   pollInterval: 2_000,
 *   statusMessage: "Booking",
 * };
 * const answers = [
 *   { result: { protocolVersion: "2025-11-25", capabilities: {} } }, // to initialize
 *   { result: state }, // to tasks/get
 * ];
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: async (_input, init) => {
 *     const { id } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     return Response.json({ jsonrpc: "2.0", id, ...answers.shift() });
 *   },
 * });
 * const task: McpTask = await client.getTask("t-1");
 * strictEqual(task.status, "working");
 * strictEqual(task.pollInterval, 2_000);
 * strictEqual(task.statusMessage, "Booking");
 * deepStrictEqual(task.raw, state);
 * ```
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
 *
 * @example A task handle from a task-augmented call
 * ```ts
 * import { McpClient, type McpTaskCreation } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const answers = [
 *   { result: { protocolVersion: "2025-11-25", capabilities: {} } }, // to initialize
 *   { result: { task: { taskId: "t-1", status: "working" } } }, // to tools/call
 * ];
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: async (_input, init) => {
 *     const { id } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     return Response.json({ jsonrpc: "2.0", id, ...answers.shift() });
 *   },
 * });
 * const created: McpTaskCreation = await client.callToolAsTask("create_media_buy", {});
 * ok(created.kind === "task");
 * strictEqual(created.task.taskId, "t-1");
 * ```
 */
export type McpTaskCreation =
  | { readonly kind: "task"; readonly task: McpTask }
  | { readonly kind: "result"; readonly result: McpCallResult };

/**
 * Options of {@linkcode McpClient.callToolAsTask}.
 *
 * @example The `ttl` is sent as `params.task.ttl`
 * ```ts
 * import { McpClient, type McpTaskCallOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * let requested: unknown;
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: async (_input, init) => {
 *     const { id, method, params } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     if (method === "tools/call") requested = params.task;
 *     const result = method === "initialize"
 *       ? { protocolVersion: "2025-11-25", capabilities: {} }
 *       : { task: { taskId: "t-1", status: "working" } };
 *     return Response.json({ jsonrpc: "2.0", id, result });
 *   },
 * });
 * const options: McpTaskCallOptions = { ttl: 60_000, limits: { timeoutMs: 10_000 } };
 * await client.callToolAsTask("create_media_buy", {}, options);
 * deepStrictEqual(requested, { ttl: 60_000 });
 * ```
 */
export interface McpTaskCallOptions extends McpCallOptions {
  /**
   * The task's requested time to live in milliseconds (`params.task.ttl`); omitted when unset.
   * @default {undefined}
   */
  readonly ttl?: number | undefined;
}

/**
 * Options of {@linkcode McpClient.waitForTask}.
 *
 * @example Giving up when the next poll would come after `maxWaitMs`
 * ```ts
 * import { McpClient, type McpWaitOptions } from "@adcp-wire/transports";
 * import { rejects } from "node:assert/strict";
 *
 * const answers = [
 *   { result: { protocolVersion: "2025-11-25", capabilities: {} } }, // to initialize
 *   { result: { taskId: "t-1", status: "working", pollInterval: 5_000 } }, // to tasks/get
 * ];
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: async (_input, init) => {
 *     const { id } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     return Response.json({ jsonrpc: "2.0", id, ...answers.shift() });
 *   },
 * });
 * const options: McpWaitOptions = { maxWaitMs: 1_000 };
 * await rejects(client.waitForTask("t-1", options), {
 *   code: "DEADLINE_EXCEEDED",
 *   timeoutMs: 1_000,
 * });
 * ```
 */
export interface McpWaitOptions extends McpCallOptions {
  /**
   * How long to poll before giving up with a {@linkcode DeadlineExceededError}, in milliseconds.
   * @default {300000}
   */
  readonly maxWaitMs?: number | undefined;
}

/** One serialized JSON-RPC message: sent as `body`, byte for byte, on every attempt. */
