import {
  type AdcpError,
  extractAdcpErrorFromMcpError,
  handleMcpResponse,
  type McpResponseOutcome,
} from "@adcp-wire/core";
import {
  decideRecovery,
  type RecoveryDecision,
  type RetryPolicy,
  type RetryPolicyOptions,
} from "@adcp-wire/recovery";
import { describe } from "../_describe.ts";
import { scanJsonDepth } from "@adcp-wire/security";
import { checkValueBounds } from "../read/_json.ts";
import {
  asRpcInbound,
  asRpcResponse,
  bodyKind,
  Call,
  CallerError,
  callLimits,
  countOption,
  discard,
  errorStatusResponse,
  fetchWithin,
  functionOption,
  httpStatusError,
  httpUrl,
  isObject,
  type JsonObject,
  jsonRpcError,
  objectOption,
  own,
  ownString,
  parseEventData,
  readJsonWithin,
  type RpcErrorObject,
  type RpcResponse,
  safeRpcMessage,
  sleepWithin,
} from "../client/_rpc.ts";
import { runWithRetry } from "../client/_retry.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";
import {
  AgentProtocolError,
  DeadlineExceededError,
  ItemLimitError,
  JsonDepthLimitError,
  NetworkError,
} from "../errors.ts";
import type { ClientLimits, ResolvedClientLimits } from "../read/limits.ts";
import { keyedArgs } from "../client/_idempotency.ts";
import { readSseEvents } from "../read/sse.ts";

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

/** Longest `Mcp-Session-Id` accepted, in characters. */
const MAX_SESSION_ID_LENGTH = 1024;
/** A session id is visible ASCII only (MCP Streamable HTTP, Session Management). */
const SESSION_ID = /^[\x21-\x7e]+$/;
/** Reconnect delay when the server sent no SSE `retry` field, in milliseconds. */
const DEFAULT_RECONNECT_DELAY_MS = 500;
/** Task poll interval when `tasks/get` gives no `pollInterval`, and its clamp, in milliseconds. */
const DEFAULT_POLL_MS = 1_000;
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 30_000;
const TERMINAL_TASK_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/**
 * Whether and how a client retries transient AdCP errors: `false` (never), `true` (the default
 * policy of `@adcp-wire/recovery`: at most 3 retries within 300 s, `retry_after` honoured), or a
 * policy or policy options.
 *
 * @example Retrying a rate-limited call after the seller's `retry_after`
 * ```ts
 * import { McpClient, type RetryOption } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const adcp_error = {
 *   code: "RATE_LIMITED",
 *   message: "Slow down",
 *   recovery: "transient",
 *   retry_after: 5,
 * };
 * const answers = [
 *   { result: { protocolVersion: "2025-11-25", capabilities: {} } }, // to initialize
 *   { error: { code: -32029, message: "Rate limited", data: { adcp_error } } }, // to tools/call
 *   { result: { content: [{ type: "text", text: "Found 3 products" }] } }, // to the retry
 * ];
 * const waits: number[] = [];
 * const retry: RetryOption = { maxRetries: 2, sleep: (ms) => (waits.push(ms), Promise.resolve()) };
 * const client = new McpClient("https://agent.example/mcp", {
 *   retry,
 *   fetch: async (_input, init) => {
 *     const { id } = await new Response(init?.body).json();
 *     if (id === undefined) return new Response(null, { status: 202 }); // a notification
 *     return Response.json({ jsonrpc: "2.0", id, ...answers.shift() });
 *   },
 * });
 * strictEqual((await client.callTool("get_products", { brief: "CTV" })).kind, "text");
 * deepStrictEqual(waits, [5_000]);
 * ```
 */
export type RetryOption = boolean | RetryPolicy | RetryPolicyOptions;

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
export interface McpClientOptions {
  /**
   * Headers sent with every request (for example `Authorization`). The client sets
   * `Content-Type`, `Accept`, `Mcp-Session-Id`, `MCP-Protocol-Version` and `Last-Event-ID` itself,
   * and `Accept-Encoding: identity` unless this sets `Accept-Encoding`.
   * @default {{}}
   */
  readonly headers?: HeadersInit | undefined;
  /**
   * Client-wide limits (at most 4 MiB per response), under `agent` and per-call limits; see
   * {@linkcode resolveLimits}.
   * @default {{}}
   */
  readonly defaults?: ClientLimits | undefined;
  /**
   * Limits for this agent; may raise the byte caps above 4 MiB.
   * @default {{}}
   */
  readonly agent?: ClientLimits | undefined;
  /**
   * The `fetch` to use.
   * @default {globalThis.fetch}
   */
  readonly fetch?: FetchLike | undefined;
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
   * Retry transient AdCP errors of `tools/call` (and a `-32029` answer to a lazy `initialize`)
   * with `withRetry` of `@adcp-wire/recovery`, honouring `retry_after` and the retry budget.
   * @default {false}
   */
  readonly retry?: RetryOption | undefined;
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
export interface McpCallOptions {
  /**
   * Limits for this call, over the agent's and the client's: the byte budget, deadline and item
   * caps of the whole operation (every page, poll, reconnect and event).
   * @default {{}}
   */
  readonly limits?: ClientLimits | undefined;
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
    readonly error: AdcpError;
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
interface Exchange {
  readonly method: string;
  readonly id: number | undefined;
  readonly body: string;
}

/**
 * A thin MCP client for the Streamable HTTP transport, written for AdCP: every response is
 * bounded, every AdCP error comes back typed, and no SDK is involved.
 *
 * - `initialize`, then the `notifications/initialized` notification (done lazily by the first call,
 *   or by {@linkcode McpClient.connect}); the `Mcp-Session-Id` the server assigns and the
 *   negotiated `MCP-Protocol-Version` are sent on every later request (MCP 2025-11-25, Streamable
 *   HTTP, Session Management and Protocol Version Header).
 * - Requests are POSTed with `Accept: application/json, text/event-stream`; the server may answer
 *   either way. On the SSE path the server's requests are answered (`ping` with `{}`, anything else
 *   with `-32601`), notifications go to `onNotification`, and a stream that ends before the
 *   response is resumed with a GET carrying `Last-Event-ID`, after the server's `retry` delay (500
 *   ms when it sent none), at most `maxReconnects` times.
 * - Bounds (MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits): every
 *   response of every request, `initialize`, `tools/list`, `tools/call`, `tasks/get` and
 *   `tasks/result` included, is read under the limits of the call over the agent over the client
 *   defaults ({@linkcode resolveLimits}, {@linkcode ClientLimits}): `maxResponseBytes` per JSON
 *   body, per SSE event and cumulatively for everything one operation reads (the lazy
 *   `initialize`, every `tools/list` page, every SSE reconnect); one deadline (`timeoutMs`) covers
 *   the whole operation; `maxTools` and `maxEvents` cap what it collects; `waitForTask` ends within
 *   `maxWaitMs`; JSON depth and node bounds apply to every body and SSE event. Redirects are
 *   refused ({@linkcode RedirectRefusedError}). A `content[].text` item is also held to
 *   `maxResponseBytes` before `JSON.parse` (the same limit, not a tighter one), and the value
 *   extracted from it to the depth and node bounds (for a text-only server, that item is the whole
 *   response). Requests ask for `Accept-Encoding: identity`, so the bytes counted are the bytes
 *   received, and an answer in a content coding anyway is refused
 *   ({@linkcode ContentEncodingError}, `"not_requested"`); set an `accept-encoding` header in
 *   `headers` to let the runtime decompress instead (then only decoded bytes are bounded;
 *   `maxDecodedBytes` still caps them).
 * - Results: {@linkcode McpCallResult}. JSON-RPC errors of `tools/call`, the reserved `-32029`,
 *   `-32028`, `-32027` included, are result members, never thrown; other methods throw them as
 *   {@linkcode JsonRpcError} (with the `adcpError` they carry). Transport failures throw the
 *   {@linkcode AdcpTransportError} family: size, deadline, malformed JSON, and
 *   {@linkcode AgentProtocolError} for answers the protocol does not allow.
 *
 * Not supported: server-to-client sampling, elicitation and roots (answered `-32601`), the
 * standalone GET stream, and batching of requests.
 *
 * @example Calling a tool on an in-process agent
 * ```ts
 * import { McpClient } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * // A tiny agent: answers initialize, the initialized notification, and one tool call, in JSON.
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
 *   const message = await request.json();
 *   if (message.id === undefined) return new Response(null, { status: 202 });
 *   const result = message.method === "initialize"
 *     ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "demo", version: "1" } }
 *     : { content: [{ type: "text", text: "Found 1 product" }], structuredContent: { products: [{ product_id: "p1" }] } };
 *   return Response.json({ jsonrpc: "2.0", id: message.id, result });
 * });
 * try {
 *   const client = new McpClient(`http://127.0.0.1:${server.addr.port}/mcp`);
 *   const result = await client.callTool("get_products", { brief: "CTV" });
 *   deepStrictEqual(result, { kind: "success", data: { products: [{ product_id: "p1" }] } });
 * } finally {
 *   await server.shutdown();
 * }
 * ```
 */
export class McpClient {
  readonly #url: string;
  readonly #headers: Headers;
  readonly #defaults: ClientLimits | undefined;
  readonly #agent: ClientLimits | undefined;
  readonly #fetch: FetchLike | undefined;
  readonly #requestedVersion: string;
  readonly #clientInfo: { readonly name: string; readonly version: string };
  readonly #maxPages: number;
  readonly #maxReconnects: number;
  readonly #retry: RetryOption | undefined;
  readonly #onNotification: ((notification: McpNotification) => void) | undefined;
  #nextId = 1;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #initialized: Promise<McpInitializeResult> | undefined;

  /**
   * Creates a client for the MCP endpoint at `url`. Nothing is sent until the first call.
   *
   * @param url The Streamable HTTP endpoint (`http:` or `https:`).
   * @param options Headers, limits, `fetch`, pagination and reconnect bounds, retry.
   * @throws {TypeError} When `url` is not an absolute `http:`/`https:` URL or an option has the
   * wrong type.
   * @throws {RangeError} When a limit or bound is out of range.
   */
  constructor(url: string | URL, options: McpClientOptions = {}) {
    this.#url = httpUrl(url);
    objectOption("options", options);
    objectOption("options.defaults", options.defaults);
    objectOption("options.agent", options.agent);
    callLimits(options.defaults, options.agent, undefined); // validates both layers now
    this.#headers = new Headers(options.headers);
    this.#defaults = options.defaults;
    this.#agent = options.agent;
    this.#fetch = functionOption("options.fetch", options.fetch);
    const version = options.protocolVersion ?? MCP_PROTOCOL_VERSION;
    if (typeof version !== "string" || version === "") {
      throw new TypeError(
        `Expected options.protocolVersion to be a non-empty string, got ${describe(version)}`,
      );
    }
    this.#requestedVersion = version;
    const info = options.clientInfo ?? { name: "adcp-wire", version: "0.1.0" };
    if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") {
      throw new TypeError(
        `Expected options.clientInfo to be { name: string, version: string }, got ${
          describe(info)
        }`,
      );
    }
    this.#clientInfo = { name: info.name, version: info.version };
    this.#maxPages = countOption("options.maxPages", options.maxPages, 100);
    this.#maxReconnects = countOption("options.maxReconnects", options.maxReconnects, 3);
    this.#retry = options.retry;
    this.#onNotification = functionOption("options.onNotification", options.onNotification);
  }

  /** The session id the server assigned, or `undefined` (before `initialize`, or stateless). */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The negotiated protocol version, or `undefined` before `initialize`. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /**
   * Runs the `initialize` handshake, once: sends `initialize`, checks the negotiated version,
   * keeps the session id, and sends `notifications/initialized`. Later calls return the same
   * result; after a failure the next call tries again. Other methods call it when needed.
   *
   * @param options Limits for the handshake.
   * @returns The negotiated version, the server's capabilities and info, and the session id.
   * @throws {JsonRpcError} When the server answers `initialize` with a JSON-RPC error.
   * @throws {AgentProtocolError} For an unsupported version, a malformed session id or answer.
   * @throws {AdcpTransportError} For size, deadline and JSON failures.
   *
   * @example See {@linkcode McpClient}.
   * ```ts
   * import { McpClient } from "@adcp-wire/transports";
   * import { strictEqual } from "node:assert/strict";
   *
   * const client = new McpClient("https://agent.example/mcp");
   * strictEqual(client.sessionId, undefined);
   * ```
   */
  async connect(options?: McpCallOptions): Promise<McpInitializeResult> {
    const call = new Call(this.#limits(options));
    try {
      return await this.#connectWithin(call);
    } finally {
      call.dispose();
    }
  }

  /**
   * Runs `initialize` under `call` when no handshake is done or running; otherwise waits for the
   * running one, but no longer than `call`'s deadline.
   */
  async #connectWithin(call: Call): Promise<McpInitializeResult> {
    const running = this.#initialized;
    if (running !== undefined) {
      try {
        return await call.race(running);
      } catch (error) {
        // The handshake this call waited on ran under another call's deadline, budget and signal:
        // its failure is that call's. Once, this call runs its own (its deadline still holds).
        if (call.deadline.expired || this.#initialized === running) throw error;
        if (this.#initialized !== undefined) return await call.race(this.#initialized);
      }
    }
    const attempt = this.#initialize(call);
    this.#initialized = attempt;
    attempt.catch(() => {
      if (this.#initialized === attempt) this.#initialized = undefined;
    });
    return await attempt;
  }

  /**
   * Lists the server's tools, following `nextCursor` until it is absent, at most `maxPages`
   * pages and `maxTools` tools. All pages share one deadline and one byte budget.
   *
   * @param options Limits for the whole listing.
   * @returns Every tool, in server order.
   * @throws {AgentProtocolError} With reason `"page_limit"` past `maxPages` or on a repeated
   * cursor; `"invalid_message"` when a page has no `tools` array or a tool has no string `name`.
   * @throws {ItemLimitError} Past `maxTools` tools.
   * @throws {JsonRpcError} When the server answers with a JSON-RPC error.
   * @throws {AdcpTransportError} For size, deadline and JSON failures.
   *
   * @example Listing tools
   * ```ts ignore
   * const tools = await client.listTools();
   * console.log(tools.map((tool) => tool.name));
   * ```
   */
  async listTools(options?: McpCallOptions): Promise<McpTool[]> {
    const call = new Call(this.#limits(options));
    try {
      return await this.#listTools(call);
    } finally {
      call.dispose();
    }
  }

  async #listTools(call: Call): Promise<McpTool[]> {
    await this.#connectWithin(call);
    const tools: McpTool[] = [];
    const seen = new Set<string>();
    const maxTools = call.limits.maxTools;
    let cursor: string | undefined;
    for (let page = 0;; page++) {
      if (page >= this.#maxPages) {
        throw new AgentProtocolError(
          "page_limit",
          `at most ${this.#maxPages} tools/list pages`,
          "a further nextCursor",
        );
      }
      const result = await this.#resultOf(
        "tools/list",
        cursor === undefined ? {} : { cursor },
        call,
      );
      const list = isObject(result) ? own(result, "tools") : undefined;
      if (!Array.isArray(list)) {
        throw invalid("a tools/list result with a tools array", "none");
      }
      if (tools.length + list.length > maxTools) {
        throw new ItemLimitError("tools", maxTools, tools.length + list.length);
      }
      for (const tool of list) {
        if (!isObject(tool) || typeof own(tool, "name") !== "string") {
          throw invalid("tools with a string name", "a tool without one");
        }
        tools.push(tool as McpTool);
      }
      call.checkDeadline();
      const next = isObject(result) ? own(result, "nextCursor") : undefined;
      if (next === undefined || next === null) return tools;
      if (typeof next !== "string") throw invalid("a string nextCursor", describe(next));
      if (seen.has(next)) {
        throw new AgentProtocolError(
          "page_limit",
          "a new cursor on each page",
          "a repeated cursor",
        );
      }
      seen.add(next);
      cursor = next;
    }
  }

  /**
   * Calls a tool and classifies its result: `handleMcpResponse` of `@adcp-wire/core` for a
   * `CallToolResult`, and JSON-RPC errors as result members (see {@linkcode McpCallResult}).
   * With the client's `retry` option, transient AdCP errors are retried within the budget.
   *
   * @param name The tool name.
   * @param args The tool arguments.
   * @param options Limits for this call (each attempt gets its own deadline and byte budget), and
   * `idempotencyKey`.
   * @returns The classified result.
   * @throws {AdcpTransportError} For size, deadline, JSON and protocol failures (not retried).
   * @throws {TypeError} When `name` is not a string or `args` not an object.
   *
   * @example See {@linkcode McpClient}.
   * ```ts ignore
   * const result = await client.callTool("get_products", { brief: "CTV" });
   * if (result.kind === "error") console.log(result.error.code, result.decision.action);
   * ```
   */
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: McpCallOptions,
  ): Promise<McpCallResult> {
    checkToolCall(name, args);
    const limits = this.#limits(options);
    // Serialized once: every retry resends these exact bytes, with the same JSON-RPC id (Security,
    // "Request safety": on a retry, resend the exact same payload with the same idempotency_key).
    const request = this.#message("tools/call", {
      name,
      arguments: keyedArgs(args, options?.idempotencyKey),
    });
    return runWithRetry(
      async () => {
        const call = new Call(limits);
        try {
          await this.#connectWithin(call);
          const result = classifyToolResult((await this.#exchange(request, call))!, call.limits);
          call.checkDeadline();
          return result;
        } finally {
          call.dispose();
        }
      },
      this.#retry,
      limits.signal,
      (result) => result.kind === "error" ? result.error : null,
      (result, decision) => result.kind === "error" ? { ...result, decision } : result,
    );
  }

  /**
   * Calls a tool as an MCP task (`params.task`, MCP 2025-11-25 Tasks; AdCP MCP Guide, "MCP Tasks
   * as a Transport Wrapper"): the server answers with a task handle at once. Poll it with
   * {@linkcode McpClient.waitForTask}, then read the tool result with
   * {@linkcode McpClient.getTaskResult}. A server that ran the tool at once returns its result.
   *
   * @param name The tool name.
   * @param args The tool arguments.
   * @param options Limits, and the task's `ttl`.
   * @returns The task handle, or the tool result.
   * @throws {AgentProtocolError} When the task handle is malformed.
   * @throws {AdcpTransportError} For size, deadline and JSON failures.
   *
   * @example Running a tool as a task
   * ```ts ignore
   * const created = await client.callToolAsTask("create_media_buy", input, { ttl: 60_000 });
   * if (created.kind === "task") {
   *   await client.waitForTask(created.task.taskId);
   *   const result = await client.getTaskResult(created.task.taskId);
   * }
   * ```
   */
  async callToolAsTask(
    name: string,
    args: Record<string, unknown> = {},
    options?: McpTaskCallOptions,
  ): Promise<McpTaskCreation> {
    checkToolCall(name, args);
    const ttl = options?.ttl;
    if (ttl !== undefined) countOption("options.ttl", ttl, 0);
    const call = new Call(this.#limits(options));
    try {
      await this.#connectWithin(call);
      const response = await this.#request("tools/call", {
        name,
        arguments: keyedArgs(args, options?.idempotencyKey),
        task: ttl === undefined ? {} : { ttl },
      }, call);
      const created: McpTaskCreation =
        response.ok && isObject(response.result) && Object.hasOwn(response.result, "task")
          ? { kind: "task", task: checkTask(own(response.result, "task")) }
          : { kind: "result", result: classifyToolResult(response, call.limits) };
      call.checkDeadline();
      return created;
    } finally {
      call.dispose();
    }
  }

  /**
   * Reads a task's state with `tasks/get`.
   *
   * @param taskId The task id.
   * @param options Limits for this call.
   * @returns The task, checked.
   * @throws {JsonRpcError} When the server answers with a JSON-RPC error (an unknown task).
   * @throws {AgentProtocolError} When the task is malformed.
   * @throws {AdcpTransportError} For size, deadline and JSON failures.
   *
   * @example Reading a task
   * ```ts ignore
   * const task = await client.getTask("786512e2");
   * console.log(task.status);
   * ```
   */
  async getTask(taskId: string, options?: McpCallOptions): Promise<McpTask> {
    checkTaskId(taskId);
    const call = new Call(this.#limits(options));
    try {
      return await this.#getTask(taskId, call);
    } finally {
      call.dispose();
    }
  }

  async #getTask(taskId: string, call: Call): Promise<McpTask> {
    await this.#connectWithin(call);
    const task = checkTask(await this.#resultOf("tasks/get", { taskId }, call));
    call.checkDeadline();
    return task;
  }

  /**
   * Polls `tasks/get` until the task is `completed`, `failed`, `cancelled` or
   * `input_required`, waiting the server's `pollInterval` between polls (1 s when it gives none,
   * clamped to [50 ms, 30 s]) and at most `maxWaitMs` in all: each poll's deadline is its
   * `timeoutMs` clamped to the time left, and all polls share one byte budget
   * (`maxResponseBytes`).
   *
   * @param taskId The task id.
   * @param options Limits (`timeoutMs` per poll, the byte budget for all), and `maxWaitMs`.
   * @returns The task in its last state.
   * @throws {DeadlineExceededError} When `maxWaitMs` passes first.
   * @throws {JsonRpcError | AdcpTransportError} As {@linkcode McpClient.getTask}.
   *
   * @example Waiting for a task
   * ```ts ignore
   * const task = await client.waitForTask("786512e2", { maxWaitMs: 60_000 });
   * ```
   */
  async waitForTask(taskId: string, options?: McpWaitOptions): Promise<McpTask> {
    checkTaskId(taskId);
    const maxWaitMs = options?.maxWaitMs ?? 300_000;
    if (typeof maxWaitMs !== "number" || !(maxWaitMs > 0 && maxWaitMs <= 2_147_483_647)) {
      throw new RangeError(
        `Expected options.maxWaitMs to be a number of milliseconds in (0, 2147483647], got ${
          describe(maxWaitMs)
        }`,
      );
    }
    const limits = this.#limits(options);
    // One operation: every poll shares one byte budget and the maxWaitMs deadline; each poll's own
    // deadline is timeoutMs clamped to the time that remains.
    const operation = new Call({ ...limits, timeoutMs: maxWaitMs });
    try {
      return await this.#waitForTask(taskId, operation, maxWaitMs, limits.timeoutMs);
    } finally {
      operation.dispose();
    }
  }

  async #waitForTask(
    taskId: string,
    operation: Call,
    maxWaitMs: number,
    pollTimeoutMs: number,
  ): Promise<McpTask> {
    const started = operation.startedAt;
    for (;;) {
      const remaining = started + maxWaitMs - performance.now();
      if (remaining <= 0) throw new DeadlineExceededError(maxWaitMs, performance.now() - started);
      const poll = new Call(
        { ...operation.limits, timeoutMs: Math.max(1, Math.min(pollTimeoutMs, remaining)) },
        operation,
      );
      let task: McpTask;
      try {
        task = await this.#getTask(taskId, poll);
      } catch (error) {
        throw poll.deadline.expired && operation.remainingMs <= 1
          ? new DeadlineExceededError(maxWaitMs, performance.now() - started)
          : error;
      } finally {
        poll.dispose();
      }
      if (TERMINAL_TASK_STATUSES.has(task.status) || task.status === "input_required") return task;
      const interval = Math.min(
        MAX_POLL_MS,
        Math.max(MIN_POLL_MS, task.pollInterval ?? DEFAULT_POLL_MS),
      );
      const left = started + maxWaitMs - performance.now();
      if (interval > left) {
        throw new DeadlineExceededError(maxWaitMs, performance.now() - started);
      }
      await sleepWithin(interval, operation);
    }
  }

  /**
   * Reads a task's tool result with `tasks/result` and classifies it as
   * {@linkcode McpClient.callTool} does. The server may hold the request until the task ends, so
   * give it a deadline that covers the task (`limits.timeoutMs`).
   *
   * @param taskId The task id.
   * @param options Limits for this call.
   * @returns The classified tool result.
   * @throws {AdcpTransportError} For size, deadline, JSON and protocol failures.
   *
   * @example Reading a task's result
   * ```ts ignore
   * const result = await client.getTaskResult("786512e2");
   * ```
   */
  async getTaskResult(taskId: string, options?: McpCallOptions): Promise<McpCallResult> {
    checkTaskId(taskId);
    const call = new Call(this.#limits(options));
    try {
      await this.#connectWithin(call);
      const result = classifyToolResult(
        await this.#request("tasks/result", { taskId }, call),
        call.limits,
      );
      call.checkDeadline();
      return result;
    } finally {
      call.dispose();
    }
  }

  /**
   * Ends the session: sends `DELETE` with the session id (a `405` means the server does not
   * allow it, which is fine) and forgets the session. Without a session it does nothing.
   *
   * @param options Limits for this call.
   * @returns Nothing.
   * @throws {AdcpTransportError} For a deadline failure.
   *
   * @example Closing
   * ```ts
   * import { McpClient } from "@adcp-wire/transports";
   *
   * await new McpClient("https://agent.example/mcp").close(); // no session yet: nothing sent
   * ```
   */
  async close(options?: McpCallOptions): Promise<void> {
    const sessionId = this.#sessionId;
    this.#sessionId = undefined;
    this.#initialized = undefined;
    if (sessionId === undefined) return;
    const call = new Call(this.#limits(options));
    try {
      const headers = this.#requestHeaders("application/json, text/event-stream");
      headers.set("mcp-session-id", sessionId);
      await discard(await fetchWithin(this.#fetch, this.#url, { method: "DELETE", headers }, call));
    } finally {
      call.dispose();
    }
  }

  #limits(options: McpCallOptions | undefined): ResolvedClientLimits {
    objectOption("options", options);
    objectOption("options.limits", options?.limits);
    return callLimits(this.#defaults, this.#agent, options?.limits);
  }

  async #initialize(call: Call): Promise<McpInitializeResult> {
    this.#sessionId = undefined;
    this.#protocolVersion = undefined;
    const result = await this.#resultOf("initialize", {
      protocolVersion: this.#requestedVersion,
      capabilities: {},
      clientInfo: this.#clientInfo,
    }, call);
    if (!isObject(result)) throw invalid("an initialize result object", describe(result));
    const version = own(result, "protocolVersion");
    if (typeof version !== "string" || !MCP_SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      throw new AgentProtocolError(
        "unsupported_version",
        `one of ${MCP_SUPPORTED_PROTOCOL_VERSIONS.join(", ")}`,
        typeof version === "string" ? "another protocol version" : describe(version),
      );
    }
    this.#protocolVersion = version;
    await this.#exchange(this.#message("notifications/initialized", undefined, false), call);
    const capabilities = own(result, "capabilities");
    return {
      protocolVersion: version,
      capabilities: isObject(capabilities) ? capabilities : {},
      serverInfo: own(result, "serverInfo"),
      sessionId: this.#sessionId,
    };
  }

  /** Sends a request whose JSON-RPC error is thrown; returns the `result`. */
  async #resultOf(method: string, params: unknown, call: Call): Promise<unknown> {
    const response = await this.#request(method, params, call);
    if (!response.ok) throw jsonRpcError(response.error);
    return response.result;
  }

  /** Sends a request and returns its checked JSON-RPC response. */
  async #request(method: string, params: unknown, call: Call): Promise<RpcResponse> {
    return (await this.#exchange(this.#message(method, params), call))!;
  }

  /** Serializes one message (a request with a fresh id, or a notification). */
  #message(method: string, params: unknown, isRequest = true): Exchange {
    const message: JsonObject = { jsonrpc: "2.0" };
    const id = isRequest ? this.#nextId++ : undefined;
    if (id !== undefined) message.id = id;
    message.method = method;
    if (params !== undefined) message.params = params;
    return { method, id, body: JSON.stringify(message) };
  }

  /** POSTs one message; for a request, reads the answer (JSON or SSE, resuming the stream). */
  async #exchange(exchange: Exchange, call: Call): Promise<RpcResponse | undefined> {
    const sentSession = this.#sessionId;
    const headers = this.#requestHeaders("application/json, text/event-stream");
    headers.set("content-type", "application/json");
    const response = await fetchWithin(this.#fetch, this.#url, {
      method: "POST",
      headers,
      body: exchange.body,
    }, call);
    if (response.status === 404 && sentSession !== undefined) {
      await discard(response);
      this.#sessionId = undefined;
      this.#initialized = undefined;
      throw new AgentProtocolError(
        "session_expired",
        "an answer within the session",
        "HTTP 404 (session not found)",
        404,
      );
    }
    if (response.status < 200 || response.status > 299) {
      const rpc = await errorStatusResponse(response, call);
      if (exchange.id === undefined) throw jsonRpcError(rpc.error);
      return rpc;
    }
    if (exchange.method === "initialize") {
      try {
        this.#takeSessionId(response);
      } catch (error) {
        await discard(response); // refused before its body was read: release the connection
        throw error;
      }
    }
    if (exchange.id === undefined) {
      // A notification: 202 Accepted, no body expected.
      await discard(response);
      return undefined;
    }
    const kind = bodyKind(response);
    if (kind === "json") {
      return findResponse(await readJsonWithin(response, call), exchange.id);
    }
    if (kind === "sse") return await this.#readStream(response, exchange.id, call);
    await discard(response);
    throw new AgentProtocolError(
      "content_type",
      "application/json or text/event-stream",
      response.status === 202 ? "HTTP 202 without a body" : "another Content-Type",
      response.status,
    );
  }

  #requestHeaders(accept: string): Headers {
    const headers = new Headers(this.#headers);
    headers.set("accept", accept);
    if (this.#sessionId !== undefined) headers.set("mcp-session-id", this.#sessionId);
    if (this.#protocolVersion !== undefined) {
      headers.set("mcp-protocol-version", this.#protocolVersion);
    }
    return headers;
  }

  #takeSessionId(response: Response): void {
    const sessionId = response.headers.get("mcp-session-id");
    if (sessionId === null) return;
    if (sessionId.length > MAX_SESSION_ID_LENGTH || !SESSION_ID.test(sessionId)) {
      throw invalid(
        `an Mcp-Session-Id of visible ASCII, at most ${MAX_SESSION_ID_LENGTH} characters`,
        "another value",
      );
    }
    this.#sessionId = sessionId;
  }

  /** Reads SSE streams until the response to `id` arrives, resuming with Last-Event-ID. */
  async #readStream(first: Response, id: number, call: Call): Promise<RpcResponse> {
    let response: Response | undefined = first;
    for (let reconnects = 0;; reconnects++) {
      let dropped: unknown;
      try {
        for await (const event of readSseEvents(response, { budget: call.budget })) {
          call.countEvent();
          if (event.data === "") continue; // priming event (an id, no message)
          const value = parseEventData(event.data, call);
          const messages = Array.isArray(value) ? value : [value];
          for (let index = 0; index < messages.length; index++) {
            if (index > 0) call.countEvent(); // each message of a batch counts as an event
            const message = messages[index];
            const rpc = asRpcResponse(message);
            if (rpc !== undefined) {
              if (rpc.id === id) return rpc;
              continue;
            }
            await this.#inbound(message, call);
          }
        }
      } catch (error) {
        if (error instanceof CallerError) throw error.unwrap(); // the caller's own callback threw
        if (call.deadline.expired) throw call.deadline.error;
        // A network failure mid-stream is resumable like an early end; anything else is final.
        if (!(error instanceof NetworkError)) throw error;
        dropped = error;
      }
      const lastEventId = call.budget.lastEventId;
      if (lastEventId === undefined) {
        if (dropped !== undefined) throw dropped;
        throw new AgentProtocolError(
          "stream_ended",
          "the JSON-RPC response before the SSE stream ended",
          "the end of a stream without an event id to resume from",
        );
      }
      if (reconnects >= this.#maxReconnects) {
        throw new AgentProtocolError(
          "reconnect_limit",
          `the response within ${this.#maxReconnects} reconnects`,
          "the stream end again",
        );
      }
      // The id goes back in a header: a value a header cannot hold is refused, not sent.
      if (!HEADER_VALUE.test(lastEventId)) {
        throw invalid("an SSE id usable as a Last-Event-ID header", "another value");
      }
      await sleepWithin(call.budget.retryMs ?? DEFAULT_RECONNECT_DELAY_MS, call);
      const headers = this.#requestHeaders("text/event-stream");
      headers.set("last-event-id", lastEventId);
      response = await fetchWithin(this.#fetch, this.#url, { method: "GET", headers }, call);
      if (response.status < 200 || response.status > 299) {
        await discard(response);
        throw httpStatusError(response);
      }
      if (bodyKind(response) !== "sse") {
        await discard(response);
        throw new AgentProtocolError(
          "content_type",
          "a text/event-stream answer to the Last-Event-ID reconnect",
          "another Content-Type",
          response.status,
        );
      }
    }
  }

  /** Handles a server request or notification seen on a response stream. */
  async #inbound(message: unknown, call: Call): Promise<void> {
    const inbound = asRpcInbound(message);
    if (inbound === undefined) return;
    if (inbound.id === undefined) {
      const onNotification = this.#onNotification;
      if (onNotification !== undefined) {
        try {
          onNotification({ method: inbound.method, params: inbound.params });
        } catch (error) {
          throw new CallerError(error);
        }
      }
      return;
    }
    // A server may ask for little: a flood of requests is not answered past a few per call.
    if (++call.answered > MAX_ANSWERED_REQUESTS) return;
    const answer: JsonObject = inbound.method === "ping"
      ? { jsonrpc: "2.0", id: inbound.id, result: {} }
      : {
        jsonrpc: "2.0",
        id: inbound.id,
        error: { code: -32601, message: "Method not supported by this client" },
      };
    const headers = this.#requestHeaders("application/json, text/event-stream");
    headers.set("content-type", "application/json");
    await discard(
      await fetchWithin(this.#fetch, this.#url, {
        method: "POST",
        headers,
        body: JSON.stringify(answer),
      }, call),
    );
  }
}

/** A value a header can hold: visible ASCII, space and tab, nothing else (an SSE id is any text). */
const HEADER_VALUE = /^[\x20-\x7e\t]*$/;

/** Most server-to-client requests one call answers (a `ping` flood is not answered past this). */
const MAX_ANSWERED_REQUESTS = 32;

function invalid(expected: string, seen: string): AgentProtocolError {
  return new AgentProtocolError("invalid_message", expected, seen);
}

function checkToolCall(name: unknown, args: unknown): void {
  if (typeof name !== "string" || name === "") {
    throw new TypeError(`Expected name to be a non-empty string, got ${describe(name)}`);
  }
  if (!isObject(args)) {
    throw new TypeError(`Expected args to be an object, got ${describe(args)}`);
  }
}

function checkTaskId(taskId: unknown): void {
  if (typeof taskId !== "string" || taskId === "") {
    throw new TypeError(`Expected taskId to be a non-empty string, got ${describe(taskId)}`);
  }
}

/** The response to request `id` in a JSON body (one response or a batch). */
function findResponse(value: unknown, id: number): RpcResponse {
  for (const message of Array.isArray(value) ? value : [value]) {
    const rpc = asRpcResponse(message);
    if (rpc !== undefined && rpc.id === id) return rpc;
  }
  throw invalid(`a JSON-RPC response with id ${id}`, "none");
}

function checkTask(value: unknown): McpTask {
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
 * `content[].text` item is held to the call's depth bound before it is parsed, and to the node bound
 * after: for a server that returns only text, "that item is the entire response" (MCP Response
 * Extraction, Size Limits). Data from `structuredContent` was bounded with the body.
 *
 * @throws {JsonDepthLimitError | JsonNodeLimitError} When text-item JSON passes a bound.
 */
function classifyToolResult(response: RpcResponse, limits: ResolvedClientLimits): McpCallResult {
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
function scanTextItems(result: unknown, maxDepth: number): number {
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
    if (!scan.valid) throw new JsonDepthLimitError(scan.error.limit, scan.error.observed);
    if (text.length > longest) longest = text.length;
  }
  return longest;
}

/** Whether the first character of `text` after JSON whitespace is `{`. */
function startsWithBrace(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0x7b) return true;
    if (unit !== 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d) return false;
  }
  return false;
}

function classifyRpcError(error: RpcErrorObject): McpCallResult {
  const adcpError = extractAdcpErrorFromMcpError(error);
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
