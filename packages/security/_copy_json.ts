// Private: the bounded, iterative JSON copy behind toSafeJson (drops dangerous keys) and
// mergeSafe (refuses them).
import { escapePointerToken, type ResolvedJsonLimits } from "./_json.ts";
import {
  describe,
  isPlainObject,
  SANITIZE_KEY_POINTER_BYTES,
  sanitizeUnchecked,
} from "./_strings.ts";
import { isDangerousKey } from "./dangerous_keys.ts";
import { DangerousKeyError, JsonDepthLimitError, JsonNodeLimitError } from "./errors.ts";
import type { JsonObject, JsonValue } from "./json_limits.ts";

interface Frame {
  readonly source: unknown[] | Record<string, unknown>;
  readonly target: JsonValue[] | JsonObject;
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly key: string;
}

/** What to do with `__proto__`, `constructor` and `prototype` keys. */
export type DangerousKeyPolicy = "drop" | "throw";

/**
 * Copies JSON data into fresh arrays and plain objects.
 *
 * @throws {JsonDepthLimitError} When nesting exceeds `limits.maxDepth`.
 * @throws {JsonNodeLimitError} When the value count exceeds `limits.maxNodes`.
 * @throws {DangerousKeyError} With policy `"throw"`, on a dangerous key at any depth.
 * @throws {TypeError} When the value holds something JSON cannot (see toSafeJson).
 */
export function copyJson(
  value: unknown,
  limits: ResolvedJsonLimits,
  policy: DangerousKeyPolicy,
): JsonValue {
  const { maxDepth, maxNodes } = limits;
  let nodes = 0;
  const stack: Frame[] = [];

  const convert = (input: unknown, depth: number, parent: Frame | undefined, key: string) => {
    if (++nodes > maxNodes) throw new JsonNodeLimitError(maxNodes, nodes);
    switch (typeof input) {
      case "string":
      case "boolean":
        return input;
      case "number":
        if (!Number.isFinite(input)) {
          throw new TypeError(`Expected JSON data at ${where(parent, key)}, got ${input}`);
        }
        return input;
      case "object": {
        if (input === null) return null;
        const childDepth = depth + 1;
        if (childDepth > maxDepth) throw new JsonDepthLimitError(maxDepth, childDepth);
        let target: JsonValue[] | JsonObject;
        if (Array.isArray(input)) target = [];
        else if (isPlainObject(input)) target = {};
        else {
          throw new TypeError(
            `Expected JSON data at ${where(parent, key)}, got an object that is not a plain object`,
          );
        }
        stack.push({
          source: input as unknown[] | Record<string, unknown>,
          target,
          depth: childDepth,
          parent,
          key,
        });
        return target;
      }
      default:
        throw new TypeError(
          `Expected JSON data at ${where(parent, key)}, got ${describe(input)}`,
        );
    }
  };

  const root = convert(value, 0, undefined, "");
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { source, target, depth } = frame;
    if (Array.isArray(source)) {
      const out = target as JsonValue[];
      const length = source.length;
      for (let i = 0; i < length; i++) {
        if (!(i in source)) {
          throw new TypeError(`Expected JSON data at ${where(frame, String(i))}, got a hole`);
        }
        out.push(convert(source[i], depth, frame, String(i)));
      }
    } else {
      const out = target as JsonObject;
      for (const key of Object.keys(source)) {
        if (isDangerousKey(key)) {
          if (policy === "throw") throw new DangerousKeyError(key, pointerOf(frame, key));
          continue;
        }
        const child = source[key];
        if (child === undefined) continue; // as JSON.stringify does
        out[key] = convert(child, depth, frame, key);
      }
    }
  }
  return root;
}

/** Where a value is, for messages: its pointer, or "the root". */
function where(frame: Frame | undefined, key: string): string {
  return frame === undefined ? "the root" : pointerOf(frame, key);
}

/** RFC 6901 pointer to `key` under `frame`, each token sanitized and capped for safe logging. */
function pointerOf(frame: Frame | undefined, key: string): string {
  const tokens: string[] = [];
  if (frame !== undefined) tokens.push(key);
  for (let f = frame; f !== undefined && f.parent !== undefined; f = f.parent) tokens.push(f.key);
  let pointer = "";
  for (let i = tokens.length - 1; i >= 0; i--) {
    pointer += "/" + escapePointerToken(sanitizeUnchecked(tokens[i]!, SANITIZE_KEY_POINTER_BYTES));
  }
  return pointer;
}
