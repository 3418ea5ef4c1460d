import type { ExtractedAdcpError } from "@adcp-wire/core";
import { isForwarded } from "./_forwarded.ts";
import { checkOptions, OUTGOING_ERROR_OPTION_NAMES } from "./_outgoing_options.ts";
import { preparedError } from "./_outgoing.ts";
import { checkSummary, redactedSummary } from "./_summary.ts";
import type { OutgoingErrorOptions } from "./check_outgoing_adcp_error.ts";
import { shownCode } from "./_shown_code.ts";
import { isJsonObject as isObject, optionError, optionKeys, own } from "@adcp-wire/internal";

/**
 * The reserved JSON-RPC error codes, by the AdCP code each carries: `-32029` `RATE_LIMITED`,
 * `-32028` `AUTH_MISSING` (and its deprecated alias `AUTH_REQUIRED`, the code older pages name
 * there), `-32027` `SERVICE_UNAVAILABLE`.
 *
 * Spec: Transport Error Mapping, Reserved JSON-RPC Codes.
 */
export const ADCP_JSONRPC_CODES: {
  readonly RATE_LIMITED: -32029;
  readonly AUTH_MISSING: -32028;
  readonly AUTH_REQUIRED: -32028;
  readonly SERVICE_UNAVAILABLE: -32027;
} = Object.freeze({
  RATE_LIMITED: -32029,
  AUTH_MISSING: -32028,
  AUTH_REQUIRED: -32028,
  SERVICE_UNAVAILABLE: -32027,
});

/** The JSON-RPC `error` object {@link adcpJsonRpcError} builds. */
export type AdcpJsonRpcErrorObject = {
  /** `-32029`, `-32028` or `-32027`. */
  code: -32029 | -32028 | -32027;
  /** A short, fixed description unless `options.message` gave one. */
  message: string;
  /** The AdCP error, for `error.data.adcp_error` (Client Detection Order step 4). */
  data: { adcp_error: ExtractedAdcpError };
};

/** Options of {@link adcpJsonRpcError}. */
export interface AdcpJsonRpcErrorOptions extends OutgoingErrorOptions {
  /**
   * The JSON-RPC `message`: one line of prose, leak-checked.
   * @default {"Rate limit exceeded" | "Authentication required" | "Service unavailable"}
   */
  readonly message?: string | undefined;
}

/** The keys of {@link AdcpJsonRpcErrorOptions}. */
const OPTION_KEYS = optionKeys<AdcpJsonRpcErrorOptions>({
  ...OUTGOING_ERROR_OPTION_NAMES,
  message: true,
});

const DEFAULT_MESSAGES = {
  [-32029]: "Rate limit exceeded",
  [-32028]: "Authentication required",
  [-32027]: "Service unavailable",
} as const;

/**
 * Builds the JSON-RPC `error` object infrastructure returns when it rejects a request before tool
 * dispatch: the reserved code, a short message, and the checked error in `data.adcp_error`. Only
 * `RATE_LIMITED`, `AUTH_MISSING` (or its deprecated alias `AUTH_REQUIRED`) and
 * `SERVICE_UNAVAILABLE` travel this path; the rules are in `docs/outgoing-errors.md`.
 *
 * Spec: Transport Error Mapping, MCP Binding, Transport-Level Errors; Reserved JSON-RPC Codes.
 *
 * @param error The error (`code` required; a missing `message` is filled, with a warning).
 * @param options The JSON-RPC message and the {@link OutgoingErrorOptions}.
 * @returns The JSON-RPC error object.
 * @throws {TypeError} When the code is not one of the three (the message names it when it looks
 * like a code), an option is malformed or unknown (named with the nearest known one), or the error
 * is refused; "When a helper refuses an error" in
 * `docs/outgoing-errors.md` says what to send instead.
 * @throws {RangeError} When the error serializes to more than 4096 UTF-8 bytes, or
 * `options.message` to more than 256.
 *
 * @example A gateway rate limit
 * ```ts
 * import { adcpJsonRpcError } from "@adcp-wire/transports/seller";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * const adcpError = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient" };
 * deepStrictEqual(adcpJsonRpcError(adcpError), {
 *   code: -32029,
 *   message: "Rate limit exceeded",
 *   data: { adcp_error: adcpError },
 * });
 * throws(() => adcpJsonRpcError({ code: "BUDGET_TOO_LOW", message: "Too low" }), TypeError);
 * ```
 */
export function adcpJsonRpcError(
  error: unknown,
  options: AdcpJsonRpcErrorOptions = {},
): AdcpJsonRpcErrorObject {
  const checked = checkOptions(options, "build the JSON-RPC error", OPTION_KEYS);
  const code = isObject(error) ? own(error, "code") : undefined;
  const rpcCode = typeof code === "string" && Object.hasOwn(ADCP_JSONRPC_CODES, code)
    ? ADCP_JSONRPC_CODES[code as keyof typeof ADCP_JSONRPC_CODES]
    : undefined;
  if (rpcCode === undefined) {
    throw optionError(
      TypeError,
      checked.action,
      "error.code",
      "RATE_LIMITED, AUTH_MISSING (or AUTH_REQUIRED) or SERVICE_UNAVAILABLE (send any other " +
        "code by the tool-level path)",
      shownCode(code, checked.serviceNames),
    );
  }
  // Middleware often has no more to say than the code: the spec's own example of this path carries
  // no `message`, while `core/error.json` requires one. Fill it with the fixed JSON-RPC text and
  // say so.
  let adcpError = error as Record<string, unknown>;
  if (!isForwarded(error) && own(adcpError, "message") === undefined) {
    adcpError = { ...adcpError, message: DEFAULT_MESSAGES[rpcCode] };
    checked.onWarning?.({
      kind: "message_filled",
      field: "message",
      message: `Filled the missing message of ${code} with "${DEFAULT_MESSAGES[rpcCode]}"`,
    });
  }
  let message: string = DEFAULT_MESSAGES[rpcCode];
  if (options.message !== undefined) {
    message = redactedSummary(
      checkSummary("options.message", options.message, checked.action),
      checked,
      "options.message",
      "jsonrpc.message",
    );
  }
  return { code: rpcCode, message, data: { adcp_error: preparedError(adcpError, checked) } };
}
