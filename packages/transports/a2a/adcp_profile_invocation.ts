import {
  isJsonObject as isObject,
  optionError,
  type OptionKeys,
  optionKeys,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";
import { isNonEmptyString } from "./_profile.ts";
import { ADCP_A2A_PROFILE } from "./types.ts";

/** Options of {@link adcpProfileInvocation}. */
export interface AdcpProfileInvocationOptions {
  /**
   * The Message's `messageId`. A continuation needs a new one ("MUST carry a new `messageId`").
   * @default {crypto.randomUUID()}
   */
  readonly messageId?: string | undefined;
  /**
   * The A2A task continued (after `TASK_STATE_INPUT_REQUIRED`); needs `contextId` with it.
   * @default {undefined}
   */
  readonly taskId?: string | undefined;
  /**
   * The A2A context (the continued task's `contextId`).
   * @default {undefined}
   */
  readonly contextId?: string | undefined;
  /**
   * Adds, before the DataPart, a display-only TextPart the library writes from the skill alone:
   * `{ text: "AdCP task: <skill>", mediaType: "text/plain", metadata: { generated: true } }`.
   * There is no way to pass other text: the label "MUST NOT introduce any instruction or fact
   * that is absent from `skill` and `input`" and "Implementations MUST NOT ask a human integrator
   * to author this text"; senders "SHOULD omit them by default".
   * @default {false}
   */
  readonly text?: boolean | undefined;
}

/**
 * The A2A 1.0 service parameters that activate the profile, as HTTP headers (a type alias, so that
 * it is a `HeadersInit` record).
 */
export type AdcpProfileInvocationHeaders = {
  /** `"1.0"`. */
  readonly "A2A-Version": "1.0";
  /** The profile URI, {@link ADCP_A2A_PROFILE}. */
  readonly "A2A-Extensions": typeof ADCP_A2A_PROFILE;
};

/** A Part of a profile invocation: the generated label, or the invocation DataPart. */
export type AdcpProfileInvocationPart =
  | {
    readonly text: string;
    readonly mediaType: "text/plain";
    readonly metadata: { readonly generated: true };
  }
  | { readonly data: { readonly skill: string; readonly input: Record<string, unknown> } };

/** The A2A 1.0 Message of a profile invocation. */
export interface AdcpProfileInvocationMessage {
  /** The message id. */
  readonly messageId: string;
  /** The continued task, when set. */
  readonly taskId?: string;
  /** The context, when set. */
  readonly contextId?: string;
  /** `"ROLE_USER"` (A2A 1.0 ProtoJSON). */
  readonly role: "ROLE_USER";
  /** The optional generated label, then the one DataPart `{ skill, input }`. */
  readonly parts: readonly AdcpProfileInvocationPart[];
}

/** What {@link adcpProfileInvocation} builds: the headers to send and the Message. */
export interface AdcpProfileRequest {
  /** The activation headers. */
  readonly headers: AdcpProfileInvocationHeaders;
  /** The Message, for `params.message` of `SendMessage`. */
  readonly message: AdcpProfileInvocationMessage;
}

const ACTION = "build the AdCP profile invocation";

/** The keys of {@link AdcpProfileInvocationOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<AdcpProfileInvocationOptions>({
  messageId: true,
  taskId: true,
  contextId: true,
  text: true,
});

/**
 * Builds an AdCP A2A Profile Extension v3 invocation for A2A 1.0: the headers that activate the
 * profile (`A2A-Version: 1.0`, `A2A-Extensions: <URI>`) and a Message with role `ROLE_USER` and
 * exactly one DataPart `{ skill, input }`, plus `taskId` and `contextId` for a continuation.
 * `input` is put in the DataPart as it is (not copied). What it builds passes
 * {@link checkAdcpProfileInvocation}.
 *
 * A2A 0.3 has no such profile: an {@link A2AClient} bound to a v0.3-only card sends the same
 * DataPart in v0.3 form (`kind` fields, role `user`) with `X-A2A-Extensions`, and does not hold
 * the answers to the profile's response rules.
 *
 * Spec: AdCP A2A Profile Extension v3, "Advertisement and activation", "Invocation message".
 *
 * @param skill The AdCP task name (the agent's `AgentSkill.id`).
 * @param input The task request, schema-valid for that task.
 * @param options The message id, the continuation ids and the generated label.
 * @returns The headers and the Message.
 * @throws {TypeError} When `skill` is not a non-empty string, `input` not an object, or an option
 * has the wrong type (`taskId` without `contextId` included) or a key it does not define.
 *
 * @example A poll of AdCP Submitted work, and a continuation
 * ```ts
 * import { ADCP_A2A_PROFILE, adcpProfileInvocation } from "@adcp-wire/transports/a2a";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const input = { task_id: "adcp-task-9a21", include_result: true };
 * const poll = adcpProfileInvocation("get_task_status", input, { messageId: "msg-poll-001" });
 * deepStrictEqual(poll, {
 *   headers: { "A2A-Version": "1.0", "A2A-Extensions": ADCP_A2A_PROFILE },
 *   message: {
 *     messageId: "msg-poll-001",
 *     role: "ROLE_USER",
 *     parts: [{ data: { skill: "get_task_status", input } }],
 *   },
 * });
 * const next = adcpProfileInvocation("get_products", { brief: "CTV, $75K" }, {
 *   taskId: "a2a-task-input-001",
 *   contextId: "ctx-input-001",
 * });
 * deepStrictEqual([next.message.taskId, next.message.contextId], [
 *   "a2a-task-input-001",
 *   "ctx-input-001",
 * ]);
 * ```
 */
export function adcpProfileInvocation(
  skill: string,
  input: Record<string, unknown>,
  options: AdcpProfileInvocationOptions = {},
): AdcpProfileRequest {
  if (!isNonEmptyString(skill)) {
    throw optionError(TypeError, ACTION, "skill", "a non-empty string", skill);
  }
  if (!isObject(input)) throw optionError(TypeError, ACTION, "input", "an object", input);
  if (!isObject(options)) throw optionError(TypeError, ACTION, "options", "an object", options);
  checkKeys(ACTION, "options", options, OPTION_KEYS);
  const messageId: unknown = options.messageId ?? crypto.randomUUID();
  if (!isNonEmptyString(messageId)) {
    throw optionError(TypeError, ACTION, "options.messageId", "a non-empty string", messageId);
  }
  const ids: { taskId?: string; contextId?: string } = {};
  for (const [name, value] of idOptions(options)) {
    if (!isNonEmptyString(value)) {
      throw optionError(TypeError, ACTION, `options.${name}`, "a non-empty string", value);
    }
    ids[name] = value;
  }
  if (ids.taskId !== undefined && ids.contextId === undefined) {
    throw optionError(
      TypeError,
      ACTION,
      "options.contextId",
      "a non-empty string when 'options.taskId' is set (a continuation carries both)",
      undefined,
    );
  }
  const text = options.text ?? false;
  if (typeof text !== "boolean") {
    throw optionError(TypeError, ACTION, "options.text", "a boolean", text);
  }
  const parts: AdcpProfileInvocationPart[] = text
    ? [{ text: `AdCP task: ${skill}`, mediaType: "text/plain", metadata: { generated: true } }]
    : [];
  parts.push({ data: { skill, input } });
  return {
    headers: { "A2A-Version": "1.0", "A2A-Extensions": ADCP_A2A_PROFILE },
    message: { messageId, ...ids, role: "ROLE_USER", parts },
  };
}

/** The continuation id options that are set. */
function idOptions(
  options: AdcpProfileInvocationOptions,
): (readonly ["taskId" | "contextId", unknown])[] {
  const set: (readonly ["taskId" | "contextId", unknown])[] = [];
  if (options.taskId !== undefined) set.push(["taskId", options.taskId]);
  if (options.contextId !== undefined) set.push(["contextId", options.contextId]);
  return set;
}
