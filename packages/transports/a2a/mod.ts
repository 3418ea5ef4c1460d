/**
 * The A2A client: {@link A2AClient} speaks A2A JSON-RPC (1.0 ProtoJSON or v0.3: `SendMessage`,
 * `SendStreamingMessage` with streamed artifacts accumulated, `GetTask`) and hands back typed
 * AdCP results ({@link A2ACallResult}). {@link fetchAgentCard} fetches the agent card and binds
 * the client to the origin it came from. Every operation is bounded as a whole, redirects are
 * refused, and transient errors can be retried; the contract is in `docs/clients.md`. The
 * options, limits and idempotency helpers it shares with the MCP client are exported here too.
 *
 * The AdCP A2A Profile Extension v3 the client activates on A2A 1.0 is also here as checks that
 * never throw on seller data ({@link checkAdcpProfileAdvertisement},
 * {@link checkAdcpProfileInvocation}, {@link checkAdcpProfileResponse}) and a builder
 * ({@link adcpProfileInvocation}); `docs/clients.md`, "The AdCP A2A profile", has the rules.
 *
 * @example Sending an AdCP invocation to an in-process agent
 * ```ts
 * import { A2AClient } from "@adcp-wire/transports/a2a";
 * import { fakeA2AAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const agent = fakeA2AAgent({
 *   skills: { get_products: () => ({ data: { products: [] } }) },
 * });
 * const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: agent.fetch });
 * const result = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
 * deepStrictEqual(result.kind === "success" && result.data, { products: [] });
 * ```
 *
 * @module
 */

export * from "../client/shared.ts";
export * from "./auth_challenge.ts";
export * from "./adcp_profile_invocation.ts";
export * from "./check_adcp_profile_advertisement.ts";
export * from "./check_adcp_profile_invocation.ts";
export * from "./check_adcp_profile_response.ts";
export * from "./client.ts";
export * from "./fetch_agent_card.ts";
export * from "./types.ts";
