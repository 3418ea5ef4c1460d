// Option reading shared by the verifiers and signers.
import { optionError } from "@adcp-wire/internal";
import type { AdcpJwk, AdcpJwks, KeyResolver } from "./keys.ts";
import type { RevocationSource } from "./revocation.ts";
import { StaticKeyResolver } from "./jwks.ts";

/** A key source: a resolver, or a fixed JWKS / list of JWKs. */
export type KeysOption = KeyResolver | AdcpJwks | readonly AdcpJwk[];

/** The resolver of a `keys` option. */
export function keyResolverOf(keys: unknown, action: string): KeyResolver {
  if (Array.isArray(keys)) return new StaticKeyResolver(keys as readonly AdcpJwk[]);
  if (typeof keys === "object" && keys !== null) {
    if (typeof (keys as KeyResolver).resolve === "function") return keys as KeyResolver;
    if (Array.isArray((keys as AdcpJwks).keys)) return new StaticKeyResolver(keys as AdcpJwks);
  }
  throw optionError(TypeError, action, "keys", "a KeyResolver, a JWKS or an array of JWKs", keys);
}

/** A clock option: milliseconds since the epoch. */
export function clockOf(now: unknown, action: string): () => number {
  if (now === undefined) return Date.now;
  if (typeof now !== "function") throw optionError(TypeError, action, "now", "a function", now);
  const clock = now as () => unknown;
  // Checked on every reading: a NaN clock would open every window and blind the replay cache.
  return () => {
    const value = clock();
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw optionError(TypeError, action, "now()", "a finite number of milliseconds", value);
    }
    return value;
  };
}

/** An options object (undefined is an empty one). */
export function optionsObject<T extends object>(value: T | undefined, action: string): Partial<T> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null) {
    throw optionError(TypeError, action, "options", "an object", value);
  }
  return value;
}

/**
 * The `revocation` option: a source, or `null` to skip step 9 deliberately. Absent is refused, so
 * that no verifier skips revocation by omission.
 */
export function revocationOf(value: unknown, action: string): RevocationSource | undefined {
  if (value === null) return undefined;
  if (
    typeof value !== "object" || value === undefined ||
    typeof (value as RevocationSource).status !== "function"
  ) {
    throw optionError(
      TypeError,
      action,
      "revocation",
      "a RevocationSource, or null to skip step 9 for keys without a revocation list",
      value,
    );
  }
  return value as RevocationSource;
}
