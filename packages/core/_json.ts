// Own-property readers for seller-controlled JSON values.
//
// Every read of a seller key goes through these helpers so that a key that is
// absent from the value is absent, whatever `Object.prototype` holds, and so
// that keys such as `__proto__`, `constructor` or `hasOwnProperty` are plain
// data. JSON values have no getters; these helpers do not defend against
// proxies or accessors, which are not JSON.

/** A JSON object: non-null, not an array. */
export type JsonObject = Record<string, unknown>;

/** Whether `value` is a non-null, non-array object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The own property `key` of `object`, or `undefined` when it is not an own property. */
export function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The own property `key` of `object` when it is an array, else `undefined`. */
export function ownArray(object: JsonObject, key: string): readonly unknown[] | undefined {
  const value = own(object, key);
  return Array.isArray(value) ? value : undefined;
}

/** The own property `key` of `object` when it is a JSON object, else `undefined`. */
export function ownObject(object: JsonObject, key: string): JsonObject | undefined {
  const value = own(object, key);
  return isJsonObject(value) ? value : undefined;
}

/** Element `index` of `array` when it is an own element (not a hole), else `undefined`. */
export function ownElement(array: readonly unknown[], index: number): unknown {
  return Object.hasOwn(array, index) ? array[index] : undefined;
}

/**
 * Whether `object` carries an `adcp_error`: an own `adcp_error` property whose value is truthy,
 * the test of the reference detection code (`if (x?.adcp_error)`), so `null`, `false`, `0` and
 * `""` carry nothing. A present, truthy but malformed value still counts: it is then the location
 * that decides, and validation turns it into "no structured error" (Transport Error Mapping,
 * "Client Detection Order": "If validation fails, treat as no structured error found").
 */
export function carriesAdcpError(object: JsonObject): boolean {
  return Boolean(own(object, "adcp_error"));
}

/**
 * Whether the only own key of `object` is `adcp_error` (MCP Response Extraction, "Extraction
 * Algorithm" steps 2 and 3: an error response missing its `isError` flag).
 */
export function isAdcpErrorOnly(object: JsonObject): boolean {
  const keys = Object.keys(object);
  return keys.length === 1 && keys[0] === "adcp_error";
}

/** A short, bounded description of a value for error messages. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value.length > 32 ? `${value.slice(0, 32)}…` : value);
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "boolean":
    case "undefined":
      return String(value);
    case "object":
      return value === null ? "null" : Array.isArray(value) ? "an array" : "an object";
    default:
      return `a ${typeof value}`;
  }
}
