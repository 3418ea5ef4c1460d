// Private helpers of @adcp-wire/recovery: the recovery-class test and the checks of a decision's
// attempt state. Own-property reads, the rendering of bad values and the structural check of an
// extracted error are those of @adcp-wire/internal and @adcp-wire/core.

import { optionError } from "@adcp-wire/internal";
import type { RecoveryClass } from "@adcp-wire/schemas";

/** The three recovery classes of `core/error.json` `recovery`. */
const RECOVERY_CLASSES: readonly RecoveryClass[] = ["transient", "correctable", "terminal"];

/** Whether `value` is exactly one of `"transient"`, `"correctable"`, `"terminal"`. */
export function isRecoveryClass(value: unknown): value is RecoveryClass {
  return typeof value === "string" && (RECOVERY_CLASSES as readonly string[]).includes(value);
}

/**
 * Checks a 1-based attempt number; `action` is what the error message says could not be done.
 *
 * @throws {TypeError} When it is not a number.
 * @throws {RangeError} When it is not a safe integer >= 1.
 */
export function checkAttempt(attempt: unknown, action: string): number {
  const want = "a safe integer >= 1 (the 1-based number of the attempt that failed)";
  if (typeof attempt !== "number") throw optionError(TypeError, action, "attempt", want, attempt);
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw optionError(RangeError, action, "attempt", want, attempt);
  }
  return attempt;
}

/**
 * Checks a number of elapsed seconds; `action` is what the error message says could not be done.
 *
 * @throws {TypeError} When it is not a number.
 * @throws {RangeError} When it is not finite and >= 0.
 */
export function checkElapsedSeconds(elapsed: unknown, action: string): number {
  const want = "a finite number of seconds >= 0";
  if (typeof elapsed !== "number") {
    throw optionError(TypeError, action, "elapsedSeconds", want, elapsed);
  }
  if (!Number.isFinite(elapsed) || elapsed < 0) {
    throw optionError(RangeError, action, "elapsedSeconds", want, elapsed);
  }
  return elapsed;
}
