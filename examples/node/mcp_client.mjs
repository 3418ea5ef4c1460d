// @ts-check
/**
 * The MCP example of docs/clients.md on Node.js (≥ 20), against a real agent over HTTP: a local MCP agent
 * (Streamable HTTP, JSON answers, no session) served with `node:http` on 127.0.0.1, whose one
 * tool is rate limited on its first call; `McpClient` calls it twice, and the buyer validates the
 * answer before using it; then `connectAgent` finds the same agent by URL and calls it once.
 *
 * Run it with the packages from JSR (`npx jsr add @adcp-wire/transports @adcp-wire/validation`,
 * then `node mcp_client.mjs`); `deno task test-node` runs it against the workspace's packages,
 * bundled, and checks what it prints.
 *
 * @module
 */
import { createServer } from "node:http";
import { connectAgent } from "@adcp-wire/transports/agent";
import { McpClient } from "@adcp-wire/transports/mcp";
import { adcpErrorResult, adcpSuccessResult } from "@adcp-wire/transports/seller";
import { validateTaskResponse } from "@adcp-wire/validation";

// --- The seller: an MCP agent with one tool, get_products. ---

let calls = 0;
/** @type {Record<string, (args: Record<string, unknown>) => Record<string, unknown>>} */
const tools = {
  get_products: () =>
    ++calls === 1
      ? adcpErrorResult({
        code: "RATE_LIMITED",
        message: "Slow down",
        recovery: "transient",
        retry_after: 5,
      })
      : adcpSuccessResult({ status: "completed", cache_scope: "public", products: [] }),
};

/**
 * Answers one JSON-RPC request (MCP 2025-11-25: initialize, tools/list, tools/call).
 *
 * @param {string} method
 * @param {any} params
 * @returns {{ result: unknown } | { error: { code: number, message: string } }}
 */
function answer(method, params) {
  if (method === "initialize") {
    return {
      result: {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "example-agent", version: "1.0.0" },
      },
    };
  }
  if (method === "tools/list") {
    return {
      result: {
        tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: "object" } })),
      },
    };
  }
  const tool = method === "tools/call" && Object.hasOwn(tools, params?.name)
    ? tools[params.name]
    : undefined;
  if (tool !== undefined) return { result: tool(params.arguments ?? {}) };
  return { error: { code: method === "tools/call" ? -32602 : -32601, message: "Unknown" } };
}

const agent = createServer(async (request, response) => {
  if (request.method !== "POST" || request.url !== "/mcp") {
    response.writeHead(404).end();
    return;
  }
  let body = "";
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 1_048_576) return void response.writeHead(413).end();
  }
  /** @type {any} */
  let message;
  try {
    message = JSON.parse(body);
  } catch {
    return void response.writeHead(400).end();
  }
  if (message?.id === undefined) return void response.writeHead(202).end(); // a notification
  const reply = { jsonrpc: "2.0", id: message.id, ...answer(message.method, message.params) };
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
});
await new Promise((resolve) => agent.listen(0, "127.0.0.1", () => resolve(undefined)));
const address = agent.address();
if (address === null || typeof address === "string") throw new Error("no TCP address");

// --- The buyer: the example of docs/clients.md, with the global fetch and a real URL. ---

const client = new McpClient(`http://127.0.0.1:${address.port}/mcp`, {
  agentLimits: { maxResponseBytes: 1_048_576, timeoutMs: 10_000 },
});
try {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const result = await client.callTool("get_products", { brief: "CTV for pet food" });
    switch (result.kind) {
      case "success": {
        // Seller data: validate it against the task's schema before it reaches application state.
        const checked = await validateTaskResponse("get_products", result.data);
        console.log(
          `call ${attempt}: success, ${
            checked.valid ? "valid" : "invalid"
          } get_products response (${JSON.stringify(result.data)})`,
        );
        break;
      }
      case "error": {
        // Route on code and recovery only; message and details are seller-controlled text.
        const { decision } = result;
        console.log(
          `call ${attempt}: error ${result.error.code}, decision ${decision.action}` +
            (decision.action === "retry" ? ` in ${decision.delaySeconds} s` : ""),
        );
        break;
      }
      case "text":
        console.log(`call ${attempt}: ${result.isError ? "failed" : "text"}: ${result.text}`);
        break;
      default:
        console.log(`call ${attempt}: ${result.kind}`);
    }
  }
  // The same agent found by URL: the card probe gets a 404, so it speaks MCP; one call shape,
  // validated against the task's schema on request.
  const found = await connectAgent(`http://127.0.0.1:${address.port}/mcp`);
  const result = await found.call("get_products", { buying_mode: "brief", brief: "CTV" }, {
    validate: true,
  });
  console.log(`connectAgent: ${found.protocol}, ${result.kind}`);
  await found.close();
} finally {
  agent.closeAllConnections();
  agent.close();
}
