// The receiver-side check of an MCP webhook POST body before dispatch (webhooks.mdx; the
// webhook-receiver-envelope vectors).
import { describeShape, IDEMPOTENCY_KEY_PATTERN, isJsonObject, own } from "@adcp-wire/internal";
import type { TaskStatus } from "@adcp-wire/schemas";

export type { TaskStatus } from "@adcp-wire/schemas";

/**
 * Why {@link checkMcpWebhookEnvelope} refused a body. The first three are the codes of upstream's
 * `webhook-receiver-envelope.json`; the others are this package's, for what the schema makes
 * invalid besides.
 */
export type McpWebhookEnvelopeErrorCode =
  /** Not a JSON object at all. */
  | "invalid_envelope"
  /** An object without the envelope's fields: typically an inner `result` posted bare. */
  | "missing_envelope_fields"
  /** Envelope-shaped, but without an `idempotency_key`: not dispatchable. */
  | "missing_idempotency_key"
  /** `idempotency_key` is not a string of 16 to 255 characters of `[A-Za-z0-9_.:-]`. */
  | "invalid_idempotency_key"
  /** `status` is not a task-status value (`completed`, `working`, …). */
  | "invalid_envelope_status"
  /** Another envelope field has the wrong type or form (named in the message). */
  | "invalid_envelope_field";

/** An MCP webhook envelope that passed {@link checkMcpWebhookEnvelope}. */
export interface McpWebhookEnvelope {
  /** The delivery key: dedup on `(authenticated sender, idempotency_key)`. */
  readonly idempotency_key: string;
  /** The buyer's correlation id, echoed from `push_notification_config.operation_id`. */
  readonly operation_id: string;
  /** The seller's task id. */
  readonly task_id: string;
  /** The AdCP task that produced the webhook (not checked against the task-type enum). */
  readonly task_type: string;
  /** The task status. */
  readonly status: TaskStatus;
  /** When the delivery was first generated (RFC 3339). */
  readonly timestamp: string;
  /** The task-specific payload, when present (seller data: validate it before use). */
  readonly result?: unknown;
  /** Every other field, as sent (seller-controlled). */
  readonly [field: string]: unknown;
}

/** What {@link checkMcpWebhookEnvelope} returns. */
export type McpWebhookEnvelopeCheck =
  | { readonly valid: true; readonly envelope: McpWebhookEnvelope; readonly idempotencyKey: string }
  | {
    readonly valid: false;
    readonly code: McpWebhookEnvelopeErrorCode;
    /** What is wrong, naming fields and types only: never a seller value. */
    readonly message: string;
  };

/** Every task status of the pinned schema; the `Record` type makes the list exhaustive. */
const TASK_STATUSES: Readonly<Record<TaskStatus, true>> = {
  "submitted": true,
  "working": true,
  "input-required": true,
  "completed": true,
  "canceled": true,
  "failed": true,
  "rejected": true,
  "auth-required": true,
  "unknown": true,
};

/** The envelope fields besides `idempotency_key` that `core/mcp-webhook-payload.json` requires. */
const REQUIRED = ["operation_id", "task_id", "task_type", "status", "timestamp"] as const;

/** Optional string fields of the schema. */
const OPTIONAL_STRINGS = ["message", "context_id", "notification_id", "protocol"] as const;

/** RFC 3339 `date-time` (JSON Schema `format: date-time`). */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** Whether `text` is an RFC 3339 date-time whose fields are in range. */
function isDateTime(text: string): boolean {
  const m = text.length <= 64 ? DATE_TIME.exec(text) : null;
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  const days = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  const offsetOk = m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
  return month! >= 1 && month! <= 12 && day! >= 1 && day! <= days && hour! <= 23 &&
    minute! <= 59 && second! <= 60 && offsetOk;
}

function refuse(code: McpWebhookEnvelopeErrorCode, message: string): McpWebhookEnvelopeCheck {
  return { valid: false, code, message };
}

/**
 * Checks an MCP webhook POST body before it is dispatched: the envelope's required fields
 * (`idempotency_key`, `operation_id`, `task_id`, `task_type`, `status`, `timestamp`), their types,
 * the `idempotency_key` pattern, a task-status `status` and an RFC 3339 `timestamp`. A valid inner
 * result posted bare (a delivery report without its envelope) is refused, as are media-buy
 * lifecycle values in `status`. Run it after the signature check and before dedup; it reads own
 * properties only, does not validate `result` (use `validateWebhookPayload` of
 * `@adcp-wire/validation` for that) and never throws. The rules are listed in
 * [docs/webhooks.md](../../docs/webhooks.md).
 *
 * Spec: webhooks.mdx, "Webhook payload" and "Reliability" (`idempotency_key`);
 * `core/mcp-webhook-payload.json`; webhook-receiver-envelope.json.
 *
 * @param payload The parsed body (any JSON value).
 * @returns `{ valid: true, envelope, idempotencyKey }`, or `{ valid: false, code, message }`.
 *
 * @example A bare inner result is not a webhook
 * ```ts
 * import { checkMcpWebhookEnvelope } from "@adcp-wire/webhooks";
 * import { strictEqual } from "node:assert/strict";
 *
 * const envelope = {
 *   idempotency_key: "whk_20260526_example_000031",
 *   operation_id: "op_1",
 *   task_id: "task_1",
 *   task_type: "media_buy_delivery",
 *   status: "completed",
 *   timestamp: "2026-05-26T09:00:44.582Z",
 *   result: { currency: "USD", media_buy_deliveries: [] },
 * };
 * const ok = checkMcpWebhookEnvelope(envelope);
 * strictEqual(ok.valid && ok.idempotencyKey, "whk_20260526_example_000031");
 * const bare = checkMcpWebhookEnvelope(envelope.result);
 * strictEqual(!bare.valid && bare.code, "missing_envelope_fields");
 * const lifecycle = checkMcpWebhookEnvelope({ ...envelope, status: "active" });
 * strictEqual(!lifecycle.valid && lifecycle.code, "invalid_envelope_status");
 * ```
 */
export function checkMcpWebhookEnvelope(payload: unknown): McpWebhookEnvelopeCheck {
  if (!isJsonObject(payload)) {
    return refuse(
      "invalid_envelope",
      `Cannot dispatch the webhook: expected a JSON object, \
received ${describeShape(payload)}`,
    );
  }
  const missing = REQUIRED.filter((field) => own(payload, field) === undefined);
  if (missing.length > 0) {
    return refuse(
      "missing_envelope_fields",
      `Cannot dispatch the webhook: the envelope field${missing.length > 1 ? "s" : ""} \
${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} missing`,
    );
  }
  const key = own(payload, "idempotency_key");
  if (key === undefined) {
    return refuse(
      "missing_idempotency_key",
      "Cannot dispatch the webhook: the envelope has no idempotency_key",
    );
  }
  if (typeof key !== "string" || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    return refuse(
      "invalid_idempotency_key",
      `Cannot dispatch the webhook: expected idempotency_key to be 16 to 255 characters of \
[A-Za-z0-9_.:-], received ${describeShape(key)}`,
    );
  }
  for (const field of ["operation_id", "task_id", "task_type"] as const) {
    const value = own(payload, field);
    if (typeof value !== "string" || value === "") {
      return refuse(
        "invalid_envelope_field",
        `Cannot dispatch the webhook: expected ${field} to be a non-empty string, received \
${describeShape(value)}`,
      );
    }
  }
  const status = own(payload, "status");
  if (typeof status !== "string" || !Object.hasOwn(TASK_STATUSES, status)) {
    return refuse(
      "invalid_envelope_status",
      `Cannot dispatch the webhook: expected status to be a task status (${
        Object.keys(TASK_STATUSES).join(", ")
      }), received ${describeShape(status)}${typeof status === "string" ? " that is not one" : ""}`,
    );
  }
  const timestamp = own(payload, "timestamp");
  if (typeof timestamp !== "string" || !isDateTime(timestamp)) {
    return refuse(
      "invalid_envelope_field",
      `Cannot dispatch the webhook: expected timestamp to be an RFC 3339 date-time, received \
${describeShape(timestamp)}${typeof timestamp === "string" ? " that is not one" : ""}`,
    );
  }
  for (const field of OPTIONAL_STRINGS) {
    const value = own(payload, field);
    if (value !== undefined && typeof value !== "string") {
      return refuse(
        "invalid_envelope_field",
        `Cannot dispatch the webhook: expected ${field} to be a string, received ${
          describeShape(value)
        }`,
      );
    }
  }
  const token = own(payload, "token");
  if (
    token !== undefined && (typeof token !== "string" || token.length < 16 || token.length > 4096)
  ) {
    return refuse(
      "invalid_envelope_field",
      `Cannot dispatch the webhook: expected token to be a string of 16 to 4096 characters, \
received ${describeShape(token)}`,
    );
  }
  const result = own(payload, "result");
  if (result !== undefined && !isJsonObject(result)) {
    return refuse(
      "invalid_envelope_field",
      `Cannot dispatch the webhook: expected result to be an object, received ${
        describeShape(result)
      }`,
    );
  }
  return { valid: true, envelope: payload as McpWebhookEnvelope, idempotencyKey: key };
}
