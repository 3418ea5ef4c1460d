import { isJsonObject } from "./_json.ts";
import { resolveMaxResponseBytes, structuredErrorCandidate, textErrorCandidate } from "./_mcp.ts";
import type { McpExtractOptions } from "./extract_adcp_response_from_mcp.ts";
import { type AdcpError, validateAdcpError } from "./validate_adcp_error.ts";

/**
 * Extracts the AdCP structured error from an MCP tool result (`CallToolResult`), following the MCP
 * branch of Transport Error Mapping, "Client Detection Order":
 *
 * - Only when the result's own `isError` is truthy (any truthy JSON value: `true`, `1`, `"yes"`);
 *   otherwise `null`, even if the result carries an `adcp_error` ("Client Library Requirements"
 *   4: a successful response MUST NOT be interpreted as an error).
 * - Step 1: `structuredContent.adcp_error`.
 * - Step 5, text fallback, when `structuredContent` carries no `adcp_error`: the first
 *   `content[]` item with `type: "text"` whose `text`, at most `maxResponseBytes` UTF-8 bytes
 *   (checked before parsing, as for success extraction), JSON-parses to a non-array object with an
 *   `adcp_error` key.
 *
 * The first location that carries an own, truthy `adcp_error` decides: its value goes through
 * {@linkcode validateAdcpError}, and if that fails the result is `null` ("no structured error
 * found"), without trying later locations, as in the page's reference client. The error is
 * returned raw and unmodified (no schema validation, no clamping of `retry_after`).
 *
 * @param result The MCP tool result: any JSON value, or `undefined`.
 * @param options Text-fallback size limit.
 * @returns The validated `adcp_error` object itself, or `null`.
 * @throws {TypeError} When `options` is neither an object nor `undefined`.
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
 * const legacy = { isError: true, content: [{ type: "text", text: '{"adcp_error":{"code":"X"}}' }] };
 * deepStrictEqual(extractAdcpErrorFromMcp(legacy), { code: "X" });
 * strictEqual(extractAdcpErrorFromMcp({ ...legacy, isError: false }), null);
 * ```
 */
export function extractAdcpErrorFromMcp(
  result: unknown,
  options?: McpExtractOptions,
): AdcpError | null {
  const maxBytes = resolveMaxResponseBytes(options);
  if (!isJsonObject(result)) return null;
  const candidate = structuredErrorCandidate(result) ?? textErrorCandidate(result, maxBytes);
  return candidate === undefined ? null : validateAdcpError(candidate.value);
}
