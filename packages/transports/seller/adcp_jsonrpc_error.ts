import type { ExtractedAdcpError } from "@adcp-wire/core";
import { isForwarded } from "./_forwarded.ts";
import { checkOptions, preparedError } from "./_outgoing.ts";
import { checkSummary, redactedSummary } from "./_summary.ts";
import type { OutgoingErrorOptions } from "./check_outgoing_adcp_error.ts";
import { notShown } from "../read/_not_shown.ts";
import { isJsonObject as isObject, optionError, own } from "@adcp-wire/internal";

/**
 * The reserved JSON-RPC error codes of Transport Error Mapping, "Reserved JSON-RPC Codes", by the
 * AdCP code each carries: `-32029` `RATE_LIMITED`, `-32028` `AUTH_MISSING` (and its deprecated
 * alias `AUTH_REQUIRED`, the code older pages name there), `-32027` `SERVICE_UNAVAILABLE`.
 *
 * @example Looking up a code
 * ```ts
 * import { ADCP_JSONRPC_CODES } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(ADCP_JSONRPC_CODES.RATE_LIMITED, -32029);
 * ```
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

/**
 * The JSON-RPC `error` object {@linkcode adcpJsonRpcError} builds.
 *
 * @example A 401 answer from a gateway
 * ```ts
 * import { adcpJsonRpcError, type AdcpJsonRpcErrorObject } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const error: AdcpJsonRpcErrorObject = adcpJsonRpcError({
 *   code: "AUTH_MISSING",
 *   message: "No token",
 * });
 * const response = Response.json({ jsonrpc: "2.0", id: 7, error }, { status: 401 });
 * const body = await response.json();
 * strictEqual(body.error.code, -32028);
 * strictEqual(body.error.message, "Authentication required");
 * deepStrictEqual(body.error.data.adcp_error, {
 *   code: "AUTH_MISSING",
 *   message: "No token",
 *   recovery: "correctable",
 * });
 * ```
 */
export type AdcpJsonRpcErrorObject = {
  /** `-32029`, `-32028` or `-32027`. */
  code: -32029 | -32028 | -32027;
  /** A short, fixed description unless `options.message` gave one. */
  message: string;
  /** The AdCP error, for `error.data.adcp_error` (Client Detection Order step 4). */
  data: { adcp_error: ExtractedAdcpError };
};

/**
 * Options of {@linkcode adcpJsonRpcError}.
 *
 * @example A custom message, and the warning for a deprecated code
 * ```ts
 * import { adcpJsonRpcError, type AdcpJsonRpcErrorOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const kinds: string[] = [];
 * const options: AdcpJsonRpcErrorOptions = {
 *   message: "Sign in to continue",
 *   onWarning: (warning) => kinds.push(warning.kind),
 * };
 * const error = adcpJsonRpcError(
 *   { code: "AUTH_REQUIRED", message: "No token", recovery: "correctable" },
 *   options,
 * );
 * strictEqual(error.code, -32028);
 * strictEqual(error.message, "Sign in to continue");
 * deepStrictEqual(kinds, ["deprecated_code"]);
 * ```
 */
export interface AdcpJsonRpcErrorOptions extends OutgoingErrorOptions {
  /**
   * The JSON-RPC `message`: one line of prose, leak-checked.
   * @default {"Rate limit exceeded" | "Authentication required" | "Service unavailable"}
   */
  readonly message?: string | undefined;
}

const DEFAULT_MESSAGES = {
  [-32029]: "Rate limit exceeded",
  [-32028]: "Authentication required",
  [-32027]: "Service unavailable",
} as const;

/**
 * Builds the JSON-RPC `error` object infrastructure returns when it rejects a request before tool
 * dispatch (Transport Error Mapping, "MCP Binding" > "Transport-Level Errors"): the reserved code
 * for the AdCP code, and the checked error in `data.adcp_error`. Put it in a JSON-RPC response
 * (`{ jsonrpc: "2.0", id, error }`, typically with HTTP 429, 401 or 503), or throw it as the MCP
 * SDK's `McpError(code, message, data)`.
 *
 * Only `RATE_LIMITED`, `AUTH_MISSING` and `SERVICE_UNAVAILABLE` travel this path ("All other AdCP
 * error codes use the tool-level path exclusively"); any other code is refused with a
 * `TypeError`. Decision on `AUTH_REQUIRED`: accepted for `-32028` and sent unchanged (it is the
 * code the older Japanese page gives for `-32028`, and a standard deprecated alias of
 * `AUTH_MISSING`, so every buyer still classifies it), with a `deprecated_code` warning; prefer
 * `AUTH_MISSING`. The error goes through {@linkcode checkOutgoingAdcpError} first; an error from
 * {@linkcode forwardAdcpError} (one of the three codes) is sent unchanged, a missing `message`
 * included.
 *
 * @param error The error (`code` required; a missing `message` is filled with the JSON-RPC text, with a
 * `message_filled` warning, since the spec's example of this path has none and `core/error.json` requires one).
 * @param options The JSON-RPC message, strict mode, and a warning callback.
 * @returns The JSON-RPC error object.
 * @throws {TypeError} When the code is not one of the three, or the error is refused.
 * @throws {RangeError} When the error serializes to more than 4096 UTF-8 bytes.
 *
 * @example A gateway rate limit
 * ```ts
 * import { adcpJsonRpcError } from "@adcp-wire/transports";
 * import { extractAdcpErrorFromJsonRpcError } from "@adcp-wire/core";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * const error = adcpJsonRpcError({
 *   code: "RATE_LIMITED",
 *   message: "Request rate exceeded",
 *   recovery: "transient",
 *   retry_after: 5,
 * });
 * deepStrictEqual(error, {
 *   code: -32029,
 *   message: "Rate limit exceeded",
 *   data: {
 *     adcp_error: {
 *       code: "RATE_LIMITED",
 *       message: "Request rate exceeded",
 *       recovery: "transient",
 *       retry_after: 5,
 *     },
 *   },
 * });
 * deepStrictEqual(extractAdcpErrorFromJsonRpcError({ jsonrpc: "2.0", id: 1, error }), error.data.adcp_error);
 * throws(() => adcpJsonRpcError({ code: "BUDGET_TOO_LOW", message: "Too low" }), TypeError);
 * ```
 */
export function adcpJsonRpcError(
  error: unknown,
  options: AdcpJsonRpcErrorOptions = {},
): AdcpJsonRpcErrorObject {
  const checked = checkOptions(options, "build the JSON-RPC error");
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
      notShown(code),
    );
  }
  // Middleware often has no more to say than the code: the spec's own example of this path carries no
  // `message`, while `core/error.json` requires one. Fill it with the fixed JSON-RPC text and say so.
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
  return { code: rpcCode, message, data: { adcp_error: preparedError(adcpError, options) } };
}
