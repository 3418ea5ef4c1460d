// UTF-8 size checks for seller-controlled strings (the one home of UTF-8 counting in the
// workspace), without encoding the common case.
//
// A string of n UTF-16 code units encodes to at least n and at most 3n UTF-8 bytes (a surrogate
// pair is 2 units and 4 bytes; a lone surrogate is 1 unit and 3 bytes, as TextEncoder writes
// U+FFFD). `utf8LengthExceeds` answers from those bounds when it can and otherwise counts exactly,
// allocating nothing that grows with the input.
//
// The exact count uses the runtime's native counter when there is one: `Buffer.byteLength`, a
// global in Deno 2, Node.js and Bun, which measures without encoding (Deno 2.9: about 0.04 ms for
// 4 MiB of Latin-1 text, 0.3 ms with units above U+00FF, against 2 ms for the portable counters
// below and 10 ms for a JSON.parse of the same text). It is used only after it has measured a
// probe of every kind of unit (ASCII, two- and three-byte units, a surrogate pair, lone
// surrogates) exactly as TextEncoder does, so a polyfill that counts differently is never used.
//
// Without it (browsers), two portable counters, picked by content:
//
// - Text with no unit above U+00FF (which V8 stores one byte per unit): TextEncoder#encodeInto on
//   32 Ki-unit chunks into one reused 64 KiB scratch buffer, native and about 0.1 ms for 4 MiB of
//   ASCII (Deno 2.9, V8 15). From the first chunk holding a Latin-1 letter, where encodeInto
//   leaves its fast path (about 2.4 ms for 4 MiB), the rest is counted by summing the lengths of
//   U+0080-U+00FF runs found by a regular expression (about 2 ms for 4 MiB).
// - Other text: skip ASCII runs with a sticky regular expression and count the remaining units in
//   a char-code loop, about 2 ms for 4 MiB. encodeInto takes about 5.5 ms on such text, and a
//   char-code loop over every unit about 6 ms (half of a JSON.parse of the same text).
//
// The test for a unit above U+00FF costs nothing on one-byte strings (the regular expression
// cannot match one) and stops at the first such unit otherwise. All counters are exact for any
// string; `_utf8_test.ts` checks each of them against TextEncoder and a reference loop.

/** Probe for the native counter: 1 + 2 + 3 + 4 bytes, a lone low and a lone high surrogate. */
const PROBE = "a\u00e9\u20ac\u{1F600}\udc00\ud800b";
const PROBE_BYTES = 1 + 2 + 3 + 4 + 3 + 3 + 1;

/**
 * The runtime's exact UTF-8 counter (`Buffer.byteLength`), or `undefined` when there is none we can
 * trust.
 */
export const nativeUtf8Length: ((text: string) => number) | undefined = findNativeCounter(
  globalThis,
);

/**
 * `scope.Buffer.byteLength` as a UTF-8 counter, if it measures a probe of every kind of code unit
 * exactly as `TextEncoder` does; `undefined` otherwise.
 *
 * @param scope The object to look for `Buffer` on (`globalThis` in production).
 * @returns The counter, or `undefined` when there is none to trust.
 *
 * @example Usage
 * ```ts
 * import { findNativeCounter } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(findNativeCounter({}), undefined);
 * ```
 */
export function findNativeCounter(scope: object): ((text: string) => number) | undefined {
  const byteLength = (scope as { Buffer?: { byteLength?: unknown } }).Buffer?.byteLength;
  if (typeof byteLength !== "function") return undefined;
  const count = (text: string): number => byteLength(text, "utf8");
  try {
    return count(PROBE) === PROBE_BYTES && count("\u00e9".repeat(3)) === 6 ? count : undefined;
  } catch {
    return undefined;
  }
}

/**
 * UTF-16 code units encoded per chunk: at most 2 bytes each on this path, so it fits the scratch
 * buffer.
 */
const CHUNK_UNITS = 32_768;
/** Matches any UTF-16 code unit above U+00FF (no `u` flag: surrogates match one by one). */
const WIDE_UNIT = /[\u0100-\uffff]/;
/** Matches each run of units from U+0080 to U+00FF. */
const LATIN1_RUN = /[\u0080-\u00ff]+/g;
/** Matches the (possibly empty) run of ASCII units, U+0000 to U+007F, at `lastIndex`. */
const ASCII_RUN = /[^\u0080-\uffff]*/y;

const encoder = new TextEncoder();
let scratch: Uint8Array | undefined;

/**
 * Whether the UTF-8 encoding of `text` is longer than `limit` bytes. Lone surrogates count as 3
 * bytes (U+FFFD), surrogate pairs as 4. Stops counting soon after the limit is passed.
 *
 * @param text The string to measure.
 * @param limit The largest allowed length in bytes.
 * @returns `true` when the encoding is longer than `limit`.
 *
 * @example Usage
 * ```ts
 * import { utf8LengthExceeds } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(utf8LengthExceeds("\u20ac", 2), true); // 3 bytes
 * strictEqual(utf8LengthExceeds("\u20ac", 3), false);
 * ```
 */
export function utf8LengthExceeds(text: string, limit: number): boolean {
  const units = text.length;
  if (units > limit) return true; // at least 1 byte per unit
  if (units * 3 <= limit) return false; // at most 3 bytes per unit
  return utf8LengthUpTo(text, limit) > limit;
}

/**
 * The UTF-8 length of `text`, exact when it is at most `stopAfter`; otherwise some count above
 * `stopAfter` (counting stops early). Pass `Infinity` for the full length.
 *
 * @param text The string to measure.
 * @param stopAfter The count past which counting may stop.
 * @returns The length in bytes (exact up to `stopAfter`).
 *
 * @example Usage
 * ```ts
 * import { utf8LengthUpTo } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(utf8LengthUpTo("a\u00e9\u{1F600}", Infinity), 7);
 * ```
 */
export function utf8LengthUpTo(text: string, stopAfter: number): number {
  return nativeUtf8Length === undefined
    ? portableUtf8LengthUpTo(text, stopAfter)
    : nativeUtf8Length(text);
}

/**
 * `utf8LengthUpTo` without the native counter: what browsers run.
 *
 * @param text The string to measure.
 * @param stopAfter The count past which counting may stop.
 * @returns The length in bytes (exact up to `stopAfter`).
 *
 * @example Usage
 * ```ts
 * import { portableUtf8LengthUpTo } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * // A lone surrogate is written as U+FFFD.
 * strictEqual(portableUtf8LengthUpTo("\ud800", Infinity), 3);
 * ```
 */
export function portableUtf8LengthUpTo(text: string, stopAfter: number): number {
  return WIDE_UNIT.test(text) ? countWide(text, stopAfter) : countNarrow(text, stopAfter);
}

/** Counts text whose units are all at most U+00FF: one byte each, two from U+0080. */
function countNarrow(text: string, stopAfter: number): number {
  const buffer = scratch ??= new Uint8Array(CHUNK_UNITS * 2);
  const units = text.length;
  let bytes = 0;
  for (let start = 0; start < units; start += CHUNK_UNITS) {
    const end = Math.min(start + CHUNK_UNITS, units);
    const chunk = start === 0 && end === units ? text : text.slice(start, end);
    const written = encoder.encodeInto(chunk, buffer).written;
    // A chunk with a non-ASCII unit took the encoder's slow path: count the rest by regex.
    if (written !== end - start) return countLatin1From(text, start, bytes, stopAfter);
    bytes += written;
    if (bytes > stopAfter) return bytes;
  }
  return bytes;
}

/**
 * `counted` plus the UTF-8 length of `text` from `start`, when every unit is at most U+00FF;
 * stops after the first run that takes the total past `stopAfter`.
 */
function countLatin1From(text: string, start: number, counted: number, stopAfter: number): number {
  let bytes = counted + text.length - start;
  LATIN1_RUN.lastIndex = start;
  while (bytes <= stopAfter) {
    const match = LATIN1_RUN.exec(text);
    if (match === null) break;
    bytes += match[0].length; // U+0080 to U+00FF: one extra byte each
  }
  return bytes;
}

function countWide(text: string, stopAfter: number): number {
  const units = text.length;
  let bytes = units; // one byte per unit, plus the extra bytes counted below
  let index = 0;
  while (index < units) {
    ASCII_RUN.lastIndex = index;
    ASCII_RUN.test(text); // always matches, possibly empty
    index = ASCII_RUN.lastIndex;
    for (; index < units; index++) {
      const unit = text.charCodeAt(index);
      if (unit < 0x80) break;
      if (unit < 0x800) {
        bytes += 1;
      } else if (
        unit >= 0xd800 && unit <= 0xdbff && index + 1 < units &&
        (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00
      ) {
        bytes += 2; // surrogate pair: 4 bytes for 2 units
        index++;
      } else {
        bytes += 2; // 3 bytes: BMP above U+07FF, or a lone surrogate written as U+FFFD
      }
    }
    if (bytes > stopAfter) return bytes;
  }
  return bytes;
}

/**
 * The exact UTF-8 length of `text`: lone surrogates count as 3 bytes (U+FFFD), as `TextEncoder`
 * writes them.
 *
 * @param text The string to measure.
 * @returns The length in bytes.
 *
 * @example Usage
 * ```ts
 * import { utf8Length } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(utf8Length("caf\u00e9"), 5);
 * ```
 */
export function utf8Length(text: string): number {
  return utf8LengthUpTo(text, Infinity);
}
