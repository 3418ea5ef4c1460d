// Private: the classification rules shared by classifyRecovery() and decideRecovery().

import { optionError, own } from "@adcp-wire/internal";
import { lookupErrorCode, type RecoveryClass } from "@adcp-wire/schemas";
import { isRecoveryClass } from "./_own.ts";

/**
 * Checks `unknownCodeRecovery` and returns it, defaulted; `action` is what the error message says
 * could not be done.
 *
 * @throws {TypeError} When it is present and not one of the three classes.
 */
export function resolveUnknownCodeRecovery(value: unknown, action: string): RecoveryClass {
  if (value === undefined) return "terminal";
  if (!isRecoveryClass(value)) {
    throw optionError(
      TypeError,
      action,
      "unknownCodeRecovery",
      '"transient", "correctable" or "terminal"',
      value,
    );
  }
  return value;
}

/** Classifies an error already known to be an object; options already checked. */
export function classify(
  error: Record<string, unknown>,
  unknownCode: RecoveryClass,
): RecoveryClass {
  // An own `recovery` holding `undefined` is absent: it is no JSON value, and JSON.stringify drops
  // it.
  const recovery = own(error, "recovery");
  if (recovery !== undefined) return isRecoveryClass(recovery) ? recovery : "terminal";
  const code = own(error, "code");
  const info = typeof code === "string" ? lookupErrorCode(code) : undefined;
  return info === undefined ? unknownCode : info.recovery;
}
