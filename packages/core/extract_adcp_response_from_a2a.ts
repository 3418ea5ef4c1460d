import {
  dataOf,
  firstArtifactParts,
  firstStatusMessageData,
  isFinalState,
  isWrapper,
  taskStateOf,
  unwrapStreamEnvelope,
} from "./_a2a.ts";
import { isJsonObject, ownElement } from "./_json.ts";
import { WrapperDetectedError } from "./errors.ts";

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
 * @param input An A2A response: any JSON value, or `undefined`.
 * @returns The DataPart's `data`, or `null` when there is none.
 * @throws {WrapperDetectedError} When the authoritative final-state DataPart is a
 * `{ response: {...} }` wrapper. Nothing else is thrown.
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
export function extractAdcpResponseFromA2A(input: unknown): Record<string, unknown> | null {
  const task = unwrapStreamEnvelope(input);
  if (!isJsonObject(task)) return null;
  const state = taskStateOf(task);
  if (state === null) return null;
  if (isFinalState(state)) {
    const parts = firstArtifactParts(task);
    if (parts !== undefined) {
      for (let index = parts.length - 1; index >= 0; index--) {
        const data = dataOf(ownElement(parts, index));
        if (data === undefined) continue;
        if (isWrapper(data)) throw new WrapperDetectedError(index);
        return data;
      }
    }
  }
  return firstStatusMessageData(task);
}
