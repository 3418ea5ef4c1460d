// Shared by the seller-side helpers: option validation and the "refuse" step.
import { describe } from "./_describe.ts";
import type {
  OutgoingErrorCheck,
  OutgoingErrorOptions,
  OutgoingErrorWarning,
} from "./check_outgoing_adcp_error.ts";
import { checkOutgoingAdcpError } from "./check_outgoing_adcp_error.ts";
import type { AdcpError } from "@adcp-wire/core";

/** Options validated for the outgoing helpers. */
export function checkOptions(
  options: OutgoingErrorOptions,
): { strict: boolean; onWarning: ((warning: OutgoingErrorWarning) => void) | undefined } {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`Expected options to be an object, got ${describe(options)}`);
  }
  const strict = options.strict ?? false;
  if (typeof strict !== "boolean") {
    throw new TypeError(`Expected options.strict to be a boolean, got ${describe(strict)}`);
  }
  const onWarning = options.onWarning;
  if (onWarning !== undefined && typeof onWarning !== "function") {
    throw new TypeError(`Expected options.onWarning to be a function, got ${describe(onWarning)}`);
  }
  return { strict, onWarning };
}

/**
 * Checks an outgoing error and returns the cleaned one, or throws: a `RangeError` when it is too
 * large for buyers to accept, a `TypeError` for every other refusal. The message is the first
 * issue's; `cause` holds them all.
 */
export function preparedError(error: unknown, options: OutgoingErrorOptions): AdcpError {
  const checked: OutgoingErrorCheck = checkOutgoingAdcpError(error, options);
  if (checked.valid) return checked.error;
  const first = checked.issues[0]!;
  const Constructor = first.kind === "too_large" ? RangeError : TypeError;
  throw new Constructor(first.message, { cause: checked.issues });
}
