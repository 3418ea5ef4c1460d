// The legacy webhook HMAC-SHA256 scheme (deprecated in AdCP 3.x, removed in AdCP 4.0): importing a
// shared secret, signing a body, verifying a delivery. Web Crypto only.
import {
  checkOptionKeys,
  describeShape,
  optionError,
  type OptionKeys,
  optionKeys,
  utf8LengthExceeds,
} from "@adcp-wire/internal";
import { DuplicateKeyError, findDuplicateKeys, parseJsonStrict } from "@adcp-wire/security";
import {
  constantTimeEqual,
  copyBytes,
  hmacBytes,
  importHmacKey,
  isWellFormedSignature,
  keyOf,
  registerSecret,
  SIGNATURE_PREFIX,
  signatureBytes,
  toHex,
  utf8Bytes,
} from "./_hmac.ts";
import { findWeakSecret, MIN_SECRET_BYTES } from "./_hmac_secret.ts";
import { WeakWebhookSecretError, WebhookBodyInputError } from "./errors.ts";

/**
 * The header that carries the legacy signature, `sha256=<64 lower-case hex digits>`.
 *
 * Spec: webhooks.mdx, Legacy HMAC-SHA256 fallback, "Publisher sends two headers (legacy)".
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export const LEGACY_WEBHOOK_SIGNATURE_HEADER = "X-ADCP-Signature";

/**
 * The header that carries the legacy signature's timestamp, in Unix seconds.
 *
 * Spec: webhooks.mdx, Legacy HMAC-SHA256 fallback, "Publisher sends two headers (legacy)".
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export const LEGACY_WEBHOOK_TIMESTAMP_HEADER = "X-ADCP-Timestamp";

/**
 * The shortest legacy webhook secret {@link importLegacyWebhookSecret} accepts: 32 bytes.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, "Minimum secret length: 32 bytes".
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export const LEGACY_WEBHOOK_MIN_SECRET_BYTES: 32 = MIN_SECRET_BYTES;

/**
 * The replay window of {@link verifyLegacyWebhookHmac}, and the largest `toleranceSeconds` it
 * accepts: 300 seconds either side of now.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, "Replay window: Reject requests where
 * `|current_time - timestamp| > 300` seconds".
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export const LEGACY_WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The default body size limit of {@link verifyLegacyWebhookHmac}: 1 MiB (1,048,576 bytes),
 * checked before any HMAC work.
 *
 * Spec: webhooks.mdx, Security, "Payload size limit: Receivers SHOULD enforce a 1MB limit. Reject
 * before signature verification".
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export const LEGACY_WEBHOOK_MAX_BODY_BYTES = 1_048_576;

/**
 * An imported legacy webhook secret: an opaque handle to a non-extractable HMAC-SHA256
 * `CryptoKey`, made only by {@link importLegacyWebhookSecret} (an object of the same shape is not
 * accepted). It holds no readable copy of the secret, so logging or serializing it leaks nothing.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback.
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export interface LegacyWebhookSecret {
  /** Always `"legacy-webhook-secret"`. */
  readonly kind: "legacy-webhook-secret";
}

/**
 * A secret as the signer and verifier take it: an imported {@link LegacyWebhookSecret} (import
 * once, reuse), or the raw secret, imported (and checked) on each call. A string is used as its
 * UTF-8 bytes, as the spec's examples do (the test vectors' 64-character secret is a 64-byte key,
 * not 32 hex-decoded bytes).
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export type LegacyWebhookSecretInput = LegacyWebhookSecret | string | Uint8Array;

/**
 * Imports a legacy webhook HMAC secret, refusing a weak one at configuration time, before any
 * signature is computed. A string is used as its UTF-8 bytes (`TextEncoder`), a `Uint8Array` as
 * is. Refused, with {@link WeakWebhookSecretError} (the rules are exact, checked in this order, in
 * linear time, and a secret drawn from a CSPRNG breaks them with negligible probability):
 *
 * 1. `too_short`: fewer than 32 bytes (the empty secret included).
 * 2. `low_entropy`: fewer than 4 distinct byte values: one byte repeated (all-zero, all-`a`), or
 *    two or three values (`abab…`, binary `0101…`).
 * 3. `low_entropy`: a repetition of a shorter block, i.e. the smallest period is at most half the
 *    length (`0123` eight times, `password` four times, `abcabc…ab`).
 * 4. `low_entropy`: a sequential run: at least half of the steps between neighbouring bytes are
 *    +1 or −1 modulo 256 (`abcdefgh…`, `0123456789…`, `zyxw…`, `abc…xyz012345`).
 *
 * This is a floor against well-known weak values, not a measure of entropy: a secret that passes
 * can still be guessable (a word list, a value derived from a fixed string, the published test
 * vector secret); production secrets must come from a CSPRNG (e.g. 32 bytes of
 * `crypto.getRandomValues`). Messages never contain the secret.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, "Minimum secret length: 32 bytes";
 * webhook-hmac-sha256.json, `secret_rejection_vectors` (31 bytes, empty, all-zero, all-`a`).
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 *
 * @param secret The shared secret (`push_notification_config.authentication.credentials`).
 * @returns The imported secret.
 * @throws {WeakWebhookSecretError} When the secret breaks one of the rules above.
 * @throws {TypeError} When `secret` is neither a string nor a `Uint8Array` (the message gives its
 * type only).
 *
 * @example Importing a random secret, refusing a weak one
 * ```ts
 * import { importLegacyWebhookSecret, WeakWebhookSecretError } from "@adcp-wire/webhooks";
 * import { ok, rejects, strictEqual } from "node:assert/strict";
 *
 * const secret = await importLegacyWebhookSecret(crypto.getRandomValues(new Uint8Array(32)));
 * strictEqual(secret.kind, "legacy-webhook-secret");
 * await rejects(importLegacyWebhookSecret("a".repeat(32)), (error) => {
 *   ok(error instanceof WeakWebhookSecretError);
 *   strictEqual(error.reason, "low_entropy");
 *   return true;
 * });
 * ```
 */
export async function importLegacyWebhookSecret(
  secret: string | Uint8Array,
): Promise<LegacyWebhookSecret> {
  const bytes = secretBytes(secret, "import a legacy webhook secret", "secret");
  try {
    const weak = findWeakSecret(bytes);
    if (weak !== undefined) throw new WeakWebhookSecretError(weak.reason, bytes.length, weak.rule);
    return registerSecret(await importHmacKey(bytes));
  } finally {
    bytes.fill(0); // our own copy: no stray plaintext once the key is imported
  }
}

/** Options of {@link signLegacyWebhookHmac}. */
export interface SignLegacyWebhookHmacOptions {
  /** The shared secret: an imported {@link LegacyWebhookSecret}, or raw (imported per call). */
  readonly secret: LegacyWebhookSecretInput;
  /**
   * The timestamp to sign, in whole Unix seconds: a non-negative safe integer. It is sent as
   * `X-ADCP-Timestamp` in decimal digits, exactly the text signed.
   * @default {Math.floor(Date.now() / 1000)}
   */
  readonly timestamp?: number;
  /**
   * Sign a body that is not strict JSON text (empty, not UTF-8, not JSON) as opaque bytes instead
   * of refusing it with {@link WebhookBodyInputError}. The duplicate-key refusal stays: a body
   * that is JSON with a repeated key is refused either way. Only for interoperability tests:
   * every body of the scheme is a JSON notification, and {@link verifyLegacyWebhookHmac} rejects
   * any other body (`webhook_body_malformed`), as should any strict verifier; and a non-JSON body
   * can hide duplicate keys from this check that a lenient parser downstream would still read.
   * @default {false}
   */
  readonly allowNonJsonBody?: boolean;
}

/**
 * A legacy signature, ready to send.
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export interface LegacyWebhookSignature {
  /** `sha256=` and the 64 lower-case hex digits of the HMAC. */
  readonly signature: string;
  /** The signed timestamp in decimal digits, as sent. */
  readonly timestamp: string;
  /** `X-ADCP-Signature` and `X-ADCP-Timestamp`, to add to the request. */
  readonly headers: {
    /** The same as {@link LegacyWebhookSignature.signature}. */
    readonly "X-ADCP-Signature": string;
    /** The same as {@link LegacyWebhookSignature.timestamp}. */
    readonly "X-ADCP-Timestamp": string;
  };
}

/**
 * Signs a webhook body with the legacy HMAC-SHA256 scheme: `sha256=` + hex(HMAC-SHA256(secret,
 * `{timestamp}.{rawBody}`)) over the body bytes exactly as given (a string as its UTF-8 bytes,
 * never re-serialized). Before any HMAC work it checks the bytes it will sign: a body that is
 * JSON with a repeated object key at any depth (arrays included, keys compared after decoding
 * escapes) is refused with `DuplicateKeyError` (`duplicate_key_input`, sanitized names); a body
 * that is not strict JSON text (empty, not UTF-8, a byte-order mark, not JSON) is refused with
 * {@link WebhookBodyInputError} unless `allowNonJsonBody` is set. Send the returned headers with
 * exactly these bytes as the body.
 *
 * Spec: webhooks.mdx, Legacy HMAC-SHA256 fallback, "Signature algorithm (legacy)"; security.mdx,
 * Legacy HMAC-SHA256 fallback, "Signed message", "Duplicate object keys" (signers MUST reject
 * duplicate-key input), "Timestamp source".
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 *
 * @param rawBody The exact body bytes to send (a string is sent as its UTF-8 bytes).
 * @param options The secret, and optionally the timestamp.
 * @returns The signature, the timestamp text and both headers.
 * @throws {DuplicateKeyError} When the body is JSON with a repeated object key
 * (`duplicate_key_input`); no HMAC is computed.
 * @throws {WebhookBodyInputError} When the body is not strict JSON text and `allowNonJsonBody` is
 * not set.
 * @throws {JsonDepthLimitError} When the body nests deeper than 64 levels (its keys cannot be
 * checked); likewise `JsonNodeLimitError` past 2,097,152 values.
 * @throws {WeakWebhookSecretError} When a raw `secret` is weak.
 * @throws {TypeError} When `rawBody` or an option has the wrong type, or an option has an unknown
 * name.
 * @throws {RangeError} When `timestamp` is not a non-negative safe integer.
 *
 * @example Signing a body, refusing duplicate keys
 * ```ts
 * import { DuplicateKeyError } from "@adcp-wire/security";
 * import { importLegacyWebhookSecret, signLegacyWebhookHmac } from "@adcp-wire/webhooks";
 * import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
 *
 * const secret = await importLegacyWebhookSecret(
 *   "cc237f7fe354609bb41360c6530a2deb7926f3cc55e91df3ff90e37202950b6c", // test vector only
 * );
 * const body = '{"event":"creative.status_changed","creative_id":"creative_123",' +
 *   '"status":"approved"}';
 * const signed = await signLegacyWebhookHmac(body, { secret, timestamp: 1700000000 });
 * strictEqual(
 *   signed.signature,
 *   "sha256=0987f9b3e89d331142297dbc0e992edbc13b2ae29e7038ed8f948b565aa05c4b",
 * );
 * deepStrictEqual(signed.headers, {
 *   "X-ADCP-Signature": signed.signature,
 *   "X-ADCP-Timestamp": "1700000000",
 * });
 * await rejects(
 *   signLegacyWebhookHmac('{"status":"approved","status":"rejected"}', { secret }),
 *   DuplicateKeyError,
 * );
 * ```
 */
export async function signLegacyWebhookHmac(
  rawBody: string | Uint8Array,
  options: SignLegacyWebhookHmacOptions,
): Promise<LegacyWebhookSignature> {
  const action = "sign a legacy webhook body";
  const bytes = bodyBytes(rawBody, action);
  const { secret, timestamp, allowNonJsonBody } = readSignOptions(options, action);
  checkSignerInput(bytes, allowNonJsonBody);
  const key = await resolveKey(secret);
  const signature = SIGNATURE_PREFIX + toHex(await hmacBytes(key, timestamp, bytes));
  return {
    signature,
    timestamp,
    headers: { "X-ADCP-Signature": signature, "X-ADCP-Timestamp": timestamp },
  };
}

/** Options of {@link signLegacyWebhookPayload}. */
export interface SignLegacyWebhookPayloadOptions {
  /** The shared secret: an imported {@link LegacyWebhookSecret}, or raw (imported per call). */
  readonly secret: LegacyWebhookSecretInput;
  /**
   * The timestamp to sign, in whole Unix seconds: a non-negative safe integer.
   * @default {Math.floor(Date.now() / 1000)}
   */
  readonly timestamp?: number;
}

/**
 * A legacy signature with the body it signs.
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export interface LegacyWebhookPayloadSignature extends LegacyWebhookSignature {
  /** The serialized body: send exactly this text (as UTF-8) as the request body. */
  readonly body: string;
}

/**
 * Serializes a payload with `JSON.stringify` (compact separators `,` and `:`, the canonical
 * on-wire form of the scheme) and signs the result with {@link signLegacyWebhookHmac}. Send the
 * returned `body` as the request body, byte for byte: the signature covers those bytes, not the
 * value.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, "Canonical on-wire form" (compact separators
 * when the signer serializes) and "Byte-equality invariant".
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 *
 * @param value The payload: anything `JSON.stringify` turns into JSON text.
 * @param options The secret, and optionally the timestamp.
 * @returns The body, the signature, the timestamp text and both headers.
 * @throws {TypeError} When `value` has no JSON form (`undefined`, a function, a symbol) or
 * `JSON.stringify` throws (a `BigInt`, a cycle), or an option has the wrong type or an unknown
 * name (`allowNonJsonBody` included: a payload is always JSON).
 * @throws {RangeError} When `timestamp` is not a non-negative safe integer.
 * @throws {JsonDepthLimitError} When the payload nests deeper than 64 levels.
 * @throws {WeakWebhookSecretError} When a raw `secret` is weak.
 *
 * @example Signing a value
 * ```ts
 * import { importLegacyWebhookSecret, signLegacyWebhookPayload } from "@adcp-wire/webhooks";
 * import { strictEqual } from "node:assert/strict";
 *
 * const secret = await importLegacyWebhookSecret(
 *   "cc237f7fe354609bb41360c6530a2deb7926f3cc55e91df3ff90e37202950b6c", // test vector only
 * );
 * const signed = await signLegacyWebhookPayload({ event: "test" }, {
 *   secret,
 *   timestamp: 0,
 * });
 * strictEqual(signed.body, '{"event":"test"}');
 * strictEqual(
 *   signed.signature,
 *   "sha256=e098ea1f745765614027918d988930b96c38a2f8e2b5d05560f4bffa53d77dcd",
 * );
 * ```
 */
export async function signLegacyWebhookPayload(
  value: unknown,
  options: SignLegacyWebhookPayloadOptions,
): Promise<LegacyWebhookPayloadSignature> {
  const body: string | undefined = JSON.stringify(value);
  if (typeof body !== "string") {
    throw optionError(TypeError, "sign a legacy webhook payload", "value", "JSON", value);
  }
  const signed = await signLegacyWebhookHmac(body, readPayloadOptions(options));
  return { body, ...signed };
}

/**
 * The two headers of a legacy delivery, for {@link verifyLegacyWebhookHmac}: the values of
 * `X-ADCP-Signature` and `X-ADCP-Timestamp` (`null`, `undefined` or `""` when absent). Values are
 * taken exactly: leading or trailing whitespace is not removed (a `Headers` object has already
 * removed HTTP's optional whitespace).
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export interface LegacyWebhookHmacHeaders {
  /** The `X-ADCP-Signature` value. */
  readonly signature: string | null | undefined;
  /** The `X-ADCP-Timestamp` value (a number is taken as its decimal digits). */
  readonly timestamp: string | number | null | undefined;
}

/** Options of {@link verifyLegacyWebhookHmac}. */
export interface VerifyLegacyWebhookHmacOptions {
  /**
   * The secret configured for this webhook registration, or during a rotation the current and
   * the previous one (at most 2): a signature made with either is accepted ("Receivers MUST
   * accept signatures from both current and previous secret during rotation"). Each an imported
   * {@link LegacyWebhookSecret}, or raw (imported per call).
   */
  readonly secret: LegacyWebhookSecretInput | readonly LegacyWebhookSecretInput[];
  /**
   * The current time, in whole Unix seconds: a non-negative safe integer.
   * @default {Math.floor(Date.now() / 1000)}
   */
  readonly now?: number;
  /**
   * The replay window: a timestamp more than this many seconds from `now`, either side, is
   * rejected. An integer from 0 to 300 (the spec's window is the most allowed).
   * @default {300}
   */
  readonly toleranceSeconds?: number;
  /**
   * The largest body accepted, in bytes, checked before anything else: a non-negative safe
   * integer.
   * @default {1048576}
   */
  readonly maxBodyBytes?: number;
}

/**
 * Why {@link verifyLegacyWebhookHmac} rejected a delivery, in the order the checks run.
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export type LegacyWebhookHmacRejectionCode =
  /** The body is longer than `maxBodyBytes` (answer `413 Payload Too Large`). */
  | "body_too_large"
  /** No `X-ADCP-Signature`, or an empty one. */
  | "missing_signature"
  /** No `X-ADCP-Timestamp`, or an empty one. */
  | "missing_timestamp"
  /**
   * The timestamp is not Unix seconds in canonical decimal digits: a sign, a fraction, an
   * exponent, whitespace, leading zeros, more than 16 digits or above 2^53 − 1.
   */
  | "malformed_timestamp"
  /** The timestamp is more than `toleranceSeconds` from `now`. */
  | "timestamp_out_of_window"
  /**
   * The signature is not `sha256=` and 64 lower-case hex digits (another algorithm, a double
   * prefix, a wrong length, upper-case or non-hex digits, whitespace, several values joined):
   * rejected before any HMAC work.
   */
  | "malformed_signature"
  /** The HMAC does not match under any configured secret. */
  | "signature_mismatch"
  /**
   * The signature is valid but the body is not strict JSON text: duplicate object keys, not
   * UTF-8, empty, a byte-order mark, not JSON, or past the JSON depth (64) or size limits.
   */
  | "webhook_body_malformed";

/**
 * The outcome of {@link verifyLegacyWebhookHmac}.
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export type LegacyWebhookHmacVerification =
  | {
    /** The delivery is authentic and its body is strict JSON. */
    readonly valid: true;
    /** The body, parsed strictly (no duplicate keys); hand this to business logic. */
    readonly value: unknown;
    /** The signed timestamp, in Unix seconds. */
    readonly timestamp: number;
    /**
     * Which configured secret verified it (0 for a single secret). Not a sender identity: both
     * secrets of a rotation belong to one registration, whose seller is the `WebhookDedup`
     * sender (the seller's agent URL, the same keyspace as its RFC 9421 deliveries: webhooks.mdx,
     * "Dedup by `idempotency_key`").
     */
    readonly secretIndex: number;
  }
  | {
    /** The delivery was rejected. */
    readonly valid: false;
    /** Why, as a stable lower-case code. */
    readonly code: LegacyWebhookHmacRejectionCode;
    /** A sentence for logs; it describes seller values by size or kind, never quotes them. */
    readonly message: string;
    /**
     * For `webhook_body_malformed` caused by repeated keys: the sanitized names (step 14b: at
     * most 4, then `<...N more>`), safe to log.
     */
    readonly duplicateKeys?: readonly string[];
  };

/**
 * Verifies a delivery signed with the legacy HMAC-SHA256 scheme, over the raw body bytes as
 * received, and parses the body strictly. Never throws on what the sender controls (body bytes,
 * header values of any type); it throws only on bad options. Checks, in order, short-circuiting:
 *
 * 1. `body_too_large`: more than `maxBodyBytes` (default 1 MiB), before any HMAC work.
 * 2. `missing_signature`, `missing_timestamp`: a header absent or empty.
 * 3. `malformed_timestamp`: not canonical decimal Unix seconds; `timestamp_out_of_window`: more
 *    than `toleranceSeconds` (300) from `now` (exactly 300 is accepted).
 * 4. `malformed_signature`: not exactly `sha256=` and 64 lower-case hex digits.
 * 5. `signature_mismatch`: HMAC-SHA256(secret, `{timestamp}.{rawBody}`), with the timestamp
 *    text exactly as received, compared with the 32 decoded bytes in constant time (every byte
 *    read, no early exit), under each configured secret.
 * 6. `webhook_body_malformed`: the signature is valid but the body is not strict JSON (duplicate
 *    keys at any depth, not UTF-8, empty, a BOM, not JSON) — distinct from `signature_mismatch`.
 *
 * The body is never re-serialized; pass the bytes captured before any JSON middleware. A string
 * body is taken as its UTF-8 bytes (pass a `Uint8Array` to verify exactly what was received).
 * A body-level `signature` field plays no part: the headers are authoritative. Replay dedup of
 * `idempotency_key` is the caller's, after this check.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback ("Verification order", "Verifier input",
 * "Timing-safe comparison", "Replay window", "Duplicate object keys"; webhook verifier checklist
 * steps 14, 14a, 14b); webhooks.mdx, Security, "Payload size limit".
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 *
 * @param rawBody The body bytes exactly as received.
 * @param headers The request's `Headers`, or the two header values.
 * @param options The secret(s), and optionally the time, the window and the size limit.
 * @returns `{ valid: true, value, timestamp, secretIndex }`, or `{ valid: false, code, message }`.
 * @throws {WeakWebhookSecretError} When a raw `secret` is weak.
 * @throws {TypeError} When `rawBody` is neither a string nor a `Uint8Array`, `headers` is not an
 * object, or an option has the wrong type or an unknown name.
 * @throws {RangeError} When `now`, `toleranceSeconds` or `maxBodyBytes` is out of range, or
 * `secret` is an empty array or has more than 2 entries.
 *
 * @example Receiving a delivery
 * ```ts
 * import { importLegacyWebhookSecret, verifyLegacyWebhookHmac } from "@adcp-wire/webhooks";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const secret = await importLegacyWebhookSecret(
 *   "cc237f7fe354609bb41360c6530a2deb7926f3cc55e91df3ff90e37202950b6c", // test vector only
 * );
 * const headers = new Headers({
 *   "X-ADCP-Signature": "sha256=e098ea1f745765614027918d988930b96c38a2f8e2b5d05560f4bffa53d77dcd",
 *   "X-ADCP-Timestamp": "0",
 * });
 * const body = new TextEncoder().encode('{"event":"test"}');
 * const result = await verifyLegacyWebhookHmac(body, headers, { secret, now: 120 });
 * deepStrictEqual(result, { valid: true, value: { event: "test" }, timestamp: 0, secretIndex: 0 });
 *
 * const late = await verifyLegacyWebhookHmac(body, headers, { secret, now: 301 });
 * strictEqual(late.valid ? "valid" : late.code, "timestamp_out_of_window");
 * ```
 */
export async function verifyLegacyWebhookHmac(
  rawBody: Uint8Array | string,
  headers: LegacyWebhookHmacHeaders | Headers,
  options: VerifyLegacyWebhookHmacOptions,
): Promise<LegacyWebhookHmacVerification> {
  const action = "verify a legacy webhook";
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    throw optionError(TypeError, action, "rawBody", "a string or a Uint8Array", rawBody);
  }
  const { signature, timestamp } = readHeaders(headers, action);
  const { secrets, now, toleranceSeconds, maxBodyBytes } = readVerifyOptions(options, action);
  // Configuration first: raw secrets are imported (and refused when weak) whatever the delivery.
  const keys = await Promise.all(secrets.map(resolveKey));
  // 1. Size, before any HMAC work.
  const byteCount = typeof rawBody === "string" ? undefined : rawBody.length;
  if (
    byteCount === undefined
      ? utf8LengthExceeds(rawBody as string, maxBodyBytes)
      : byteCount > maxBodyBytes
  ) {
    return reject(
      "body_too_large",
      `expected a body of at most ${maxBodyBytes} bytes`,
      byteCount === undefined ? "a longer one" : `${byteCount} bytes`,
    );
  }
  // 2. Presence.
  if (signature === undefined || signature === null || signature === "") {
    return reject("missing_signature", `expected an ${SIGNATURE_HEADER_NAME} header`, "none");
  }
  if (timestamp === undefined || timestamp === null || timestamp === "") {
    return reject("missing_timestamp", `expected an ${TIMESTAMP_HEADER_NAME} header`, "none");
  }
  // 3. Timestamp, then the window.
  const time = parseTimestamp(timestamp);
  if (time === undefined) {
    return reject(
      "malformed_timestamp",
      `expected ${TIMESTAMP_HEADER_NAME} as Unix seconds in decimal digits`,
      describeShape(timestamp),
    );
  }
  const skew = now - time.seconds;
  if (Math.abs(skew) > toleranceSeconds) {
    return reject(
      "timestamp_out_of_window",
      `expected ${TIMESTAMP_HEADER_NAME} within ${toleranceSeconds} seconds of now`,
      skew > 0 ? `${skew} seconds in the past` : `${-skew} seconds in the future`,
    );
  }
  // 4. Signature syntax, before any HMAC work.
  if (typeof signature !== "string" || !isWellFormedSignature(signature)) {
    return reject(
      "malformed_signature",
      `expected ${SIGNATURE_HEADER_NAME} as ${SIGNATURE_PREFIX} and 64 lower-case hex digits`,
      describeShape(signature),
    );
  }
  // 5. The HMAC over the raw bytes, compared in constant time under every secret (no early exit
  // across secrets either).
  const body = typeof rawBody === "string" ? utf8Bytes(rawBody) : rawBody;
  const provided = signatureBytes(signature);
  let secretIndex = -1;
  for (const [index, key] of keys.entries()) {
    const expected = await hmacBytes(key, time.text, body);
    if (constantTimeEqual(expected, provided) && secretIndex === -1) secretIndex = index;
  }
  if (secretIndex === -1) {
    return reject(
      "signature_mismatch",
      "expected an HMAC-SHA256 signature made with the configured secret",
      "a different one",
    );
  }
  // 6. Strict parse of the authenticated bytes.
  const parsed = parseBody(body);
  if (!parsed.ok) return parsed.rejection;
  return { valid: true, value: parsed.value, timestamp: time.seconds, secretIndex };
}

const SIGNATURE_HEADER_NAME = "X-ADCP-Signature";
const TIMESTAMP_HEADER_NAME = "X-ADCP-Timestamp";

/** Longest accepted timestamp text: 16 digits hold every safe integer. */
const MAX_TIMESTAMP_DIGITS = 16;

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

type Rejection = Extract<LegacyWebhookHmacVerification, { valid: false }>;

function reject(
  code: LegacyWebhookHmacRejectionCode,
  expected: string,
  observed: string,
  duplicateKeys?: readonly string[],
): Rejection {
  const message = `Cannot accept the legacy webhook: ${expected} (observed ${observed})`;
  return duplicateKeys === undefined
    ? { valid: false, code, message }
    : { valid: false, code, message, duplicateKeys };
}

/**
 * The timestamp's seconds and the exact text to sign, or `undefined` when it is not canonical
 * decimal Unix seconds. A string must be `0` or a non-zero digit then digits, at most 16 digits
 * and at most 2^53 − 1: no sign, fraction, exponent, whitespace or leading zero, so that the text
 * signed is the one integer it denotes ("the exact ASCII integer sent in the X-ADCP-Timestamp
 * header"). A number must be a non-negative safe integer; its text is its decimal digits.
 */
function parseTimestamp(value: unknown): { seconds: number; text: string } | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0
      ? { seconds: value, text: String(value) }
      : undefined;
  }
  if (typeof value !== "string" || value.length > MAX_TIMESTAMP_DIGITS) return undefined;
  if (!/^(?:0|[1-9][0-9]*)$/.test(value)) return undefined;
  const seconds = Number(value);
  return Number.isSafeInteger(seconds) ? { seconds, text: value } : undefined;
}

/** Parses authenticated body bytes strictly (step 14, 14a), or the rejection. */
function parseBody(
  body: Uint8Array,
): { ok: true; value: unknown } | { ok: false; rejection: Rejection } {
  const expected = "a valid signature over strict JSON text";
  let text: string;
  try {
    text = strictDecoder.decode(body);
  } catch {
    return { ok: false, rejection: reject("webhook_body_malformed", expected, "bytes not UTF-8") };
  }
  try {
    return { ok: true, value: parseJsonStrict(text) };
  } catch (error) {
    if (error instanceof DuplicateKeyError) {
      return {
        ok: false,
        rejection: reject(
          "webhook_body_malformed",
          expected,
          `${error.count} duplicate object key${error.count === 1 ? "" : "s"}`,
          error.keys,
        ),
      };
    }
    // A SyntaxError (its message names an index and a code point, never the text) or a JSON
    // limit error (numbers only).
    const detail = error instanceof Error ? error.message : "a body that is not JSON";
    return {
      ok: false,
      rejection: reject(
        "webhook_body_malformed",
        expected,
        body.length === 0 ? "an empty body" : detail,
      ),
    };
  }
}

/**
 * Refuses signer input that is JSON with duplicate keys, or (unless allowed) is not strict JSON
 * text, checking the exact bytes to be signed (a string's lone surrogates have become U+FFFD).
 */
function checkSignerInput(bytes: Uint8Array, allowNonJsonBody: boolean): void {
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch (error) {
    if (allowNonJsonBody) return;
    throw new WebhookBodyInputError(bytes.length, error);
  }
  let report: ReturnType<typeof findDuplicateKeys>;
  try {
    report = findDuplicateKeys(text);
  } catch (error) {
    if (error instanceof SyntaxError) {
      if (allowNonJsonBody) return;
      throw new WebhookBodyInputError(bytes.length, error);
    }
    throw error; // a JSON limit: the keys could not all be checked
  }
  if (report !== undefined) throw new DuplicateKeyError(report.names);
}

/** The body's bytes to sign: a string's UTF-8, or a copy of the caller's bytes. */
function bodyBytes(rawBody: unknown, action: string): Uint8Array<ArrayBuffer> {
  if (typeof rawBody === "string") return utf8Bytes(rawBody);
  if (rawBody instanceof Uint8Array) return copyBytes(rawBody);
  throw optionError(TypeError, action, "rawBody", "a string or a Uint8Array", rawBody);
}

/** A raw secret's bytes (a copy), without ever describing the value itself in a message. */
function secretBytes(secret: unknown, action: string, name: string): Uint8Array<ArrayBuffer> {
  if (typeof secret === "string") return utf8Bytes(secret);
  if (secret instanceof Uint8Array) return copyBytes(secret);
  throw new TypeError(
    `Cannot ${action} as '${name}' must be a string or a Uint8Array: current value is ` +
      (secret === null ? "null" : Array.isArray(secret) ? "an array" : `a ${typeof secret}`),
  );
}

/**
 * The key of a secret input already checked by {@link assertSecretInput}: an imported handle's,
 * or a raw secret imported (and checked for weakness) now.
 */
async function resolveKey(secret: LegacyWebhookSecretInput): Promise<CryptoKey> {
  return keyOf(secret) ?? keyOf(await importLegacyWebhookSecret(secret as string | Uint8Array))!;
}

/** Checks a secret input's type up front (weakness is checked when it is imported). */
function assertSecretInput(secret: unknown, action: string, name: string): void {
  if (typeof secret === "string" || secret instanceof Uint8Array || keyOf(secret) !== undefined) {
    return;
  }
  throw new TypeError(
    `Cannot ${action} as '${name}' must be a secret from importLegacyWebhookSecret, a string ` +
      `or a Uint8Array: current value is ${
        secret === null
          ? "null"
          : typeof secret === "object"
          ? "another object"
          : `a ${typeof secret}`
      }`,
  );
}

/** The keys of {@link SignLegacyWebhookHmacOptions}. */
const SIGN_HMAC_KEYS = optionKeys<SignLegacyWebhookHmacOptions>({
  secret: true,
  timestamp: true,
  allowNonJsonBody: true,
});

/** The keys of {@link SignLegacyWebhookPayloadOptions}. */
const SIGN_PAYLOAD_KEYS = optionKeys<SignLegacyWebhookPayloadOptions>({
  secret: true,
  timestamp: true,
});

/** The keys of {@link VerifyLegacyWebhookHmacOptions}. */
const VERIFY_HMAC_KEYS = optionKeys<VerifyLegacyWebhookHmacOptions>({
  secret: true,
  now: true,
  toleranceSeconds: true,
  maxBodyBytes: true,
});

/** Checks that `options` is an options object whose own keys are all in `keys`. */
function assertOptions(
  options: unknown,
  action: string,
  keys: OptionKeys,
): asserts options is object {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(TypeError, action, "options", "an object", options);
  }
  checkOptionKeys(action, "options", options, keys);
}

function own(options: object, key: string): unknown {
  return Object.hasOwn(options, key) ? (options as Record<string, unknown>)[key] : undefined;
}

function readInteger(
  options: object,
  key: string,
  action: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = own(options, key);
  if (value === undefined) return fallback;
  if (typeof value !== "number") {
    throw optionError(TypeError, action, `options.${key}`, "a number", value);
  }
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER
      ? "a non-negative safe integer"
      : `an integer from 0 to ${max}`;
    throw optionError(RangeError, action, `options.${key}`, range, value);
  }
  return value;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function readSignOptions(
  options: unknown,
  action: string,
): { secret: LegacyWebhookSecretInput; timestamp: string; allowNonJsonBody: boolean } {
  assertOptions(options, action, SIGN_HMAC_KEYS);
  const secret = own(options, "secret");
  assertSecretInput(secret, action, "options.secret");
  const timestamp = readInteger(options, "timestamp", action, nowSeconds());
  const allow = own(options, "allowNonJsonBody");
  if (allow !== undefined && typeof allow !== "boolean") {
    throw optionError(TypeError, action, "options.allowNonJsonBody", "a boolean", allow);
  }
  return {
    secret: secret as LegacyWebhookSecretInput,
    timestamp: String(timestamp),
    allowNonJsonBody: allow === true,
  };
}

function readPayloadOptions(options: unknown): SignLegacyWebhookHmacOptions {
  const action = "sign a legacy webhook payload";
  assertOptions(options, action, SIGN_PAYLOAD_KEYS);
  const secret = own(options, "secret");
  assertSecretInput(secret, action, "options.secret");
  const timestamp = readInteger(options, "timestamp", action, nowSeconds());
  return { secret: secret as LegacyWebhookSecretInput, timestamp };
}

function readVerifyOptions(options: unknown, action: string): {
  secrets: readonly LegacyWebhookSecretInput[];
  now: number;
  toleranceSeconds: number;
  maxBodyBytes: number;
} {
  assertOptions(options, action, VERIFY_HMAC_KEYS);
  const secret = own(options, "secret");
  let secrets: readonly LegacyWebhookSecretInput[];
  if (Array.isArray(secret)) {
    if (secret.length === 0 || secret.length > 2) {
      throw new RangeError(
        `Cannot ${action} as 'options.secret' must be a secret or an array of 1 or 2 secrets: ` +
          `current value is an array of ${secret.length}`,
      );
    }
    secret.forEach((entry, index) => assertSecretInput(entry, action, `options.secret[${index}]`));
    secrets = secret as readonly LegacyWebhookSecretInput[];
  } else {
    assertSecretInput(secret, action, "options.secret");
    secrets = [secret as LegacyWebhookSecretInput];
  }
  return {
    secrets,
    now: readInteger(options, "now", action, nowSeconds()),
    toleranceSeconds: readInteger(
      options,
      "toleranceSeconds",
      action,
      LEGACY_WEBHOOK_TOLERANCE_SECONDS,
      LEGACY_WEBHOOK_TOLERANCE_SECONDS,
    ),
    maxBodyBytes: readInteger(options, "maxBodyBytes", action, LEGACY_WEBHOOK_MAX_BODY_BYTES),
  };
}

/** The two header values, from a `Headers` object or a plain object (own properties only). */
function readHeaders(
  headers: unknown,
  action: string,
): { signature: unknown; timestamp: unknown } {
  if (typeof Headers === "function" && headers instanceof Headers) {
    return {
      signature: headers.get(SIGNATURE_HEADER_NAME),
      timestamp: headers.get(TIMESTAMP_HEADER_NAME),
    };
  }
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw optionError(TypeError, action, "headers", "a Headers object or an object", headers);
  }
  return { signature: own(headers, "signature"), timestamp: own(headers, "timestamp") };
}
