import { optionError } from "@adcp-wire/internal";

/** A digit followed by an exponent marker: every number written with an exponent holds one. */
const EXPONENT = /[0-9][eE]/g;

/**
 * The most bytes `JSON.stringify` can write beyond a number's own source text when the source
 * uses an exponent: 17, for `1e20` (4 bytes) written `100000000000000000000` (21). Without an
 * exponent a number never grows (the shortest round-trip digits are at most the source's), and
 * strings, whitespace and duplicate keys only shrink or stay.
 */
export const EXPONENT_GROWTH_BYTES = 17;

/**
 * An upper bound of the serialized size (UTF-8 bytes of `JSON.stringify`) of the value that
 * `JSON.parse(text)` returns, and of every value inside it: the text's UTF-8 size plus
 * {@link EXPONENT_GROWTH_BYTES} per digit followed by `e` or `E` in it (each number written with
 * an exponent holds one; those inside strings only make the bound looser). Re-serializing parsed
 * JSON never grows anything else: strings are decoded from escapes at least as long as their
 * UTF-8, whitespace goes, and a duplicate key keeps one value. One native regular-expression
 * scan, about a seventh of a `JSON.parse` of the text; what an A2A client passes as
 * `sourceJsonBytes` so that a DataPart of a body it already bounded is not measured again.
 *
 * Spec: A2A Response Extraction, Security Considerations, Size Limits.
 *
 * @param text The JSON text, decoded from UTF-8 (fatally: no replacement characters).
 * @param utf8Bytes Its size in UTF-8 bytes, a non-negative safe integer (for a body, the bytes
 * read).
 * @returns The bound, at least `utf8Bytes`.
 * @throws {TypeError} When `text` is not a string or `utf8Bytes` not a number.
 * @throws {RangeError} When `utf8Bytes` is not a non-negative safe integer.
 *
 * @example Bounding before extraction
 * ```ts
 * import { extractAdcpResponseFromA2A, jsonSerializedBound } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const text = '{"id":"t1","status":{"state":"completed"},' +
 *   '"artifacts":[{"parts":[{"kind":"data","data":{"products":[]}}]}]}';
 * const bytes = new TextEncoder().encode(text).length;
 * strictEqual(jsonSerializedBound(text, bytes), bytes);
 * strictEqual(jsonSerializedBound("[1e20]", 6), 6 + 17); // written 100000000000000000000
 * const data = extractAdcpResponseFromA2A(JSON.parse(text), {
 *   sourceJsonBytes: jsonSerializedBound(text, bytes),
 * });
 * deepStrictEqual(data, { products: [] });
 * ```
 */
export function jsonSerializedBound(text: string, utf8Bytes: number): number {
  const action = "bound the serialized size of JSON";
  if (typeof text !== "string") throw optionError(TypeError, action, "text", "a string", text);
  if (typeof utf8Bytes !== "number") {
    throw optionError(TypeError, action, "utf8Bytes", "a number", utf8Bytes);
  }
  if (!Number.isSafeInteger(utf8Bytes) || utf8Bytes < 0) {
    throw optionError(RangeError, action, "utf8Bytes", "a non-negative safe integer", utf8Bytes);
  }
  EXPONENT.lastIndex = 0;
  if (!EXPONENT.test(text)) return utf8Bytes;
  let exponents = 1;
  while (EXPONENT.test(text)) exponents++; // the failing test leaves lastIndex at 0
  return utf8Bytes + EXPONENT_GROWTH_BYTES * exponents;
}
