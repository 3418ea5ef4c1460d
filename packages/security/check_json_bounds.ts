import { resolveJsonLimits } from "./_json.ts";
import { JsonDepthLimitError, JsonNodeLimitError } from "./errors.ts";
import type { JsonLimits } from "./json_limits.ts";

/** Result of {@link checkJsonBounds}. */
export type JsonBoundsResult =
  | {
    /** The value is within both limits. */
    readonly valid: true;
    /** Deepest container nesting seen (a scalar has depth 0). */
    readonly depth: number;
    /** Number of values, the root included. */
    readonly nodes: number;
  }
  | {
    /** A limit was exceeded. */
    readonly valid: false;
    /** Which limit, with the limit and the value at which checking stopped. */
    readonly error: JsonDepthLimitError | JsonNodeLimitError;
  };

/**
 * Checks a parsed JSON value against nesting-depth and node-count limits, without recursion, so a
 * 100,000-deep value cannot overflow the stack. The walk stops at the first exceeded limit; what
 * counts as depth and as a node, and how odd values are walked, is in
 * [docs/security.md](../../docs/security.md#json-limits). To stop a depth bomb before
 * `JSON.parse` builds it, scan the text first with {@link scanJsonDepth}.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param value The value to check, typically the result of `JSON.parse`.
 * @param limits The limits; defaults {@link DEFAULT_MAX_JSON_DEPTH} and
 * {@link DEFAULT_MAX_JSON_NODES}.
 * @returns `{ valid: true, depth, nodes }`, or `{ valid: false, error }`.
 * @throws {TypeError} When `limits` is not an object, a limit is not a number, or a limit has its
 * 0.1 name (`maxDepth`, `maxNodes`), or `limits` has another unknown key.
 * @throws {RangeError} When a limit is not a non-negative safe integer.
 *
 * @example Accepting and rejecting
 * ```ts
 * import { checkJsonBounds } from "@adcp-wire/security";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(checkJsonBounds({ a: [1, 2] }), { valid: true, depth: 2, nodes: 4 });
 *
 * const result = checkJsonBounds([1, 2, 3], { maxJsonNodes: 3 });
 * ok(!result.valid);
 * strictEqual(result.error.code, "JSON_NODE_LIMIT");
 * strictEqual(result.error.observed, 4);
 * ```
 */
export function checkJsonBounds(value: unknown, limits?: JsonLimits): JsonBoundsResult {
  const { maxJsonDepth: maxDepth, maxJsonNodes: maxNodes } = resolveJsonLimits(
    limits,
    "check JSON bounds",
    "limits",
  );
  let nodes = 1;
  if (nodes > maxNodes) return { valid: false, error: new JsonNodeLimitError(maxNodes, nodes) };
  if (typeof value !== "object" || value === null) return { valid: true, depth: 0, nodes };

  let maxSeen = 0;
  // Parallel stacks of containers still to walk and their depths.
  const containers: object[] = [value];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) {
      return { valid: false, error: new JsonDepthLimitError(maxDepth, depth) };
    }
    if (depth > maxSeen) maxSeen = depth;
    if (Array.isArray(container)) {
      const length = container.length;
      for (let i = 0; i < length; i++) {
        if (++nodes > maxNodes) {
          return { valid: false, error: new JsonNodeLimitError(maxNodes, nodes) };
        }
        const child: unknown = container[i];
        if (typeof child === "object" && child !== null) {
          containers.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      const record = container as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (++nodes > maxNodes) {
          return { valid: false, error: new JsonNodeLimitError(maxNodes, nodes) };
        }
        const child = record[key];
        if (typeof child === "object" && child !== null) {
          containers.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return { valid: true, depth: maxSeen, nodes };
}
