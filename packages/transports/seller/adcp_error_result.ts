import type { ExtractedAdcpError } from "@adcp-wire/core";
import { optionKeys } from "@adcp-wire/internal";
import { checkOptions, OUTGOING_ERROR_OPTION_NAMES } from "./_outgoing_options.ts";
import { preparedError, warnResponseSize } from "./_outgoing.ts";
import { payloadLayer } from "./_payload.ts";
import { checkSummary, redactedSummary } from "./_summary.ts";
import type { OutgoingErrorOptions } from "./check_outgoing_adcp_error.ts";

/** One MCP text content item. */
export type McpTextContent = { type: "text"; text: string };

/** An MCP `CallToolResult` carrying an AdCP error, as {@link adcpErrorResult} builds it. */
export type AdcpErrorToolResult = {
  /** The JSON text fallback `{"adcp_error":{...}}`, then the optional summary. */
  content: McpTextContent[];
  /** Always `true`. */
  isError: true;
  /**
   * The same error, for clients that read `structuredContent`; with the `payload` option, also the
   * payload layer beside it (`status: "failed"`, `errors`, and the payload's other fields).
   */
  structuredContent: {
    adcp_error: ExtractedAdcpError;
    status?: "failed";
    errors?: ExtractedAdcpError[];
    [key: string]: unknown;
  };
};

/** Options of {@link adcpErrorResult}. */
export interface AdcpErrorResultOptions extends OutgoingErrorOptions {
  /**
   * A one-sentence human summary ("Rate limited — retry in 5s."), added as the second content
   * item: one line, at most 256 UTF-8 bytes, not JSON; leak-checked like `message`.
   * @default {undefined}
   */
  readonly summary?: string | undefined;
  /**
   * Also set the payload layer of a fatal task failure: `true` puts `status: "failed"` and
   * `errors: [error]` beside `adcp_error` in `structuredContent`; an object is the task payload to
   * send there (a JSON copy, not leak-checked). The rules are in `docs/outgoing-errors.md`.
   * @default {false}
   */
  readonly payload?: boolean | Readonly<Record<string, unknown>> | undefined;
}

/** The keys of {@link AdcpErrorResultOptions}. */
const OPTION_KEYS = optionKeys<AdcpErrorResultOptions>({
  ...OUTGOING_ERROR_OPTION_NAMES,
  summary: true,
  payload: true,
});

/**
 * Builds the MCP tool result for an AdCP error: `isError: true`, the error in
 * `structuredContent.adcp_error`, and as content the JSON text fallback `{"adcp_error": …}` then
 * the optional summary. The error passes {@link checkOutgoingAdcpError} first, unless it came from
 * {@link forwardAdcpError}. The rules, the payload layer included, are in
 * `docs/outgoing-errors.md`.
 *
 * Spec: Transport Error Mapping, MCP Binding, Tool-Level Errors and MCP Server Implementation.
 *
 * @param error The error (`code` and `message` required).
 * @param options The summary, the payload layer, and the {@link OutgoingErrorOptions}.
 * @returns The tool result, ready to return from an MCP tool handler.
 * A refused error throws: returned from a tool handler unhandled, that reaches the buyer as the MCP
 * SDK's `-32603` internal error (or an `isError` text), with no `adcp_error` and no recovery. Catch
 * it and send a valid standard error instead, as the second example does, or check the error first
 * with {@link checkOutgoingAdcpError}; `docs/outgoing-errors.md` ("When a helper refuses an error")
 * has both.
 *
 * @throws {TypeError} When the error is refused (the message names a refused `code` that looks
 * like one, `cause` holds every issue), the summary is not one line of prose, `payload` is
 * malformed, or `options` has an unknown key (named with the nearest known one).
 * @throws {RangeError} When the error (or a payload error) is over 4096 serialized UTF-8 bytes, or
 * `options.summary` over 256.
 *
 * @example A rate-limit error with a summary
 * ```ts
 * import { adcpErrorResult } from "@adcp-wire/transports/seller";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = { code: "RATE_LIMITED", message: "Too many requests", retry_after: 5 };
 * const result = adcpErrorResult(error, { summary: "Rate limited, retry in 5s." });
 * strictEqual(result.isError, true);
 * strictEqual(result.structuredContent.adcp_error.recovery, "transient");
 * strictEqual(result.content[1]?.text, "Rate limited, retry in 5s.");
 * ```
 *
 * @example Sending the spec's fallback when the error is refused
 * ```ts
 * import { adcpErrorResult, translateUpstreamError } from "@adcp-wire/transports/seller";
 * import { strictEqual } from "node:assert/strict";
 *
 * // A seller's own code must be X_{VENDOR}_{CODE}: FLOOR_NOT_MET is refused. Log why, and send
 * // "An internal error occurred" (SERVICE_UNAVAILABLE, transient) rather than let the TypeError
 * // become an anonymous -32603.
 * function toolError(error: unknown, log: (line: string) => void) {
 *   try {
 *     return adcpErrorResult(error);
 *   } catch (refused) {
 *     if (!(refused instanceof TypeError || refused instanceof RangeError)) throw refused;
 *     log(refused.message);
 *     return adcpErrorResult(translateUpstreamError(refused));
 *   }
 * }
 * const logged: string[] = [];
 * const floor = { code: "FLOOR_NOT_MET", message: "Bid below the floor", recovery: "correctable" };
 * const result = toolError(floor, (line) => logged.push(line));
 * strictEqual(result.structuredContent.adcp_error.code, "SERVICE_UNAVAILABLE");
 * strictEqual(result.structuredContent.adcp_error.recovery, "transient");
 * strictEqual(logged[0]?.includes('got "FLOOR_NOT_MET", which is in neither'), true);
 * // The fix is the vendor form, which is sent as it is.
 * const vendor = toolError({ ...floor, code: "X_ACME_FLOOR_NOT_MET" }, (l) => logged.push(l));
 * strictEqual(vendor.structuredContent.adcp_error.code, "X_ACME_FLOOR_NOT_MET");
 * ```
 */
export function adcpErrorResult(
  error: unknown,
  options: AdcpErrorResultOptions = {},
): AdcpErrorToolResult {
  const checked = checkOptions(options, "build the error result", OPTION_KEYS);
  let summary = options.summary === undefined
    ? undefined
    : checkSummary("options.summary", options.summary, checked.action);
  const adcpError = preparedError(error, checked);
  const payload = payloadLayer(options.payload, adcpError, checked);
  if (summary !== undefined) summary = redactedSummary(summary, checked);
  const content: McpTextContent[] = [
    { type: "text", text: JSON.stringify({ adcp_error: adcpError }) },
  ];
  if (summary !== undefined) content.push({ type: "text", text: summary });
  const result: AdcpErrorToolResult = {
    content,
    isError: true,
    structuredContent: { adcp_error: adcpError, ...payload },
  };
  warnResponseSize(result, checked.onWarning, checked.action, "options.payload", options.payload);
  return result;
}
