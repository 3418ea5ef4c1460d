import { isJsonObject } from "@adcp-wire/internal";
import { a2aErrorCandidate } from "./_a2a.ts";
import { unwrapA2AStreamEnvelope } from "./unwrap_a2a_stream_envelope.ts";
import { type ExtractedAdcpError, validateAdcpError } from "./validate_adcp_error.ts";

/**
 * Extracts the AdCP structured error from an A2A response: after one stream envelope is unwrapped,
 * the first DataPart carrying an `adcp_error` in `artifacts[].parts[]`, then in
 * `status.message.parts[]`, in any task state, decides, through {@link validateAdcpError}.
 *
 * Transport Error Mapping, "Client Detection Order" steps 2 and 3 (readings:
 * [docs/core.md](../../docs/core.md#a2a-errors)).
 *
 * @param input An A2A response: any JSON value, or `undefined`.
 * @returns The validated `adcp_error` object itself, or `null`.
 *
 * @example A failed task in A2A 1.0 and v0.3 shapes
 * ```ts
 * import { extractAdcpErrorFromA2A } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * const adcpError = { code: "POLICY_VIOLATION", recovery: "correctable" };
 * const v1 = {
 *   task: {
 *     status: { state: "TASK_STATE_REJECTED" },
 *     artifacts: [{ parts: [{ text: "Rejected" }, { data: { adcp_error: adcpError } }] }],
 *   },
 * };
 * strictEqual(extractAdcpErrorFromA2A(v1), adcpError);
 *
 * const v03 = {
 *   status: {
 *     state: "failed",
 *     message: { parts: [{ kind: "data", data: { adcp_error: { code: 429 } } }] },
 *   },
 * };
 * strictEqual(extractAdcpErrorFromA2A(v03), null); // code must be a string
 * ```
 */
export function extractAdcpErrorFromA2A(input: unknown): ExtractedAdcpError | null {
  const task = unwrapA2AStreamEnvelope(input);
  if (!isJsonObject(task)) return null;
  const candidate = a2aErrorCandidate(task);
  return candidate === undefined ? null : validateAdcpError(candidate.value);
}
