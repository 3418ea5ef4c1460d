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
