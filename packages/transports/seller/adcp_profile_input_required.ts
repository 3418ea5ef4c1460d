import { isPlainObject, notShown, optionError, optionKeys, own } from "@adcp-wire/internal";
import { checkSellerOptionKeys } from "./_option_keys.ts";
import { checkIds } from "./_profile_ids.ts";
import { checkSummary } from "./_summary.ts";

/** What the helper does, for its option errors. */
const ACTION = "build the AdCP profile input-required response";

/** The `SendMessage` answer {@link adcpProfileInputRequired} builds: a Task waiting for input. */
export type AdcpProfileInputRequired = {
  /** The Task. */
  task: {
    /** The A2A Task id: a continuation names it. */
    id: string;
    /** The A2A context id: a continuation names it too. */
    contextId: string;
    /** `TASK_STATE_INPUT_REQUIRED` and the agent's Message saying what is needed. */
    status: {
      state: "TASK_STATE_INPUT_REQUIRED";
      message: {
        messageId: string;
        taskId: string;
        contextId: string;
        role: "ROLE_AGENT";
        parts: Record<string, unknown>[];
      };
    };
  };
};

/** Options of {@link adcpProfileInputRequired}; `summary`, `data` or both must be set. */
export interface AdcpProfileInputRequiredOptions {
  /**
   * The TextPart saying what is needed: one line of prose, at most 256 UTF-8 bytes, not JSON.
   * @default {undefined}
   */
  readonly summary?: string | undefined;
  /**
   * A DataPart with structured detail (`{ reason: "START_TIME_REQUIRED" }`): a plain object
   * without `adcp_error` and without AdCP `status: "submitted"`, which belongs to a completed
   * Task only.
   * @default {undefined}
   */
  readonly data?: Readonly<Record<string, unknown>> | undefined;
  /**
   * The status Message's `messageId`.
   * @default {crypto.randomUUID()}
   */
  readonly messageId?: string | undefined;
}

/** The keys of {@link AdcpProfileInputRequiredOptions}. */
const OPTION_KEYS = optionKeys<AdcpProfileInputRequiredOptions>({
  summary: true,
  data: true,
  messageId: true,
});

/**
 * Builds the `SendMessage` answer for a Task that needs input before the AdCP handler can return:
 * native A2A `TASK_STATE_INPUT_REQUIRED`, with an agent Message carrying the Task's ids. The buyer
 * continues with a new Message carrying this `taskId` and `contextId` and a complete `{ skill,
 * input }` DataPart. Once the handler has returned, answer with {@link adcpProfileTaskResponse}
 * instead (an AdCP `input-required` result is a completed A2A invocation too).
 *
 * Spec: AdCP A2A Profile Extension v3, "Invocation message" (continuations), "Relationship to A2A
 * async and conversation"; A2A Response Format, "Webhook Payloads".
 *
 * @param ids The A2A Task's `id` and `contextId`.
 * @param options The summary, the data and the message id.
 * @returns The answer, for the JSON-RPC `result`.
 * @throws {TypeError} When `ids` or an option is refused (an unknown option key is named with the
 * nearest known one), or neither `summary` nor `data` is set.
 * @throws {RangeError} When `options.summary` is over 256 UTF-8 bytes.
 *
 * @example Asking for a start time
 * ```ts
 * import { adcpProfileInputRequired } from "@adcp-wire/transports/seller";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const answer = adcpProfileInputRequired({ id: "task_123", contextId: "ctx_456" }, {
 *   summary: "Select a supported campaign start time.",
 *   data: { reason: "START_TIME_REQUIRED" },
 *   messageId: "msg-input-001",
 * });
 * strictEqual(answer.task.status.state, "TASK_STATE_INPUT_REQUIRED");
 * deepStrictEqual(answer.task.status.message.parts, [
 *   { text: "Select a supported campaign start time." },
 *   { data: { reason: "START_TIME_REQUIRED" } },
 * ]);
 * ```
 */
export function adcpProfileInputRequired(
  ids: { readonly id: string; readonly contextId: string },
  options: AdcpProfileInputRequiredOptions,
): AdcpProfileInputRequired {
  const { id, contextId } = checkIds(ids, ACTION);
  if (!isPlainObject(options)) {
    throw optionError(TypeError, ACTION, "options", "an object", options);
  }
  checkSellerOptionKeys(ACTION, options, OPTION_KEYS);
  const messageId: unknown = options.messageId ?? crypto.randomUUID();
  if (typeof messageId !== "string" || messageId === "") {
    throw optionError(
      TypeError,
      ACTION,
      "options.messageId",
      "a non-empty string",
      notShown(messageId),
    );
  }
  const parts: Record<string, unknown>[] = [];
  if (options.summary !== undefined) {
    parts.push({ text: checkSummary("options.summary", options.summary, ACTION) });
  }
  const data = options.data;
  if (data !== undefined) {
    if (
      !isPlainObject(data) || Object.hasOwn(data, "adcp_error") ||
      own(data, "status") === "submitted"
    ) {
      throw optionError(
        TypeError,
        ACTION,
        "options.data",
        'a plain object without adcp_error and without status "submitted"',
        data,
      );
    }
    parts.push({ data });
  }
  if (parts.length === 0) {
    throw optionError(
      TypeError,
      ACTION,
      "options.summary",
      "a string when 'options.data' is unset (the Message needs a Part)",
      undefined,
    );
  }
  return {
    task: {
      id,
      contextId,
      status: {
        state: "TASK_STATE_INPUT_REQUIRED",
        message: { messageId, taskId: id, contextId, role: "ROLE_AGENT", parts },
      },
    },
  };
}
