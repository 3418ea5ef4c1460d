/**
 * Schema validation of AdCP payloads for the pinned AdCP version, with precompiled validators:
 * nothing is compiled or evaluated at run time (it works under a strict Content Security Policy),
 * and each task's validator is loaded by dynamic import on first use.
 *
 * - {@link validateTaskResponse} (or {@link loadTaskValidator} for a synchronous validator): a task
 *   payload against its response schema, or its interim schema for an interim status.
 * - {@link validateAdcpErrorSchema}: an error object against `core/error.json`, strictly.
 * - {@link validateWebhookPayload}: a webhook body, and its `result` against the task's schema.
 * - {@link validateErrorDetails}: an error's `details` against the recommended shape (advisory).
 *
 * Every function validates, and returns, a pollution-safe copy of its input (`toSafeJson` of
 * `@adcp-wire/security`), and reports failures as AdCP `issues[]` entries whose messages never
 * quote the data. More in [docs/validation.md](../../docs/validation.md).
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Prototype Pollution.
 *
 * @example Validating before merging into application state
 * ```ts
 * import { validateTaskResponse } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * const extracted = JSON.parse(
 *   '{"__proto__":{"admin":true},"percentage":25,"current_step":"search"}',
 * );
 * const result = await validateTaskResponse("get_products", extracted, { status: "working" });
 * ok(result.valid);
 * deepStrictEqual(result.value, { percentage: 25, current_step: "search" });
 * const state = { ...(result.value as object) } as { admin?: boolean };
 * strictEqual(state.admin, undefined);
 * ```
 *
 * @module
 */
export * from "./external_types.ts";
export * from "./validate_adcp_error_schema.ts";
export * from "./validate_error_details.ts";
export * from "./validate_task_response.ts";
export * from "./validate_webhook_payload.ts";
export * from "./validation_result.ts";
