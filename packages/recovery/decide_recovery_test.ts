import { validateAdcpError } from "@adcp-wire/core";
import { lookupErrorCode, STANDARD_ERROR_CODES } from "@adcp-wire/schemas";
import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { backoffBounds } from "./backoff.ts";
import { classifyRecovery } from "./classify_recovery.ts";
import { decideRecovery, type RecoveryContext } from "./decide_recovery.ts";
import { createRetryPolicy } from "./retry_policy.ts";

const fixed = createRetryPolicy({ random: () => 0.5 });
const first: RecoveryContext = { attempt: 1, elapsedSeconds: 0, policy: fixed };

Deno.test("decideRecovery() gives generic_error when no structured error was found", () => {
  for (
    const e of [null, undefined, {}, { code: "" }, { code: 429 }, { code: "X".repeat(65) }, [], "x"]
  ) {
    deepStrictEqual(decideRecovery(e as never), { action: "generic_error" }, JSON.stringify(e));
    deepStrictEqual(decideRecovery(e as never, first), { action: "generic_error" });
  }
  const inherited = Object.create({ code: "RATE_LIMITED" });
  deepStrictEqual(decideRecovery(inherited), { action: "generic_error" });
});

Deno.test(
  "decideRecovery() treats an error over 4096 bytes of JSON as no structured error, as " +
    "core does",
  () => {
    // Transport Error Mapping, "Client Library Requirements" 3 and "Buyer Agent Requirements": an
    // extracted adcp_error whose serialization passes 4096 bytes is discarded, whatever its code.
    const base = { code: "RATE_LIMITED", recovery: "transient", retry_after: 5, message: "" };
    const room = 4096 - JSON.stringify(base).length;
    const atCap = { ...base, message: "a".repeat(room) };
    const overCap = { ...base, message: "a".repeat(room + 1) };
    strictEqual(validateAdcpError(atCap), atCap);
    strictEqual(validateAdcpError(overCap), null);
    const retry = { action: "retry", delaySeconds: 5, delaySource: "retry_after" };
    deepStrictEqual(decideRecovery(atCap, first), retry);
    deepStrictEqual(decideRecovery(overCap, first), { action: "generic_error" });
    deepStrictEqual(decideRecovery(overCap), { action: "generic_error" });
    // UTF-8 bytes, not UTF-16 units: 1,400 euro signs are 4,200 bytes.
    const euros = { code: "ACCOUNT_SUSPENDED", message: "\u20ac".repeat(1400) };
    deepStrictEqual(decideRecovery(euros, first), { action: "generic_error" });
    // A value JSON.stringify refuses is no JSON error object either.
    const bigint = { code: "RATE_LIMITED", details: 1n };
    deepStrictEqual(decideRecovery(bigint, first), { action: "generic_error" });
    const cyclic: Record<string, unknown> = { code: "RATE_LIMITED" };
    cyclic.self = cyclic;
    deepStrictEqual(decideRecovery(cyclic as { code: string }, first), { action: "generic_error" });
  },
);

Deno.test(
  "decideRecovery() finds a structured error exactly when validateAdcpError does (property)",
  () => {
    const big = fc.string({ minLength: 4000, maxLength: 4200 });
    const value = fc.oneof(
      errorArb,
      fc.tuple(codeArb, big, fc.constantFrom("a", "\u20ac", "\u{1F600}")).map((
        [code, message, unit],
      ) => ({ code, recovery: "transient", message: message + unit.repeat(30) })),
      fc.anything(),
    );
    fc.assert(
      fc.property(value, (error) => {
        const d = decideRecovery(error as never, first);
        strictEqual(d.action === "generic_error", validateAdcpError(error) === null);
      }),
      { numRuns: 500 },
    );
  },
);

Deno.test("decideRecovery() accepts a code of exactly 64 characters", () => {
  deepStrictEqual(decideRecovery({ code: "X".repeat(64) }, first), {
    action: "escalate_to_human",
    reason: "terminal",
  });
});

Deno.test("decideRecovery() retries a transient error after its normalized retry_after", () => {
  const cases: [unknown, number][] = [
    [5, 5],
    [2.2, 3],
    [0.0001, 1],
    [0, 1],
    [-0, 1],
    [-5, 1],
    [299.5, 300],
  ];
  for (const [retry_after, delaySeconds] of cases) {
    deepStrictEqual(
      decideRecovery({ code: "RATE_LIMITED", recovery: "transient", retry_after }, first),
      { action: "retry", delaySeconds, delaySource: "retry_after" },
      String(retry_after),
    );
  }
});

Deno.test("decideRecovery() clamps retry_after to 3600 and then applies the time budget", () => {
  const error = { code: "RATE_LIMITED", recovery: "transient", retry_after: 86400 };
  deepStrictEqual(decideRecovery(error, first), {
    action: "escalate_to_human",
    reason: "retry_budget_exhausted",
    limit: "max_elapsed_seconds",
    delaySeconds: 3600,
    delaySource: "retry_after",
  });
  deepStrictEqual(
    decideRecovery(error, { attempt: 1, elapsedSeconds: 0, policy: { maxElapsedSeconds: 3600 } }),
    { action: "retry", delaySeconds: 3600, delaySource: "retry_after" },
  );
});

Deno.test(
  "decideRecovery() without context checks no budget (upstream mcp-extreme-retry-after)",
  () => {
    deepStrictEqual(
      decideRecovery({ code: "RATE_LIMITED", recovery: "transient", retry_after: 86400 }),
      { action: "retry", delaySeconds: 3600, delaySource: "retry_after" },
    );
    const backoff = decideRecovery({ code: "SERVICE_UNAVAILABLE", recovery: "transient" });
    strictEqual(backoff.action, "retry");
    if (backoff.action === "retry") {
      strictEqual(backoff.delaySource, "backoff");
      const { min, max } = backoffBounds(1);
      ok(backoff.delaySeconds >= min && backoff.delaySeconds <= max);
    }
  },
);

Deno.test("decideRecovery() falls back to backoff when retry_after is unusable", () => {
  for (const retry_after of [undefined, null, "5", "NaN", Number.NaN, Infinity, -Infinity, true]) {
    const error: Record<string, unknown> & { code: string } = {
      code: "SERVICE_UNAVAILABLE",
      recovery: "transient",
    };
    if (retry_after !== undefined) error.retry_after = retry_after;
    deepStrictEqual(
      decideRecovery(error, first),
      { action: "retry", delaySeconds: 2, delaySource: "backoff" },
      String(retry_after),
    );
  }
});

Deno.test("decideRecovery() backs off by attempt: 2, 4, 8 s with r = 0.5", () => {
  const error = { code: "SERVICE_UNAVAILABLE" };
  for (const [attempt, delaySeconds] of [[1, 2], [2, 4], [3, 8]]) {
    deepStrictEqual(
      decideRecovery(error, { attempt: attempt!, elapsedSeconds: 10, policy: fixed }),
      {
        action: "retry",
        delaySeconds,
        delaySource: "backoff",
      },
    );
  }
});

Deno.test("decideRecovery() escalates the transient failure of attempt maxRetries + 1", () => {
  const error = { code: "RATE_LIMITED", recovery: "transient", retry_after: 1 };
  let drawn = 0;
  const policy = {
    random: () => {
      drawn++;
      return 0.5;
    },
  };
  deepStrictEqual(decideRecovery(error, { attempt: 4, elapsedSeconds: 0, policy }), {
    action: "escalate_to_human",
    reason: "retry_budget_exhausted",
    limit: "max_retries",
  });
  deepStrictEqual(
    decideRecovery({ code: "SERVICE_UNAVAILABLE" }, {
      attempt: 2,
      elapsedSeconds: 0,
      policy: { ...policy, maxRetries: 1 },
    }),
    {
      action: "escalate_to_human",
      reason: "retry_budget_exhausted",
      limit: "max_retries",
    },
  );
  strictEqual(drawn, 0); // no delay is drawn once the count is spent
  strictEqual(
    decideRecovery(error, { attempt: 1, elapsedSeconds: 0, policy: { maxRetries: 0 } }).action,
    "escalate_to_human",
  );
});

Deno.test("decideRecovery() allows a retry that ends exactly at the time budget", () => {
  deepStrictEqual(
    decideRecovery({ code: "RATE_LIMITED", retry_after: 5 }, { attempt: 2, elapsedSeconds: 295 }),
    { action: "retry", delaySeconds: 5, delaySource: "retry_after" },
  );
  deepStrictEqual(
    decideRecovery({ code: "SERVICE_UNAVAILABLE" }, {
      attempt: 1,
      elapsedSeconds: 298,
      policy: fixed,
    }),
    { action: "retry", delaySeconds: 2, delaySource: "backoff" },
  );
});

Deno.test("decideRecovery() escalates a retry that would end past the time budget", () => {
  deepStrictEqual(
    decideRecovery({ code: "RATE_LIMITED", retry_after: 5 }, { attempt: 2, elapsedSeconds: 295.5 }),
    {
      action: "escalate_to_human",
      reason: "retry_budget_exhausted",
      limit: "max_elapsed_seconds",
      delaySeconds: 5,
      delaySource: "retry_after",
    },
  );
  deepStrictEqual(
    decideRecovery({ code: "SERVICE_UNAVAILABLE" }, {
      attempt: 1,
      elapsedSeconds: 298.5,
      policy: fixed,
    }),
    {
      action: "escalate_to_human",
      reason: "retry_budget_exhausted",
      limit: "max_elapsed_seconds",
      delaySeconds: 2,
      delaySource: "backoff",
    },
  );
});

Deno.test("decideRecovery() checks the time budget with the jittered delay", () => {
  const error = { code: "SERVICE_UNAVAILABLE" };
  const at = (r: number) =>
    decideRecovery(error, { attempt: 1, elapsedSeconds: 298, policy: { random: () => r } });
  // r = 0 → 1.5 s, within; r = 0.75 → 2.25 s, past 300.
  strictEqual(at(0).action, "retry");
  deepStrictEqual(at(0.75), {
    action: "escalate_to_human",
    reason: "retry_budget_exhausted",
    limit: "max_elapsed_seconds",
    delaySeconds: 2.25,
    delaySource: "backoff",
  });
});

Deno.test(
  "decideRecovery() surfaces correctable errors with string field and suggestion only",
  () => {
    deepStrictEqual(
      decideRecovery(
        {
          code: "BUDGET_TOO_LOW",
          recovery: "correctable",
          field: "budget.total",
          suggestion: "Increase budget",
          retry_after: 5,
        },
        first,
      ),
      {
        action: "surface_to_caller",
        field: "budget.total",
        suggestion: "Increase budget",
      },
    );
    const bare = decideRecovery({
      code: "X_ACME_FIX_IT",
      recovery: "correctable",
      field: 3,
      suggestion: null,
    });
    deepStrictEqual(bare, { action: "surface_to_caller" });
    strictEqual(Object.hasOwn(bare, "field"), false);
    strictEqual(Object.hasOwn(bare, "suggestion"), false);
    // Inherited values are not the seller's.
    const inherited = Object.assign(Object.create({ field: "x", suggestion: "y" }), {
      code: "BUDGET_TOO_LOW",
    });
    deepStrictEqual(decideRecovery(inherited), {
      action: "surface_to_caller",
    });
  },
);

Deno.test("decideRecovery() never retries a correctable error, even on attempt 1", () => {
  strictEqual(
    decideRecovery({ code: "BUDGET_TOO_LOW", retry_after: 1 }, first).action,
    "surface_to_caller",
  );
  strictEqual(
    decideRecovery({ code: "RATE_LIMITED", recovery: "correctable" }, first).action,
    "surface_to_caller",
  );
});

Deno.test(
  "decideRecovery() escalates terminal errors, unknown recovery values and unknown codes",
  () => {
    for (
      const error of [
        { code: "ACCOUNT_SUSPENDED", recovery: "terminal", retry_after: 1 },
        { code: "ACCOUNT_SUSPENDED" },
        { code: "RATE_LIMITED", recovery: "deferred" },
        { code: "RATE_LIMITED", recovery: null },
        { code: "X_VENDOR_UNKNOWN" },
      ]
    ) {
      deepStrictEqual(decideRecovery(error, first), {
        action: "escalate_to_human",
        reason: "terminal",
      }, JSON.stringify(error));
    }
  },
);

Deno.test("decideRecovery() applies the policy's unknownCodeRecovery", () => {
  const unknown = { code: "X_VENDOR_UNKNOWN" };
  deepStrictEqual(
    decideRecovery(unknown, {
      ...first,
      policy: { unknownCodeRecovery: "transient", random: () => 0.5 },
    }),
    { action: "retry", delaySeconds: 2, delaySource: "backoff" },
  );
  deepStrictEqual(
    decideRecovery(unknown, { ...first, policy: { unknownCodeRecovery: "correctable" } }),
    { action: "surface_to_caller" },
  );
  // A transient default stays bounded by the budget (error-handling, "Retry Logic").
  strictEqual(
    decideRecovery(unknown, {
      attempt: 4,
      elapsedSeconds: 0,
      policy: { unknownCodeRecovery: "transient" },
    })
      .action,
    "escalate_to_human",
  );
});

Deno.test("decideRecovery() rejects a bad context with TypeError or RangeError", () => {
  const e = { code: "RATE_LIMITED" };
  throws(() => decideRecovery(e, null as never), TypeError);
  throws(() => decideRecovery(e, { elapsedSeconds: 0 } as never), TypeError);
  throws(() => decideRecovery(e, { attempt: "1", elapsedSeconds: 0 } as never), TypeError);
  throws(() => decideRecovery(e, { attempt: 0, elapsedSeconds: 0 }), RangeError);
  throws(() => decideRecovery(e, { attempt: 1.5, elapsedSeconds: 0 }), RangeError);
  throws(() => decideRecovery(e, { attempt: 1, elapsedSeconds: -1 }), RangeError);
  throws(() => decideRecovery(e, { attempt: 1, elapsedSeconds: Number.NaN }), RangeError);
  throws(() => decideRecovery(e, { attempt: 1, elapsedSeconds: Infinity }), RangeError);
  throws(
    () => decideRecovery(e, { attempt: 1, elapsedSeconds: 0, policy: { maxRetries: -1 } }),
    RangeError,
  );
  throws(
    () => decideRecovery(e, { attempt: 1, elapsedSeconds: 0, policy: null as never }),
    (err: unknown) =>
      err instanceof TypeError &&
      err.message === "Cannot decide recovery as 'policy' must be an object: current value is null",
  );
  // Context is checked even when there is no structured error.
  throws(() => decideRecovery(null, { attempt: 0, elapsedSeconds: 0 }), RangeError);
});

Deno.test(
  "decideRecovery() ignores message, suggestion and details when choosing (property)",
  () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STANDARD_ERROR_CODES, "X_ACME_E2"),
        fc.jsonValue(),
        fc.jsonValue(),
        fc.jsonValue(),
        (code, message, suggestion, details) => {
          const bare = decideRecovery({ code }, first);
          const decorated = decideRecovery({ code, message, suggestion, details }, first);
          strictEqual(decorated.action, bare.action);
          if (decorated.action === "retry" && bare.action === "retry") {
            strictEqual(decorated.delaySeconds, bare.delaySeconds);
          }
        },
      ),
    );
  },
);

const codeArb = fc.oneof(
  fc.constantFrom(...STANDARD_ERROR_CODES),
  fc.stringMatching(/^X_[A-Z][A-Z0-9]{1,19}_[A-Z][A-Z0-9_]{1,39}$/),
  fc.string({ minLength: 1, maxLength: 64 }),
);
const anyValueArb = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom("transient", "correctable", "terminal"),
  fc.double(),
);
const errorArb = fc.record(
  {
    code: codeArb,
    recovery: anyValueArb,
    retry_after: anyValueArb,
    field: anyValueArb,
    suggestion: anyValueArb,
    message: anyValueArb,
    details: anyValueArb,
  },
  { requiredKeys: ["code"] },
).chain((e) => fc.dictionary(fc.string(), fc.jsonValue()).map((extra) => ({ ...extra, ...e })));

Deno.test(
  "decideRecovery() never throws on JSON errors and retries transient ones only (property)",
  () => {
    fc.assert(
      fc.property(
        errorArb,
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 0, max: 5 }),
        (error, attempt, elapsedSeconds, r, maxRetries) => {
          const policy = createRetryPolicy({ random: () => r, maxRetries });
          const d = decideRecovery(error, { attempt, elapsedSeconds, policy });
          const cls = classifyRecovery(error);
          strictEqual(d.action === "generic_error", validateAdcpError(error) === null);
          if (d.action === "generic_error") return;
          strictEqual(Object.hasOwn(d, "code"), false); // decisions never echo the code
          if (cls === "correctable") strictEqual(d.action, "surface_to_caller");
          if (cls === "terminal") {
            deepStrictEqual(d, { action: "escalate_to_human", reason: "terminal" });
          }
          if (cls === "transient") ok(d.action === "retry" || d.action === "escalate_to_human");
          if (d.action === "retry") {
            strictEqual(cls, "transient");
            ok(attempt <= maxRetries);
            ok(elapsedSeconds + d.delaySeconds <= policy.maxElapsedSeconds);
            if (d.delaySource === "retry_after") {
              ok(Number.isInteger(d.delaySeconds) && d.delaySeconds >= 1 && d.delaySeconds <= 3600);
            } else {
              const { min, max } = backoffBounds(attempt, policy);
              ok(d.delaySeconds >= min && d.delaySeconds <= max && d.delaySeconds <= 60);
            }
          }
          if (d.action === "surface_to_caller") {
            if (Object.hasOwn(d, "field")) strictEqual(typeof d.field, "string");
            if (Object.hasOwn(d, "suggestion")) strictEqual(typeof d.suggestion, "string");
          }
        },
      ),
    );
  },
);

Deno.test(
  "decideRecovery() classifies standard codes without recovery by the table (property)",
  () => {
    fc.assert(
      fc.property(fc.constantFrom(...STANDARD_ERROR_CODES), (code) => {
        const want = {
          transient: "retry",
          correctable: "surface_to_caller",
          terminal: "escalate_to_human",
        };
        strictEqual(decideRecovery({ code }, first).action, want[lookupErrorCode(code)!.recovery]);
      }),
    );
  },
);

Deno.test(
  "decideRecovery() never retries the codes the spec forbids to auto-retry, whatever " +
    "recovery says",
  () => {
    for (
      const code of [
        "CONFIGURATION_ERROR",
        "AGENT_SUSPENDED",
        "AGENT_BLOCKED",
        "CREDENTIAL_IN_ARGS",
      ]
    ) {
      ok(lookupErrorCode(code) !== undefined, `${code} is a standard code`);
      for (const context of [undefined, first]) {
        deepStrictEqual(
          decideRecovery({ code, recovery: "transient", retry_after: 1 }, context),
          { action: "escalate_to_human", reason: "terminal" },
          code,
        );
      }
      // The wire classification is still what the seller sent; only the action is overridden.
      strictEqual(classifyRecovery({ code, recovery: "transient" }), "transient");
      // A correctable claim is surfaced, which is not an automatic retry either.
      strictEqual(decideRecovery({ code, recovery: "correctable" }).action, "surface_to_caller");
    }
    // Neighbouring codes are untouched.
    strictEqual(
      decideRecovery({ code: "SERVICE_UNAVAILABLE", recovery: "transient" }).action,
      "retry",
    );
    strictEqual(
      decideRecovery({ code: "CONFIGURATION_ERRORS", recovery: "transient" }).action,
      "retry",
    );
  },
);
