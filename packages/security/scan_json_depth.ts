import { assertCount } from "./_json.ts";
import { JsonDepthLimitError } from "./errors.ts";
import { DEFAULT_JSON_MAX_DEPTH } from "./json_limits.ts";

/**
 * Result of {@linkcode scanJsonDepth}.
 *
 * @example Scanning, then parsing
 * ```ts
 * import { type JsonDepthScanResult, scanJsonDepth } from "@adcp-wire/security";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * const text = '{"a":[[1]]}';
 * const scan: JsonDepthScanResult = scanJsonDepth(text, 3);
 * ok(scan.valid);
 * strictEqual(scan.depth, 3);
 * deepStrictEqual(JSON.parse(text), { a: [[1]] }); // safe to parse now
 * const tooDeep = scanJsonDepth(text, 2);
 * ok(!tooDeep.valid);
 * strictEqual(tooDeep.error.observed, 3);
 * ```
 */
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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

/**
 * Scans JSON text for bracket nesting deeper than `maxDepth` before `JSON.parse` builds it, so a
 * depth bomb (`[[[[…`) is rejected in one linear pass without allocating the nested value.
 *
 * String-aware: brackets inside string literals do not count, and a quote preceded by an odd
 * number of backslashes does not end a string. The scan does not validate JSON; `JSON.parse`
 * still does that. Unbalanced closing brackets never make the depth negative. Depth counts open
 * containers, the same measure as {@linkcode checkJsonBounds}.
 *
 * Part of "bound JSON depth and node count" (MCP Response Extraction 3.3.0-beta.0, Security
 * Considerations, Size Limits): run it after the byte cap passes and before parsing.
 *
 * @param text The JSON text.
 * @param maxDepth Maximum nesting depth, a non-negative safe integer; the usual value is
 * {@linkcode DEFAULT_JSON_MAX_DEPTH}.
 * @returns `{ valid: true, depth }`, or `{ valid: false, error }` at the first bracket beyond the
 * limit.
 * @throws {TypeError} When `text` is not a string or `maxDepth` is not a number.
 * @throws {RangeError} When `maxDepth` is not a non-negative safe integer.
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
  maxDepth: number = DEFAULT_JSON_MAX_DEPTH,
): JsonDepthScanResult {
  if (typeof text !== "string") {
    throw new TypeError(
      `Expected text to be a string, got ${text === null ? "null" : typeof text}`,
    );
  }
  assertCount("maxDepth", maxDepth);
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
      if (depth > maxDepth) {
        return { valid: false, error: new JsonDepthLimitError(maxDepth, depth) };
      }
      if (depth > deepest) deepest = depth;
    } else if ((unit === CLOSE_SQUARE || unit === CLOSE_CURLY) && depth > 0) {
      depth--;
    }
    i++;
  }
  return { valid: true, depth: deepest };
}
