import { assertByteCount, describe } from "./_strings.ts";
import { Base64SizeLimitError, InvalidBase64Error } from "./errors.ts";

/**
 * Options for {@linkcode decodeBase64Bounded}.
 *
 * @example A 1 MiB cap for file parts
 * ```ts
 * import {
 *   Base64SizeLimitError,
 *   decodeBase64Bounded,
 *   type DecodeBase64BoundedOptions,
 * } from "@adcp-wire/security";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * const options: DecodeBase64BoundedOptions = { maxBytes: 1_048_576 };
 * strictEqual(new TextDecoder().decode(decodeBase64Bounded("SGVsbG8=", options)), "Hello");
 * // 1,400,000 characters imply 1,050,000 bytes: refused before decoding.
 * throws(() => decodeBase64Bounded("A".repeat(1_400_000), options), Base64SizeLimitError);
 * ```
 */
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

/**
 * Decodes the base64 `raw` bytes of an A2A file part, refusing oversize payloads before any
 * decoding work.
 *
 * Implements "For `raw` parts, enforce a maximum decoded size before accepting" (A2A Response
 * Extraction, Security Considerations, FilePart URI validation). The decoded size is computed
 * from the encoded length and trailing padding alone (O(1)); a payload implying more than
 * `maxBytes` throws {@linkcode Base64SizeLimitError} without reading the characters.
 *
 * Accepted syntax, chosen to match the proto3 JSON mapping of `bytes` that A2A 1.0 `raw`
 * uses ("standard or URL-safe base64 encoding, with or without paddings"), and strict otherwise:
 * - the standard alphabet (`+`, `/`) or the URL-safe alphabet (`-`, `_`), but not both in one
 *   payload (a mix is ambiguous and a sign of tampering: `mixed_alphabets`);
 * - padding optional, but when present it must be complete (`=` or `==` making the length a
 *   multiple of 4) and only at the end;
 * - no whitespace, line breaks or other characters (`invalid_character`);
 * - canonical only: the unused low bits of the last character must be zero (`non_canonical`),
 *   so each byte string has exactly one accepted encoding per alphabet and padding choice.
 *
 * @param raw The base64 text.
 * @param options The decoded size cap.
 * @returns The decoded bytes (a fresh `Uint8Array` of exactly the decoded length).
 * @throws {Base64SizeLimitError} When the encoded length implies more than `maxBytes` bytes.
 * @throws {InvalidBase64Error} When `raw` is not valid base64 as described above.
 * @throws {TypeError} When `raw` is not a string or `options.maxBytes` is not a number.
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
  if (typeof raw !== "string") {
    throw new TypeError(`Expected raw to be a string, got ${describe(raw)}`);
  }
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`Expected options to be an object, got ${describe(options)}`);
  }
  const maxBytes = options.maxBytes;
  assertByteCount("options.maxBytes", maxBytes);

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
