// In-process fake agents: a `fetch` that answers as a small MCP or A2A agent would, for tests of
// buyer code and for the examples of this package. Nothing is bounded here: a fake agent trusts
// its handlers, and the clients under test do the checking. The A2A agent follows the AdCP A2A
// profile: it refuses requests that do not activate it, as a `required: true` agent must.
import { isFinalA2ATaskState, normalizeA2ATaskState } from "@adcp-wire/core";
import { checkOptionKeys, isJsonObject, optionKeys, own } from "@adcp-wire/internal";
import { checkAdcpProfileInvocation } from "../a2a/check_adcp_profile_invocation.ts";
import { ADCP_A2A_PROFILE } from "../a2a/types.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";
import { adcpProfileTaskResponse } from "../seller/adcp_profile_response.ts";

/** The JSON-RPC `error` member a fake agent answers with. */
export interface FakeRpcErrorObject {
  /** The JSON-RPC error code (for AdCP: `-32029`, `-32028`, `-32027`, or a standard one). */
  readonly code: number;
  /** The error message. */
  readonly message: string;
  /** Optional data, for AdCP `{ adcp_error }`. */
  readonly data?: unknown;
}

/**
 * A handler's answer that makes the fake agent reply with a JSON-RPC error instead of a result.
 *
 * @example A reserved AdCP JSON-RPC error from a tool
 * ```ts
 * import { McpClient } from "@adcp-wire/transports/mcp";
 * import { adcpJsonRpcError } from "@adcp-wire/transports/seller";
 * import { fakeMcpAgent, FakeRpcError } from "@adcp-wire/transports/testing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = adcpJsonRpcError({
 *   code: "RATE_LIMITED",
 *   message: "Slow down",
 *   recovery: "transient",
 * });
 * const fetch = fakeMcpAgent({ tools: { get_products: () => new FakeRpcError(error) } });
 * const client = new McpClient("https://agent.example/mcp", { fetch });
 * const result = await client.callTool("get_products", {});
 * strictEqual(result.kind === "error" && result.path, "jsonrpc_error");
 * ```
 */
export class FakeRpcError {
  /** The JSON-RPC `error` member to send. */
  readonly error: FakeRpcErrorObject;

  /**
   * Wraps the `error` member to send.
   *
   * @param error The JSON-RPC error object.
   *
   * @example Usage
   * ```ts
   * import { FakeRpcError } from "@adcp-wire/transports/testing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new FakeRpcError({ code: -32602, message: "Bad params" }).error.code, -32602);
   * ```
   */
  constructor(error: FakeRpcErrorObject) {
    this.error = error;
  }
}

/** One JSON-RPC request a fake agent received, in order. */
export interface FakeRequest {
  /** The HTTP method (`POST`, or `GET` for an agent card). */
  readonly httpMethod: string;
  /** The JSON-RPC method, or the path of a `GET`. */
  readonly method: string;
  /** The JSON-RPC params, if any. */
  readonly params: unknown;
  /** The request headers. */
  readonly headers: Headers;
}

/** A `fetch` that is a fake agent, with the requests it received. */
export type FakeAgentFetch = FetchLike & {
  /** Every request received so far, in order. */
  readonly requests: readonly FakeRequest[];
};

/** A tool of a fake MCP agent: returns the `tools/call` result, or a {@link FakeRpcError}. */
export type FakeTool = (
  args: Record<string, unknown>,
) => Record<string, unknown> | FakeRpcError | Promise<Record<string, unknown> | FakeRpcError>;

/** Options of {@link fakeMcpAgent}. */
export interface FakeMcpAgentOptions {
  /** The tools, by name; `tools/list` lists them in this order. */
  readonly tools: Readonly<Record<string, FakeTool>>;
}

/** The keys of {@link FakeMcpAgentOptions}. */
const MCP_OPTION_KEYS = optionKeys<FakeMcpAgentOptions>({ tools: true });

/**
 * A fake MCP agent: a `fetch` that answers `initialize` (protocol version 2025-11-25),
 * notifications (`202`), `ping`, `tools/list` and `tools/call` as an MCP Streamable HTTP server
 * answering in JSON would. A call to an unknown tool gets JSON-RPC error `-32602`, an unknown
 * method `-32601`.
 *
 * @param options The tools.
 * @returns The `fetch`, with the requests it received in `requests`.
 * @throws {TypeError} When `options` has a key other than `tools`.
 *
 * @example Calling a tool
 * ```ts
 * import { McpClient } from "@adcp-wire/transports/mcp";
 * import { adcpSuccessResult } from "@adcp-wire/transports/seller";
 * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const fetch = fakeMcpAgent({
 *   tools: { get_products: (args) => adcpSuccessResult({ products: [], brief: args.brief }) },
 * });
 * const client = new McpClient("https://agent.example/mcp", { fetch });
 * const result = await client.callTool("get_products", { brief: "CTV" });
 * deepStrictEqual(result, { kind: "success", data: { products: [], brief: "CTV" } });
 * deepStrictEqual(fetch.requests.map((request) => request.method), [
 *   "initialize",
 *   "notifications/initialized",
 *   "tools/call",
 * ]);
 * ```
 */
export function fakeMcpAgent(options: FakeMcpAgentOptions): FakeAgentFetch {
  checkOptionKeys("create the fake MCP agent", "options", options, MCP_OPTION_KEYS);
  const tools = options.tools;
  return jsonRpcAgent(async (method, params) => {
    if (method === "initialize") {
      return {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "fake-mcp-agent", version: "1.0.0" },
      };
    }
    if (method === "ping") return {};
    if (method === "tools/list") {
      return {
        tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: "object" } })),
      };
    }
    if (method === "tools/call") {
      const { name, arguments: args } = (params ?? {}) as { name?: unknown; arguments?: unknown };
      const tool = typeof name === "string" && Object.hasOwn(tools, name) ? tools[name] : undefined;
      if (tool === undefined) return new FakeRpcError({ code: -32602, message: "Unknown tool" });
      return await tool((args ?? {}) as Record<string, unknown>);
    }
    return new FakeRpcError({ code: -32601, message: "Method not found" });
  });
}

/** The ids of the task a fake A2A agent is answering, for building failed tasks. */
export interface FakeTaskIds {
  /** The task id. */
  readonly id: string;
  /** The context id. */
  readonly contextId: string;
}

/**
 * A skill of a fake A2A agent: returns `{ data }`, the handler's direct AdCP response, answered
 * as `adcpProfileTaskResponse` builds it (an A2A completed Task whose one artifact holds it, AdCP
 * Submitted responses included; a `data` it refuses, such as one with `adcp_error`, makes the
 * fetch reject with its `TypeError`), `{ task }` for a Task to send as it is (for example
 * `adcpFailedTask`'s), or a {@link FakeRpcError}.
 */
export type FakeSkill = (
  input: Record<string, unknown>,
  ids: FakeTaskIds,
) =>
  | { readonly data: Record<string, unknown> }
  | { readonly task: Record<string, unknown> }
  | FakeRpcError;

/** Options of {@link fakeA2AAgent}. */
export interface FakeA2AAgentOptions {
  /** The AdCP skills, by name. */
  readonly skills: Readonly<Record<string, FakeSkill>>;
}

/** The keys of {@link FakeA2AAgentOptions}. */
const A2A_OPTION_KEYS = optionKeys<FakeA2AAgentOptions>({ skills: true });

/** A fake A2A agent: its card, where the card lives, and the `fetch` that serves both. */
export interface FakeA2AAgent {
  /**
   * The agent card: one A2A 1.0 JSON-RPC interface at `https://agent.example/a2a`, the AdCP A2A
   * profile declared under `capabilities.extensions` with `required: true`, and one skill per
   * skill given (its `id` the task name). List a `get_adcp_capabilities` skill for a card that
   * passes `checkAdcpProfileAdvertisement`.
   */
  readonly card: Record<string, unknown>;
  /** The card's URL, `https://agent.example/.well-known/agent-card.json`. */
  readonly cardUrl: string;
  /** Serves the card (`GET`) and the JSON-RPC interface (`POST`). */
  readonly fetch: FakeAgentFetch;
}

/**
 * A fake A2A 1.0 agent: a `fetch` that serves its card and answers `SendMessage`,
 * `SendStreamingMessage` (one SSE event holding the final task) and `GetTask` for AdCP A2A profile
 * v3 invocations. A message send is first checked with `checkAdcpProfileInvocation`: a request
 * that does not activate the profile gets JSON-RPC error `-32008` (A2A
 * `ExtensionSupportRequiredError`), one whose `A2A-Version` is not 1.0 `-32009`
 * (`VersionNotSupportedError`), any other broken rule `-32602` (invalid params), and so does an
 * unknown skill; an unknown method gets `-32601`.
 *
 * @param options The skills.
 * @returns The card, its URL and the `fetch`.
 * @throws {TypeError} When `options` has a key other than `skills`.
 *
 * @example Fetching the card, then sending an invocation
 * ```ts
 * import { A2AClient, fetchAgentCard } from "@adcp-wire/transports/a2a";
 * import { fakeA2AAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const agent = fakeA2AAgent({ skills: { get_products: (input) => ({ data: { echo: input } }) } });
 * const card = await fetchAgentCard(agent.cardUrl, { fetch: agent.fetch });
 * const client = new A2AClient(card, { fetch: agent.fetch });
 * const result = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
 * deepStrictEqual(result.kind === "success" && result.data, { echo: { brief: "CTV" } });
 * ```
 */
export function fakeA2AAgent(options: FakeA2AAgentOptions): FakeA2AAgent {
  checkOptionKeys("create the fake A2A agent", "options", options, A2A_OPTION_KEYS);
  const skills = options.skills;
  const origin = "https://agent.example";
  const cardUrl = `${origin}/.well-known/agent-card.json`;
  const card = {
    name: "fake-a2a-agent",
    supportedInterfaces: [
      { url: `${origin}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    ],
    capabilities: {
      streaming: true,
      extensions: [{
        uri: ADCP_A2A_PROFILE,
        description: "AdCP structured task invocation profile",
        required: true,
      }],
    },
    skills: Object.keys(skills).map((id) => ({ id, name: id, description: id, tags: ["adcp"] })),
  };
  const tasks = new Map<string, Record<string, unknown>>();
  let nextTask = 1;
  const answer = (params: unknown, headers: Headers): unknown => {
    const message = (params as { message?: unknown } | undefined)?.message;
    const checked = checkAdcpProfileInvocation({ headers, message });
    if (!checked.valid) {
      const code = checked.code === "extension_not_activated"
        ? -32008
        : checked.code === "unsupported_a2a_version"
        ? -32009
        : -32602;
      return new FakeRpcError({ code, message: checked.message, data: { reason: checked.code } });
    }
    const skill = Object.hasOwn(skills, checked.skill) ? skills[checked.skill] : undefined;
    if (skill === undefined) return new FakeRpcError({ code: -32602, message: "Unknown skill" });
    // A valid invocation's message is an object.
    const sent = message as Record<string, unknown>;
    const continued = continuation(sent);
    if (continued instanceof FakeRpcError) return continued;
    let ids: FakeTaskIds;
    if (continued !== undefined) ids = continued;
    else {
      const contextId = own(sent, "contextId");
      ids = {
        id: `task-${nextTask}`,
        contextId: typeof contextId === "string" ? contextId : `context-${nextTask}`,
      };
      nextTask++;
    }
    const reply = skill(checked.input, ids);
    if (reply instanceof FakeRpcError) return reply;
    const task = "task" in reply ? reply.task : adcpProfileTaskResponse(reply.data, ids).task;
    tasks.set(String(task.id ?? ids.id), task);
    return { task };
  };
  // A message naming a task continues it (A2A: a follow-up carries the task's taskId and
  // contextId): the same ids, while the task is not in a final state.
  const continuation = (
    message: Record<string, unknown>,
  ): FakeTaskIds | FakeRpcError | undefined => {
    const taskId = own(message, "taskId");
    if (taskId === undefined) return undefined;
    const task = typeof taskId === "string" ? tasks.get(taskId) : undefined;
    if (task === undefined) return new FakeRpcError({ code: -32001, message: "Task not found" });
    const contextId = own(task, "contextId");
    if (typeof contextId !== "string" || own(message, "contextId") !== contextId) {
      return new FakeRpcError({ code: -32602, message: "The contextId is not the task's" });
    }
    const status = own(task, "status");
    const state = normalizeA2ATaskState(isJsonObject(status) ? own(status, "state") : undefined);
    if (state !== null && isFinalA2ATaskState(state)) {
      return new FakeRpcError({ code: -32004, message: "The task is in a final state" });
    }
    return { id: taskId as string, contextId };
  };
  const fetch = jsonRpcAgent((method, params, headers) => {
    if (method === "SendMessage" || method === "SendStreamingMessage") {
      return answer(params, headers);
    }
    if (method === "GetTask") {
      const id = (params as { id?: unknown } | undefined)?.id;
      const task = typeof id === "string" ? tasks.get(id) : undefined;
      return task ?? new FakeRpcError({ code: -32001, message: "Task not found" });
    }
    return new FakeRpcError({ code: -32601, message: "Method not found" });
  }, (path) => path === new URL(cardUrl).pathname ? card : undefined);
  return { card, cardUrl, fetch };
}

/**
 * A `fetch` answering JSON-RPC POSTs with `handle`'s result (or error), notifications with `202`,
 * `SendStreamingMessage` as one SSE event, and GETs with `serve`'s JSON (or 404).
 */
function jsonRpcAgent(
  handle: (method: string, params: unknown, headers: Headers) => unknown,
  serve: (path: string) => unknown = () => undefined,
): FakeAgentFetch {
  const requests: FakeRequest[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.method === "GET") {
      const path = new URL(request.url).pathname;
      requests.push({
        httpMethod: "GET",
        method: path,
        params: undefined,
        headers: request.headers,
      });
      const body = serve(path);
      return body === undefined ? new Response(null, { status: 404 }) : Response.json(body);
    }
    const message = await request.json() as { id?: unknown; method?: unknown; params?: unknown };
    const method = typeof message.method === "string" ? message.method : "";
    requests.push({
      httpMethod: request.method,
      method,
      params: message.params,
      headers: request.headers,
    });
    if (message.id === undefined) return new Response(null, { status: 202 });
    const outcome = await handle(method, message.params, request.headers);
    const reply = outcome instanceof FakeRpcError
      ? { jsonrpc: "2.0", id: message.id, error: outcome.error }
      : { jsonrpc: "2.0", id: message.id, result: outcome };
    if (method === "SendStreamingMessage" && !(outcome instanceof FakeRpcError)) {
      const headers = { "content-type": "text/event-stream" };
      return new Response(`data: ${JSON.stringify(reply)}\n\n`, { headers });
    }
    return Response.json(reply);
  };
  return Object.assign(fetch, { requests });
}
