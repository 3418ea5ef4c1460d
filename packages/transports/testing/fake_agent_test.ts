import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  A2AClient,
  adcpProfileInvocation,
  checkAdcpProfileAdvertisement,
  checkAdcpProfileResponse,
  fetchAgentCard,
} from "../a2a/mod.ts";
import { McpClient } from "../mcp/mod.ts";
import { AdcpAgent } from "../agent/mod.ts";
import {
  adcpFailedTask,
  adcpJsonRpcError,
  adcpProfileInputRequired,
  adcpSuccessResult,
} from "../seller/mod.ts";
import { fakeA2AAgent, fakeMcpAgent, FakeRpcError } from "./mod.ts";

Deno.test(
  "fakeMcpAgent() answers initialize, tools/list and tools/call, and records them",
  async () => {
    const fetch = fakeMcpAgent({
      tools: {
        get_products: (args) => adcpSuccessResult({ brief: args.brief }),
        list_formats: () => adcpSuccessResult({ formats: [] }),
      },
    });
    const client = new McpClient("https://agent.example/mcp", { fetch });
    deepStrictEqual((await client.listTools()).map((tool) => tool.name), [
      "get_products",
      "list_formats",
    ]);
    deepStrictEqual(await client.callTool("get_products", { brief: "CTV" }), {
      kind: "success",
      data: { brief: "CTV" },
    });
    deepStrictEqual(fetch.requests.map((request) => request.method), [
      "initialize",
      "notifications/initialized",
      "tools/list",
      "tools/call",
    ]);
    strictEqual(fetch.requests[0]!.httpMethod, "POST");
  },
);

Deno.test(
  "fakeMcpAgent() answers an unknown tool with -32602 and a FakeRpcError as an error",
  async () => {
    const error = adcpJsonRpcError({
      code: "RATE_LIMITED",
      message: "Slow down",
      recovery: "transient",
      retry_after: 3,
    });
    const fetch = fakeMcpAgent({ tools: { busy: () => new FakeRpcError(error) } });
    const client = new McpClient("https://agent.example/mcp", { fetch });
    const unknown = await client.callTool("nope", {});
    strictEqual(unknown.kind === "jsonrpc_error" && unknown.rpcCode, -32602);
    const busy = await client.callTool("busy", {});
    strictEqual(busy.kind, "error");
    strictEqual(busy.kind === "error" && busy.error.code, "RATE_LIMITED");
    strictEqual(busy.kind === "error" && busy.decision.action, "retry");
  },
);

Deno.test(
  "fakeA2AAgent() serves its card and answers SendMessage, SendStreamingMessage and GetTask",
  async () => {
    const agent = fakeA2AAgent({
      skills: {
        get_products: (input) => ({ data: { echo: input } }),
        create_media_buy: (_input, ids) => ({
          task: adcpFailedTask(ids, {
            code: "BUDGET_TOO_LOW",
            message: "Budget too low",
            recovery: "correctable",
          }) as unknown as Record<string, unknown>,
        }),
      },
    });
    const card = await fetchAgentCard(agent.cardUrl, { fetch: agent.fetch });
    const client = new A2AClient(card, { fetch: agent.fetch });
    strictEqual(client.endpoint, "https://agent.example/a2a");
    const sent = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
    deepStrictEqual(sent.kind === "success" && sent.data, { echo: { brief: "CTV" } });
    const streamed = await client.sendStreamingMessage(
      client.invocation("get_products", { brief: "audio" }),
    );
    deepStrictEqual(streamed.kind === "success" && streamed.data, { echo: { brief: "audio" } });
    const failed = await client.sendMessage(client.invocation("create_media_buy", {}));
    strictEqual(failed.kind === "error" && failed.error.code, "BUDGET_TOO_LOW");
    ok(failed.taskId !== undefined);
    const again = await client.getTask(failed.taskId!);
    strictEqual(again.kind === "error" && again.error.code, "BUDGET_TOO_LOW");
    deepStrictEqual(agent.fetch.requests.map((request) => request.method), [
      "/.well-known/agent-card.json",
      "SendMessage",
      "SendStreamingMessage",
      "SendMessage",
      "GetTask",
    ]);
  },
);

Deno.test(
  "fakeA2AAgent() answers an unknown skill with -32602 and an unknown card path with 404",
  async () => {
    const agent = fakeA2AAgent({ skills: {} });
    const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: agent.fetch });
    const result = await client.sendMessage(client.invocation("nope", {}));
    strictEqual(result.kind === "jsonrpc_error" && result.rpcCode, -32602);
    strictEqual((await agent.fetch("https://agent.example/other")).status, 404);
  },
);

Deno.test(
  "fakeA2AAgent() declares the AdCP profile as required and answers in its response shape",
  async () => {
    const agent = fakeA2AAgent({
      skills: {
        get_adcp_capabilities: () => ({ data: { adcp: { major_versions: [3] } } }),
        create_media_buy: () => ({ data: { status: "submitted", task_id: "adcp-task-1" } }),
      },
    });
    deepStrictEqual(checkAdcpProfileAdvertisement(agent.card), {
      valid: true,
      required: true,
      skillIds: ["get_adcp_capabilities", "create_media_buy"],
      getTaskStatus: false,
    });
    const { headers, message } = adcpProfileInvocation("create_media_buy", {});
    const response = await agent.fetch("https://agent.example/a2a", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }),
    });
    const { result } = await response.json();
    const checked = checkAdcpProfileResponse(result, { handlerReturn: "submitted" });
    ok(checked.valid && checked.adcpTaskId === "adcp-task-1", JSON.stringify(checked));
  },
);

Deno.test(
  "fakeA2AAgent() refuses requests that do not activate the profile or break its Message rules",
  async () => {
    const agent = fakeA2AAgent({ skills: { get_products: () => ({ data: { products: [] } }) } });
    const { headers, message } = adcpProfileInvocation("get_products", {});
    const send = async (sent: Record<string, string>, body: unknown) => {
      const response = await agent.fetch("https://agent.example/a2a", {
        method: "POST",
        headers: sent,
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: body }),
      });
      return (await response.json()).error as { code: number; data?: { reason?: string } };
    };
    strictEqual((await send({ "A2A-Version": "1.0" }, { message })).code, -32008);
    strictEqual((await send({ ...headers, "A2A-Version": "0.3" }, { message })).code, -32009);
    const twice = { ...message, parts: [...message.parts, ...message.parts] };
    deepStrictEqual((await send(headers, { message: twice })).data, {
      reason: "multiple_invocation_dataparts",
    });
    strictEqual((await send(headers, { message: { ...message, messageId: "" } })).code, -32602);
    strictEqual(await send(headers, { message }), undefined); // the same request, well formed
  },
);

Deno.test("fakeA2AAgent() keeps a task across continuations, as a real agent does", async () => {
  const seen: { input: Record<string, unknown>; id: string; contextId: string }[] = [];
  const agent = fakeA2AAgent({
    skills: {
      create_media_buy: (input, ids) => {
        seen.push({ input, ...ids });
        return input.total_budget === undefined
          ? adcpProfileInputRequired(ids, { summary: "Which total budget?" })
          : { data: { media_buy_id: "mb_1", packages: [] } };
      },
    },
  });
  const adcp = new AdcpAgent(
    new A2AClient(await fetchAgentCard(agent.cardUrl, { fetch: agent.fetch }), {
      fetch: agent.fetch,
    }),
  );
  const request = {
    account: { account_id: "acct_1" },
    brand: { domain: "brand.example" },
    start_time: "2027-01-01T00:00:00Z",
    end_time: "2027-02-01T00:00:00Z",
  };
  const first = await adcp.call("create_media_buy", request);
  ok(first.kind === "input_required", first.kind);
  strictEqual(first.text, "Which total budget?");
  const budgeted = { ...request, total_budget: { amount: 5000, currency: "USD" } };
  const next = await adcp.continue(first.task, budgeted);
  deepStrictEqual(next.kind === "success" && next.data, { media_buy_id: "mb_1", packages: [] });
  deepStrictEqual(seen.map(({ id, contextId }) => [id, contextId]), [
    ["task-1", "context-1"],
    ["task-1", "context-1"],
  ]);
  // The task is completed now: a further message to it is refused, as is an unknown task.
  const client = adcp.a2a!;
  const codes = [];
  for (const taskId of ["task-1", "task-404"]) {
    const message = client.invocation("create_media_buy", budgeted, {
      taskId,
      contextId: "context-1",
    });
    const answer = await client.sendMessage(message);
    codes.push(answer.kind === "jsonrpc_error" ? answer.rpcCode : answer.kind);
  }
  deepStrictEqual(codes, [-32004, -32001]);
  // A new message in a known context starts a new task in that context.
  const other = await client.sendMessage(
    client.invocation("create_media_buy", request, { contextId: "context-1" }),
  );
  deepStrictEqual([other.taskId, other.contextId], ["task-2", "context-1"]);
});
