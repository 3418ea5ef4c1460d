// Checks of option values shared by every part of the package, in one message style:
// "Cannot use the options as '<name>' must be <requirement>: current value is <value>".
import { optionError } from "@adcp-wire/internal";

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
