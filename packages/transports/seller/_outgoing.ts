// Shared by the seller-side helpers: option validation, the "refuse" step, and the response-size
// target.
import { isForwarded } from "./_forwarded.ts";
import { outgoingErrorCheck } from "./_check_outgoing.ts";
import type { CheckedOptions } from "./_outgoing_options.ts";
import {
  MCP_RESPONSE_SIZE_TARGET_BYTES,
  type OutgoingErrorCheck,
  type OutgoingErrorWarning,
} from "./check_outgoing_adcp_error.ts";
import { optionError, utf8Length } from "@adcp-wire/internal";
import type { ExtractedAdcpError } from "@adcp-wire/core";

/**
 * Checks an outgoing error with the helper's validated options and returns the cleaned one, or
 * throws: a `RangeError` when it is too large for buyers to accept, a `TypeError` for every other
 * refusal. The message is the first issue's; `cause` holds them all. An error from
 * `forwardAdcpError` is returned unchanged: it was validated when it was forwarded.
 */
export function preparedError(error: unknown, options: CheckedOptions): ExtractedAdcpError {
  if (isForwarded(error)) return error;
  const result: OutgoingErrorCheck = outgoingErrorCheck(error, options);
  if (result.valid) return result.error;
  const first = result.issues[0]!;
  const Constructor = first.kind === "too_large" ? RangeError : TypeError;
  throw new Constructor(first.message, { cause: result.issues });
}

/**
 * Reports a `response_size` warning when the serialized MCP tool result is over the 128 KiB
 * producer target (MCP Response Extraction 3.3.0-beta.0, Security Considerations, "Size Limits").
 * A result that does not serialize is blamed on `name` (`value`) in the `action` of the helper.
 *
 * @throws {TypeError} When the result does not serialize as JSON (a `BigInt`, a cycle).
 */
export function warnResponseSize(
  result: object,
  onWarning: ((warning: OutgoingErrorWarning) => void) | undefined,
  action: string,
  name: string,
  value: unknown,
): void {
  let text: string;
  try {
    text = JSON.stringify(result);
  } catch (cause) {
    const error = optionError(TypeError, action, name, "a value that serializes as JSON", value);
    // As `new TypeError(message, { cause })` sets it: own, non-enumerable.
    Object.defineProperty(error, "cause", { value: cause, writable: true, configurable: true });
    throw error;
  }
  // Only a result this long in UTF-16 units can be over the target in UTF-8 bytes (3 bytes a unit
  // at most), so the common case is never encoded.
  if (text.length * 3 <= MCP_RESPONSE_SIZE_TARGET_BYTES) return;
  const bytes = utf8Length(text);
  if (bytes <= MCP_RESPONSE_SIZE_TARGET_BYTES) return;
  onWarning?.({
    kind: "response_size",
    field: "result",
    message: `The tool result is ${bytes} serialized UTF-8 bytes; producers SHOULD target at ` +
      `most ${MCP_RESPONSE_SIZE_TARGET_BYTES} (128 KiB)`,
  });
}
