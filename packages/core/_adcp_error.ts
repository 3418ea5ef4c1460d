// The checks of an extracted `adcp_error` (Transport Error Mapping, "Client Library Requirements"
// 3), shared by `validateAdcpError` and the extractors, which may know where the value came from.

import { isJsonObject, type JsonRecord, utf8LengthExceeds } from "@adcp-wire/internal";
import { isOwnValue } from "./_json.ts";
import { plainJsonFits } from "./_json_size.ts";

/**
 * Longest accepted `code`, in UTF-16 code units (Transport Error Mapping, "Client Library
 * Requirements" 3).
 */
const MAX_CODE_LENGTH = 64;

/**
 * Largest accepted `JSON.stringify(error)`, in UTF-8 bytes (Transport Error Mapping, "Client
 * Library Requirements" 3).
 */
export const MAX_SERIALIZED_BYTES = 4096;

/**
 * Most UTF-8 bytes `JSON.stringify` writes for a value parsed from JSON text, per UTF-8 byte of
 * that text: 21/4, the number `1e20` (4 bytes) written `100000000000000000000` (21). Everything
 * else is written no longer than the text had it (whitespace and duplicate keys dropped, escapes
 * written as short or shorter) but a raw lone surrogate in the text (3 bytes, as U+FFFD) written
 * as an escape (6 bytes): 2.
 */
const MAX_REWRITE_GROWTH = 21 / 4;

/** Largest source text, in UTF-8 bytes, whose every value serializes within the 4096 bytes. */
const SMALL_SOURCE_BYTES = Math.floor(MAX_SERIALIZED_BYTES / MAX_REWRITE_GROWTH);

/** `Object.prototype`, read at the call sites of `isOwnValue` (see _json.ts). */
const PROTO: Readonly<Record<string, unknown>> = Object.prototype as Record<string, unknown>;

/**
 * `value` when it is a valid extracted `adcp_error`: a non-array object with an own string `code`
 * of 1 to 64 UTF-16 code units, at most 4096 UTF-8 bytes as JSON; `null` otherwise. Never throws.
 *
 * `sourceBytes` bounds the UTF-8 size of the JSON text `value` was parsed from, unchanged
 * (`Infinity` when unknown): at most {@link SMALL_SOURCE_BYTES} proves the size bound without
 * looking. Otherwise an upper bound of the size of plain data proves it (a walk of a few
 * nanoseconds per value), and only what neither proves is serialized (about 250 ns for a small
 * error).
 */
export function checkAdcpError(value: unknown, sourceBytes: number): JsonRecord | null {
  if (!isJsonObject(value)) return null;
  const code = value.code;
  if (typeof code !== "string" || code.length === 0 || code.length > MAX_CODE_LENGTH) return null;
  if (!isOwnValue(value, "code", PROTO.code)) return null;
  if (sourceBytes <= SMALL_SOURCE_BYTES || plainJsonFits(value, MAX_SERIALIZED_BYTES)) return value;
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(value);
  } catch {
    return null; // BigInt, cycle, or stack exhaustion: not a JSON error object
  }
  if (typeof serialized !== "string" || utf8LengthExceeds(serialized, MAX_SERIALIZED_BYTES)) {
    return null;
  }
  return value;
}
