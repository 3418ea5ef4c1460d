import { isJsonObject, type JsonRecord } from "@adcp-wire/internal";
import {
  type A2AExtractOptions,
  checkDataPartCount,
  DATA_PART_BYTES_DEFAULT,
  dataOf,
  firstArtifactParts,
  firstStatusMessageData,
  isWrapper,
  resolveA2AExtractOptions,
  taskStateOf,
} from "./_a2a.ts";
import { fastOwnElement } from "./_json.ts";
import { jsonSizeOver } from "./_json_size.ts";
import { isFinalA2ATaskState } from "./a2a_task_state.ts";
import { DataPartTooLargeError, WrapperDetectedError } from "./errors.ts";
import { unwrapA2AStreamEnvelope } from "./unwrap_a2a_stream_envelope.ts";

/**
 * The default `maxDataPartBytes`: 1 MiB (1,048,576 bytes), the spec's "e.g. 1MB" (A2A Response
 * Extraction, Security Considerations, Size Limits).
 */
export const DEFAULT_MAX_DATA_PART_BYTES: number = DATA_PART_BYTES_DEFAULT;

export type { A2AExtractOptions };

/**
 * Extracts AdCP response data from an A2A 1.0 or v0.3 Task, TaskStatusUpdateEvent or stream
 * envelope: after one envelope is unwrapped and `status.state` normalized, the last DataPart of
 * `artifacts[0]` for a final state (else the status message's first), the first DataPart of
 * `status.message.parts` for an interim one, and `null` for an unknown state. The result is the
 * part's very `data` object, seller-controlled.
 *
 * A2A Response Extraction, "Extraction Algorithm" (readings:
 * [docs/core.md](../../docs/core.md#a2a-response-extraction)).
 *
 * @param input An A2A response: any JSON value, or `undefined`.
 * @param options The DataPart size limit and the expected DataPart count.
 * @returns The DataPart's `data`, or `null` when there is none.
 * @throws {WrapperDetectedError} When the authoritative final-state DataPart is a
 * `{ response: {...} }` wrapper.
 * @throws {DataPartTooLargeError} When the selected DataPart is over `maxDataPartBytes`.
 * @throws {UnexpectedPartCountError} When `expectedDataParts` does not match.
 * @throws {TypeError | RangeError} When an option is invalid, or not one of
 * {@link A2AExtractOptions}.
 *
 * @example A2A 1.0 stream envelope and v0.3 task
 * ```ts
 * import { extractAdcpResponseFromA2A } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const envelope = {
 *   task: {
 *     status: { state: "TASK_STATE_COMPLETED" },
 *     artifacts: [{ parts: [{ data: { progress: 50 } }, { data: { media_buy_id: "mb_1" } }] }],
 *   },
 * };
 * deepStrictEqual(extractAdcpResponseFromA2A(envelope), { media_buy_id: "mb_1" });
 *
 * const working = {
 *   status: {
 *     state: "working",
 *     message: { parts: [{ kind: "data", data: { percentage: 45 } }] },
 *   },
 * };
 * deepStrictEqual(extractAdcpResponseFromA2A(working), { percentage: 45 });
 * strictEqual(extractAdcpResponseFromA2A({ task: envelope }), null); // nested envelope
 * ```
 */
export function extractAdcpResponseFromA2A(
  input: unknown,
  options?: A2AExtractOptions,
): Record<string, unknown> | null {
  const { maxDataPartBytes, expectedDataParts, measure } = resolveA2AExtractOptions(options);
  const task = unwrapA2AStreamEnvelope(input);
  if (!isJsonObject(task)) return null;
  const state = taskStateOf(task);
  if (state === null) return null;
  if (expectedDataParts !== undefined) checkDataPartCount(task, expectedDataParts);
  if (isFinalA2ATaskState(state)) {
    const parts = firstArtifactParts(task);
    if (parts !== undefined) {
      for (let index = parts.length - 1; index >= 0; index--) {
        const data = dataOf(fastOwnElement(parts, index));
        if (data === undefined) continue;
        if (isWrapper(data)) throw new WrapperDetectedError(index);
        return measure ? bounded(data, maxDataPartBytes) : data;
      }
    }
  }
  const data = firstStatusMessageData(task);
  if (data === null) return null;
  return measure ? bounded(data, maxDataPartBytes) : data; // else proved by sourceJsonBytes
}

/** `data` when it fits `limit`. @throws {DataPartTooLargeError} */
function bounded(data: JsonRecord, limit: number): JsonRecord {
  const over = jsonSizeOver(data, limit);
  if (over !== undefined) throw new DataPartTooLargeError(limit, over);
  return data;
}
