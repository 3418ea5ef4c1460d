// Private string helpers shared by the sanitizers and escapers. Not exported from mod.ts.
import {
  checkOptionKeys,
  nativeUtf8Length,
  optionError,
  type OptionKeys,
} from "@adcp-wire/internal";
import { removeStripSet } from "./_strip_set.ts";

const encoder = new TextEncoder();
const SCRATCH_CACHE_LIMIT = 64 * 1024;
let scratch = new Uint8Array(1024);

/**
 * Truncates a well-formed string to at most `maxBytes` UTF-8 bytes on a code point boundary
 * (the longest prefix that fits).
 *
 * `TextEncoder.encodeInto` into a `maxBytes` buffer stops before the first code point that does
 * not fit, which is exactly that prefix. For caps above {@link ENCODE_INTO_MAX}, when the
 * native counter is there, the total length decides whether to cut at all, and
 * {@link findCut} finds the cut in a few native measurements.
 */
export function truncateUtf8(value: string, maxBytes: number): string {
  // Every UTF-16 code unit encodes to at most 3 UTF-8 bytes (a surrogate pair: 2 units, 4 bytes).
  if (value.length * 3 <= maxBytes) return value;
  // `value` is well-formed here, so every span measured below is too; `nativeUtf8Length` is exact
  // on any string (its probe includes lone surrogates).
  if (nativeUtf8Length !== undefined && maxBytes > ENCODE_INTO_MAX) {
    const total = nativeUtf8Length(value);
    return total <= maxBytes
      ? value
      : value.slice(0, findCut(value, maxBytes, total, nativeUtf8Length));
  }
  let buffer: Uint8Array;
  if (maxBytes <= SCRATCH_CACHE_LIMIT) {
    if (scratch.length < maxBytes) scratch = new Uint8Array(Math.max(maxBytes, scratch.length * 2));
    buffer = scratch.subarray(0, maxBytes);
  } else {
    buffer = new Uint8Array(maxBytes);
  }
  const { read } = encoder.encodeInto(value, buffer);
  return read >= value.length ? value : value.slice(0, read);
}

/**
 * Up to this cap, `encodeInto` finds the cut faster than measuring: it stops after `maxBytes`
 * bytes, and its cost (about 2 ns per unit above U+007F) is then below that of a few native
 * measurements of longer spans.
 */
const ENCODE_INTO_MAX = 1024;
/** Spans this short (in code units) are finished by a code point walk. */
const WALK_SPAN = 32;

/**
 * The end index of the longest prefix of well-formed `value` (of `total` UTF-8 bytes, more than
 * `maxBytes`) that is at most `maxBytes` bytes. A safeguarded interpolation search on the native
 * byte count of prefix spans (alternate steps bisect, so it never takes more steps than about
 * twice a binary search), then a code point walk over the last short span.
 */
export function findCut(
  value: string,
  maxBytes: number,
  total: number,
  measure: (value: string) => number,
): number {
  // Invariant: `low` and `high` are code point boundaries; the prefix up to `low` is `lowBytes`
  // bytes (at most `maxBytes`), the prefix up to `high` is `highBytes` bytes (more than
  // `maxBytes`).
  let low = 0;
  let lowBytes = 0;
  let high = value.length;
  let highBytes = total;
  for (let step = 0; high - low > WALK_SPAN; step++) {
    let middle = step % 2 === 0
      ? low + Math.floor((maxBytes - lowBytes) * (high - low) / (highBytes - lowBytes))
      : (low + high) >>> 1;
    middle = Math.min(Math.max(middle, low + 1), high - 1);
    if (isLowSurrogate(value.charCodeAt(middle)) && isHighSurrogate(value.charCodeAt(middle - 1))) {
      middle = middle - 1 > low ? middle - 1 : middle + 1; // never split a pair
      if (middle >= high) break;
    }
    const bytes = lowBytes + measure(value.slice(low, middle));
    if (bytes <= maxBytes) {
      low = middle;
      lowBytes = bytes;
    } else {
      high = middle;
      highBytes = bytes;
    }
  }
  return low + cutFromStart(value.slice(low, high), maxBytes - lowBytes);
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * The end index of the longest prefix of well-formed `value` that is at most `maxBytes` UTF-8
 * bytes: whole code points are kept from the start while they fit.
 */
export function cutFromStart(value: string, maxBytes: number): number {
  let end = 0;
  let kept = 0;
  while (end < value.length) {
    const unit = value.charCodeAt(end);
    const bytes = unit < 0x80 ? 1 : unit < 0x800 ? 2 : isHighSurrogate(unit) ? 4 : 3;
    if (kept + bytes > maxBytes) break;
    kept += bytes;
    end += bytes === 4 ? 2 : 1;
  }
  return end;
}

/** The requirement of every byte-count and count option. */
const NON_NEGATIVE_SAFE_INTEGER = "a non-negative safe integer";

/**
 * Checks that argument `name` of the function doing `action` is a string.
 *
 * @throws {TypeError} When `value` is not a string.
 */
export function assertString(
  action: string,
  name: string,
  value: unknown,
): asserts value is string {
  if (typeof value !== "string") throw optionError(TypeError, action, name, "a string", value);
}

/**
 * Checks that `options` is a non-null object with no own key outside `keys`. With `hideStrings`,
 * the string value of an unknown key is shown by its length only: it may be a misspelled secret.
 *
 * @throws {TypeError} When it is not an object, or has an unknown key.
 */
export function assertOptionsObject(
  action: string,
  options: unknown,
  keys: OptionKeys,
  hideStrings = false,
): asserts options is object {
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, action, "options", "an object", options);
  }
  if (!hideStrings) return checkOptionKeys(action, "options", options, keys);
  for (const key in options) {
    if (!Object.hasOwn(options, key) || keys.has(key)) continue;
    const value: unknown = (options as Record<string, unknown>)[key];
    const shown = typeof value === "string" ? `(${value.length} characters, not shown)` : value;
    // A computed key defines an own property, `__proto__` included.
    checkOptionKeys(action, "options", { [key]: shown }, keys);
  }
}

/**
 * Checks a byte-count or count option: a non-negative safe integer.
 *
 * @throws {TypeError} When the value is not a number.
 * @throws {RangeError} When the value is not a non-negative safe integer.
 */
export function assertByteCount(
  action: string,
  name: string,
  value: unknown,
): asserts value is number {
  if (typeof value !== "number") {
    throw optionError(TypeError, action, name, NON_NEGATIVE_SAFE_INTEGER, value);
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    throw optionError(RangeError, action, name, NON_NEGATIVE_SAFE_INTEGER, value);
  }
}

/**
 * `sanitizeSellerString` without argument checks, for callers inside the package that have
 * already validated `maxBytes`: repair lone surrogates, remove the strip set (the table in
 * `_strip_set.ts`), truncate.
 */
export function sanitizeUnchecked(value: string, maxBytes: number): string {
  // The result never has more than `maxBytes` code units (each is at least one byte), so when the
  // input is much longer, sanitize a prefix first. Removal and surrogate repair act on single code
  // points, so the sanitized prefix is a prefix of the sanitized whole, as long as the cut does
  // not split a surrogate pair. If truncation happens inside the prefix, that is the answer.
  const prefixLength = maxBytes * 2 + 16;
  if (value.length > prefixLength) {
    let cut = prefixLength;
    const last = value.charCodeAt(cut - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut++; // keep a pair together (or a lone high whole)
    const prefix = clean(value.slice(0, cut));
    const truncated = truncateUtf8(prefix, maxBytes);
    if (truncated.length < prefix.length) return truncated;
  }
  return truncateUtf8(clean(value), maxBytes);
}

function clean(value: string): string {
  const wellFormed = value.isWellFormed() ? value : value.toWellFormed();
  return removeStripSet(wellFormed);
}

/** Byte cap of each sanitized segment of an error's JSON pointer. */
export const SANITIZE_KEY_POINTER_BYTES = 64;
