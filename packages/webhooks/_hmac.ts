// Private primitives of the legacy webhook HMAC-SHA256 scheme (deprecated in AdCP 3.x, removed in
// 4.0): the key registry behind the opaque LegacyWebhookSecret, the signed message, the signature
// text and the constant-time comparison. Not exported from mod.ts; the conformance impl
// (scripts/_impl/webhook_hmac.ts) uses legacyHmacSignature to answer the signature-computation
// vectors, whose bodies the public signer refuses (duplicate keys) by design.

/** The opaque handle of an imported secret; its key lives in {@link KEYS}. */
export interface SecretHandle {
  /** Always `"legacy-webhook-secret"`. */
  readonly kind: "legacy-webhook-secret";
}

/**
 * The non-extractable HMAC key of every handle made by {@link registerSecret}. A WeakMap, so that
 * a handle cannot be forged by building an object of the same shape, and holds nothing readable.
 */
const KEYS = new WeakMap<object, CryptoKey>();

/** Makes a handle for `key`. */
export function registerSecret(key: CryptoKey): SecretHandle {
  const handle: SecretHandle = Object.freeze({ kind: "legacy-webhook-secret" });
  KEYS.set(handle, key);
  return handle;
}

/** The key of a handle made by {@link registerSecret}, or `undefined` for any other value. */
export function keyOf(handle: unknown): CryptoKey | undefined {
  return typeof handle === "object" && handle !== null ? KEYS.get(handle) : undefined;
}

/** Imports raw secret bytes as a non-extractable HMAC-SHA256 key. */
export function importHmacKey(bytes: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    copyBytes(bytes),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

/** The prefix of the signature header value. */
export const SIGNATURE_PREFIX = "sha256=";
/** The length of a well-formed signature header value: the prefix and 64 hex digits. */
export const SIGNATURE_LENGTH = SIGNATURE_PREFIX.length + 64;

const encoder = new TextEncoder();

/** A copy of `bytes` on its own `ArrayBuffer` (what Web Crypto takes). */
export function copyBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** The UTF-8 bytes of `text` (lone surrogates as U+FFFD, as `TextEncoder` writes them). */
export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

/** The signed message `{timestamp}.{rawBody}`: ASCII timestamp, a dot, then the body bytes. */
export function signedMessage(timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const message = new Uint8Array(timestamp.length + 1 + body.length);
  for (let i = 0; i < timestamp.length; i++) message[i] = timestamp.charCodeAt(i);
  message[timestamp.length] = 0x2e; // "."
  message.set(body, timestamp.length + 1);
  return message;
}

/** The 32 raw bytes of HMAC-SHA256(key, `{timestamp}.{body}`). */
export async function hmacBytes(
  key: CryptoKey,
  timestamp: string,
  body: Uint8Array,
): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, signedMessage(timestamp, body)));
}

const HEX = "0123456789abcdef";

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte >> 4]! + HEX[byte & 0x0f]!;
  return out;
}

/**
 * The 32 bytes of a signature header value already checked to be `sha256=` and 64 lower-case hex
 * digits. Decoding is of the sender's own value, so its timing reveals nothing secret.
 */
export function signatureBytes(signature: string): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const at = SIGNATURE_PREFIX.length + 2 * i;
    out[i] = (nibble(signature.charCodeAt(at)) << 4) | nibble(signature.charCodeAt(at + 1));
  }
  return out;
}

function nibble(unit: number): number {
  return unit <= 0x39 ? unit - 0x30 : unit - 0x61 + 10;
}

/** Whether `signature` is exactly `sha256=` followed by 64 lower-case hex digits. */
export function isWellFormedSignature(signature: string): boolean {
  if (signature.length !== SIGNATURE_LENGTH || !signature.startsWith(SIGNATURE_PREFIX)) {
    return false;
  }
  for (let i = SIGNATURE_PREFIX.length; i < SIGNATURE_LENGTH; i++) {
    const unit = signature.charCodeAt(i);
    if (!((unit >= 0x30 && unit <= 0x39) || (unit >= 0x61 && unit <= 0x66))) return false;
  }
  return true;
}

/**
 * Compares two byte sequences of equal length in time that depends on the length only: every
 * index of both is read, the differences are OR-ed together, and there is no branch on the data
 * and no early exit. Sequences of different lengths are unequal at once (the length is public:
 * both are 32-byte HMAC outputs here).
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, "Timing-safe comparison".
 */
export function constantTimeEqual(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  const length = a.length;
  if (length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * The signature header value `sha256=<hex>` of `body` at `timestamp` under an imported secret:
 * the scheme's signature function over the bytes as given, with no check of the body. The public
 * signer checks the body first (duplicate keys); this is also what the conformance impl uses for
 * the signature-computation vectors.
 *
 * Spec: webhooks.mdx, Legacy HMAC-SHA256 fallback, "Signature algorithm (legacy)".
 */
export async function legacyHmacSignature(
  secret: SecretHandle,
  timestamp: string,
  body: Uint8Array,
): Promise<string> {
  const key = keyOf(secret);
  if (key === undefined) throw new TypeError("Cannot sign: the secret is not an imported secret");
  return SIGNATURE_PREFIX + toHex(await hmacBytes(key, timestamp, body));
}
