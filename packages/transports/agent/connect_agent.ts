// connectAgent: an AdcpAgent from an agent URL, the protocol found by probing the origin's A2A
// agent card (or named by the caller).
import {
  booleanOption,
  objectOption,
  optionError,
  type OptionKeys,
  optionKeys,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";
import { A2A_OPTION_NAMES, A2AClient } from "../a2a/client.ts";
import { fetchAgentCard, type FetchedAgentCard } from "../a2a/fetch_agent_card.ts";
import { callLimits, CLIENT_LIMIT_KEYS } from "../client/_limits.ts";
import { agentUrl, CLIENT_OPTION_NAMES, limitLayers } from "../client/_options.ts";
import { RETRY_KEYS, retryOption } from "../client/_retry.ts";
import { AgentProtocolError, HttpStatusError } from "../errors.ts";
import { MCP_OPTION_NAMES, McpClient } from "../mcp/client.ts";
import { resolveLayers, RESPONSE_LIMIT_KEYS } from "../read/_limits.ts";
import { AdcpAgent } from "./agent.ts";
import type { ConnectAgentOptions } from "./types.ts";

const CONNECT = "connect to the agent";

/** The keys of {@link ConnectAgentOptions}, and of its `mcp` and `a2a` options. */
const OPTION_KEYS: OptionKeys = optionKeys<ConnectAgentOptions>({
  ...CLIENT_OPTION_NAMES,
  protocol: true,
  cardLimits: true,
  mcp: true,
  a2a: true,
});
const MCP_KEYS: OptionKeys = optionKeys<NonNullable<ConnectAgentOptions["mcp"]>>(MCP_OPTION_NAMES);
const A2A_KEYS: OptionKeys = optionKeys<NonNullable<ConnectAgentOptions["a2a"]>>(A2A_OPTION_NAMES);

/**
 * Where a top-level key that is not an option belongs, for the nearest suggestion: a limit in the
 * agent's layer first, then the client-wide one and the card fetch's; then the options of one
 * protocol, and the figures of the retry policy.
 */
const NESTED: Readonly<Record<string, OptionKeys>> = {
  agentLimits: CLIENT_LIMIT_KEYS,
  defaultLimits: CLIENT_LIMIT_KEYS,
  cardLimits: RESPONSE_LIMIT_KEYS,
  mcp: MCP_KEYS,
  a2a: A2A_KEYS,
  retry: RETRY_KEYS,
};

/** Where an origin publishes its A2A agent card. */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

/**
 * HTTP statuses of the card probe that mean "this origin publishes no agent card", so the agent is
 * taken to speak MCP: not found, gone, method not allowed, the 401 and 403 of an origin that
 * guards every path (an agent card is public), and the 400 and 406 of an MCP server mounted on
 * every path (the official SDK's answers a GET without `Accept: text/event-stream` with 406). Any
 * other failure (429, 5xx, a redirect, a network failure, a deadline) ends the connection attempt:
 * a transient failure must not pick the protocol.
 */
const NO_CARD_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 405, 406, 410]);

/**
 * Connects to an AdCP agent by URL and returns an {@link AdcpAgent} for it.
 *
 * How the protocol is found (`options.protocol`, default `"auto"`):
 *
 * - `"auto"`: the A2A agent card is fetched from the URL's origin at
 *   `/.well-known/agent-card.json` (or from the URL itself when it is that path), with the
 *   package's response limits and no redirect followed. A JSON card makes the agent an A2A agent,
 *   its interface chosen under issue 10's binding rules (an interface on the card's origin, or on
 *   a host of `a2a.allowedHosts`; `https:`, or loopback `http:`). A card that names no usable
 *   interface fails the connection: the origin is an A2A agent, and guessing MCP would be wrong.
 *   An answer of 400, 401, 403, 404, 405, 406 or 410, or a 2xx answer that is not JSON, means the
 *   origin has no card: the agent speaks MCP (Streamable HTTP) at the URL as given. Anything
 *   else (429, 5xx, a redirect, a network failure, a deadline, an oversized card) throws, so that
 *   a transient failure never decides the protocol.
 * - `"a2a"`: the card is fetched as above and must be usable.
 * - `"mcp"`: nothing is fetched.
 *
 * Nothing is sent to the MCP endpoint yet: its `initialize` handshake runs with the first call.
 * The headers, limits, `fetch`, retry and signer options apply to the chosen client unchanged
 * (the card fetch uses the headers and `fetch` too, never the signer: it is a public document).
 *
 * @param url The agent URL: the MCP endpoint, the A2A agent's origin, or its card URL.
 * @param options The shared client options, `protocol`, `cardLimits`, and the `mcp` and `a2a`
 * extras.
 * @returns The agent.
 * @throws {AgentProtocolError} With reason `"agent_card"` when the card is not an object or has no
 * interface the binding allows.
 * @throws {AdcpTransportError} When the card probe fails otherwise (see above).
 * @throws {TypeError} When `url` is not an absolute `http(s)` URL, or an option has the wrong type
 * or a key it does not define (in `options`, `mcp`, `a2a`, a limits layer or `retry`): before the
 * card is fetched, under this function's name for the option.
 * @throws {RangeError} When a limit or a figure of the retry policy is out of range.
 *
 * @example Connecting to an A2A agent by its origin
 * ```ts
 * import { connectAgent } from "@adcp-wire/transports";
 * import { fakeA2AAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const seller = fakeA2AAgent({ skills: { get_products: () => ({ data: { products: [] } }) } });
 * const agent = await connectAgent(new URL(seller.cardUrl).origin, { fetch: seller.fetch });
 * strictEqual(agent.protocol, "a2a");
 * const result = await agent.call("get_products", { buying_mode: "brief", brief: "CTV" });
 * deepStrictEqual(result.kind === "success" && result.data, { products: [] });
 * ```
 */
export async function connectAgent(
  url: string | URL,
  options: ConnectAgentOptions = {},
): Promise<AdcpAgent> {
  objectOption(CONNECT, "options", options);
  checkKeys(CONNECT, "options", options, OPTION_KEYS, NESTED);
  const href = agentUrl(
    url,
    CONNECT,
    "url",
    booleanOption(CONNECT, "options.allowHttp", options.allowHttp),
  );
  objectOption(CONNECT, "options.mcp", options.mcp);
  objectOption(CONNECT, "options.a2a", options.a2a);
  checkKeys(CONNECT, "options.mcp", options.mcp, MCP_KEYS);
  checkKeys(CONNECT, "options.a2a", options.a2a, A2A_KEYS);
  // The shared options are checked now, before the card probe, and under the names given here:
  // the client is made only after the probe, and would name them as its own.
  resolveLayers([["options.cardLimits", options.cardLimits, false]], CONNECT);
  const { defaultLimits, agentLimits } = limitLayers(CONNECT, options);
  callLimits(defaultLimits, agentLimits, undefined, CONNECT);
  retryOption(CONNECT, options.retry);
  const protocol = options.protocol ?? "auto";
  if (protocol !== "auto" && protocol !== "mcp" && protocol !== "a2a") {
    throw optionError(
      TypeError,
      CONNECT,
      "options.protocol",
      '"auto", "mcp" or "a2a"',
      protocol,
    );
  }
  const { protocol: _, cardLimits, mcp, a2a, ...shared } = options;
  const mcpAgent = (): AdcpAgent => new AdcpAgent(new McpClient(href, { ...mcp, ...shared }));
  if (protocol === "mcp") return mcpAgent();
  const target = new URL(href);
  const cardUrl = target.pathname === AGENT_CARD_PATH
    ? href
    : new URL(AGENT_CARD_PATH, target.origin).href;
  let card: FetchedAgentCard;
  try {
    card = await fetchAgentCard(cardUrl, {
      headers: shared.headers,
      limits: cardLimits,
      fetch: shared.fetch,
      allowHttp: shared.allowHttp,
    });
  } catch (error) {
    if (protocol === "auto" && meansNoCard(error)) return mcpAgent();
    throw error;
  }
  return new AdcpAgent(new A2AClient(card, { ...a2a, ...shared }));
}

/** Whether a failed card probe says the origin publishes no card (see NO_CARD_STATUSES). */
function meansNoCard(error: unknown): boolean {
  if (error instanceof HttpStatusError) return NO_CARD_STATUSES.has(error.status);
  return error instanceof AgentProtocolError && error.reason === "content_type";
}
