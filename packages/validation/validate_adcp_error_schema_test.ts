import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { toSafeJson } from "@adcp-wire/security";
import { validateAdcpErrorSchema } from "./mod.ts";

Deno.test(
  "validateAdcpErrorSchema() accepts a full error, unknown codes and extra keys",
  async () => {
    const error = {
      code: "VALIDATION_ERROR",
      message: "Request failed schema validation",
      field: "packages[0].budget",
      suggestion: "Send a positive budget",
      retry_after: 2.5,
      recovery: "correctable",
      source: "producer",
      issues: [{ pointer: "/packages/0/budget", message: "Must be positive", keyword: "minimum" }],
      details: { accepted_values: [1, 2] },
      x_vendor_note: "extra keys are allowed",
    };
    const result = await validateAdcpErrorSchema(error);
    ok(result.valid);
    deepStrictEqual(result.value, error);
    deepStrictEqual(result.schemas, ["core/error.json"]);
    ok((await validateAdcpErrorSchema({ code: "X_ACME_NEW_CODE", message: "m" })).valid);
  },
);

Deno.test(
  "validateAdcpErrorSchema() rejects what core/error.json forbids, at the exact field",
  async () => {
    const cases: [unknown, string, string][] = [
      [{ message: "no code" }, "/code", "required"],
      [{ code: "RATE_LIMITED" }, "/message", "required"],
      [{ code: "C".repeat(65), message: "m" }, "/code", "maxLength"],
      [{ code: "RATE_LIMITED", message: "m", retry_after: 3601 }, "/retry_after", "maximum"],
      [{ code: "RATE_LIMITED", message: "m", recovery: "later" }, "/recovery", "enum"],
      [
        { code: "C", message: "m", issues: [{ pointer: "/a", message: "x" }] },
        "/issues/0/keyword",
        "required",
      ],
      [{ code: "C", message: "m", details: [] }, "/details", "type"],
      ["RATE_LIMITED", "", "type"],
    ];
    for (const [value, pointer, keyword] of cases) {
      const result = await validateAdcpErrorSchema(value);
      ok(!result.valid, JSON.stringify(value));
      strictEqual(result.issues[0]?.pointer, pointer, JSON.stringify(value));
      strictEqual(result.issues[0]?.keyword, keyword, JSON.stringify(value));
    }
  },
);

Deno.test("validateAdcpErrorSchema() drops dangerous keys from the copy it returns", async () => {
  const raw = JSON.parse('{"code":"C","message":"m","details":{"__proto__":{"x":1},"ok":true}}');
  const result = await validateAdcpErrorSchema(raw);
  ok(result.valid);
  deepStrictEqual(result.value, { code: "C", message: "m", details: { ok: true } });
});

Deno.test("validateAdcpErrorSchema() checks its options", async () => {
  await rejects(validateAdcpErrorSchema({}, { maxIssues: 1.5 }), RangeError);
  await rejects(validateAdcpErrorSchema({}, "x" as never), TypeError);
});

Deno.test(
  "validateAdcpErrorSchema() returns a safe copy or bounded issues for any JSON (property)",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }),
          fc.record({ code: fc.string(), message: fc.string() }, { requiredKeys: [] }),
        ),
        async (value) => {
          const result = await validateAdcpErrorSchema(value);
          if (result.valid) deepStrictEqual(result.value, toSafeJson(value));
          else {
            ok(result.issues.length >= 1);
            for (const i of result.issues) ok(i.message.length <= 300 && i.pointer.length <= 1024);
          }
        },
      ),
      { numRuns: 200 },
    );
  },
);
