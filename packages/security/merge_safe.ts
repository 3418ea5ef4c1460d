import { isJsonObject, isPlainObject, optionError } from "@adcp-wire/internal";
import { copyJson } from "./_copy_json.ts";
import { resolveJsonLimits } from "./_json.ts";
import type { JsonLimits, JsonObject } from "./json_limits.ts";

const MERGE = { action: "merge seller data", argument: "source" } as const;

/**
 * Deep-merges seller-controlled JSON data into an application object, refusing the whole merge
 * (where {@link toSafeJson} drops the key) if the source holds a `__proto__`, `constructor` or
 * `prototype` key at any depth. The source is checked and copied first, so the merge is all or
 * nothing; plain objects merge recursively, anything else replaces. The full semantics are in
 * [docs/security.md](../../docs/security.md#safe-copies-and-merges).
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Prototype Pollution.
 *
 * @typeParam T The target's type. Validate the source against the expected schema first, so the
 * merged result still has that type.
 * @param target The application object to merge into (mutated and returned).
 * @param source The seller-controlled data; must be a plain object.
 * @param limits Depth and node limits for the source.
 * @returns `target`.
 * @throws {DangerousKeyError} When the source holds a dangerous key at any depth; `pointer`
 * says where.
 * @throws {JsonDepthLimitError} When the source nests deeper than `limits.maxJsonDepth`.
 * @throws {JsonNodeLimitError} When the source holds more than `limits.maxJsonNodes` values.
 * @throws {TypeError} When `target` is not a non-array object, `source` is not a plain object,
 * the source holds non-JSON data, or `limits` is malformed or has an unknown key.
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
  if (!isJsonObject(target)) {
    throw optionError(TypeError, MERGE.action, "target", "a non-array object", target);
  }
  if (!isPlainObject(source)) {
    throw optionError(TypeError, MERGE.action, "source", "a plain object", source);
  }
  const resolved = resolveJsonLimits(limits, MERGE.action, "limits");
  const copy = copyJson(source, resolved, "throw", MERGE) as JsonObject;

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
