import { isJsonObject } from "@adcp-wire/internal";
import { checkAdcpError } from "./_adcp_error.ts";
import {
  findMcpSuccess,
  isErrorResult,
  mcpText,
  resolveMaxResponseBytes,
  sourceBytesOf,
  structuredErrorCandidate,
  textErrorCandidate,
} from "./_mcp.ts";
import type { McpExtractOptions } from "./extract_adcp_response_from_mcp.ts";
import type { ExtractedAdcpError } from "./validate_adcp_error.ts";

/**
 * What an MCP tool result means, as {@link handleMcpResponse} classifies it:
 *
 * - `"error"`: a valid AdCP structured error, and the detection path that found it;
 * - `"success"`: AdCP response data;
 * - `"text"`: no machine-readable AdCP data, only text. When the response is an error without a
 *   valid structured error (a truthy `isError`; an `adcp_error`-only payload missing its flag;
 *   anything that is not a tool result), the outcome also carries `isError: true`: show the text,
 *   but fall back to generic error handling (Transport Error Mapping, "Client Detection Order"
 *   step 7) and never treat it as a successful answer.
 *
 * `text` is the `text` of every `content[]` item with `type: "text"` and a non-empty string
 * `text`, joined with `"\n"` (`""` when there is none). It is seller-controlled.
 */
export type McpResponseOutcome =
  | {
    readonly kind: "error";
    readonly error: ExtractedAdcpError;
    readonly path: "structured_content" | "text_fallback";
  }
  | { readonly kind: "success"; readonly data: Record<string, unknown> }
  | {
    readonly kind: "text";
    readonly text: string;
    /** Present (and `true`) only when the response is an error without a valid structured error. */
    readonly isError?: true;
  };

/**
 * Classifies an MCP tool result as a structured error, success data or text: a valid error first
 * (only with a truthy `isError`), then, without `isError`, the data
 * {@link extractAdcpResponseFromMcp} finds, then text, flagged `isError` for a truthy `isError`,
 * for an `adcp_error`-only payload missing its flag, and for anything that is not a tool result.
 *
 * MCP Response Extraction, "Relationship to Error Extraction" (readings:
 * [docs/core.md](../../docs/core.md#classifying-an-mcp-tool-result)).
 *
 * @param result The MCP tool result: any JSON value, or `undefined`.
 * @param options Text-fallback size limit, for both extractors (and what the caller already
 * bounded).
 * @returns The classified outcome; never throws on a JSON value `result` (objects with throwing
 * getters or revoked proxies are not JSON and may throw).
 * @throws {TypeError} When `options` is neither an object nor `undefined`, has a key that
 * {@link McpExtractOptions} does not name, or `options.maxResponseBytes` or
 * `options.sourceTextBytes` is not a number.
 * @throws {RangeError} When `options.maxResponseBytes` is not a positive safe integer, or
 * `options.sourceTextBytes` not a non-negative safe integer.
 *
 * @example Dispatching on the outcome
 * ```ts
 * import { handleMcpResponse } from "@adcp-wire/core";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const text = (t: string) => ({ type: "text", text: t });
 * deepStrictEqual(
 *   handleMcpResponse({
 *     isError: true,
 *     content: [text('{"adcp_error":{"code":"RATE_LIMITED"}}')],
 *   }),
 *   { kind: "error", error: { code: "RATE_LIMITED" }, path: "text_fallback" },
 * );
 * deepStrictEqual(
 *   handleMcpResponse({ isError: true, content: [text("Internal error")] }),
 *   { kind: "text", text: "Internal error", isError: true },
 * );
 * deepStrictEqual(
 *   handleMcpResponse({ content: [text("Done")], structuredContent: { status: "completed" } }),
 *   { kind: "success", data: { status: "completed" } },
 * );
 * deepStrictEqual(handleMcpResponse({ content: [text("Hi"), text("there")] }), {
 *   kind: "text",
 *   text: "Hi\nthere",
 * });
 * ```
 */
export function handleMcpResponse(
  result: unknown,
  options?: McpExtractOptions,
): McpResponseOutcome {
  const maxBytes = resolveMaxResponseBytes(options);
  if (!isJsonObject(result)) return { kind: "text", text: "", isError: true };
  const candidate = structuredErrorCandidate(result, sourceBytesOf(options)) ??
    textErrorCandidate(result, maxBytes);
  if (candidate !== undefined) {
    const error = checkAdcpError(candidate.value, candidate.sourceBytes) as
      | ExtractedAdcpError
      | null;
    if (error !== null) return { kind: "error", error, path: candidate.path };
  }
  if (isErrorResult(result)) return { kind: "text", text: mcpText(result), isError: true };
  const success = findMcpSuccess(result, maxBytes);
  if (success.data !== null) return { kind: "success", data: success.data };
  const text = mcpText(result);
  return success.sawAdcpErrorOnly ? { kind: "text", text, isError: true } : { kind: "text", text };
}
