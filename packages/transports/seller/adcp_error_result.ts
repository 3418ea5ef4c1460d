import type { ExtractedAdcpError } from "@adcp-wire/core";
import { checkOptions, preparedError, warnResponseSize } from "./_outgoing.ts";
import { payloadLayer } from "./_payload.ts";
import { checkSummary, redactedSummary } from "./_summary.ts";
import type { OutgoingErrorOptions } from "./check_outgoing_adcp_error.ts";

/**
 * One MCP text content item.
 *
 * @example Reading the JSON text fallback
 * ```ts
 * import { adcpErrorResult, type McpTextContent } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const [fallback]: McpTextContent[] = adcpErrorResult({
 *   code: "INVALID_REQUEST",
 *   message: "Missing brief",
 *   field: "brief",
 * }).content;
 * strictEqual(fallback?.type, "text");
 * strictEqual(JSON.parse(fallback.text).adcp_error.field, "brief");
 * ```
 */
export type McpTextContent = { type: "text"; text: string };

/**
 * An MCP `CallToolResult` carrying an AdCP error, as {@linkcode adcpErrorResult} builds it.
 *
 * @example An error without a summary
 * ```ts
 * import { adcpErrorResult, type AdcpErrorToolResult } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const result: AdcpErrorToolResult = adcpErrorResult({
 *   code: "BUDGET_TOO_LOW",
 *   message: "Below minimum",
 * });
 * strictEqual(result.isError, true);
 * strictEqual(result.content.length, 1);
 * deepStrictEqual(result.structuredContent.adcp_error, {
 *   code: "BUDGET_TOO_LOW",
 *   message: "Below minimum",
 *   recovery: "correctable",
 * });
 * ```
 */
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

/**
 * Options of {@linkcode adcpErrorResult}.
 *
 * @example A summary, with leaks redacted and reported
 * ```ts
 * import { adcpErrorResult, type AdcpErrorResultOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
 *
 * const fields: string[] = [];
 * const options: AdcpErrorResultOptions = {
 *   summary: "Inventory service at 10.0.3.7 is down.",
 *   onWarning: (warning) => fields.push(warning.field),
 * };
 * const error = { code: "SERVICE_UNAVAILABLE", message: "Try again later", retry_after: 30 };
 * const result = adcpErrorResult(error, options);
 * strictEqual(result.content[1]?.text, "Inventory service at [redacted] is down.");
 * deepStrictEqual(fields, ["recovery", "summary"]);
 * throws(() => adcpErrorResult(error, { ...options, strict: true }), TypeError);
 * ```
 */
export interface AdcpErrorResultOptions extends OutgoingErrorOptions {
  /**
   * A one-sentence human summary ("Rate limited — retry in 5s."), added as the second content
   * item: one line, at most 256 UTF-8 bytes, not JSON; leak-checked like `message`.
   * @default {undefined}
   */
  readonly summary?: string | undefined;
  /**
   * Also set the payload layer, for a fatal task failure ("A fatal task failure SHOULD populate
   * both layers", Error Handling, "Envelope vs. payload errors"): `true` puts `status: "failed"` and
   * `errors: [error]` beside `adcp_error` in `structuredContent` (the MCP serialization is flat:
   * no nested `payload` key, `core/protocol-envelope.json`). An object is the task payload to send
   * there (`context`, `context_id`, ...; a JSON copy, not leak-checked, so that `context` comes back
   * byte for byte): its `status` must be `"failed"` if given, and its `errors`, if given, a
   * non-empty array whose items are checked like `error` (or come from
   * {@linkcode forwardAdcpError}) and whose first item has the code of `error`. It holds no
   * `adcp_error`. The JSON text fallback carries `adcp_error` only.
   * @default {false}
   */
  readonly payload?: boolean | Readonly<Record<string, unknown>> | undefined;
}

/**
 * Builds the MCP tool result for an AdCP error (Transport Error Mapping, "MCP Binding" >
 * "Tool-Level Errors" and "MCP Server Implementation"): `isError: true`, the error in
 * `structuredContent.adcp_error`, the JSON text fallback `{"adcp_error": …}` as the first content
 * item (what most MCP hosts read today), and the optional terse summary as the second.
 *
 * The error first goes through {@linkcode checkOutgoingAdcpError} (code format, `retry_after`
 * rounding and clamping, field types, leak redaction or refusal in `strict` mode, the 500-byte
 * `details` guideline, and the 4096-byte limit of our own extraction); a refused error throws. An
 * error from {@linkcode forwardAdcpError} is sent unchanged. The result passes `handleMcpResponse`
 * of `@adcp-wire/core` as an `"error"` on both the `structuredContent` path and the text-fallback
 * path; with `payload`, `detectAdcpError` finds the same code in the payload's `errors[0]` too. A
 * result over {@linkcode MCP_RESPONSE_SIZE_TARGET_BYTES} (128 KiB) is reported with a
 * `response_size` warning (only a large `payload` can get there).
 *
 * Use it for application-layer failures only: the tool ran and understood the request. For a
 * request rejected before dispatch use {@linkcode adcpJsonRpcError}.
 *
 * @param error The error (`code` and `message` required).
 * @param options The summary, the payload layer, strict mode, a warning callback, internal service
 * names, unlisted codes.
 * @returns The tool result, ready to return from an MCP tool handler.
 * @throws {TypeError} When the error is refused (the message names the field; `cause` holds every
 * issue), the summary is not one line of prose, or `payload` is malformed.
 * @throws {RangeError} When the error (or a payload error) serializes to more than 4096 UTF-8
 * bytes.
 *
 * @example A rate-limit error with a summary
 * ```ts
 * import { adcpErrorResult } from "@adcp-wire/transports";
 * import { handleMcpResponse } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const result = adcpErrorResult(
 *   { code: "RATE_LIMITED", message: "Request rate exceeded", recovery: "transient", retry_after: 5 },
 *   { summary: "Rate limited — retry in 5s." },
 * );
 * strictEqual(
 *   result.content[0]?.text,
 *   '{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","recovery":"transient","retry_after":5}}',
 * );
 * strictEqual(result.content[1]?.text, "Rate limited — retry in 5s.");
 * deepStrictEqual(handleMcpResponse(result), {
 *   kind: "error",
 *   error: result.structuredContent.adcp_error,
 *   path: "structured_content",
 * });
 * ```
 *
 * @example A fatal failure on both layers
 * ```ts
 * import { adcpErrorResult } from "@adcp-wire/transports";
 * import { detectAdcpError } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const error = { code: "BUDGET_TOO_LOW", message: "Below minimum", recovery: "correctable" };
 * const result = adcpErrorResult(error, { payload: { context: { trace: "t-1" } } });
 * deepStrictEqual(result.structuredContent, {
 *   adcp_error: error,
 *   context: { trace: "t-1" },
 *   status: "failed",
 *   errors: [error],
 * });
 * strictEqual(detectAdcpError(result)?.path, "structured_content");
 * // A reader of the payload alone finds the same code.
 * const { adcp_error: _, ...payload } = result.structuredContent;
 * deepStrictEqual(detectAdcpError(payload), { error, path: "payload_errors" });
 * ```
 */
export function adcpErrorResult(
  error: unknown,
  options: AdcpErrorResultOptions = {},
): AdcpErrorToolResult {
  const checked = checkOptions(options, "build the error result");
  let summary = options.summary === undefined
    ? undefined
    : checkSummary("options.summary", options.summary, checked.action);
  const adcpError = preparedError(error, options);
  const payload = payloadLayer(options.payload, adcpError, options, checked);
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
