/**
 * The agents the in-page clients call, on the page's own server: an MCP agent and an A2A agent
 * built from `@adcp-wire/transports/testing`'s fakes, and the answers the checks expect from them.
 * The server (`_server.ts`) imports the agents; the page imports only the constants.
 *
 * @module
 */
import { adcpErrorResult, adcpSuccessResult } from "@adcp-wire/transports/seller";
import { fakeA2AAgent, type FakeAgentFetch, fakeMcpAgent } from "@adcp-wire/transports/testing";

/** The brief the checks send. */
export const BRIEF = "CTV for pet food";

/** What `get_products` answers (MCP `structuredContent`, A2A DataPart) to {@link BRIEF}. */
export const PRODUCTS: Readonly<Record<string, unknown>> = Object.freeze({
  status: "completed",
  cache_scope: "public",
  products: [],
  brief: BRIEF,
});

/** Bytes of the text `big_answer` answers with, past the 1 MiB limit the check sets. */
export const BIG_ANSWER_BYTES = 2 * 1024 * 1024;

/** The MCP agent's tools, in the order `tools/list` lists them. */
export const MCP_TOOLS = ["get_products", "get_signals", "big_answer"] as const;

/**
 * The MCP agent: `get_products` answers {@link PRODUCTS} with the brief it was sent,
 * `get_signals` a RATE_LIMITED AdCP error (`retry_after` 5), `big_answer` 2 MiB of text.
 *
 * @returns Its `fetch`.
 */
export function mcpAgent(): FakeAgentFetch {
  return fakeMcpAgent({
    tools: {
      get_products: (args) => adcpSuccessResult({ ...PRODUCTS, brief: args.brief }),
      get_signals: () =>
        adcpErrorResult({
          code: "RATE_LIMITED",
          message: "Slow down",
          recovery: "transient",
          retry_after: 5,
        }),
      big_answer: () => ({ content: [{ type: "text", text: "x".repeat(BIG_ANSWER_BYTES) }] }),
    },
  });
}

/**
 * The A2A agent: the fake A2A 1.0 agent's JSON-RPC side (`get_products` answers
 * {@link PRODUCTS} with the brief), and a card whose one interface is `/a2a` on `origin`.
 *
 * @param origin The origin the card is served from.
 * @returns The card and the JSON-RPC `fetch`.
 */
export function a2aAgent(origin: string): { card: Record<string, unknown>; fetch: FakeAgentFetch } {
  const agent = fakeA2AAgent({
    skills: { get_products: (input) => ({ data: { ...PRODUCTS, brief: input.brief } }) },
  });
  const card = {
    ...agent.card,
    supportedInterfaces: [
      { url: `${origin}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    ],
  };
  return { card, fetch: agent.fetch };
}
