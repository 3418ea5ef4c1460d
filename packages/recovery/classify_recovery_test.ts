import { ERROR_CODE_TABLE, lookupErrorCode, STANDARD_ERROR_CODES } from "@adcp-wire/schemas";
import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { classifyRecovery } from "./classify_recovery.ts";

Deno.test("classifyRecovery() returns a valid recovery value as is, whatever the code says", () => {
  strictEqual(classifyRecovery({ code: "RATE_LIMITED", recovery: "transient" }), "transient");
  strictEqual(classifyRecovery({ code: "RATE_LIMITED", recovery: "correctable" }), "correctable");
  strictEqual(classifyRecovery({ code: "RATE_LIMITED", recovery: "terminal" }), "terminal");
  strictEqual(classifyRecovery({ code: "ACCOUNT_SUSPENDED", recovery: "transient" }), "transient");
  strictEqual(classifyRecovery({ code: "X_ACME_THING", recovery: "correctable" }), "correctable");
});

Deno.test("classifyRecovery() treats any other present recovery value as terminal", () => {
  for (
    const recovery of [
      "deferred",
      "Transient",
      "TRANSIENT",
      " transient",
      "transient ",
      "",
      null,
      0,
      1,
      true,
      false,
      ["transient"],
      { transient: true },
    ]
  ) {
    strictEqual(
      classifyRecovery({ code: "RATE_LIMITED", recovery }),
      "terminal",
      `recovery ${JSON.stringify(recovery)}`,
    );
  }
});

Deno.test("classifyRecovery() counts recovery: null as present, hence terminal", () => {
  // RATE_LIMITED is transient in the code table; null does not fall back to it.
  strictEqual(classifyRecovery({ code: "RATE_LIMITED", recovery: null }), "terminal");
  strictEqual(classifyRecovery({ code: "BUDGET_TOO_LOW", recovery: null }), "terminal");
});

Deno.test("classifyRecovery() counts an own recovery holding undefined as absent", () => {
  strictEqual(classifyRecovery({ code: "RATE_LIMITED", recovery: undefined }), "transient");
});

Deno.test("classifyRecovery() falls back to the generated table for every standard code", () => {
  ok(STANDARD_ERROR_CODES.length > 0);
  for (const code of STANDARD_ERROR_CODES) {
    strictEqual(classifyRecovery({ code }), ERROR_CODE_TABLE[code].recovery, code);
  }
  // The table holds all three classes, so every branch of the fallback is exercised.
  deepStrictEqual(
    new Set(STANDARD_ERROR_CODES.map((c) => ERROR_CODE_TABLE[c].recovery)),
    new Set(["transient", "correctable", "terminal"]),
  );
});

Deno.test("classifyRecovery() classifies well-known codes as the spec's table does", () => {
  strictEqual(classifyRecovery({ code: "RATE_LIMITED" }), "transient");
  strictEqual(classifyRecovery({ code: "SERVICE_UNAVAILABLE" }), "transient");
  strictEqual(classifyRecovery({ code: "CONFLICT" }), "transient");
  strictEqual(classifyRecovery({ code: "BUDGET_TOO_LOW" }), "correctable");
  strictEqual(classifyRecovery({ code: "AUTH_REQUIRED" }), "correctable"); // deprecated alias
  strictEqual(classifyRecovery({ code: "ACCOUNT_SUSPENDED" }), "terminal");
  strictEqual(classifyRecovery({ code: "AUTH_INVALID" }), "terminal");
});

Deno.test(
  "classifyRecovery() treats an unknown code without recovery as terminal by default",
  () => {
    for (const code of ["X_VENDOR_UNKNOWN", "X_ACME_FLOOR_NOT_MET", "rate_limited", "NOPE", "x"]) {
      strictEqual(classifyRecovery({ code }), "terminal", code);
    }
  },
);

Deno.test("classifyRecovery() applies unknownCodeRecovery to unknown codes only", () => {
  for (const cls of ["transient", "correctable", "terminal"] as const) {
    const options = { unknownCodeRecovery: cls };
    strictEqual(classifyRecovery({ code: "X_ACME_FLOOR_NOT_MET" }, options), cls);
    strictEqual(classifyRecovery({ code: "BUDGET_TOO_LOW" }, options), "correctable");
    strictEqual(
      classifyRecovery({ code: "X_ACME_FLOOR_NOT_MET", recovery: "x" }, options),
      "terminal",
    );
  }
});

Deno.test("classifyRecovery() ignores inherited properties and own __proto__ keys", () => {
  for (const code of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    strictEqual(classifyRecovery({ code }), "terminal", code);
    strictEqual(classifyRecovery({ code }, { unknownCodeRecovery: "correctable" }), "correctable");
  }
  // An own "__proto__" key, as JSON.parse makes it, is data and not a recovery source.
  const parsed = JSON.parse('{"code":"X_ACME_E2","__proto__":{"recovery":"transient"}}');
  strictEqual(classifyRecovery(parsed), "terminal");
  // An inherited recovery is not the error's recovery: the code table decides.
  const inherited = Object.assign(Object.create({ recovery: "terminal" }), {
    code: "RATE_LIMITED",
  });
  strictEqual(classifyRecovery(inherited), "transient");
});

Deno.test("classifyRecovery() never reads message, suggestion or details", () => {
  const base = { code: "BUDGET_TOO_LOW" };
  strictEqual(
    classifyRecovery({
      ...base,
      message: "recovery: transient. Retry immediately.",
      suggestion: "transient",
      details: { recovery: "transient" },
    }),
    "correctable",
  );
});

Deno.test("classifyRecovery() rejects a bad unknownCodeRecovery with a TypeError naming it", () => {
  for (const bad of ["Transient", "retry", null, 1, {}]) {
    throws(
      () => classifyRecovery({ code: "X_A_B" }, { unknownCodeRecovery: bad as never }),
      (e: unknown) =>
        e instanceof TypeError &&
        e.message.startsWith(
          `Cannot classify recovery as 'unknownCodeRecovery' must be "transient", "correctable" ` +
            'or "terminal": current value is ',
        ),
    );
  }
  throws(() => classifyRecovery({ code: "X" }, 5 as never), TypeError);
});

Deno.test("classifyRecovery() rejects an error that is not an object with a TypeError", () => {
  for (const bad of [null, undefined, "RATE_LIMITED", 1, ["RATE_LIMITED"]]) {
    throws(() => classifyRecovery(bad as never), TypeError);
  }
});

Deno.test("classifyRecovery() follows recovery, then the table, then terminal (property)", () => {
  const recoveryArb = fc.option(
    fc.oneof(fc.constantFrom("transient", "correctable", "terminal"), fc.jsonValue()),
    { nil: undefined },
  );
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.oneof(
        fc.constantFrom(...STANDARD_ERROR_CODES),
        fc.string({ minLength: 1, maxLength: 64 }),
      ),
      recoveryArb,
      (fields, code, recovery) => {
        const error: Record<string, unknown> & { code: string } = { ...fields, code };
        if (recovery === undefined) delete error.recovery;
        else error.recovery = recovery;
        const cls = classifyRecovery(error);
        if (recovery === undefined) {
          strictEqual(cls, lookupErrorCode(code)?.recovery ?? "terminal");
        } else if (
          recovery === "transient" || recovery === "correctable" || recovery === "terminal"
        ) {
          strictEqual(cls, recovery);
        } else {
          strictEqual(cls, "terminal");
        }
      },
    ),
  );
});
