// Private helpers of @adcp-wire/recovery: own-property reads of seller-controlled values, the
// structural check of an extracted error, and the rendering of bad option values in messages.

import type { RecoveryClass } from "@adcp-wire/schemas";

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

/** Longest accepted `code`, in UTF-16 code units (Transport Error Mapping, "Client Library Requirements" 3). */
export const MAX_CODE_LENGTH = 64;

/**
 * Whether `value` has the shape of an extracted AdCP error: a non-array object with an own `code`
 * that is a string of 1 to 64 UTF-16 code units (Transport Error Mapping, "Client Detection
 * Order": a failed check means "no structured error").
 */
export function isStructuredError(value: unknown): value is { readonly code: string } & JsonObject {
  if (!isJsonObject(value)) return false;
  const code = own(value, "code");
  return typeof code === "string" && code.length > 0 && code.length <= MAX_CODE_LENGTH;
}

/** The three recovery classes of `core/error.json` `recovery`. */
const RECOVERY_CLASSES: readonly RecoveryClass[] = ["transient", "correctable", "terminal"];

/** Whether `value` is exactly one of `"transient"`, `"correctable"`, `"terminal"`. */
export function isRecoveryClass(value: unknown): value is RecoveryClass {
  return typeof value === "string" && (RECOVERY_CLASSES as readonly string[]).includes(value);
}

/** A short rendering of a bad value for an error message (`-0`, `NaN`, `"text"`, `a function`). */
export function describe(value: unknown): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "string") {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function") return "a function";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return String(value);
}

/**
 * Checks a 1-based attempt number.
 *
 * @throws {TypeError} When it is not a number.
 * @throws {RangeError} When it is not a safe integer >= 1.
 */
export function checkAttempt(attempt: unknown): number {
  const want = "a safe integer >= 1 (the 1-based number of the attempt that failed)";
  if (typeof attempt !== "number") {
    throw new TypeError(`Invalid attempt: expected ${want}, received ${describe(attempt)}`);
  }
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`Invalid attempt: expected ${want}, received ${describe(attempt)}`);
  }
  return attempt;
}

/**
 * Checks a number of elapsed seconds.
 *
 * @throws {TypeError} When it is not a number.
 * @throws {RangeError} When it is not finite and >= 0.
 */
export function checkElapsedSeconds(elapsed: unknown): number {
  const want = "a finite number of seconds >= 0";
  if (typeof elapsed !== "number") {
    throw new TypeError(`Invalid elapsedSeconds: expected ${want}, received ${describe(elapsed)}`);
  }
  if (!Number.isFinite(elapsed) || elapsed < 0) {
    throw new RangeError(`Invalid elapsedSeconds: expected ${want}, received ${describe(elapsed)}`);
  }
  return elapsed;
}
