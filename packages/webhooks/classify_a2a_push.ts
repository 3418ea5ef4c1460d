// What an A2A push notification is, before a receiver answers it (A2A Response Extraction, step 0).
import {
  extractAdcpResponseFromA2A,
  isA2AStreamEnvelope,
  knownA2ATaskState,
  unwrapA2AStreamEnvelope,
} from "@adcp-wire/core";
import type { A2ATaskState } from "@adcp-wire/core";
import { isJsonObject, own, ownObject } from "@adcp-wire/internal";

export type { A2AFinalTaskState, A2AInterimTaskState, A2ATaskState } from "@adcp-wire/core";

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
   * A recognized out-of-band agent message: a `{message}` envelope (or a bare v0.3 object with
   * `kind: "message"`) holding an A2A Message with a non-empty string `messageId`, the agent's
   * role (`ROLE_AGENT`, v0.3 `agent`) and a non-empty `parts` array of well-formed Parts (exactly
   * one content field each). It changes no task state; acknowledge it with 2xx once the delivery
   * is authenticated. `message` is the very object, seller-controlled.
   */
  | { readonly kind: "message"; readonly message: Record<string, unknown> }
  /**
   * Refused: answer `400 Bad Request` (or drop the connection), never `200 OK`.
   * `unrecognized_message`: a `{message}` push that is not a recognized agent message (the
   * existence-oracle case), or an object with no task status; `nested_envelope`: an envelope
   * inside an envelope (smuggling); `malformed_push`: not an object, or an AdCP payload that
   * cannot be extracted safely.
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
 * task that carries none, an artifact update, a recognized agent message, or a push to reject.
 * Task-oriented extractors ignore a `{message}` envelope; a recognized agent message is
 * acknowledged (kind `message`), and any other `{message}` push is `rejected` with code
 * `unrecognized_message`, never answered `200 OK`, so the endpoint is no existence oracle. A task
 * with `data: null` is legitimate. Never throws.
 *
 * Spec: A2A Response Extraction, "Extraction Algorithm" step 0 (unwrap exactly once; "a push
 * receiver SHOULD still acknowledge a recognized `{ message }` delivery with 2xx"; the earlier
 * text's "MUST NOT return `200 OK` to an unrecognized `{ message }` envelope" kept for the rest).
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
 * const note = { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "Queued for review" }] };
 * deepStrictEqual(classifyA2APush({ message: note }), { kind: "message", message: note });
 * const probe = { message: { text: "ping" } };
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
  if (envelope === "message" || (envelope === undefined && own(inner, "kind") === "message")) {
    return isAgentMessage(inner) ? { kind: "message", message: inner } : reject(
      "unrecognized_message",
    );
  }
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

/** The agent's role: A2A 1.0 ProtoJSON and v0.3. */
const AGENT_ROLES: readonly unknown[] = ["ROLE_AGENT", "agent"];

/** The content fields of a Part: A2A 1.0 `text`, `raw`, `url`, `data`; v0.3 `file`. */
const CONTENT_FIELDS = ["text", "raw", "url", "data", "file"] as const;

/**
 * Whether `message` is an A2A Message from the agent: a non-empty string `messageId`, an agent
 * role, and a non-empty `parts` array whose every Part sets exactly one content field ("a Part is a
 * strict `oneof`"; ProtoJSON omits unset fields, and `null` counts as unset), `text`, `raw` and
 * `url` as strings, `data` and `file` as objects. Linear in the number of parts.
 */
function isAgentMessage(message: Record<string, unknown>): boolean {
  const id = own(message, "messageId");
  if (typeof id !== "string" || id === "" || !AGENT_ROLES.includes(own(message, "role"))) {
    return false;
  }
  const parts = own(message, "parts");
  if (!Array.isArray(parts) || parts.length === 0) return false;
  for (let index = 0; index < parts.length; index++) {
    const part = Object.hasOwn(parts, index) ? parts[index] : undefined;
    if (!isJsonObject(part)) return false;
    let set = 0;
    for (const field of CONTENT_FIELDS) {
      const value = own(part, field);
      if (value == null) continue;
      set++;
      const object = field === "data" || field === "file";
      if (object ? !isJsonObject(value) : typeof value !== "string") return false;
    }
    if (set !== 1) return false;
  }
  return true;
}
