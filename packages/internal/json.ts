// Own-property readers for seller-controlled JSON values, shared by every package.
//
// Every read of a seller key goes through these helpers so that a key absent from the value is
// absent whatever `Object.prototype` holds, and keys such as `__proto__`, `constructor` or
// `hasOwnProperty` are plain data. JSON values have no getters; these helpers do not defend
// against proxies or accessors, which are not JSON.

/** A JSON object: non-null, not an array. */
export type JsonRecord = Record<string, unknown>;

/**
 * Whether `value` is a non-null, non-array object.
 *
 * @param value The value to test.
 * @returns `true` for a JSON object.
 *
 * @example Usage
 * ```ts
 * import { isJsonObject } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isJsonObject({}), true);
 * strictEqual(isJsonObject([]), false);
 * strictEqual(isJsonObject(null), false);
 * ```
 */
export function isJsonObject(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` is an object whose prototype is `Object.prototype` or `null`.
 *
 * @param value The value to test.
 * @returns `true` for a plain object.
 *
 * @example Usage
 * ```ts
 * import { isPlainObject } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isPlainObject(Object.create(null)), true);
 * strictEqual(isPlainObject(new Date()), false);
 * ```
 */
export function isPlainObject(value: unknown): value is JsonRecord {
  if (!isJsonObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The own property `key` of `object`, or `undefined` when it is not an own property.
 *
 * @param object The object to read.
 * @param key The property name.
 * @returns The own value, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { own } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(own({ a: 1 }, "a"), 1);
 * strictEqual(own({}, "toString"), undefined);
 * ```
 */
export function own(object: JsonRecord, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/**
 * The own property `key` of `object` when it is a JSON object, else `undefined`.
 *
 * @param object The object to read.
 * @param key The property name.
 * @returns The own object value, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { ownObject } from "@adcp-wire/internal";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(ownObject({ a: { b: 1 } }, "a"), { b: 1 });
 * strictEqual(ownObject({ a: [1] }, "a"), undefined);
 * ```
 */
export function ownObject(object: JsonRecord, key: string): JsonRecord | undefined {
  const value = own(object, key);
  return isJsonObject(value) ? value : undefined;
}

/**
 * The own property `key` of `object` when it is an array, else `undefined`.
 *
 * @param object The object to read.
 * @param key The property name.
 * @returns The own array value, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { ownArray } from "@adcp-wire/internal";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(ownArray({ a: [1] }, "a"), [1]);
 * strictEqual(ownArray({ a: {} }, "a"), undefined);
 * ```
 */
export function ownArray(object: JsonRecord, key: string): readonly unknown[] | undefined {
  const value = own(object, key);
  return Array.isArray(value) ? value : undefined;
}

/**
 * Element `index` of `array` when it is an own element (not a hole), else `undefined`.
 *
 * @param array The array to read.
 * @param index The element index.
 * @returns The own element, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { ownElement } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(ownElement([1, , 3], 1), undefined);
 * strictEqual(ownElement([1, 2], 1), 2);
 * ```
 */
export function ownElement(array: readonly unknown[], index: number): unknown {
  return Object.hasOwn(array, index) ? array[index] : undefined;
}
