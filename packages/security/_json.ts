// Private helpers for the JSON-limit APIs.
import { assertByteCount, describe } from "./_strings.ts";
import { DEFAULT_JSON_MAX_DEPTH, DEFAULT_JSON_MAX_NODES, type JsonLimits } from "./json_limits.ts";

/** Validated, defaulted JSON limits. */
export interface ResolvedJsonLimits {
  readonly maxDepth: number;
  readonly maxNodes: number;
}

/**
 * Applies the defaults and validates `limits`.
 *
 * @throws {TypeError} When `limits` is not an object or a limit is not a number.
 * @throws {RangeError} When a limit is not a non-negative safe integer.
 */
export function resolveJsonLimits(
  limits: JsonLimits | undefined,
  name: string,
): ResolvedJsonLimits {
  if (limits === undefined) {
    return { maxDepth: DEFAULT_JSON_MAX_DEPTH, maxNodes: DEFAULT_JSON_MAX_NODES };
  }
  if (typeof limits !== "object" || limits === null) {
    throw new TypeError(`Expected ${name} to be an object, got ${describe(limits)}`);
  }
  const maxDepth = limits.maxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  const maxNodes = limits.maxNodes ?? DEFAULT_JSON_MAX_NODES;
  assertCount(`${name}.maxDepth`, maxDepth);
  assertCount(`${name}.maxNodes`, maxNodes);
  return { maxDepth, maxNodes };
}

/** Validates a count option: a non-negative safe integer. */
export function assertCount(name: string, value: unknown): asserts value is number {
  assertByteCount(name, value);
}

/** Escapes one RFC 6901 reference token. */
export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}
