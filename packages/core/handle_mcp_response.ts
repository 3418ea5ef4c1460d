import { isJsonObject } from "./_json.ts";
import {
  findMcpSuccess,
  isErrorResult,
  mcpText,
  resolveMaxResponseBytes,
  structuredErrorCandidate,
  textErrorCandidate,
} from "./_mcp.ts";
import type { McpExtractOptions } from "./extract_adcp_response_from_mcp.ts";
import { type AdcpError, validateAdcpError } from "./validate_adcp_error.ts";

/**
 * What an MCP tool result means, as {@linkcode handleMcpResponse} classifies it:
 *
 * - `"error"`: a valid AdCP structured error, and the detection path that found it;
 * - `"success"`: AdCP response data;
 * - `"generic_error"`: an error without a valid structured error (Transport Error Mapping,
 *   "Client Detection Order" step 7, "fall back to generic error handling"), with the result's
 *   text for display;
 * - `"text"`: a plain-text success response with no machine-readable AdCP data.
 *
 * `text` is the `text` of every `content[]` item with `type: "text"` and a non-empty string
 * `text`, joined with `"\n"` (`""` when there is none). It is seller-controlled.
 *
 * @example An exhaustive switch
 * ```ts
 * import { handleMcpResponse, type McpResponseOutcome } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * function describe(outcome: McpResponseOutcome): string {
 *   switch (outcome.kind) {
 *     case "error":
 *       return `error ${outcome.error.code}`;
 *     case "success":
 *       return "success";
 *     case "generic_error":
 *       return `generic error: ${outcome.text}`;
 *     case "text":
 *       return `text: ${outcome.text}`;
 *   }
 * }
 * strictEqual(describe(handleMcpResponse({ content: [{ type: "text", text: "Hi" }] })), "text: Hi");
 * ```
 */
export type McpResponseOutcome =
  | {
    readonly kind: "error";
    readonly error: AdcpError;
    readonly path: "structured_content" | "text_fallback";
  }
  | { readonly kind: "success"; readonly data: Record<string, unknown> }
  | { readonly kind: "generic_error"; readonly text: string }
  | { readonly kind: "text"; readonly text: string };

/**
 * Classifies an MCP tool result, composing error and success extraction as MCP Response
 * Extraction, "Relationship to Error Extraction" does:
 *
 * 1. {@linkcode extractAdcpErrorFromMcp} (only for a truthy `isError`): a valid error gives
 *    `"error"`.
 * 2. A truthy `isError` without a valid structured error gives `"generic_error"`: such a response
 *    MUST NOT be processed as success ("Layer Separation"), nor as plain successful text.
 * 3. {@linkcode extractAdcpResponseFromMcp}: data gives `"success"`.
 * 4. Otherwise `"text"`, except when `structuredContent` or a text item held only an
 *    `adcp_error` (an error response missing its `isError` flag, "Extraction Algorithm" steps 2
 *    and 3): that is `"generic_error"`, so an unflagged error is never shown as successful text.
 *
 * A value that is not an object is not a tool result: `"generic_error"` with empty text.
 *
 * @param result The MCP tool result: any JSON value, or `undefined`.
 * @param options Text-fallback size limit, for both extractors.
 * @returns The classified outcome; never throws on `result`.
 * @throws {TypeError} When `options` is neither an object nor `undefined`.
 * @throws {RangeError} When `options.maxResponseBytes` is not a positive safe integer.
 *
 * @example Dispatching on the outcome
 * ```ts
 * import { handleMcpResponse } from "@adcp-wire/core";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const text = (t: string) => ({ type: "text", text: t });
 * deepStrictEqual(
 *   handleMcpResponse({ isError: true, content: [text('{"adcp_error":{"code":"RATE_LIMITED"}}')] }),
 *   { kind: "error", error: { code: "RATE_LIMITED" }, path: "text_fallback" },
 * );
 * deepStrictEqual(
 *   handleMcpResponse({ isError: true, content: [text("Internal error")] }),
 *   { kind: "generic_error", text: "Internal error" },
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
  if (!isJsonObject(result)) return { kind: "generic_error", text: "" };
  const candidate = structuredErrorCandidate(result) ?? textErrorCandidate(result, maxBytes);
  if (candidate !== undefined) {
    const error = validateAdcpError(candidate.value);
    if (error !== null) return { kind: "error", error, path: candidate.path };
  }
  if (isErrorResult(result)) return { kind: "generic_error", text: mcpText(result) };
  const success = findMcpSuccess(result, maxBytes);
  if (success.data !== null) return { kind: "success", data: success.data };
  const text = mcpText(result);
  return success.sawAdcpErrorOnly ? { kind: "generic_error", text } : { kind: "text", text };
}
