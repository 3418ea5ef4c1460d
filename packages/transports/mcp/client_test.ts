// Integration tests of McpClient against real servers built with @modelcontextprotocol/sdk (an
// McpServer, or the low-level Server where JSON-RPC errors, pagination and tasks need it) behind
// Deno.serve on 127.0.0.1, in JSON and SSE modes. Hand-written Deno.serve handlers cover what the
// SDK cannot express (a stream that ends without the response). Every test is bounded in time and
// closes its servers and sessions; sanitizers stay on.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
import { McpServer } from "npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js";
import {
  CallToolRequestSchema,
  type ListToolsRequest,
  ListToolsRequestSchema,
  McpError,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { gzip, netTest, rejection, within, withServer } from "../_test_utils.ts";
import {
  AgentProtocolError,
  ContentEncodingError,
  DeadlineExceededError,
  JsonDepthLimitError,
  JsonNodeLimitError,
  JsonRpcError,
  ResponseTooLargeError,
} from "../errors.ts";
import { delay, startMcpAgent, taskAgent, type TestAgent, TestEventStore } from "./_test_mcp.ts";
import { McpClient } from "./mod.ts";
import { adcpErrorResult } from "../seller/adcp_error_result.ts";
import { adcpJsonRpcError } from "../seller/adcp_jsonrpc_error.ts";
import { adcpSuccessResult } from "../seller/adcp_success_result.ts";

const BOUND_MS = 20_000;

const PRODUCTS = { status: "completed", products: [{ product_id: "ctv_sports_premium" }] };

function info() {
  return { name: "test-agent", version: "1.0.0" };
}

/** An McpServer with the tools most tests use. */
function productsAgent(): McpServer {
  const server = new McpServer(info());
  server.registerTool(
    "get_products",
    { description: "Products" },
    () => adcpSuccessResult(PRODUCTS, "Found 1 product."),
  );
  server.registerTool("legacy_products", { description: "Text-only" }, () => ({
    content: [{ type: "text" as const, text: JSON.stringify(PRODUCTS) }],
  }));
  server.registerTool("rate_limited", { description: "Always rate limited" }, () =>
    adcpErrorResult(
      {
        code: "RATE_LIMITED",
        message: "Request rate exceeded",
        recovery: "transient",
        retry_after: 5,
      },
      { summary: "Rate limited — retry in 5s." },
    ));
  server.registerTool("legacy_error", { description: "Text-only error" }, () => ({
    isError: true,
    content: [{
      type: "text" as const,
      text: '{"adcp_error":{"code":"BUDGET_TOO_LOW","message":"Budget below minimum"}}',
    }],
  }));
  server.registerTool("plain", { description: "Plain text" }, () => ({
    content: [{ type: "text" as const, text: "Hello from the agent" }],
  }));
  server.registerTool(
    "big",
    { description: "A large payload" },
    () => adcpSuccessResult({ padding: "x".repeat(200_000) }),
  );
  server.registerTool("slow", { description: "Answers after 400 ms" }, async () => {
    await delay(400);
    return adcpSuccessResult({ ok: true });
  });
  return server;
}

async function withAgent(
  agent: Promise<TestAgent>,
  fn: (agent: TestAgent) => Promise<void>,
): Promise<void> {
  const running = await agent;
  try {
    await within(BOUND_MS, fn(running));
  } finally {
    await running.close();
  }
}

for (const json of [true, false]) {
  const mode = json ? "JSON" : "SSE";

  netTest(`McpClient connects and keeps the session and protocol version (${mode})`, async () => {
    await withAgent(startMcpAgent(productsAgent, { json }), async (agent) => {
      const client = new McpClient(agent.url);
      const init = await client.connect();
      strictEqual(init.protocolVersion, "2025-11-25");
      strictEqual(typeof init.sessionId, "string");
      strictEqual(client.sessionId, init.sessionId);
      deepStrictEqual(init.serverInfo, info());
      await client.close();
      strictEqual(client.sessionId, undefined);
      deepStrictEqual(agent.requests, ["POST", "POST", "DELETE"]);
    });
  });

  netTest(`McpClient returns structuredContent success data (${mode})`, async () => {
    await withAgent(startMcpAgent(productsAgent, { json }), async (agent) => {
      const client = new McpClient(agent.url);
      deepStrictEqual(await client.callTool("get_products", { brief: "CTV" }), {
        kind: "success",
        data: PRODUCTS,
      });
      await client.close();
    });
  });

  netTest(
    `McpClient reads a text-only legacy success through the text fallback (${mode})`,
    async () => {
      await withAgent(startMcpAgent(productsAgent, { json }), async (agent) => {
        const client = new McpClient(agent.url);
        deepStrictEqual(await client.callTool("legacy_products"), {
          kind: "success",
          data: PRODUCTS,
        });
        deepStrictEqual(await client.callTool("plain"), {
          kind: "text",
          text: "Hello from the agent",
        });
        await client.close();
      });
    },
  );

  netTest(
    `McpClient returns tool-level errors with their recovery decision (${mode})`,
    async () => {
      await withAgent(startMcpAgent(productsAgent, { json }), async (agent) => {
        const client = new McpClient(agent.url);
        deepStrictEqual(await client.callTool("rate_limited"), {
          kind: "error",
          error: {
            code: "RATE_LIMITED",
            message: "Request rate exceeded",
            recovery: "transient",
            retry_after: 5,
          },
          path: "structured_content",
          rpcCode: undefined,
          decision: {
            action: "retry",
            delaySeconds: 5,
            delaySource: "retry_after",
          },
        });
        deepStrictEqual(await client.callTool("legacy_error"), {
          kind: "error",
          error: { code: "BUDGET_TOO_LOW", message: "Budget below minimum" },
          path: "text_fallback",
          rpcCode: undefined,
          decision: { action: "surface_to_caller" },
        });
        await client.close();
      });
    },
  );
}

/** A low-level Server whose tools/call rejects with the given JSON-RPC error. */
function rejectingAgent(code: number, message: string, data?: unknown): () => Server {
  return () => {
    const server = new Server(info(), { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    server.setRequestHandler(CallToolRequestSchema, () => {
      throw new McpError(code, message, data);
    });
    return server;
  };
}

for (
  const adcpCode of ["RATE_LIMITED", "AUTH_MISSING", "SERVICE_UNAVAILABLE"] as const
) {
  netTest(
    `McpClient returns the reserved JSON-RPC code for ${adcpCode} as a structured error`,
    async () => {
      const rpc = adcpJsonRpcError({
        code: adcpCode,
        message: "Rejected before dispatch",
        ...(adcpCode === "RATE_LIMITED" ? { retry_after: 2 } : {}),
      });
      for (const json of [true, false]) {
        await withAgent(
          startMcpAgent(rejectingAgent(rpc.code, rpc.message, rpc.data), { json }),
          async (agent) => {
            const client = new McpClient(agent.url);
            const result = await client.callTool("get_products");
            ok(result.kind === "error", `got ${result.kind}`);
            strictEqual(result.path, "jsonrpc_error");
            strictEqual(
              result.rpcCode,
              { RATE_LIMITED: -32029, AUTH_MISSING: -32028, SERVICE_UNAVAILABLE: -32027 }[adcpCode],
            );
            deepStrictEqual(result.error, rpc.data.adcp_error);
            strictEqual(
              result.decision.action,
              adcpCode === "AUTH_MISSING" ? "surface_to_caller" : "retry",
            );
            await client.close();
          },
        );
      }
    },
  );
}

netTest(
  "McpClient returns a JSON-RPC error without adcp_error as a jsonrpc_error member",
  async () => {
    await withAgent(
      startMcpAgent(rejectingAgent(-32602, "Unknown tool\r\nInjected: yes", { hint: 1 }), {
        json: true,
      }),
      async (agent) => {
        const client = new McpClient(agent.url);
        deepStrictEqual(await client.callTool("nope"), {
          kind: "jsonrpc_error",
          rpcCode: -32602,
          rpcMessage: "MCP error -32602: Unknown toolInjected: yes", // McpError prefixes it
          data: { hint: 1 },
        });
        await client.close();
      },
    );
  },
);

netTest("McpClient throws JsonRpcError with the adcpError for a rejected tools/list", async () => {
  const rpc = adcpJsonRpcError({ code: "RATE_LIMITED", message: "Slow down", retry_after: 3 });
  const create = () => {
    const server = new Server(info(), { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => {
      throw new McpError(rpc.code, rpc.message, rpc.data);
    });
    return server;
  };
  await withAgent(startMcpAgent(create, { json: false }), async (agent) => {
    const client = new McpClient(agent.url);
    const error = await rejection(client.listTools());
    ok(error instanceof JsonRpcError);
    strictEqual(error.rpcCode, -32029);
    deepStrictEqual(error.adcpError, rpc.data.adcp_error);
    await client.close();
  });
});

/** A low-level Server with `count` tools served `pageSize` per page. */
function pagingAgent(count: number, pageSize: number, loop = false): () => Server {
  return () => {
    const server = new Server(info(), { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (request: ListToolsRequest) => {
      const start = Number(request.params?.cursor ?? "0");
      const tools = Array.from(
        { length: Math.max(0, Math.min(pageSize, count - start)) },
        (_, index) => ({ name: `tool_${start + index}`, inputSchema: { type: "object" as const } }),
      );
      const next = loop ? "0" : start + pageSize < count ? String(start + pageSize) : undefined;
      return next === undefined ? { tools } : { tools, nextCursor: next };
    });
    return server;
  };
}

netTest("McpClient.listTools() follows nextCursor until it is absent", async () => {
  await withAgent(startMcpAgent(pagingAgent(7, 3), { json: false }), async (agent) => {
    const client = new McpClient(agent.url);
    const tools = await client.listTools();
    deepStrictEqual(tools.map((tool) => tool.name), [
      "tool_0",
      "tool_1",
      "tool_2",
      "tool_3",
      "tool_4",
      "tool_5",
      "tool_6",
    ]);
    // initialize, initialized, three pages
    strictEqual(agent.requests.length, 5);
    await client.close();
  });
});

netTest("McpClient.listTools() stops at maxPages and on a repeated cursor", async () => {
  await withAgent(startMcpAgent(pagingAgent(100, 1), { json: true }), async (agent) => {
    const client = new McpClient(agent.url, { maxPages: 4 });
    const error = await rejection(client.listTools());
    ok(error instanceof AgentProtocolError);
    strictEqual(error.reason, "page_limit");
    await client.close();
  });
  await withAgent(startMcpAgent(pagingAgent(5, 1, true), { json: true }), async (agent) => {
    const client = new McpClient(agent.url);
    const error = await rejection(client.listTools());
    ok(error instanceof AgentProtocolError);
    strictEqual(error.reason, "page_limit");
    strictEqual(
      error.message,
      "Cannot use agent response: expected a new cursor on each page, saw a repeated cursor",
    );
    await client.close();
  });
});

/** An McpServer whose tool closes its SSE stream, then answers: the client must resume. */
function resumingAgent(padding: number): () => McpServer {
  return () => {
    const server = new McpServer(info(), { capabilities: { logging: {} } });
    server.registerTool(
      "resume",
      { description: "Drops the stream, then answers" },
      async (extra: { requestId: string | number; closeSSEStream?: () => void }) => {
        await server.server.notification({
          method: "notifications/message",
          params: { level: "info", data: "p".repeat(padding) },
        }, { relatedRequestId: extra.requestId });
        extra.closeSSEStream?.();
        await delay(50);
        return adcpSuccessResult({ resumed: true, padding: "r".repeat(padding) });
      },
    );
    return server;
  };
}

netTest("McpClient resumes a dropped SSE stream with Last-Event-ID", async () => {
  const store = new TestEventStore();
  await withAgent(
    startMcpAgent(resumingAgent(10), { json: false, eventStore: store, retryInterval: 20 }),
    async (agent) => {
      const notifications: string[] = [];
      const client = new McpClient(agent.url, {
        onNotification: (notification) => notifications.push(notification.method),
      });
      deepStrictEqual(await client.callTool("resume"), {
        kind: "success",
        data: { resumed: true, padding: "r".repeat(10) },
      });
      deepStrictEqual(notifications, ["notifications/message"]);
      const get = agent.requests.find((request) => request.startsWith("GET "));
      ok(get !== undefined, `no resumption in ${agent.requests.join(", ")}`);
      await client.close();
    },
  );
});

netTest("McpClient carries the cumulative SSE budget across Last-Event-ID resumption", async () => {
  const store = new TestEventStore();
  await withAgent(
    startMcpAgent(resumingAgent(30_000), { json: false, eventStore: store, retryInterval: 20 }),
    async (agent) => {
      // Each stream alone fits 50,000 bytes; both together do not.
      const client = new McpClient(agent.url, { agentLimits: { maxResponseBytes: 50_000 } });
      const error = await rejection(client.callTool("resume"));
      ok(error instanceof ResponseTooLargeError, String(error));
      strictEqual(error.phase, "cumulative");
      strictEqual(error.limit, 50_000);
      ok(agent.requests.some((request) => request.startsWith("GET ")));
      await client.close();
    },
  );
});

netTest("McpClient bounds every response per agent and per call", async () => {
  for (const json of [true, false]) {
    await withAgent(startMcpAgent(productsAgent, { json }), async (agent) => {
      const client = new McpClient(agent.url, { agentLimits: { maxResponseBytes: 100_000 } });
      const error = await rejection(client.callTool("big"));
      ok(error instanceof ResponseTooLargeError);
      strictEqual(error.limit, 100_000);
      strictEqual(error.phase, json ? "content-length" : "event");
      // The call raises the agent's limit: the same tool now succeeds.
      const result = await client.callTool("big", {}, { limits: { maxResponseBytes: 400_000 } });
      strictEqual(result.kind, "success");
      await client.close();
    });
  }
});

netTest("McpClient reports a slow answer as DeadlineExceededError", async () => {
  await withAgent(startMcpAgent(productsAgent, { json: false }), async (agent) => {
    const client = new McpClient(agent.url);
    await client.connect();
    const error = await rejection(client.callTool("slow", {}, { limits: { timeoutMs: 100 } }));
    ok(error instanceof DeadlineExceededError);
    strictEqual(error.timeoutMs, 100);
    await delay(400); // let the tool finish before the session closes
    await client.close();
  });
});

netTest("McpClient retries a transient tool error within the budget, then escalates", async () => {
  let calls = 0;
  const create = () => {
    const server = new McpServer(info());
    server.registerTool("flaky", { description: "Rate limited once" }, () => {
      calls++;
      return calls === 1
        ? adcpErrorResult({ code: "RATE_LIMITED", message: "Slow down", retry_after: 1 })
        : adcpSuccessResult({ attempt: calls });
    });
    server.registerTool(
      "down",
      { description: "Always unavailable" },
      () => adcpErrorResult({ code: "SERVICE_UNAVAILABLE", message: "Down" }),
    );
    return server;
  };
  await withAgent(startMcpAgent(create, { json: true }), async (agent) => {
    const waits: number[] = [];
    const client = new McpClient(agent.url, {
      retry: {
        maxRetries: 1,
        sleep: (ms: number) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
    });
    deepStrictEqual(await client.callTool("flaky"), { kind: "success", data: { attempt: 2 } });
    deepStrictEqual(waits, [1_000]);
    const result = await client.callTool("down");
    ok(result.kind === "error");
    deepStrictEqual(result.decision, {
      action: "escalate_to_human",
      reason: "retry_budget_exhausted",
      limit: "max_retries",
    });
    await client.close();
  });
});

netTest("McpClient runs a tool as an MCP task: tasks/get, then tasks/result", async () => {
  const tasks = taskAgent(adcpSuccessResult({ status: "completed", media_buy_id: "mb_1" }), 120);
  try {
    await withAgent(startMcpAgent(tasks.create, { json: true }), async (agent) => {
      const client = new McpClient(agent.url);
      const created = await client.callToolAsTask("create_media_buy", {}, { ttl: 60_000 });
      ok(created.kind === "task");
      strictEqual(created.task.status, "working");
      const done = await client.waitForTask(created.task.taskId, { maxWaitMs: 5_000 });
      strictEqual(done.status, "completed");
      deepStrictEqual(await client.getTaskResult(created.task.taskId), {
        kind: "success",
        data: { status: "completed", media_buy_id: "mb_1" },
      });
      const unknown = await rejection(client.getTask("no-such-task"));
      ok(unknown instanceof JsonRpcError);
      await client.close();
    });
  } finally {
    tasks.cleanup();
  }
});

netTest("McpClient throws stream_ended when an SSE stream ends without the response", async () => {
  await within(
    BOUND_MS,
    withServer(async (request) => {
      const message = await request.json();
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (message.method === "initialize") {
        return Response.json({
          jsonrpc: "2.0",
          id: message.id,
          result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: info() },
        });
      }
      return new Response('data: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n', {
        headers: { "content-type": "text/event-stream" },
      });
    }, async (base) => {
      const error = await rejection(new McpClient(base).callTool("x"));
      ok(error instanceof AgentProtocolError);
      strictEqual(error.reason, "stream_ended");
    }),
  );
});

netTest("McpClient refuses an unsupported protocol version and a 404 session", async () => {
  await within(
    BOUND_MS,
    withServer(async (request) => {
      const message = await request.json();
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: "1999-01-01", capabilities: {}, serverInfo: info() },
      });
    }, async (base) => {
      const error = await rejection(new McpClient(base).connect());
      ok(error instanceof AgentProtocolError);
      strictEqual(error.reason, "unsupported_version");
    }),
  );
  await within(
    BOUND_MS,
    withServer(async (request) => {
      const message = await request.json();
      if (request.headers.get("mcp-session-id") === "s-1" && message.method === "tools/call") {
        return Response.json({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32001, message: "Session not found" },
        }, {
          status: 404,
        });
      }
      if (message.id === undefined) return new Response(null, { status: 202 });
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: info() },
      }, { headers: { "mcp-session-id": "s-1" } });
    }, async (base) => {
      const client = new McpClient(base);
      strictEqual((await client.connect()).sessionId, "s-1");
      const error = await rejection(client.callTool("x"));
      ok(error instanceof AgentProtocolError);
      strictEqual(error.reason, "session_expired");
      strictEqual(error.status, 404);
      strictEqual(client.sessionId, undefined);
    }),
  );
});

netTest(
  "McpClient cancels the body of an initialize answer whose session id it refuses",
  async () => {
    let cancelled = false;
    await withServer((request) => {
      if (request.method !== "POST") return new Response(null, { status: 405 });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'));
        },
        pull: () => new Promise<void>((resolve) => timer = setTimeout(resolve, 10_000)),
        cancel() {
          cancelled = true;
          clearTimeout(timer);
        },
      });
      return new Response(body, {
        headers: { "content-type": "application/json", "mcp-session-id": "bad id" },
      });
    }, async (base) => {
      const client = new McpClient(`${base}/mcp`);
      const error = await within(5_000, rejection(client.connect()));
      ok(error instanceof AgentProtocolError, String(error));
      for (let i = 0; i < 50 && !cancelled; i++) await delay(10);
      strictEqual(cancelled, true);
    });
  },
);

netTest(
  "McpClient asks for identity and refuses a compressed answer it did not ask for",
  async () => {
    const seen: (string | null)[] = [];
    let cancelled = false;
    const result = {
      jsonrpc: "2.0",
      id: 0,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        serverInfo: { name: "x", version: "1" },
      },
    };
    const compressed = await gzip(new TextEncoder().encode(JSON.stringify(result)));
    await withServer((request) => {
      seen.push(request.headers.get("accept-encoding"));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(compressed);
        },
        cancel() {
          cancelled = true;
        },
      });
      return new Response(body, {
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
      });
    }, async (base) => {
      const client = new McpClient(`${base}/mcp`);
      const error = await within(5_000, rejection(client.connect()));
      ok(error instanceof ContentEncodingError, String(error));
      strictEqual(error.reason, "not_requested");
      strictEqual(error.encoding, "gzip");
      deepStrictEqual(seen, ["identity"]);
      for (let i = 0; i < 50 && !cancelled; i++) await delay(10);
      strictEqual(cancelled, true);
    });
  },
);

netTest(
  "McpClient leaves compression to the runtime when the caller sets Accept-Encoding",
  async () => {
    const seen: (string | null)[] = [];
    await withServer(async (request) => {
      seen.push(request.headers.get("accept-encoding"));
      const message = await request.json();
      if (message.id === undefined) return new Response(null, { status: 202 });
      const result = {
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          serverInfo: { name: "x", version: "1" },
        },
      };
      return new Response(await gzip(new TextEncoder().encode(JSON.stringify(result))), {
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
      });
    }, async (base) => {
      const client = new McpClient(`${base}/mcp`, { headers: { "accept-encoding": "gzip" } });
      const init = await within(5_000, client.connect());
      deepStrictEqual(init.serverInfo, { name: "x", version: "1" });
      strictEqual(seen[0], "gzip");
    });
  },
);

Deno.test(
  "McpClient holds the JSON of content[].text items to the depth and node bounds",
  async () => {
    let text = "";
    const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const message = JSON.parse(String(init?.body));
      if (message.id === undefined) return new Response(null, { status: 202 });
      const result = message.method === "initialize"
        ? {
          protocolVersion: "2025-06-18",
          capabilities: {},
          serverInfo: { name: "x", version: "1" },
        }
        : { content: [{ type: "text", text }] };
      return await Promise.resolve(Response.json({ jsonrpc: "2.0", id: message.id, result }));
    };
    const client = new McpClient("http://127.0.0.1:1/mcp", {
      fetch,
      agentLimits: { maxJsonNodes: 1000 },
    });
    text = `{"status":"completed","d":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    ok((await rejection(client.callTool("get_products"))) instanceof JsonDepthLimitError);
    text = JSON.stringify({ status: "completed", d: Array.from({ length: 2000 }, (_, i) => i) });
    ok((await rejection(client.callTool("get_products"))) instanceof JsonNodeLimitError);
    // Text that is not JSON is not bounded as JSON: it is plain text.
    text = `Nested ${"[".repeat(200)} brackets in prose`;
    strictEqual((await client.callTool("get_products")).kind, "text");
    text = JSON.stringify({ status: "completed", products: [] });
    strictEqual((await client.callTool("get_products")).kind, "success");
  },
);
