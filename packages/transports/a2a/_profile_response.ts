// The response rules of the AdCP A2A Profile Extension v3, shared by checkAdcpProfileResponse and
// A2AClient (SendMessage answers and the final task of a stream).
import { isFinalA2ATaskState, knownA2ATaskState, normalizeA2ATaskState } from "@adcp-wire/core";
import { describeShape, isJsonObject as isObject, type JsonRecord, own } from "@adcp-wire/internal";
import { AgentProtocolError } from "../errors.ts";
import {
  isNonEmptyString,
  partData,
  partKind,
  type RawViolation,
  setField,
  violation,
} from "./_profile.ts";

/**
 * Why a SendMessage answer breaks the AdCP A2A Profile Extension v3 ("Response mapping" and
 * "Submitted AdCP work"; A2A Response Format):
 *
 * - `invalid_send_message_response`: not the `task` branch of `SendMessageResponse`: a bare
 *   Task, the `message` branch, a nested envelope, or any other value ("A non-streaming A2A
 *   `SendMessage` response MUST select its `task` branch").
 * - `invalid_a2a_task`: the Task breaks an A2A 1.0 rule the mapping relies on: no non-empty string
 *   `id` or `contextId`, no `status` object with a string `state`, `artifacts` that is not an
 *   array, an artifact without a non-empty string `artifactId` or a `parts` array, a Part that
 *   sets no content field or several, or a DataPart whose `data` is not an object.
 * - `multiple_artifacts`: more than one artifact ("AdCP profile responses use exactly one
 *   artifact").
 * - `framework_wrapper`: the authoritative DataPart of a final state is `{ response: {...} }`
 *   ("MUST contain that response directly, without a `{ "response": ... }` framework wrapper").
 * - `missing_adcp_datapart`: a `TASK_STATE_COMPLETED` task whose artifact holds no DataPart ("its
 *   artifact contains the direct AdCP response in a DataPart").
 * - `missing_adcp_task_id`: an AdCP `status: "submitted"` response (or, with `handlerReturn`
 *   `"get_task_status"`, a poll response) without a non-empty string `task_id`.
 * - `adcp_task_id_metadata_duplication`: a `metadata` member of the Task, its status message, its
 *   artifact or one of their Parts has an `adcp_task_id` key, or a value equal to the AdCP
 *   `task_id` ("Agents MUST NOT duplicate it as `artifact.metadata.adcp_task_id` or any other A2A
 *   metadata member").
 * - `submitted_handler_return_not_a2a_completed`: an AdCP Submitted response in a Task whose A2A
 *   state is not completed (native `TASK_STATE_SUBMITTED` "is not the mapping for queued AdCP
 *   work").
 * - `handler_return_not_a2a_completed`: with `handlerReturn` `"completed"` or
 *   `"get_task_status"`, an A2A state other than completed ("When the AdCP handler returns a
 *   schema-valid task response, the A2A invocation is complete").
 * - `handler_return_mismatch`: the DataPart does not match `handlerReturn` (a `"submitted"`
 *   return without AdCP `status: "submitted"`, or a `"completed"` return with it).
 */
export type AdcpProfileResponseCode =
  | "invalid_send_message_response"
  | "invalid_a2a_task"
  | "multiple_artifacts"
  | "framework_wrapper"
  | "missing_adcp_datapart"
  | "missing_adcp_task_id"
  | "adcp_task_id_metadata_duplication"
  | "submitted_handler_return_not_a2a_completed"
  | "handler_return_not_a2a_completed"
  | "handler_return_mismatch";

/**
 * What the AdCP handler returned, when the caller knows it (a seller testing its adapter, a
 * conformance harness): `"completed"` for any direct response that is not Submitted (a success, a
 * business rejection, a partial result), `"submitted"` for an AdCP Submitted response, and
 * `"get_task_status"` for the response of a poll.
 */
export type AdcpProfileHandlerReturn = "completed" | "submitted" | "get_task_status";

/** A SendMessage answer that follows the profile, as the response check read it. */
export interface CheckedAdcpProfileResponse {
  /** Always `true`. */
  readonly valid: true;
  /** The Task (`response.task`), raw: seller-controlled. */
  readonly task: Record<string, unknown>;
  /** The normalized A2A state (`completed`, `input-required`, ...; unknown ones as normalized). */
  readonly state: string;
  /** The A2A Task id (the transport invocation). */
  readonly taskId: string;
  /** The A2A context id. */
  readonly contextId: string;
  /**
   * The AdCP response data as A2A Response Extraction selects it (the last DataPart of the
   * artifact for a final state, else the first DataPart of the status message), or `null`.
   */
  readonly data: Record<string, unknown> | null;
  /** The AdCP `status` of `data`, when it is a string: a separate state machine from `state`. */
  readonly adcpStatus: string | undefined;
  /**
   * The AdCP `task_id` of `data`, when it is a non-empty string: the durable operation to poll
   * with `get_task_status`, independent of `taskId` (clients "MUST NOT assume they are equal").
   */
  readonly adcpTaskId?: string;
}

type Raw = RawViolation<AdcpProfileResponseCode>;

const ENVELOPE_KEYS = ["task", "message", "statusUpdate", "artifactUpdate"] as const;

/** The response rules: the `task` branch, then {@link profileTask}. */
export function profileResponse(
  response: unknown,
  handlerReturn: AdcpProfileHandlerReturn | undefined,
): CheckedAdcpProfileResponse | Raw {
  const expected = "the task branch of a SendMessageResponse ({ task: Task })";
  if (!isObject(response)) {
    return violation("invalid_send_message_response", expected, describeShape(response));
  }
  const keys = Object.keys(response);
  if (keys.length !== 1 || keys[0] !== "task") {
    const seen = keys.length === 1 && keys[0] === "message"
      ? "the message branch"
      : Object.hasOwn(response, "status") || Object.hasOwn(response, "artifacts")
      ? "a bare Task"
      : `an object with ${keys.length} members`;
    return violation("invalid_send_message_response", expected, seen);
  }
  const task = own(response, "task");
  if (!isObject(task)) {
    return violation(
      "invalid_send_message_response",
      expected,
      `a task that is ${describeShape(task)}`,
    );
  }
  if (ENVELOPE_KEYS.some((key) => Object.hasOwn(task, key))) {
    return violation("invalid_send_message_response", expected, "a nested envelope");
  }
  return profileTask(task, handlerReturn);
}

/** One Part list read: the DataParts' data in order, or the rule a Part breaks. */
function dataParts(parts: readonly unknown[], where: string): JsonRecord[] | Raw {
  const found: JsonRecord[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = Object.hasOwn(parts, index) ? parts[index] : undefined;
    const kind = partKind(part);
    if (kind === "malformed") {
      return violation(
        "invalid_a2a_task",
        `${where}[${index}] setting exactly one content field`,
        isObject(part) ? "none, several, or a text that is not a string" : describeShape(part),
      );
    }
    if (kind !== "data") continue;
    const data = partData(part);
    if (!isObject(data)) {
      return violation(
        "invalid_a2a_task",
        `the data of ${where}[${index}] as an object`,
        describeShape(data),
      );
    }
    found.push(data);
  }
  return found;
}

/**
 * The task rules: A2A shape, one artifact, the state mapping of the handler's return, the AdCP
 * handle only in the DataPart. `handlerReturn` absent: Submitted is inferred from the DataParts
 * (the authoritative artifact DataPart, or the first status-message DataPart, with AdCP
 * `status: "submitted"`), and a completed task must carry its DataPart.
 *
 * With `stream`, for the task a stream accumulated: the rules of the answer's shape (one artifact,
 * a DataPart in a completed task) are not applied, since the profile states them for the
 * non-streaming answer and a stream may accumulate artifacts (`artifacts[0]` is read, as A2A
 * Response Extraction says); the metadata of every artifact is still scanned.
 */
export function profileTask(
  task: JsonRecord,
  handlerReturn: AdcpProfileHandlerReturn | undefined,
  stream = false,
): CheckedAdcpProfileResponse | Raw {
  const taskId = own(task, "id");
  const contextId = own(task, "contextId");
  if (!isNonEmptyString(taskId) || !isNonEmptyString(contextId)) {
    return violation(
      "invalid_a2a_task",
      "a Task with a non-empty string id and contextId",
      isNonEmptyString(taskId)
        ? `a contextId that is ${describeShape(contextId)}`
        : `an id that is ${describeShape(taskId)}`,
    );
  }
  const status = own(task, "status");
  const rawState = isObject(status) ? own(status, "state") : undefined;
  if (!isObject(status) || typeof rawState !== "string") {
    return violation(
      "invalid_a2a_task",
      "a Task status with a string state",
      isObject(status) ? `a state that is ${describeShape(rawState)}` : describeShape(status),
    );
  }
  // Normalized as A2A Response Extraction says (1.0 and v0.3 spellings); an unknown state gets
  // no state rule ("SHOULD NOT throw on unrecognized status values").
  const known = knownA2ATaskState(rawState);
  const state = known ?? normalizeA2ATaskState(rawState) ?? "";
  const artifacts = setField(task, "artifacts") ?? [];
  if (!Array.isArray(artifacts)) {
    return violation("invalid_a2a_task", "artifacts as an array", describeShape(artifacts));
  }
  if (artifacts.length > 1 && !stream) {
    return violation("multiple_artifacts", "exactly one artifact", `${artifacts.length}`);
  }
  const metadataHolders: unknown[] = [own(task, "metadata")];
  let artifactData: JsonRecord[] = [];
  if (artifacts.length >= 1) {
    const artifact = Object.hasOwn(artifacts, 0) ? artifacts[0] : undefined;
    if (!isObject(artifact)) {
      return violation("invalid_a2a_task", "artifacts[0] as an object", describeShape(artifact));
    }
    if (!isNonEmptyString(own(artifact, "artifactId"))) {
      return violation(
        "invalid_a2a_task",
        "artifacts[0].artifactId as a non-empty string",
        describeShape(own(artifact, "artifactId")),
      );
    }
    const parts = own(artifact, "parts");
    if (!Array.isArray(parts)) {
      return violation("invalid_a2a_task", "artifacts[0].parts as an array", describeShape(parts));
    }
    const read = dataParts(parts, "artifacts[0].parts");
    if (!Array.isArray(read)) return read;
    artifactData = read;
    for (let index = 0; index < artifacts.length; index++) {
      const each = Object.hasOwn(artifacts, index) ? artifacts[index] : undefined;
      if (!isObject(each)) continue;
      metadataHolders.push(own(each, "metadata"));
      const eachParts = own(each, "parts");
      if (Array.isArray(eachParts)) addPartMetadata(metadataHolders, eachParts);
    }
  }
  const message = setField(status, "message");
  let messageData: JsonRecord | undefined;
  if (message !== undefined) {
    if (!isObject(message)) {
      return violation("invalid_a2a_task", "status.message as an object", describeShape(message));
    }
    const parts = setField(message, "parts") ?? [];
    if (!Array.isArray(parts)) {
      return violation(
        "invalid_a2a_task",
        "status.message.parts as an array",
        describeShape(parts),
      );
    }
    const read = dataParts(parts, "status.message.parts");
    if (!Array.isArray(read)) return read;
    messageData = read[0];
    metadataHolders.push(own(message, "metadata"));
    addPartMetadata(metadataHolders, parts);
  }
  const authoritative = artifactData.at(-1);
  const final = known !== null && isFinalA2ATaskState(known);
  if (final && authoritative !== undefined && isWrapper(authoritative)) {
    return violation(
      "framework_wrapper",
      "the direct AdCP response in the DataPart",
      "a { response: {...} } wrapper",
    );
  }
  const completed = known === "completed";
  const submittedData = own(authoritative ?? {}, "status") === "submitted" ||
    own(messageData ?? {}, "status") === "submitted";
  if (handlerReturn === undefined || handlerReturn === "submitted") {
    if (!completed && (submittedData || handlerReturn === "submitted")) {
      return violation(
        "submitted_handler_return_not_a2a_completed",
        "an AdCP Submitted response in a TASK_STATE_COMPLETED Task",
        "another A2A state",
      );
    }
  } else if (!completed) {
    return violation(
      "handler_return_not_a2a_completed",
      "a TASK_STATE_COMPLETED Task once the AdCP handler has returned",
      "another A2A state",
    );
  }
  if (completed && authoritative === undefined && !stream) {
    return violation(
      "missing_adcp_datapart",
      "the AdCP response in a DataPart of the artifact",
      "no DataPart",
    );
  }
  const data = final
    ? authoritative ?? messageData ?? null
    : known === null
    ? null
    : messageData ?? null;
  const adcpStatus = data === null ? undefined : own(data, "status");
  if (handlerReturn === "submitted" && adcpStatus !== "submitted") {
    return violation(
      "handler_return_mismatch",
      'the AdCP status "submitted" for a Submitted handler return',
      typeof adcpStatus === "string" ? "another status" : describeShape(adcpStatus),
    );
  }
  if (handlerReturn === "completed" && adcpStatus === "submitted") {
    return violation(
      "handler_return_mismatch",
      'an AdCP status other than "submitted" for a completed handler return',
      '"submitted"',
    );
  }
  const handle = data === null ? undefined : own(data, "task_id");
  if (
    (adcpStatus === "submitted" || handlerReturn === "get_task_status") &&
    !isNonEmptyString(handle)
  ) {
    return violation(
      "missing_adcp_task_id",
      "the AdCP task_id as a non-empty string in the DataPart",
      describeShape(handle),
    );
  }
  const adcpTaskId = isNonEmptyString(handle) ? handle : undefined;
  for (const metadata of metadataHolders) {
    if (!isObject(metadata)) continue;
    if (Object.hasOwn(metadata, "adcp_task_id")) {
      return duplication("an adcp_task_id metadata member");
    }
    if (adcpTaskId !== undefined && Object.values(metadata).includes(adcpTaskId)) {
      return duplication("a metadata member holding the AdCP task_id");
    }
  }
  return {
    valid: true,
    task,
    state,
    taskId,
    contextId,
    data,
    adcpStatus: typeof adcpStatus === "string" ? adcpStatus : undefined,
    ...(adcpTaskId === undefined ? {} : { adcpTaskId }),
  };
}

function duplication(seen: string): Raw {
  return violation(
    "adcp_task_id_metadata_duplication",
    "the AdCP task_id only in the DataPart",
    seen,
  );
}

/** Adds the `metadata` of each object Part to `found`. */
function addPartMetadata(found: unknown[], parts: readonly unknown[]): void {
  for (let index = 0; index < parts.length; index++) {
    const part = Object.hasOwn(parts, index) ? parts[index] : undefined;
    if (isObject(part)) found.push(own(part, "metadata"));
  }
}

/** A2A Response Extraction, "Wrapper Rejection": exactly one key, `response`, an object. */
function isWrapper(data: JsonRecord): boolean {
  const keys = Object.keys(data);
  return keys.length === 1 && keys[0] === "response" && isObject(own(data, "response"));
}

/**
 * Applies the profile's response rules for `A2AClient`: `undefined` when the answer may be
 * classified, else the `AgentProtocolError` (reason `"adcp_profile"`) to throw. A wrapper is left
 * to classification, which reports it as a `"malformed"` result (A2A Response Extraction,
 * "Wrapper Rejection"), as without the profile.
 */
export function profileAnswerError(
  checked: CheckedAdcpProfileResponse | Raw,
): AgentProtocolError | undefined {
  if (checked.valid || checked.code === "framework_wrapper") return undefined;
  return new AgentProtocolError(
    "adcp_profile",
    `${checked.expected} (AdCP A2A profile v3, ${checked.code})`,
    checked.seen,
  );
}
