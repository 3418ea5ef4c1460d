import { AdagentsDiscoveryError } from "../errors.ts";
import {
  type ChainPolicy,
  fetchChain,
  type FetchedAdagentsJson,
  requestedUrl,
} from "./_adagents_fetch.ts";

export type { AdagentsRedirect, FetchedAdagentsJson } from "./_adagents_fetch.ts";
import {
  type ResolvedLimits,
  resolveLayers,
  RESPONSE_LIMIT_KEYS,
  type ResponseLimits,
} from "./_limits.ts";
import type { FetchLike } from "./bounded_fetch.ts";
import {
  booleanOption,
  functionOption,
  integerOption,
  objectOption,
  optionError,
  type OptionKeys,
  optionKeys,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/**
 * Byte cap of a `/.well-known/adagents.json` file, inline or pointer: 5,000,000 bytes ("5 MB",
 * decimal: the same pages write KiB and MiB when they mean binary units). The default and the
 * ceiling; raw and decoded bytes are both capped.
 *
 * Spec: managed-networks.mdx, "Security considerations" (pointer files "keep the general SSRF
 * body cap of 5 MB"); Security, "Webhook URL validation (SSRF)", step 5.
 */
export const ADAGENTS_POINTER_MAX_BYTES = 5_000_000;

/**
 * Default byte cap of an authoritative file reached through `authoritative_location`: 20,000,000
 * bytes ("20 MB", decimal). A recommendation, so a call may raise it.
 *
 * Spec: managed-networks.mdx, "Security considerations" ("a higher recommended cap of 20 MB").
 */
export const ADAGENTS_AUTHORITATIVE_MAX_BYTES = 20_000_000;

/**
 * The most redirects the `/.well-known/adagents.json` fetch follows: 3 (a fourth is refused as
 * `too_many_redirects`). The default and the ceiling.
 *
 * Spec: managed-networks.mdx, "Why not HTTP redirects?" ("capping the chain at 3 hops").
 */
export const ADAGENTS_MAX_REDIRECTS = 3;

/**
 * Deadline of one adagents.json fetch, every hop, connect and body read included: 10,000 ms. The
 * default and the ceiling: one budget for the whole operation keeps each connect and each read
 * within the 10 s the spec allows, which a per-hop timeout would not (four hops of 9 s each).
 *
 * Spec: managed-networks.mdx, "Security considerations" ("short connect/read timeouts (≤ 10s
 * each) on both hops"); Security, "Webhook URL validation (SSRF)", step 5.
 */
export const ADAGENTS_TIMEOUT_MS = 10_000;

/** Options shared by {@link fetchAdagentsJson} and {@link fetchAuthoritativeAdagentsJson}. */
export interface AdagentsFetchOptions {
  /**
   * The `fetch` to use. It must honour `redirect: "manual"`: one that follows redirects itself is
   * detected (`redirected: true`) and refused, but only after it has followed them. Resolving
   * names and pinning the connection to the checked address (SSRF steps 2 and 3) is its job.
   * @default {globalThis.fetch}
   */
  readonly fetch?: FetchLike | undefined;
  /**
   * Bounds of the fetch. `maxResponseBytes` and `maxDecodedBytes` default to the tier's cap
   * ({@link ADAGENTS_POINTER_MAX_BYTES} or {@link ADAGENTS_AUTHORITATIVE_MAX_BYTES});
   * `timeoutMs` to {@link ADAGENTS_TIMEOUT_MS}, at most that, for the whole operation; `signal`
   * aborts it; the JSON bounds are those of {@link resolveLimits}.
   * @default {{}}
   */
  readonly limits?: ResponseLimits | undefined;
  /**
   * Allows an `http:` URL to be requested, and a redirect from `http:` to `http:`. Never a
   * redirect from `https:` to `http:`. For local tests only.
   * @default {false}
   */
  readonly allowHttp?: boolean | undefined;
  /**
   * Allows `localhost` and reserved IP literals (loopback, private, link-local ...), requested or
   * redirected to. Such hosts have no registrable domain, so a redirect to one is still refused.
   * For local tests only.
   * @default {false}
   */
  readonly allowReservedAddresses?: boolean | undefined;
}

/** Options of {@link fetchAdagentsJson}. */
export interface FetchAdagentsJsonOptions extends AdagentsFetchOptions {
  /**
   * The most same-registrable-domain redirects followed: an integer from 0 to
   * {@link ADAGENTS_MAX_REDIRECTS} (the spec's cap cannot be raised).
   * @default {3}
   */
  readonly maxRedirects?: number | undefined;
}

/** Options of {@link discoverAdagents}. */
export interface DiscoverAdagentsOptions extends FetchAdagentsJsonOptions {
  /**
   * Bounds of the `authoritative_location` fetch, over `limits` (whose byte caps apply to the
   * pointer file only): the byte caps default to {@link ADAGENTS_AUTHORITATIVE_MAX_BYTES}.
   * @default {{}}
   */
  readonly authoritativeLimits?: ResponseLimits | undefined;
}

/** What {@link discoverAdagents} found. */
export interface DiscoveredAdagents {
  /** The file that holds the authorization: the inline well-known file or the authoritative one. */
  readonly document: Record<string, unknown>;
  /** Where `document` came from. */
  readonly url: string;
  /** The `/.well-known/adagents.json` fetch. */
  readonly wellKnown: FetchedAdagentsJson;
  /** The `authoritative_location` fetch, or `undefined` for an inline file. */
  readonly authoritative: FetchedAdagentsJson | undefined;
}

/** Every key of {@link AdagentsFetchOptions}. */
const FETCH_OPTION_NAMES = {
  fetch: true,
  limits: true,
  allowHttp: true,
  allowReservedAddresses: true,
} as const satisfies { readonly [K in keyof Required<AdagentsFetchOptions>]: true };

/** The keys of {@link AdagentsFetchOptions}. */
const AUTHORITATIVE_KEYS: OptionKeys = optionKeys<AdagentsFetchOptions>(FETCH_OPTION_NAMES);
/** The keys of {@link FetchAdagentsJsonOptions}. */
const WELL_KNOWN_KEYS: OptionKeys = optionKeys<FetchAdagentsJsonOptions>({
  ...FETCH_OPTION_NAMES,
  maxRedirects: true,
});
/** The keys of {@link DiscoverAdagentsOptions}. */
const DISCOVER_KEYS: OptionKeys = optionKeys<DiscoverAdagentsOptions>({
  ...FETCH_OPTION_NAMES,
  maxRedirects: true,
  authoritativeLimits: true,
});

/** Where a top-level limit belongs. */
const NESTED: Readonly<Record<string, OptionKeys>> = { limits: RESPONSE_LIMIT_KEYS };
const DISCOVER_NESTED: Readonly<Record<string, OptionKeys>> = {
  limits: RESPONSE_LIMIT_KEYS,
  authoritativeLimits: RESPONSE_LIMIT_KEYS,
};

const WELL_KNOWN_ACTION = "fetch adagents.json";
const AUTHORITATIVE_ACTION = "fetch the authoritative adagents.json";
const DISCOVER_ACTION = "discover adagents.json";

/**
 * Fetches a publisher's `/.well-known/adagents.json`, following at most 3 redirects that stay on
 * the registrable domain (eTLD+1, Public Suffix List with its private section) of the host first
 * requested, `https:` only, each hop checked before it is requested (userinfo, reserved
 * addresses). One 10 s deadline covers every hop; the body is capped at 5 MB and parsed as strict
 * JSON (duplicate keys refused). The rules are in `docs/bounded-reading.md`, "adagents.json
 * discovery".
 *
 * Spec: managed-networks.mdx, "Why not HTTP redirects?" and "Security considerations"; Security,
 * "Webhook URL validation (SSRF)", steps 1, 2, 4 and 5.
 *
 * @param domainOrUrl A domain (`pub.example`, requested as
 * `https://pub.example/.well-known/adagents.json`) or the absolute URL to request. It may come from
 * a seller: a malformed value is refused, not thrown as a programmer error.
 * @param options `fetch`, limits, `maxRedirects`, and the local-test opt-ins.
 * @returns The file, the URL that served it and the redirects followed.
 * @throws {AdagentsDiscoveryError} When the URL or a redirect is refused (`reason` says by which
 * rule; a refused redirect is never requested) or the file is not a JSON object.
 * @throws {HttpStatusError} For a status outside 2xx and 3xx (5xx and 429 are transient).
 * @throws {NetworkError} When a request fails before an answer.
 * @throws {DeadlineExceededError} When the operation outlasts `limits.timeoutMs`.
 * @throws {ResponseTooLargeError} When the body passes its cap.
 * @throws {MalformedUtf8Error | MalformedJsonError | JsonDepthLimitError | JsonNodeLimitError} For
 * a body that is not bounded UTF-8 JSON; `DuplicateKeyError` of `@adcp-wire/security` for one with
 * a repeated key.
 * @throws {TypeError} When `domainOrUrl` is neither a string nor a URL, an option has the wrong
 * type or an unknown key, or `fetch` does not give a Response.
 * @throws {RangeError} When `maxRedirects` is above 3, a byte cap above 5,000,000 or `timeoutMs`
 * above 10,000.
 *
 * @example Following apex to www, refusing another registrable domain
 * ```ts
 * import { type AdagentsDiscoveryError, fetchAdagentsJson } from "@adcp-wire/transports/read";
 * import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
 *
 * const to = (location: string) => new Response(null, { status: 301, headers: { location } });
 * const sites: Record<string, () => Response> = {
 *   "https://pub.example/.well-known/adagents.json": () =>
 *     to("https://www.pub.example/.well-known/adagents.json"),
 *   "https://www.pub.example/.well-known/adagents.json": () =>
 *     Response.json({ authorized_agents: [] }),
 *   "https://moved.example/.well-known/adagents.json": () =>
 *     to("https://other.example/.well-known/adagents.json"),
 * };
 * const fetch = (input: string | URL | Request) => Promise.resolve(sites[String(input)]!());
 *
 * const fetched = await fetchAdagentsJson("pub.example", { fetch });
 * strictEqual(fetched.url, "https://www.pub.example/.well-known/adagents.json");
 * deepStrictEqual(fetched.document, { authorized_agents: [] });
 * await rejects(fetchAdagentsJson("moved.example", { fetch }), (error) => {
 *   strictEqual((error as AdagentsDiscoveryError).reason, "cross_registrable_domain");
 *   return true;
 * });
 * ```
 */
export async function fetchAdagentsJson(
  domainOrUrl: string | URL,
  options: FetchAdagentsJsonOptions = {},
): Promise<FetchedAdagentsJson> {
  objectOption(WELL_KNOWN_ACTION, "options", options);
  checkKeys(WELL_KNOWN_ACTION, "options", options, WELL_KNOWN_KEYS, NESTED);
  const policy = wellKnownPolicy(options, WELL_KNOWN_ACTION);
  const start = requestedUrl(domainOrUrl, true, policy, "domainOrUrl");
  return await fetchChain(start, policy);
}

/**
 * Fetches the authoritative adagents.json file an `authoritative_location` names: `https:` only,
 * the same SSRF checks, no redirect followed (any is refused as
 * `redirect_on_authoritative_location`), a 20 MB cap, one 10 s deadline, strict JSON, and no
 * nested `authoritative_location`. The rules are in `docs/bounded-reading.md`, "adagents.json
 * discovery".
 *
 * Spec: managed-networks.mdx, "How validators resolve pointer files" (single hop only) and
 * "Security considerations"; Security, "Webhook URL validation (SSRF)", step 4.
 *
 * @param url The `authoritative_location` (seller data: a malformed value is refused).
 * @param options `fetch`, limits, and the local-test opt-ins.
 * @returns The file and its URL (`redirects` is always empty).
 * @throws {AdagentsDiscoveryError} When the URL is refused, the answer is a redirect, or the file
 * is not a JSON object or has an `authoritative_location` of its own.
 * @throws {HttpStatusError | NetworkError | DeadlineExceededError | ResponseTooLargeError} As
 * {@link fetchAdagentsJson}.
 * @throws {MalformedUtf8Error | MalformedJsonError | JsonDepthLimitError | JsonNodeLimitError} As
 * {@link fetchAdagentsJson}, and `DuplicateKeyError` of `@adcp-wire/security`.
 * @throws {TypeError} When `url` is neither a string nor a URL, or an option has the wrong type or
 * an unknown key.
 * @throws {RangeError} When `timeoutMs` is above 10,000 or a limit is out of range.
 *
 * @example Refusing even a same-domain redirect
 * ```ts
 * import {
 *   type AdagentsDiscoveryError,
 *   fetchAuthoritativeAdagentsJson,
 * } from "@adcp-wire/transports/read";
 * import { ok, rejects, strictEqual } from "node:assert/strict";
 *
 * const location = "https://www.network.example/adagents.json";
 * const fetch = (input: string | URL | Request) =>
 *   Promise.resolve(
 *     String(input) === location
 *       ? Response.json({ authorized_agents: [] })
 *       : new Response(null, { status: 301, headers: { location } }),
 *   );
 * const fetched = await fetchAuthoritativeAdagentsJson(location, { fetch });
 * ok(Array.isArray(fetched.document.authorized_agents));
 * await rejects(
 *   fetchAuthoritativeAdagentsJson("https://network.example/adagents.json", { fetch }),
 *   (error) => {
 *     strictEqual((error as AdagentsDiscoveryError).reason, "redirect_on_authoritative_location");
 *     return true;
 *   },
 * );
 * ```
 */
export async function fetchAuthoritativeAdagentsJson(
  url: string | URL,
  options: AdagentsFetchOptions = {},
): Promise<FetchedAdagentsJson> {
  objectOption(AUTHORITATIVE_ACTION, "options", options);
  checkKeys(AUTHORITATIVE_ACTION, "options", options, AUTHORITATIVE_KEYS, NESTED);
  const policy = authoritativePolicy(options, [["options.limits", options.limits]]);
  const start = requestedUrl(url, false, policy, "url");
  return await fetchChain(start, policy);
}

/**
 * Discovers a publisher's adagents.json in the two steps of the pointer-file pattern: the
 * `/.well-known/adagents.json` fetch of {@link fetchAdagentsJson}, then, when that file has an
 * `authoritative_location`, the single further fetch of {@link fetchAuthoritativeAdagentsJson}.
 * Each fetch has its own deadline (at most 10 s each). Validating the file against the schema
 * and caching it (24 h on 5xx, 7 days at most) are the caller's.
 *
 * Spec: managed-networks.mdx, "The pointer file pattern", "How validators resolve pointer files"
 * and "Security considerations".
 *
 * @param domainOrUrl A domain or the absolute URL of the well-known file.
 * @param options As {@link fetchAdagentsJson}, plus `authoritativeLimits`.
 * @returns The file that holds the authorization, where it came from, and both fetches.
 * @throws {AdagentsDiscoveryError} As the two fetches; `invalid_url` for an
 * `authoritative_location` that is not a string.
 * @throws {HttpStatusError | NetworkError | DeadlineExceededError | ResponseTooLargeError} As
 * {@link fetchAdagentsJson}.
 * @throws {MalformedUtf8Error | MalformedJsonError | JsonDepthLimitError | JsonNodeLimitError} As
 * {@link fetchAdagentsJson}, and `DuplicateKeyError` of `@adcp-wire/security`.
 * @throws {TypeError | RangeError} As {@link fetchAdagentsJson}, for either set of limits, before
 * anything is requested.
 *
 * @example Following a pointer file to the network's file
 * ```ts
 * import { discoverAdagents } from "@adcp-wire/transports/read";
 * import { strictEqual } from "node:assert/strict";
 *
 * const network = "https://network.example/adagents/v2/adagents.json";
 * const files: Record<string, unknown> = {
 *   "https://cookingdaily.example/.well-known/adagents.json": {
 *     authoritative_location: network,
 *     last_updated: "2025-06-01T00:00:00Z",
 *   },
 *   [network]: { authorized_agents: [{ url: "https://sales.network.example" }] },
 * };
 * const fetch = (input: string | URL | Request) =>
 *   Promise.resolve(Response.json(files[String(input)]));
 * const found = await discoverAdagents("cookingdaily.example", { fetch });
 * strictEqual(found.url, network);
 * strictEqual(found.authoritative?.url, network);
 * strictEqual(found.wellKnown.document.authoritative_location, network);
 * ```
 */
export async function discoverAdagents(
  domainOrUrl: string | URL,
  options: DiscoverAdagentsOptions = {},
): Promise<DiscoveredAdagents> {
  objectOption(DISCOVER_ACTION, "options", options);
  checkKeys(DISCOVER_ACTION, "options", options, DISCOVER_KEYS, DISCOVER_NESTED);
  const pointerPolicy = wellKnownPolicy(options, DISCOVER_ACTION);
  objectOption(DISCOVER_ACTION, "options.authoritativeLimits", options.authoritativeLimits);
  const limits = options.limits;
  // The pointer's byte caps stay with the pointer; its deadline, signal and JSON bounds carry over.
  const shared: ResponseLimits | undefined = limits === undefined ? undefined : {
    timeoutMs: limits.timeoutMs,
    signal: limits.signal,
    maxJsonDepth: limits.maxJsonDepth,
    maxJsonNodes: limits.maxJsonNodes,
  };
  const authoritative = authoritativePolicy(options, [
    ["options.limits", shared],
    ["options.authoritativeLimits", options.authoritativeLimits],
  ], DISCOVER_ACTION);
  const start = requestedUrl(domainOrUrl, true, pointerPolicy, "domainOrUrl");
  const wellKnown = await fetchChain(start, pointerPolicy);
  const pointer = wellKnown.document;
  if (!Object.hasOwn(pointer, "authoritative_location")) {
    return { document: pointer, url: wellKnown.url, wellKnown, authoritative: undefined };
  }
  const location = pointer.authoritative_location;
  if (typeof location !== "string") throw new AdagentsDiscoveryError("invalid_url");
  const target = requestedUrl(location, false, authoritative, "authoritative_location");
  const fetched = await fetchChain(target, authoritative);
  return { document: fetched.document, url: fetched.url, wellKnown, authoritative: fetched };
}

/** The policy of the well-known fetch, options validated. */
function wellKnownPolicy(options: FetchAdagentsJsonOptions, action: string): ChainPolicy {
  objectOption(action, "options", options);
  const maxRedirects = integerOption(action, "options.maxRedirects", options.maxRedirects, 3);
  if (maxRedirects > ADAGENTS_MAX_REDIRECTS) {
    throw optionError(
      RangeError,
      action,
      "options.maxRedirects",
      `at most ${ADAGENTS_MAX_REDIRECTS} (the spec caps the chain at 3 hops)`,
      maxRedirects,
    );
  }
  return {
    authoritative: false,
    maxRedirects,
    ...common(options, action),
    limits: adagentsLimits([["options.limits", options.limits]], action, true),
    action,
  };
}

/** The policy of the authoritative fetch, options validated. */
function authoritativePolicy(
  options: AdagentsFetchOptions,
  layers: readonly (readonly [string, ResponseLimits | undefined])[],
  action = AUTHORITATIVE_ACTION,
): ChainPolicy {
  return {
    authoritative: true,
    maxRedirects: 0,
    ...common(options, action),
    limits: adagentsLimits(layers, action, false),
    action,
  };
}

function common(options: AdagentsFetchOptions, action: string): {
  fetch: FetchLike | undefined;
  allowHttp: boolean;
  allowReservedAddresses: boolean;
} {
  return {
    fetch: functionOption(action, "options.fetch", options.fetch),
    allowHttp: booleanOption(action, "options.allowHttp", options.allowHttp),
    allowReservedAddresses: booleanOption(
      action,
      "options.allowReservedAddresses",
      options.allowReservedAddresses,
    ),
  };
}

/**
 * Resolves the limit layers of one fetch with the tier's defaults: the byte caps default to the
 * tier's cap (a pointer's may not exceed it), the deadline to 10 s (never more).
 */
function adagentsLimits(
  layers: readonly (readonly [string, ResponseLimits | undefined])[],
  action: string,
  pointer: boolean,
): ResolvedLimits {
  const resolved = resolveLayers(layers.map(([name, limits]) => [name, limits, false]), action);
  const tierCap = pointer ? ADAGENTS_POINTER_MAX_BYTES : ADAGENTS_AUTHORITATIVE_MAX_BYTES;
  let bytes = tierCap;
  let decoded: number | undefined;
  let timeoutMs = ADAGENTS_TIMEOUT_MS;
  for (const [name, limits] of layers) {
    if (limits === undefined) continue;
    // Each field was checked (type and range) by resolveLayers.
    if (limits.maxResponseBytes !== undefined) {
      bytes = ceiling(action, `${name}.maxResponseBytes`, limits.maxResponseBytes, pointer);
    }
    if (limits.maxDecodedBytes !== undefined) {
      decoded = ceiling(action, `${name}.maxDecodedBytes`, limits.maxDecodedBytes, pointer);
    }
    if (limits.timeoutMs !== undefined) {
      if (limits.timeoutMs > ADAGENTS_TIMEOUT_MS) {
        throw optionError(
          RangeError,
          action,
          `${name}.timeoutMs`,
          `at most ${ADAGENTS_TIMEOUT_MS} (the spec's 10 s connect and read timeouts)`,
          limits.timeoutMs,
        );
      }
      timeoutMs = limits.timeoutMs;
    }
  }
  return { ...resolved, maxResponseBytes: bytes, maxDecodedBytes: decoded ?? bytes, timeoutMs };
}

function ceiling(action: string, name: string, value: number, pointer: boolean): number {
  if (pointer && value > ADAGENTS_POINTER_MAX_BYTES) {
    throw optionError(
      RangeError,
      action,
      name,
      `at most ${ADAGENTS_POINTER_MAX_BYTES} (the 5 MB pointer-file cap)`,
      value,
    );
  }
  return value;
}
