import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import {
  ERROR_DETAILS_SCHEMA_BY_CODE,
  ERROR_DETAILS_VALIDATORS,
} from "@adcp-wire/schemas/validators";
import { toSafeJson } from "@adcp-wire/security";
import { validateErrorDetails } from "./mod.ts";
import { pinnedAtLeast, readSchema, schemaExample } from "./_test_util.ts";

Deno.test(
  "validateErrorDetails() maps each standard code to the schema named after it",
  async () => {
    const codes = (await readSchema("enums/error-code.json")).enum as string[];
    for (const [code, schema] of ERROR_DETAILS_SCHEMA_BY_CODE) {
      ok(codes.includes(code), code);
      strictEqual(schema, `error-details/${code.toLowerCase().replace(/_/g, "-")}.json`);
    }
    strictEqual(
      ERROR_DETAILS_SCHEMA_BY_CODE.get("RATE_LIMITED"),
      "error-details/rate-limited.json",
    );
    strictEqual(
      ERROR_DETAILS_SCHEMA_BY_CODE.get("CREATIVE_REJECTED"),
      "error-details/creative-rejected.json",
    );
    strictEqual(ERROR_DETAILS_SCHEMA_BY_CODE.has("PERMISSION_DENIED"), false);
    ok(ERROR_DETAILS_VALIDATORS.has("error-details/agent-permission-denied.json"));
  },
);

Deno.test(
  "validateErrorDetails() accepts every upstream details example with its schema",
  async () => {
    let seen = 0;
    for (const schema of ERROR_DETAILS_VALIDATORS.keys()) {
      const doc = await readSchema(schema);
      const examples = (doc.examples as unknown[] | undefined) ?? [];
      for (let i = 0; i < examples.length; i++) {
        const example = await schemaExample(schema, i);
        const result = await validateErrorDetails("ANY", example, { schema });
        ok(
          result.valid,
          `${schema} example ${i}: ${JSON.stringify(!result.valid && result.issues)}`,
        );
        deepStrictEqual(result.schemas, [schema]);
        seen++;
      }
    }
    ok(seen >= 5, `only ${seen} examples`);
  },
);

Deno.test("validateErrorDetails() reports the first mismatch of a recommended shape", async () => {
  const result = await validateErrorDetails("RATE_LIMITED", { limit: 100, scope: "planet" });
  ok(!result.valid);
  strictEqual(result.issues[0]?.pointer, "/scope");
  strictEqual(result.issues[0]?.keyword, "enum");
  deepStrictEqual(result.schemas, ["error-details/rate-limited.json"]);
});

Deno.test(
  "validateErrorDetails() never fails on unknown keys, even of a closed shape",
  async () => {
    const schema = "error-details/agent-permission-denied.json";
    const closed = await readSchema(schema);
    strictEqual(closed.additionalProperties, false);
    const details = { scope: "agent", reason: "sandbox_only", rate_card: "leaked" };
    const result = await validateErrorDetails("PERMISSION_DENIED", details, { schema });
    ok(result.valid);
    deepStrictEqual(result.value, details);
    const wrong = await validateErrorDetails("PERMISSION_DENIED", { scope: "agent", reason: "x" }, {
      schema,
    });
    ok(!wrong.valid);
    strictEqual(wrong.issues[0]?.pointer, "/reason");
    strictEqual(wrong.issues[0]?.keyword, "enum");
  },
);

Deno.test(
  "validateErrorDetails() passes codes without a details schema, whatever the details",
  async () => {
    for (
      const [code, details] of [
        ["X_ACME_FLOOR", { floor: 2 }],
        ["INTERNAL_ERROR", "free text"],
        ["__proto__", { a: 1 }],
        ["toString", null],
      ] as const
    ) {
      const result = await validateErrorDetails(code, details);
      ok(result.valid, code);
      deepStrictEqual(result.value, details);
      deepStrictEqual(result.schemas, []);
    }
  },
);

Deno.test("validateErrorDetails() checks absent details as an empty object", async () => {
  // Every code with a details schema, in every AdCP version: absent details are judged as {}.
  let required = 0;
  for (const code of ERROR_DETAILS_SCHEMA_BY_CODE.keys()) {
    const [absent, empty] = [
      await validateErrorDetails(code, undefined),
      await validateErrorDetails(code, {}),
    ];
    strictEqual(absent.valid, empty.valid, code);
    if (!absent.valid && !empty.valid) {
      deepStrictEqual(absent.issues, empty.issues, code);
      required++;
    }
  }
  ok(required > 0, "some details schema requires a property");
  // ACCOUNT_MOVED and its schema, which requires current_account, exist from AdCP 3.2.0-beta.5 on.
  if (pinnedAtLeast("3.2.0-beta.5")) {
    const moved = await validateErrorDetails("ACCOUNT_MOVED", undefined);
    ok(!moved.valid);
    deepStrictEqual(moved.issues, [{
      pointer: "/current_account",
      message: 'Missing required property "current_account"',
      keyword: "required",
    }]);
  } else {
    ok(!ERROR_DETAILS_SCHEMA_BY_CODE.has("ACCOUNT_MOVED"));
  }
  const limited = await validateErrorDetails("RATE_LIMITED", undefined);
  ok(limited.valid);
  strictEqual(limited.value, undefined);
  deepStrictEqual(limited.schemas, ["error-details/rate-limited.json"]);
});

Deno.test(
  "validateErrorDetails() rejects non-object details for a code with a schema",
  async () => {
    const result = await validateErrorDetails("BUDGET_TOO_LOW", ["500"]);
    ok(!result.valid);
    deepStrictEqual(result.issues, [{
      pointer: "",
      message: "Expected type object",
      keyword: "type",
    }]);
  },
);

Deno.test("validateErrorDetails() checks its arguments", async () => {
  await rejects(
    validateErrorDetails("CREATIVE_REJECTED", {}, { schema: "error-details/nope.json" }),
    (e: unknown) =>
      e instanceof TypeError &&
      e.message.startsWith(
        "Cannot validate error details as 'options.schema' must be an error-details schema of AdCP",
      ) &&
      e.message.includes(`(${[...ERROR_DETAILS_VALIDATORS.keys()].join(", ")})`) &&
      e.message.endsWith('): current value is "error-details/nope.json"'),
  );
  await rejects(
    validateErrorDetails(5 as never, {}),
    /^TypeError: Cannot validate error details as 'code' must be a string: current value is 5$/,
  );
  await rejects(validateErrorDetails("C", {}, { maxIssues: -1 }), RangeError);
});

Deno.test(
  "validateErrorDetails() returns a safe copy or issues for any details (property)",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ERROR_DETAILS_SCHEMA_BY_CODE.keys(), "X_VENDOR_CODE"),
        fc.jsonValue({ maxDepth: 4 }),
        async (code, details) => {
          const result = await validateErrorDetails(code, details);
          if (result.valid) deepStrictEqual(result.value, toSafeJson(details));
          else ok(result.issues.length >= 1 && result.schemas.length === 1);
        },
      ),
      { numRuns: 200 },
    );
  },
);

Deno.test(
  "validateErrorDetails() checks uniqueItems of many distinct objects in linear time",
  async () => {
    // Ajv's own uniqueItems compares every pair of object items (32,000 took some 20 s); the
    // generated one hashes.
    const actions = Array.from({ length: 30_000 }, (_, i) => ({
      action: "pause",
      mode: "self_serve",
      terms_ref: `terms_${i}`,
    }));
    const details = {
      attempted_action: "cancel",
      reason: "wrong_status",
      currently_available_actions: actions,
    };
    const start = performance.now();
    const result = await validateErrorDetails("ACTION_NOT_ALLOWED", details);
    const ms = performance.now() - start;
    ok(result.valid, JSON.stringify(!result.valid && result.issues));
    ok(ms < 3000, `${ms} ms`);

    actions.push({ ...actions[17]! });
    const dup = await validateErrorDetails("ACTION_NOT_ALLOWED", details);
    ok(!dup.valid);
    deepStrictEqual(dup.issues, [{
      pointer: "/currently_available_actions",
      message: "Expected unique items (items 17 and 30000 are equal)",
      keyword: "uniqueItems",
    }]);
  },
);

Deno.test(
  "validateErrorDetails() checks null details as a value, not as absent details",
  async () => {
    for (const code of ["RATE_LIMITED", "BUDGET_TOO_LOW"]) {
      const result = await validateErrorDetails(code, null);
      ok(!result.valid, code);
      strictEqual(result.issues[0]?.keyword, "type");
    }
    strictEqual((await validateErrorDetails("RATE_LIMITED", undefined)).valid, true);
  },
);
