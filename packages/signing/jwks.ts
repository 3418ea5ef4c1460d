// JWKS key discovery: one SSRF-checked, bounded fetch of a JWK Set, a caching KeyResolver over one
// `jwks_uri`, a KeyResolver over a fixed set, and the default `jwks_uri` of an agent.
import { untilAborted } from "./_abort.ts";
import {
  checkOptionKeys,
  deepFreeze,
  integerOption,
  isJsonObject,
  optionError,
  optionKeys,
} from "@adcp-wire/internal";
import { JwksError } from "./errors.ts";
import type { AdcpJwk, AdcpJwks, KeyResolver, ResolveKeyContext } from "./keys.ts";
import { agentUrlOption, STATIC_KEY_SETS } from "./_signer_identity.ts";
import {
  FETCH_OPTION_FLAGS,
  fetchJwksFrom,
  type FetchSettings,
  fetchSettings,
  jwksUrl,
  optionsObject,
  parseHttpUrl,
  usableKeys,
} from "./_jwks_fetch.ts";
import {
  DEFAULT_JWKS_CACHE_TTL_MS,
  DEFAULT_JWKS_NEGATIVE_CACHE_MS,
  JWKS_REFETCH_COOLDOWN_MS,
  MAX_JWKS_CACHE_TTL_MS,
  MAX_JWKS_NEGATIVE_CACHE_MS,
  MIN_JWKS_CACHE_TTL_MS,
} from "./_jwks_limits.ts";

export {
  DEFAULT_JWKS_CACHE_TTL_MS,
  DEFAULT_JWKS_NEGATIVE_CACHE_MS,
  DEFAULT_JWKS_TIMEOUT_MS,
  DEFAULT_MAX_JWKS_BYTES,
  JWKS_REFETCH_COOLDOWN_MS,
  MAX_JWKS_CACHE_TTL_MS,
  MAX_JWKS_KEYS,
  MAX_JWKS_NEGATIVE_CACHE_MS,
  MIN_JWKS_CACHE_TTL_MS,
} from "./_jwks_limits.ts";

/** Options of {@link fetchJwks}. */
export interface FetchJwksOptions {
  /**
   * The `fetch` to use. The URL checks here are on the host as written (IP literals and
   * `localhost` names): a name that resolves to a reserved address is only refused by a `fetch`
   * that resolves the name, checks every address and pins the connection to the checked one
   * (security.mdx, "Webhook URL validation (SSRF)" steps 2 and 3), which the global `fetch` cannot
   * do. Server-side verifiers should pass one. It is called with `redirect: "manual"`,
   * `credentials: "omit"` and a signal it should honor (it is raced with the deadline either way).
   * No `cache` mode is set; in a browser, pass a `fetch` that sets `cache: "no-store"` so that a
   * refetch after a `kid` miss reaches the origin.
   * @default {globalThis.fetch}
   */
  readonly fetch?:
    | ((input: string | URL | Request, init?: RequestInit) => Promise<Response>)
    | undefined;
  /**
   * Aborts the fetch; it then rejects with the signal's reason, as `fetch` does.
   * @default {undefined}
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * One deadline over the request, the headers and the whole body, in milliseconds: an integer
   * from 1 to {@link DEFAULT_JWKS_TIMEOUT_MS} (a ceiling: the spec's total deadline is 10 s).
   * @default {10000}
   */
  readonly timeoutMs?: number | undefined;
  /**
   * The most bytes the body may have: an integer from 1 to {@link DEFAULT_MAX_JWKS_BYTES} (a
   * ceiling: `MAX_JWKS_BYTES` of the spec).
   * @default {65536}
   */
  readonly maxBytes?: number | undefined;
  /**
   * Lets an `http:` URL be fetched. For local tests only: production JWKS URLs are https.
   * @default {false}
   */
  readonly allowHttp?: boolean | undefined;
  /**
   * Lets a `localhost` name or a reserved IP literal (`127.0.0.1`, `10.0.0.1`, `[::1]`,
   * `169.254.169.254`…) be fetched. For local tests only.
   * @default {false}
   */
  readonly allowReservedAddresses?: boolean | undefined;
}

/** The keys of {@link FetchJwksOptions}. */
const FETCH_JWKS_KEYS = optionKeys<FetchJwksOptions>(FETCH_OPTION_FLAGS);

/**
 * Fetches a JSON Web Key Set once, under the SSRF rules and the JWKS budgets, and returns its
 * usable keys, frozen. Spec: security.mdx, "Key discovery (JWKS)", "Webhook URL validation
 * (SSRF)" steps 1-6, and the budgets of the `brand_json_url` quickstart.
 *
 * - **URL**: `https:` only (`http:` with `allowHttp`), no userinfo (even an empty `@`), not a
 *   `localhost` name or a reserved IP literal (`isReservedAddress` of `@adcp-wire/security`,
 *   unless `allowReservedAddresses`), at most 2,048 characters, no spaces or controls; the
 *   fragment is dropped. Refused as `untrusted` before anything is requested. Names are not
 *   resolved here: DNS-level filtering and pinning needs a `fetch` that does it (see
 *   {@link FetchJwksOptions.fetch}).
 * - **Redirects**: requested with `redirect: "manual"`; any 3xx, an opaque redirect, or an answer
 *   the `fetch` reached by following one is `untrusted`, and the `Location` is never requested.
 * - **Status**: any other non-2xx (404 and 5xx included) is `unavailable`.
 * - **Size**: a `Content-Length` over `maxBytes` is refused before the body is read; the body is
 *   streamed and the read stops at the first byte over `maxBytes`, whatever the header said.
 * - **Time**: one deadline of `timeoutMs` from the request to the last body byte, also over a
 *   `fetch` or a body that ignores the signal: `unavailable`.
 * - **Parse**: UTF-8 without a byte order mark, strict JSON with duplicate keys refused
 *   (`parseJsonStrict` of `@adcp-wire/security`), `Content-Type` not checked. Else `unavailable`.
 * - **Shape**: an object whose own `keys` is an array of at most {@link MAX_JWKS_KEYS} JSON
 *   objects; else the whole set is `unavailable`. Members other than `keys` are dropped.
 * - **Keys kept**: entries whose `kid` is a non-empty string held by no other entry. An entry
 *   without one cannot be named by a `keyid` and is dropped (RFC 7517 §5 says to ignore keys
 *   missing required members). A `kid` published twice breaks "MUST NOT collide" (security.mdx,
 *   "Agent key publication"): both entries are dropped, so that `kid` names no key and no reader
 *   can pick one of the two, while the set's other keys stay usable. The JWK members themselves
 *   (`kty`, `alg`, `use`, `key_ops`, `adcp_use`…) are not checked here: verifiers check them.
 *
 * Network failures are `unavailable` with the runtime's error as `cause` only: the message never
 * says refused, reset or TLS (SSRF step 6), and never echoes the URL or the body.
 *
 * @param url The JWKS URL (a `jwks_uri`, or {@link defaultJwksUri} of an agent URL).
 * @param options The `fetch`, signal, budgets and test switches.
 * @returns The usable keys, in published order, deeply frozen.
 * @throws {JwksError} `untrusted` when the URL or a redirect is refused, `unavailable` when the
 * fetch fails, times out, answers non-2xx or sends a body that is too large or not a JWK Set.
 * @throws {TypeError} When `url` is neither a string nor a URL, an option has the wrong type or
 * an unknown name (a misspelled or misplaced key, refused before any fetch: the message names the
 * nearest option), or `options.fetch` returns something other than a Response.
 * @throws {RangeError} When `timeoutMs` or `maxBytes` is out of range.
 * @throws The signal's reason, when `options.signal` aborts.
 *
 * @example Fetching a JWKS (with a stub `fetch`: nothing leaves the process)
 * ```ts
 * import { fetchJwks } from "@adcp-wire/signing";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const requested: string[] = [];
 * const jwks = await fetchJwks("https://keys.buyer.example/.well-known/jwks.json", {
 *   fetch: (input) => {
 *     requested.push(String(input));
 *     return Promise.resolve(Response.json({
 *       keys: [
 *         { kid: "k1", kty: "OKP", crv: "Ed25519", x: "AAAA" },
 *         { kty: "OKP", crv: "Ed25519", x: "BBBB" }, // no kid: dropped
 *         { kid: "twice", kty: "OKP" },
 *         { kid: "twice", kty: "EC" }, // a kid published twice names no key
 *       ],
 *     }));
 *   },
 * });
 * deepStrictEqual(jwks.keys.map((key) => key.kid), ["k1"]);
 * deepStrictEqual(requested, ["https://keys.buyer.example/.well-known/jwks.json"]);
 * strictEqual(Object.isFrozen(jwks.keys[0]), true);
 * ```
 *
 * @example Refusals: a reserved address is never requested, a redirect is never followed
 * ```ts
 * import { fetchJwks, JwksError } from "@adcp-wire/signing";
 * import { ok, rejects, strictEqual } from "node:assert/strict";
 *
 * let calls = 0;
 * const redirecting = () => {
 *   calls++;
 *   return Promise.resolve(
 *     new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } }),
 *   );
 * };
 * await rejects(fetchJwks("https://169.254.169.254/jwks.json", { fetch: redirecting }), (e) => {
 *   ok(e instanceof JwksError);
 *   return e.reason === "untrusted";
 * });
 * strictEqual(calls, 0);
 * await rejects(fetchJwks("https://keys.example/jwks.json", { fetch: redirecting }), (e) => {
 *   ok(e instanceof JwksError);
 *   strictEqual(e.code, "jwks_untrusted");
 *   return true;
 * });
 * strictEqual(calls, 1);
 * ```
 */
export async function fetchJwks(url: string | URL, options?: FetchJwksOptions): Promise<AdcpJwks> {
  const action = "fetch the JWKS";
  const raw = optionsObject<FetchJwksOptions>(options, action, FETCH_JWKS_KEYS);
  const settings = fetchSettings(raw, action);
  const checked = jwksUrl(url, settings, action, "url");
  return await fetchJwksFrom(checked, settings);
}

/** Options of {@link JwksResolver}: those of {@link fetchJwks} for every fetch, and the caching. */
export interface JwksResolverOptions extends FetchJwksOptions {
  /**
   * How long a fetched set is used, in milliseconds from the start of its fetch: an integer from
   * {@link MIN_JWKS_CACHE_TTL_MS} (1 minute) to {@link MAX_JWKS_CACHE_TTL_MS} (30 minutes).
   * Values outside are refused, not clamped. The spec bounds it above by the revocation-list
   * polling interval: a verifier polling more often than every 30 minutes should set it no higher
   * than its own interval. An expired set is dropped, never served while a refresh fails.
   * @default {300000}
   */
  readonly cacheTtlMs?: number | undefined;
  /**
   * The minimum time between two refetches a `kid` miss triggers: an integer from
   * {@link JWKS_REFETCH_COOLDOWN_MS} (the spec's minimum) to {@link MAX_JWKS_CACHE_TTL_MS}.
   * @default {30000}
   */
  readonly refetchCooldownMs?: number | undefined;
  /**
   * How long a failed fetch is remembered, its JwksError thrown again without fetching: an
   * integer from 0 (never remembered; concurrent calls still share one fetch) to
   * {@link MAX_JWKS_NEGATIVE_CACHE_MS} (the spec's 60 s ceiling).
   * @default {30000}
   */
  readonly negativeCacheMs?: number | undefined;
  /**
   * The clock of the cache, in milliseconds (any origin, finite numbers). For tests. Fetch
   * deadlines use real timers whatever this is.
   * @default {() => performance.now()}
   */
  readonly now?: (() => number) | undefined;
  /**
   * The `url` of the brand.json `agents[]` entry whose `jwks_uri` this is: the identity a
   * verifier reports for every key resolved here (`VerifiedSigner.agentUrl`, security.mdx,
   * "Agent identity"). An http(s) URL of at most 2,048 characters, kept as written.
   * {@link JwksResolver.forAgent} sets it from `resolveAgentJwksUri`. Without it a verifier's
   * sender id is `jwks:` and the JWKS URL.
   * @default {undefined}
   */
  readonly agentUrl?: string | undefined;
}

/** The keys of {@link JwksResolverOptions} but `agentUrl` ({@link JwksResolver.forAgent}'s). */
const FOR_AGENT_FLAGS = {
  ...FETCH_OPTION_FLAGS,
  cacheTtlMs: true,
  refetchCooldownMs: true,
  negativeCacheMs: true,
  now: true,
} as const satisfies {
  readonly [K in keyof Required<Omit<JwksResolverOptions, "agentUrl">>]: true;
};

/** The keys of the options of {@link JwksResolver.forAgent}. */
const FOR_AGENT_KEYS = optionKeys<Omit<JwksResolverOptions, "agentUrl">>(FOR_AGENT_FLAGS);

/** The keys of {@link JwksResolverOptions}. */
const JWKS_RESOLVER_KEYS = optionKeys<JwksResolverOptions>({ ...FOR_AGENT_FLAGS, agentUrl: true });

/** The keys of {@link ResolveKeyContext}. */
const RESOLVE_KEY_CONTEXT_KEYS = optionKeys<ResolveKeyContext>({ signal: true });

/** A fetched set, indexed. */
interface CachedSet {
  readonly byKid: ReadonlyMap<string, AdcpJwk>;
  /** The clock when its fetch started: the TTL runs from there. */
  readonly fetchedAt: number;
}

/** Whether a window of `length` that opened at `start` is still open at `now`. */
function open(now: number, start: number, length: number): boolean {
  // A clock that went back closes the window: the safe side for a TTL (refetch) and bounded for a
  // cooldown (the next refetch restarts it).
  const elapsed = now - start;
  return elapsed >= 0 && elapsed < length;
}

function indexKeys(keys: readonly AdcpJwk[]): Map<string, AdcpJwk> {
  // `usableKeys` left only unique, non-empty string kids.
  return new Map(keys.map((key) => [key.kid as string, key]));
}

function checkKeyid(keyid: unknown, action: string): asserts keyid is string {
  if (typeof keyid !== "string") throw optionError(TypeError, action, "keyid", "a string", keyid);
}

function contextSignal(context: unknown, action: string): AbortSignal | undefined {
  if (context === undefined) return undefined;
  if (!isJsonObject(context)) {
    throw optionError(TypeError, action, "context", "an object or undefined", context);
  }
  checkOptionKeys(action, "context", context, RESOLVE_KEY_CONTEXT_KEYS);
  const signal = (context as ResolveKeyContext).signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw optionError(TypeError, action, "context.signal", "an AbortSignal or undefined", signal);
  }
  return signal;
}

/**
 * A {@link KeyResolver} over one `jwks_uri`, fetched with {@link fetchJwks} (same URL rules and
 * budgets). Spec: security.mdx, "JWKS discovery for a signed request" step 3, "Key discovery
 * (JWKS)" step 5, "Key rotation".
 *
 * - The set is cached for `cacheTtlMs` from the start of its fetch; an expired set is dropped and
 *   fetched again on the next call. It never holds more than one set.
 * - A `kid` missing from a cached set refetches it immediately, unless a refetch for a miss
 *   started less than `refetchCooldownMs` ago: then `resolve` answers `undefined` without fetching
 *   (the verifier rejects with `request_signature_key_unknown`). The cooldown is between
 *   refetches, not before the first. A `kid` missing from a set this call (or a call it joined)
 *   just fetched answers `undefined` with no second fetch: that set came from the origin now.
 * - Concurrent calls that need a fetch share one, and each call's `context.signal` only stops that
 *   call's wait; `options.signal` aborts the fetch itself (a lifetime signal for the resolver).
 * - A failed fetch is remembered for `negativeCacheMs`: calls that would fetch throw the same
 *   {@link JwksError} instance without fetching. An abort is not remembered. A failed refetch
 *   after a miss keeps the cached set (still within its TTL) for the keys it has.
 *
 * @example Resolving, with one refetch on a kid miss (a stub `fetch` and a test clock)
 * ```ts
 * import { JwksResolver } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * let clock = 0;
 * let requests = 0;
 * const resolver = new JwksResolver("https://keys.seller.example/.well-known/jwks.json", {
 *   now: () => clock,
 *   fetch: () => {
 *     requests++;
 *     const keys = [{ kid: "old", kty: "OKP" }];
 *     if (requests > 1) keys.push({ kid: "new", kty: "OKP" }); // rotated in after the first
 *     return Promise.resolve(Response.json({ keys }));
 *   },
 * });
 * strictEqual((await resolver.resolve("old"))?.kid, "old");
 * strictEqual((await resolver.resolve("new"))?.kid, "new"); // miss: refetched once
 * strictEqual(await resolver.resolve("unknown"), undefined); // within the 30 s cooldown
 * strictEqual(requests, 2);
 * clock += 30_000;
 * strictEqual(await resolver.resolve("unknown"), undefined); // cooldown over: one refetch
 * strictEqual(requests, 3);
 * ```
 */
export class JwksResolver implements KeyResolver {
  readonly #url: URL;
  readonly #settings: FetchSettings;
  readonly #ttlMs: number;
  readonly #cooldownMs: number;
  readonly #negativeMs: number;
  readonly #now: () => number;
  #set: CachedSet | undefined;
  #failure: { readonly error: JwksError; readonly at: number } | undefined;
  #inflight: Promise<CachedSet> | undefined;
  #lastRefetchAt: number | undefined;
  readonly #agentUrl: string | undefined;

  /**
   * Makes a resolver for the keys of the agent `location` names (what `resolveAgentJwksUri`
   * found), bound to that agent: its `jwksUri`, and its `agentUrl` from the matched entry's `url`
   * (byte-equal to the agent URL asked about).
   *
   * Spec: security.mdx, "Agent identity" (`agent_url` is the `url` of the `agents[]` entry whose
   * `jwks_uri` resolved the keyid).
   *
   * @param location Where the agent's keys are published: an `AgentKeyLocation`.
   * @param options The fetch options and the cache settings (`agentUrl` is taken from `location`).
   * @returns The resolver.
   * @throws {JwksError} `untrusted` when the JWKS URL is refused.
   * @throws {TypeError} When `location` is not an agent key location, or an option has the wrong
   * type or an unknown name (`agentUrl` included: it comes from `location`).
   * @throws {RangeError} When a number option is out of range.
   *
   * @example A resolver that knows its agent
   * ```ts
   * import { JwksResolver, resolveAgentJwksUri } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const brand = { agents: [{ type: "sales", url: "https://seller.example/mcp" }] };
   * const fetch = () => Promise.resolve(Response.json(brand));
   * const location = await resolveAgentJwksUri("https://seller.example/mcp", { fetch });
   * const resolver = JwksResolver.forAgent(location);
   * strictEqual(resolver.agentUrl, "https://seller.example/mcp");
   * strictEqual(resolver.jwksUri, "https://seller.example/.well-known/jwks.json");
   * ```
   */
  static forAgent(
    location: {
      readonly agentUrl: string;
      readonly jwksUri: string;
      readonly entry?: Readonly<Record<string, unknown>>;
    },
    options?: Omit<JwksResolverOptions, "agentUrl">,
  ): JwksResolver {
    const action = "create a JwksResolver";
    if (!isJsonObject(location) || typeof location.jwksUri !== "string") {
      throw optionError(TypeError, action, "location", "an AgentKeyLocation", location);
    }
    if (typeof location.agentUrl !== "string") {
      throw optionError(TypeError, action, "location.agentUrl", "a string", location.agentUrl);
    }
    const entryUrl = isJsonObject(location.entry) ? location.entry.url : undefined;
    const agentUrl = typeof entryUrl === "string" ? entryUrl : location.agentUrl;
    return new JwksResolver(location.jwksUri, {
      ...optionsObject<Omit<JwksResolverOptions, "agentUrl">>(options, action, FOR_AGENT_KEYS),
      agentUrl,
    });
  }

  /**
   * Makes a resolver; nothing is fetched until the first {@link JwksResolver.resolve}.
   *
   * @param jwksUri The JWKS URL, checked now by the rules of {@link fetchJwks}.
   * @param options The fetch options and the cache settings.
   * @throws {JwksError} `untrusted` when the URL is refused (not https, userinfo, a reserved
   * address): no resolve could ever fetch it.
   * @throws {TypeError} When `jwksUri` is neither a string nor a URL, or an option has the wrong
   * type or an unknown name.
   * @throws {RangeError} When a number option is out of range.
   */
  constructor(jwksUri: string | URL, options?: JwksResolverOptions) {
    const action = "create a JwksResolver";
    const raw = optionsObject<JwksResolverOptions>(options, action, JWKS_RESOLVER_KEYS);
    this.#settings = fetchSettings(raw, action);
    this.#ttlMs = integerOption(
      action,
      "options.cacheTtlMs",
      raw.cacheTtlMs,
      DEFAULT_JWKS_CACHE_TTL_MS,
      { min: MIN_JWKS_CACHE_TTL_MS, max: MAX_JWKS_CACHE_TTL_MS },
    );
    this.#cooldownMs = integerOption(
      action,
      "options.refetchCooldownMs",
      raw.refetchCooldownMs,
      JWKS_REFETCH_COOLDOWN_MS,
      { min: JWKS_REFETCH_COOLDOWN_MS, max: MAX_JWKS_CACHE_TTL_MS },
    );
    this.#negativeMs = integerOption(
      action,
      "options.negativeCacheMs",
      raw.negativeCacheMs,
      DEFAULT_JWKS_NEGATIVE_CACHE_MS,
      { max: MAX_JWKS_NEGATIVE_CACHE_MS },
    );
    const now = raw.now;
    if (now !== undefined && typeof now !== "function") {
      throw optionError(TypeError, action, "options.now", "a function or undefined", now);
    }
    this.#now = now ?? (() => performance.now());
    this.#agentUrl = agentUrlOption(raw.agentUrl, action, "options.agentUrl");
    this.#url = jwksUrl(jwksUri, this.#settings, action, "jwksUri");
  }

  /**
   * The agent these keys belong to (the `agentUrl` option), or `undefined`.
   *
   * @example Usage
   * ```ts
   * import { JwksResolver } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const resolver = new JwksResolver("https://keys.seller.example/jwks.json", {
   *   agentUrl: "https://seller.example/mcp",
   * });
   * strictEqual(resolver.agentUrl, "https://seller.example/mcp");
   * strictEqual(new JwksResolver("https://keys.example/jwks.json").agentUrl, undefined);
   * ```
   */
  get agentUrl(): string | undefined {
    return this.#agentUrl;
  }

  /**
   * The JWKS URL fetched, normalized (no fragment).
   *
   * @example Usage
   * ```ts
   * import { JwksResolver } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const resolver = new JwksResolver("https://KEYS.example/jwks.json#top");
   * strictEqual(resolver.jwksUri, "https://keys.example/jwks.json");
   * ```
   */
  get jwksUri(): string {
    return this.#url.href;
  }

  /**
   * The JWK published under `keyid`, from the cache or after the fetch the rules above allow.
   *
   * @param keyid The `keyid` signature parameter, as received; compared byte for byte.
   * @param context `signal` stops this call's wait (it then rejects with the signal's reason).
   * @returns The frozen JWK, or `undefined` when the set has no usable key under `keyid`.
   * @throws {JwksError} When the set could not be fetched (`unavailable`) or the fetch was refused
   * (`untrusted`), now or within `negativeCacheMs` before.
   * @throws {TypeError} When `keyid` is not a string, `context.signal` is not an AbortSignal,
   * `context` has another key, or `options.now` returns something other than a finite number.
   *
   * @example Failures are remembered briefly and thrown again without fetching
   * ```ts
   * import { JwksError, JwksResolver } from "@adcp-wire/signing";
   * import { ok, rejects, strictEqual } from "node:assert/strict";
   *
   * let requests = 0;
   * const resolver = new JwksResolver("https://keys.example/jwks.json", {
   *   fetch: () => {
   *     requests++;
   *     return Promise.resolve(new Response("busy", { status: 503 }));
   *   },
   * });
   * let first: unknown;
   * await rejects(resolver.resolve("k1"), (error) => {
   *   first = error;
   *   ok(error instanceof JwksError);
   *   return error.reason === "unavailable";
   * });
   * await rejects(resolver.resolve("k1"), (error) => error === first);
   * strictEqual(requests, 1);
   * ```
   */
  async resolve(keyid: string, context?: ResolveKeyContext): Promise<AdcpJwk | undefined> {
    const action = "resolve a key";
    checkKeyid(keyid, action);
    const signal = contextSignal(context, action);
    if (signal?.aborted) throw signal.reason;
    const now = this.#clock();
    let set = this.#set;
    if (set !== undefined && !open(now, set.fetchedAt, this.#ttlMs)) {
      this.#set = set = undefined;
    }
    if (set !== undefined) {
      const hit = set.byKid.get(keyid);
      if (hit !== undefined) return hit;
      if (this.#inflight === undefined) {
        const last = this.#lastRefetchAt;
        if (last !== undefined && open(now, last, this.#cooldownMs)) return undefined;
        this.#throwRememberedFailure(now);
        this.#lastRefetchAt = now;
        this.#start(now);
      }
    } else if (this.#inflight === undefined) {
      this.#throwRememberedFailure(now);
      this.#start(now);
    }
    const fresh = await untilAborted(this.#inflight!, signal);
    return fresh.byKid.get(keyid);
  }

  #clock(): number {
    const value = this.#now();
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw optionError(
        TypeError,
        "resolve a key",
        "options.now()",
        "a function returning a finite number",
        value,
      );
    }
    return value;
  }

  #throwRememberedFailure(now: number): void {
    const failure = this.#failure;
    if (failure !== undefined && open(now, failure.at, this.#negativeMs)) throw failure.error;
  }

  #start(startedAt: number): void {
    const pending = (async (): Promise<CachedSet> => {
      try {
        const jwks = await fetchJwksFrom(this.#url, this.#settings);
        const set: CachedSet = { byKid: indexKeys(jwks.keys), fetchedAt: startedAt };
        this.#set = set;
        this.#failure = undefined;
        return set;
      } catch (error) {
        if (error instanceof JwksError) this.#failure = { error, at: this.#safeClock(startedAt) };
        throw error;
      } finally {
        this.#inflight = undefined;
      }
    })();
    // Every waiter may have stopped waiting: the outcome is still recorded, never unhandled.
    pending.catch(() => {});
    this.#inflight = pending;
  }

  /** The clock, or `fallback` when it misbehaves (the failure being recorded wins). */
  #safeClock(fallback: number): number {
    try {
      return this.#clock();
    } catch {
      return fallback;
    }
  }
}

/** Options of {@link StaticKeyResolver}. */
export interface StaticKeyResolverOptions {
  /**
   * The `url` of the brand.json `agents[]` entry these keys belong to (for pinned keys, the
   * pinned agent): the identity a verifier reports for every key of the set. An http(s) URL of
   * at most 2,048 characters, kept as written. Without it a verifier's sender id is `keys:` and a
   * SHA-256 digest of the set's public key material: one set, one sender.
   * @default {undefined}
   */
  readonly agentUrl?: string | undefined;
}

/** The keys of {@link StaticKeyResolverOptions}. */
const STATIC_KEY_RESOLVER_KEYS = optionKeys<StaticKeyResolverOptions>({ agentUrl: true });

/**
 * A {@link KeyResolver} over a fixed set of keys: pinned keys (a publisher's `adagents.json`
 * `authorized_agents[].signing_keys[]`, authoritative when present: security.mdx, "Publisher pin
 * precedence"), keys provisioned at onboarding, tests. Nothing is ever fetched.
 *
 * The keys are copied (`structuredClone`) and frozen when it is made, and kept by the rules of
 * {@link fetchJwks}: entries without a non-empty string `kid` are dropped, and a `kid` held by two
 * entries names no key. There is no cap on the number of keys.
 *
 * @example Resolving pinned keys
 * ```ts
 * import { StaticKeyResolver } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const resolver = new StaticKeyResolver([
 *   { kid: "pinned-1", kty: "OKP", crv: "Ed25519", x: "AAAA" },
 *   { kid: "dup", kty: "OKP" },
 *   { kid: "dup", kty: "EC" },
 * ]);
 * strictEqual((await resolver.resolve("pinned-1"))?.x, "AAAA");
 * strictEqual(await resolver.resolve("dup"), undefined);
 * strictEqual(await resolver.resolve("other"), undefined);
 * ```
 */
export class StaticKeyResolver implements KeyResolver {
  readonly #byKid: ReadonlyMap<string, AdcpJwk>;
  readonly #agentUrl: string | undefined;

  /**
   * Makes a resolver over `jwks`.
   *
   * @param jwks A JWK Set (`{ keys: [...] }`) or an array of JWKs.
   * @param options The agent the keys belong to.
   * @throws {TypeError} When `jwks` is neither, an entry is not an object, an entry cannot be
   * copied (a function, a symbol), `options.agentUrl` is not an http(s) URL, or `options` has
   * another key.
   */
  constructor(jwks: AdcpJwks | readonly AdcpJwk[], options?: StaticKeyResolverOptions) {
    const action = "create a StaticKeyResolver";
    const raw = optionsObject<StaticKeyResolverOptions>(options, action, STATIC_KEY_RESOLVER_KEYS);
    this.#agentUrl = agentUrlOption(raw.agentUrl, action, "options.agentUrl");
    let entries: unknown;
    let name: string;
    if (Array.isArray(jwks)) {
      entries = jwks;
      name = "jwks";
    } else if (isJsonObject(jwks) && Array.isArray(jwks.keys)) {
      entries = jwks.keys;
      name = "jwks.keys";
    } else {
      throw optionError(TypeError, action, "jwks", "a JWK Set or an array of JWKs", jwks);
    }
    const list = entries as readonly unknown[];
    for (let i = 0; i < list.length; i++) {
      if (!isJsonObject(list[i])) {
        throw optionError(TypeError, action, `${name}[${i}]`, "a JWK object", list[i]);
      }
    }
    let copies: AdcpJwk[];
    try {
      copies = structuredClone(list) as AdcpJwk[];
    } catch (error) {
      throw new TypeError(
        `Cannot ${action} as '${name}' must be JSON-like data: it cannot be copied`,
        { cause: error },
      );
    }
    const usable = deepFreeze(usableKeys(copies));
    this.#byKid = indexKeys(usable);
    STATIC_KEY_SETS.set(this, usable);
  }

  /**
   * The agent these keys belong to (the `agentUrl` option), or `undefined`.
   *
   * @example Usage
   * ```ts
   * import { StaticKeyResolver } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const pinned = new StaticKeyResolver([], { agentUrl: "https://seller.example/mcp" });
   * strictEqual(pinned.agentUrl, "https://seller.example/mcp");
   * ```
   */
  get agentUrl(): string | undefined {
    return this.#agentUrl;
  }

  /**
   * The JWK under `keyid`, or `undefined`; the set is fixed, so a miss is final.
   *
   * @param keyid The `keyid` signature parameter, as received; compared byte for byte.
   * @param _context Ignored: nothing is fetched.
   * @returns The frozen JWK, or `undefined`.
   * @throws {TypeError} When `keyid` is not a string.
   *
   * @example Usage
   * ```ts
   * import { StaticKeyResolver } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const resolver = new StaticKeyResolver({ keys: [{ kid: "k1", kty: "OKP" }] });
   * const key = await resolver.resolve("k1");
   * strictEqual(key?.kty, "OKP");
   * strictEqual(Object.isFrozen(key), true);
   * ```
   */
  resolve(keyid: string, _context?: ResolveKeyContext): Promise<AdcpJwk | undefined> {
    try {
      checkKeyid(keyid, "resolve a key");
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(this.#byKid.get(keyid));
  }
}

/**
 * The default `jwks_uri` of an agent: `/.well-known/jwks.json` at the origin (scheme, host, port:
 * RFC 6454) of the agent's URL, for a brand.json `agents[]` entry without `jwks_uri`. Spec:
 * security.mdx, "JWKS discovery for a signed request" step 2, "Key discovery (JWKS)" step 3.
 *
 * The origin is the URL parser's: lowercase host in A-label (punycode) form, default port
 * dropped, path, query and fragment discarded. The agent URL may be seller data, so a malformed
 * one is a {@link JwksError} (`untrusted`), as is one that is not `http:`/`https:` or carries
 * userinfo; whether the result may be fetched (`https:`, no reserved address) is
 * {@link fetchJwks}'s check.
 *
 * @param agentUrl The agent's `url`, as in brand.json.
 * @returns The JWKS URL.
 * @throws {JwksError} `untrusted` when `agentUrl` is not a usable http(s) URL or has userinfo.
 * @throws {TypeError} When `agentUrl` is neither a string nor a URL.
 *
 * @example Usage
 * ```ts
 * import { defaultJwksUri } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   defaultJwksUri("https://Agent.Seller.example:443/mcp?x=1"),
 *   "https://agent.seller.example/.well-known/jwks.json",
 * );
 * strictEqual(
 *   defaultJwksUri(new URL("https://seller.example:8443/a2a")),
 *   "https://seller.example:8443/.well-known/jwks.json",
 * );
 * ```
 */
export function defaultJwksUri(agentUrl: string | URL): string {
  const url = parseHttpUrl(agentUrl, "derive the default JWKS URL", "agentUrl", "agent URL");
  return `${url.origin}/.well-known/jwks.json`;
}
