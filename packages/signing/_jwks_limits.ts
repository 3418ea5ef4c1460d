// The limits of JWKS discovery, declared once: `jwks.ts` exports them, `_jwks_fetch.ts` uses them.
// The rules and why each value was chosen are in the doc comments of `jwks.ts`.

/**
 * The byte cap of one JWKS document, and the highest `maxBytes` accepted: `MAX_JWKS_BYTES`
 * (64 KiB) of security.mdx, "Key discovery (JWKS)" step 3 and the `brand_json_url` quickstart.
 * Bytes received are counted; a larger `Content-Length` is refused before the body is read.
 */
export const DEFAULT_MAX_JWKS_BYTES = 65_536;

/**
 * The deadline of one JWKS fetch, over the headers and the whole body, and the highest
 * `timeoutMs` accepted: the 10 s total deadline of security.mdx, `brand_json_url` quickstart
 * step 8. `fetch` has no separate connect timeout; the 5 s connect budget is within this one.
 */
export const DEFAULT_JWKS_TIMEOUT_MS = 10_000;

/** How long a fetched JWKS is used before it is fetched again (5 minutes). */
export const DEFAULT_JWKS_CACHE_TTL_MS = 300_000;

/** The lowest `cacheTtlMs` accepted: the 1 minute floor of revocation polling (security.mdx). */
export const MIN_JWKS_CACHE_TTL_MS = 60_000;

/**
 * The highest `cacheTtlMs` accepted: the 30 minute ceiling of revocation polling, which a JWKS
 * cache TTL MUST NOT exceed (security.mdx, "Key discovery (JWKS)" and "Revocation").
 */
export const MAX_JWKS_CACHE_TTL_MS = 1_800_000;

/**
 * The minimum time between two refetches a `kid` miss triggers, and the default
 * `refetchCooldownMs` (security.mdx, "JWKS discovery for a signed request" step 3, "Key
 * rotation").
 */
export const JWKS_REFETCH_COOLDOWN_MS = 30_000;

/** How long a failed fetch is remembered by default (the error is rethrown without fetching). */
export const DEFAULT_JWKS_NEGATIVE_CACHE_MS = 30_000;

/**
 * The highest `negativeCacheMs` accepted: negative responses MUST NOT be cached for more than
 * 60 s (security.mdx, `brand_json_url` discovery step 4, applied to the JWKS fetch too).
 */
export const MAX_JWKS_NEGATIVE_CACHE_MS = 60_000;

/** The most entries a JWKS `keys` array may hold; a longer one is refused whole. */
export const MAX_JWKS_KEYS = 1_000;
