import { jsonRpcErrorCandidate } from "./_jsonrpc.ts";
import { type ExtractedAdcpError, validateAdcpError } from "./validate_adcp_error.ts";

/**
 * Extracts the AdCP structured error from a JSON-RPC transport-level error: a JSON-RPC response
 * (only its own `error` is read), a bare JSON-RPC error object, or an SDK error such as the MCP
 * SDK's `McpError`; its `data.adcp_error` goes through {@link validateAdcpError}, whatever the
 * JSON-RPC `code`.
 *
 * Transport Error Mapping, "Client Detection Order" step 4 and "Transport-Level Errors" (readings:
 * [docs/core.md](../../docs/core.md#json-rpc-errors)).
 *
 * @param error A JSON-RPC response, a JSON-RPC error object, or a caught SDK error; any value.
 * @returns The validated `adcp_error` object itself, or `null`.
 *
 * @example From a JSON-RPC response and from a caught error
 * ```ts
 * import { extractAdcpErrorFromJsonRpcError } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const data = { adcp_error: { code: "RATE_LIMITED", retry_after: 5, recovery: "transient" } };
 * const response = { jsonrpc: "2.0", id: 1, error: { code: -32029, message: "Slow down", data } };
 * strictEqual(extractAdcpErrorFromJsonRpcError(response), data.adcp_error);
 *
 * class McpError extends Error {
 *   constructor(readonly code: number, message: string, readonly data?: unknown) {
 *     super(message);
 *   }
 * }
 * const caught = new McpError(-32029, "Slow down", data);
 * deepStrictEqual(extractAdcpErrorFromJsonRpcError(caught), data.adcp_error);
 * strictEqual(extractAdcpErrorFromJsonRpcError({ code: -32029, message: "Slow down" }), null);
 * ```
 */
export function extractAdcpErrorFromJsonRpcError(error: unknown): ExtractedAdcpError | null {
  const candidate = jsonRpcErrorCandidate(error, true);
  return candidate === undefined ? null : validateAdcpError(candidate.value);
}
