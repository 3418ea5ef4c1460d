import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { toSafeJson } from "@adcp-wire/security";
import { validateWebhookPayload } from "./mod.ts";
import { clone, readFixture, schemaExample } from "./_test_util.ts";

const ENVELOPE = {
  idempotency_key: "whk_01HW9D2T3VXQ5M7K9N1P3R5S7U",
  operation_id: "op_456",
  task_id: "task_456",
  task_type: "get_products",
  status: "completed",
  timestamp: "2026-01-22T10:30:00Z",
};

Deno.test(
  "validateWebhookPayload() accepts upstream's interim examples and checks them per task",
  async () => {
    for (
      const [index, schema] of [
        [0, "media-buy/create-media-buy-async-response-input-required.json"],
        [2, "media-buy/create-media-buy-async-response-working.json"],
      ] as const
    ) {
      const body = await schemaExample("core/mcp-webhook-payload.json", index);
      const result = await validateWebhookPayload(body);
      ok(result.valid, JSON.stringify(!result.valid && result.issues));
      deepStrictEqual(result.value, body);
      deepStrictEqual(result.schemas, ["core/mcp-webhook-payload.json", schema]);
    }
  },
);

Deno.test(
  "validateWebhookPayload() checks a completed result against the task's response schema",
  async () => {
    const products = await readFixture("get_products_response.json");
    const good = await validateWebhookPayload({ ...ENVELOPE, result: products });
    ok(good.valid, JSON.stringify(!good.valid && good.issues));
    deepStrictEqual(good.schemas, [
      "core/mcp-webhook-payload.json",
      "media-buy/get-products-response.json",
    ]);

    const broken = clone(products) as { products: { delivery_type: string }[] };
    broken.products[0]!.delivery_type = "sometimes";
    const bad = await validateWebhookPayload({ ...ENVELOPE, result: broken });
    ok(!bad.valid);
    deepStrictEqual(bad.issues[0], {
      pointer: "/result/products/0/delivery_type",
      message: 'Expected one of "guaranteed", "non_guaranteed"',
      keyword: "enum",
    });
  },
);

Deno.test(
  "validateWebhookPayload() rejects a bad envelope before looking at the result",
  async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...ENVELOPE, idempotency_key: "short" }, "/idempotency_key", "minLength"],
      [{ ...ENVELOPE, status: "done" }, "/status", "enum"],
      [{ ...ENVELOPE, task_type: "get_everything" }, "/task_type", "enum"],
      [{ ...ENVELOPE, timestamp: "yesterday" }, "/timestamp", "format"],
      [(({ operation_id: _, ...rest }) => rest)(ENVELOPE), "/operation_id", "required"],
    ];
    for (const [body, pointer, keyword] of cases) {
      const result = await validateWebhookPayload(body);
      ok(!result.valid, pointer);
      strictEqual(result.issues[0]?.pointer, pointer);
      strictEqual(result.issues[0]?.keyword, keyword);
      deepStrictEqual(result.schemas, ["core/mcp-webhook-payload.json"]);
    }
  },
);

Deno.test(
  "validateWebhookPayload() leaves results without a task schema to the envelope check",
  async () => {
    // The status "unknown" has no payload schema in any task; a body without result has nothing to
    // check.
    const body = { ...ENVELOPE, status: "unknown", result: { anything: true } };
    const result = await validateWebhookPayload(body);
    ok(result.valid);
    deepStrictEqual(result.schemas, ["core/mcp-webhook-payload.json"]);
    const noResult = await validateWebhookPayload({ ...ENVELOPE, status: "working" });
    ok(noResult.valid);
    deepStrictEqual(noResult.schemas, ["core/mcp-webhook-payload.json"]);
  },
);

Deno.test("validateWebhookPayload() returns the copy without dangerous keys", async () => {
  const raw = JSON.parse(
    JSON.stringify({ ...ENVELOPE, status: "working", result: { percentage: 5 } })
      .replace('{"percentage"', '{"__proto__":{"x":1},"percentage"'),
  );
  const result = await validateWebhookPayload(raw);
  ok(result.valid);
  deepStrictEqual(result.value.result, { percentage: 5 });
});

Deno.test("validateWebhookPayload() checks its options", async () => {
  await rejects(validateWebhookPayload(ENVELOPE, { maxIssues: 0 }), RangeError);
});

Deno.test(
  "validateWebhookPayload() returns a safe copy or issues for any result (property)",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("completed", "working", "input-required", "submitted", "failed"),
        fc.constantFrom("get_products", "create_media_buy", "sync_creatives", "get_signals"),
        fc.jsonValue({ maxDepth: 4 }),
        async (status, task_type, result) => {
          const body = { ...ENVELOPE, status, task_type, result };
          const r = await validateWebhookPayload(body);
          if (r.valid) deepStrictEqual(r.value, toSafeJson(body));
          else {
            ok(r.issues.length >= 1);
            for (const i of r.issues) ok(i.pointer === "" || i.pointer.startsWith("/"));
          }
        },
      ),
      { numRuns: 100 },
    );
  },
);
