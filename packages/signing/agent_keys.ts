// From an agent URL to the JWKS that holds its keys, through its operator's brand.json
// (security.mdx, "Webhook callbacks", JWKS discovery steps 1-3; "Agent key publication"; "Buyer
// identity resolution": one redirect, no chains).
import { isJsonObject, optionKeys } from "@adcp-wire/internal";
import {
  FETCH_OPTION_FLAGS,
  fetchJsonFrom,
  fetchSettings,
  optionsObject,
  type RawFetchOptions,
  sourceUrl,
} from "./_jwks_fetch.ts";
import { AgentKeyDiscoveryError } from "./errors.ts";
import type { FetchJwksOptions } from "./jwks.ts";
import { defaultJwksUri } from "./jwks.ts";

/** Cap on a brand.json body: 262,144 bytes (`MAX_BRAND_JSON_BYTES` of security.mdx). */
export const DEFAULT_MAX_BRAND_JSON_BYTES = 262_144;

/** Agent entries looked at, across every `agents[]` of a brand.json, at most: 10,000. */
export const MAX_BRAND_JSON_AGENTS = 10_000;

const ACTION = "resolve the agent's JWKS";
const NOT_OBJECT = "the document is not a JSON object";

/** A brand.json body that fails the strict parse or the cap: `brand_json_malformed`. */
const MALFORMED_BRAND_JSON = (detail: string, cause?: unknown): Error =>
  new AgentKeyDiscoveryError(
    "brand_json_malformed",
    detail,
    cause === undefined ? undefined : { cause },
  );

/** How {@link resolveAgentJwksUri} fetches. */
export interface ResolveAgentJwksUriOptions extends Omit<FetchJwksOptions, "maxBytes"> {
  /**
   * The brand.json to read: the agent's `identity.brand_json_url` (from its capabilities), or the
   * operator's you recorded at onboarding. Default: `/.well-known/brand.json` at the agent URL's
   * origin. Checked like every fetched URL.
   */
  readonly brandJsonUrl?: string | URL;
  /** Cap on each brand.json body, in bytes: at most (and by default) 262,144. */
  readonly maxBytes?: number;
}

/** The keys of {@link ResolveAgentJwksUriOptions}. */
const RESOLVE_AGENT_JWKS_URI_KEYS = optionKeys<ResolveAgentJwksUriOptions>({
  ...FETCH_OPTION_FLAGS,
  brandJsonUrl: true,
});

/** Where an agent's keys are published. */
export interface AgentKeyLocation {
  /** The agent URL asked about. */
  readonly agentUrl: string;
  /** The brand.json that listed it (after the one redirect, when there was one). */
  readonly brandJsonUrl: string;
  /** The entry's `jwks_uri`, or `/.well-known/jwks.json` at the agent URL's origin. */
  readonly jwksUri: string;
  /** The matched `agents[]` entry, as published (seller-controlled). */
  readonly entry: Readonly<Record<string, unknown>>;
}

/** The redirect a brand.json document makes, if it is one of the two redirect shapes. */
function redirectOf(doc: Record<string, unknown>): string | undefined {
  if (typeof doc.authoritative_location === "string") return doc.authoritative_location;
  if (typeof doc.house === "string") {
    const house = doc.house;
    if (!/^[a-z0-9.-]+$/i.test(house) || house.length > 253) {
      throw new AgentKeyDiscoveryError("brand_json_malformed", "house is not a domain name");
    }
    return `https://${house}/.well-known/brand.json`;
  }
  return undefined;
}

/** Every `agents[]` entry of a brand.json: top level, the house's, and each inline brand's. */
function agentEntries(doc: Record<string, unknown>): Record<string, unknown>[] {
  const lists: unknown[] = [doc.agents];
  if (isJsonObject(doc.house)) lists.push(doc.house.agents);
  if (Array.isArray(doc.brands)) {
    for (const brand of doc.brands) if (isJsonObject(brand)) lists.push(brand.agents);
  }
  const out: Record<string, unknown>[] = [];
  for (const list of lists) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      throw new AgentKeyDiscoveryError("brand_json_malformed", "agents is not an array");
    }
    for (const entry of list) {
      if (!isJsonObject(entry)) {
        throw new AgentKeyDiscoveryError(
          "brand_json_malformed",
          "an agents[] entry is not an object",
        );
      }
      out.push(entry);
      if (out.length > MAX_BRAND_JSON_AGENTS) {
        throw new AgentKeyDiscoveryError(
          "brand_json_malformed",
          `more than ${MAX_BRAND_JSON_AGENTS} agents[] entries`,
        );
      }
    }
  }
  return out;
}

/**
 * Finds where an agent publishes its signing keys: reads its operator's brand.json (SSRF rules of
 * every key fetch: https only, no HTTP redirect, literal reserved addresses refused, 256 KiB, 10
 * s, strict JSON), follows at most one brand.json redirect (`authoritative_location`, or a `house`
 * redirect to that domain's brand.json; a second one is refused) when it reads the default
 * `/.well-known/brand.json` and none when `brandJsonUrl` is given, finds the one `agents[]` entry
 * whose `url` byte-equals the agent URL (no canonicalization: security.mdx, brand_json_url
 * discovery step 5; top-level `agents`, `house.agents`, and each inline `brands[].agents`), and
 * answers its `jwks_uri` or the default `/.well-known/jwks.json` at the agent's origin. Hand the
 * result to `JwksResolver`.
 *
 * The eTLD+1 origin binding of a capabilities-supplied `brand_json_url` (request-signing
 * discovery step 3) needs the Public Suffix List, which this package does not carry: check it
 * before passing `brandJsonUrl` (`@adcp-wire/transports/read` has the pinned list).
 *
 * @param agentUrl The agent's URL, as the integration knows it.
 * @param options `brandJsonUrl`, fetch and limits.
 * @returns The brand.json used, the entry and its JWKS URI.
 * @throws {JwksError} When a URL is refused (`untrusted`: not https, userinfo, a reserved address,
 * an HTTP redirect; not retryable) or the brand.json cannot be fetched (`unavailable`: network,
 * timeout, non-2xx; the spec's transient `request_signature_brand_json_unreachable`).
 * @throws {AgentKeyDiscoveryError} When the brand.json is malformed (`brand_json_malformed`: the
 * strict parse, the 256 KiB cap, the shape, a second redirect) or has no single entry for the
 * agent (`agent_not_in_brand_json`, `brand_json_ambiguous`): none is retryable.
 * @throws {TypeError} When an option has the wrong type or an unknown name (nothing is fetched).
 *
 * @example Resolving from a brand.json (a `fetch` stands in for the network)
 * ```ts
 * import { resolveAgentJwksUri } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const brand = {
 *   agents: [{
 *     type: "sales",
 *     url: "https://seller.example/mcp",
 *     jwks_uri: "https://keys.seller.example/jwks.json",
 *   }],
 * };
 * const fetch = () => Promise.resolve(Response.json(brand));
 * const location = await resolveAgentJwksUri("https://seller.example/mcp", { fetch });
 * strictEqual(location.brandJsonUrl, "https://seller.example/.well-known/brand.json");
 * strictEqual(location.jwksUri, "https://keys.seller.example/jwks.json");
 * ```
 */
export async function resolveAgentJwksUri(
  agentUrl: string | URL,
  options: ResolveAgentJwksUriOptions = {},
): Promise<AgentKeyLocation> {
  const raw = optionsObject<ResolveAgentJwksUriOptions>(
    options,
    ACTION,
    RESOLVE_AGENT_JWKS_URI_KEYS,
  );
  const settings = fetchSettings(raw as RawFetchOptions, ACTION, DEFAULT_MAX_BRAND_JSON_BYTES);
  const agent = sourceUrl(agentUrl, settings, ACTION, "agentUrl", "agent URL");
  // "the agents[] entry whose url byte-equals A (no canonicalization)": A as the caller knows it.
  const wanted = typeof agentUrl === "string" ? agentUrl : agent.href;
  // A capabilities-supplied brand_json_url is fetched with no redirect at all; the default
  // /.well-known/brand.json of the webhook path follows one brand.json redirect and stops.
  const followRedirect = raw.brandJsonUrl === undefined;
  let where = sourceUrl(
    raw.brandJsonUrl ?? `${agent.origin}/.well-known/brand.json`,
    settings,
    ACTION,
    "options.brandJsonUrl",
    "brand.json URL",
  );
  let doc = await fetchJsonFrom(where, settings, MALFORMED_BRAND_JSON);
  if (!isJsonObject(doc)) throw new AgentKeyDiscoveryError("brand_json_malformed", NOT_OBJECT);
  const redirect = redirectOf(doc);
  if (redirect !== undefined && !followRedirect) {
    throw new AgentKeyDiscoveryError(
      "brand_json_malformed",
      "a redirect, where the given brand.json is read with none",
    );
  }
  if (redirect !== undefined) {
    where = sourceUrl(redirect, settings, ACTION, "authoritative_location", "brand.json URL");
    doc = await fetchJsonFrom(where, settings, MALFORMED_BRAND_JSON);
    if (!isJsonObject(doc)) throw new AgentKeyDiscoveryError("brand_json_malformed", NOT_OBJECT);
    if (redirectOf(doc) !== undefined) {
      throw new AgentKeyDiscoveryError("brand_json_malformed", "a second brand.json redirect");
    }
  }
  const matches = agentEntries(doc).filter((entry) => entry.url === wanted);
  if (matches.length === 0) throw new AgentKeyDiscoveryError("agent_not_in_brand_json");
  if (matches.length > 1) throw new AgentKeyDiscoveryError("brand_json_ambiguous");
  const entry = matches[0]!;
  if (entry.jwks_uri !== undefined && typeof entry.jwks_uri !== "string") {
    throw new AgentKeyDiscoveryError("brand_json_malformed", "jwks_uri is not a string");
  }
  const jwksUri = entry.jwks_uri === undefined
    ? defaultJwksUri(agent)
    : sourceUrl(entry.jwks_uri, settings, ACTION, "jwks_uri", "JWKS URL").href;
  return { agentUrl: agent.href, brandJsonUrl: where.href, jwksUri, entry };
}
