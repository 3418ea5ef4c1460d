// What an A2A push notification is, before a receiver answers it (A2A Response Extraction, step 0).
import {
  extractAdcpResponseFromA2A,
  isA2AStreamEnvelope,
  knownA2ATaskState,
  unwrapA2AStreamEnvelope,
} from "@adcp-wire/core";
import type { A2ATaskState } from "@adcp-wire/core";
import { isJsonObject, own, ownObject } from "@adcp-wire/internal";

/** What {@link classifyA2APush} found. */
export type A2APush =
  /**
   * A task (bare, or in a `task` / `statusUpdate` envelope) in a known state. `data` is the AdCP
   * payload extracted as A2A Response Extraction says, or `null` when the task carries none (a
   * status-only update, a canceled task): both are legitimate. Answer 2xx after processing.
   */
  | {
    readonly kind: "task";
    readonly state: A2ATaskState;
    readonly data: Record<string, unknown> | null;
  }
  /** A task in a state this version does not know: no data is extracted (step 4). */
  | { readonly kind: "unknown_state" }
  /** An `artifactUpdate` envelope: it carries no task status. */
  | { readonly kind: "artifact_update"; readonly artifactUpdate: Record<string, unknown> }
  /**
   * Refused: answer `400 Bad Request` (or drop the connection), never `200 OK`.
   * `unrecognized_message`: a bare `{message}` push (an out-of-band agent message) or an object
   * with no task status; `nested_envelope`: an envelope inside an envelope (smuggling);
   * `malformed_push`: not an object, or an AdCP payload that cannot be extracted safely.
   */
  | {
    readonly kind: "rejected";
    readonly code: "unrecognized_message" | "nested_envelope" | "malformed_push";
    readonly status: 400;
  };

const reject = (code: "unrecognized_message" | "nested_envelope" | "malformed_push"): A2APush => ({
  kind: "rejected",
  code,
  status: 400,
});

/**
 * Classifies an A2A push notification body for a webhook receiver: a task carrying AdCP data, a
 * task that carries none, an artifact update, or a push to reject. A bare `{message}` envelope is
 * ignored by task-oriented extractors, and a receiver MUST NOT acknowledge it with `200 OK` (that
 * would make the endpoint an existence oracle): it is `rejected` with code
 * `unrecognized_message`, distinct from a task with `data: null`. Never throws.
 *
 * Spec: A2A Response Extraction, "Extraction Algorithm" step 0 (unwrap exactly once; bare
 * `{message}` envelopes; Webhook/SSE handlers MUST NOT answer them `200 OK`).
 *
 * @param body The parsed push body (any JSON value).
 * @returns What it is.
 *
 * @example A status-only task is fine; a bare message is refused
 * ```ts
 * import { classifyA2APush } from "@adcp-wire/webhooks";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const working = { task: { id: "t1", status: { state: "TASK_STATE_WORKING" } } };
 * deepStrictEqual(classifyA2APush(working), { kind: "task", state: "working", data: null });
 * const probe = { message: { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "hi" }] } };
 * deepStrictEqual(classifyA2APush(probe), {
 *   kind: "rejected",
 *   code: "unrecognized_message",
 *   status: 400,
 * });
 * ```
 */
export function classifyA2APush(body: unknown): A2APush {
  if (!isJsonObject(body)) return reject("malformed_push");
  const envelope = isA2AStreamEnvelope(body) ? Object.keys(body)[0] : undefined;
  const inner = unwrapA2AStreamEnvelope(body);
  if (inner === undefined) return reject("nested_envelope");
  if (!isJsonObject(inner)) return reject("malformed_push");
  if (envelope === "message") return reject("unrecognized_message");
  if (envelope === "artifactUpdate") return { kind: "artifact_update", artifactUpdate: inner };
  const status = ownObject(inner, "status");
  if (status === undefined || own(status, "state") === undefined) {
    return reject("unrecognized_message");
  }
  const state = knownA2ATaskState(own(status, "state"));
  if (state === null) return { kind: "unknown_state" };
  let data: unknown;
  try {
    data = extractAdcpResponseFromA2A(inner);
  } catch {
    return reject("malformed_push");
  }
  return { kind: "task", state, data: isJsonObject(data) ? data : null };
}
