import type { JsonRecord } from "@adcp-wire/internal";
import { isOwnValue, onlyKeyIs } from "./_json.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, findMcpTextData, resolveMaxResponseBytes } from "./_mcp.ts";
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
 * @param options Text-fallback size limit (and what the caller already bounded).
 * @returns The AdCP response object, or `null` when there is none.
 * @throws {TypeError} When `options` is neither an object nor `undefined`, has a key that
 * {@link McpExtractOptions} does not name, or `options.maxResponseBytes` or
 * `options.sourceTextBytes` is not a number.
 * @throws {RangeError} When `options.maxResponseBytes` is not a positive safe integer, or
 * `options.sourceTextBytes` not a non-negative safe integer.
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
  const maxBytes = options === undefined
    ? DEFAULT_MAX_RESPONSE_BYTES
    : resolveMaxResponseBytes(options);
  // `isErrorResult`, `structuredContentOf` and `isAdcpErrorOnly` of _mcp.ts and _json.ts, written
  // out: the structuredContent case takes a few nanoseconds, and every call or shared inline cache
  // shows (see _json.ts). Arrays are told apart after the reads, whose map checks let the compiler
  // answer `Array.isArray` for free; an array gives `null` on every path.
  if (typeof result !== "object" || result === null) return null;
  const record = result as JsonRecord;
  if (record.isError && isOwnValue(record, "isError", PROTO.isError)) return null; // step 1
  const structured = record.structuredContent;
  if (typeof structured === "object" && structured !== null) {
    // Step 2; `in` spares listing the keys of almost every payload.
    const errorOnly = "adcp_error" in structured;
    if (
      !Array.isArray(structured) && !Array.isArray(record) &&
      ((Object.getPrototypeOf(record) === PROTO && PROTO.structuredContent === undefined) ||
        isOwnValue(record, "structuredContent", PROTO.structuredContent))
    ) {
      const data = structured as JsonRecord;
      return errorOnly && onlyKeyIs(data, "adcp_error") ? null : data;
    }
  }
  return Array.isArray(record) ? null : findMcpTextData(record, maxBytes); // step 3
}

/** `Object.prototype`, read at the call sites of `isOwnValue` (see _json.ts). */
const PROTO: Readonly<Record<string, unknown>> = Object.prototype as Record<string, unknown>;
