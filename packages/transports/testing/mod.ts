/**
 * In-process fake agents for tests of buyer code: {@link fakeMcpAgent} and {@link fakeA2AAgent}
 * return a `fetch` that answers as a small MCP or A2A agent would, and record what they received.
 * Pass it as the clients' `fetch` option; no network is involved.
 *
 * @example A fake MCP agent behind an McpClient
 * ```ts
 * import { McpClient } from "@adcp-wire/transports/mcp";
 * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const fetch = fakeMcpAgent({
 *   tools: { ping_tool: () => ({ content: [{ type: "text", text: "pong" }] }) },
 * });
 * const tools = await new McpClient("https://agent.example/mcp", { fetch }).listTools();
 * deepStrictEqual(tools.map((tool) => tool.name), ["ping_tool"]);
 * ```
 *
 * @module
 */

export * from "./fake_agent.ts";
