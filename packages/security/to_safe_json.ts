import { copyJson } from "./_copy_json.ts";
import { resolveJsonLimits } from "./_json.ts";
import type { JsonLimits, JsonValue } from "./json_limits.ts";

const COPY = { action: "copy JSON", argument: "value" } as const;

/**
 * Copies seller-controlled JSON data into fresh arrays and plain objects, dropping every
 * `__proto__`, `constructor` and `prototype` key at any depth (the own `__proto__` keys that
 * `JSON.parse` creates included). The copy is safe to spread or `Object.assign` into application
 * state and never aliases the input. It is iterative and bounded by {@link JsonLimits}; what input
 * it accepts is in [docs/security.md](../../docs/security.md#safe-copies-and-merges). It does not
 * replace validating against the task's schema, which the spec also asks for.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0 and A2A Response Extraction, Security Considerations,
 * Prototype Pollution.
 *
 * @param value The data to copy.
 * @param limits Depth and node limits.
 * @returns A fresh copy without dangerous keys.
 * @throws {JsonDepthLimitError} When nesting exceeds `limits.maxJsonDepth`.
 * @throws {JsonNodeLimitError} When the number of values exceeds `limits.maxJsonNodes`.
 * @throws {TypeError} When the value holds something JSON cannot (a function, symbol, bigint,
 * non-finite number, array hole, or an object such as a `Date` or `Map`), or `limits` is
 * malformed or has an unknown key.
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
  return copyJson(value, resolveJsonLimits(limits, COPY.action, "limits"), "drop", COPY);
}
