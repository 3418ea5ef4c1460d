// The SDK sellers of sdk_sellers.ts, every scenario on both, read with this package's own clients
// (McpClient; A2AClient with the AdCP A2A profile active, so every SendMessage answer also passes
// checkAdcpProfileResponse) and, where the clients do not show the wire, with raw requests.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { validateTaskResponse } from "@adcp-wire/validation";
import { netTest, within } from "../_test_utils.ts";
import { A2AClient } from "../a2a/client.ts";
import { checkAdcpProfileAdvertisement } from "../a2a/check_adcp_profile_advertisement.ts";
import { fetchAgentCard } from "../a2a/fetch_agent_card.ts";
import type { A2AClientOptions } from "../a2a/types.ts";
import { ADCP_A2A_PROFILE } from "../a2a/types.ts";
import { DeadlineExceededError, ResponseTooLargeError } from "../errors.ts";
import { McpClient } from "../mcp/client.ts";
import type { McpClientOptions } from "../mcp/types.ts";
import {
  CAPABILITIES,
  CORRECTABLE_ERROR,
  INPUT_QUESTION,
  INPUT_RESULT,
  type McpSdkSellerOptions,
  OVERSIZE_DATA_BYTES,
  oversizeData,
  PENDING_MESSAGE,
  PENDING_RESULT,
  PRODUCTS_OK,
  type SdkSeller,
  SLOW_MS,
  startA2ASdkSeller,
  startMcpSdkSeller,
  TERMINAL_ERROR,
  TRANSIENT_ERROR,
} from "./sdk_sellers.ts";

/** Bound of one test, well past the slow scenario and one retry_after. */
const BOUND_MS = 20_000;

/** Resolves after `ms` milliseconds. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `fn` against a fresh MCP seller, closed afterwards. */
async function withMcp(
  fn: (seller: SdkSeller) => Promise<void>,
  options?: McpSdkSellerOptions,
): Promise<void> {
  const seller = await startMcpSdkSeller(options);
  try {
    await within(BOUND_MS, fn(seller));
  } finally {
    await seller.close();
  }
}

/** Runs `fn` against a fresh A2A seller, closed afterwards. */
async function withA2A(fn: (seller: SdkSeller) => Promise<void>): Promise<void> {
  const seller = await startA2ASdkSeller();
  try {
    await within(BOUND_MS, fn(seller));
  } finally {
    await seller.close();
  }
}

function mcpClient(seller: SdkSeller, options?: McpClientOptions): McpClient {
  return new McpClient(seller.url, options);
}

async function a2aClient(seller: SdkSeller, options?: A2AClientOptions): Promise<A2AClient> {
  return new A2AClient(await fetchAgentCard(`${seller.url}/.well-known/agent-card.json`), options);
}

/** A raw A2A 1.0 JSON-RPC call with the profile activated: the parsed answer. */
async function rpc(
  seller: SdkSeller,
  method: string,
  params: Record<string, unknown>,
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  const response = await fetch(`${seller.url}/a2a`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "a2a-version": "1.0",
      "a2a-extensions": ADCP_A2A_PROFILE,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return await response.json();
}

/** The raw task of an A2A result (the client keeps it seller-controlled and untyped). */
function taskOf(result: { readonly task: Record<string, unknown> | undefined }): {
  readonly status: { readonly state: string; readonly message?: { readonly parts: unknown[] } };
  readonly artifacts?: { readonly parts: unknown[] }[];
} {
  ok(result.task !== undefined);
  return result.task as ReturnType<typeof taskOf>;
}

const ERRORS = [
  {
    brief: "transient",
    error: TRANSIENT_ERROR,
    decision: { action: "retry", delaySeconds: 1, delaySource: "retry_after" },
  },
  {
    brief: "correctable",
    error: CORRECTABLE_ERROR,
    decision: { action: "surface_to_caller", field: "brief" },
  },
  {
    brief: "terminal",
    error: TERMINAL_ERROR,
    decision: { action: "escalate_to_human", reason: "terminal" },
  },
] as const;

// --- get_products: ok ------------------------------------------------------------------------

for (const jsonResponse of [false, true]) {
  const mode = jsonResponse ? "JSON" : "SSE";
  netTest(`MCP seller (${mode}) answers get_products "ok" with the products`, async () => {
    await withMcp(async (seller) => {
      const result = await mcpClient(seller).callTool("get_products", { brief: "ok" });
      deepStrictEqual(result, { kind: "success", data: PRODUCTS_OK });
    }, { jsonResponse });
  });
}

netTest("MCP seller puts the data in structuredContent beside one text summary", async () => {
  await withMcp(async (seller) => {
    // Stateless: a tools/call needs no handshake on its own connection.
    const response = await fetch(seller.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "get_products", arguments: { brief: "ok" } },
      }),
    });
    strictEqual(response.headers.get("content-type"), "application/json");
    deepStrictEqual(await response.json(), {
      jsonrpc: "2.0",
      id: 7,
      result: {
        content: [{ type: "text", text: "Found 1 product." }],
        structuredContent: PRODUCTS_OK,
      },
    });
  }, { jsonResponse: true });
});

netTest('A2A seller answers get_products "ok" with a completed task and its DataPart', async () => {
  await withA2A(async (seller) => {
    const client = await a2aClient(seller);
    ok(client.adcpProfile);
    const result = await client.sendMessage(client.invocation("get_products", { brief: "ok" }));
    strictEqual(result.kind, "success");
    deepStrictEqual(result.kind === "success" && result.data, PRODUCTS_OK);
    strictEqual(result.state, "completed");
    const task = taskOf(result);
    strictEqual(task.artifacts?.length, 1);
    deepStrictEqual(task.artifacts[0]!.parts, [{ text: "Found 1 product." }, {
      data: PRODUCTS_OK,
    }]);
  });
});

netTest('A2A seller streams get_products "ok" to a completed task', async () => {
  await withA2A(async (seller) => {
    const client = await a2aClient(seller);
    const frames: string[] = [];
    const result = await client.sendStreamingMessage(
      client.invocation("get_products", { brief: "ok" }),
      { onEvent: (event) => frames.push(`${event.type} ${event.state}`) },
    );
    deepStrictEqual(result.kind === "success" && result.data, PRODUCTS_OK);
    strictEqual(result.state, "completed");
    deepStrictEqual(frames, ["task working", "artifactUpdate null", "statusUpdate completed"]);
  });
});

// --- get_products: AdCP errors ---------------------------------------------------------------

for (const { brief, error, decision } of ERRORS) {
  netTest(`MCP seller answers get_products "${brief}" with ${error.code}`, async () => {
    await withMcp(async (seller) => {
      const result = await mcpClient(seller).callTool("get_products", { brief });
      deepStrictEqual(result, {
        kind: "error",
        error,
        path: "structured_content",
        rpcCode: undefined,
        decision,
      });
    });
  });

  netTest(
    `A2A seller answers get_products "${brief}" with a failed ${error.code} task`,
    async () => {
      await withA2A(async (seller) => {
        const client = await a2aClient(seller);
        const result = await client.sendMessage(client.invocation("get_products", { brief }));
        strictEqual(result.kind, "error");
        ok(result.kind === "error");
        deepStrictEqual(result.error, error);
        deepStrictEqual([result.path, result.decision], ["artifact", decision]);
        strictEqual(result.state, "failed");
      });
    },
  );
}

// --- get_products: flaky -----------------------------------------------------------------------

netTest(
  'MCP seller answers get_products "flaky" with RATE_LIMITED once, then success',
  async () => {
    await withMcp(async (seller) => {
      const client = mcpClient(seller);
      const first = await client.callTool("get_products", { brief: "flaky" });
      deepStrictEqual(first.kind === "error" && first.error, TRANSIENT_ERROR);
      const second = await client.callTool("get_products", { brief: "flaky" });
      deepStrictEqual(second, { kind: "success", data: PRODUCTS_OK });
      const third = await client.callTool("get_products", { brief: "flaky" });
      deepStrictEqual(third, { kind: "success", data: PRODUCTS_OK });
    });
  },
);

netTest('MCP seller lets a retrying client get "flaky" products on attempt 2', async () => {
  await withMcp(async (seller) => {
    const started = performance.now();
    const result = await mcpClient(seller, { retry: true }).callTool("get_products", {
      brief: "flaky",
    });
    deepStrictEqual(result, { kind: "success", data: PRODUCTS_OK });
    strictEqual(seller.invocations.get_products, 2);
    ok(performance.now() - started >= 900, "the retry honoured retry_after: 1");
  });
});

netTest(
  'A2A seller answers get_products "flaky" with a failed task once, then success',
  async () => {
    await withA2A(async (seller) => {
      const client = await a2aClient(seller);
      const send = () => client.sendMessage(client.invocation("get_products", { brief: "flaky" }));
      const first = await send();
      deepStrictEqual(first.kind === "error" && [first.error, first.state], [
        TRANSIENT_ERROR,
        "failed",
      ]);
      const second = await send();
      deepStrictEqual(second.kind === "success" && second.data, PRODUCTS_OK);
      const third = await send();
      deepStrictEqual(third.kind === "success" && third.data, PRODUCTS_OK);
    });
  },
);

netTest('A2A seller lets a retrying client get "flaky" products on attempt 2', async () => {
  await withA2A(async (seller) => {
    const client = await a2aClient(seller, { retry: true });
    const result = await client.sendMessage(client.invocation("get_products", { brief: "flaky" }));
    deepStrictEqual(result.kind === "success" && result.data, PRODUCTS_OK);
    strictEqual(seller.invocations.get_products, 2);
  });
});

// --- get_products: oversize ------------------------------------------------------------------

Deno.test("oversizeData() is a products array of at least 2 MiB of JSON", () => {
  const data = oversizeData();
  const bytes = new TextEncoder().encode(JSON.stringify(data)).length;
  ok(bytes >= OVERSIZE_DATA_BYTES && bytes < OVERSIZE_DATA_BYTES + 2048, `${bytes} bytes`);
  strictEqual(oversizeData(), data);
});

netTest('MCP seller answers get_products "oversize" with 2 MiB, past a 1 MiB cap', async () => {
  await withMcp(async (seller) => {
    const client = mcpClient(seller);
    const result = await client.callTool("get_products", { brief: "oversize" });
    deepStrictEqual(result, { kind: "success", data: oversizeData() });
    await rejects(
      client.callTool("get_products", { brief: "oversize" }, {
        limits: { maxResponseBytes: 1024 * 1024 },
      }),
      ResponseTooLargeError,
    );
  });
});

netTest('A2A seller answers get_products "oversize" past the 1 MiB DataPart cap', async () => {
  await withA2A(async (seller) => {
    const big = await a2aClient(seller, { agentLimits: { maxDataPartBytes: 4 * 1024 * 1024 } });
    const result = await big.sendMessage(big.invocation("get_products", { brief: "oversize" }));
    deepStrictEqual(result.kind === "success" && result.data, oversizeData());
    const client = await a2aClient(seller);
    await rejects(
      client.sendMessage(client.invocation("get_products", { brief: "oversize" })),
      (error) => error instanceof ResponseTooLargeError && error.phase === "data-part",
    );
  });
});

// --- get_products: slow ----------------------------------------------------------------------

for (const jsonResponse of [false, true]) {
  const mode = jsonResponse ? "JSON" : "SSE";
  netTest(`MCP seller (${mode}) answers get_products "slow" only after 3 s`, async () => {
    await withMcp(async (seller) => {
      const started = performance.now();
      const result = await mcpClient(seller).callTool("get_products", { brief: "slow" });
      deepStrictEqual(result, { kind: "success", data: PRODUCTS_OK });
      ok(performance.now() - started >= SLOW_MS - 50);
    }, { jsonResponse });
  });

  netTest(`MCP seller (${mode}) outlives a 300 ms deadline on "slow", then closes`, async () => {
    const seller = await startMcpSdkSeller({ jsonResponse });
    let waiting: Promise<unknown> = Promise.resolve();
    try {
      const client = mcpClient(seller);
      await rejects(
        client.callTool("get_products", { brief: "slow" }, { limits: { timeoutMs: 300 } }),
        DeadlineExceededError,
      );
      deepStrictEqual(await client.callTool("get_products", { brief: "ok" }), {
        kind: "success",
        data: PRODUCTS_OK,
      });
      // A second slow call, still waiting when the seller closes.
      waiting = client.callTool("get_products", { brief: "slow" }).then(
        (result) => result,
        (error: unknown) => error,
      );
      await delay(200);
    } finally {
      const closing = performance.now();
      await seller.close();
      ok(performance.now() - closing < SLOW_MS / 2, "close() ended the slow waits");
    }
    ok(await waiting instanceof Error, "the call cut short by close() got no answer");
  });
}

netTest('A2A seller answers get_products "slow" only after 3 s', async () => {
  await withA2A(async (seller) => {
    const client = await a2aClient(seller);
    const started = performance.now();
    const result = await client.sendMessage(client.invocation("get_products", { brief: "slow" }));
    deepStrictEqual(result.kind === "success" && result.data, PRODUCTS_OK);
    ok(performance.now() - started >= SLOW_MS - 50);
  });
});

netTest('A2A seller outlives a 300 ms deadline on "slow", then closes', async () => {
  const seller = await startA2ASdkSeller();
  try {
    const client = await a2aClient(seller);
    await rejects(
      client.sendMessage(client.invocation("get_products", { brief: "slow" }), {
        limits: { timeoutMs: 300 },
      }),
      DeadlineExceededError,
    );
    const result = await client.sendMessage(client.invocation("get_products", { brief: "ok" }));
    deepStrictEqual(result.kind === "success" && result.data, PRODUCTS_OK);
  } finally {
    const closing = performance.now();
    await seller.close();
    ok(performance.now() - closing < SLOW_MS / 2, "close() ended the slow wait");
  }
});

netTest('A2A seller ends a "slow" task on CancelTask, before SLOW_MS', async () => {
  await withA2A(async (seller) => {
    const started = performance.now();
    const sent = await rpc(seller, "SendMessage", {
      message: {
        messageId: "m-slow",
        role: "ROLE_USER",
        parts: [{ data: { skill: "get_products", input: { brief: "slow" } } }],
      },
      configuration: { returnImmediately: true },
    });
    strictEqual(sent.result.task.status.state, "TASK_STATE_WORKING");
    const id: string = sent.result.task.id;
    const canceled = await rpc(seller, "CancelTask", { id });
    strictEqual(canceled.result.status.state, "TASK_STATE_CANCELED");
    ok(performance.now() - started < SLOW_MS / 2, "the cancel ended the wait");
    const client = await a2aClient(seller);
    deepStrictEqual((await client.getTask(id)).state, "canceled");
  });
});

// --- create_media_buy: pending ---------------------------------------------------------------

netTest('MCP seller answers create_media_buy "pending" as submitted, then polls', async () => {
  await withMcp(async (seller) => {
    const client = mcpClient(seller);
    const submitted = await client.callTool("create_media_buy", { buyer_ref: "pending" });
    deepStrictEqual(submitted, {
      kind: "success",
      data: { status: "submitted", task_id: "task_pending_1", message: PENDING_MESSAGE },
    });
    const poll = async () => {
      const result = await client.callTool("get_task_status", {
        task_id: "task_pending_1",
        include_result: true,
      });
      ok(result.kind === "success");
      const checked = await validateTaskResponse("get_task_status", result.data);
      ok(checked.valid, "a schema-valid get_task_status response");
      return result.data;
    };
    const first = await poll();
    const { created_at: createdAt, updated_at: firstUpdate, ...working } = first;
    deepStrictEqual(working, {
      task_id: "task_pending_1",
      task_type: "create_media_buy",
      protocol: "media-buy",
      status: "working",
    });
    ok(typeof createdAt === "string" && typeof firstUpdate === "string");
    const second = await poll();
    deepStrictEqual(second, {
      task_id: "task_pending_1",
      task_type: "create_media_buy",
      protocol: "media-buy",
      status: "completed",
      created_at: createdAt,
      updated_at: second.updated_at,
      completed_at: second.updated_at,
      result: PENDING_RESULT,
    });
    deepStrictEqual(await poll(), second);
    const next = await client.callTool("create_media_buy", { buyer_ref: "pending" });
    strictEqual(next.kind === "success" && next.data.task_id, "task_pending_2");
  });
});

netTest("MCP seller's get_task_status leaves result out without include_result", async () => {
  await withMcp(async (seller) => {
    const client = mcpClient(seller);
    await client.callTool("create_media_buy", { buyer_ref: "pending" });
    for (const status of ["working", "completed"]) {
      const result = await client.callTool("get_task_status", { task_id: "task_pending_1" });
      ok(result.kind === "success");
      strictEqual(result.data.status, status);
      strictEqual(Object.hasOwn(result.data, "result"), false);
    }
  });
});

netTest(
  "MCP seller answers get_task_status of an unknown task with REFERENCE_NOT_FOUND",
  async () => {
    await withMcp(async (seller) => {
      const result = await mcpClient(seller).callTool("get_task_status", { task_id: "task_nope" });
      deepStrictEqual(result.kind === "error" && result.error, {
        code: "REFERENCE_NOT_FOUND",
        message: "No such task",
        recovery: "correctable",
        field: "task_id",
      });
    });
  },
);

netTest(
  'A2A seller answers create_media_buy "pending" as submitted; GetTask moves it',
  async () => {
    await withA2A(async (seller) => {
      const client = await a2aClient(seller);
      const submitted = await client.sendMessage(
        client.invocation("create_media_buy", { buyer_ref: "pending" }),
      );
      deepStrictEqual([submitted.kind, submitted.state], ["text", "submitted"]);
      strictEqual(submitted.kind === "text" && submitted.text, PENDING_MESSAGE);
      const taskId = submitted.taskId;
      ok(taskId !== undefined);
      const working = await client.getTask(taskId);
      deepStrictEqual([working.kind, working.state, working.taskId], ["text", "working", taskId]);
      for (let poll = 0; poll < 2; poll++) {
        const done = await client.getTask(taskId);
        strictEqual(done.state, "completed");
        deepStrictEqual(done.kind === "success" && done.data, PENDING_RESULT);
        deepStrictEqual(taskOf(done).artifacts?.[0]?.parts.at(-1), { data: PENDING_RESULT });
      }
      strictEqual(seller.invocations.create_media_buy, 1);
    });
  },
);

// --- create_media_buy: needs_input -----------------------------------------------------------

netTest("MCP seller asks for the budget, asks again, then completes with context_id", async () => {
  await withMcp(async (seller) => {
    const client = mcpClient(seller);
    const asked = {
      kind: "success",
      data: {
        status: "input-required",
        message: INPUT_QUESTION,
        context_id: "ctx_1",
        task_id: "task_input_1",
      },
    };
    deepStrictEqual(await client.callTool("create_media_buy", { buyer_ref: "needs_input" }), asked);
    const again = await client.callTool("create_media_buy", {
      buyer_ref: "needs_input",
      context_id: "ctx_1",
    });
    deepStrictEqual(again, asked);
    const done = await client.callTool("create_media_buy", {
      buyer_ref: "needs_input",
      context_id: "ctx_1",
      total_budget: { amount: 50_000, currency: "USD" },
    });
    deepStrictEqual(done, { kind: "success", data: INPUT_RESULT });
  });
});

netTest("MCP seller opens a new input request for an unknown or closed context_id", async () => {
  await withMcp(async (seller) => {
    const client = mcpClient(seller);
    const budget = { amount: 50_000, currency: "USD" };
    const call = (args: Record<string, unknown>) =>
      client.callTool("create_media_buy", { buyer_ref: "needs_input", ...args });
    const contextOf = (result: Awaited<ReturnType<typeof call>>) =>
      result.kind === "success" ? [result.data.status, result.data.context_id] : result.kind;
    deepStrictEqual(contextOf(await call({ total_budget: budget })), ["input-required", "ctx_1"]);
    deepStrictEqual(contextOf(await call({ context_id: "ctx_9", total_budget: budget })), [
      "input-required",
      "ctx_2",
    ]);
    deepStrictEqual(await call({ context_id: "ctx_1", total_budget: budget }), {
      kind: "success",
      data: INPUT_RESULT,
    });
    deepStrictEqual(contextOf(await call({ context_id: "ctx_1", total_budget: budget })), [
      "input-required",
      "ctx_3",
    ]);
  });
});

netTest("A2A seller asks for the budget, asks again, then completes the same task", async () => {
  await withA2A(async (seller) => {
    const client = await a2aClient(seller);
    const first = await client.sendMessage(
      client.invocation("create_media_buy", { buyer_ref: "needs_input" }),
    );
    deepStrictEqual([first.kind, first.state], ["text", "input-required"]);
    strictEqual(first.kind === "text" && first.text, INPUT_QUESTION);
    deepStrictEqual(taskOf(first).status.message?.parts, [{ text: INPUT_QUESTION }]);
    const ids = { taskId: first.taskId!, contextId: first.contextId! };
    const again = await client.sendMessage(
      client.invocation("create_media_buy", { buyer_ref: "needs_input" }, ids),
    );
    deepStrictEqual([again.kind, again.state, again.taskId], [
      "text",
      "input-required",
      ids.taskId,
    ]);
    const done = await client.sendMessage(client.invocation("create_media_buy", {
      buyer_ref: "needs_input",
      total_budget: { amount: 50_000, currency: "USD" },
    }, ids));
    deepStrictEqual([done.state, done.taskId, done.contextId], [
      "completed",
      ids.taskId,
      ids.contextId,
    ]);
    deepStrictEqual(done.kind === "success" && done.data, INPUT_RESULT);
    // A completed task takes no more messages (the SDK's UnsupportedOperationError).
    const late = await client.sendMessage(
      client.invocation("create_media_buy", { buyer_ref: "needs_input" }, ids),
    );
    deepStrictEqual(late.kind === "jsonrpc_error" && late.rpcCode, -32004);
    strictEqual(seller.invocations.create_media_buy, 3);
  });
});

netTest("A2A seller asks first on a new task, even one that carries total_budget", async () => {
  await withA2A(async (seller) => {
    const client = await a2aClient(seller);
    const result = await client.sendMessage(client.invocation("create_media_buy", {
      buyer_ref: "needs_input",
      total_budget: { amount: 50_000, currency: "USD" },
    }));
    deepStrictEqual([result.kind, result.state], ["text", "input-required"]);
  });
});

// --- get_adcp_capabilities, other buyer_refs ---------------------------------------------------

netTest("both sellers answer get_adcp_capabilities with schema-valid capabilities", async () => {
  await withMcp(async (seller) => {
    const result = await mcpClient(seller).callTool("get_adcp_capabilities", {});
    deepStrictEqual(result, { kind: "success", data: CAPABILITIES });
  });
  await withA2A(async (seller) => {
    const client = await a2aClient(seller);
    const result = await client.sendMessage(client.invocation("get_adcp_capabilities", {}));
    deepStrictEqual(result.kind === "success" && result.data, CAPABILITIES);
  });
  ok((await validateTaskResponse("get_adcp_capabilities", CAPABILITIES)).valid);
});

netTest("both sellers create any other buyer_ref's media buy at once, as mb_0", async () => {
  const data = { media_buy_id: "mb_0", buyer_ref: "direct", packages: [] };
  await withMcp(async (seller) => {
    const result = await mcpClient(seller).callTool("create_media_buy", { buyer_ref: "direct" });
    deepStrictEqual(result, { kind: "success", data });
  });
  await withA2A(async (seller) => {
    const client = await a2aClient(seller);
    const result = await client.sendMessage(
      client.invocation("create_media_buy", { buyer_ref: "direct" }),
    );
    deepStrictEqual(result.kind === "success" && result.data, data);
  });
});

// --- discovery, routing, profile ---------------------------------------------------------------

netTest("MCP seller answers 404 at its origin's agent card and 405 to GET /mcp", async () => {
  await withMcp(async (seller) => {
    const origin = new URL(seller.url).origin;
    const card = await fetch(`${origin}/.well-known/agent-card.json`);
    await card.body?.cancel();
    strictEqual(card.status, 404);
    const get = await fetch(seller.url, { headers: { accept: "text/event-stream" } });
    await get.body?.cancel();
    deepStrictEqual([get.status, get.headers.get("allow")], [405, "POST"]);
    const tools = await mcpClient(seller).listTools();
    deepStrictEqual(tools.map((tool) => tool.name), [
      "get_adcp_capabilities",
      "get_products",
      "create_media_buy",
      "get_task_status",
    ]);
    strictEqual(seller.requests, 5); // card, GET, initialize, notifications/initialized, tools/list
  });
});

netTest("MCP seller answers an unknown tool with a JSON-RPC invalid params error", async () => {
  await withMcp(async (seller) => {
    const result = await mcpClient(seller).callTool("get_signals", {});
    deepStrictEqual(result.kind === "jsonrpc_error" && result.rpcCode, -32602);
    deepStrictEqual(seller.invocations, { get_signals: 1 });
  });
});

netTest(
  "A2A seller's agent card advertises the AdCP profile, JSON-RPC 1.0 and its skills",
  async () => {
    await withA2A(async (seller) => {
      const fetched = await fetchAgentCard(`${seller.url}/.well-known/agent-card.json`);
      const card = fetched.card;
      deepStrictEqual(card.supportedInterfaces, [
        { url: `${seller.url}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ]);
      deepStrictEqual(checkAdcpProfileAdvertisement(card), {
        valid: true,
        required: true,
        skillIds: ["get_adcp_capabilities", "get_products", "create_media_buy"],
        getTaskStatus: false,
      });
      strictEqual(new A2AClient(fetched).endpoint, `${seller.url}/a2a`);
      const other = await fetch(`${seller.url}/mcp`);
      await other.body?.cancel();
      strictEqual(other.status, 404);
    });
  },
);

netTest("A2A seller echoes the profile in A2A-Extensions and answers in ProtoJSON", async () => {
  await withA2A(async (seller) => {
    const response = await fetch(`${seller.url}/a2a`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "a2a-version": "1.0",
        "a2a-extensions": ADCP_A2A_PROFILE,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: {
          message: {
            messageId: "m1",
            role: "ROLE_USER",
            parts: [{ data: { skill: "get_products", input: { brief: "ok" } } }],
          },
        },
      }),
    });
    strictEqual(response.headers.get("a2a-extensions"), ADCP_A2A_PROFILE);
    const body = await response.json();
    deepStrictEqual([body.id, body.result.task.status.state], [1, "TASK_STATE_COMPLETED"]);
    deepStrictEqual(body.result.task.artifacts, [{
      artifactId: "adcp-result",
      parts: [{ text: "Found 1 product." }, { data: PRODUCTS_OK }],
    }]);
  });
});

netTest("A2A seller answers a request without A2A-Version: 1.0 with -32009", async () => {
  await withA2A(async (seller) => {
    const response = await fetch(`${seller.url}/a2a`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-extensions": ADCP_A2A_PROFILE },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "GetTask", params: { id: "t" } }),
    });
    const body = await response.json();
    deepStrictEqual([body.id, body.error.code], [3, -32009]);
  });
});

netTest("A2A seller refuses a request that does not activate the profile (-32008)", async () => {
  await withA2A(async (seller) => {
    const client = await a2aClient(seller, { extensions: [] });
    strictEqual(client.adcpProfile, false);
    const result = await client.sendMessage(client.invocation("get_products", { brief: "ok" }));
    deepStrictEqual(result.kind === "jsonrpc_error" && result.rpcCode, -32008);
    deepStrictEqual(seller.invocations, {});
  });
});

netTest(
  "A2A seller refuses two DataParts and an unknown skill before the executor (-32602)",
  async () => {
    await withA2A(async (seller) => {
      const client = await a2aClient(seller);
      const unknown = await client.sendMessage(client.invocation("get_signals", {}));
      deepStrictEqual(unknown.kind === "jsonrpc_error" && unknown.rpcCode, -32602);
      const send = (parts: unknown[]) =>
        rpc(seller, "SendMessage", { message: { messageId: "m2", role: "ROLE_USER", parts } });
      const invocation = { data: { skill: "get_products", input: { brief: "ok" } } };
      const twice = await send([invocation, invocation]);
      deepStrictEqual([twice.id, twice.error.code], [1, -32602]);
      const parameters = await send([{ data: { skill: "get_products", parameters: {} } }]);
      strictEqual(parameters.error.code, -32602);
      deepStrictEqual(seller.invocations, {});
    });
  },
);

netTest("both sellers count HTTP requests and AdCP invocations by task", async () => {
  await withMcp(async (seller) => {
    const client = mcpClient(seller);
    await client.callTool("get_products", { brief: "ok" });
    await client.callTool("get_products", { brief: "terminal" });
    await client.callTool("create_media_buy", { buyer_ref: "pending" });
    deepStrictEqual(seller.invocations, { get_products: 2, create_media_buy: 1 });
    strictEqual(seller.requests, 5); // initialize, notifications/initialized, three tools/call
  });
  await withA2A(async (seller) => {
    const client = await a2aClient(seller);
    await client.sendMessage(client.invocation("get_products", { brief: "ok" }));
    const pending = await client.sendMessage(
      client.invocation("create_media_buy", { buyer_ref: "pending" }),
    );
    await client.getTask(pending.taskId!);
    deepStrictEqual(seller.invocations, { get_products: 1, create_media_buy: 1 });
    strictEqual(seller.requests, 4); // the card, two SendMessage, one GetTask
  });
});
