/**
 * Extraction of AdCP responses and structured errors from MCP and A2A transport envelopes, the
 * reference implementation of three AdCP pages: MCP Response Extraction, A2A Response Extraction
 * and Transport Error Mapping.
 *
 * - Success data: {@link extractAdcpResponseFromMcp}, {@link extractAdcpResponseFromA2A}.
 * - Structured errors: {@link extractAdcpErrorFromMcp}, {@link extractAdcpErrorFromJsonRpcError},
 *   {@link extractAdcpErrorFromA2A}, all checked by {@link validateAdcpError}; the full client
 *   detection order in {@link detectAdcpError}.
 * - Both composed into one discriminated outcome: {@link handleMcpResponse},
 *   {@link handleA2AResponse}.
 * - A2A building blocks: {@link unwrapA2AStreamEnvelope}, {@link isA2AStreamEnvelope},
 *   {@link normalizeA2ATaskState}, {@link knownA2ATaskState}, {@link isFinalA2ATaskState},
 *   {@link isInterruptedA2ATaskState}.
 *
 * Every extractor takes any JSON value (or `undefined`), reads only own properties, returns the
 * very object it found without copying or modifying it, and throws nothing on its input except
 * the {@link AnyCoreError} errors of {@link extractAdcpResponseFromA2A} (and of the functions built
 * on it). Everything returned is seller-controlled: validate it against the task schema and never
 * merge it into application state without filtering keys such as `__proto__`.
 *
 * Safety limits, on by default: MCP `content[].text` items over 4 MiB (4,194,304 UTF-8 bytes,
 * configurable with `maxResponseBytes`) are skipped before `JSON.parse`; an `adcp_error` whose
 * `code` is empty or over 64 characters, or whose JSON is over 4096 UTF-8 bytes, is discarded.
 *
 * @example Handling an MCP tool result
 * ```ts
 * import { handleMcpResponse } from "@adcp-wire/core";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const result = {
 *   isError: true,
 *   content: [{ type: "text", text: "Budget too low." }],
 *   structuredContent: { adcp_error: { code: "BUDGET_TOO_LOW", recovery: "correctable" } },
 * };
 * const outcome = handleMcpResponse(result);
 * deepStrictEqual(outcome, {
 *   kind: "error",
 *   error: { code: "BUDGET_TOO_LOW", recovery: "correctable" },
 *   path: "structured_content",
 * });
 * ```
 *
 * @module
 */
export * from "./a2a_task_state.ts";
export * from "./detect_adcp_error.ts";
export * from "./errors.ts";
export * from "./external_types.ts";
export * from "./extract_adcp_error_from_a2a.ts";
export * from "./extract_adcp_error_from_jsonrpc_error.ts";
export * from "./extract_adcp_error_from_mcp.ts";
export * from "./extract_adcp_response_from_a2a.ts";
export * from "./extract_adcp_response_from_mcp.ts";
export * from "./extract_adcp_response_from_webhook.ts";
export * from "./handle_a2a_response.ts";
export * from "./handle_mcp_response.ts";
export * from "./json_serialized_bound.ts";
export * from "./unwrap_a2a_stream_envelope.ts";
export * from "./validate_adcp_error.ts";
