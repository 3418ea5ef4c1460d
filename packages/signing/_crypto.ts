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

/** Imports a private JWK (`d` present, checked by {@link signingKeyProblem}) for signing. */
export function privateKeyOf(jwk: JsonWebKey, alg: SignatureAlgorithm): Promise<CryptoKey> {
  const material: JsonWebKey = alg === "ed25519"
    ? { kty: "OKP", crv: "Ed25519", x: jwk.x as string, d: jwk.d as string }
    : { kty: "EC", crv: "P-256", x: jwk.x as string, y: jwk.y as string, d: jwk.d as string };
  return crypto.subtle.importKey("jwk", material, importParams(alg), false, ["sign"]);
}

/** A 32-byte value in unpadded Base64URL (RFC 8037 `x`/`d`, RFC 7518 P-256 `x`/`y`/`d`). */
const B64URL_32 = /^[A-Za-z0-9_-]{43}$/;

/** What is wrong with a signing key: the member that is wrong, what it must be, what it is. */
export interface KeyProblem {
  readonly member: string;
  readonly requirement: string;
  readonly value: unknown;
}

/**
 * Why `key` cannot sign under `alg`, or `undefined` when it can as far as can be seen without
 * signing. A CryptoKey must be private, carry the `sign` usage and be of the algorithm (Ed25519,
 * or ECDSA on P-256; the hash is the one `alg` names at signing). A JWK must be private (`d`),
 * have the `kty` and `crv` of `alg`, 32-byte `x` (`y`) and `d`, and, when present, the JWK `alg`
 * of the profile (`EdDSA`, `ES256`) and `use: "sig"` (RFC 7517 §4.2, §4.4). `key_ops` is not read:
 * a signing JWK is often the published entry (`key_ops: ["verify"]`) with `d` added.
 */
export function signingKeyProblem(key: unknown, alg: SignatureAlgorithm): KeyProblem | undefined {
  const spec = ALGORITHMS.get(alg)!;
  if (typeof CryptoKey !== "undefined" && key instanceof CryptoKey) {
    if (key.type !== "private") {
      return {
        member: "key.type",
        requirement: '"private" (the public key goes in the JWKS, the private one signs)',
        value: key.type,
      };
    }
    if (!key.usages.includes("sign")) {
      return { member: "key.usages", requirement: 'a list with "sign"', value: key.usages.join() };
    }
    const algorithm = key.algorithm as Partial<EcKeyAlgorithm>;
    const ok = alg === "ed25519"
      ? algorithm.name === "Ed25519"
      : algorithm.name === "ECDSA" && algorithm.namedCurve === "P-256";
    if (!ok) {
      return {
        member: "key.algorithm",
        requirement: alg === "ed25519"
          ? 'Ed25519 for alg "ed25519"'
          : 'ECDSA on P-256 for alg "ecdsa-p256-sha256"',
        value: [algorithm.name, algorithm.namedCurve].filter((v) => v !== undefined).join(" "),
      };
    }
    return undefined;
  }
  if (typeof key !== "object" || key === null || Array.isArray(key)) {
    return { member: "key", requirement: "a CryptoKey or a private JWK", value: key };
  }
  const jwk = key as JsonWebKey;
  if (typeof jwk.d !== "string") {
    return { member: "key", requirement: "a CryptoKey or a private JWK", value: key };
  }
  if (jwk.kty !== spec.kty) {
    return { member: "key.kty", requirement: `"${spec.kty}" for alg "${alg}"`, value: jwk.kty };
  }
  if (jwk.crv !== spec.crv) {
    return { member: "key.crv", requirement: `"${spec.crv}" for alg "${alg}"`, value: jwk.crv };
  }
  const members = alg === "ed25519" ? ["x", "d"] as const : ["x", "y", "d"] as const;
  for (const name of members) {
    const value = jwk[name];
    if (typeof value !== "string" || !B64URL_32.test(value)) {
      // `d` is secret: its value is never shown.
      return {
        member: `key.${name}`,
        requirement: "32 bytes in unpadded Base64URL (43 characters)",
        value: name === "d" ? "(not shown: the private key)" : value,
      };
    }
  }
  if (jwk.alg !== undefined && jwk.alg !== spec.jwkAlg) {
    return { member: "key.alg", requirement: `"${spec.jwkAlg}" for alg "${alg}"`, value: jwk.alg };
  }
  if (jwk.use !== undefined && jwk.use !== "sig") {
    return { member: "key.use", requirement: '"sig"', value: jwk.use };
  }
  return undefined;
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
