/**
 * One client for both transports: {@link connectAgent} takes an agent URL and finds whether it
 * speaks A2A (an agent card at its origin) or MCP, and {@link AdcpAgent} calls AdCP tasks with one
 * shape, `call(task, input, options)`, returning one union, {@link AgentCallResult}, for both: the
 * spec's outcomes (success, error with its recovery decision, text), the async lifecycle (pending,
 * input required, auth required) and transport failures. `wait`, {@link AdcpAgent.wait} and
 * {@link AdcpAgent.continue} follow a task the same way over MCP and A2A, within one operation's
 * budget. McpClient and A2AClient stay available for protocol-specific use.
 *
 * @example Calling a task of an agent found by URL
 * ```ts
 * import { connectAgent } from "@adcp-wire/transports/agent";
 * import { adcpSuccessResult } from "@adcp-wire/transports/seller";
 * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const mcp = fakeMcpAgent({
 *   tools: { get_products: () => adcpSuccessResult({ products: [] }) },
 * });
 * // The fake answers 404 to the agent-card probe, so the agent is taken to speak MCP.
 * const agent = await connectAgent("https://seller.example/mcp", { fetch: mcp });
 * strictEqual(agent.protocol, "mcp");
 * const result = await agent.call("get_products", { buying_mode: "brief", brief: "CTV" });
 * deepStrictEqual(result.kind === "success" && result.data, { products: [] });
 * ```
 *
 * @module
 */
export { AdcpAgent } from "./agent.ts";
export { AGENT_CARD_PATH, connectAgent } from "./connect_agent.ts";
export * from "./types.ts";
