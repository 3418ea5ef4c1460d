import { copyJson } from "./_copy_json.ts";
import { resolveJsonLimits } from "./_json.ts";
import { describe, isPlainObject } from "./_strings.ts";
import type { JsonLimits, JsonObject } from "./json_limits.ts";

/**
 * Deep-merges seller-controlled JSON data into an application object, refusing the whole merge
 * if the source holds a `__proto__`, `constructor` or `prototype` key at any depth.
 *
 * Implements "Clients MUST NOT merge extracted response objects into application state via
 * `Object.assign` or spread without filtering keys" (MCP Response Extraction 3.3.0-beta.0,
 * Security Considerations, Prototype Pollution). Refusing, rather than dropping as
 * {@linkcode toSafeJson} does, suits merges: a payload that tries it is hostile, and a partial
 * merge would leave application state half-updated.
 *
 * Semantics:
 * - The source is first copied with the checks of {@linkcode toSafeJson} (JSON data only,
 *   bounded by {@linkcode JsonLimits}); any error is thrown before the target is touched, so the
 *   merge is all or nothing.
 * - For each source key: when both the target's own value and the source value are plain
 *   objects, they merge recursively; otherwise the target's value is replaced by the copied
 *   source value (arrays are replaced, not concatenated). Only the target's own properties are
 *   merged into, never inherited ones, so a merge cannot write into a shared prototype object.
 * - Merged values are fresh copies: later changes to the target never reach the source.
 * - The merge is iterative; its depth is bounded by `limits.maxDepth`.
 *
 * @typeParam T The target's type. Validate the source against the expected schema first, so the
 * merged result still has that type.
 * @param target The application object to merge into (mutated and returned).
 * @param source The seller-controlled data; must be a plain object.
 * @param limits Depth and node limits for the source.
 * @returns `target`.
 * @throws {DangerousKeyError} When the source holds a dangerous key at any depth; `pointer`
 * says where.
 * @throws {JsonDepthLimitError} When the source nests deeper than `limits.maxDepth`.
 * @throws {JsonNodeLimitError} When the source holds more than `limits.maxNodes` values.
 * @throws {TypeError} When `target` is not a non-array object, `source` is not a plain object,
 * the source holds non-JSON data, or `limits` is malformed.
 * @throws {RangeError} When a limit is not a non-negative safe integer.
 *
 * @example Merging, and refusing a pollution attempt
 * ```ts
 * import { DangerousKeyError, mergeSafe } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
 *
 * const state = { buy: { budget: 100, currency: "USD" } };
 * mergeSafe(state, { buy: { budget: 500 } });
 * deepStrictEqual(state, { buy: { budget: 500, currency: "USD" } });
 *
 * const hostile = JSON.parse('{"buy":{"__proto__":{"polluted":true}}}');
 * throws(() => mergeSafe(state, hostile), DangerousKeyError);
 * strictEqual(({} as { polluted?: boolean }).polluted, undefined);
 * ```
 */
export function mergeSafe<T extends object>(target: T, source: unknown, limits?: JsonLimits): T {
  if (typeof target !== "object" || target === null || Array.isArray(target)) {
    throw new TypeError(`Expected target to be a non-array object, got ${describe(target)}`);
  }
  if (!isPlainObject(source)) {
    throw new TypeError(`Expected source to be a plain object, got ${describe(source)}`);
  }
  const copy = copyJson(source, resolveJsonLimits(limits, "limits"), "throw") as JsonObject;

  const pending: [Record<string, unknown>, JsonObject][] = [[
    target as Record<string, unknown>,
    copy,
  ]];
  while (pending.length > 0) {
    const [into, from] = pending.pop()!;
    for (const key of Object.keys(from)) {
      const incoming = from[key]!;
      const existing = Object.hasOwn(into, key) ? into[key] : undefined;
      if (isPlainObject(incoming) && isPlainObject(existing)) {
        pending.push([existing, incoming as JsonObject]);
      } else {
        into[key] = incoming;
      }
    }
  }
  return target;
}
