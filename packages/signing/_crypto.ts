// Web Crypto for the two algorithms of the profile: key import from JWKs (cached), sign, verify,
// SHA-256/512 digests. Nothing else: no library, no other algorithm.
import type { AdcpJwk } from "./keys.ts";

/** RFC 9421 `alg` names the profile allows. */
export type SignatureAlgorithm = "ed25519" | "ecdsa-p256-sha256";

/** The allow-list of step 4, and what each name requires of the key (RFC 8037, RFC 7518). */
export const ALGORITHMS: ReadonlyMap<
  string,
  { readonly jwkAlg: string; readonly kty: string; readonly crv: string }
> = new Map([
  ["ed25519", { jwkAlg: "EdDSA", kty: "OKP", crv: "Ed25519" }],
  ["ecdsa-p256-sha256", { jwkAlg: "ES256", kty: "EC", crv: "P-256" }],
]);

const B64URL = /^[A-Za-z0-9_-]+$/;

function importParams(alg: SignatureAlgorithm): EcKeyImportParams | Algorithm {
  return alg === "ed25519" ? { name: "Ed25519" } : { name: "ECDSA", namedCurve: "P-256" };
}

function signParams(alg: SignatureAlgorithm): EcdsaParams | Algorithm {
  return alg === "ed25519" ? { name: "Ed25519" } : { name: "ECDSA", hash: "SHA-256" };
}

/** Imported public keys by their material: the same JWK is imported once. */
const PUBLIC_KEYS = new Map<string, Promise<CryptoKey>>();
const MAX_CACHED_KEYS = 1_024;

/**
 * The public CryptoKey of a JWK whose `kty`/`crv` already match `alg` (step 8 checked them), or
 * `undefined` when its material does not import. Only the key members are handed to Web Crypto
 * (strict consumers refuse `adcp_use`; security.mdx, "Implementer note").
 */
export async function publicKeyOf(
  jwk: AdcpJwk,
  alg: SignatureAlgorithm,
): Promise<CryptoKey | undefined> {
  const { x, y } = jwk;
  if (typeof x !== "string" || !B64URL.test(x)) return undefined;
  if (alg !== "ed25519" && (typeof y !== "string" || !B64URL.test(y))) return undefined;
  const id = `${alg}|${x}|${alg === "ed25519" ? "" : y}`;
  let pending = PUBLIC_KEYS.get(id);
  if (pending === undefined) {
    const material: JsonWebKey = alg === "ed25519"
      ? { kty: "OKP", crv: "Ed25519", x }
      : { kty: "EC", crv: "P-256", x, y: y as string };
    pending = crypto.subtle.importKey("jwk", material, importParams(alg), false, ["verify"]);
    if (PUBLIC_KEYS.size >= MAX_CACHED_KEYS) PUBLIC_KEYS.clear();
    PUBLIC_KEYS.set(id, pending);
    pending.catch(() => PUBLIC_KEYS.delete(id));
  }
  try {
    return await pending;
  } catch {
    return undefined;
  }
}

/** Imports a private JWK (`d` present) for signing. */
export function privateKeyOf(jwk: JsonWebKey, alg: SignatureAlgorithm): Promise<CryptoKey> {
  const material: JsonWebKey = alg === "ed25519"
    ? { kty: "OKP", crv: "Ed25519", x: jwk.x as string, d: jwk.d as string }
    : { kty: "EC", crv: "P-256", x: jwk.x as string, y: jwk.y as string, d: jwk.d as string };
  return crypto.subtle.importKey("jwk", material, importParams(alg), false, ["sign"]);
}

/** Whether `signature` (raw; IEEE P1363 r||s for ECDSA) verifies `base` under `key`. */
export async function verifyBytes(
  alg: SignatureAlgorithm,
  key: CryptoKey,
  signature: Uint8Array,
  base: Uint8Array,
): Promise<boolean> {
  if (signature.length !== 64) return false;
  try {
    return await crypto.subtle.verify(
      signParams(alg),
      key,
      signature as Uint8Array<ArrayBuffer>,
      base as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return false;
  }
}

/** Signs `base` (IEEE P1363 r||s for ECDSA, as Web Crypto returns it). */
export async function signBytes(
  alg: SignatureAlgorithm,
  key: CryptoKey,
  base: Uint8Array,
): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.sign(signParams(alg), key, base as Uint8Array<ArrayBuffer>),
  );
}

/** The digest of `body` under an RFC 9530 algorithm name (`sha-256`, `sha-512`). */
export async function digestOf(
  algorithm: "sha-256" | "sha-512",
  body: Uint8Array,
): Promise<Uint8Array> {
  const name = algorithm === "sha-256" ? "SHA-256" : "SHA-512";
  return new Uint8Array(await crypto.subtle.digest(name, body as Uint8Array<ArrayBuffer>));
}

/** Byte equality (the compared values are public digests: no constant-time need). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
