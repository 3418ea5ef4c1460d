// Private: the bounded, iterative JSON copy behind toSafeJson (drops dangerous keys) and
// mergeSafe (refuses them).
import { isPlainObject, optionError } from "@adcp-wire/internal";
import { escapePointerToken, type ResolvedJsonLimits } from "./_json.ts";
import { SANITIZE_KEY_POINTER_BYTES, sanitizeUnchecked } from "./_strings.ts";
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

/** Who copies, for the messages of bad data: the action and the name of the copied argument. */
export interface CopyCaller {
  /** What could not be done, e.g. `"copy JSON"`. */
  readonly action: string;
  /** The argument copied, e.g. `"value"`; a value inside it is named by appending its pointer. */
  readonly argument: string;
}

/**
 * Copies JSON data into fresh arrays and plain objects.
 *
 * @throws {JsonDepthLimitError} When nesting exceeds `limits.maxJsonDepth`.
 * @throws {JsonNodeLimitError} When the value count exceeds `limits.maxJsonNodes`.
 * @throws {DangerousKeyError} With policy `"throw"`, on a dangerous key at any depth.
 * @throws {TypeError} When the value holds something JSON cannot (see toSafeJson).
 */
export function copyJson(
  value: unknown,
  limits: ResolvedJsonLimits,
  policy: DangerousKeyPolicy,
  caller: CopyCaller,
): JsonValue {
  const { maxJsonDepth: maxDepth, maxJsonNodes: maxNodes } = limits;
  const { action, argument } = caller;
  /** The name of the value at `key` under `parent`, for messages: the argument and a pointer. */
  const where = (parent: Frame | undefined, key: string): string =>
    parent === undefined ? argument : argument + pointerOf(parent, key);
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
          throw optionError(TypeError, action, where(parent, key), "a finite number", input);
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
          throw optionError(
            TypeError,
            action,
            where(parent, key),
            "an array or a plain object",
            input,
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
        throw optionError(TypeError, action, where(parent, key), "JSON data", input);
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
          throw optionError(
            TypeError,
            action,
            where(frame, String(i)),
            "JSON data, not an array hole",
            undefined,
          );
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
