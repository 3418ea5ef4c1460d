// AdcpAgent and connectAgent against in-process fake agents: protocol discovery, the one result
// union (every member, and the inconsistencies of the protocol clients it fixes), the AdCP task
// lifecycle with wait, onStatus and continue, retry on the union, push-notification passthrough,
// and the operation bounds of a waiting call.
import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { A2AClient } from "../a2a/client.ts";
import { fetchAgentCard } from "../a2a/fetch_agent_card.ts";
import {
  AgentProtocolError,
  DeadlineExceededError,
  HttpStatusError,
  JsonRpcError,
  RedirectRefusedError,
  ResponseSchemaError,
  ResponseTooLargeError,
} from "../errors.ts";
import { McpClient } from "../mcp/client.ts";
import type { McpClientOptions } from "../mcp/types.ts";
import { adcpErrorResult } from "../seller/adcp_error_result.ts";
import { adcpProfileTaskResponse } from "../seller/adcp_profile_response.ts";
import { adcpSuccessResult } from "../seller/adcp_success_result.ts";
import {
  fakeA2AAgent,
  fakeMcpAgent,
  type FakeMcpAgentOptions,
  FakeRpcError,
  type FakeSkill,
  type FakeTaskIds,
} from "../testing/fake_agent.ts";
import { AdcpAgent } from "./agent.ts";
import { connectAgent } from "./connect_agent.ts";
import type { AgentCallResult, AgentStatusEvent } from "./types.ts";
import { BRIEF, MEDIA_BUY } from "./_test_agent.ts";

const MCP_URL = "https://seller.example/mcp";
const PRODUCTS = { products: [{ product_id: "p1" }] };
/** The same request with the budget a seller asks for. */
const BUDGETED = { ...MEDIA_BUY, total_budget: { amount: 5000, currency: "USD" } } as const;

function mcpAgent(
  tools: FakeMcpAgentOptions["tools"],
  options: McpClientOptions = {},
): AdcpAgent {
  return new AdcpAgent(new McpClient(MCP_URL, { fetch: fakeMcpAgent({ tools }), ...options }));
}

async function a2aAgent(skills: Record<string, FakeSkill>): Promise<AdcpAgent> {
  const fake = fakeA2AAgent({ skills });
  const card = await fetchAgentCard(fake.cardUrl, { fetch: fake.fetch });
  return new AdcpAgent(new A2AClient(card, { fetch: fake.fetch }));
}

/** A `fetch` answering every request with `respond`'s response. */
function answering(respond: () => Response): typeof fetch {
  return (() => Promise.resolve(respond())) as typeof fetch;
}

Deno.test("connectAgent: a card at the origin makes an A2A agent, bound to the card", async () => {
  const fake = fakeA2AAgent({ skills: { get_products: () => ({ data: PRODUCTS }) } });
  for (const url of ["https://agent.example/some/path", fake.cardUrl]) {
    const agent = await connectAgent(url, { fetch: fake.fetch });
    strictEqual(agent.protocol, "a2a");
    strictEqual(agent.endpoint, "https://agent.example/a2a");
    ok(agent.a2a instanceof A2AClient && agent.mcp === undefined);
  }
  const probes = fake.fetch.requests.filter((request) => request.httpMethod === "GET");
  deepStrictEqual(probes.map((request) => request.method), [
    "/.well-known/agent-card.json",
    "/.well-known/agent-card.json",
  ]);
});

Deno.test("connectAgent: an origin without a card is taken to speak MCP at the URL", async () => {
  for (const status of [401, 403, 404, 405, 410]) {
    const agent = await connectAgent(MCP_URL, {
      fetch: answering(() => new Response("no", { status })),
    });
    strictEqual(agent.protocol, "mcp", `status ${status}`);
    strictEqual(agent.endpoint, MCP_URL);
  }
  const html = await connectAgent(MCP_URL, {
    fetch: answering(() =>
      new Response("<html></html>", { headers: { "content-type": "text/html" } })
    ),
  });
  strictEqual(html.protocol, "mcp");
});

Deno.test("connectAgent: a transient or refused probe never picks the protocol", async () => {
  for (const status of [429, 500, 503]) {
    await rejects(
      () => connectAgent(MCP_URL, { fetch: answering(() => new Response("", { status })) }),
      (error: unknown) => error instanceof HttpStatusError && error.status === status,
    );
  }
  const redirect = () => new Response(null, { status: 302, headers: { location: "/elsewhere" } });
  await rejects(
    () => connectAgent(MCP_URL, { fetch: answering(redirect) }),
    RedirectRefusedError,
  );
  // A JSON card without a usable interface: the origin is an A2A agent, so no MCP guess.
  await rejects(
    () => connectAgent(MCP_URL, { fetch: answering(() => Response.json({ name: "x" })) }),
    (error: unknown) => error instanceof AgentProtocolError && error.reason === "agent_card",
  );
});

Deno.test("connectAgent: a named protocol skips or requires the card", async () => {
  let requests = 0;
  const counting = (() => {
    requests++;
    return Promise.resolve(new Response(null, { status: 404 }));
  }) as typeof fetch;
  const agent = await connectAgent(MCP_URL, { protocol: "mcp", fetch: counting });
  strictEqual(agent.protocol, "mcp");
  strictEqual(requests, 0);
  await rejects(
    () => connectAgent(MCP_URL, { protocol: "a2a", fetch: counting }),
    (error: unknown) => error instanceof HttpStatusError && error.status === 404,
  );
  await rejects(
    () => connectAgent(MCP_URL, { protocol: "grpc" as "mcp" }),
    TypeError,
  );
  await rejects(() => connectAgent("ftp://seller.example/"), TypeError);
});

Deno.test("call: an MCP AdCP error carries its decision and where it was found", async () => {
  const agent = mcpAgent({
    get_products: () =>
      adcpErrorResult({
        code: "RATE_LIMITED",
        message: "Slow down",
        recovery: "transient",
        retry_after: 2,
      }),
  });
  const result = await agent.call("get_products", BRIEF);
  ok(result.kind === "error");
  strictEqual(result.error.code, "RATE_LIMITED");
  strictEqual(result.source, "structured_content");
  strictEqual(result.decision.action, "retry");
  strictEqual(result.protocol, "mcp");
});

Deno.test("call: isError is always a boolean on a text result", async () => {
  const agent = mcpAgent({
    plain: () => ({ content: [{ type: "text", text: "hello" }] }),
    broken: () => ({ isError: true, content: [{ type: "text", text: "it broke" }] }),
  });
  const plain = await agent.call("plain", {});
  deepStrictEqual([plain.kind, plain.kind === "text" && plain.isError], ["text", false]);
  const broken = await agent.call("broken", {});
  deepStrictEqual([broken.kind, broken.kind === "text" && broken.isError], ["text", true]);
});

Deno.test("call: a JSON-RPC error without an AdCP error is a failed call, not a kind", async () => {
  const agent = mcpAgent({
    get_products: () => new FakeRpcError({ code: -32602, message: "Bad arguments" }) as never,
  });
  const result = await agent.call("get_products", BRIEF);
  ok(result.kind === "failed");
  ok(result.error instanceof JsonRpcError);
  strictEqual(result.error.rpcCode, -32602);
  strictEqual(result.decision, null);
  const unknown = await agent.call("no_such_tool", {});
  ok(unknown.kind === "failed" && unknown.error instanceof JsonRpcError);
});

Deno.test("call: a JSON-RPC error carrying adcp_error is an error from jsonrpc_error", async () => {
  const agent = mcpAgent({
    get_products: () =>
      new FakeRpcError({
        code: -32029,
        message: "Rate limited",
        data: { adcp_error: { code: "RATE_LIMITED", message: "Slow", retry_after: 1 } },
      }) as never,
  });
  const result = await agent.call("get_products", BRIEF);
  ok(result.kind === "error");
  strictEqual(result.source, "jsonrpc_error");
  strictEqual(result.error.code, "RATE_LIMITED");
});

Deno.test("call: an oversized answer fails with no decision, on both protocols", async () => {
  const big = { products: [{ name: "x".repeat(20_000) }] };
  const agents = [
    mcpAgent({ get_products: () => adcpSuccessResult(big) }),
    await a2aAgent({ get_products: () => ({ data: big }) }),
  ];
  for (const agent of agents) {
    const result = await agent.call("get_products", BRIEF, { limits: { maxResponseBytes: 8_192 } });
    ok(result.kind === "failed", agent.protocol);
    ok(result.error instanceof ResponseTooLargeError);
    strictEqual(result.decision, null);
  }
});

Deno.test("call: a submitted A2A task is pending with its handle, not an empty text", async () => {
  const agent = await a2aAgent({
    create_media_buy: (_input, ids) => ({
      task: { id: ids.id, contextId: ids.contextId, status: { state: "TASK_STATE_SUBMITTED" } },
    }),
  });
  const result = await agent.call("create_media_buy", MEDIA_BUY);
  ok(result.kind === "pending");
  deepStrictEqual(result.task, {
    protocol: "a2a",
    task: "create_media_buy",
    via: "a2a_task",
    taskId: "task-1",
    contextId: "context-1",
    state: "submitted",
  });
  strictEqual(result.contextId, "context-1");
});

/** Sellers of both protocols whose `create_media_buy` is AdCP Submitted work, polled by status. */
async function submittingAgents(completeAfter: number): Promise<AdcpAgent[]> {
  const agents: AdcpAgent[] = [];
  for (const protocol of ["mcp", "a2a"] as const) {
    let polls = 0;
    const submitted = {
      status: "submitted",
      task_id: "adcp-task-1",
      message: "Awaiting approval",
    };
    const status = (input: Record<string, unknown>) => {
      polls++;
      strictEqual(input.task_id, "adcp-task-1");
      strictEqual(input.include_result, true);
      const done = polls >= completeAfter;
      return {
        task_id: "adcp-task-1",
        task_type: "create_media_buy",
        protocol: "media-buy",
        status: done ? "completed" : "working",
        created_at: "2026-01-01T00:00:00Z",
        updated_at: "2026-01-01T00:00:01Z",
        ...(done ? { result: { media_buy_id: "mb_1", packages: [] } } : {}),
      };
    };
    agents.push(
      protocol === "mcp"
        ? mcpAgent({
          create_media_buy: () => adcpSuccessResult(submitted),
          get_task_status: (input) => adcpSuccessResult(status(input)),
        })
        : await a2aAgent({
          create_media_buy: () => ({ data: submitted }),
          get_task_status: (input) => ({ data: status(input) }),
        }),
    );
  }
  return agents;
}

Deno.test("call: AdCP Submitted work is pending by its task_id, on both protocols", async () => {
  for (const agent of await submittingAgents(2)) {
    const result = await agent.call("create_media_buy", MEDIA_BUY);
    ok(result.kind === "pending", agent.protocol);
    deepStrictEqual(
      [result.task.via, result.task.taskId, result.task.state, result.text],
      ["adcp_task", "adcp-task-1", "submitted", "Awaiting approval"],
    );
  }
});

Deno.test("call with wait: polls get_task_status to the result, reporting each state", async () => {
  for (const agent of await submittingAgents(3)) {
    const events: AgentStatusEvent[] = [];
    const result = await agent.call("create_media_buy", MEDIA_BUY, {
      wait: 5_000,
      pollIntervalMs: 10,
      onStatus: (event) => events.push(event),
    });
    deepStrictEqual(result.kind === "success" && result.data, {
      media_buy_id: "mb_1",
      packages: [],
    }, agent.protocol);
    deepStrictEqual(
      events.map((event) => [event.answers, event.result.kind, stateOf(event.result)]),
      [[1, "pending", "submitted"], [2, "pending", "working"], [3, "pending", "working"], [
        4,
        "success",
        undefined,
      ]],
    );
  }
});

function stateOf(result: AgentCallResult): string | undefined {
  return result.kind === "pending" || result.kind === "input_required"
    ? result.task.state
    : undefined;
}

Deno.test("call with wait: when the time is up, the last pending result comes back", async () => {
  for (const agent of await submittingAgents(1_000)) {
    const started = performance.now();
    const result = await agent.call("create_media_buy", MEDIA_BUY, {
      wait: 150,
      pollIntervalMs: 20,
    });
    const elapsed = performance.now() - started;
    ok(result.kind === "pending", agent.protocol);
    strictEqual(result.task.state, "working");
    ok(elapsed < 1_000, `took ${elapsed} ms`);
    // The handle is plain data: waiting again goes on polling.
    const later = await agent.wait(result.task, { wait: 60, pollIntervalMs: 20 });
    strictEqual(later.kind, "pending");
  }
});

Deno.test("wait: polls a task handle until it is done", async () => {
  for (const agent of await submittingAgents(2)) {
    const first = await agent.call("create_media_buy", MEDIA_BUY);
    ok(first.kind === "pending");
    const done = await agent.wait(first.task, { pollIntervalMs: 10 });
    strictEqual(done.kind, "success", agent.protocol);
  }
});

Deno.test("wait: a caller's abort rejects with its reason, and so does onStatus", async () => {
  const [agent] = await submittingAgents(1_000);
  const controller = new AbortController();
  const reason = new Error("stop");
  setTimeout(() => controller.abort(reason), 50);
  await rejects(
    () =>
      agent!.call("create_media_buy", MEDIA_BUY, {
        wait: 10_000,
        pollIntervalMs: 10,
        limits: { signal: controller.signal },
      }),
    (error: unknown) => error === reason,
  );
  const thrown = new Error("callback");
  await rejects(
    () =>
      agent!.call("create_media_buy", MEDIA_BUY, {
        wait: 10_000,
        pollIntervalMs: 10,
        onStatus: () => {
          throw thrown;
        },
      }),
    (error: unknown) => error === thrown,
  );
});

Deno.test("continue: an MCP input-required answer is continued with its context_id", async () => {
  const calls: Record<string, unknown>[] = [];
  const agent = mcpAgent({
    create_media_buy: (args) => {
      calls.push(args);
      return adcpSuccessResult(
        args.total_budget === undefined
          ? { status: "input-required", message: "Which total budget?", context_id: "ctx_9" }
          : { media_buy_id: "mb_2", packages: [] },
      );
    },
  });
  const first = await agent.call("create_media_buy", MEDIA_BUY);
  ok(first.kind === "input_required");
  deepStrictEqual([first.text, first.contextId, first.task.via], [
    "Which total budget?",
    "ctx_9",
    "adcp_task",
  ]);
  const next = await agent.continue(first.task, BUDGETED);
  deepStrictEqual(next.kind === "success" && next.data, { media_buy_id: "mb_2", packages: [] });
  deepStrictEqual(calls[1], { ...BUDGETED, context_id: "ctx_9" });
});

/** An A2A task that asks for the budget (input-required, the question in its status message). */
function askingForBudget(ids: FakeTaskIds): { readonly task: Record<string, unknown> } {
  return {
    task: {
      id: ids.id,
      contextId: ids.contextId,
      status: {
        state: "TASK_STATE_INPUT_REQUIRED",
        message: { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "Which total budget?" }] },
      },
    },
  };
}

Deno.test("continue: an A2A input-required task is continued in its task and context", async () => {
  const skill: FakeSkill = (input, ids) =>
    input.total_budget === undefined
      ? askingForBudget(ids)
      // The continued Task keeps its id (the profile): the fake gives the same ids again.
      : { data: { media_buy_id: "mb_2", packages: [] } };
  const fake = fakeA2AAgent({ skills: { create_media_buy: skill } });
  const card = await fetchAgentCard(fake.cardUrl, { fetch: fake.fetch });
  const agent = new AdcpAgent(new A2AClient(card, { fetch: fake.fetch }));
  const first = await agent.call("create_media_buy", MEDIA_BUY);
  ok(first.kind === "input_required");
  deepStrictEqual([first.task.via, first.task.taskId, first.text], [
    "a2a_task",
    "task-1",
    "Which total budget?",
  ]);
  const next = await agent.continue(first.task, BUDGETED);
  strictEqual(next.kind, "success");
  const sent = fake.fetch.requests.filter((request) => request.method === "SendMessage");
  const message = (sent[1]!.params as { message: Record<string, unknown> }).message;
  deepStrictEqual([message.taskId, message.contextId], ["task-1", "context-1"]);
});

Deno.test("retry: the client's retry option works on the union", async () => {
  let calls = 0;
  const tools = {
    get_products: () =>
      ++calls === 1
        ? adcpErrorResult({ code: "RATE_LIMITED", message: "Slow", retry_after: 0 })
        : adcpSuccessResult(PRODUCTS),
  };
  const once = await mcpAgent(tools).call("get_products", BRIEF);
  strictEqual(once.kind, "error");
  calls = 0;
  const retried = await mcpAgent(tools, { retry: { sleep: () => Promise.resolve() } }).call(
    "get_products",
    BRIEF,
  );
  deepStrictEqual(retried.kind === "success" && retried.data, PRODUCTS);
  strictEqual(calls, 2);
});

Deno.test("pushNotification: passed to the seller as push_notification_config", async () => {
  const seen: unknown[] = [];
  const push = { url: "https://buyer.example/hooks/1", operation_id: "op-1" };
  const agents = [
    mcpAgent({ create_media_buy: (args) => (seen.push(args), adcpSuccessResult(PRODUCTS)) }),
    await a2aAgent({ create_media_buy: (input) => (seen.push(input), { data: PRODUCTS }) }),
  ];
  for (const agent of agents) {
    await agent.call("create_media_buy", MEDIA_BUY, { pushNotification: push });
    await rejects(
      () =>
        agent.call("create_media_buy", { ...MEDIA_BUY, push_notification_config: push }, {
          pushNotification: push,
        }),
      TypeError,
    );
    await rejects(
      () =>
        agent.call("create_media_buy", MEDIA_BUY, {
          pushNotification: { url: "/relative", operation_id: "op" },
        }),
      TypeError,
    );
    await rejects(
      () => agent.call("create_media_buy", MEDIA_BUY, { pushNotification: { url: push.url } }),
      TypeError,
    );
  }
  deepStrictEqual(seen, [
    { ...MEDIA_BUY, push_notification_config: push },
    { ...MEDIA_BUY, push_notification_config: push },
  ]);
});

Deno.test("call: bad arguments and options throw before anything is sent", async () => {
  const fake = fakeMcpAgent({ tools: {} });
  const agent = new AdcpAgent(new McpClient(MCP_URL, { fetch: fake }));
  await rejects(() => agent.call("", {}), TypeError);
  await rejects(() => agent.call("t", null as never), TypeError);
  await rejects(() => agent.call("t", {}, { wait: -1 }), RangeError);
  await rejects(() => agent.call("t", {}, { wait: "soon" as never }), TypeError);
  await rejects(() => agent.call("t", {}, { pollIntervalMs: 1 }), RangeError);
  await rejects(() => agent.call("t", {}, { onStatus: 1 as never }), TypeError);
  await rejects(() => agent.call("t", {}, { contextId: "" }), TypeError);
  await rejects(
    () => agent.wait({ protocol: "a2a", task: "t", via: "a2a_task", taskId: "1" } as never),
    TypeError,
  );
  strictEqual(fake.requests.length, 0);
  throws(() => new AdcpAgent({} as never), TypeError);
});

Deno.test("call: a deadline is a failed call whose decision is to retry", async () => {
  const stalled = (() => new Promise<Response>(() => {})) as typeof fetch;
  const agent = new AdcpAgent(new McpClient(MCP_URL, { fetch: stalled }));
  const result = await agent.call("get_products", BRIEF, { limits: { timeoutMs: 50 } });
  ok(result.kind === "failed");
  ok(result.error instanceof DeadlineExceededError);
  strictEqual(result.decision?.action, "retry");
});

Deno.test("validate: a payload is checked against the task's pinned schema", async () => {
  const good = { status: "completed", cache_scope: "account", products: [] };
  const bad = { status: "completed", cache_scope: "account", products: "none" };
  for (
    const agent of [
      mcpAgent({ get_products: (args) => adcpSuccessResult(args.brief === "bad" ? bad : good) }),
      await a2aAgent({ get_products: (input) => ({ data: input.brief === "bad" ? bad : good }) }),
    ]
  ) {
    const valid = await agent.call("get_products", BRIEF, { validate: true });
    ok(valid.kind === "success", agent.protocol);
    deepStrictEqual(valid.data, good);
    const invalid = await agent.call("get_products", { ...BRIEF, brief: "bad" }, {
      validate: true,
    });
    ok(invalid.kind === "failed", agent.protocol);
    ok(invalid.error instanceof ResponseSchemaError);
    deepStrictEqual(invalid.error.schemas, ["media-buy/get-products-response.json"]);
    strictEqual(invalid.error.issues.at(-1)?.pointer, "/products");
    strictEqual(invalid.decision, null);
    // Without the option, the same payload is the seller's data, unchecked.
    const unchecked = await agent.call("get_products", { ...BRIEF, brief: "bad" });
    deepStrictEqual(unchecked.kind === "success" && unchecked.data, bad);
  }
});

Deno.test("validate: interim payloads by status; unknown tasks refused up front", async () => {
  const agent = mcpAgent({
    create_media_buy: () =>
      adcpSuccessResult({ status: "submitted", task_id: "t1", message: "Queued" }),
    vendor_tool: () => adcpSuccessResult({}),
  });
  const pending = await agent.call("create_media_buy", MEDIA_BUY, { validate: true });
  ok(pending.kind === "pending");
  await rejects(() => agent.call("vendor_tool", {}, { validate: true }), TypeError);
  await rejects(() => agent.call("get_products", BRIEF, { validate: 1 as never }), TypeError);
});

Deno.test("wait: a poll answered with another task fails, not followed", async () => {
  const submitted: Record<string, unknown> = {
    id: "task-1",
    contextId: "context-1",
    status: { state: "TASK_STATE_SUBMITTED" },
  };
  const agent = await a2aAgent({ create_media_buy: () => ({ task: submitted }) });
  const first = await agent.call("create_media_buy", MEDIA_BUY);
  ok(first.kind === "pending");
  submitted.id = "task-of-the-sellers-choice"; // GetTask("task-1") now answers another task
  const polled = await agent.wait(first.task, { pollIntervalMs: 10, wait: 1_000 });
  ok(polled.kind === "pending");
  strictEqual(polled.task.taskId, "task-1");
  ok(polled.pollFailure?.error instanceof AgentProtocolError);
  strictEqual(polled.pollFailure.error.reason, "invalid_message");
});

Deno.test("wait: a failed poll keeps the handle and the failure, never a bare retry", async () => {
  let polls = 0;
  const agent = mcpAgent({
    create_media_buy: () => adcpSuccessResult({ status: "submitted", task_id: "t1" }),
    get_task_status: () =>
      ++polls === 1
        ? new FakeRpcError({ code: -32603, message: "Internal error" }) as never
        : adcpSuccessResult({ task_id: "t1", status: "completed", result: { media_buy_id: "mb" } }),
  });
  const first = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 5_000,
    pollIntervalMs: 10,
  });
  ok(first.kind === "pending");
  strictEqual(first.task.taskId, "t1");
  ok(first.pollFailure?.error instanceof JsonRpcError);
  // Waiting again is the recovery: the same task completes.
  const done = await agent.wait(first.task, { pollIntervalMs: 10 });
  deepStrictEqual(done.kind === "success" && done.data, { media_buy_id: "mb" });
});

Deno.test("wait: the operation's byte budget ends the wait with the handle kept", async () => {
  const agent = mcpAgent({
    create_media_buy: () => adcpSuccessResult({ status: "submitted", task_id: "t1" }),
    get_task_status: () =>
      adcpSuccessResult({ task_id: "t1", status: "working", message: "x".repeat(2_000) }),
  });
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 10_000,
    pollIntervalMs: 10,
    limits: { maxResponseBytes: 16_384 },
  });
  ok(result.kind === "pending");
  strictEqual(result.task.taskId, "t1");
  ok(result.pollFailure?.error instanceof ResponseTooLargeError);
  strictEqual(result.pollFailure.error.phase, "cumulative");
});

Deno.test("wait: a status answer about another task is refused", async () => {
  for (
    const other of [{ task_id: "someone-elses" }, { task_id: "t1", task_type: "get_products" }]
  ) {
    const agent = mcpAgent({
      create_media_buy: () => adcpSuccessResult({ status: "submitted", task_id: "t1" }),
      get_task_status: () =>
        adcpSuccessResult({ ...other, status: "completed", result: { products: [] } }),
    });
    const result = await agent.call("create_media_buy", MEDIA_BUY, {
      wait: 5_000,
      pollIntervalMs: 10,
    });
    ok(result.kind === "pending", JSON.stringify(other));
    ok(result.pollFailure?.error instanceof AgentProtocolError);
  }
});

Deno.test("wait: an AdCP poll over A2A answered by an unfinished A2A task is refused", async () => {
  const agent = await a2aAgent({
    create_media_buy: () => ({ data: { status: "submitted", task_id: "t1" } }),
    get_task_status: () => ({
      task: { id: "EVIL", contextId: "c", status: { state: "TASK_STATE_WORKING" } },
    }),
  });
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 5_000,
    pollIntervalMs: 10,
  });
  ok(result.kind === "pending");
  deepStrictEqual([result.task.via, result.task.taskId], ["adcp_task", "t1"]);
  ok(result.pollFailure?.error instanceof AgentProtocolError);
});

Deno.test("A2A: the native contextId is the conversation, not a payload context_id", async () => {
  const agent = await a2aAgent({
    get_products: () => ({ data: { products: [], context_id: "seller-picked" } }),
  });
  const result = await agent.call("get_products", BRIEF);
  strictEqual(result.contextId, "context-1");
});

Deno.test("continue: an MCP task without the seller's context_id is refused", async () => {
  const agent = mcpAgent({});
  const task = {
    protocol: "mcp",
    task: "create_media_buy",
    via: "adcp_task",
    taskId: undefined,
    contextId: undefined,
    state: "input-required",
  } as const;
  await rejects(() => agent.continue(task, MEDIA_BUY), TypeError);
});

Deno.test("AdcpAgent: a waiting call is bounded by the client's own limit layers", async () => {
  const big = { task_id: "t1", status: "completed", result: { blob: "x".repeat(6_000_000) } };
  const agent = mcpAgent({
    create_media_buy: () => adcpSuccessResult({ status: "submitted", task_id: "t1" }),
    get_task_status: () => adcpSuccessResult(big),
  }, { agentLimits: { maxResponseBytes: 32_000_000 } });
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 5_000,
    pollIntervalMs: 10,
  });
  strictEqual(result.kind, "success");
});

Deno.test("connectAgent: 400 and 406 probes (an MCP server on every path) mean MCP", async () => {
  for (const status of [400, 406]) {
    const agent = await connectAgent(MCP_URL, {
      fetch: answering(() => new Response("no", { status })),
    });
    strictEqual(agent.protocol, "mcp");
  }
});

Deno.test("continue: an A2A continuation answered by another task is refused", async () => {
  // A seller answering with a task other than the one continued.
  const skill: FakeSkill = (input, ids) =>
    input.total_budget === undefined ? askingForBudget(ids) : {
      task: adcpProfileTaskResponse({ media_buy_id: "mb_2", packages: [] }, {
        id: "task-other",
        contextId: ids.contextId,
      }).task,
    };
  const agent = await a2aAgent({ create_media_buy: skill });
  const first = await agent.call("create_media_buy", MEDIA_BUY);
  ok(first.kind === "input_required");
  const next = await agent.continue(first.task, BUDGETED);
  ok(next.kind === "failed" && next.error instanceof AgentProtocolError);
});

Deno.test("wait: a retry's backoff does not outlast the operation", async () => {
  const agent = mcpAgent({
    create_media_buy: () => adcpSuccessResult({ status: "submitted", task_id: "t1" }),
    get_task_status: () =>
      adcpErrorResult({ code: "RATE_LIMITED", message: "Slow", retry_after: 5 }) as never,
  }, { retry: true });
  const started = performance.now();
  const result = await agent.call("create_media_buy", MEDIA_BUY, { wait: 400, pollIntervalMs: 10 });
  const elapsed = performance.now() - started;
  ok(elapsed < 2_000, `took ${Math.round(elapsed)} ms`);
  ok(result.kind === "pending", result.kind);
});

Deno.test("call: a failed call names the idempotency key to resend it with", async () => {
  const seen: unknown[] = [];
  let calls = 0;
  const agent = mcpAgent({
    create_media_buy: (args) => {
      seen.push(args.idempotency_key);
      return ++calls === 1
        ? new FakeRpcError({ code: -32603, message: "Internal error" }) as never
        : adcpSuccessResult({ media_buy_id: "mb" });
    },
  });
  const failed = await agent.call("create_media_buy", MEDIA_BUY, { idempotencyKey: true });
  ok(failed.kind === "failed");
  ok(typeof failed.idempotencyKey === "string" && failed.idempotencyKey.length >= 16);
  const again = await agent.call("create_media_buy", MEDIA_BUY, {
    idempotencyKey: failed.idempotencyKey,
  });
  strictEqual(again.kind, "success");
  deepStrictEqual(seen, [failed.idempotencyKey, failed.idempotencyKey]);
  await rejects(
    () => agent.call("create_media_buy", MEDIA_BUY, { idempotencyKey: "short" }),
    TypeError,
  );
});
