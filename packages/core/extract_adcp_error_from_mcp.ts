import { isJsonObject } from "@adcp-wire/internal";
import { resolveMaxResponseBytes, structuredErrorCandidate, textErrorCandidate } from "./_mcp.ts";
import type { McpExtractOptions } from "./extract_adcp_response_from_mcp.ts";
import { type ExtractedAdcpError, validateAdcpError } from "./validate_adcp_error.ts";

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
 * @param options Text-fallback size limit.
 * @returns The validated `adcp_error` object itself, or `null`.
 * @throws {TypeError} When `options` is neither an object nor `undefined`, or
 * `options.maxResponseBytes` is not a number.
 * @throws {RangeError} When `options.maxResponseBytes` is not a positive safe integer.
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
  const maxBytes = resolveMaxResponseBytes(options);
  if (!isJsonObject(result)) return null;
  const candidate = structuredErrorCandidate(result) ?? textErrorCandidate(result, maxBytes);
  return candidate === undefined ? null : validateAdcpError(candidate.value);
}
