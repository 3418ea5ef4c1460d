import { checkKeys } from "../_options.ts";
import { callLimits } from "../client/_limits.ts";
import { agentUrl, headersOption, httpUrl } from "../client/_options.ts";
import {
  bodyKind,
  Call,
  discard,
  fetchWithin,
  httpStatusError,
  readJsonWithin,
} from "../client/_rpc.ts";
import { AgentProtocolError } from "../errors.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";
import type { ResponseLimits } from "../read/limits.ts";
import { RESPONSE_LIMIT_KEYS } from "../read/_limits.ts";
import {
  booleanOption,
  describe,
  functionOption,
  isJsonObject as isObject,
  objectOption,
  optionError,
  type OptionKeys,
  optionKeys,
} from "@adcp-wire/internal";

/** What the option errors of {@link fetchAgentCard} say could not be done. */
const FETCH_ACTION = "fetch the agent card";

/**
 * An agent card and the URL it was fetched from, as {@link fetchAgentCard} returns it. Pass it
 * to {@link A2AClient}, which binds the card's interfaces to {@link FetchedAgentCard.origin}.
 *
 * @example Wrapping a card from elsewhere
 * ```ts
 * import { FetchedAgentCard } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const fetched = new FetchedAgentCard(
 *   { name: "Demo" },
 *   "https://sales.example/.well-known/agent-card.json",
 * );
 * strictEqual(fetched.origin, "https://sales.example");
 * ```
 */
export class FetchedAgentCard {
  /** The card, raw (seller-controlled). */
  readonly card: Record<string, unknown>;
  /** The URL the card was fetched from. */
  readonly url: string;
  /** The origin of `url`: where the card's interfaces are bound by default. */
  readonly origin: string;

  /**
   * Pairs a card with the URL it came from.
   *
   * @param card The card object.
   * @param url The absolute `http:`/`https:` URL it was fetched from.
   * @throws {TypeError} When `card` is not an object or `url` not an `http:`/`https:` URL.
   */
  constructor(card: Record<string, unknown>, url: string | URL) {
    if (!isObject(card)) {
      throw optionError(TypeError, "create a FetchedAgentCard", "card", "an object", card);
    }
    this.card = card;
    this.url = httpUrl(url, "create a FetchedAgentCard", "url");
    this.origin = new URL(this.url).origin;
  }
}

/**
 * Options of {@link fetchAgentCard}.
 */
export interface FetchAgentCardOptions {
  /**
   * Headers sent with the request. Default: none beyond those `fetch` adds.
   */
  readonly headers?: HeadersInit | undefined;
  /**
   * Limits of the read (one call layer; see {@link resolveLimits}). Default: no limits of
   * its own (the built-in defaults apply).
   */
  readonly limits?: ResponseLimits | undefined;
  /**
   * The `fetch` to use.
   * @default {globalThis.fetch}
   */
  readonly fetch?: FetchLike | undefined;
  /**
   * Allows an `http:` card URL on a host other than loopback (see `allowHttp` of the client
   * options). For local development only.
   * @default {false}
   */
  readonly allowHttp?: boolean | undefined;
}

/** The keys of {@link FetchAgentCardOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<FetchAgentCardOptions>({
  headers: true,
  limits: true,
  fetch: true,
  allowHttp: true,
});

/** Where a top-level limit belongs. */
const NESTED: Readonly<Record<string, OptionKeys>> = { limits: RESPONSE_LIMIT_KEYS };

/**
 * Fetches an A2A agent card (`/.well-known/agent-card.json`) under the same bounds as every other
 * agent response, and keeps the URL it came from so that {@link A2AClient} can bind the card's
 * interfaces to that origin. See `docs/clients.md`, "Agent cards".
 *
 * Spec: Security, "Webhook URL validation (SSRF)", step 4 (redirects refused).
 *
 * @param url The card URL: `https:`, or `http:` on loopback (any host with `options.allowHttp`).
 * @param options Headers, limits and `fetch`.
 * @returns The card object and where it came from.
 * @throws {HttpStatusError} For a status outside 2xx.
 * @throws {RedirectRefusedError} For a 3xx answer.
 * @throws {NetworkError} When the request fails before an answer.
 * @throws {AgentProtocolError} With reason `"content_type"` for a body that is not JSON,
 * `"agent_card"` for JSON that is not an object.
 * @throws {AdcpTransportError} For size, deadline and JSON failures.
 * @throws {TypeError} When `url` is not an absolute `http:`/`https:` URL, or an option has the
 * wrong type or a key it does not define (in `options` or `options.limits`); nothing is fetched.
 *
 * @example Fetching a card from an in-process agent
 * ```ts
 * import { A2AClient, fetchAgentCard } from "@adcp-wire/transports/a2a";
 * import { fakeA2AAgent } from "@adcp-wire/transports/testing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const agent = fakeA2AAgent({ skills: {} });
 * const fetched = await fetchAgentCard(agent.cardUrl, { fetch: agent.fetch });
 * strictEqual(fetched.origin, "https://agent.example");
 * // The card's interface is on the origin the card came from, so the client accepts it.
 * strictEqual(new A2AClient(fetched).endpoint, "https://agent.example/a2a");
 * ```
 */
export async function fetchAgentCard(
  url: string | URL,
  options: FetchAgentCardOptions = {},
): Promise<FetchedAgentCard> {
  objectOption(FETCH_ACTION, "options", options);
  checkKeys(FETCH_ACTION, "options", options, OPTION_KEYS, NESTED);
  const allowHttp = booleanOption(FETCH_ACTION, "options.allowHttp", options.allowHttp);
  const href = agentUrl(url, FETCH_ACTION, "url", allowHttp);
  objectOption(FETCH_ACTION, "options.limits", options.limits);
  // A card read takes response limits only (callLimits would take a client's item caps too).
  checkKeys(FETCH_ACTION, "options.limits", options.limits, RESPONSE_LIMIT_KEYS);
  const fetchImpl = functionOption(FETCH_ACTION, "options.fetch", options.fetch);
  const headers = headersOption(FETCH_ACTION, options.headers);
  headers.set("accept", "application/json");
  const call = new Call(callLimits(undefined, undefined, options.limits, FETCH_ACTION));
  try {
    const response = await fetchWithin(fetchImpl, href, { method: "GET", headers }, call);
    if (response.status < 200 || response.status > 299) {
      await discard(response);
      throw httpStatusError(response);
    }
    if (bodyKind(response) !== "json") {
      await discard(response);
      throw new AgentProtocolError("content_type", "application/json", "another Content-Type");
    }
    const card = await readJsonWithin(response, call);
    if (!isObject(card)) {
      throw new AgentProtocolError("agent_card", "a JSON object", describe(card));
    }
    return new FetchedAgentCard(card, href);
  } finally {
    call.dispose();
  }
}
