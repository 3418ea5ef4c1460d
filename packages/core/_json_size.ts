// The size of a parsed JSON value as `JSON.stringify` would write it, in UTF-8 bytes, bounded: the
// A2A DataPart size limit (A2A Response Extraction, Security Considerations, Size Limits) needs it
// for values that arrived already parsed, without paying for a serialization of every payload.
//
// One walk sums a lower and an upper bound of the serialized size: a string of n UTF-16 units
// takes at least n + 2 bytes (every unit is at least one byte) and at most 6n + 2 (a `\uXXXX`
// escape); a number at least 1 and at most 24 (`-1.2345678901234567e+308`); punctuation exactly.
// When the upper bound is within the limit the value fits; when the lower bound passes it, it does
// not (the walk stops there, so a huge or cyclic value costs at most `limit` steps: every value
// adds at least one byte); otherwise the exact size is measured once with `JSON.stringify`.
import { utf8LengthUpTo } from "@adcp-wire/internal";

/** Longest `JSON.stringify` output of a finite number. */
const MAX_NUMBER_LENGTH = 24;

/**
 * `undefined` when `value` serializes to at most `limit` UTF-8 bytes; otherwise its size, exact, or
 * a lower bound above `limit` when the walk stopped early.
 */
export function jsonSizeOver(value: unknown, limit: number): number | undefined {
  let lower = 0;
  let upper = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      lower += item.length + 2;
      upper += 6 * item.length + 2;
    } else if (typeof item === "number") {
      lower += 1;
      upper += MAX_NUMBER_LENGTH;
    } else if (typeof item === "boolean") {
      const size = item ? 4 : 5;
      lower += size;
      upper += size;
    } else if (item === null || typeof item !== "object") {
      lower += 4; // null (anything else is not JSON: counted as null, the smallest it could be)
      upper += 4;
    } else if (Array.isArray(item)) {
      const punctuation = 2 + Math.max(0, item.length - 1);
      lower += punctuation;
      upper += punctuation;
      if (lower > limit) return lower; // before the children: a huge array stops here
      for (let index = item.length - 1; index >= 0; index--) stack.push(item[index]);
    } else {
      const keys = Object.keys(item);
      const punctuation = 2 + Math.max(0, keys.length - 1);
      lower += punctuation;
      upper += punctuation;
      if (lower > limit) return lower;
      for (const key of keys) {
        lower += key.length + 3; // "key":
        upper += 6 * key.length + 3;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
    if (lower > limit) return lower;
  }
  if (upper <= limit) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined; // not serializable (a BigInt, a cycle the walk finished): not JSON data
  }
  if (text === undefined) return undefined;
  const size = utf8LengthUpTo(text, limit);
  return size > limit ? utf8LengthUpTo(text, Number.MAX_SAFE_INTEGER) : undefined;
}
