// Checks of option values shared by every part of the package, in one message style:
// "Cannot use the options as '<name>' must be <requirement>: current value is <value>".
import { checkOptionKeys, notShown, optionError, type OptionKeys } from "@adcp-wire/internal";

const ACTION = "use the options";

/** Validates an optional non-negative safe-integer option. */
export function countOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number") {
    throw optionError(TypeError, ACTION, name, "a number", value);
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    throw optionError(RangeError, ACTION, name, "a non-negative safe integer", value);
  }
  return value;
}

/** Validates an optional boolean option. */
export function booleanOption(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") {
    throw optionError(TypeError, ACTION, name, "a boolean", value);
  }
  return value;
}

/** Validates an optional function option. */
export function functionOption<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== "function") {
    throw optionError(TypeError, ACTION, name, "a function", value);
  }
  return value;
}

/** Validates an optional object option (limits layers, headers). */
export function objectOption(name: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "object" || value === null)) {
    throw optionError(TypeError, ACTION, name, "an object", value);
  }
}

/**
 * Refuses an own key of the options object `value` that is not in `keys`: a `TypeError` of
 * `checkOptionKeys` (`@adcp-wire/internal`) under `action`, naming the key as `<name>.<key>` and
 * the nearest known option (among `keys` and the keys of the nested objects `nested` names, so
 * `{ timeoutMs }` finds `options.agentLimits.timeoutMs`). A string value is shown by its size
 * only: a misplaced option may be a credential (an `authorization` meant for `headers`). A value
 * that is not a plain object is left to the option's own type check; symbol and inherited keys are
 * not options. Nothing is allocated unless a key is refused, so it is cheap enough for every call.
 *
 * @throws {TypeError} When `value` has an unknown key.
 */
export function checkKeys(
  action: string,
  name: string,
  value: unknown,
  keys: OptionKeys,
  nested?: Readonly<Record<string, OptionKeys>>,
): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const key in value) {
    if (keys.has(key) || !Object.hasOwn(value, key)) continue;
    const shown = notShown((value as Record<string, unknown>)[key]);
    // A computed key defines an own property, `__proto__` included.
    checkOptionKeys(action, name, { [key]: shown }, keys, nested);
  }
}
