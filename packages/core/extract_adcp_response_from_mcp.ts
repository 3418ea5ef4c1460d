import { isJsonObject } from "@adcp-wire/internal";
import { findMcpSuccess, isErrorResult, resolveMaxResponseBytes } from "./_mcp.ts";
import type { McpExtractOptions } from "./_mcp.ts";
export type { McpExtractOptions };

/**
 * Extracts AdCP success data from an MCP tool result (`CallToolResult`) whose `isError` is not
 * truthy: `structuredContent`, else the first `content[].text` item (at most `maxResponseBytes`)
 * that parses to an object; an object holding only `adcp_error` is never success data. The result
 * is the very object found, seller-controlled: pass the tool result, not the JSON-RPC envelope.
 *
 * MCP Response Extraction, "Extraction Algorithm" (readings:
 * [docs/core.md](../../docs/core.md#mcp-response-extraction)).
 *
 * @param result The MCP tool result: any JSON value, or `undefined`.
 * @param options Text-fallback size limit.
 * @returns The AdCP response object, or `null` when there is none.
 * @throws {TypeError} When `options` is neither an object nor `undefined`, or
 * `options.maxResponseBytes` is not a number.
 * @throws {RangeError} When `options.maxResponseBytes` is not a positive safe integer.
 *
 * @example Preferring structuredContent, then text fallback
 * ```ts
 * import { extractAdcpResponseFromMcp } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const structuredContent = { status: "completed", products: [] };
 * const result = { content: [{ type: "text", text: "Found 0 products" }], structuredContent };
 * strictEqual(extractAdcpResponseFromMcp(result), structuredContent);
 *
 * const legacy = { content: [{ type: "text", text: '{"status":"completed"}' }] };
 * deepStrictEqual(extractAdcpResponseFromMcp(legacy), { status: "completed" });
 *
 * strictEqual(extractAdcpResponseFromMcp({ ...result, isError: true }), null);
 * strictEqual(extractAdcpResponseFromMcp(legacy, { maxResponseBytes: 8 }), null); // 22 bytes
 * ```
 */
export function extractAdcpResponseFromMcp(
  result: unknown,
  options?: McpExtractOptions,
): Record<string, unknown> | null {
  const maxBytes = resolveMaxResponseBytes(options);
  if (!isJsonObject(result) || isErrorResult(result)) return null;
  return findMcpSuccess(result, maxBytes).data;
}
