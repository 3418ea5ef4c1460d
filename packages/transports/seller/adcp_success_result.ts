import { warnResponseSize } from "./_outgoing.ts";
import { checkSummary } from "./_summary.ts";
import type { McpTextContent } from "./adcp_error_result.ts";
import type { OutgoingErrorWarning } from "./check_outgoing_adcp_error.ts";
import { checkSellerOptionKeys } from "./_option_keys.ts";
import { isJsonObject as isObject, notShown, optionError, optionKeys } from "@adcp-wire/internal";

/** What the helper does, for its option errors. */
const ACTION = "build the success result";

/**
 * An MCP `CallToolResult` carrying an AdCP success payload, as {@link adcpSuccessResult} builds
 * it.
 */
export type AdcpSuccessToolResult = {
  /** Empty, or the one terse summary. */
  content: McpTextContent[];
  /** The AdCP response payload, task fields at the top level. */
  structuredContent: Record<string, unknown>;
};

/** Options of {@link adcpSuccessResult}. */
export interface AdcpSuccessResultOptions {
  /**
   * Called with a `response_size` warning when the serialized tool result is over
   * {@link MCP_RESPONSE_SIZE_TARGET_BYTES} (128 KiB), for the seller's logs.
   * @default {undefined}
   */
  readonly onWarning?: ((warning: OutgoingErrorWarning) => void) | undefined;
}

/** The keys of {@link AdcpSuccessResultOptions}. */
const OPTION_KEYS = optionKeys<AdcpSuccessResultOptions>({ onWarning: true });

/**
 * Builds the MCP tool result for an AdCP success response: the payload in `structuredContent` and,
 * in `content`, at most one terse summary, never a second copy of the payload. A result over
 * {@link MCP_RESPONSE_SIZE_TARGET_BYTES} is sent with a `response_size` warning; what is refused is
 * listed in `docs/outgoing-errors.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Extraction Paths, structuredContent (Preferred).
 *
 * @param data The AdCP response payload: a plain object without an `adcp_error` key.
 * @param summary An optional one-sentence summary ("Found 3 products matching your brief.").
 * @param options A warning callback.
 * @returns The tool result, ready to return from an MCP tool handler.
 * @throws {TypeError} When `data`, `summary` or `options` is refused (an unknown option key is
 * named with the nearest known one), or `data` does not serialize as JSON (a `BigInt`, a cycle).
 * @throws {RangeError} When `summary` is over 256 UTF-8 bytes.
 *
 * @example A success with a summary
 * ```ts
 * import { adcpSuccessResult } from "@adcp-wire/transports/seller";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const data = { status: "completed", products: [{ product_id: "ctv_sports_premium" }] };
 * deepStrictEqual(adcpSuccessResult(data, "Found 1 product."), {
 *   content: [{ type: "text", text: "Found 1 product." }],
 *   structuredContent: data,
 * });
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
  checkSellerOptionKeys(ACTION, options, OPTION_KEYS);
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
