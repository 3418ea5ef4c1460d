// McpClient: the AdCP side of an MCP agent (tools, tasks, retries, typed results). The wire
// session lives in _session.ts, the checks and result mapping in _results.ts, the types in
// types.ts.
//
// Why one file past 600 lines: it is one class, whose methods share private state (the session,
// the running handshake, the limit layers) and each carry a doc comment with an example.
import { signingFetch } from "../client/_signing.ts";
import {
  booleanOption,
  describe,
  functionOption,
  integerOption,
  isJsonObject as isObject,
  objectOption,
  optionError,
  type OptionKeys,
  optionKeys,
  own,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";
import { keyedArgs } from "../client/_idempotency.ts";
import { callLimits, CLIENT_LIMIT_KEYS, recordLayers } from "../client/_limits.ts";
import {
  agentUrl,
  CLIENT_NESTED,
  CLIENT_OPTION_NAMES,
  headersOption,
  limitLayers,
} from "../client/_options.ts";
import { retryOption, runWithRetry } from "../client/_retry.ts";
import { Call, callFor, discard, fetchWithin, sleepWithin } from "../client/_rpc.ts";
import { markResolved } from "../read/_limits.ts";
import type { ClientLimits, ResolvedClientLimits } from "../client/limits.ts";
import type { ClientOptions, RetryOption } from "../client/options.ts";
import { AgentProtocolError, DeadlineExceededError, ItemLimitError } from "../errors.ts";
import { checkTask, checkTaskId, checkToolCall, classifyToolResult, invalid } from "./_results.ts";
import { McpSession } from "./_session.ts";
import {
  MCP_PROTOCOL_VERSION,
  MCP_SUPPORTED_PROTOCOL_VERSIONS,
  type McpCallOptions,
  type McpCallResult,
  type McpClientOptions,
  type McpInitializeResult,
  type McpTask,
  type McpTaskCallOptions,
  type McpTaskCreation,
  type McpTool,
  type McpWaitOptions,
} from "./types.ts";

/** Task poll interval when `tasks/get` gives no `pollInterval`, and its clamp, in milliseconds. */
const DEFAULT_POLL_MS = 1_000;
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 30_000;
const TERMINAL_TASK_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);
/** The default and the largest `maxWaitMs` of {@link McpClient.waitForTask}, in milliseconds. */
const DEFAULT_MAX_WAIT_MS = 300_000;
const MAX_WAIT_MS = 2_147_483_647;
/** What the option errors of the constructor and of the task methods say could not be done. */
const CREATE = "create an McpClient";
const USE_TASK = "use the task";
const CALL_TOOL = "call the tool";

/**
 * The keys only {@link McpClientOptions} has (the `mcp` options of `connectAgent` are these).
 */
export const MCP_OPTION_NAMES = {
  protocolVersion: true,
  clientInfo: true,
  maxPages: true,
  maxReconnects: true,
  onNotification: true,
} as const satisfies {
  readonly [K in keyof Required<Omit<McpClientOptions, keyof ClientOptions>>]: true;
};

/** The keys of {@link McpClientOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<McpClientOptions>({
  ...CLIENT_OPTION_NAMES,
  ...MCP_OPTION_NAMES,
});

/** The keys of {@link McpCallOptions}, {@link McpTaskCallOptions} and {@link McpWaitOptions}. */
const CALL_KEYS: OptionKeys = optionKeys<McpCallOptions>({ limits: true, idempotencyKey: true });
const TASK_CALL_KEYS: OptionKeys = optionKeys<McpTaskCallOptions>({
  limits: true,
  idempotencyKey: true,
  ttl: true,
});
const WAIT_KEYS: OptionKeys = optionKeys<McpWaitOptions>({
  limits: true,
  idempotencyKey: true,
  maxWaitMs: true,
  pollIntervalMs: true,
});

/** Where a top-level limit of one call belongs. */
const CALL_NESTED: Readonly<Record<string, OptionKeys>> = { limits: CLIENT_LIMIT_KEYS };

/**
 * An MCP client for the Streamable HTTP transport, written for AdCP: sessions, `tools/list`
 * pagination, `tools/call`, MCP tasks, JSON and SSE answers with `Last-Event-ID` resumption.
 * Every operation is bounded as a whole, redirects are refused, and a call returns an
 * {@link McpCallResult} to branch on; the full contract is in `docs/clients.md`.
 *
 * Spec: MCP 2025-11-25, Streamable HTTP; MCP Response Extraction, Security Considerations.
 *
 * @example Calling a tool
 * ```ts
 * import { McpClient } from "@adcp-wire/transports/mcp";
 * import { adcpSuccessResult } from "@adcp-wire/transports/seller";
 * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const fetch = fakeMcpAgent({
 *   tools: { get_products: () => adcpSuccessResult({ products: [] }) },
 * });
 * const client = new McpClient("https://agent.example/mcp", { fetch });
 * deepStrictEqual(await client.callTool("get_products", { brief: "CTV" }), {
 *   kind: "success",
 *   data: { products: [] },
 * });
 * ```
 */
export class McpClient {
  readonly #defaults: ClientLimits | undefined;
  readonly #agent: ClientLimits | undefined;
  /** The limits of a call given no limits of its own: both layers, resolved once. */
  readonly #base: ResolvedClientLimits;
  readonly #requestedVersion: string;
  readonly #clientInfo: { readonly name: string; readonly version: string };
  readonly #maxPages: number;
  readonly #retry: RetryOption | undefined;
  readonly #session: McpSession;
  #initialized: Promise<McpInitializeResult> | undefined;

  /**
   * Creates a client for the MCP endpoint at `url`. Nothing is sent until the first call.
   *
   * @param url The Streamable HTTP endpoint: `https:`, or `http:` on loopback (any host with
   * `options.allowHttp`).
   * @param options Headers, limits, `fetch`, pagination and reconnect bounds, retry.
   * @throws {TypeError} When `url` is not an absolute `http:`/`https:` URL, or an option has the
   * wrong type or a key it does not define (in `options`, a limits layer or `retry`).
   * @throws {RangeError} When a limit, a bound or a figure of the retry policy is out of range.
   */
  constructor(url: string | URL, options: McpClientOptions = {}) {
    objectOption(CREATE, "options", options);
    checkKeys(CREATE, "options", options, OPTION_KEYS, CLIENT_NESTED);
    const href = agentUrl(
      url,
      CREATE,
      "url",
      booleanOption(CREATE, "options.allowHttp", options.allowHttp),
    );
    const { defaultLimits, agentLimits } = limitLayers(CREATE, options);
    // Validates both layers now, and reads them once: a layer object the caller changes later
    // changes no call.
    this.#base = callLimits(defaultLimits, agentLimits, undefined, CREATE);
    this.#defaults = defaultLimits === undefined ? undefined : { ...defaultLimits };
    this.#agent = agentLimits === undefined ? undefined : { ...agentLimits };
    recordLayers(this, { defaultLimits: this.#defaults, agentLimits: this.#agent });
    const fetch = signingFetch(
      options.signer,
      functionOption(CREATE, "options.fetch", options.fetch),
      CREATE,
    );
    const version = options.protocolVersion ?? MCP_PROTOCOL_VERSION;
    if (typeof version !== "string" || version === "") {
      throw optionError(
        TypeError,
        CREATE,
        "options.protocolVersion",
        "a non-empty string",
        version,
      );
    }
    this.#requestedVersion = version;
    const info = options.clientInfo ?? { name: "adcp-wire", version: "0.1.0" };
    if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") {
      throw optionError(
        TypeError,
        CREATE,
        "options.clientInfo",
        "{ name: string, version: string }",
        info,
      );
    }
    this.#clientInfo = { name: info.name, version: info.version };
    this.#maxPages = integerOption(CREATE, "options.maxPages", options.maxPages, 100);
    this.#retry = retryOption(CREATE, options.retry);
    this.#session = new McpSession({
      url: href,
      headers: headersOption(CREATE, options.headers),
      fetch,
      maxReconnects: integerOption(CREATE, "options.maxReconnects", options.maxReconnects, 3),
      onNotification: functionOption(CREATE, "options.onNotification", options.onNotification),
      onExpired: () => this.#initialized = undefined,
    });
  }

  /**
   * The session id the server assigned, or `undefined` (before `initialize`, or stateless).
   *
   * @returns The `Mcp-Session-Id`, or `undefined`.
   *
   * @example Before and after connecting to a stateless agent
   * ```ts
   * import { McpClient } from "@adcp-wire/transports/mcp";
   * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const client = new McpClient("https://agent.example/mcp", {
   *   fetch: fakeMcpAgent({ tools: {} }),
   * });
   * await client.connect();
   * strictEqual(client.sessionId, undefined); // the fake agent assigns no session
   * ```
   */
  get sessionId(): string | undefined {
    return this.#session.sessionId;
  }

  /**
   * The negotiated protocol version, or `undefined` before `initialize`.
   *
   * @returns The version the server chose, or `undefined`.
   *
   * @example After connecting
   * ```ts
   * import { McpClient } from "@adcp-wire/transports/mcp";
   * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const client = new McpClient("https://agent.example/mcp", {
   *   fetch: fakeMcpAgent({ tools: {} }),
   * });
   * strictEqual(client.protocolVersion, undefined);
   * await client.connect();
   * strictEqual(client.protocolVersion, "2025-11-25");
   * ```
   */
  get protocolVersion(): string | undefined {
    return this.#session.protocolVersion;
  }

  /**
   * The MCP endpoint, as the constructor normalized it.
   *
   * @returns The URL requests go to.
   *
   * @example The endpoint
   * ```ts
   * import { McpClient } from "@adcp-wire/transports/mcp";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new McpClient("https://agent.example/mcp").url, "https://agent.example/mcp");
   * ```
   */
  get url(): string {
    return this.#session.url;
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
   * @example See {@link McpClient}.
   * ```ts
   * import { McpClient } from "@adcp-wire/transports";
   * import { strictEqual } from "node:assert/strict";
   *
   * const client = new McpClient("https://agent.example/mcp");
   * strictEqual(client.sessionId, undefined);
   * ```
   */
  async connect(options?: McpCallOptions): Promise<McpInitializeResult> {
    const call = new Call(this.#limits(options, "connect to the agent", CALL_KEYS));
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
    const call = new Call(this.#limits(options, "list the tools", CALL_KEYS));
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
      const result = await this.#session.resultOf(
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
   * `CallToolResult`, and JSON-RPC errors as result members (see {@link McpCallResult}).
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
   * @example See {@link McpClient}.
   * ```ts ignore
   * const result = await client.callTool("get_products", { brief: "CTV" });
   * if (result.kind === "error") console.log(result.error.code, result.decision.action);
   * ```
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: McpCallOptions,
  ): Promise<McpCallResult> {
    checkToolCall(name, args);
    const limits = this.#limits(options, CALL_TOOL, CALL_KEYS);
    // Serialized once: every retry resends these exact bytes, with the same JSON-RPC id (Security,
    // "Request safety": on a retry, resend the exact same payload with the same idempotency_key).
    const request = this.#session.message("tools/call", {
      name,
      arguments: keyedArgs(args, options?.idempotencyKey, CALL_TOOL),
    });
    return await runWithRetry(
      async () => {
        const call = callFor(limits, options);
        try {
          await this.#connectWithin(call);
          const result = classifyToolResult(
            (await this.#session.exchange(request, call))!,
            call.limits,
          );
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
   * {@link McpClient.waitForTask}, then read the tool result with
   * {@link McpClient.getTaskResult}. A server that ran the tool at once returns its result.
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
    const limits = this.#limits(options, CALL_TOOL, TASK_CALL_KEYS);
    const ttl = options?.ttl;
    if (ttl !== undefined) integerOption(CALL_TOOL, "options.ttl", ttl, 0);
    const call = callFor(limits, options);
    try {
      await this.#connectWithin(call);
      const response = await this.#session.request("tools/call", {
        name,
        arguments: keyedArgs(args, options?.idempotencyKey, CALL_TOOL),
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
    const call = callFor(this.#limits(options, USE_TASK, CALL_KEYS), options);
    try {
      return await this.#getTask(taskId, call);
    } finally {
      call.dispose();
    }
  }

  async #getTask(taskId: string, call: Call): Promise<McpTask> {
    await this.#connectWithin(call);
    const task = checkTask(await this.#session.resultOf("tasks/get", { taskId }, call));
    call.checkDeadline();
    return task;
  }

  /**
   * Polls `tasks/get` until the task is `completed`, `failed`, `cancelled` or
   * `input_required`, waiting between polls the longer of `pollIntervalMs` (default 1 s) and the
   * server's `pollInterval` (held to at most 30 s), and at most `maxWaitMs` in all: each poll's
   * deadline is its `timeoutMs` clamped to the time left, and all polls share one byte budget
   * (`maxResponseBytes`).
   *
   * @param taskId The task id.
   * @param options Limits (`timeoutMs` per poll, the byte budget for all), and `maxWaitMs`.
   * @returns The task in its last state.
   * @throws {DeadlineExceededError} When `maxWaitMs` passes first.
   * @throws {JsonRpcError | AdcpTransportError} As {@link McpClient.getTask}.
   * @throws {TypeError} When `options.maxWaitMs` or `options.pollIntervalMs` is not a number.
   * @throws {RangeError} When `options.maxWaitMs` is not in (0, 2147483647], or
   * `options.pollIntervalMs` not in [50, 30000].
   *
   * @example Waiting for a task
   * ```ts ignore
   * const task = await client.waitForTask("786512e2", { maxWaitMs: 60_000 });
   * ```
   */
  async waitForTask(taskId: string, options?: McpWaitOptions): Promise<McpTask> {
    checkTaskId(taskId);
    const limits = this.#limits(options, USE_TASK, WAIT_KEYS);
    // Only `undefined` means the default: a null maxWaitMs is refused like any other wrong type.
    const maxWaitMs = options?.maxWaitMs === undefined ? DEFAULT_MAX_WAIT_MS : options.maxWaitMs;
    if (typeof maxWaitMs !== "number") {
      throw optionError(TypeError, USE_TASK, "options.maxWaitMs", "a number", maxWaitMs);
    }
    if (!(maxWaitMs > 0 && maxWaitMs <= MAX_WAIT_MS)) {
      throw optionError(
        RangeError,
        USE_TASK,
        "options.maxWaitMs",
        `a number of milliseconds in (0, ${MAX_WAIT_MS}]`,
        maxWaitMs,
      );
    }
    const pollMs = options?.pollIntervalMs === undefined ? DEFAULT_POLL_MS : options.pollIntervalMs;
    if (typeof pollMs !== "number") {
      throw optionError(TypeError, USE_TASK, "options.pollIntervalMs", "a number", pollMs);
    }
    if (!(pollMs >= MIN_POLL_MS && pollMs <= MAX_POLL_MS)) {
      throw optionError(
        RangeError,
        USE_TASK,
        "options.pollIntervalMs",
        `a number of milliseconds in [${MIN_POLL_MS}, ${MAX_POLL_MS}]`,
        pollMs,
      );
    }
    // One operation: every poll shares one byte budget and the maxWaitMs deadline; each poll's own
    // deadline is timeoutMs clamped to the time that remains.
    // Marked resolved: a copy of resolved limits, which the operation's budget takes as it is.
    const operation = new Call(markResolved({ ...limits, timeoutMs: maxWaitMs }));
    try {
      return await this.#waitForTask(taskId, operation, { maxWaitMs, pollMs }, limits.timeoutMs);
    } finally {
      operation.dispose();
    }
  }

  async #waitForTask(
    taskId: string,
    operation: Call,
    wait: { readonly maxWaitMs: number; readonly pollMs: number },
    pollTimeoutMs: number,
  ): Promise<McpTask> {
    const { maxWaitMs, pollMs } = wait;
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
      // The caller's interval is a floor the server's hint may raise (to 30 s), never lower.
      const interval = Math.min(MAX_POLL_MS, Math.max(pollMs, task.pollInterval ?? 0));
      const left = started + maxWaitMs - performance.now();
      if (interval > left) {
        throw new DeadlineExceededError(maxWaitMs, performance.now() - started);
      }
      await sleepWithin(interval, operation);
    }
  }

  /**
   * Reads a task's tool result with `tasks/result` and classifies it as
   * {@link McpClient.callTool} does. The server may hold the request until the task ends, so
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
    const call = callFor(this.#limits(options, USE_TASK, CALL_KEYS), options);
    try {
      await this.#connectWithin(call);
      const result = classifyToolResult(
        await this.#session.request("tasks/result", { taskId }, call),
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
   * allow it, which is fine) and forgets the session. Without a session it sends nothing. The
   * options are checked first, so a close refused for a bad option keeps the session.
   *
   * @param options Limits for this call.
   * @returns Nothing.
   * @throws {AdcpTransportError} For a deadline failure.
   * @throws {TypeError | RangeError} When an option is bad.
   *
   * @example Closing
   * ```ts
   * import { McpClient } from "@adcp-wire/transports";
   *
   * await new McpClient("https://agent.example/mcp").close(); // no session yet: nothing sent
   * ```
   */
  async close(options?: McpCallOptions): Promise<void> {
    // The options are checked first: a refused close() keeps the session.
    const limits = this.#limits(options, "close the session", CALL_KEYS);
    const sessionId = this.#session.sessionId;
    this.#session.dropSessionId();
    this.#initialized = undefined;
    if (sessionId === undefined) return;
    const call = new Call(limits);
    try {
      const session = this.#session;
      const headers = session.requestHeaders("application/json, text/event-stream");
      headers["mcp-session-id"] = sessionId;
      await discard(
        await fetchWithin(session.fetch, session.url, { method: "DELETE", headers }, call),
      );
    } finally {
      call.dispose();
    }
  }

  /**
   * The limits of one call, checked, and the call's options held to `keys` (no allocation unless
   * a key is refused); `action` is what the messages say could not be done.
   */
  #limits(
    options: McpCallOptions | undefined,
    action: string,
    keys: OptionKeys,
  ): ResolvedClientLimits {
    objectOption(action, "options", options);
    checkKeys(action, "options", options, keys, CALL_NESTED);
    objectOption(action, "options.limits", options?.limits);
    const limits = options?.limits;
    if (limits === undefined) return this.#base;
    return callLimits(this.#defaults, this.#agent, limits, action);
  }

  async #initialize(call: Call): Promise<McpInitializeResult> {
    this.#session.reset();
    const result = await this.#session.resultOf("initialize", {
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
    const session = this.#session;
    session.protocolVersion = version;
    await session.exchange(session.message("notifications/initialized", undefined, false), call);
    const capabilities = own(result, "capabilities");
    return {
      protocolVersion: version,
      capabilities: isObject(capabilities) ? capabilities : {},
      serverInfo: own(result, "serverInfo"),
      sessionId: session.sessionId,
    };
  }
}
