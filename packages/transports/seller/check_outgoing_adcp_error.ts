import { type OutgoingErrorCheck, outgoingErrorCheck } from "./_check_outgoing.ts";
import {
  checkOptions,
  OUTGOING_ERROR_OPTION_NAMES,
  type OutgoingErrorOptions,
  type OutgoingErrorWarning,
} from "./_outgoing_options.ts";
import { optionKeys } from "@adcp-wire/internal";

export { DETAILS_SIZE_GUIDELINE_BYTES } from "./_check_outgoing.ts";
export type { OutgoingErrorCheck, OutgoingErrorIssue } from "./_check_outgoing.ts";
export type { LeakKind } from "./_leaks.ts";
export type { OutgoingErrorOptions, OutgoingErrorWarning };

/** The keys of {@link OutgoingErrorOptions}. */
const OPTION_KEYS = optionKeys<OutgoingErrorOptions>(OUTGOING_ERROR_OPTION_NAMES);

/**
 * The producer target for one serialized MCP tool result, in UTF-8 bytes: 128 KiB. Above it,
 * {@link adcpSuccessResult} and {@link adcpErrorResult} report a `response_size` warning and still
 * return the result; how it is measured is in `docs/outgoing-errors.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 */
export const MCP_RESPONSE_SIZE_TARGET_BYTES = 131_072;

/**
 * Checks, and cleans, an AdCP error a seller is about to send: refuses a malformed code or field,
 * fixes what it can (rounds `retry_after`, fills `recovery`, drops unknown fields) and redacts
 * internal details, or refuses them in `strict` mode. The input is not modified; what is refused,
 * fixed and redacted is listed in `docs/outgoing-errors.md`.
 *
 * Spec: Transport Error Mapping, MCP Server Implementation, Seller-Specific Error Codes, Size
 * Guidance, and Security Considerations, Seller Requirements.
 *
 * @param error The error to send (any value).
 * @param options Strict mode, a warning callback, internal service names, unlisted codes.
 * @returns The cleaned error and the warnings, or the issues.
 * @throws {TypeError} When `options` is malformed or has an unknown key (named with the nearest
 * known one).
 * @throws {RangeError} When `options.internalServiceNames` has too many or too long names.
 *
 * @example Redacting an address and rounding the retry delay
 * ```ts
 * import { checkOutgoingAdcpError } from "@adcp-wire/transports/seller";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = { code: "SERVICE_UNAVAILABLE", message: "Down at 10.0.3.7", retry_after: 2.5 };
 * const checked = checkOutgoingAdcpError(error);
 * strictEqual(checked.valid && checked.error.message, "Down at [redacted]");
 * strictEqual(checked.valid && checked.error.retry_after, 3);
 * ```
 */
export function checkOutgoingAdcpError(
  error: unknown,
  options: OutgoingErrorOptions = {},
): OutgoingErrorCheck {
  return outgoingErrorCheck(error, checkOptions(options, "check the outgoing error", OPTION_KEYS));
}
