import { copyJson } from "./_copy_json.ts";
import { resolveJsonLimits } from "./_json.ts";
import type { JsonLimits, JsonValue } from "./json_limits.ts";

/**
 * Copies seller-controlled JSON data into fresh arrays and plain objects, dropping every
 * `__proto__`, `constructor` and `prototype` key at any depth, including the own `__proto__`
 * keys that `JSON.parse` creates. The copy is safe to spread or `Object.assign` into application
 * state, and never aliases the input.
 *
 * Implements "Clients MUST NOT merge extracted response objects into application state via
 * `Object.assign` or spread without filtering keys" (MCP Response Extraction 3.3.0-beta.0,
 * Security Considerations, Prototype Pollution; A2A Response Extraction, Security
 * Considerations, Prototype pollution). The spec also asks to validate against the expected
 * task response schema before merging; this function does not replace that.
 *
 * The copy is iterative and bounded by {@linkcode JsonLimits} (depth 64 and 2,097,152 values by
 * default). Input must be JSON data, as `JSON.parse` produces: strings, finite numbers,
 * booleans, `null`, arrays without holes, and objects whose prototype is `Object.prototype` or
 * `null`. Object properties whose value is `undefined` are omitted, as `JSON.stringify` does.
 * Own enumerable properties are read directly, so a getter on a hand-built object would run.
 *
 * @param value The data to copy.
 * @param limits Depth and node limits.
 * @returns A fresh copy without dangerous keys.
 * @throws {JsonDepthLimitError} When nesting exceeds `limits.maxDepth`.
 * @throws {JsonNodeLimitError} When the number of values exceeds `limits.maxNodes`.
 * @throws {TypeError} When the value holds something JSON cannot (a function, symbol, bigint,
 * non-finite number, array hole, or an object such as a `Date` or `Map`), or `limits` is
 * malformed.
 * @throws {RangeError} When a limit is not a non-negative safe integer.
 *
 * @example Dropping a __proto__ key made by JSON.parse
 * ```ts
 * import { toSafeJson } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const parsed = JSON.parse('{"__proto__":{"isAdmin":true},"budget":500}');
 * const safe = toSafeJson(parsed);
 * deepStrictEqual(safe, { budget: 500 });
 * const state = { ...(safe as object) } as { isAdmin?: boolean };
 * strictEqual(state.isAdmin, undefined);
 * ```
 */
export function toSafeJson(value: unknown, limits?: JsonLimits): JsonValue {
  return copyJson(value, resolveJsonLimits(limits, "limits"), "drop");
}
