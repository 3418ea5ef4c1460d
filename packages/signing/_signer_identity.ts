// The verified signer identity (security.mdx, "Agent identity"): the brand.json `agents[]` entry
// URL a key source is bound to, and the sender id a verifier reports, from that URL or, for a key
// source that names no agent, from the source itself (never from a keyid).
import { optionError } from "@adcp-wire/internal";
import { encodeBinary } from "./_binary.ts";
import type { AdcpJwk, KeyResolver } from "./keys.ts";

/** The longest agent URL accepted as an identity, in UTF-16 units. */
const MAX_AGENT_URL_LENGTH = 2048;

/** The usable keys of every `StaticKeyResolver`, for the sender id of a set that names no agent. */
export const STATIC_KEY_SETS: WeakMap<object, readonly AdcpJwk[]> = new WeakMap();

/** Who signed, as far as the verifier's configuration establishes it. */
export interface SignerIdentity {
  /** The `agents[]` entry URL the keys belong to, when the configuration names it. */
  readonly agentUrl?: string;
  /** The dedup and budget identity: `agentUrl`, or the key source's fallback. */
  readonly senderId: string;
}

/**
 * An `agentUrl` option: an absolute http(s) URL of 1 to 2048 characters, kept as written (the
 * spec matches `agents[].url` byte for byte, so it is never canonicalized).
 */
export function agentUrlOption(value: unknown, action: string, name: string): string | undefined {
  if (value === undefined) return undefined;
  const expected = "an http(s) agent URL of 1 to 2048 characters";
  if (typeof value !== "string" || value === "" || value.length > MAX_AGENT_URL_LENGTH) {
    throw optionError(TypeError, action, name, expected, value);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw optionError(TypeError, action, name, expected, value);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw optionError(TypeError, action, name, expected, value);
  }
  return value;
}

/** `sha-256:` and the unpadded Base64URL SHA-256 of the public key material of a fixed set. */
async function keySetDigest(keys: readonly AdcpJwk[]): Promise<string> {
  const material = [
    ...new Set(keys.map((key) => JSON.stringify([key.kty, key.crv, key.x, key.y]))),
  ].sort();
  const bytes = new TextEncoder().encode(JSON.stringify(material));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha-256:${encodeBinary(digest, "base64url")}`;
}

/**
 * The identity a verifier reports for every signer of `keys`, worked out once (lazily: the
 * digest of a fixed set needs Web Crypto). `agentUrl` (the verifier's option) and the resolver's
 * own `agentUrl` must agree when both are given. A source that names no agent falls back to
 * `jwks:<jwks_uri>` for a resolver exposing `jwksUri`, to `keys:sha-256:<digest>` for a fixed set
 * (its public key material, so one configured set is one sender, across processes), and is a
 * TypeError for any other resolver: its keyids could be many sellers' or one seller's thousand.
 */
export function signerIdentityOf(
  keys: KeyResolver,
  agentUrl: string | undefined,
  action: string,
  verifyAction: string,
): () => Promise<SignerIdentity> {
  const own = (keys as { readonly agentUrl?: unknown }).agentUrl;
  const named = own === undefined ? undefined : agentUrlOption(own, action, "keys.agentUrl");
  if (agentUrl !== undefined && named !== undefined && agentUrl !== named) {
    throw optionError(
      RangeError,
      action,
      "agentUrl",
      `the agent URL its keys were resolved for (${JSON.stringify(named)})`,
      agentUrl,
    );
  }
  const url = agentUrl ?? named;
  if (url !== undefined) {
    const identity = Promise.resolve<SignerIdentity>({ agentUrl: url, senderId: url });
    return () => identity;
  }
  const jwksUri = (keys as { readonly jwksUri?: unknown }).jwksUri;
  if (typeof jwksUri === "string") {
    const identity = Promise.resolve<SignerIdentity>({ senderId: `jwks:${jwksUri}` });
    return () => identity;
  }
  const fixed = STATIC_KEY_SETS.get(keys);
  if (fixed !== undefined) {
    let identity: Promise<SignerIdentity> | undefined;
    return () =>
      identity ??= keySetDigest(fixed).then((digest) => ({ senderId: `keys:${digest}` }));
  }
  return () =>
    Promise.reject(
      optionError(
        TypeError,
        verifyAction,
        "agentUrl",
        "the agents[] entry URL of a key source that names no agent (a KeyResolver without " +
          "agentUrl or jwksUri)",
        undefined,
      ),
    );
}
