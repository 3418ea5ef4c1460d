// The option readers every package uses, with one signature: what could not be done, the
// option's name, its value, then what the value defaults to. Every refusal is an option error of
// `optionError` (`Cannot <action> as '<name>' must be <requirement>: current value is <value>`),
// a `TypeError` for a wrong type and a `RangeError` for a number out of range.
import { optionError } from "./option_error.ts";

/** The range of {@link integerOption}. */
export interface IntegerRange {
  /**
   * The smallest value accepted.
   * @default {0}
   */
  readonly min?: number;
  /**
   * The largest value accepted.
   * @default {Number.MAX_SAFE_INTEGER}
   */
  readonly max?: number;
}

/** What an integer option must be, as messages say it. */
function integerRequirement(min: number, max: number): string {
  if (max === Number.MAX_SAFE_INTEGER) {
    if (min === 0) return "a non-negative safe integer";
    if (min === 1) return "a positive safe integer";
  }
  return `an integer from ${min} to ${max}`;
}

/**
 * An optional integer option: `fallback` when `value` is `undefined`, else `value` when it is a
 * safe integer within `range`.
 *
 * @param action What could not be done, for the message (`"create a JwksResolver"`).
 * @param name The option's name as the caller wrote it (`"options.timeoutMs"`).
 * @param value The value given.
 * @param fallback The default.
 * @param range The least and greatest value accepted (0 and `Number.MAX_SAFE_INTEGER` unless
 * given).
 * @returns The value, or the default.
 * @throws {TypeError} When `value` is neither `undefined` nor a number.
 * @throws {RangeError} When it is a number that is not a safe integer within `range`.
 *
 * @example Usage
 * ```ts
 * import { integerOption } from "@adcp-wire/internal";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * strictEqual(integerOption("fetch", "options.maxBytes", undefined, 64, { min: 1 }), 64);
 * strictEqual(integerOption("fetch", "options.maxBytes", 8, 64, { min: 1 }), 8);
 * throws(() => integerOption("fetch", "options.maxBytes", 0, 64, { min: 1 }), {
 *   name: "RangeError",
 *   message: "Cannot fetch as 'options.maxBytes' must be a positive safe integer: current value " +
 *     "is 0",
 * });
 * ```
 */
export function integerOption(
  action: string,
  name: string,
  value: unknown,
  fallback: number,
  range: IntegerRange = {},
): number {
  if (value === undefined) return fallback;
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (typeof value !== "number") {
    throw optionError(TypeError, action, name, integerRequirement(min, max), value);
  }
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw optionError(RangeError, action, name, integerRequirement(min, max), value);
  }
  return value;
}

/**
 * An optional boolean option: `fallback` when `value` is `undefined`, else `value` when it is a
 * boolean.
 *
 * @param action What could not be done, for the message.
 * @param name The option's name as the caller wrote it.
 * @param value The value given.
 * @param fallback The default.
 * @returns The value, or the default.
 * @throws {TypeError} When `value` is neither `undefined` nor a boolean.
 *
 * @example Usage
 * ```ts
 * import { booleanOption } from "@adcp-wire/internal";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * strictEqual(booleanOption("connect", "options.allowHttp", undefined), false);
 * throws(() => booleanOption("connect", "options.allowHttp", "yes"), TypeError);
 * ```
 */
export function booleanOption(
  action: string,
  name: string,
  value: unknown,
  fallback = false,
): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw optionError(TypeError, action, name, "a boolean", value);
  return value;
}

/**
 * An optional function option: `value` when it is a function or `undefined`.
 *
 * @param action What could not be done, for the message.
 * @param name The option's name as the caller wrote it.
 * @param value The value given.
 * @returns The value.
 * @throws {TypeError} When `value` is neither `undefined` nor a function.
 *
 * @example Usage
 * ```ts
 * import { functionOption } from "@adcp-wire/internal";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * strictEqual(functionOption("connect", "options.fetch", undefined), undefined);
 * throws(() => functionOption("connect", "options.fetch", 1), TypeError);
 * ```
 */
export function functionOption<T>(
  action: string,
  name: string,
  value: T | undefined,
): T | undefined {
  if (value !== undefined && typeof value !== "function") {
    throw optionError(TypeError, action, name, "a function", value);
  }
  return value;
}

/**
 * Checks an optional object option (an options object, a limits layer): `undefined` or an
 * object.
 *
 * @param action What could not be done, for the message.
 * @param name The option's name as the caller wrote it.
 * @param value The value given.
 * @throws {TypeError} When `value` is neither `undefined` nor an object.
 *
 * @example Usage
 * ```ts
 * import { objectOption } from "@adcp-wire/internal";
 * import { throws } from "node:assert/strict";
 *
 * objectOption("connect", "options", {});
 * throws(() => objectOption("connect", "options", null), TypeError);
 * ```
 */
export function objectOption(action: string, name: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "object" || value === null)) {
    throw optionError(TypeError, action, name, "an object", value);
  }
}
