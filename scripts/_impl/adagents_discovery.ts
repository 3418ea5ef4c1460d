/**
 * The project's answers to the `adagents-discovery` suite; the requests are described in
 * `scripts/_suites/adagents_discovery.ts`.
 *
 * The vector's `redirect_chain` is replayed through an injected `fetch` that answers with real
 * `Response` objects, as a server would: the k-th request gets the k-th hop (its `status`, and
 * its `location` as the `Location` header when it is a string), the request after the last hop
 * gets 200 with a small valid adagents.json. A request for another URL than the one the previous
 * hop pointed at gets 404. Every requested URL is recorded, and a refusal replies them as
 * `dialed`.
 *
 * - `target: "well_known"`: `fetchAdagentsJson(origin_url)`.
 * - `target: "authoritative_location"`: `fetchAuthoritativeAdagentsJson(origin_url)`.
 *
 * Replies `{result: "resolved", final_url}`, or `{result: "refused", reason, dialed}` for an
 * `AdagentsDiscoveryError` (its `reason`); any other error is thrown (its `code` is the reply's).
 *
 * @module
 */
import { field, isObject } from "./_input.ts";
import {
  AdagentsDiscoveryError,
  fetchAdagentsJson,
  fetchAuthoritativeAdagentsJson,
} from "@adcp-wire/transports/read";

/** The body of the final answer: the smallest adagents.json the schema accepts. */
const FINAL_BODY = {
  $schema: "https://adcontextprotocol.org/schemas/v3/adagents.json",
  authorized_agents: [],
  last_updated: "2025-06-01T00:00:00Z",
};

/** A Response whose `url` is the URL it answers, as a runtime's would be. */
function answered(response: Response, url: string): Response {
  Object.defineProperty(response, "url", { value: url });
  return response;
}

/** The URL the next request should be for, after a hop with `location` from `current`. */
function target(location: unknown, current: string): string | undefined {
  if (typeof location !== "string") return undefined;
  try {
    const next = new URL(location, current);
    next.hash = "";
    return next.href;
  } catch {
    return undefined;
  }
}

/**
 * A `fetch` replaying `chain` from `origin`, and the URLs requested through it.
 */
function replay(origin: string, chain: readonly Record<string, unknown>[]): {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  dialed: string[];
} {
  const dialed: string[] = [];
  let expected: string | undefined = origin;
  let index = 0;
  const fetch = (input: string | URL | Request): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    dialed.push(url);
    if (url !== expected) {
      return Promise.resolve(answered(new Response(null, { status: 404 }), url));
    }
    const hop = chain[index++];
    if (hop === undefined) {
      expected = undefined;
      return Promise.resolve(answered(Response.json(FINAL_BODY), url));
    }
    const location = field(hop, "location");
    const headers: Record<string, string> = typeof location === "string" ? { location } : {};
    expected = target(location, url);
    return Promise.resolve(
      answered(new Response(null, { status: field(hop, "status") as number, headers }), url),
    );
  };
  return { fetch, dialed };
}

/**
 * Answers one `adagents-discovery` request.
 *
 * @param input `{target, origin_url, redirect_chain}`.
 * @param _options The vector's options (unused).
 * @returns `{result: "resolved", final_url}` or `{result: "refused", reason, dialed}`.
 */
export async function answer(
  input: unknown,
  _options: Record<string, unknown> | null,
): Promise<unknown> {
  if (!isObject(input)) throw new TypeError("adagents-discovery: input must be an object");
  const origin = field(input, "origin_url");
  const chain = field(input, "redirect_chain");
  const kind = field(input, "target");
  if (typeof origin !== "string") {
    throw new TypeError("adagents-discovery: origin_url must be a string");
  }
  if (!Array.isArray(chain) || !chain.every(isObject)) {
    throw new TypeError("adagents-discovery: redirect_chain must be an array of objects");
  }
  if (kind !== "well_known" && kind !== "authoritative_location") {
    throw new TypeError(
      'adagents-discovery: target must be "well_known" or "authoritative_location"',
    );
  }
  const { fetch, dialed } = replay(origin, chain);
  try {
    const fetched = kind === "well_known"
      ? await fetchAdagentsJson(origin, { fetch })
      : await fetchAuthoritativeAdagentsJson(origin, { fetch });
    return { result: "resolved", final_url: fetched.url };
  } catch (error) {
    if (error instanceof AdagentsDiscoveryError) {
      return { result: "refused", reason: error.reason, dialed };
    }
    throw error;
  }
}
