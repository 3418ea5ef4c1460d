import {
  isJsonObject as isObject,
  optionError,
  type OptionKeys,
  optionKeys,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";
import { publicViolation } from "./_profile.ts";
import {
  type AdcpProfileHandlerReturn,
  type AdcpProfileResponseCode,
  type CheckedAdcpProfileResponse,
  profileResponse,
} from "./_profile_response.ts";
import type { AdcpProfileViolation } from "./types.ts";

export type {
  AdcpProfileHandlerReturn,
  AdcpProfileResponseCode,
  CheckedAdcpProfileResponse,
} from "./_profile_response.ts";

/** What {@link checkAdcpProfileResponse} returns. */
export type AdcpProfileResponseCheck =
  | CheckedAdcpProfileResponse
  | AdcpProfileViolation<AdcpProfileResponseCode>;

/** Options of {@link checkAdcpProfileResponse}. */
export interface CheckAdcpProfileResponseOptions {
  /**
   * What the AdCP handler returned, when the caller knows it (see
   * {@link AdcpProfileHandlerReturn}); the answer must then show that return: an A2A completed
   * Task whose DataPart has the matching AdCP status (and `task_id`). Unset, which is what a buyer
   * has, the check infers the safer way: any answer whose DataParts say AdCP `status:
   * "submitted"` is held to the Submitted mapping (A2A completed, `task_id` in the DataPart), and
   * every A2A completed Task must carry its DataPart; other A2A states (a fatal failure, an
   * interrupted or still running task) are accepted as they are.
   * @default {undefined}
   */
  readonly handlerReturn?: AdcpProfileHandlerReturn | undefined;
}

const ACTION = "check the AdCP profile response";

/** The keys of {@link CheckAdcpProfileResponseOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<CheckAdcpProfileResponseOptions>({
  handlerReturn: true,
});
const HANDLER_RETURNS: readonly unknown[] = ["completed", "submitted", "get_task_status"];

function isHandlerReturn(value: unknown): value is AdcpProfileHandlerReturn {
  return HANDLER_RETURNS.includes(value);
}

/**
 * Checks a non-streaming `SendMessage` answer (the JSON-RPC `result`) against the AdCP A2A Profile
 * Extension v3: the `task` branch, one artifact whose DataPart holds the direct AdCP response, an
 * AdCP Submitted response inside an A2A completed Task, and the AdCP `task_id` only in the
 * DataPart. Returns the AdCP data as A2A Response Extraction selects it, its AdCP status and
 * handle. Never throws on an answer, whatever JSON value it is; the codes are
 * {@link AdcpProfileResponseCode}. Schema validation of the data is the caller's next step.
 *
 * Spec: AdCP A2A Profile Extension v3, "Response mapping", "Submitted AdCP work".
 *
 * @param response The `result` of the `SendMessage` JSON-RPC response: any JSON value.
 * @param options What the handler returned, when known.
 * @returns The answer read, or the first rule broken.
 * @throws {TypeError} When `options` or `options.handlerReturn` is not one of the allowed values,
 * or `options` has a key it does not define.
 *
 * @example Submitted work in a completed A2A Task, and the same task left in native submitted
 * ```ts
 * import { checkAdcpProfileResponse } from "@adcp-wire/transports/a2a";
 * import { strictEqual } from "node:assert/strict";
 *
 * const task = (state: string) => ({
 *   task: {
 *     id: "a2a-task-create-42",
 *     contextId: "ctx-create-42",
 *     status: { state },
 *     artifacts: [{
 *       artifactId: "adcp-result",
 *       parts: [{ data: { status: "submitted", task_id: "adcp-task-9a21" } }],
 *     }],
 *   },
 * });
 * const done = checkAdcpProfileResponse(task("TASK_STATE_COMPLETED"));
 * strictEqual(done.valid && done.adcpTaskId, "adcp-task-9a21");
 * strictEqual(done.valid && done.adcpStatus, "submitted");
 * const native = checkAdcpProfileResponse(task("TASK_STATE_SUBMITTED"));
 * strictEqual(native.valid === false && native.code, "submitted_handler_return_not_a2a_completed");
 * ```
 */
export function checkAdcpProfileResponse(
  response: unknown,
  options: CheckAdcpProfileResponseOptions = {},
): AdcpProfileResponseCheck {
  if (!isObject(options)) throw optionError(TypeError, ACTION, "options", "an object", options);
  checkKeys(ACTION, "options", options, OPTION_KEYS);
  const handlerReturn: unknown = options.handlerReturn;
  if (handlerReturn !== undefined && !isHandlerReturn(handlerReturn)) {
    throw optionError(
      TypeError,
      ACTION,
      "options.handlerReturn",
      '"completed", "submitted" or "get_task_status"',
      handlerReturn,
    );
  }
  const checked = profileResponse(response, handlerReturn);
  return checked.valid ? checked : publicViolation(checked);
}
