// Two AdCP seller agents built on the official SDKs, for buyer-scenario tests: an MCP seller on
// @modelcontextprotocol/sdk 1.32.2 (the low-level `Server`, one per request, over
// `WebStandardStreamableHTTPServerTransport` in stateless mode) and an A2A 1.0 seller on
// @a2a-js/sdk 1.3.0 (`DefaultRequestHandler`, `InMemoryTaskStore`, an `AgentExecutor` and
// `JsonRpcTransportHandler`), each behind `Deno.serve` on 127.0.0.1 at a random port, without
// express. Both serve the same scenarios with the same AdCP outcomes; the answers are built with
// this package's seller helpers (`../seller/`) and, on A2A, turned into the SDK's objects with its
// own ProtoJSON codec (`Task.fromJSON`), so that what goes on the wire is what the SDK writes.
//
// Scenarios (the `brief` of get_products and the `buyer_ref` of create_media_buy select them):
// - get_products `ok` (and any brief not listed here): PRODUCTS_OK.
// - `transient`, `correctable`, `terminal`: the AdCP errors TRANSIENT_ERROR, CORRECTABLE_ERROR,
//   TERMINAL_ERROR (MCP `isError` result with `structuredContent.adcp_error`; A2A failed task).
// - `flaky`: TRANSIENT_ERROR on the first flaky call of a seller, PRODUCTS_OK afterwards.
// - `oversize`: oversizeData(), a `products` array whose JSON is at least OVERSIZE_DATA_BYTES.
// - `slow`: PRODUCTS_OK after SLOW_MS. The wait ends early, answering nothing, when the seller
//   closes, when an MCP client reading the SSE answer goes away (the per-request server closes
//   with the stream, which aborts the tool handler), or on an A2A `CancelTask` (the task ends
//   canceled). A client that leaves a pending JSON answer is not seen: Deno shows that only
//   through `request.signal`, whose listeners make Deno 2.9 warn on every successful response;
//   the answer is then written to the closed connection after SLOW_MS, which is harmless.
// - create_media_buy `pending`: accepted for later. MCP: the AdCP flat envelope `{ status:
//   "submitted", task_id: "task_pending_<n>", message }`, then `get_task_status` answers
//   `working` on the first poll of that task and `completed` (with `result` PENDING_RESULT when
//   `include_result` is true) from the second on. A2A: a task in native
//   `TASK_STATE_SUBMITTED` (status message "Awaiting approval"), then `GetTask` answers
//   `TASK_STATE_WORKING` on the first poll and a completed task whose DataPart is PENDING_RESULT
//   from the second on (the executor returns at once; the poll writes the next state to the
//   task store).
// - create_media_buy `queued`: AdCP Submitted work on both (the A2A profile's normative path for
//   queued work): MCP as `pending`, with QUEUED_RESULT; A2A a *completed* task whose DataPart is
//   `{ status: "submitted", task_id: "task_queued_<n>", message }`, then the `get_task_status`
//   skill answers like the MCP tool (each poll its own completed A2A task).
// - create_media_buy `needs_input`: input is required, "Which total budget?". MCP: `{ status:
//   "input-required", message, context_id: "ctx_<n>", task_id: "task_input_<n>" }`; a call whose
//   `context_id` names that open request and which carries `total_budget` answers INPUT_RESULT,
//   one without `total_budget` asks again with the same ids, one with no or an unknown
//   `context_id` opens a new request. A2A: a task in `TASK_STATE_INPUT_REQUIRED` with that text
//   in its status message; a continuation (same `taskId` and `contextId`) whose input carries
//   `total_budget` completes it with INPUT_RESULT, one without asks again, and a new task always
//   asks first.
// - create_media_buy, any other `buyer_ref`: `{ media_buy_id: "mb_0", buyer_ref, packages: [] }`.
// - get_adcp_capabilities: CAPABILITIES (the profile requires the skill on every A2A interface).
//
// Test code only: the package's runtime never imports the SDKs.
import {
  AgentCard,
  Extensions,
  formatSSEErrorEvent,
  formatSSEEvent,
  type GetTaskRequest,
  Message,
  type SendMessageRequest,
  SSE_HEADERS,
  Task,
  TaskState,
} from "npm:@a2a-js/sdk@1.3.0";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  type ExecutionEventBus,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  type RequestContext,
  type ServerCallContext,
  STATE_HEADERS_KEY,
  UnauthenticatedUser,
  validateVersion,
} from "npm:@a2a-js/sdk@1.3.0/server";
import { RequestMalformedError } from "npm:@a2a-js/sdk@1.3.0/errors";
import { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
import {
  WebStandardStreamableHTTPServerTransport,
} from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { checkAdcpProfileInvocation } from "../a2a/check_adcp_profile_invocation.ts";
import { ADCP_A2A_PROFILE } from "../a2a/types.ts";
import { adcpErrorResult } from "../seller/adcp_error_result.ts";
import { adcpFailedTask } from "../seller/adcp_failed_task.ts";
import { adcpProfileInputRequired } from "../seller/adcp_profile_input_required.ts";
import { adcpProfileTaskResponse } from "../seller/adcp_profile_response.ts";
import { adcpSuccessResult } from "../seller/adcp_success_result.ts";

/** The success data of get_products `ok`, `flaky` (from the second call) and `slow`. */
export const PRODUCTS_OK: { readonly products: readonly Record<string, string>[] } = {
  products: [{ product_id: "p1", name: "CTV Premium" }],
};

/** The AdCP error of get_products `transient` (and of the first `flaky` call). */
export const TRANSIENT_ERROR = {
  code: "RATE_LIMITED",
  message: "Slow down",
  recovery: "transient",
  retry_after: 1,
} as const;

/** The AdCP error of get_products `correctable`. */
export const CORRECTABLE_ERROR = {
  code: "INVALID_REQUEST",
  message: "brief is too vague",
  recovery: "correctable",
  field: "brief",
} as const;

/** The AdCP error of get_products `terminal`. */
export const TERMINAL_ERROR = {
  code: "ACCOUNT_SUSPENDED",
  message: "Account suspended",
  recovery: "terminal",
} as const;

/** How long get_products `slow` waits before answering, in milliseconds. */
export const SLOW_MS = 3_000;

/** The least size of the JSON of get_products `oversize` data: 2 MiB. */
export const OVERSIZE_DATA_BYTES = 2 * 1024 * 1024;

/** The AdCP result of create_media_buy `pending`, once the work is done. */
export const PENDING_RESULT = { media_buy_id: "mb_1", buyer_ref: "pending", packages: [] } as const;

/** The AdCP result of create_media_buy `queued`, once the work is done. */
export const QUEUED_RESULT = { media_buy_id: "mb_3", buyer_ref: "queued", packages: [] } as const;

/** The AdCP result of create_media_buy `needs_input`, once the budget is given. */
export const INPUT_RESULT = {
  media_buy_id: "mb_2",
  buyer_ref: "needs_input",
  packages: [],
} as const;

/** The question of create_media_buy `needs_input`. */
export const INPUT_QUESTION = "Which total budget?";

/** The message of create_media_buy `pending`. */
export const PENDING_MESSAGE = "Awaiting approval";

/** The get_adcp_capabilities data (schema-valid: AdCP 3, media buy, no idempotency replay). */
export const CAPABILITIES = {
  status: "completed",
  adcp: { major_versions: [3], idempotency: { supported: false } },
  supported_protocols: ["media_buy"],
} as const;

/** The AdCP tasks both sellers dispatch. */
export const SDK_SELLER_TASKS: readonly string[] = [
  "get_adcp_capabilities",
  "get_products",
  "create_media_buy",
  "get_task_status",
];

/** A running seller agent. */
export interface SdkSeller {
  /** The MCP endpoint (`http://127.0.0.1:P/mcp`), or the A2A seller's origin (card there). */
  readonly url: string;
  /** Which SDK serves it. */
  readonly protocol: "mcp" | "a2a";
  /** HTTP requests answered so far, of every kind (the card and 404 probes included). */
  readonly requests: number;
  /**
   * AdCP task invocations so far, by task name: MCP `tools/call` by tool name, A2A
   * `SendMessage`/`SendStreamingMessage` by invocation skill (continuations included).
   */
  readonly invocations: Readonly<Record<string, number>>;
  /** Ends pending `slow` waits, closes every stream and shuts the HTTP server down. */
  close(): Promise<void>;
}

/** Options of {@link startMcpSdkSeller}. */
export interface McpSdkSellerOptions {
  /**
   * Answer each POST with one JSON body (`enableJsonResponse`) instead of an SSE stream (the
   * SDK's default).
   * @default {false}
   */
  readonly jsonResponse?: boolean | undefined;
}

/** The get_products `oversize` data, built on first use. */
let oversize: { readonly products: readonly Record<string, string>[] } | undefined;

/** The get_products `oversize` data: about 1 KiB per product, past {@link OVERSIZE_DATA_BYTES}. */
export function oversizeData(): { readonly products: readonly Record<string, string>[] } {
  if (oversize !== undefined) return oversize;
  const products: Record<string, string>[] = [];
  const description = "Premium connected TV inventory, household frequency capped. ".repeat(16);
  let bytes = JSON.stringify({ products: [] }).length;
  for (let index = 0; bytes < OVERSIZE_DATA_BYTES; index++) {
    const product = { product_id: `p_${index}`, name: `CTV Premium ${index}`, description };
    bytes += JSON.stringify(product).length + (index === 0 ? 0 : 1);
    products.push(product);
  }
  oversize = { products };
  return oversize;
}

/** What get_products answers: data, an AdCP error, or nothing (the wait was cut short). */
type ProductsAnswer =
  | { readonly ok: true; readonly data: Record<string, unknown>; readonly summary: string }
  | { readonly ok: false; readonly error: Record<string, unknown> }
  | undefined;

/** An MCP `pending` media buy, as get_task_status reports it. */
interface McpPendingTask {
  /** What the task ends with. */
  readonly result: Record<string, unknown>;
  readonly createdAt: string;
  updatedAt: string;
  polls: number;
}

/** The state one seller keeps: counters, open requests, and what close() must end. */
class SellerState {
  requests = 0;
  readonly invocations: Record<string, number> = {};
  /** Aborted by close(): ends every `slow` wait. */
  readonly closing = new AbortController();
  #flakyCalls = 0;
  #pending = 0;
  #inputs = 0;
  /** AdCP Submitted work (`pending` over MCP, `queued`), by AdCP task id. */
  readonly mcpTasks = new Map<string, McpPendingTask>();
  /** MCP: open `needs_input` requests, AdCP task id by context id. */
  readonly mcpInputs = new Map<string, string>();
  /** A2A: `pending` tasks by A2A task id, with the GetTask polls seen. */
  readonly a2aPending = new Map<string, { polls: number }>();

  count(task: string): void {
    this.invocations[task] = (this.invocations[task] ?? 0) + 1;
  }

  nextPending(): number {
    return ++this.#pending;
  }

  nextInput(): number {
    return ++this.#inputs;
  }

  /**
   * A create_media_buy accepted as AdCP Submitted work (`pending` over MCP, `queued` over both):
   * the flat envelope, its task then polled with {@link SellerState.taskStatus}.
   */
  submit(buyerRef: "pending" | "queued"): Record<string, unknown> {
    const taskId = `task_${buyerRef}_${this.nextPending()}`;
    const now = new Date().toISOString();
    const result = buyerRef === "pending" ? PENDING_RESULT : QUEUED_RESULT;
    this.mcpTasks.set(taskId, { result, createdAt: now, updatedAt: now, polls: 0 });
    return { status: "submitted", task_id: taskId, message: PENDING_MESSAGE };
  }

  /**
   * get_task_status (protocol/get-task-status-response.json) of a submitted task: `working` on
   * the first poll, `completed` from the second on (with `result` when `include_result` is
   * true); `undefined` for a task this seller does not have.
   */
  taskStatus(args: Record<string, unknown>): Record<string, unknown> | undefined {
    const taskId = args.task_id;
    const task = typeof taskId === "string" ? this.mcpTasks.get(taskId) : undefined;
    if (task === undefined) return undefined;
    task.polls++;
    const completed = task.polls >= 2;
    if (task.polls <= 2) task.updatedAt = new Date().toISOString();
    const data: Record<string, unknown> = {
      task_id: taskId,
      task_type: "create_media_buy",
      protocol: "media-buy",
      status: completed ? "completed" : "working",
      created_at: task.createdAt,
      updated_at: task.updatedAt,
    };
    if (completed) {
      data.completed_at = task.updatedAt;
      if (args.include_result === true) data.result = structuredClone(task.result);
    }
    return data;
  }

  /** get_products, the same on both sellers; `signal` also ends a `slow` wait. */
  async products(brief: unknown, signal?: AbortSignal): Promise<ProductsAnswer> {
    const ok = {
      ok: true,
      data: structuredClone(PRODUCTS_OK),
      summary: "Found 1 product.",
    } as const;
    switch (brief) {
      case "transient":
        return { ok: false, error: { ...TRANSIENT_ERROR } };
      case "correctable":
        return { ok: false, error: { ...CORRECTABLE_ERROR } };
      case "terminal":
        return { ok: false, error: { ...TERMINAL_ERROR } };
      case "flaky":
        return this.#flakyCalls++ === 0 ? { ok: false, error: { ...TRANSIENT_ERROR } } : ok;
      case "oversize": {
        const data = oversizeData();
        return { ok: true, data, summary: `Found ${data.products.length} products.` };
      }
      case "slow": {
        const signals = [this.closing.signal, ...(signal === undefined ? [] : [signal])];
        return await sleep(SLOW_MS, AbortSignal.any(signals)) ? ok : undefined;
      }
      default:
        return ok;
    }
  }
}

/** Resolves `true` after `ms`, or `false` as soon as `signal` aborts (the timer cleared then). */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** A plain-object view of an argument record (tool arguments, invocation input). */
function argsOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

function notFound(request: Request): Promise<Response> {
  return discardBody(request, new Response("Not found", { status: 404 }));
}

async function discardBody(request: Request, response: Response): Promise<Response> {
  await request.body?.cancel();
  return response;
}

// ---------------------------------------------------------------------------------------------
// MCP
// ---------------------------------------------------------------------------------------------

const OBJECT = "object" as const;

/** The tools `tools/list` lists. */
const MCP_TOOLS = [
  {
    name: "get_adcp_capabilities",
    description: "AdCP capabilities of this seller",
    inputSchema: { type: OBJECT, properties: {} },
  },
  {
    name: "get_products",
    description:
      "Products for a brief (ok, transient, correctable, terminal, flaky, oversize, slow)",
    inputSchema: {
      type: OBJECT,
      properties: { brief: { type: "string", description: "The brief: selects the scenario" } },
    },
  },
  {
    name: "create_media_buy",
    description: "Creates a media buy (buyer_ref pending, queued or needs_input: the scenario)",
    inputSchema: {
      type: OBJECT,
      properties: {
        buyer_ref: { type: "string", description: "Selects the scenario" },
        total_budget: { description: "The budget a needs_input request asks for" },
        context_id: { type: "string", description: "The context of an input-required request" },
      },
    },
  },
  {
    name: "get_task_status",
    description: "Status of an AdCP task (AdCP polling)",
    inputSchema: {
      type: OBJECT,
      properties: { task_id: { type: "string" }, include_result: { type: "boolean" } },
      required: ["task_id"],
    },
  },
];

/** One `tools/call`, as the seller answers it. */
async function mcpCall(
  state: SellerState,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  state.count(name);
  switch (name) {
    case "get_adcp_capabilities":
      return adcpSuccessResult(structuredClone(CAPABILITIES), "AdCP 3 media buy seller.");
    case "get_products": {
      const answer = await state.products(args.brief, signal);
      if (answer === undefined) throw new McpError(ErrorCode.ConnectionClosed, "Call ended");
      return answer.ok
        ? adcpSuccessResult(answer.data, answer.summary)
        : adcpErrorResult(answer.error);
    }
    case "create_media_buy":
      return mcpCreateMediaBuy(state, args);
    case "get_task_status":
      return mcpTaskStatus(state, args);
    default:
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  }
}

function mcpCreateMediaBuy(state: SellerState, args: Record<string, unknown>): CallToolResult {
  const buyerRef = args.buyer_ref;
  if (buyerRef === "pending" || buyerRef === "queued") {
    return adcpSuccessResult(state.submit(buyerRef), PENDING_MESSAGE);
  }
  if (buyerRef === "needs_input") {
    const asked = typeof args.context_id === "string" ? args.context_id : undefined;
    const open = asked === undefined ? undefined : state.mcpInputs.get(asked);
    if (asked !== undefined && open !== undefined && args.total_budget !== undefined) {
      state.mcpInputs.delete(asked);
      return adcpSuccessResult(structuredClone(INPUT_RESULT), "Media buy created.");
    }
    let contextId = asked;
    let taskId = open;
    if (contextId === undefined || taskId === undefined) {
      const n = state.nextInput();
      contextId = `ctx_${n}`;
      taskId = `task_input_${n}`;
      state.mcpInputs.set(contextId, taskId);
    }
    return adcpSuccessResult(
      { status: "input-required", message: INPUT_QUESTION, context_id: contextId, task_id: taskId },
      INPUT_QUESTION,
    );
  }
  return adcpSuccessResult({ media_buy_id: "mb_0", buyer_ref: buyerRef, packages: [] });
}

/** get_task_status over MCP: the AdCP status of a submitted task, or REFERENCE_NOT_FOUND. */
function mcpTaskStatus(state: SellerState, args: Record<string, unknown>): CallToolResult {
  const data = state.taskStatus(args);
  if (data === undefined) return adcpErrorResult(NOT_FOUND);
  return adcpSuccessResult(
    data,
    data.status === "completed" ? "The media buy is live." : "Still working.",
  );
}

/** The error of a get_task_status for a task this seller does not have. */
const NOT_FOUND = {
  code: "REFERENCE_NOT_FOUND",
  message: "No such task",
  recovery: "correctable",
  field: "task_id",
} as const;

/** A fresh low-level MCP server for one HTTP request (stateless mode). */
function mcpServer(state: SellerState): Server {
  const server = new Server({ name: "adcp-wire-sdk-seller", version: "1.0.0" }, {
    capabilities: { tools: {} },
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: MCP_TOOLS }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (request: CallToolRequest, extra: { readonly signal: AbortSignal }) =>
      mcpCall(state, request.params.name, argsOf(request.params.arguments), extra.signal),
  );
  return server;
}

/**
 * Starts the MCP seller: `POST /mcp` is the Streamable HTTP endpoint (each request gets its own
 * `Server` and stateless transport, so `initialize`, `notifications/initialized` and `tools/call`
 * may come on any connection); `GET`/`DELETE /mcp` are 405 (no standalone stream, no session);
 * every other path, `/.well-known/agent-card.json` included, is 404.
 *
 * Spec: MCP 2025-11-25, Streamable HTTP; AdCP MCP Guide (flat envelope, context_id, AdCP
 * polling); Transport Error Mapping, MCP Binding.
 *
 * @param options SSE (the default) or JSON answers.
 * @returns The running seller; its `url` is the MCP endpoint.
 *
 * @example Calling get_products
 * ```ts ignore
 * const seller = await startMcpSdkSeller();
 * const result = await new McpClient(seller.url).callTool("get_products", { brief: "ok" });
 * await seller.close();
 * ```
 */
export function startMcpSdkSeller(options: McpSdkSellerOptions = {}): Promise<SdkSeller> {
  const state = new SellerState();
  const json = options.jsonResponse ?? false;
  /** Each running per-request server, with its release (close, once). */
  const live = new Map<Server, () => Promise<void>>();
  const handle = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== "/mcp") return await notFound(request);
    if (request.method !== "POST") {
      return await discardBody(
        request,
        new Response(null, { status: 405, headers: { allow: "POST" } }),
      );
    }
    const server = mcpServer(state);
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: json });
    let onClosed: (response: Response) => void = () => {};
    const closed = new Promise<Response>((resolve) => onClosed = resolve);
    server.onclose = () =>
      onClosed(Response.json({
        jsonrpc: "2.0",
        id: null,
        error: { code: ErrorCode.ConnectionClosed, message: "Seller closed" },
      }, { status: 503 }));
    let release: Promise<void> | undefined;
    const close = () => {
      live.delete(server);
      return release ??= server.close().catch(() => {});
    };
    await server.connect(transport);
    if (state.closing.signal.aborted) {
      await close();
      return await discardBody(request, await closed);
    }
    live.set(server, close);
    let response: Response;
    try {
      // A JSON answer waits for the tool handler: one ended by close() never resolves it.
      response = await Promise.race([transport.handleRequest(request), closed]);
    } catch (error) {
      await close();
      throw error;
    }
    if (response.headers.get("content-type") !== "text/event-stream" || response.body === null) {
      await close();
      return response;
    }
    return closingBody(response, close);
  };
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    state.requests++;
    return handle(request);
  });
  return Promise.resolve(
    seller("mcp", `http://127.0.0.1:${http.addr.port}/mcp`, state, async () => {
      state.closing.abort();
      await Promise.all([...live.values()].map((close) => close()));
      await http.shutdown();
    }),
  );
}

/**
 * `response` with a body that calls `close` once it ended or was cancelled: the per-request MCP
 * server lives as long as its SSE stream, and a client that goes away aborts the tool handler
 * (the SDK aborts in-flight handlers when its transport closes).
 */
function closingBody(response: Response, close: () => Promise<void>): Response {
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        controller.error(error);
        await close();
        return;
      }
      if (!next.done) {
        controller.enqueue(next.value);
        return;
      }
      controller.close();
      await close();
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {});
      await close();
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

// ---------------------------------------------------------------------------------------------
// A2A
// ---------------------------------------------------------------------------------------------

/** The card, in A2A 1.0 ProtoJSON, for the JSON-RPC endpoint `url`. */
function agentCardJson(url: string): Record<string, unknown> {
  const skill = (id: string, name: string, description: string) => ({
    id,
    name,
    description,
    tags: ["adcp"],
  });
  return {
    name: "adcp-wire SDK seller",
    description: "An AdCP seller agent on @a2a-js/sdk, for buyer-scenario tests",
    version: "1.0.0",
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [{
        uri: ADCP_A2A_PROFILE,
        description: "AdCP structured task invocation profile",
        required: true,
      }],
    },
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: [
      skill("get_adcp_capabilities", "AdCP capabilities", "AdCP capabilities of this seller"),
      skill("get_products", "Products", "Products for a brief (the brief selects the scenario)"),
      skill("create_media_buy", "Create a media buy", "buyer_ref selects the scenario"),
    ],
  };
}

/** The `{ skill, input }` of an invocation the request handler already checked. */
function invocationOf(message: Message): { skill: string; input: Record<string, unknown> } {
  for (const part of message.parts) {
    if (part.content?.$case !== "data") continue;
    const data = argsOf(part.content.value);
    return { skill: String(data.skill), input: argsOf(data.input) };
  }
  return { skill: "", input: {} };
}

/**
 * Publishes the start of a task's lifecycle: the task in `TASK_STATE_WORKING` (the SDK needs a
 * task or a message as the first event of every execution, continuations included). A
 * non-blocking `SendMessage` answers it; a stream carries it as its first frame.
 */
function startTask(
  bus: ExecutionEventBus,
  ids: { readonly id: string; readonly contextId: string },
): void {
  const working = { state: "TASK_STATE_WORKING", timestamp: new Date().toISOString() };
  bus.publish(AgentEvent.task(Task.fromJSON({ ...ids, status: working })));
}

/**
 * Publishes the end of a task's lifecycle from `wire` (an A2A 1.0 ProtoJSON task, as this
 * package's helpers build it): each artifact as an artifact update, then the final status as a
 * status update. A blocking `SendMessage` answers the task the SDK accumulated from the events
 * (it ends on the status update for an input-required task, whose bus the SDK keeps alive, and
 * when the executor returns otherwise).
 */
function finishTask(bus: ExecutionEventBus, wire: Record<string, unknown>): void {
  const task = Task.fromJSON(wire);
  const ids = { taskId: task.id, contextId: task.contextId, metadata: undefined };
  for (const artifact of task.artifacts) {
    bus.publish(AgentEvent.artifactUpdate({ ...ids, artifact, append: false, lastChunk: true }));
  }
  bus.publish(AgentEvent.statusUpdate({ ...ids, status: task.status }));
}

/** A completed profile task: one artifact whose DataPart is `data`. */
function completedTask(
  data: Record<string, unknown>,
  ids: { readonly id: string; readonly contextId: string },
  summary?: string,
): Record<string, unknown> {
  return adcpProfileTaskResponse(data, ids, {
    timestamp: new Date().toISOString(),
    ...(summary === undefined ? {} : { summary }),
  }).task;
}

/** The executor: dispatches each profile invocation to its scenario. */
class SellerExecutor implements AgentExecutor {
  readonly #state: SellerState;
  /** The context of each task this executor ran, for `cancelTask`. */
  readonly #contexts = new Map<string, string>();
  /** The `slow` waits running, by task id: `cancelTask` ends them. */
  readonly #waits = new Map<string, AbortController>();

  constructor(state: SellerState) {
    this.#state = state;
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    // Echoed in the response's A2A-Extensions ("The response SHOULD echo the URI").
    context.context.addActivatedExtension(ADCP_A2A_PROFILE);
    const { skill, input } = invocationOf(context.userMessage);
    const ids = { id: context.taskId, contextId: context.contextId };
    this.#contexts.set(ids.id, ids.contextId);
    this.#state.count(skill);
    if (skill === "create_media_buy" && input.buyer_ref === "pending") {
      // Returned at once: the SDK answers the submitted task, and each GetTask moves it on.
      this.#state.a2aPending.set(ids.id, { polls: 0 });
      bus.publish(AgentEvent.task(Task.fromJSON({
        ...ids,
        status: {
          state: "TASK_STATE_SUBMITTED",
          timestamp: new Date().toISOString(),
          message: {
            messageId: crypto.randomUUID(),
            taskId: ids.id,
            contextId: ids.contextId,
            role: "ROLE_AGENT",
            parts: [{ text: PENDING_MESSAGE }],
          },
        },
      })));
      return;
    }
    startTask(bus, ids);
    finishTask(bus, await this.#answer(context, skill, input, ids));
  }

  /** The final task of an invocation, in ProtoJSON. */
  async #answer(
    context: RequestContext,
    skill: string,
    input: Record<string, unknown>,
    ids: { readonly id: string; readonly contextId: string },
  ): Promise<Record<string, unknown>> {
    if (skill === "get_adcp_capabilities") {
      return completedTask(structuredClone(CAPABILITIES), ids);
    }
    if (skill === "get_products") {
      const wait = new AbortController();
      this.#waits.set(ids.id, wait);
      let answer: ProductsAnswer;
      try {
        answer = await this.#state.products(input.brief, wait.signal);
      } finally {
        this.#waits.delete(ids.id);
      }
      if (answer === undefined) {
        const canceled = { state: "TASK_STATE_CANCELED", timestamp: new Date().toISOString() };
        return { ...ids, status: canceled };
      }
      return answer.ok
        ? completedTask(answer.data, ids, answer.summary)
        : adcpFailedTask(ids, answer.error);
    }
    if (skill === "get_task_status") {
      const data = this.#state.taskStatus(input);
      return data === undefined ? adcpFailedTask(ids, NOT_FOUND) : completedTask(data, ids);
    }
    // create_media_buy
    if (input.buyer_ref === "queued") {
      // The profile's "Submitted AdCP work": a completed A2A task whose DataPart says submitted.
      return completedTask(this.#state.submit("queued"), ids, PENDING_MESSAGE);
    }
    if (input.buyer_ref === "needs_input") {
      return context.task !== undefined && input.total_budget !== undefined
        ? completedTask(structuredClone(INPUT_RESULT), ids, "Media buy created.")
        : adcpProfileInputRequired(ids, { summary: INPUT_QUESTION }).task;
    }
    return completedTask({ media_buy_id: "mb_0", buyer_ref: input.buyer_ref, packages: [] }, ids);
  }

  cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const wait = this.#waits.get(taskId);
    if (wait !== undefined) {
      wait.abort(); // execute() publishes the canceled task
      return Promise.resolve();
    }
    const status = {
      state: TaskState.TASK_STATE_CANCELED,
      message: undefined,
      timestamp: new Date().toISOString(),
    };
    const contextId = this.#contexts.get(taskId) ?? "";
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: undefined }));
    return Promise.resolve();
  }
}

/**
 * The SDK's request handler, plus the profile's routing checks before the executor runs (a
 * malformed invocation or an unknown skill is a native A2A error, -32602: "Profile-routing errors
 * that prevent handler invocation use native A2A error handling") and the `pending` scenario's
 * progress on each GetTask.
 */
class SellerRequestHandler extends DefaultRequestHandler {
  readonly #state: SellerState;
  readonly #store: InMemoryTaskStore;

  constructor(card: AgentCard, state: SellerState) {
    const store = new InMemoryTaskStore();
    super(card, store, new SellerExecutor(state));
    this.#state = state;
    this.#store = store;
  }

  override sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    try {
      checkInvocation(params, context);
    } catch (error) {
      return Promise.reject(error);
    }
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): ReturnType<DefaultRequestHandler["sendMessageStream"]> {
    checkInvocation(params, context);
    yield* super.sendMessageStream(params, context);
  }

  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    const pending = this.#state.a2aPending.get(params.id);
    const task = pending === undefined ? undefined : await this.#store.load(params.id, context);
    if (pending !== undefined && task !== undefined) {
      pending.polls++;
      const ids = { id: task.id, contextId: task.contextId };
      const next = pending.polls === 1
        ? Task.fromJSON({
          ...ids,
          status: { state: "TASK_STATE_WORKING", timestamp: new Date().toISOString() },
        })
        : Task.fromJSON(completedTask(structuredClone(PENDING_RESULT), ids, "Media buy live."));
      if (pending.polls > 1) this.#state.a2aPending.delete(params.id);
      await this.#store.save({ ...next, history: task.history }, context);
    }
    return await super.getTask(params, context);
  }
}

/**
 * Refuses, before the executor, a message that is not an AdCP A2A profile v3 invocation of one of
 * the card's skills. A request that does not activate the profile is left to the SDK, which
 * refuses it since the card declares the extension required (-32008).
 *
 * @throws {RequestMalformedError} Naming the rule broken.
 */
function checkInvocation(params: SendMessageRequest, context: ServerCallContext): void {
  if (!(context.requestedExtensions ?? []).includes(ADCP_A2A_PROFILE)) return;
  const headers = context.state.get(STATE_HEADERS_KEY) as Record<string, string>;
  const message = params.message === undefined ? undefined : Message.toJSON(params.message);
  const checked = checkAdcpProfileInvocation({ headers, message });
  if (!checked.valid) {
    throw new RequestMalformedError(`Not an AdCP A2A profile v3 invocation: ${checked.message}`);
  }
  if (!SDK_SELLER_TASKS.includes(checked.skill)) {
    throw new RequestMalformedError(`No skill with the id ${JSON.stringify(checked.skill)}`);
  }
}

/**
 * Starts the A2A 1.0 seller: the agent card at `GET /.well-known/agent-card.json`, the JSON-RPC
 * endpoint at `POST /a2a` (`SendMessage`, `SendStreamingMessage` as SSE, `GetTask`, and the rest
 * of the SDK's methods); every other path is 404. Requests must send `A2A-Version: 1.0` and
 * activate the AdCP A2A profile v3 in `A2A-Extensions`.
 *
 * Spec: AdCP A2A Profile Extension v3 ("Advertisement and activation", "Invocation message",
 * "Response mapping"); Transport Error Mapping, A2A Binding, Failed Tasks.
 *
 * @returns The running seller; its `url` is the origin.
 *
 * @example Sending an invocation
 * ```ts ignore
 * const seller = await startA2ASdkSeller();
 * const card = await fetchAgentCard(`${seller.url}/.well-known/agent-card.json`);
 * const client = new A2AClient(card); // the interface is on the card's origin
 * const result = await client.sendMessage(client.invocation("get_products", { brief: "ok" }));
 * await seller.close();
 * ```
 */
export function startA2ASdkSeller(): Promise<SdkSeller> {
  const state = new SellerState();
  const encoder = new TextEncoder();
  // Set once the server listens: the card names the endpoint, so it needs the port.
  const holder: { card?: AgentCard; transport?: JsonRpcTransportHandler } = {};
  const rpc = async (request: Request): Promise<Response> => {
    const card = holder.card!;
    const text = await request.text();
    let id: string | number | null = null;
    try {
      const parsed = argsOf(JSON.parse(text));
      if (typeof parsed.id === "string" || typeof parsed.id === "number") id = parsed.id;
    } catch {
      // the transport handler answers the parse error
    }
    const version = request.headers.get("a2a-version");
    const context = defaultServerCallContextBuilder({
      extensions: Extensions.parseServiceParameter(request.headers.get("a2a-extensions") ?? ""),
      user: new UnauthenticatedUser(),
      headers: Object.fromEntries(request.headers),
      ...(version === null ? {} : { requestedVersion: version }),
    });
    const headers = new Headers();
    let answer: Awaited<ReturnType<JsonRpcTransportHandler["handle"]>>;
    try {
      validateVersion(context.requestedVersion, card, "JSONRPC");
      answer = await holder.transport!.handle(text, context);
    } catch (error) {
      const body = { jsonrpc: "2.0", id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
      return Response.json(body);
    }
    const activated = context.activatedExtensions;
    if (activated !== undefined) {
      headers.set("a2a-extensions", Extensions.toServiceParameter(activated));
    }
    if (!(Symbol.asyncIterator in answer)) return Response.json(answer, { headers });
    const iterator = answer[Symbol.asyncIterator]();
    // The first frame before the status line, as the SDK's express handler does: an error there
    // is a JSON-RPC error answer, not a stream.
    let first: IteratorResult<unknown>;
    try {
      first = await iterator.next();
    } catch (error) {
      const body = { jsonrpc: "2.0", id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
      return Response.json(body, { headers });
    }
    for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
    let pending: IteratorResult<unknown> | undefined = first;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = pending ?? await iterator.next();
          pending = undefined;
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
        } catch (error) {
          const rpcError = JsonRpcTransportHandler.mapToJSONRPCError(error);
          controller.enqueue(
            encoder.encode(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: rpcError })),
          );
          controller.close();
        }
      },
      async cancel() {
        await iterator.return?.(undefined);
      },
    });
    return new Response(body, { headers });
  };
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    state.requests++;
    const path = new URL(request.url).pathname;
    if (path === "/.well-known/agent-card.json" && request.method === "GET") {
      return Response.json(AgentCard.toJSON(holder.card!));
    }
    if (path !== "/a2a") return notFound(request);
    if (request.method !== "POST") {
      return discardBody(request, new Response(null, { status: 405, headers: { allow: "POST" } }));
    }
    return rpc(request);
  });
  const origin = `http://127.0.0.1:${http.addr.port}`;
  holder.card = AgentCard.fromJSON(agentCardJson(`${origin}/a2a`));
  holder.transport = new JsonRpcTransportHandler(new SellerRequestHandler(holder.card, state));
  return Promise.resolve(seller("a2a", origin, state, async () => {
    state.closing.abort();
    await http.shutdown();
  }));
}

function seller(
  protocol: "mcp" | "a2a",
  url: string,
  state: SellerState,
  close: () => Promise<void>,
): SdkSeller {
  let closing: Promise<void> | undefined;
  return {
    url,
    protocol,
    get requests() {
      return state.requests;
    },
    get invocations() {
      return { ...state.invocations };
    },
    close() {
      return closing ??= close();
    },
  };
}
