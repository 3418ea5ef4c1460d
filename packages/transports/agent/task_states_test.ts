// AdcpAgent reading task states a seller chooses: MCP tasks created already ended, A2A polls that
// name no task, states this client does not know, poll intervals a seller tries to shorten, and the
// question an A2A input-required task carries beside its data.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { A2AClient } from "../a2a/client.ts";
import { fetchAgentCard } from "../a2a/fetch_agent_card.ts";
import { AgentProtocolError, DeadlineExceededError, JsonRpcError } from "../errors.ts";
import { McpClient } from "../mcp/client.ts";
import { adcpErrorResult } from "../seller/adcp_error_result.ts";
import { adcpProfileInputRequired } from "../seller/adcp_profile_input_required.ts";
import { adcpSuccessResult } from "../seller/adcp_success_result.ts";
import { fakeA2AAgent, fakeMcpAgent, type FakeSkill } from "../testing/fake_agent.ts";
import { AdcpAgent } from "./agent.ts";
import type { AgentCallResult } from "./types.ts";
import { MEDIA_BUY } from "./_test_agent.ts";

const MCP_URL = "https://seller.example/mcp";
const BOOKED = { media_buy_id: "mb_1", packages: [] };

/** What an MCP task server answers: the task created, each tasks/get, and tasks/result. */
interface TaskScript {
  readonly created: Record<string, unknown>;
  readonly polls?: readonly Record<string, unknown>[];
  readonly result?: Record<string, unknown> | { readonly error: Record<string, unknown> };
}

/**
 * An MCP agent whose tools/call creates a task and answers tasks/get and tasks/result from
 * `script`; everything else is the fake MCP agent's. `methods` lists the task methods received.
 */
function taskServer(script: TaskScript) {
  const methods: string[] = [];
  const times: number[] = [];
  const base = fakeMcpAgent({ tools: { create_media_buy: () => adcpSuccessResult(BOOKED) } });
  let poll = 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const message = await request.clone().json().catch(() => ({})) as {
      id?: unknown;
      method?: string;
      params?: Record<string, unknown>;
    };
    const reply = (result: unknown) => Response.json({ jsonrpc: "2.0", id: message.id, result });
    switch (message.method) {
      case "tools/call":
        if (message.params?.task === undefined) break;
        methods.push("tools/call");
        return reply({ task: script.created });
      case "tasks/get": {
        methods.push("tasks/get");
        times.push(performance.now());
        const polls = script.polls ?? [];
        return reply(polls[Math.min(poll++, polls.length - 1)]);
      }
      case "tasks/result": {
        methods.push("tasks/result");
        const result = script.result;
        if (result !== undefined && "error" in result) {
          return Response.json({ jsonrpc: "2.0", id: message.id, error: result.error });
        }
        return reply(result);
      }
    }
    return await base(request);
  };
  return { fetch, methods, times };
}

function mcpTaskAgent(script: TaskScript) {
  const server = taskServer(script);
  return { agent: new AdcpAgent(new McpClient(MCP_URL, { fetch: server.fetch })), ...server };
}

const task = (status: string, extra: Record<string, unknown> = {}) => ({
  taskId: "task-1",
  status,
  createdAt: "2026-12-03T00:00:00Z",
  lastUpdatedAt: "2026-12-03T00:00:00Z",
  ttl: 60_000,
  ...extra,
});

Deno.test("mcpTask: a task created completed is read with tasks/result", async () => {
  const { agent, methods } = mcpTaskAgent({
    created: task("completed"),
    result: adcpSuccessResult(BOOKED),
  });
  const result = await agent.call("create_media_buy", MEDIA_BUY, { mcpTask: true });
  deepStrictEqual(result.kind === "success" && result.data, BOOKED);
  deepStrictEqual(methods, ["tools/call", "tasks/result"]);
});

Deno.test("mcpTask: a task created failed is its error, never a success", async () => {
  // The underlying request's error result: an AdCP error, or a plain error text.
  const adcp = mcpTaskAgent({
    created: task("failed"),
    result: adcpErrorResult({
      code: "BUDGET_TOO_LOW",
      message: "Too low",
      recovery: "correctable",
    }),
  });
  const error = await adcp.agent.call("create_media_buy", MEDIA_BUY, { mcpTask: true });
  ok(error.kind === "error", error.kind);
  strictEqual(error.error.code, "BUDGET_TOO_LOW");
  strictEqual(error.decision.action, "surface_to_caller");
  const text = mcpTaskAgent({
    created: task("failed"),
    result: { content: [{ type: "text", text: "It broke" }] },
  });
  const failedText = await text.agent.call("create_media_buy", MEDIA_BUY, { mcpTask: true });
  deepStrictEqual(failedText.kind === "text" && [failedText.text, failedText.isError], [
    "It broke",
    true,
  ]);
  // The JSON-RPC error the request failed with.
  const rpc = mcpTaskAgent({
    created: task("failed"),
    result: { error: { code: -32603, message: "Internal error" } },
  });
  const rpcError = await rpc.agent.call("create_media_buy", MEDIA_BUY, { mcpTask: true });
  ok(rpcError.kind === "failed" && rpcError.error instanceof JsonRpcError, rpcError.kind);
  // A failed task whose result claims success is refused.
  const lying = mcpTaskAgent({ created: task("failed"), result: adcpSuccessResult(BOOKED) });
  const refused = await lying.agent.call("create_media_buy", MEDIA_BUY, { mcpTask: true });
  ok(refused.kind === "failed" && refused.error instanceof AgentProtocolError, refused.kind);
});

Deno.test("mcpTask: a task created cancelled is an error text, its result not read", async () => {
  const { agent, methods } = mcpTaskAgent({
    created: task("cancelled", { statusMessage: "Cancelled by the seller" }),
    result: adcpSuccessResult(BOOKED),
  });
  const result = await agent.call("create_media_buy", MEDIA_BUY, { mcpTask: true });
  deepStrictEqual(result.kind === "text" && [result.text, result.isError], [
    "Cancelled by the seller",
    true,
  ]);
  deepStrictEqual(methods, ["tools/call"]);
});

Deno.test("mcpTask: a polled task that ends failed or cancelled is not a success", async () => {
  for (const ended of ["failed", "cancelled"]) {
    const { agent } = mcpTaskAgent({
      created: task("working"),
      polls: [task(ended)],
      result: { content: [{ type: "text", text: "Gone" }], isError: true },
    });
    const result = await agent.call("create_media_buy", MEDIA_BUY, {
      mcpTask: true,
      wait: 5_000,
      pollIntervalMs: 10,
    });
    ok(result.kind === "text" && result.isError, `${ended}: ${result.kind}`);
  }
});

Deno.test("wait: a seller's pollInterval cannot poll faster than the call's interval", async () => {
  const { agent, times } = mcpTaskAgent({
    created: task("working", { pollInterval: 10 }),
    polls: [task("working", { pollInterval: 10 })],
  });
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    mcpTask: true,
    wait: 1_000,
    pollIntervalMs: 200,
  });
  ok(result.kind === "pending", result.kind);
  // At 10 ms the seller would have had about 90 polls; at the 200 ms floor, at most 4.
  ok(times.length >= 1 && times.length <= 4, `${times.length} polls`);
  for (let index = 1; index < times.length; index++) {
    ok(
      times[index]! - times[index - 1]! >= 190,
      `polls ${times[index]! - times[index - 1]!} apart`,
    );
  }
});

Deno.test("wait: a seller's longer pollInterval is honoured", async () => {
  const { agent, times } = mcpTaskAgent({
    created: task("working", { pollInterval: 400 }),
    polls: [task("working", { pollInterval: 400 })],
  });
  await agent.call("create_media_buy", MEDIA_BUY, {
    mcpTask: true,
    wait: 1_000,
    pollIntervalMs: 10,
  });
  ok(times.length <= 2, `${times.length} polls`);
});

Deno.test("McpClient.waitForTask: a server's pollInterval is no lower than the floor", async () => {
  const { fetch, times } = taskServer({
    created: task("working"),
    polls: [task("working", { pollInterval: 1 })],
  });
  const client = new McpClient(MCP_URL, { fetch });
  const started = performance.now();
  await client.waitForTask("task-1", { maxWaitMs: 700, pollIntervalMs: 200 }).catch(() => {});
  ok(performance.now() - started < 2_000);
  ok(times.length <= 4, `${times.length} polls in 700 ms`);
});

/** An A2A agent with one skill and a GetTask answered by `getTask` instead of the fake's. */
async function a2aWithGetTask(
  skill: FakeSkill,
  getTask: () => Record<string, unknown> | Promise<Record<string, unknown>>,
) {
  const fake = fakeA2AAgent({ skills: { create_media_buy: skill } });
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.method === "POST") {
      const message = await request.clone().json() as { id?: unknown; method?: string };
      if (message.method === "GetTask") {
        return Response.json({ jsonrpc: "2.0", id: message.id, result: await getTask() });
      }
    }
    return await fake.fetch(request);
  };
  const card = await fetchAgentCard(fake.cardUrl, { fetch });
  return new AdcpAgent(new A2AClient(card, { fetch }));
}

const working: FakeSkill = (_input, ids) => ({
  task: { id: ids.id, contextId: ids.contextId, status: { state: "TASK_STATE_WORKING" } },
});

Deno.test("wait: a GetTask answer without the task id is refused, the handle kept", async () => {
  const agent = await a2aWithGetTask(working, () => ({
    contextId: "context-1",
    status: { state: "TASK_STATE_COMPLETED" },
    artifacts: [{ artifactId: "a", parts: [{ data: BOOKED }] }],
  }));
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 2_000,
    pollIntervalMs: 10,
  });
  ok(result.kind === "pending", result.kind);
  strictEqual(result.task.taskId, "task-1");
  const failure = result.pollFailure;
  ok(failure?.kind === "failed" && failure.error instanceof AgentProtocolError);
  ok(failure.error.message.includes("a task without an id"), failure.error.message);
});

Deno.test("wait: an A2A task in a state this client does not know keeps its handle", async () => {
  // The first poll answers a state this client does not know, the second a completed task: the
  // unknown state is reported as pending with its handle, and the wait goes on to the answer (no
  // timing: the wait is long enough never to end first).
  let polls = 0;
  const agent = await a2aWithGetTask(working, () => {
    polls++;
    return polls === 1
      ? { id: "task-1", contextId: "context-1", status: { state: "TASK_STATE_PAUSED" } }
      : {
        id: "task-1",
        contextId: "context-1",
        status: { state: "TASK_STATE_COMPLETED" },
        artifacts: [{ artifactId: "a", parts: [{ data: BOOKED }] }],
      };
  });
  const seen: AgentCallResult[] = [];
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 20_000,
    pollIntervalMs: 10,
    onStatus: ({ result }) => seen.push(result),
  });
  const paused = seen[1];
  ok(paused?.kind === "pending", paused?.kind);
  deepStrictEqual([paused.task.taskId, paused.task.state], ["task-1", "paused"]);
  ok(paused.pollFailure === undefined);
  ok(result.kind === "success", result.kind);
  deepStrictEqual(result.data, BOOKED);
  strictEqual(polls, 2);
});

Deno.test("wait: a poll the wait's deadline cuts off is time up, not a pollFailure", async () => {
  let polls = 0;
  const agent = await a2aWithGetTask(working, async () => {
    polls++;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    return { id: "task-1", contextId: "context-1", status: { state: "TASK_STATE_COMPLETED" } };
  });
  const started = performance.now();
  // Long enough for the call and one poll to start on a loaded machine, far shorter than the poll.
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 1_000,
    pollIntervalMs: 10,
  });
  ok(performance.now() - started < 3_000, "the wait ended on time, not with the poll");
  ok(result.kind === "pending", result.kind);
  strictEqual(result.task.taskId, "task-1");
  strictEqual(polls, 1);
  strictEqual(result.pollFailure, undefined);
});

Deno.test("wait: a poll whose own timeoutMs ends within the wait is a pollFailure", async () => {
  const agent = await a2aWithGetTask(working, async () => {
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    return { id: "task-1", contextId: "context-1", status: { state: "TASK_STATE_COMPLETED" } };
  });
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 3_000,
    pollIntervalMs: 10,
    limits: { timeoutMs: 500 },
  });
  ok(result.kind === "pending", result.kind);
  ok(result.pollFailure?.error instanceof DeadlineExceededError, String(result.pollFailure?.error));
});

Deno.test("wait: an unknown get_task_status status keeps polling", async () => {
  let polls = 0;
  const fetch = fakeMcpAgent({
    tools: {
      create_media_buy: () => adcpSuccessResult({ status: "submitted", task_id: "t1" }),
      get_task_status: () =>
        ++polls === 1
          ? adcpSuccessResult({ task_id: "t1", status: "paused" })
          : adcpSuccessResult({ task_id: "t1", status: "completed", result: BOOKED }),
    },
  });
  const agent = new AdcpAgent(new McpClient(MCP_URL, { fetch }));
  const seen: AgentCallResult[] = [];
  const result = await agent.call("create_media_buy", MEDIA_BUY, {
    wait: 20_000,
    pollIntervalMs: 10,
    onStatus: ({ result }) => seen.push(result),
  });
  const paused = seen[1];
  ok(paused?.kind === "pending", paused?.kind);
  deepStrictEqual([paused.task.taskId, paused.task.state], ["t1", "paused"]);
  ok(result.kind === "success", result.kind);
  strictEqual(polls, 2);
});

Deno.test("call: an A2A input-required task carries the question with its data", async () => {
  const skill: FakeSkill = (_input, ids) =>
    adcpProfileInputRequired(ids, {
      summary: "Which total budget?",
      data: { status: "input-required", reason: "budget" },
    });
  const fake = fakeA2AAgent({ skills: { create_media_buy: skill } });
  const card = await fetchAgentCard(fake.cardUrl, { fetch: fake.fetch });
  const agent = new AdcpAgent(new A2AClient(card, { fetch: fake.fetch }));
  const result: AgentCallResult = await agent.call("create_media_buy", MEDIA_BUY);
  ok(result.kind === "input_required", result.kind);
  strictEqual(result.text, "Which total budget?");
  deepStrictEqual(result.data, { status: "input-required", reason: "budget" });
});

Deno.test("call: an A2A working task carries its progress note with its data", async () => {
  const skill: FakeSkill = (_input, ids) => ({
    task: {
      id: ids.id,
      contextId: ids.contextId,
      status: {
        state: "TASK_STATE_WORKING",
        message: {
          messageId: "m1",
          role: "ROLE_AGENT",
          parts: [{ text: "Checking inventory" }, { data: { status: "working", percentage: 10 } }],
        },
      },
    },
  });
  const agent = await a2aWithGetTask(skill, () => ({}));
  const result = await agent.call("create_media_buy", MEDIA_BUY);
  ok(result.kind === "pending", result.kind);
  deepStrictEqual([result.text, result.data], [
    "Checking inventory",
    { status: "working", percentage: 10 },
  ]);
});
