import type { MCPWebhookPayload } from "@adcp-wire/schemas";
import { TASK_VALIDATORS, WEBHOOK_PAYLOAD_VALIDATOR } from "@adcp-wire/schemas/validators";
import type { JsonObject } from "@adcp-wire/security";
import { check, resolveOptions, safeCopy } from "./_run.ts";
import { chooseValidator, isTaskStatus } from "./_tasks.ts";
import type { ValidateOptions, ValidationResult } from "./validation_result.ts";

export type { AdCPProtocol, MCPWebhookPayload, TaskType } from "@adcp-wire/schemas";

/**
 * Validates an AdCP webhook POST body against `core/mcp-webhook-payload.json`, and its `result` against the task's
 * own schema, on a pollution-safe copy.
 *
 * Two checks, in order:
 *
 * 1. The body against `core/mcp-webhook-payload.json` as published: the envelope (required `idempotency_key`,
 *    `operation_id`, `task_id`, `task_type`, `status`, `timestamp`, their types, patterns and enums, the
 *    `get_products` rejection rule) and `result` against `core/async-response-data.json`, an untagged union of
 *    async webhook payloads.
 * 2. `result`, when present, against the schema of its task and status, because that union's description says
 *    callers "MUST also validate a terminal result against that task or event's specific schema" (and mcp-guide.mdx
 *    "Data Schema Validation" maps statuses to schemas): the task's response schema for `completed`, `failed`,
 *    `canceled` and `rejected` (or the `task_result_resolution.terminal_schema_overrides` schema of its task type),
 *    the task's `*-async-response-<status>.json` schema for an interim status. A status or task type without a
 *    schema leaves this check out: interim schemas are work in progress upstream and never make a payload fail by
 *    their absence. Issues of this check have pointers under `/result`.
 *
 * The first call loads the validators the union reaches, which are most tasks' (about 2.9 MB of JavaScript, which took
 * some 65 ms to load when measured); later calls only run them.
 *
 * Authenticate the request (RFC 9421 signature, or the legacy token) before validating; this function does not.
 *
 * @param value The parsed body.
 * @param options Limits.
 * @returns `{ valid: true, value, schemas }` (`core/mcp-webhook-payload.json`, then the result's own schema when one
 * applied) or `{ valid: false, issues, schemas }`.
 * @throws {TypeError} When an option is malformed or the value is not JSON data.
 * @throws {RangeError} When `maxIssues` or a limit is out of range.
 * @throws {JsonDepthLimitError} When the value nests deeper than the limit.
 * @throws {JsonNodeLimitError} When the value holds more values than the limit.
 *
 * @example A working update with a progress payload out of range
 * ```ts
 * import { validateWebhookPayload } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 *
 * const body = {
 *   idempotency_key: "whk_01HW9D2T3VXQ5M7K9N1P3R5S7U",
 *   operation_id: "op_1",
 *   task_id: "task_1",
 *   task_type: "get_products",
 *   status: "working",
 *   timestamp: "2026-01-22T10:15:00Z",
 *   result: { percentage: 140 },
 * };
 * const result = await validateWebhookPayload(body);
 * ok(!result.valid);
 * deepStrictEqual(result.issues, [
 *   { pointer: "/result/percentage", message: "Expected a number <= 100", keyword: "maximum" },
 * ]);
 * deepStrictEqual(result.schemas, [
 *   "core/mcp-webhook-payload.json",
 *   "media-buy/get-products-async-response-working.json",
 * ]);
 * ```
 */
export async function validateWebhookPayload(
  value: unknown,
  options?: ValidateOptions,
): Promise<ValidationResult<MCPWebhookPayload>> {
  const resolved = resolveOptions(options, "validateWebhookPayload()");
  const { validate } = await WEBHOOK_PAYLOAD_VALIDATOR.load();
  const copy = safeCopy(value, resolved);
  const schemas = [WEBHOOK_PAYLOAD_VALIDATOR.schema];
  const envelopeIssues = check(validate, copy, resolved);
  if (envelopeIssues !== undefined) return { valid: false, issues: envelopeIssues, schemas };

  // The envelope passed, so copy is an object with a task_type and a status from their enums.
  const envelope = copy as JsonObject;
  const entry = typeof envelope.task_type === "string"
    ? TASK_VALIDATORS.get(envelope.task_type)
    : undefined;
  const result = envelope.result;
  if (entry !== undefined && result !== undefined && isTaskStatus(envelope.status)) {
    const chosen = chooseValidator(entry, await entry.load(), envelope.status);
    if (chosen !== undefined) {
      schemas.push(chosen.schema);
      const issues = check(chosen.validate, result, resolved, "/result");
      if (issues !== undefined) return { valid: false, issues, schemas };
    }
  }
  return { valid: true, value: copy as unknown as MCPWebhookPayload, schemas };
}
