import {
  isJsonObject,
  type JsonRecord,
  own,
  ownArray,
  ownElement,
  ownObject,
} from "@adcp-wire/internal";
import { a2aErrorCandidate } from "./_a2a.ts";
import { checkAdcpError } from "./_adcp_error.ts";
import { jsonRpcErrorCandidate } from "./_jsonrpc.ts";
import {
  findMcpSuccess,
  resolveMaxResponseBytes,
  sourceBytesOf,
  structuredErrorCandidate,
  textErrorCandidate,
} from "./_mcp.ts";
import { extractAdcpResponseFromA2A } from "./extract_adcp_response_from_a2a.ts";
import type { McpExtractOptions } from "./extract_adcp_response_from_mcp.ts";
import { unwrapA2AStreamEnvelope } from "./unwrap_a2a_stream_envelope.ts";
import type { ExtractedAdcpError } from "./validate_adcp_error.ts";

/**
 * Where {@link detectAdcpError} found the error, one value per step of Transport Error
 * Mapping, "Client Detection Order":
 *
 * 1. `"structured_content"`: MCP `structuredContent.adcp_error`, with a truthy `isError`;
 * 2. `"artifact"`: A2A `artifacts[].parts[].data.adcp_error`;
 * 3. `"status_message"`: A2A `status.message.parts[].data.adcp_error`;
 * 4. `"jsonrpc_error"`: JSON-RPC `error.data.adcp_error`;
 * 5. `"text_fallback"`: MCP `content[].text` JSON with an `adcp_error` key, with a truthy
 *    `isError`;
 * 6. `"payload_errors"`: the payload layer, `payload.errors[0]` or top-level `errors[0]`.
 */
export type DetectionPath =
  | "structured_content"
  | "artifact"
  | "status_message"
  | "jsonrpc_error"
  | "text_fallback"
  | "payload_errors";

/** A structured error found by {@link detectAdcpError}, and where it was found. */
export interface AdcpErrorDetection {
  /** The validated error: the seller's object itself, unmodified. */
  readonly error: ExtractedAdcpError;
  /** The detection step that found it. */
  readonly path: DetectionPath;
}

interface Candidate {
  readonly value: unknown;
  readonly path: DetectionPath;
  /** Bound of the UTF-8 size of the JSON text `value` came from (MCP paths); else unknown. */
  readonly sourceBytes?: number;
}

/**
 * Runs the full client detection order on a response of any transport (an MCP tool result, an A2A
 * task or stream envelope, a JSON-RPC response, a bare AdCP task response), from the transport
 * envelope's `adcp_error` down to the payload's `errors[0]`; the first location that carries an
 * error decides, valid or not. Check `path`: payload warnings are found on successful responses.
 *
 * Transport Error Mapping, "Client Detection Order" (readings:
 * [docs/core.md](../../docs/core.md#client-detection-order)).
 *
 * @param response A response of any transport: any JSON value, or `undefined`.
 * @param options Size limit for the MCP text items parsed in steps 5 and 6.
 * @returns The error and its path, or `null` when there is no valid structured error.
 * @throws {TypeError} When `options` is neither an object nor `undefined`, has a key that
 * {@link McpExtractOptions} does not name, or `options.maxResponseBytes` or
 * `options.sourceTextBytes` is not a number.
 * @throws {RangeError} When `options.maxResponseBytes` is not a positive safe integer, or
 * `options.sourceTextBytes` not a non-negative safe integer.
 *
 * @example One function for every transport
 * ```ts
 * import { detectAdcpError } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const adcp_error = { code: "RATE_LIMITED", recovery: "transient" };
 * const mcp = { isError: true, content: [], structuredContent: { adcp_error } };
 * deepStrictEqual(detectAdcpError(mcp), { error: adcp_error, path: "structured_content" });
 *
 * const jsonRpc = {
 *   jsonrpc: "2.0",
 *   id: 7,
 *   error: { code: -32029, message: "", data: { adcp_error } },
 * };
 * strictEqual(detectAdcpError(jsonRpc)?.path, "jsonrpc_error");
 *
 * const warning = { code: "APPROVAL_REQUIRED", severity: "warning" };
 * const a2a = {
 *   status: {
 *     state: "input-required",
 *     message: { parts: [{ data: { status: "input-required", errors: [warning] } }] },
 *   },
 * };
 * deepStrictEqual(detectAdcpError(a2a), { error: warning, path: "payload_errors" });
 * strictEqual(detectAdcpError({ isError: true, content: [{ type: "text", text: "Oops" }] }), null);
 * ```
 */
export function detectAdcpError(
  response: unknown,
  options?: McpExtractOptions,
): AdcpErrorDetection | null {
  const maxBytes = resolveMaxResponseBytes(options);
  if (!isJsonObject(response)) return null;
  // One JSON-RPC envelope at most: a `result` that is itself an envelope is not unwrapped again.
  return detectIn(jsonRpcResultOf(response) ?? response, maxBytes, sourceBytesOf(options));
}

function detectIn(
  response: JsonRecord,
  maxBytes: number,
  sourceBytes: number,
): AdcpErrorDetection | null {
  const task = unwrapA2AStreamEnvelope(response);
  const candidate: Candidate | undefined = structuredErrorCandidate(response, sourceBytes) ??
    (isJsonObject(task) ? a2aErrorCandidate(task) : undefined) ??
    jsonRpcCandidate(response) ??
    textErrorCandidate(response, maxBytes) ??
    payloadErrorCandidate(response, maxBytes);
  if (candidate === undefined) return null;
  const error = checkAdcpError(candidate.value, candidate.sourceBytes ?? Infinity);
  return error === null ? null : { error: error as ExtractedAdcpError, path: candidate.path };
}

/**
 * The `result` of a JSON-RPC 2.0 success response (own `jsonrpc: "2.0"`, an object `result`, no
 * own `error`), or `undefined`: the MCP tool result or A2A task that the transport carried.
 */
function jsonRpcResultOf(response: JsonRecord): JsonRecord | undefined {
  if (own(response, "jsonrpc") !== "2.0" || Object.hasOwn(response, "error")) return undefined;
  return ownObject(response, "result");
}

function jsonRpcCandidate(response: JsonRecord): Candidate | undefined {
  const found = jsonRpcErrorCandidate(response, false);
  return found === undefined ? undefined : { value: found.value, path: "jsonrpc_error" };
}

function payloadErrorCandidate(response: JsonRecord, maxBytes: number): Candidate | undefined {
  for (const payload of payloadsOf(response, maxBytes)) {
    const errors = payloadErrorsOf(payload);
    if (errors !== undefined) return { value: ownElement(errors, 0), path: "payload_errors" };
  }
  return undefined;
}

/** The AdCP task responses a transport response may carry, in detection order. */
function* payloadsOf(response: JsonRecord, maxBytes: number): Generator<JsonRecord, void> {
  yield response;
  const mcp = findMcpSuccess(response, maxBytes).data;
  if (mcp !== null && mcp !== response) yield mcp;
  let a2a: JsonRecord | null;
  try {
    a2a = extractAdcpResponseFromA2A(response);
  } catch {
    a2a = null; // WrapperDetectedError: a malformed payload carries no payload errors
  }
  if (a2a !== null) yield a2a;
}

/** `payload.errors`, else top-level `errors`: the first one that is a non-empty array. */
function payloadErrorsOf(payload: JsonRecord): readonly unknown[] | undefined {
  const nested = ownObject(payload, "payload");
  const nestedErrors = nested === undefined ? undefined : ownArray(nested, "errors");
  if (nestedErrors !== undefined && nestedErrors.length > 0) return nestedErrors;
  const errors = ownArray(payload, "errors");
  return errors !== undefined && errors.length > 0 ? errors : undefined;
}
