import { optionError } from "@adcp-wire/internal";
import { resolveJsonLimits } from "./_json.ts";
import { sanitizeKeyNamesUnchecked } from "./_key_names.ts";
import { assertString } from "./_strings.ts";
import { DuplicateKeyError, JsonDepthLimitError, JsonNodeLimitError } from "./errors.ts";
import type { JsonLimits } from "./json_limits.ts";

/** The duplicate keys {@link findDuplicateKeys} found. */
export interface DuplicateKeyReport {
  /**
   * The decoded name of every duplicate member, in text order: each member whose key an earlier
   * member of the same object already has (so a key written three times is listed twice). Raw
   * seller data: sanitize with {@link sanitizeDuplicateKeyNames} before logging.
   */
  readonly names: readonly string[];
  /** The number of duplicate members, `names.length`. */
  readonly count: number;
}

/**
 * Parses JSON text as `JSON.parse` does, but throws {@link DuplicateKeyError} when any object, at
 * any depth (objects inside arrays included), has the same key twice. Keys are compared after
 * decoding escapes (`"a"` and `"\u0061"` collide); `__proto__` is an ordinary key, as in
 * `JSON.parse`. A scan of the text in one pass (an explicit stack, no recursion, linear time on
 * any input) finds the duplicates and the syntax errors, and applies the limits before anything
 * is built; `JSON.parse` then builds the value of text the scan accepted. The scanning rules are
 * in [docs/security.md](../../docs/security.md#strict-json).
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, Duplicate object keys (signers reject
 * duplicate-key input with `duplicate_key_input`); webhook verifier checklist step 14a.
 *
 * @param text The JSON text.
 * @param limits The depth and node limits, checked while scanning, before any value is built
 * (default: 64 levels, 2,097,152 values).
 * @returns The parsed value, exactly what `JSON.parse(text)` returns.
 * @throws {SyntaxError} When `text` is not JSON. The message names the index and the character
 * as `U+XXXX` (never raw input), and wins over duplicates: a `DuplicateKeyError` means the text is
 * valid JSON.
 * @throws {DuplicateKeyError} When an object repeats a key; it carries the sanitized names and the
 * count.
 * @throws {JsonDepthLimitError} At the first container nested deeper than `maxJsonDepth`.
 * @throws {JsonNodeLimitError} At the first value past `maxJsonNodes`.
 * @throws {TypeError} When `text` is not a string, a limit is not a number or has its 0.1 name
 * (`maxDepth`, `maxNodes`), or `limits` has another unknown key.
 * @throws {RangeError} When a limit is not a non-negative safe integer.
 *
 * @example Rejecting a duplicate key that JSON.parse would silently collapse
 * ```ts
 * import { DuplicateKeyError, parseJsonStrict } from "@adcp-wire/security";
 * import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
 *
 * deepStrictEqual(parseJsonStrict('{"status":"approved"}'), { status: "approved" });
 * const body = '{"status":"approved","st\\u0061tus":"rejected"}';
 * strictEqual(JSON.parse(body).status, "rejected"); // last wins
 * throws(() => parseJsonStrict(body), (error) => {
 *   ok(error instanceof DuplicateKeyError);
 *   strictEqual(error.code, "duplicate_key_input");
 *   deepStrictEqual(error.keys, ["status"]);
 *   return true;
 * });
 * ```
 */
export function parseJsonStrict(text: string, limits?: JsonLimits): unknown {
  const names = scanChecked(text, limits, "parse JSON strictly");
  if (names.length > 0) throw new DuplicateKeyError(names);
  return JSON.parse(text);
}

/**
 * Finds the duplicate keys of JSON text, for callers that report them rather than throw: the
 * scan of {@link parseJsonStrict}, without building the value.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, Duplicate object keys; webhook verifier
 * checklist step 14a.
 *
 * @param text The JSON text.
 * @param limits The depth and node limits, checked while scanning, before any value is built
 * (default: 64 levels, 2,097,152 values).
 * @returns The decoded names of the duplicate members and their count, or `undefined` when every
 * object's keys are unique.
 * @throws {SyntaxError} When `text` is not JSON.
 * @throws {JsonDepthLimitError} At the first container nested deeper than `maxJsonDepth`.
 * @throws {JsonNodeLimitError} At the first value past `maxJsonNodes`.
 * @throws {TypeError} When `text` is not a string, a limit is not a number or has its 0.1 name
 * (`maxDepth`, `maxNodes`), or `limits` has another unknown key.
 * @throws {RangeError} When a limit is not a non-negative safe integer.
 *
 * @example Listing every repeat, at any depth
 * ```ts
 * import { findDuplicateKeys } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const text = '{"a":1,"a":2,"b":[{"c":1,"c":2},{"c":3}],"a":3}';
 * deepStrictEqual(findDuplicateKeys(text), { names: ["a", "c", "a"], count: 3 });
 * strictEqual(findDuplicateKeys('[{"c":1},{"c":2}]'), undefined);
 * ```
 */
export function findDuplicateKeys(
  text: string,
  limits?: JsonLimits,
): DuplicateKeyReport | undefined {
  const names = scanChecked(text, limits, "find duplicate JSON keys");
  return names.length === 0 ? undefined : { names, count: names.length };
}

/**
 * Makes duplicate key names safe to log or return in an error, by the rules of step 14b, in order:
 * (a) a name with a non-printable code point becomes `<sanitized:N>`, N being the UTF-8 byte length
 * of the part before the first one; (b) other names are cut to at most 32 UTF-8 bytes at a code
 * point boundary; (c) at most 4 names are kept, followed by `<...N more>` when there were more.
 * The non-printable set is exactly the list of 14b(a), so that implementations that follow it log
 * the same names (the wider strip set of {@link sanitizeSellerString} would also be allowed); lone
 * surrogates become U+FFFD first. Why, and the one reading of (a) chosen, are in
 * [docs/security.md](../../docs/security.md#strict-json).
 *
 * Spec: security.mdx, webhook verifier checklist step 14b; Legacy HMAC-SHA256 fallback, Duplicate
 * object keys (signers apply the same rules).
 *
 * @param names The raw key names, e.g. {@link DuplicateKeyReport.names}.
 * @returns At most 5 strings: up to 4 sanitized names, then the overflow marker if needed.
 * @throws {TypeError} When `names` is not an array of strings.
 *
 * @example Sanitizing hostile names
 * ```ts
 * import { sanitizeDuplicateKeyNames } from "@adcp-wire/security";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(
 *   sanitizeDuplicateKeyNames(["status", "role\n2026 INFO ok", "k".repeat(40), "a", "b", "c"]),
 *   ["status", "<sanitized:4>", "k".repeat(32), "a", "<...2 more>"],
 * );
 * ```
 */
export function sanitizeDuplicateKeyNames(names: readonly string[]): string[] {
  const action = "sanitize duplicate key names";
  if (!Array.isArray(names)) throw optionError(TypeError, action, "names", "an array", names);
  names.forEach((name, index) => assertString(action, `names[${index}]`, name));
  return sanitizeKeyNamesUnchecked(names);
}

/** Validates the arguments, then scans. */
function scanChecked(
  text: string,
  limits: JsonLimits | undefined,
  action: string,
): string[] {
  assertString(action, "text", text);
  const { maxJsonDepth, maxJsonNodes } = resolveJsonLimits(limits, action, "limits");
  return new StrictJsonScanner(text, maxJsonDepth, maxJsonNodes).scan();
}

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const OPEN_SQUARE = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_SQUARE = 0x5d;
const LOWER_B = 0x62;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;
const LOWER_R = 0x72;
const LOWER_T = 0x74;
const LOWER_U = 0x75;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

/** The `#opened` entry of an open array; an open object's is the start of its keys in `#keys`. */
const ARRAY = -1;

/**
 * Objects with up to this many members check a new key against the others one by one, in the
 * shared key stack; from the next member on, the object's keys go into a `Set` (one per depth,
 * reused). Most objects are small, and this spares them a hash table.
 */
const SMALL_OBJECT = 8;

/**
 * Keys longer than this many UTF-16 units go into a `Set` as a fingerprint, not as they are: V8
 * hashes a string of 16,384 units or more by its length alone, so many long keys of one length
 * would make each lookup compare against all the others (quadratic in time). Well below V8's
 * cutoff, so that each chunk of a fingerprint is hashed in full.
 */
const LONG_KEY = 4096;

/** Spans of a string up to this long are checked unit by unit, longer ones by native search. */
const SHORT_SPAN = 32;

/** The characters a JSON string may not hold unescaped. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f]/g;

function isDigit(unit: number): boolean {
  return unit >= ZERO && unit <= NINE;
}

function isHexDigit(unit: number): boolean {
  return (unit >= ZERO && unit <= NINE) || ((unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x66);
}

/** A character for a message: printable ASCII as itself, anything else as `U+XXXX`. */
function describeUnit(unit: number): string {
  return unit > SPACE && unit < 0x7f && unit !== 0x27
    ? `'${String.fromCharCode(unit)}'`
    : `U+${unit.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * One pass over JSON text, RFC 8259 as ECMAScript `JSON.parse` reads it: whitespace is space, tab,
 * LF and CR only; any code unit but `"`, `\` and U+0000–U+001F may stand in a string, lone
 * surrogates included.
 *
 * Linear time on any input: the scan never steps back, and besides it each code unit is read a
 * bounded number of times. The closing quote, the next backslash and the next control character
 * are found by native searches whose results are kept until the scan passes them, so each search
 * covers new text. An escaped key is decoded once (by `JSON.parse` of its literal, so decoding is
 * `JSON.parse`'s own); a key is compared with at most `SMALL_OBJECT` others, or hashed once (a long
 * one fingerprinted: two more reads); each open object's keys are dropped when it closes.
 */
class StrictJsonScanner {
  readonly #text: string;
  readonly #maxDepth: number;
  readonly #maxNodes: number;
  /** Per open container, outermost first: `ARRAY`, or the index in `#keys` of an object's keys. */
  readonly #opened: number[] = [];
  /** The keys of every open object, each object's contiguous, innermost last. */
  readonly #keys: string[] = [];
  /** The key set of the open object at each depth (index `depth - 1`), once it is not small. */
  readonly #keySets: Set<string>[] = [];
  /** The same for keys longer than `LONG_KEY`, as fingerprints. */
  readonly #longKeySets: Set<string>[] = [];
  /** Interned chunks of long keys, for `#fingerprint`. */
  #chunks: Map<string, number> | undefined;
  /** The raw names of the duplicates found. */
  readonly #duplicates: string[] = [];
  /** Whether the last string scanned had an escape. */
  #escaped = false;
  /** Index of the first `"` at or after the last search (`length` if none). */
  #quote = -1;
  /** Index of the first `\` at or after the last search (`length` if none). */
  #backslash = -1;
  /** Index of the first U+0000–U+001F at or after the last search (`length` if none). */
  #control = -1;

  constructor(text: string, maxDepth: number, maxNodes: number) {
    this.#text = text;
    this.#maxDepth = maxDepth;
    this.#maxNodes = maxNodes;
  }

  /** Scans the whole text; returns the duplicate names, or throws at the first error. */
  scan(): string[] {
    const text = this.#text;
    const length = text.length;
    const opened = this.#opened;
    let nodes = 0;
    let i = this.#skipSpace(0);
    value: for (;;) {
      // A value starts at i.
      if (++nodes > this.#maxNodes) throw new JsonNodeLimitError(this.#maxNodes, nodes);
      const unit = text.charCodeAt(i);
      if (unit === OPEN_CURLY || unit === OPEN_SQUARE) {
        const depth = opened.length + 1;
        if (depth > this.#maxDepth) throw new JsonDepthLimitError(this.#maxDepth, depth);
        i = this.#skipSpace(i + 1);
        if (unit === OPEN_CURLY) {
          if (text.charCodeAt(i) !== CLOSE_CURLY) {
            opened.push(this.#keys.length);
            i = this.#member(i);
            continue value;
          }
        } else if (text.charCodeAt(i) !== CLOSE_SQUARE) {
          opened.push(ARRAY);
          continue value;
        }
        i++; // an empty container
      } else if (unit === QUOTE) {
        i = this.#string(i);
      } else if (unit === MINUS || isDigit(unit)) {
        i = this.#number(i);
      } else if (unit === LOWER_T && text.startsWith("true", i)) {
        i += 4;
      } else if (unit === LOWER_F && text.startsWith("false", i)) {
        i += 5;
      } else if (unit === LOWER_N && text.startsWith("null", i)) {
        i += 4;
      } else {
        throw this.#unexpected(i, "a JSON value");
      }
      // After a value: close containers until a comma starts the next value.
      for (;;) {
        i = this.#skipSpace(i);
        const depth = opened.length;
        if (depth === 0) {
          if (i < length) throw this.#unexpected(i, "the end of the text");
          return this.#duplicates;
        }
        const next = text.charCodeAt(i);
        const start = opened[depth - 1]!;
        if (next === COMMA) {
          i = this.#skipSpace(i + 1);
          if (start !== ARRAY) i = this.#member(i);
          continue value;
        }
        if (start === ARRAY ? next !== CLOSE_SQUARE : next !== CLOSE_CURLY) {
          throw this.#unexpected(i, start === ARRAY ? "',' or ']'" : "',' or '}'");
        }
        if (start !== ARRAY) {
          if (this.#keys.length - start > SMALL_OBJECT) {
            this.#keySets[depth - 1]?.clear();
            this.#longKeySets[depth - 1]?.clear();
          }
          this.#keys.length = start;
        }
        opened.pop();
        i++;
      }
    }
  }

  /**
   * Reads an object member's key at `i` (after `{` or `,` and whitespace), records it, and
   * returns the index of the member's value.
   */
  #member(i: number): number {
    const text = this.#text;
    if (text.charCodeAt(i) !== QUOTE) throw this.#unexpected(i, "a string key");
    const end = this.#string(i);
    const key = this.#escaped
      ? JSON.parse(text.slice(i, end)) as string
      : text.slice(i + 1, end - 1);
    const keys = this.#keys;
    const index = this.#opened.length - 1;
    const start = this.#opened[index]!;
    const count = keys.length - start;
    let repeated = false;
    if (count < SMALL_OBJECT) {
      for (let k = start; k < keys.length; k++) {
        if (keys[k] === key) {
          repeated = true;
          break;
        }
      }
    } else {
      if (count === SMALL_OBJECT) {
        for (let k = start; k < keys.length; k++) this.#insert(index, keys[k]!);
      }
      repeated = !this.#insert(index, key);
    }
    if (repeated) this.#duplicates.push(key);
    keys.push(key);
    const colon = this.#skipSpace(end);
    if (text.charCodeAt(colon) !== COLON) throw this.#unexpected(colon, "':'");
    return this.#skipSpace(colon + 1);
  }

  /** Adds `key` to the key set at `index`; returns whether it was new there. */
  #insert(index: number, key: string): boolean {
    let set: Set<string>;
    let entry = key;
    if (key.length <= LONG_KEY) {
      set = this.#keySets[index] ??= new Set();
    } else {
      set = this.#longKeySets[index] ??= new Set();
      entry = this.#fingerprint(key);
    }
    const size = set.size;
    set.add(entry);
    return set.size !== size;
  }

  /**
   * A short string that stands for a long key, equal for two keys exactly when the keys are equal:
   * the key is cut into chunks of `LONG_KEY` units, each chunk gets a number (the same chunk the
   * same number, through a `Map` shared by the scan), and the numbers, two code units each, make
   * the next string; repeated until it is at most `LONG_KEY` long, then the number of rounds is
   * appended (so results of different rounds never meet). Each round reads its input once and
   * shrinks it 2048-fold.
   */
  #fingerprint(key: string): string {
    const chunks = this.#chunks ??= new Map();
    let current = key;
    let rounds = 0;
    while (current.length > LONG_KEY) {
      const units: string[] = [];
      for (let start = 0; start < current.length; start += LONG_KEY) {
        const chunk = current.slice(start, start + LONG_KEY);
        let id = chunks.get(chunk);
        if (id === undefined) {
          id = chunks.size;
          chunks.set(chunk, id);
        }
        units.push(String.fromCharCode(id >>> 16, id & 0xffff));
      }
      current = units.join("");
      rounds++;
    }
    return current + String.fromCharCode(rounds);
  }

  /**
   * Validates the string literal at `start` (a `"`) and returns the index after its closing
   * quote; sets `#escaped`.
   */
  #string(start: number): number {
    const text = this.#text;
    const length = text.length;
    let escaped = false;
    let i = start + 1;
    for (;;) {
      // The first quote, backslash or control character from i: unit by unit over a short span
      // (most strings end within one), then by the kept native searches.
      let stop = i;
      const limit = Math.min(i + SHORT_SPAN, length);
      for (; stop < limit; stop++) {
        const unit = text.charCodeAt(stop);
        if (unit === QUOTE || unit === BACKSLASH || unit < SPACE) break;
      }
      if (stop === limit && limit < length) stop = this.#nextSpecial(stop);
      if (stop === length) throw this.#unexpected(length, "'\"' closing the string");
      const unit = text.charCodeAt(stop);
      if (unit === QUOTE) {
        this.#escaped = escaped;
        return stop + 1;
      }
      if (unit !== BACKSLASH) {
        throw this.#unexpected(stop, "a string character (U+0000-U+001F must be escaped)");
      }
      escaped = true;
      const next = text.charCodeAt(stop + 1);
      if (next === LOWER_U) {
        for (let digit = stop + 2; digit < stop + 6; digit++) {
          if (!isHexDigit(text.charCodeAt(digit))) throw this.#unexpected(digit, "a hex digit");
        }
        i = stop + 6;
      } else if (
        next === QUOTE || next === BACKSLASH || next === SLASH || next === LOWER_B ||
        next === LOWER_F || next === LOWER_N || next === LOWER_R || next === LOWER_T
      ) {
        i = stop + 2;
      } else {
        throw this.#unexpected(stop + 1, "an escape character");
      }
    }
  }

  /**
   * The index of the first quote, backslash or U+0000–U+001F at or after `i` (`length` if none).
   * Each of the three is found by a native search whose result is kept until the scan passes it,
   * so every search covers text no earlier search of its kind has read.
   */
  #nextSpecial(i: number): number {
    const text = this.#text;
    const length = text.length;
    if (this.#quote < i) {
      const found = text.indexOf('"', i);
      this.#quote = found === -1 ? length : found;
    }
    if (this.#backslash < i) {
      const found = text.indexOf("\\", i);
      this.#backslash = found === -1 ? length : found;
    }
    if (this.#control < i) {
      CONTROL.lastIndex = i;
      this.#control = CONTROL.test(text) ? CONTROL.lastIndex - 1 : length;
    }
    return Math.min(this.#quote, this.#backslash, this.#control);
  }

  /** Validates the number at `start` (`-` or a digit) and returns the index after it. */
  #number(start: number): number {
    const text = this.#text;
    let i = start;
    if (text.charCodeAt(i) === MINUS) i++;
    const first = text.charCodeAt(i);
    if (first === ZERO) {
      i++;
    } else if (first >= ONE && first <= NINE) {
      i++;
      while (isDigit(text.charCodeAt(i))) i++;
    } else {
      throw this.#unexpected(i, "a digit");
    }
    if (text.charCodeAt(i) === DOT) {
      i++;
      if (!isDigit(text.charCodeAt(i))) throw this.#unexpected(i, "a digit");
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const exponent = text.charCodeAt(i);
    if (exponent === LOWER_E || exponent === UPPER_E) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      if (!isDigit(text.charCodeAt(i))) throw this.#unexpected(i, "a digit");
      while (isDigit(text.charCodeAt(i))) i++;
    }
    return i;
  }

  /** The index of the first non-whitespace unit at or after `i`. */
  #skipSpace(i: number): number {
    const text = this.#text;
    let unit = text.charCodeAt(i);
    while (unit === SPACE || unit === LINE_FEED || unit === CARRIAGE_RETURN || unit === TAB) {
      unit = text.charCodeAt(++i);
    }
    return i;
  }

  /** The error for what stands at `i` when `expected` should: never quotes the text itself. */
  #unexpected(i: number, expected: string): SyntaxError {
    const found = i >= this.#text.length
      ? "the end of the text"
      : describeUnit(this.#text.charCodeAt(i));
    return new SyntaxError(`Cannot parse JSON: expected ${expected} at index ${i}, found ${found}`);
  }
}
