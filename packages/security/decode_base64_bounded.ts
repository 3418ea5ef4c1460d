import { optionKeys } from "@adcp-wire/internal";
import { assertByteCount, assertOptionsObject, assertString } from "./_strings.ts";
import { Base64SizeLimitError, InvalidBase64Error } from "./errors.ts";

/** Options for {@link decodeBase64Bounded}. */
export interface DecodeBase64BoundedOptions {
  /**
   * Maximum decoded size in bytes, a non-negative safe integer. No default: the spec asks for
   * "a maximum decoded size" without a figure; A2A Response Extraction suggests 1 MB for a
   * DataPart, a reasonable starting point for files.
   */
  readonly maxBytes: number;
}

const INVALID = 0xff;
// Sextet value of each ASCII code unit; INVALID elsewhere. '+' '/' (standard) and '-' '_'
// (URL-safe) are both mapped; mixing them is rejected separately.
const SEXTETS = new Uint8Array(128).fill(INVALID);
const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
for (let i = 0; i < STANDARD.length; i++) SEXTETS[STANDARD.charCodeAt(i)] = i;
SEXTETS[0x2b] = 62; // +
SEXTETS[0x2f] = 63; // /
SEXTETS[0x2d] = 62; // -
SEXTETS[0x5f] = 63; // _

const EQUALS = 0x3d;
const ACTION = "decode base64";

/** The keys of {@link DecodeBase64BoundedOptions}: any other is refused. */
const DECODE_BASE64_BOUNDED_KEYS = optionKeys<DecodeBase64BoundedOptions>({ maxBytes: true });

/**
 * Decodes the base64 `raw` bytes of an A2A file part, refusing an oversize payload before any
 * decoding work: the decoded size comes from the encoded length and padding alone (O(1)). The
 * syntax is strict: the standard or the URL-safe alphabet (not both), padding optional but
 * complete, no whitespace, canonical trailing bits; the rules and their reasons are in
 * [docs/security.md](../../docs/security.md#base64-file-parts).
 *
 * Spec: A2A Response Extraction, Security Considerations, FilePart URI validation.
 *
 * @param raw The base64 text.
 * @param options The decoded size cap.
 * @returns The decoded bytes (a fresh `Uint8Array` of exactly the decoded length).
 * @throws {Base64SizeLimitError} When the encoded length implies more than `maxBytes` bytes.
 * @throws {InvalidBase64Error} When `raw` is not valid strict base64.
 * @throws {TypeError} When `raw` is not a string, `options.maxBytes` is not a number,
 * or `options` has another key.
 * @throws {RangeError} When `options.maxBytes` is not a non-negative safe integer.
 *
 * @example Decoding, and refusing an oversize payload
 * ```ts
 * import { Base64SizeLimitError, decodeBase64Bounded } from "@adcp-wire/security";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * deepStrictEqual(decodeBase64Bounded("aGk=", { maxBytes: 2 }), new Uint8Array([104, 105]));
 * deepStrictEqual(decodeBase64Bounded("aGk", { maxBytes: 2 }), new Uint8Array([104, 105]));
 * throws(() => decodeBase64Bounded("aGkh", { maxBytes: 2 }), Base64SizeLimitError);
 * ```
 */
export function decodeBase64Bounded(raw: string, options: DecodeBase64BoundedOptions): Uint8Array {
  assertString(ACTION, "raw", raw);
  assertOptionsObject(ACTION, options, DECODE_BASE64_BOUNDED_KEYS);
  const maxBytes = options.maxBytes;
  assertByteCount(ACTION, "options.maxBytes", maxBytes);

  // Size first, from the length alone.
  const total = raw.length;
  let end = total;
  if (end > 0 && raw.charCodeAt(end - 1) === EQUALS) end--;
  if (end > 0 && raw.charCodeAt(end - 1) === EQUALS) end--;
  const remainder = end % 4;
  const implied = Math.floor(end / 4) * 3 + (remainder > 1 ? remainder - 1 : 0);
  if (implied > maxBytes) throw new Base64SizeLimitError(maxBytes, implied);

  const out = new Uint8Array(implied);
  let standardAt = -1;
  let urlSafeAt = -1;
  let written = 0;
  let accumulator = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const unit = raw.charCodeAt(i);
    const sextet = unit < 128 ? SEXTETS[unit]! : INVALID;
    if (sextet === INVALID) {
      throw new InvalidBase64Error(unit === EQUALS ? "invalid_padding" : "invalid_character", i);
    }
    if (sextet >= 62) {
      if (unit === 0x2b || unit === 0x2f) standardAt = i;
      else urlSafeAt = i;
      if (standardAt >= 0 && urlSafeAt >= 0) throw new InvalidBase64Error("mixed_alphabets", i);
    }
    accumulator = ((accumulator << 6) | sextet) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (accumulator >> bits) & 0xff;
    }
  }
  // Characters first (the most useful report), then the shape of the tail.
  if (remainder === 1) throw new InvalidBase64Error("invalid_length", end);
  if (end !== total && total % 4 !== 0) throw new InvalidBase64Error("invalid_padding", end);
  // Leftover bits (2 or 4) must be zero for a canonical encoding.
  if (bits > 0 && (accumulator & ((1 << bits) - 1)) !== 0) {
    throw new InvalidBase64Error("non_canonical", end - 1);
  }
  return out;
}
