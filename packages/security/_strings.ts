// Private string helpers shared by the sanitizers and escapers. Not exported from mod.ts.
import { removeStripSet } from "./_strip_set.ts";

const encoder = new TextEncoder();
const SCRATCH_CACHE_LIMIT = 64 * 1024;
let scratch = new Uint8Array(1024);

/**
 * The runtime's UTF-8 counter for well-formed strings: `Buffer.byteLength` (a global in Deno 2,
 * Node.js and Bun; it measures without encoding), kept only if it gets 1-, 2-, 3- and 4-byte
 * code points right. `undefined` elsewhere (browsers): the portable paths below are then used.
 */
export const measureNatively: ((value: string) => number) | undefined = (() => {
  const candidate = (globalThis as { Buffer?: { byteLength?: unknown } }).Buffer?.byteLength;
  if (typeof candidate !== "function") return undefined;
  const measure = (value: string): number => candidate(value, "utf8");
  try {
    return measure("a\u00e9\u20ac\u{1F600}") === 10 ? measure : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * Truncates a well-formed string to at most `maxBytes` UTF-8 bytes on a code point boundary
 * (the longest prefix that fits).
 *
 * `TextEncoder.encodeInto` into a `maxBytes` buffer stops before the first code point that does
 * not fit, which is exactly that prefix. For caps above {@linkcode ENCODE_INTO_MAX}, when the
 * native counter is there, the total length decides whether to cut at all, and
 * {@linkcode findCut} finds the cut in a few native measurements.
 */
export function truncateUtf8(value: string, maxBytes: number): string {
  // Every UTF-16 code unit encodes to at most 3 UTF-8 bytes (a surrogate pair: 2 units, 4 bytes).
  if (value.length * 3 <= maxBytes) return value;
  if (measureNatively !== undefined && maxBytes > ENCODE_INTO_MAX) {
    const total = measureNatively(value);
    return total <= maxBytes
      ? value
      : value.slice(0, findCut(value, maxBytes, total, measureNatively));
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
  // bytes (at most `maxBytes`), the prefix up to `high` is `highBytes` bytes (more than `maxBytes`).
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

/** UTF-8 byte length of a well-formed string. */
export function utf8ByteLength(value: string): number {
  if (measureNatively !== undefined) return measureNatively(value);
  let bytes = value.length;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0x80) {
      if (unit < 0x800) bytes += 1;
      // A surrogate pair is 2 units and 4 bytes: the high surrogate adds the 2 missing bytes.
      else if (unit >= 0xd800 && unit <= 0xdbff) bytes += 2;
      else if (unit < 0xdc00 || unit > 0xdfff) bytes += 2;
    }
  }
  return bytes;
}

/** @throws {TypeError} When `value` is not a string (the message names its type, never its content). */
export function assertString(value: unknown): asserts value is string {
  if (typeof value !== "string") {
    throw new TypeError(
      `Expected value to be a string, got ${value === null ? "null" : typeof value}`,
    );
  }
}

/** @throws {TypeError} When `options` is not a non-null object. */
export function assertOptionsObject(options: unknown): asserts options is object {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `Expected options to be an object, got ${options === null ? "null" : typeof options}`,
    );
  }
}

/**
 * Validates a byte-count option: a non-negative safe integer.
 *
 * @throws {TypeError} When the value is not a number.
 * @throws {RangeError} When the value is not a non-negative safe integer.
 */
export function assertByteCount(name: string, value: unknown): asserts value is number {
  if (typeof value !== "number") {
    throw new TypeError(`Expected ${name} to be a number, got ${describe(value)}`);
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`Expected ${name} to be a non-negative safe integer, got ${value}`);
  }
}

/** A short, safe description of a value's type for error messages (never its content). */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Returns true for objects whose prototype is `Object.prototype` or `null`. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
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
