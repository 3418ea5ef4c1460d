import { isJsonObject } from "./_json.ts";
import { findMcpSuccess, isErrorResult, resolveMaxResponseBytes } from "./_mcp.ts";

/**
 * Options for the MCP extractors that read `content[].text`.
 *
 * @example A per-call limit
 * ```ts
 * import { extractAdcpResponseFromMcp, type McpExtractOptions } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * const options: McpExtractOptions = { maxResponseBytes: 16 };
 * const result = { content: [{ type: "text", text: '{"status":"completed"}' }] }; // 22 bytes
 * strictEqual(extractAdcpResponseFromMcp(result, options), null);
 * ```
 */
export interface McpExtractOptions {
  /**
   * Largest `content[].text` item, in UTF-8 bytes, that text fallback passes to `JSON.parse`.
   * Larger items are skipped, never truncated. Must be a positive safe integer.
   *
   * MCP Response Extraction, "Security Considerations" > "Size Limits": the text item is checked
   * before the inner `JSON.parse` against the same limit as the whole MCP message (4 MiB
   * recommended, configurable per agent and per call), not a tighter one; the older 1 MB figure
   * of the previous revision of the page is superseded.
   *
   * @default {4194304}
   */
  readonly maxResponseBytes?: number | undefined;
}

/**
 * Extracts AdCP success data from an MCP tool result (`CallToolResult`), following MCP Response
 * Extraction, "Extraction Algorithm":
 *
 * 1. A truthy `isError` (any truthy JSON value: `true`, `1`, `"yes"`, even `"false"`) gives `null`:
 *    errors go through {@linkcode extractAdcpErrorFromMcp}.
 * 2. An own `structuredContent` that is a non-array object is returned, unless its only key is
 *    `adcp_error` (an error missing its `isError` flag), which gives `null` without reading text.
 * 3. Otherwise each `content[]` item with `type: "text"` and a non-empty string `text` is, in
 *    order, measured in UTF-8 bytes against `maxResponseBytes` (over-limit items are skipped, not
 *    truncated) and `JSON.parse`d; the first non-array object whose only key is not `adcp_error`
 *    is returned.
 * 4. Otherwise `null`: plain text with no machine-readable AdCP data.
 *
 * Only own properties count (an inherited `structuredContent` is absent). The result is the very
 * object found in `result` or produced by `JSON.parse`, neither copied nor modified: own
 * `__proto__` or `constructor` keys are kept as data, so never merge it into application state
 * without filtering keys ("Security Considerations" > "Prototype Pollution"). Pass the tool result
 * itself (`response.result` of a JSON-RPC response), not the JSON-RPC envelope.
 *
 * @param result The MCP tool result: any JSON value, or `undefined`.
 * @param options Text-fallback size limit.
 * @returns The AdCP response object, or `null` when there is none.
 * @throws {TypeError} When `options` is neither an object nor `undefined`.
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
