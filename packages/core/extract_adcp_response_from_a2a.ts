import {
  checkDataPartCount,
  dataOf,
  firstArtifactParts,
  firstStatusMessageData,
  isFinalState,
  isWrapper,
  resolveA2AExtractOptions,
  taskStateOf,
  unwrapStreamEnvelope,
} from "./_a2a.ts";
import { DATA_PART_BYTES_DEFAULT } from "./_a2a.ts";
import { isJsonObject, type JsonObject, ownElement } from "./_json.ts";
import { jsonSizeOver } from "./_json_size.ts";
import { DataPartTooLargeError, WrapperDetectedError } from "./errors.ts";

/**
 * The default `maxDataPartBytes`: 1 MiB (1,048,576 bytes), the spec's "e.g. 1MB" (A2A Response
 * Extraction, Security Considerations, Size Limits).
 *
 * @example The value
 * ```ts
 * import { DEFAULT_MAX_DATA_PART_BYTES } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_MAX_DATA_PART_BYTES, 1_048_576);
 * ```
 */
export const DEFAULT_MAX_DATA_PART_BYTES: number = DATA_PART_BYTES_DEFAULT;

/**
 * Options of {@linkcode extractAdcpResponseFromA2A} and `handleA2AResponse`.
 *
 * @example A tighter DataPart limit, and one expected DataPart
 * ```ts
 * import { type A2AExtractOptions, extractAdcpResponseFromA2A } from "@adcp-wire/core";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const options: A2AExtractOptions = { maxDataPartBytes: 65_536, expectedDataParts: 1 };
 * const task = { status: { state: "completed" }, artifacts: [{ parts: [{ data: { ok: true } }] }] };
 * deepStrictEqual(extractAdcpResponseFromA2A(task, options), { ok: true });
 * ```
 */
export interface A2AExtractOptions {
  /**
   * Largest DataPart accepted, as the UTF-8 bytes of its `data` serialized as JSON; a larger one
   * throws {@linkcode DataPartTooLargeError}. A positive safe integer.
   * @default {1048576}
   */
  readonly maxDataPartBytes?: number | undefined;
  /**
   * The number of DataParts the task must carry: for a final state every DataPart of every
   * artifact (or of the status message when the artifacts hold none), otherwise the status
   * message's; another number throws {@linkcode UnexpectedPartCountError}, before anything is
   * extracted. Unset: any number.
   * @default {undefined}
   */
  readonly expectedDataParts?: number | undefined;
}

/**
 * Extracts AdCP response data from an A2A 1.0 or v0.3 Task, TaskStatusUpdateEvent or
 * single-key response envelope, following A2A Response Extraction, "Extraction Algorithm":
 *
 * 0. An object with exactly one own key among `task`, `message`, `statusUpdate`,
 *    `artifactUpdate`, whose value is a non-null, non-array object, is unwrapped exactly once. If
 *    that value has any of the four keys at its top level, the input is a nested-envelope
 *    smuggling attempt: `null`. (`{ artifactUpdate }` and `{ message }` carry no `status.state`,
 *    so they give `null` at step 1.)
 * 1. `status.state` is normalized: one leading `TASK_STATE_` stripped, ASCII `A`-`Z` lowercased,
 *    `_` turned into `-`; never trimmed, never case-folded beyond ASCII. It must then equal a
 *    known token exactly, else the result is `null` (step 4: unknown states never throw). So
 *    `TASK_STATE_INPUT_REQUIRED` and `COMPLETED` are recognized, while `Task_State_Completed`,
 *    `" completed"`, `TASK_STATE_INPUT__REQUIRED` and `wor\u212Aing` (KELVIN SIGN) are not.
 * 2. Final states (`completed`, `failed`, `canceled`, `rejected`): the last DataPart of
 *    `artifacts[0].parts`; a wrapper there throws {@linkcode WrapperDetectedError}. With no
 *    artifacts, or no DataPart in `artifacts[0]`, all four final states fall back to the first
 *    DataPart of `status.message.parts` (step 2e). The status table lists that fallback only for
 *    `completed` and `failed`, but the algorithm (step 2e) and the prose under the table apply it
 *    to every final state, and the prose wins.
 * 3. Interim states (`working`, `submitted`, `input-required`, `auth-required`): the first DataPart
 *    of `status.message.parts`, or `null`.
 *
 * A DataPart is a Part whose own `data` is a non-null, non-array object, whatever its `kind`
 * (1.0 parts have none). Wrapper detection applies only to the last artifact DataPart of a final
 * state ("Wrapper Rejection": "final states only (artifacts)"), never to `status.message.parts`,
 * including the final-state fallback.
 *
 * The result is the very `data` object of the part, neither copied nor modified; its own `status`
 * is the AdCP status and is not replaced by the A2A state. Only own properties are read. It is
 * seller-controlled: never merge it into application state without filtering keys.
 *
 * Bounds (A2A Response Extraction, Security Considerations): the selected DataPart is held to
 * `maxDataPartBytes` (1 MiB by default) before anything validates it ("Size Limits"), and with
 * `expectedDataParts` the parts read must hold exactly that many DataParts ("Intermediary
 * Injection").
 *
 * @param input An A2A response: any JSON value, or `undefined`.
 * @param options The DataPart size limit and the expected DataPart count.
 * @returns The DataPart's `data`, or `null` when there is none.
 * @throws {WrapperDetectedError} When the authoritative final-state DataPart is a
 * `{ response: {...} }` wrapper.
 * @throws {DataPartTooLargeError} When the selected DataPart is over `maxDataPartBytes`.
 * @throws {UnexpectedPartCountError} When `expectedDataParts` does not match.
 * @throws {TypeError | RangeError} When an option is invalid.
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
  const { maxDataPartBytes, expectedDataParts } = resolveA2AExtractOptions(options);
  const task = unwrapStreamEnvelope(input);
  if (!isJsonObject(task)) return null;
  const state = taskStateOf(task);
  if (state === null) return null;
  if (expectedDataParts !== undefined) checkDataPartCount(task, expectedDataParts);
  if (isFinalState(state)) {
    const parts = firstArtifactParts(task);
    if (parts !== undefined) {
      for (let index = parts.length - 1; index >= 0; index--) {
        const data = dataOf(ownElement(parts, index));
        if (data === undefined) continue;
        if (isWrapper(data)) throw new WrapperDetectedError(index);
        return bounded(data, maxDataPartBytes);
      }
    }
  }
  const data = firstStatusMessageData(task);
  return data === null ? null : bounded(data, maxDataPartBytes);
}

/** `data` when it fits `limit`. @throws {DataPartTooLargeError} */
function bounded(data: JsonObject, limit: number): JsonObject {
  const over = jsonSizeOver(data, limit);
  if (over !== undefined) throw new DataPartTooLargeError(limit, over);
  return data;
}
