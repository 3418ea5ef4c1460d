/**
 * Checks of the clients (`@adcp-wire/transports`) in a page, against the agents of `_agents.ts`
 * served by the page's own server (`_server.ts`): what works in a browser, and the one thing that
 * works differently there (a page cannot send `Accept-Encoding: identity`).
 *
 * @module
 */
import { A2AClient, fetchAgentCard } from "@adcp-wire/transports/a2a";
import { McpClient } from "@adcp-wire/transports/mcp";
import { BRIEF, MCP_TOOLS, PRODUCTS } from "./_agents.ts";
import { type Check, expectEqual, expectRejection } from "./_checks.ts";

/**
 * The checks, for a page served from `origin`. `crossOrigin` is another origin of the same server
 * (`http://localhost:<port>` for a page on `http://127.0.0.1:<port>`), whose MCP endpoint answers
 * with CORS headers.
 *
 * @param origin The page's origin.
 * @param crossOrigin The server's other origin.
 * @returns The checks.
 */
export function clientChecks(origin: string, crossOrigin: string): Check[] {
  const success = { kind: "success", data: PRODUCTS };
  return [
    {
      name: "McpClient.callTool() gets a success result from the same-origin MCP agent",
      async run() {
        const client = new McpClient(`${origin}/mcp`);
        expectEqual(await client.callTool("get_products", { brief: BRIEF }), success, "result");
      },
    },
    {
      name: "McpClient.callTool() returns an AdCP error with its recovery decision",
      async run() {
        const result = await new McpClient(`${origin}/mcp`).callTool("get_signals", {});
        expectEqual(
          result.kind === "error" && [result.error.code, result.path, result.decision],
          ["RATE_LIMITED", "structured_content", {
            action: "retry",
            delaySeconds: 5,
            delaySource: "retry_after",
          }],
          "error, path and decision",
        );
      },
    },
    {
      name: "McpClient.listTools() lists the agent's tools",
      async run() {
        const tools = await new McpClient(`${origin}/mcp`).listTools();
        expectEqual(tools.map((tool) => tool.name), MCP_TOOLS, "names");
      },
    },
    {
      name: "McpClient refuses a redirect (a page's fetch sees an opaque redirect)",
      async run() {
        const client = new McpClient(`${origin}/mcp-redirect`);
        await expectRejection(client.callTool("get_products", {}), "RedirectRefusedError");
      },
    },
    {
      name: "McpClient cancels an answer past maxResponseBytes (1 MiB) while reading it",
      async run() {
        const client = new McpClient(`${origin}/mcp`, {
          agentLimits: { maxResponseBytes: 1024 * 1024 },
        });
        await expectRejection(client.callTool("big_answer", {}), "ResponseTooLargeError");
      },
    },
    {
      name: "fetchAgentCard() and A2AClient.sendMessage() work with the same-origin A2A agent",
      async run() {
        const card = await fetchAgentCard(`${origin}/.well-known/agent-card.json`);
        const client = new A2AClient(card);
        const result = await client.sendMessage(
          client.invocation("get_products", { brief: BRIEF }),
        );
        expectEqual(result.kind === "success" && result.data, PRODUCTS, "data");
      },
    },
    {
      name: "A2AClient.sendStreamingMessage() reads the agent's SSE answer",
      async run() {
        const card = await fetchAgentCard(`${origin}/.well-known/agent-card.json`);
        const client = new A2AClient(card);
        const invocation = client.invocation("get_products", { brief: BRIEF });
        const result = await client.sendStreamingMessage(invocation);
        expectEqual(result.kind === "success" && result.data, PRODUCTS, "data");
      },
    },
    {
      name: "McpClient works cross-origin with an agent that sends CORS headers",
      async run() {
        const client = new McpClient(`${crossOrigin}/mcp`);
        expectEqual(await client.callTool("get_products", { brief: BRIEF }), success, "result");
      },
    },
    {
      name: "A default McpClient refuses an agent that compresses its answers: a page cannot " +
        "send Accept-Encoding: identity (ContentEncodingError not_requested)",
      browserOnly: true,
      async run() {
        const client = new McpClient(`${origin}/mcp-gzip`);
        await expectRejection(
          client.callTool("get_products", { brief: BRIEF }),
          "ContentEncodingError",
          {
            reason: "not_requested",
            encoding: "gzip",
          },
        );
      },
    },
    {
      name: "Cross-origin, a default McpClient reads what the browser decoded: CORS hides " +
        "Content-Encoding unless the agent exposes it (decoded bytes bounded)",
      browserOnly: true,
      async run() {
        const client = new McpClient(`${crossOrigin}/mcp-gzip`);
        expectEqual(await client.callTool("get_products", { brief: BRIEF }), success, "result");
      },
    },
    {
      name: 'With headers: { "accept-encoding": "gzip, deflate, br" } McpClient reads what ' +
        "the browser decoded (decoded bytes bounded)",
      async run() {
        const client = new McpClient(`${origin}/mcp-gzip`, {
          headers: { "accept-encoding": "gzip, deflate, br" },
        });
        expectEqual(await client.callTool("get_products", { brief: BRIEF }), success, "result");
      },
    },
  ];
}
