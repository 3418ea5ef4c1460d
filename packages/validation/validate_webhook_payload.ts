import type { McpWebhookPayload } from "@adcp-wire/schemas";
import { TASK_VALIDATORS, WEBHOOK_PAYLOAD_VALIDATOR } from "@adcp-wire/schemas/validators";
import type { JsonObject } from "@adcp-wire/security";
import { check, resolveOptions, safeCopy, VALIDATE_KEYS } from "./_run.ts";
import { chooseValidator, isTaskStatus } from "./_tasks.ts";
import type { ValidateOptions, ValidationResult } from "./validation_result.ts";

export type { AdcpProtocol, McpWebhookPayload, TaskType } from "@adcp-wire/schemas";

/**
 * Validates an AdCP webhook POST body against `core/mcp-webhook-payload.json`, then its `result`
 * against the schema of its task and status (issues of that check have pointers under `/result`),
 * on a pollution-safe copy. A status or task type without a schema skips the second check. The
 * first call loads most tasks' validators (about 65 ms). Authenticate the request before
 * validating; this function does not. Both checks in detail are in
 * [docs/validation.md](../../docs/validation.md#webhook-payloads).
 *
 * Spec: `core/async-response-data.json` (a terminal result must also pass its task's schema);
 * mcp-guide.mdx, Data Schema Validation.
 *
 * @param value The parsed body.
 * @param options Limits.
 * @returns `{ valid: true, value, schemas }` (`core/mcp-webhook-payload.json`, then the result's
 * own schema when one applied) or `{ valid: false, issues, schemas }`.
 * @throws {TypeError} When an option is malformed or unknown, or the value is not JSON data.
 * @throws {RangeError} When `maxIssues` or a limit is out of range.
 * @throws {JsonDepthLimitError} When the value nests deeper than the limit.
 * @throws {JsonNodeLimitError} When the value holds more values than the limit.
 *
 * @example A working update with a progress payload out of range
 * ```ts
 * import { validateWebhookPayload } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 *
 * const result = await validateWebhookPayload({
 *   idempotency_key: "whk_01HW9D2T3VXQ5M7K9N1P3R5S7U",
 *   operation_id: "op_1",
 *   task_id: "task_1",
 *   task_type: "get_products",
 *   status: "working",
 *   timestamp: "2026-01-22T10:15:00Z",
 *   result: { percentage: 140 },
 * });
 * ok(!result.valid);
 * deepStrictEqual(result.issues.map((issue) => issue.pointer), ["/result/percentage"]);
 * ```
 */
export async function validateWebhookPayload(
  value: unknown,
  options?: ValidateOptions,
): Promise<ValidationResult<McpWebhookPayload>> {
  const resolved = resolveOptions(options, "validate a webhook payload", VALIDATE_KEYS);
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
  return { valid: true, value: copy as unknown as McpWebhookPayload, schemas };
}
