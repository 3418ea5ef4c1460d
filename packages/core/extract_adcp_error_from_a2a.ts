import { a2aErrorCandidate, unwrapStreamEnvelope } from "./_a2a.ts";
import { isJsonObject } from "./_json.ts";
import { type AdcpError, validateAdcpError } from "./validate_adcp_error.ts";

/**
 * Extracts the AdCP structured error from an A2A response, following the A2A branch of Transport
 * Error Mapping, "Client Detection Order":
 *
 * - The input is unwrapped like {@linkcode extractAdcpResponseFromA2A} does (A2A Response
 *   Extraction, "Extraction Algorithm" step 0): one single-key `task` / `message` /
 *   `statusUpdate` / `artifactUpdate` envelope, exactly once; a nested envelope gives `null`.
 * - Step 2: every `artifacts[].parts[]` (all artifacts, in order), then step 3:
 *   `status.message.parts[]`. DataParts are detected by an own `data` that is a non-null,
 *   non-array object, with or without `kind: "data"` (A2A 1.0 parts have no `kind`; the page's
 *   reference client filters on `kind` and would miss them).
 * - The task state is not consulted: an `adcp_error` counts in any state.
 *
 * The first DataPart whose `data` carries an own, truthy `adcp_error` decides: that value goes
 * through {@linkcode validateAdcpError}, and if validation fails the result is `null` without
 * scanning further parts. This is the reference client's behaviour, and the safer reading: a
 * later part cannot override the first error signal the seller put on the wire.
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
export function extractAdcpErrorFromA2A(input: unknown): AdcpError | null {
  const task = unwrapStreamEnvelope(input);
  if (!isJsonObject(task)) return null;
  const candidate = a2aErrorCandidate(task);
  return candidate === undefined ? null : validateAdcpError(candidate.value);
}
