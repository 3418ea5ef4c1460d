/**
 * Reading a request's `input` in the implementations of `scripts/_impl/`: own properties only.
 *
 * @module
 */

/** Whether a value is a non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The own property `key` of `input`, or `undefined` when `input` is no object or lacks it. */
export function field(input: unknown, key: string): unknown {
  return isObject(input) && Object.hasOwn(input, key) ? input[key] : undefined;
}
