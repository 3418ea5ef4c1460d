// Private helpers for the JSON-limit APIs.
import { checkOptionKeys, optionError, optionKeys } from "@adcp-wire/internal";
import { assertByteCount } from "./_strings.ts";
import { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_NODES, type JsonLimits } from "./json_limits.ts";

/** Validated, defaulted JSON limits. */
export interface ResolvedJsonLimits {
  readonly maxJsonDepth: number;
  readonly maxJsonNodes: number;
}

/** The limit fields of 0.1, and what they were renamed to. */
const RENAMED: readonly (readonly [string, keyof JsonLimits])[] = [
  ["maxDepth", "maxJsonDepth"],
  ["maxNodes", "maxJsonNodes"],
];

/** The keys of {@link JsonLimits}: any other is refused. */
const JSON_LIMITS_KEYS = optionKeys<JsonLimits>({ maxJsonDepth: true, maxJsonNodes: true });

/**
 * Applies the defaults and validates `limits`, the argument `name` of the function doing `action`.
 *
 * A limit under its 0.1 name (`maxDepth`, `maxNodes`) is refused rather than ignored: ignoring it
 * would silently raise a caller's tighter limit to the default.
 *
 * @throws {TypeError} When `limits` is not an object, a limit is not a number, a limit has its
 * 0.1 name, or `limits` has another unknown key.
 * @throws {RangeError} When a limit is not a non-negative safe integer.
 */
export function resolveJsonLimits(
  limits: JsonLimits | undefined,
  action: string,
  name: string,
): ResolvedJsonLimits {
  if (limits === undefined) {
    return { maxJsonDepth: DEFAULT_MAX_JSON_DEPTH, maxJsonNodes: DEFAULT_MAX_JSON_NODES };
  }
  if (typeof limits !== "object" || limits === null) {
    throw optionError(TypeError, action, name, "an object", limits);
  }
  for (const [old, renamed] of RENAMED) {
    const value = (limits as Record<string, unknown>)[old];
    if (value !== undefined) {
      throw optionError(
        TypeError,
        action,
        `${name}.${old}`,
        `absent (renamed '${renamed}')`,
        value,
      );
    }
  }
  checkOptionKeys(action, name, limits, JSON_LIMITS_KEYS);
  // Only `undefined` means the default: a null limit is refused like any other wrong type.
  const maxJsonDepth = limits.maxJsonDepth === undefined
    ? DEFAULT_MAX_JSON_DEPTH
    : limits.maxJsonDepth;
  const maxJsonNodes = limits.maxJsonNodes === undefined
    ? DEFAULT_MAX_JSON_NODES
    : limits.maxJsonNodes;
  assertByteCount(action, `${name}.maxJsonDepth`, maxJsonDepth);
  assertByteCount(action, `${name}.maxJsonNodes`, maxJsonNodes);
  return { maxJsonDepth, maxJsonNodes };
}

/** Escapes one RFC 6901 reference token. */
export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}
