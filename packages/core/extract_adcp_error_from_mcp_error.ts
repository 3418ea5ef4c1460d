import { jsonRpcErrorCandidate } from "./_jsonrpc.ts";
import { type AdcpError, validateAdcpError } from "./validate_adcp_error.ts";

/**
 * Extracts the AdCP structured error from a JSON-RPC transport-level error, the path
 * infrastructure uses when it rejects a request before tool dispatch (Transport Error Mapping,
 * "MCP Binding" > "Transport-Level Errors", and "Client Detection Order" step 4,
 * `error.data.adcp_error`). Accepts:
 *
 * - a JSON-RPC response `{ jsonrpc, id, error: { code, message, data } }`: when it has an own
 *   `error` key, only that `error` object is read, and a non-object `error` gives `null`;
 * - a bare JSON-RPC error object `{ code, message, data }`;
 * - an SDK error such as the MCP SDK's `McpError`, whose `code` and `data` are own properties.
 *
 * The `adcp_error` of the own `data` object goes through {@linkcode validateAdcpError}. The
 * JSON-RPC `code` (`-32029`, `-32028`, `-32027` or any other) is not checked: `adcp_error` is the
 * authoritative signal, and a reserved code without it gives `null`.
 *
 * @param error A JSON-RPC response, a JSON-RPC error object, or a caught SDK error; any value.
 * @returns The validated `adcp_error` object itself, or `null`.
 *
 * @example From a JSON-RPC response and from a caught error
 * ```ts
 * import { extractAdcpErrorFromMcpError } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const data = { adcp_error: { code: "RATE_LIMITED", retry_after: 5, recovery: "transient" } };
 * const response = { jsonrpc: "2.0", id: 1, error: { code: -32029, message: "Slow down", data } };
 * strictEqual(extractAdcpErrorFromMcpError(response), data.adcp_error);
 *
 * class McpError extends Error {
 *   constructor(readonly code: number, message: string, readonly data?: unknown) {
 *     super(message);
 *   }
 * }
 * const caught = new McpError(-32029, "Slow down", data);
 * deepStrictEqual(extractAdcpErrorFromMcpError(caught), data.adcp_error);
 * strictEqual(extractAdcpErrorFromMcpError({ code: -32029, message: "Slow down" }), null);
 * ```
 */
export function extractAdcpErrorFromMcpError(error: unknown): AdcpError | null {
  const candidate = jsonRpcErrorCandidate(error, true);
  return candidate === undefined ? null : validateAdcpError(candidate.value);
}
