import { assertByteCount, assertString } from "./_strings.ts";
import { JsonDepthLimitError } from "./errors.ts";
import { DEFAULT_MAX_JSON_DEPTH } from "./json_limits.ts";

/** Result of {@link scanJsonDepth}. */
export type JsonDepthScanResult =
  | {
    /** The text nests no deeper than the limit. */
    readonly valid: true;
    /** Deepest bracket nesting seen outside strings. */
    readonly depth: number;
  }
  | {
    /** The text nests deeper than the limit. */
    readonly valid: false;
    /** The limit and the depth at which scanning stopped (`limit + 1`). */
    readonly error: JsonDepthLimitError;
  };

/** Result of {@link checkJsonDepth}. */
export type JsonDepthCheckResult =
  | {
    /** The text nests no deeper than the limit. */
    readonly valid: true;
  }
  | {
    /** The text nests deeper than the limit. */
    readonly valid: false;
    /** The limit and the depth at which checking stopped (`limit + 1`). */
    readonly error: JsonDepthLimitError;
  };

/** The answer of {@link checkJsonDepth} for text within the limit: one shared, frozen object. */
const WITHIN: JsonDepthCheckResult = Object.freeze({ valid: true });

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

/**
 * Scans JSON text for bracket nesting deeper than `maxJsonDepth` before `JSON.parse` builds it, so
 * a depth bomb (`[[[[…`) is rejected in one linear pass without allocating the nested value.
 * Brackets inside string literals do not count; the scan does not validate JSON (`JSON.parse`
 * still does). Depth is the measure of {@link checkJsonBounds}; the scanning rules are in
 * [docs/security.md](../../docs/security.md#json-limits). Run it after the byte cap passes.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param text The JSON text.
 * @param maxJsonDepth Maximum nesting depth, a non-negative safe integer.
 * @returns `{ valid: true, depth }`, or `{ valid: false, error }` at the first bracket beyond the
 * limit.
 * @throws {TypeError} When `text` is not a string or `maxJsonDepth` is not a number.
 * @throws {RangeError} When `maxJsonDepth` is not a non-negative safe integer.
 *
 * @example Rejecting a depth bomb, ignoring brackets in strings
 * ```ts
 * import { scanJsonDepth } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(scanJsonDepth('{"a":"[[[[\\"[["}', 2), { valid: true, depth: 1 });
 * const result = scanJsonDepth("[".repeat(100_000), 64);
 * strictEqual(result.valid, false);
 * ```
 */
export function scanJsonDepth(
  text: string,
  maxJsonDepth: number = DEFAULT_MAX_JSON_DEPTH,
): JsonDepthScanResult {
  assertString("scan JSON depth", "text", text);
  assertByteCount("scan JSON depth", "maxJsonDepth", maxJsonDepth);
  return scanFrom(text, maxJsonDepth);
}

/**
 * {@link scanJsonDepth} of checked arguments: the one scan, shared with {@link checkJsonDepth}.
 */
function scanFrom(text: string, maxJsonDepth: number): JsonDepthScanResult {
  const length = text.length;
  let depth = 0;
  let deepest = 0;
  let i = 0;
  while (i < length) {
    const unit = text.charCodeAt(i);
    if (unit === QUOTE) {
      // Jump to the closing quote: the first quote preceded by an even number of backslashes.
      let close = i;
      for (;;) {
        close = text.indexOf('"', close + 1);
        if (close === -1) return { valid: true, depth: deepest }; // unterminated: parse will fail
        let backslashes = 0;
        while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
        if ((backslashes & 1) === 0) break;
      }
      i = close + 1;
      continue;
    }
    if (unit === OPEN_SQUARE || unit === OPEN_CURLY) {
      depth++;
      if (depth > maxJsonDepth) {
        return { valid: false, error: new JsonDepthLimitError(maxJsonDepth, depth) };
      }
      if (depth > deepest) deepest = depth;
    } else if ((unit === CLOSE_SQUARE || unit === CLOSE_CURLY) && depth > 0) {
      depth--;
    }
    i++;
  }
  return { valid: true, depth: deepest };
}

/**
 * Refuses JSON text that nests brackets deeper than `maxJsonDepth`, before `JSON.parse` builds
 * the value, as {@link scanJsonDepth} does, without measuring the depth of text within the limit:
 * what a caller that only needs the verdict should call before parsing. Text holding at most
 * `maxJsonDepth` opening brackets (`[` and `{`, inside strings or not) cannot nest deeper, and a
 * handful of native `indexOf` searches proves it; only other text is scanned. So a small message
 * costs a few searches instead of a scan of every character (about a third of a `JSON.parse` of
 * it), and a depth bomb is refused as early as by the scan.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param text The JSON text.
 * @param maxJsonDepth Maximum nesting depth, a non-negative safe integer.
 * @returns `{ valid: true }`, or `{ valid: false, error }` exactly when {@link scanJsonDepth}
 * refuses the text, with the same error.
 * @throws {TypeError} When `text` is not a string or `maxJsonDepth` is not a number.
 * @throws {RangeError} When `maxJsonDepth` is not a non-negative safe integer.
 *
 * @example Checking before parsing
 * ```ts
 * import { checkJsonDepth } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const text = '{"status":"completed","products":[{"product_id":"p1"}]}';
 * deepStrictEqual(checkJsonDepth(text, 64), { valid: true });
 * const bomb = checkJsonDepth("[".repeat(2_000_000), 64);
 * strictEqual(bomb.valid, false);
 * strictEqual(!bomb.valid && bomb.error.observed, 65);
 * ```
 */
export function checkJsonDepth(
  text: string,
  maxJsonDepth: number = DEFAULT_MAX_JSON_DEPTH,
): JsonDepthCheckResult {
  assertString("check JSON depth", "text", text);
  assertByteCount("check JSON depth", "maxJsonDepth", maxJsonDepth);
  if (text.length <= maxJsonDepth || opensAtMost(text, maxJsonDepth)) return WITHIN;
  const scan = scanFrom(text, maxJsonDepth);
  return scan.valid ? WITHIN : scan;
}

/**
 * Whether `text` holds at most `limit` opening brackets, `[` and `{`, counted with `indexOf`
 * (native, and fast on both string representations): at most `limit + 2` searches.
 */
function opensAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf("{"); at !== -1; at = text.indexOf("{", at + 1)) {
    if (++count > limit) return false;
  }
  for (let at = text.indexOf("["); at !== -1; at = text.indexOf("[", at + 1)) {
    if (++count > limit) return false;
  }
  return true;
}
