// The key shapes and the key-resolution interface every verifier of this package reads keys
// through: a static set, the JWKS fetcher of `jwks.ts`, or a caller's own store.

/**
 * A public JSON Web Key as an AdCP agent publishes it (RFC 7517, RFC 8037), with the AdCP
 * purpose member `adcp_use`. Every member is seller- or buyer-controlled data: verifiers check
 * each one before use (security.mdx, "Agent key publication").
 */
export interface AdcpJwk {
  /** Key id, unique within its JWKS. */
  readonly kid?: string;
  /** `OKP` (Ed25519) or `EC` (P-256). */
  readonly kty?: string;
  /** `Ed25519` or `P-256`. */
  readonly crv?: string;
  /** JWS algorithm name: `EdDSA` or `ES256`. */
  readonly alg?: string;
  /** `sig` for signing keys. */
  readonly use?: string;
  /** Must include `verify` on a published key. */
  readonly key_ops?: readonly string[];
  /** AdCP key purpose: `request-signing` (requests and webhooks); `webhook-signing`. */
  readonly adcp_use?: string;
  /** Public key material, unpadded Base64URL. */
  readonly x?: string;
  /** Second coordinate of a P-256 key, unpadded Base64URL. */
  readonly y?: string;
  /** Any other member, kept as published. */
  readonly [member: string]: unknown;
}

/** A JSON Web Key Set (RFC 7517 §5). */
export interface AdcpJwks {
  /** The keys, in published order. */
  readonly keys: readonly AdcpJwk[];
}

/** What a verifier passes to {@link KeyResolver.resolve}. */
export interface ResolveKeyContext {
  /** Aborts a fetch the resolver makes. */
  readonly signal?: AbortSignal;
}

/**
 * Where a verifier gets the public key a `keyid` names. `resolve` answers `undefined` for a key
 * it does not know after any refetch it allows (a JWKS resolver refetches once on a miss, with a
 * 30 s cooldown between refetches), and throws a {@link JwksError} when the key source could not
 * be read (`unavailable`) or may not be read (`untrusted`).
 */
export interface KeyResolver {
  /**
   * The JWK published under `keyid`, or `undefined` when there is none.
   *
   * @param keyid The `keyid` signature parameter, as received.
   * @param context The signal of the verification.
   */
  resolve(keyid: string, context?: ResolveKeyContext): Promise<AdcpJwk | undefined>;
}
