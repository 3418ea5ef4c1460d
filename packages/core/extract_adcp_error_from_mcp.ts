import type { JsonRecord } from "@adcp-wire/internal";
import { checkAdcpError } from "./_adcp_error.ts";
import { isOwnValue } from "./_json.ts";
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  resolveMaxResponseBytes,
  sourceBytesOf,
  textErrorOf,
} from "./_mcp.ts";
import type { McpExtractOptions } from "./extract_adcp_response_from_mcp.ts";
import type { ExtractedAdcpError } from "./validate_adcp_error.ts";

/**
 * Extracts the AdCP structured error from an MCP tool result (`CallToolResult`) whose `isError` is
 * truthy: `structuredContent.adcp_error`, else the first `content[].text` item (at most
 * `maxResponseBytes`) that parses to an object carrying one; the first location carrying an
 * `adcp_error` decides, through {@link validateAdcpError}.
 *
 * Transport Error Mapping, "Client Detection Order" steps 1 and 5 (readings:
 * [docs/core.md](../../docs/core.md#mcp-errors)).
 *
 * @param result The MCP tool result: any JSON value, or `undefined`.
 * @param options Text-fallback size limit (and what the caller already bounded).
 * @returns The validated `adcp_error` object itself, or `null`.
 * @throws {TypeError} When `options` is neither an object nor `undefined`, has a key that
 * {@link McpExtractOptions} does not name, or `options.maxResponseBytes` or
 * `options.sourceTextBytes` is not a number.
 * @throws {RangeError} When `options.maxResponseBytes` is not a positive safe integer, or
 * `options.sourceTextBytes` not a non-negative safe integer.
 *
 * @example Structured content and text fallback
 * ```ts
 * import { extractAdcpErrorFromMcp } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const adcpError = { code: "RATE_LIMITED", retry_after: 5, recovery: "transient" };
 * const result = {
 *   isError: true,
 *   content: [{ type: "text", text: "Rate limited — retry in 5s." }],
 *   structuredContent: { adcp_error: adcpError },
 * };
 * strictEqual(extractAdcpErrorFromMcp(result), adcpError);
 *
 * const legacy = {
 *   isError: true,
 *   content: [{ type: "text", text: '{"adcp_error":{"code":"X"}}' }],
 * };
 * deepStrictEqual(extractAdcpErrorFromMcp(legacy), { code: "X" });
 * strictEqual(extractAdcpErrorFromMcp({ ...legacy, isError: false }), null);
 * ```
 */
export function extractAdcpErrorFromMcp(
  result: unknown,
  options?: McpExtractOptions,
): ExtractedAdcpError | null {
  const maxBytes = options === undefined
    ? DEFAULT_MAX_RESPONSE_BYTES
    : resolveMaxResponseBytes(options);
  // `isErrorResult` and `structuredErrorOf` of _mcp.ts, written out as in
  // `extractAdcpResponseFromMcp`: an array gives `null` on every path.
  if (typeof result !== "object" || result === null) return null;
  const record = result as JsonRecord;
  if (!record.isError || Array.isArray(record)) return null;
  if (!isOwnValue(record, "isError", PROTO.isError)) return null;
  const structured = record.structuredContent;
  if (typeof structured === "object" && structured !== null && !Array.isArray(structured)) {
    const value = (structured as JsonRecord).adcp_error;
    if (
      value && isOwnValue(structured, "adcp_error", PROTO.adcp_error) &&
      isOwnValue(record, "structuredContent", PROTO.structuredContent)
    ) {
      return checkAdcpError(value, sourceBytesOf(options)) as ExtractedAdcpError | null; // step 1
    }
  }
  const candidate = textErrorOf(record, maxBytes); // step 5
  if (candidate === undefined) return null;
  return checkAdcpError(candidate.value, candidate.sourceBytes) as ExtractedAdcpError | null;
}

/** `Object.prototype`, read at the call sites of `isOwnValue` (see _json.ts). */
const PROTO: Readonly<Record<string, unknown>> = Object.prototype as Record<string, unknown>;
