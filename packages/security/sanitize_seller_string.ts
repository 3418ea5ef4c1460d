import { optionKeys } from "@adcp-wire/internal";
import {
  assertByteCount,
  assertOptionsObject,
  assertString,
  sanitizeUnchecked,
} from "./_strings.ts";

/** Options for {@link sanitizeSellerString}. */
export interface SanitizeSellerStringOptions {
  /**
   * Maximum UTF-8 byte length of the result. A non-negative safe integer. There is no default:
   * pick the cap of the field (see {@link SELLER_STRING_LIMITS}).
   */
  readonly maxBytes: number;
}

/** The byte caps of {@link SELLER_STRING_LIMITS}. */
export interface SellerStringLimits {
  /**
   * `message`: 256 bytes (Transport Error Mapping, Security Considerations, Buyer Agent
   * Requirements, "Enforce length limits").
   */
  readonly message: number;
  /**
   * `suggestion`: 512 bytes (same rule).
   */
  readonly suggestion: number;
  /**
   * `field`: 256 bytes. The spec gives no figure; 256 matches the longest request pointer the
   * accessibility-violation details schema allows (`pointer` maxLength 256), from which
   * `field` is derived.
   */
  readonly field: number;
  /**
   * `source`: 64 bytes. The schema allows only `producer` or `sdk`; the cap only bounds junk.
   */
  readonly source: number;
  /**
   * `sdk_id`: 128 bytes, room for `<package name>@<version>` (Error schema, `sdk_id`).
   */
  readonly sdkId: number;
  /**
   * Any other seller string (`details` values, `issues` messages, wrapped prompt fields): 512
   * bytes, the largest per-field cap the spec names.
   */
  readonly other: number;
  /**
   * Object keys inside seller data: 64 bytes. Realistic AdCP field names are under 32 bytes
   * (security.mdx, webhook verifier checklist step 14b(b) uses 32 for logged key names).
   */
  readonly key: number;
}

/**
 * Byte caps for seller strings before they enter LLM context, UIs or logs. `message` (256 bytes)
 * and `suggestion` (512 bytes) are the spec's; the other caps are this package's choices, each
 * explained on {@link SellerStringLimits}.
 *
 * Spec: Transport Error Mapping, Security Considerations, Buyer Agent Requirements.
 */
export const SELLER_STRING_LIMITS: SellerStringLimits = Object.freeze({
  message: 256,
  suggestion: 512,
  field: 256,
  source: 64,
  sdkId: 128,
  other: 512,
  key: 64,
});

/** The keys of {@link SanitizeSellerStringOptions}: any other is refused. */
const SANITIZE_SELLER_STRING_KEYS = optionKeys<SanitizeSellerStringOptions>({ maxBytes: true });

/**
 * Makes one seller-controlled string safe to place in LLM context, a UI or a log, in three steps:
 * lone surrogates become U+FFFD; the strip set is removed (controls, zero-width and bidi
 * characters, the other invisible format characters and the tag characters U+E0000–U+E007F); and
 * the result is cut silently to `maxBytes` UTF-8 bytes on a code point boundary, after removal.
 * It is idempotent and escapes nothing: combine it with {@link escapeHtml},
 * {@link escapeSlackMrkdwn} or {@link escapeTerminal}. The strip set, range by range with the
 * rule each comes from, is in [docs/security.md](../../docs/security.md#the-strip-set).
 *
 * Spec: Transport Error Mapping, Security Considerations, Buyer Agent Requirements; security.mdx,
 * webhook verifier checklist step 14b(a).
 *
 * @param value The seller-controlled string.
 * @param options The byte cap; see {@link SELLER_STRING_LIMITS} for the per-field presets.
 * @returns The sanitized string, at most `options.maxBytes` UTF-8 bytes long.
 * @throws {TypeError} When `value` is not a string, `options.maxBytes` is not a number,
 * or `options` has another key.
 * @throws {RangeError} When `options.maxBytes` is not a non-negative safe integer.
 *
 * @example Stripping bidi, zero-width and tag characters, and truncating
 * ```ts
 * import { sanitizeSellerString } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(sanitizeSellerString("Pay\u202Eusd 1\u200B00", { maxBytes: 256 }), "Payusd 100");
 * // Tag characters mirror ASCII (U+E0000 + code): invisible on screen, read by a model.
 * strictEqual(sanitizeSellerString("low\u{E0061}\u{E0070}", { maxBytes: 256 }), "low");
 * // "é" is 2 UTF-8 bytes: 3 bytes leave room for "a" and "é" but not a second "é".
 * strictEqual(sanitizeSellerString("aéé", { maxBytes: 3 }), "aé");
 * ```
 */
export function sanitizeSellerString(
  value: string,
  options: SanitizeSellerStringOptions,
): string {
  const action = "sanitize a seller string";
  assertString(action, "value", value);
  assertOptionsObject(action, options, SANITIZE_SELLER_STRING_KEYS);
  const maxBytes = options.maxBytes;
  assertByteCount(action, "options.maxBytes", maxBytes);
  return sanitizeUnchecked(value, maxBytes);
}
