/**
 * What a seller agent sends: MCP tool results ({@link adcpSuccessResult},
 * {@link adcpErrorResult}), JSON-RPC errors with the reserved AdCP codes
 * ({@link adcpJsonRpcError}), failed A2A tasks ({@link adcpFailedTask}), errors translated from
 * upstream services ({@link translateUpstreamError}) or passed through by an intermediary
 * ({@link forwardAdcpError}), all checked by {@link checkOutgoingAdcpError} before they leave
 * (Transport Error Mapping, Server Requirements), and the AdCP A2A profile's answers
 * ({@link adcpProfileTaskResponse}, {@link adcpProfileInputRequired}). The leak rules are in
 * `docs/outgoing-errors.md`.
 *
 * @example A rate-limited tool call, as an MCP error result
 * ```ts
 * import { adcpErrorResult } from "@adcp-wire/transports/seller";
 * import { strictEqual } from "node:assert/strict";
 *
 * const result = adcpErrorResult({
 *   code: "RATE_LIMITED",
 *   message: "Too many requests",
 *   recovery: "transient",
 *   retry_after: 5,
 * });
 * strictEqual(result.isError, true);
 * strictEqual(result.structuredContent.adcp_error.code, "RATE_LIMITED");
 * ```
 *
 * @module
 */

export * from "./adcp_error_result.ts";
export * from "./adcp_failed_task.ts";
export * from "./adcp_jsonrpc_error.ts";
export * from "./adcp_profile_input_required.ts";
export * from "./adcp_profile_response.ts";
export * from "./adcp_success_result.ts";
export * from "./check_outgoing_adcp_error.ts";
export * from "./forward_adcp_error.ts";
export * from "./translate_upstream_error.ts";
// Named by the public API (what the helpers build and return), re-exported so that these docs are
// complete on their own.
export type { AdcpErrorFieldName, ExtractedAdcpError } from "@adcp-wire/core";
