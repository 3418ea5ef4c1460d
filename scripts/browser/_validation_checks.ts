/**
 * Checks of `@adcp-wire/validation` for the in-page runner: its precompiled validators, loaded by
 * dynamic import, each function's valid and invalid cases (from their doc examples) and the
 * pollution-safe copy. The vector suites do not cover this package.
 *
 * @module
 */
import {
  validateAdcpErrorSchema,
  validateErrorDetails,
  validateTaskResponse,
  validateWebhookPayload,
} from "@adcp-wire/validation";
import { type Check, expectEqual } from "./_checks.ts";

/** The checks. */
export const VALIDATION_CHECKS: readonly Check[] = [
  {
    name: "validateTaskResponse() accepts a complete get_products response",
    async run() {
      const value = { status: "completed", cache_scope: "public", products: [] };
      expectEqual(await validateTaskResponse("get_products", value), {
        valid: true,
        value,
        schemas: ["media-buy/get-products-response.json"],
      }, "result");
    },
  },
  {
    name: "validateTaskResponse() reports a missing required property by pointer",
    async run() {
      const result = await validateTaskResponse("get_products", {
        status: "completed",
        products: [],
      });
      expectEqual(result.valid, false, "valid");
      if (!result.valid) {
        expectEqual(
          result.issues.map((issue) => issue.pointer),
          ["/cache_scope"],
          "pointers",
        );
      }
    },
  },
  {
    name: "validateTaskResponse() validates an interim status and drops a __proto__ key",
    async run() {
      const extracted = JSON.parse(
        '{"__proto__":{"admin":true},"percentage":25,"current_step":"search"}',
      );
      const result = await validateTaskResponse("get_products", extracted, { status: "working" });
      expectEqual(result.valid, true, "valid");
      if (result.valid) {
        expectEqual(result.value, { percentage: 25, current_step: "search" }, "value");
        expectEqual(
          ({ ...(result.value as object) } as { admin?: boolean }).admin,
          undefined,
          "admin",
        );
      }
    },
  },
  {
    name: "validateAdcpErrorSchema() accepts a vendor code and refuses retry_after 0",
    async run() {
      const good = await validateAdcpErrorSchema({ code: "X_ACME_FLOOR", message: "Below floor" });
      expectEqual(good.valid, true, "valid");
      const bad = await validateAdcpErrorSchema({
        code: "RATE_LIMITED",
        message: "Wait",
        retry_after: 0,
      });
      expectEqual(bad.valid ? [] : bad.issues, [
        { pointer: "/retry_after", message: "Expected a number >= 1", keyword: "minimum" },
      ], "issues");
    },
  },
  {
    name: "validateWebhookPayload() checks the result against the task's interim schema",
    async run() {
      const result = await validateWebhookPayload({
        idempotency_key: "whk_01HW9D2T3VXQ5M7K9N1P3R5S7U",
        operation_id: "op_1",
        task_id: "task_1",
        task_type: "get_products",
        status: "working",
        timestamp: "2026-01-22T10:15:00Z",
        result: { percentage: 140 },
      });
      expectEqual(result.valid ? [] : result.issues.map((issue) => issue.pointer), [
        "/result/percentage",
      ], "pointers");
    },
  },
  {
    name: "validateErrorDetails() checks a standard code's details and skips a vendor code's",
    async run() {
      const good = await validateErrorDetails("BUDGET_TOO_LOW", { minimum_budget: 500 });
      expectEqual(
        [good.valid, good.schemas],
        [true, ["error-details/budget-too-low.json"]],
        "good",
      );
      const bad = await validateErrorDetails("BUDGET_TOO_LOW", { minimum_budget: "500" });
      expectEqual(bad.valid ? undefined : bad.issues[0]?.message, "Expected type number", "bad");
      expectEqual((await validateErrorDetails("X_ACME_FLOOR", { floor: 2 })).schemas, [], "vendor");
    },
  },
];
