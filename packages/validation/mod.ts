/**
 * Schema validation of AdCP payloads for the pinned AdCP version, with precompiled validators: nothing is compiled
 * or evaluated at run time (it works under a strict Content Security Policy), and each task's validator is loaded
 * by dynamic import on first use.
 *
 * - {@linkcode validateTaskResponse} (or {@linkcode loadTaskValidator} for a synchronous validator): a task payload
 *   against its response schema, or its interim schema for an interim status. Implements "Validate against the
 *   expected task response schema before merging" (MCP Response Extraction 3.3.0-beta.0, Security Considerations,
 *   Prototype Pollution).
 * - {@linkcode validateAdcpErrorSchema}: an error object against `core/error.json`, strictly.
 * - {@linkcode validateWebhookPayload}: a webhook body against `core/mcp-webhook-payload.json`, and its `result`
 *   against the task's own schema.
 * - {@linkcode validateErrorDetails}: an error's `details` against the recommended shape for its code (advisory).
 *
 * Every function validates, and returns, a pollution-safe copy of its input (`toSafeJson` of
 * `@adcp-wire/security`), and reports failures as AdCP `issues[]` entries (`pointer`, `message`, `keyword`) whose
 * messages never quote the data.
 *
 * @example Validating before merging into application state
 * ```ts
 * import { validateTaskResponse } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * const extracted = JSON.parse('{"__proto__":{"admin":true},"percentage":25,"current_step":"search"}');
 * const result = await validateTaskResponse("get_products", extracted, { status: "working" });
 * ok(result.valid);
 * deepStrictEqual(result.value, { percentage: 25, current_step: "search" });
 * const state = { ...(result.value as object) } as { admin?: boolean };
 * strictEqual(state.admin, undefined);
 *
 * const bad = await validateTaskResponse("get_products", { percentage: "half" }, { status: "working" });
 * ok(!bad.valid);
 * deepStrictEqual(bad.issues, [
 *   { pointer: "/percentage", message: "Expected type number", keyword: "type" },
 * ]);
 * ```
 *
 * @module
 */
export * from "./validate_adcp_error_schema.ts";
export * from "./validate_error_details.ts";
export * from "./validate_task_response.ts";
export * from "./validate_webhook_payload.ts";
export * from "./validation_result.ts";
