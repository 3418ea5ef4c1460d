// Fresh signing keys for the package's tests: a private CryptoKey and its published JWK.
import type { AdcpJwk } from "./keys.ts";

/** The two algorithms of the profile. */
export type TestAlg = "ed25519" | "ecdsa-p256-sha256";

/** A key pair as a signer holds it and a verifier's JWKS publishes it. */
export interface TestKey {
  readonly kid: string;
  readonly alg: TestAlg;
  readonly privateKey: CryptoKey;
  readonly jwk: AdcpJwk;
}

/** A fresh key pair under `kid`, its JWK published for request signing. */
export async function makeKey(kid: string, alg: TestAlg): Promise<TestKey> {
  const params = alg === "ed25519"
    ? { name: "Ed25519" }
    : { name: "ECDSA", namedCurve: "P-256" } as EcKeyGenParams;
  const pair = await crypto.subtle.generateKey(params, true, ["sign", "verify"]) as CryptoKeyPair;
  const exported = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const jwk: AdcpJwk = {
    ...exported,
    kid,
    alg: alg === "ed25519" ? "EdDSA" : "ES256",
    use: "sig",
    key_ops: ["verify"],
    adcp_use: "request-signing",
  };
  return { kid, alg, privateKey: pair.privateKey, jwk };
}
