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
//
// Before that walk, `plainJsonFits` tries the common case in a few nanoseconds per value: a
// recursive walk of the upper bound alone, over plain data only (strings, numbers, booleans, null,
// arrays and ordinary objects, nothing with a `toJSON` method, at most PLAIN_WALK_DEPTH levels),
// stopping as soon as the bound passes the limit. Anything else is left to the exact readings;
// `plainJsonFits` never says "fits" when `JSON.stringify` would throw or write more than the limit
// (but for the one contrived object its walk describes).
import { utf8LengthUpTo } from "@adcp-wire/internal";

/**
 * Longest `JSON.stringify` output of a finite number: 25, `-0.0000012345678901234567` (17
 * significant digits after five zeros; `-1.2345678901234567e+308` is 24).
 */
export const MAX_NUMBER_LENGTH = 25;

/** Deepest nesting `plainJsonFits` walks; deeper values are left to the exact readings. */
const PLAIN_WALK_DEPTH = 64;

const OBJECT_PROTOTYPE: object = Object.prototype;

/**
 * Whether `value` is a plain JSON object or array whose `JSON.stringify` takes at most `limit`
 * UTF-8 bytes, proved from an upper bound: a string of n UTF-16 units takes at most 6n + 2 bytes,
 * a number {@link MAX_NUMBER_LENGTH}, punctuation with a comma counted per member. `false` means
 * "not proved": the value may still fit, and the caller then measures it exactly.
 */
export function plainJsonFits(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false; // only containers are asked
  try {
    return containerBudgetLeft(value, limit, 0) >= 0;
  } catch {
    return false; // a throwing getter or proxy trap, or the stack: not plain data
  }
}

/**
 * `budget` less the upper bound of the serialized size of a non-null object; negative when it
 * does not fit or is not plain data. Primitives are counted in the loops, without a call, in
 * `if` chains (a `switch` on `typeof` costs V8 about twice as much).
 *
 * What "plain" needs, and how it is checked cheaply (`Object.getPrototypeOf` costs V8 about 8 ns
 * on an object of unknown shape, more than the rest of its visit):
 *
 * - No callable `toJSON`, own or inherited: one read through the prototype chain.
 * - Arrays are serialized by `length` and index reads, as the walk reads them, whatever their
 *   prototype: `Array.isArray` suffices.
 * - Other objects are serialized by their own enumerable string keys, which for-in lists (with any
 *   inherited enumerable key: an over-count), unless they wrap a primitive (`new Number(1)`,
 *   written `1`) or are raw JSON (`JSON.rawJSON`, whose one key and string already over-count
 *   it). Wrappers inherit another `constructor` than `Object`: an object whose `constructor` reads
 *   `Object` is taken as ordinary, any other must have `Object.prototype` or `null` as prototype,
 *   and so must one without an enumerable key (what a wrapper has). Not caught: a wrapper that
 *   has enumerable keys and a `constructor` redefined as `Object` on itself, not enumerable.
 */
function containerBudgetLeft(value: object, budget: number, depth: number): number {
  if (depth >= PLAIN_WALK_DEPTH) return -1;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return -1;
  if (Array.isArray(value)) {
    const length = value.length;
    budget -= length + 2; // brackets and commas (one too many: an upper bound)
    for (let index = 0; index < length && budget >= 0; index++) {
      const item: unknown = value[index];
      if (typeof item === "string") budget -= 6 * item.length + 2;
      else if (typeof item === "number") budget -= MAX_NUMBER_LENGTH;
      else if (typeof item === "object" && item !== null) {
        budget = containerBudgetLeft(item, budget, depth + 1);
      } else if (typeof item === "boolean") budget -= 5;
      else if (item === null) budget -= 4;
      else return -1; // undefined (or a hole), a function, a symbol, a BigInt: not plain
    }
    return budget;
  }
  const ordinary = (value as { constructor?: unknown }).constructor === Object;
  if (!ordinary && !hasPlainPrototype(value)) return -1; // wrappers, Date, Map, class instances…
  budget -= 2; // braces
  const record = value as Record<string, unknown>;
  let keys = 0;
  for (const key in record) {
    keys++;
    const item = record[key];
    budget -= 6 * key.length + 4; // "key": and a comma
    if (typeof item === "string") budget -= 6 * item.length + 2;
    else if (typeof item === "number") budget -= MAX_NUMBER_LENGTH;
    else if (typeof item === "object" && item !== null) {
      budget = containerBudgetLeft(item, budget, depth + 1);
    } else if (typeof item === "boolean") budget -= 5;
    else if (item === null) budget -= 4;
    else return -1;
    if (budget < 0) return -1;
  }
  return keys === 0 && ordinary && !hasPlainPrototype(value) ? -1 : budget;
}

/** Whether the prototype of `value` is `Object.prototype` or `null`. */
function hasPlainPrototype(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === OBJECT_PROTOTYPE || proto === null;
}

/**
 * `undefined` when `value` serializes to at most `limit` UTF-8 bytes; otherwise its size, exact, or
 * a lower bound above `limit` when the walk stopped early.
 */
export function jsonSizeOver(value: unknown, limit: number): number | undefined {
  if (plainJsonFits(value, limit)) return undefined;
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
