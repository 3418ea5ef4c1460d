/**
 * The transport layer of AdCP, by concern. Import the subpath you need, or everything from here:
 *
 * | Subpath | What it holds |
 * | --- | --- |
 * | `@adcp-wire/transports/agent` | `connectAgent`, `AdcpAgent`: one call shape for MCP and A2A |
 * | `@adcp-wire/transports/mcp` | `McpClient`, the MCP Streamable HTTP client |
 * | `@adcp-wire/transports/a2a` | `A2AClient` and `fetchAgentCard`, the A2A JSON-RPC client |
 * | `@adcp-wire/transports/read` | Bounded reads: HTTP bodies, SSE, stdio, `boundedFetch`, limits |
 * | `@adcp-wire/transports/seller` | Result builders, JSON-RPC errors, failed tasks, error checks |
 * | `@adcp-wire/transports/testing` | In-process fake agents for tests and examples |
 *
 * Everything the package throws on purpose is an `AdcpTransportError` (or, for the JSON bounds,
 * a `JsonDepthLimitError`/`JsonNodeLimitError` of `@adcp-wire/security`); all of them extend
 * `AdcpWireError`. The client contract, the bounded-reading rules and the outgoing-error rules
 * are in `docs/` of the repository.
 *
 * @example Calling a tool and branching on the result
 * ```ts
 * import { McpClient } from "@adcp-wire/transports";
 * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
 * import { adcpErrorResult } from "@adcp-wire/transports/seller";
 * import { strictEqual } from "node:assert/strict";
 *
 * const fetch = fakeMcpAgent({
 *   tools: {
 *     get_products: () =>
 *       adcpErrorResult({
 *         code: "RATE_LIMITED",
 *         message: "Slow down",
 *         recovery: "transient",
 *         retry_after: 5,
 *       }),
 *   },
 * });
 * const result = await new McpClient("https://agent.example/mcp", { fetch })
 *   .callTool("get_products", { brief: "CTV" });
 * // Route on code and recovery only: message and details are seller-controlled text.
 * strictEqual(result.kind === "error" && result.decision.action, "retry");
 * ```
 *
 * @module
 */

export * from "./a2a/mod.ts";
export * from "./agent/mod.ts";
export * from "./external_types.ts";
export * from "./mcp/mod.ts";
export * from "./read/mod.ts";
export * from "./seller/mod.ts";
