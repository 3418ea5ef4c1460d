/**
 * The MCP client: {@link McpClient} speaks MCP Streamable HTTP (sessions, `tools/list`
 * pagination, `tools/call`, MCP tasks, JSON and SSE answers, `Last-Event-ID` resumption) and
 * hands back typed AdCP results ({@link McpCallResult}). Every operation is bounded as a whole,
 * redirects are refused, and transient errors can be retried; the contract is in
 * `docs/clients.md`. The options, limits and idempotency helpers it shares with the A2A client
 * are exported here too.
 *
 * @example Calling a tool on an in-process agent
 * ```ts
 * import { McpClient } from "@adcp-wire/transports/mcp";
 * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const fetch = fakeMcpAgent({
 *   tools: { get_products: () => ({ structuredContent: { products: [] }, content: [] }) },
 * });
 * const client = new McpClient("https://agent.example/mcp", { fetch });
 * const result = await client.callTool("get_products", { brief: "CTV" });
 * deepStrictEqual(result, { kind: "success", data: { products: [] } });
 * ```
 *
 * @module
 */

export * from "../client/shared.ts";
export * from "./client.ts";
export * from "./types.ts";
