import { warnResponseSize } from "./_outgoing.ts";
import { checkSummary } from "./_summary.ts";
import type { McpTextContent } from "./adcp_error_result.ts";
import type { OutgoingErrorWarning } from "./check_outgoing_adcp_error.ts";
import { notShown } from "../read/_not_shown.ts";
import { isJsonObject as isObject, optionError } from "@adcp-wire/internal";

/** What the helper does, for its option errors. */
const ACTION = "build the success result";

/**
 * An MCP `CallToolResult` carrying an AdCP success payload, as {@linkcode adcpSuccessResult} builds
 * it.
 *
 * @example A success without a summary
 * ```ts
 * import { adcpSuccessResult, type AdcpSuccessToolResult } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const data = { status: "completed", media_buy_id: "mb_789" };
 * const result: AdcpSuccessToolResult = adcpSuccessResult(data);
 * deepStrictEqual(result.content, []);
 * deepStrictEqual(result.structuredContent, { status: "completed", media_buy_id: "mb_789" });
 * ```
 */
export type AdcpSuccessToolResult = {
  /** Empty, or the one terse summary. */
  content: McpTextContent[];
  /** The AdCP response payload, task fields at the top level. */
  structuredContent: Record<string, unknown>;
};

/**
 * Options of {@linkcode adcpSuccessResult}.
 *
 * @example Logging the size warning
 * ```ts
 * import { adcpSuccessResult, type AdcpSuccessResultOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const logged: string[] = [];
 * const options: AdcpSuccessResultOptions = { onWarning: (warning) => logged.push(warning.kind) };
 * adcpSuccessResult({ status: "completed", report: "r".repeat(200_000) }, undefined, options);
 * deepStrictEqual(logged, ["response_size"]);
 * ```
 */
export interface AdcpSuccessResultOptions {
  /**
   * Called with a `response_size` warning when the serialized tool result is over
   * {@linkcode MCP_RESPONSE_SIZE_TARGET_BYTES} (128 KiB), for the seller's logs.
   * @default {undefined}
   */
  readonly onWarning?: ((warning: OutgoingErrorWarning) => void) | undefined;
}

/**
 * Builds the MCP tool result for an AdCP success response (MCP Response Extraction 3.3.0-beta.0,
 * "Extraction Paths" > "structuredContent (Preferred)"): the payload in `structuredContent`, and
 * in `content` at most one terse summary, never a second full copy ("Producers SHOULD NOT
 * serialize the complete AdCP payload again into `content[].text`").
 *
 * Refused: a payload that is not a plain JSON object, or that holds an `adcp_error` key (a buyer
 * would read an `adcp_error`-only payload as an error missing its `isError` flag, and a mixed one
 * is ambiguous: send errors with {@linkcode adcpErrorResult}); a summary that is not one line of
 * prose of at most 256 UTF-8 bytes (JSON text is refused as a second copy).
 *
 * Reported, not refused: a serialized result over {@linkcode MCP_RESPONSE_SIZE_TARGET_BYTES}
 * (128 KiB: producers "SHOULD target at most 128 KiB per serialized MCP response", Security
 * Considerations, "Size Limits"), with a `response_size` warning to `options.onWarning`; page the
 * read, or project fields, to stay under it.
 *
 * A server that must serve MCP clients older than 2025-03-26 (no `structuredContent`) needs the
 * text fallback form instead, the JSON in `content[0].text` and no `structuredContent`; this helper
 * does not build it.
 *
 * @param data The AdCP response payload.
 * @param summary An optional one-sentence summary ("Found 3 products matching your brief.").
 * @param options A warning callback.
 * @returns The tool result, ready to return from an MCP tool handler.
 * @throws {TypeError} When `data`, `summary` or `options` is refused, or `data` does not serialize
 * as JSON (a `BigInt`, a cycle).
 *
 * @example A success with a summary
 * ```ts
 * import { adcpSuccessResult } from "@adcp-wire/transports";
 * import { handleMcpResponse } from "@adcp-wire/core";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const data = { status: "completed", products: [{ product_id: "ctv_sports_premium" }] };
 * const result = adcpSuccessResult(data, "Found 1 product.");
 * deepStrictEqual(result, {
 *   content: [{ type: "text", text: "Found 1 product." }],
 *   structuredContent: data,
 * });
 * deepStrictEqual(handleMcpResponse(result), { kind: "success", data });
 * ```
 */
export function adcpSuccessResult(
  data: Record<string, unknown>,
  summary?: string,
  options: AdcpSuccessResultOptions = {},
): AdcpSuccessToolResult {
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, ACTION, "options", "an object", options);
  }
  const onWarning = options.onWarning;
  if (onWarning !== undefined && typeof onWarning !== "function") {
    throw optionError(TypeError, ACTION, "options.onWarning", "a function", onWarning);
  }
  if (
    !isObject(data) || (Object.getPrototypeOf(data) !== Object.prototype &&
      Object.getPrototypeOf(data) !== null)
  ) {
    throw optionError(TypeError, ACTION, "data", "a plain object", notShown(data));
  }
  if (Object.hasOwn(data, "adcp_error")) {
    throw optionError(
      TypeError,
      ACTION,
      "data",
      "a success payload, with no adcp_error key (send errors with adcpErrorResult)",
      data,
    );
  }
  const content: McpTextContent[] = summary === undefined
    ? []
    : [{ type: "text", text: checkSummary("summary", summary, ACTION) }];
  const result: AdcpSuccessToolResult = { content, structuredContent: data };
  warnResponseSize(result, onWarning, ACTION, "data", data);
  return result;
}
