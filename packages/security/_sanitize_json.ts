// Private: the bounded, never-throwing sanitizer for seller JSON (adcp_error `details` and
// `issues`, wrapped prompt fields). Every string and key is sanitized; past any bound the whole
// value is replaced by a marker.
import { isPlainObject, utf8Length } from "@adcp-wire/internal";
import { sanitizeUnchecked } from "./_strings.ts";
import { isDangerousKey } from "./dangerous_keys.ts";
import type { JsonObject, JsonValue } from "./json_limits.ts";

/** Bounds of one sanitized JSON value. */
export interface SanitizeJsonBounds {
  readonly maxJsonDepth: number;
  readonly maxJsonNodes: number;
  readonly maxTotalBytes: number;
  readonly maxStringBytes: number;
  readonly maxKeyBytes: number;
}

/** Thrown internally when a bound is exceeded; never escapes this module. */
class BoundExceeded {}

interface Frame {
  readonly source: object;
  readonly target: JsonValue[] | JsonObject;
  readonly depth: number;
}

/** Reads an own data property without invoking accessors; `undefined` when absent or accessor. */
export function readOwnData(source: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(source, key);
  return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
}

/**
 * Sanitizes `value` within `bounds`. Returns `undefined` when the value itself is not JSON data
 * (function, symbol, bigint, `undefined`, non-plain object), and `marker` when any bound is
 * exceeded or reading the input throws (for example a revoked Proxy). Never throws.
 */
export function sanitizeJsonBounded(
  value: unknown,
  bounds: SanitizeJsonBounds,
  marker: string,
): JsonValue | undefined {
  try {
    return walk(value, bounds);
  } catch {
    return marker;
  }
}

function walk(value: unknown, bounds: SanitizeJsonBounds): JsonValue | undefined {
  const {
    maxJsonDepth: maxDepth,
    maxJsonNodes: maxNodes,
    maxTotalBytes,
    maxStringBytes,
    maxKeyBytes,
  } = bounds;
  let nodes = 0;
  let bytes = 0;
  const stack: Frame[] = [];

  const spend = (count: number) => {
    bytes += count;
    if (bytes > maxTotalBytes) throw new BoundExceeded();
  };

  // Returns the sanitized leaf or a fresh container (queued for filling), or undefined for
  // values JSON cannot hold.
  const convert = (input: unknown, depth: number): JsonValue | undefined => {
    switch (typeof input) {
      case "string": {
        if (++nodes > maxNodes) throw new BoundExceeded();
        const sanitized = sanitizeUnchecked(input, maxStringBytes);
        spend(utf8Length(sanitized));
        return sanitized;
      }
      case "number":
        if (++nodes > maxNodes) throw new BoundExceeded();
        return Number.isFinite(input) ? input : null;
      case "boolean":
        if (++nodes > maxNodes) throw new BoundExceeded();
        return input;
      case "object": {
        if (++nodes > maxNodes) throw new BoundExceeded();
        if (input === null) return null;
        const childDepth = depth + 1;
        let target: JsonValue[] | JsonObject;
        if (Array.isArray(input)) target = [];
        else if (isPlainObject(input)) target = {};
        else return undefined;
        if (childDepth > maxDepth) throw new BoundExceeded();
        stack.push({ source: input, target, depth: childDepth });
        return target;
      }
      default:
        return undefined;
    }
  };

  const root = convert(value, 0);
  while (stack.length > 0) {
    const { source, target, depth } = stack.pop()!;
    if (Array.isArray(target)) {
      const length = (source as unknown[]).length;
      if (length > maxNodes) throw new BoundExceeded();
      for (let i = 0; i < length; i++) {
        target.push(convert(readOwnData(source, String(i)), depth) ?? null);
      }
    } else {
      for (const rawKey of Object.keys(source)) {
        const key = sanitizeUnchecked(rawKey, maxKeyBytes);
        // Checked after sanitizing: "__pro\u200Bto__" must not become a live "__proto__".
        if (isDangerousKey(key) || Object.hasOwn(target, key)) continue;
        const child = convert(readOwnData(source, rawKey), depth);
        if (child === undefined) continue;
        spend(utf8Length(key));
        target[key] = child;
      }
    }
  }
  return root;
}
