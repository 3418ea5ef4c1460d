import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { validateAdcpError } from "@adcp-wire/core";
import { adcpErrorResult } from "./adcp_error_result.ts";
import { adcpFailedTask } from "./adcp_failed_task.ts";
import { adcpJsonRpcError } from "./adcp_jsonrpc_error.ts";
import {
  checkOutgoingAdcpError,
  type LeakKind,
  type OutgoingErrorOptions,
  type OutgoingErrorWarning,
} from "./check_outgoing_adcp_error.ts";

Deno.test("checkOutgoingAdcpError() refuses malformed codes, types and shapes", () => {
  const refused = (value: unknown) => {
    const checked = checkOutgoingAdcpError(value);
    ok(!checked.valid, "accepted a malformed error");
    return checked.issues.map((issue) => [issue.kind, issue.field]);
  };
  deepStrictEqual(refused("RATE_LIMITED"), [["shape", "error"]]);
  deepStrictEqual(refused({ code: "rate_limited", message: "x" }), [["code_format", "code"]]);
  deepStrictEqual(refused({ code: "X_A_FLOOR", message: "x" }), [["code_format", "code"]]);
  deepStrictEqual(refused({ code: "RATE_LIMITED" }), [["type", "message"]]);
  deepStrictEqual(refused({ code: "RATE_LIMITED", message: "x", recovery: "later" }), [[
    "type",
    "recovery",
  ]]);
  deepStrictEqual(refused({ code: "RATE_LIMITED", message: "x", retry_after: "5" }), [[
    "type",
    "retry_after",
  ]]);
  deepStrictEqual(refused({ code: "RATE_LIMITED", message: "x", retry_after: Infinity }), [[
    "type",
    "retry_after",
  ]]);
  deepStrictEqual(refused({ code: "RATE_LIMITED", message: "x", details: [1] }), [[
    "type",
    "details",
  ]]);
  deepStrictEqual(refused({ code: "RATE_LIMITED", message: "x", details: { n: 1n } }), [[
    "type",
    "details",
  ]]);
  deepStrictEqual(refused({ code: "RATE_LIMITED", message: "x", field: 3, suggestion: {} }), [
    ["type", "field"],
    ["type", "suggestion"],
  ]);
  deepStrictEqual(refused({ code: "RATE_LIMITED", message: "x", issues: {} }), [[
    "type",
    "issues",
  ]]);
});

Deno.test("checkOutgoingAdcpError() rounds up, then clamps retry_after, and warns", () => {
  const cases: [number, number][] = [[0.2, 1], [2.5, 3], [5, 5], [3600.1, 3600], [86_400, 3600], [
    -4,
    1,
  ]];
  for (const [raw, expected] of cases) {
    const warnings: OutgoingErrorWarning[] = [];
    const checked = checkOutgoingAdcpError(
      { code: "RATE_LIMITED", message: "x", recovery: "transient", retry_after: raw },
      { onWarning: (warning) => warnings.push(warning) },
    );
    ok(checked.valid);
    strictEqual(checked.error.retry_after, expected);
    deepStrictEqual(
      warnings.map((warning) => warning.kind),
      raw === expected ? [] : ["retry_after_adjusted"],
    );
  }
});

Deno.test(
  "checkOutgoingAdcpError() fills recovery from " +
    "the code table and warns on deprecated codes",
  () => {
    const checked = checkOutgoingAdcpError({ code: "AUTH_REQUIRED", message: "Sign in" });
    ok(checked.valid);
    strictEqual(checked.error.recovery, "correctable");
    deepStrictEqual(checked.warnings.map((warning) => warning.kind), [
      "deprecated_code",
      "recovery_filled",
    ]);
    // "Senders MUST populate error.recovery on every error": a vendor code has no table entry.
    const vendor = checkOutgoingAdcpError({ code: "X_ACME_FLOOR_NOT_MET", message: "Floor" });
    ok(!vendor.valid);
    deepStrictEqual(vendor.issues.map((issue) => [issue.kind, issue.field]), [[
      "type",
      "recovery",
    ]]);
    const given = checkOutgoingAdcpError({
      code: "X_ACME_FLOOR_NOT_MET",
      message: "Floor",
      recovery: "correctable",
    });
    ok(given.valid);
    deepStrictEqual(given.warnings, []);
  },
);

Deno.test(
  "checkOutgoingAdcpError() refuses a code that is " +
    "neither standard nor X_{VENDOR}_{CODE}, naming the rule",
  () => {
    // Seller-specific codes "MUST use the X_{VENDOR}_{CODE} form": a seller's own FLOOR_NOT_MET, or
    // a standard code newer than the pinned table, look the same: without the option, both are
    // refused.
    for (const code of ["PROPOSAL_SUPERSEDED", "FLOOR_NOT_MET"]) {
      const checked = checkOutgoingAdcpError({
        code,
        message: "Superseded",
        recovery: "correctable",
      });
      deepStrictEqual(checked, {
        valid: false,
        issues: [{
          kind: "code_format",
          field: "code",
          message: "Expected code to be a standard AdCP code or X_{VENDOR}_{CODE}, got " +
            `"${code}", which is in neither: seller-specific codes MUST use the ` +
            `X_{VENDOR}_{CODE} form, as X_{VENDOR}_${code} (set allowUnlistedCode for a ` +
            "standard code newer than this library)",
        }],
      });
    }
  },
);

Deno.test(
  "checkOutgoingAdcpError() lets a newer standard " +
    "code through with allowUnlistedCode, with a warning",
  () => {
    const newer = { code: "PROPOSAL_SUPERSEDED", message: "Superseded", recovery: "correctable" };
    for (const strict of [false, true]) {
      const checked = checkOutgoingAdcpError(newer, { allowUnlistedCode: true, strict });
      ok(checked.valid);
      strictEqual(checked.error.code, "PROPOSAL_SUPERSEDED");
      deepStrictEqual(checked.warnings.map((warning) => warning.kind), ["unlisted_code"]);
    }
    // Without recovery it cannot be sent: only the sender knows what the code means.
    const bare = checkOutgoingAdcpError({ code: "PROPOSAL_SUPERSEDED", message: "Superseded" }, {
      allowUnlistedCode: true,
    });
    ok(!bare.valid);
    deepStrictEqual(bare.issues.map((issue) => issue.field), ["recovery"]);
    // The option does not open the door to other shapes.
    for (const code of ["floor_not_met", "X_A_FLOOR", "Proposal Superseded"]) {
      const refused = checkOutgoingAdcpError({ code, message: "x", recovery: "terminal" }, {
        allowUnlistedCode: true,
      });
      ok(!refused.valid, code);
      deepStrictEqual(refused.issues.map((issue) => issue.kind), ["code_format"]);
    }
    throws(
      () => checkOutgoingAdcpError(newer, { allowUnlistedCode: "yes" as unknown as boolean }),
      {
        name: "TypeError",
        message: "Cannot check the outgoing error as 'options.allowUnlistedCode' must be a " +
          'boolean: current value is "yes"',
      },
    );
  },
);

Deno.test("checkOutgoingAdcpError() requires field on FIELD_NOT_PERMITTED", () => {
  const missing = checkOutgoingAdcpError({ code: "FIELD_NOT_PERMITTED", message: "No" });
  ok(!missing.valid);
  deepStrictEqual(missing.issues.map((issue) => [issue.kind, issue.field]), [["type", "field"]]);
  const given = checkOutgoingAdcpError({
    code: "FIELD_NOT_PERMITTED",
    message: "No",
    field: "packages[0].pricing_option_id",
  });
  ok(given.valid);
});

Deno.test("checkOutgoingAdcpError() redacts leaks, or refuses them in strict mode", () => {
  const error = {
    code: "SERVICE_UNAVAILABLE",
    message: "Error: pool exhausted\n    at connect (/srv/app/db.ts:42:7)\n" +
      "    at main (/srv/app/main.ts:3:1)",
    suggestion: "Retry later; db-1.prod.internal is down",
    details: {
      upstream: "http://10.1.2.3:8080/health",
      setup_url: "https://seller.example/setup",
      nested: [{ path: "C:\\svc\\logs\\app.log" }],
    },
  };
  const warnings: OutgoingErrorWarning[] = [];
  const checked = checkOutgoingAdcpError(error, { onWarning: (w) => warnings.push(w) });
  ok(checked.valid);
  deepStrictEqual(checked.error, {
    code: "SERVICE_UNAVAILABLE",
    message: "Error: pool exhausted\n[redacted]",
    recovery: "transient",
    suggestion: "Retry later; [redacted] is down",
    details: {
      upstream: "[redacted]",
      setup_url: "https://seller.example/setup",
      nested: [{ path: "[redacted]" }],
    },
  });
  deepStrictEqual(
    warnings.filter((w) => w.kind === "redacted").map((w) => [w.field, w.leaks]),
    [
      ["message", ["stack_trace"]],
      ["suggestion", ["internal_host"]],
      ["details.upstream", ["ip_address"]],
      ["details.nested[0].path", ["file_path"]],
    ],
  );
  const strict = checkOutgoingAdcpError(error, { strict: true });
  ok(!strict.valid);
  deepStrictEqual(strict.issues.map((issue) => [issue.kind, issue.field]), [
    ["leak", "message"],
    ["leak", "suggestion"],
    ["leak", "details.upstream"],
    ["leak", "details.nested[0].path"],
  ]);
  // Messages name the field and the kind, never the leaked text.
  ok(strict.issues.every((issue) => !issue.message.includes("10.1.2.3")));
});

Deno.test(
  "checkOutgoingAdcpError() warns on details " +
    "of 500 bytes or more, refuses over 4096",
  () => {
    const warnings: OutgoingErrorWarning[] = [];
    const checked = checkOutgoingAdcpError(
      { code: "POLICY_VIOLATION", message: "x", details: { reasons: ["é".repeat(250)] } },
      { onWarning: (w) => warnings.push(w) },
    );
    ok(checked.valid);
    deepStrictEqual(
      warnings.filter((w) => w.kind !== "recovery_filled").map((w) => [w.kind, w.message]),
      [[
        "details_size",
        "details is 516 serialized UTF-8 bytes; keep it under 500",
      ]],
    );
    const tooLarge = checkOutgoingAdcpError({
      code: "POLICY_VIOLATION",
      message: "x",
      details: { reasons: ["y".repeat(5_000)] },
    });
    ok(!tooLarge.valid);
    deepStrictEqual(tooLarge.issues.map((issue) => issue.kind), ["too_large"]);
  },
);

Deno.test("checkOutgoingAdcpError() drops unknown fields and keeps __proto__ keys as data", () => {
  const details = JSON.parse('{"__proto__":{"polluted":true},"ok":1}');
  const checked = checkOutgoingAdcpError({
    code: "INVALID_REQUEST",
    message: "Bad",
    details,
    stack: "at x (/a.ts:1:1)",
  });
  ok(checked.valid);
  deepStrictEqual(Object.keys(checked.error), ["code", "message", "recovery", "details"]);
  const copy = checked.error.details as Record<string, unknown>;
  ok(Object.hasOwn(copy, "__proto__"));
  strictEqual(Object.getPrototypeOf(copy), Object.prototype);
  strictEqual(({} as Record<string, unknown>).polluted, undefined);
  deepStrictEqual(checked.warnings.map((w) => [w.kind, w.field]), [
    ["recovery_filled", "recovery"],
    ["field_dropped", "stack"],
  ]);
});

Deno.test("checkOutgoingAdcpError() output always passes our own extraction (property)", () => {
  fc.assert(
    fc.property(
      fc.record({
        code: fc.oneof(
          fc.constantFrom("RATE_LIMITED", "BUDGET_TOO_LOW", "X_ACME_FLOOR_NOT_MET"),
          fc.string(),
        ),
        message: fc.string(),
        retry_after: fc.option(fc.double(), { nil: undefined }),
        suggestion: fc.option(fc.string(), { nil: undefined }),
        details: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
      }, { requiredKeys: ["code"] }),
      fc.boolean(),
      (error, strict) => {
        const checked = checkOutgoingAdcpError(error, { strict });
        if (!checked.valid) {
          ok(checked.issues.length > 0);
          return;
        }
        ok(validateAdcpError(checked.error) !== null);
        const retry = checked.error.retry_after;
        ok(
          retry === undefined ||
            (typeof retry === "number" && Number.isInteger(retry) && retry >= 1 && retry <= 3600),
        );
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("checkOutgoingAdcpError() scans adversarial text in linear time", () => {
  const n = 65_536;
  const inputs = [
    "a.".repeat(n / 2),
    "a-".repeat(n / 2),
    "1.".repeat(n / 2),
    "a@".repeat(n / 2),
    "a" + ".".repeat(n),
    "at " + "a.".repeat(n / 2),
    "/a".repeat(n / 2),
    ":".repeat(n),
  ];
  for (const text of inputs) {
    const started = performance.now();
    const checked = checkOutgoingAdcpError({ code: "INVALID_REQUEST", message: text });
    const elapsed = performance.now() - started;
    ok(elapsed < 500, `took ${elapsed.toFixed(0)} ms`);
    // Every input is far over the 4096-byte extraction limit.
    ok(!checked.valid);
  }
});

Deno.test("checkOutgoingAdcpError() scans field, source, sdk_id and issues for leaks too", () => {
  const trace = "TypeError: x\n    at buy (/srv/app/src/handlers/buy.ts:42:7)\n    at 10.0.3.7";
  const error = {
    code: "INVALID_REQUEST",
    message: "Bad request",
    field: "/srv/app/src/handlers/buy.ts:42",
    issues: [{ pointer: "/budget", message: trace, keyword: "minimum" }],
  };
  const strict = checkOutgoingAdcpError(error, { strict: true });
  ok(!strict.valid);
  deepStrictEqual(
    strict.issues.map((issue) => [issue.kind, issue.field]),
    [["leak", "field"], ["leak", "issues[0].message"]],
  );
  const lenient = checkOutgoingAdcpError(error);
  ok(lenient.valid);
  strictEqual(lenient.error.field, "[redacted]");
  const issue = (lenient.error.issues as { message: string }[])[0]!;
  ok(!issue.message.includes("/srv/app") && !issue.message.includes("10.0.3.7"), issue.message);
  strictEqual(issue.message.startsWith("TypeError: x"), true);
});

Deno.test("checkOutgoingAdcpError() finds C# and Ruby stack frames", () => {
  for (
    const frame of [
      "   at Acme.Db.Open() in /home/runner/work/Acme/Db.cs:line 42",
      "from /app/models/user.rb:12:in `save'",
      "/app/models/user.rb:12:in `save': undefined method `x' for nil (NoMethodError)",
      "lib/tasks/import.rb:7:in 'run'",
    ]
  ) {
    const checked = checkOutgoingAdcpError(
      { code: "INVALID_REQUEST", message: `Failed\n${frame}` },
      { strict: true },
    );
    ok(!checked.valid && checked.issues[0]?.kind === "leak", frame);
    const lenient = checkOutgoingAdcpError({
      code: "INVALID_REQUEST",
      message: `Failed\n${frame}`,
    });
    ok(lenient.valid);
    const message = String(lenient.error.message);
    for (const file of ["user.rb", "Db.cs", "import.rb"]) ok(!message.includes(file), message);
  }
});

Deno.test("checkOutgoingAdcpError() fills field from issues[0].pointer, checks issue items", () => {
  const warnings: OutgoingErrorWarning[] = [];
  const checked = checkOutgoingAdcpError({
    code: "VALIDATION_ERROR",
    message: "Invalid request",
    issues: [
      { pointer: "/packages/0/targeting/geo~1countries/2", message: "Unknown", keyword: "enum" },
      { pointer: "/budget", message: "Too low", keyword: "minimum" },
    ],
  }, { onWarning: (warning) => warnings.push(warning) });
  ok(checked.valid);
  strictEqual(checked.error.field, "packages[0].targeting.geo/countries[2]");
  deepStrictEqual(warnings.map((w) => w.kind), ["recovery_filled", "field_filled"]);
  // A field the seller set is kept.
  const kept = checkOutgoingAdcpError({
    code: "VALIDATION_ERROR",
    message: "Invalid request",
    field: "budget",
    issues: [{ pointer: "/packages/0", message: "x", keyword: "type" }],
  });
  ok(kept.valid);
  strictEqual(kept.error.field, "budget");
  // Items must carry the three required strings.
  const refused = checkOutgoingAdcpError({
    code: "VALIDATION_ERROR",
    message: "Invalid request",
    issues: [{ pointer: "/a", message: "x", keyword: "type" }, { pointer: "/b" }, "oops"],
  });
  ok(!refused.valid);
  deepStrictEqual(refused.issues.map((issue) => [issue.kind, issue.field]), [
    ["type", "issues[1]"],
    ["type", "issues[2]"],
  ]);
});

interface LeakVector {
  readonly id: string;
  readonly text: string;
  readonly leaks: readonly LeakKind[];
  readonly redacted: string;
  readonly internalServiceNames?: readonly string[];
}

const LEAK_VECTORS: readonly LeakVector[] = JSON.parse(
  await Deno.readTextFile(new URL("./testdata/outgoing_leaks.json", import.meta.url)),
).vectors;

/**
 * What an implementation did with one text: sent it (redacted) with the leaks it named, or refused
 * it.
 */
type LeakOutcome =
  | { readonly sent: string; readonly leaks: readonly LeakKind[] }
  | { readonly refused: true };

/** Runs every leak vector through `send`, in default and in strict mode. */
function runLeakVectors(
  send: (text: string, options: OutgoingErrorOptions) => LeakOutcome | undefined,
): number {
  let ran = 0;
  for (const vector of LEAK_VECTORS) {
    const names = vector.internalServiceNames ?? [];
    const lenient = send(vector.text, { internalServiceNames: names });
    if (lenient === undefined) continue; // not a text this implementation takes
    ran++;
    deepStrictEqual(lenient, { sent: vector.redacted, leaks: vector.leaks }, vector.id);
    const strict = send(vector.text, { internalServiceNames: names, strict: true });
    deepStrictEqual(
      strict,
      vector.leaks.length === 0 ? { sent: vector.text, leaks: [] } : { refused: true },
      `${vector.id} (strict)`,
    );
  }
  return ran;
}

Deno.test(
  "checkOutgoingAdcpError() leak vectors: database errors, SQL, query plans, tokens, " +
    "session ids, service names",
  () => {
    const ran = runLeakVectors((text, options) => {
      const leaks: LeakKind[] = [];
      const checked = checkOutgoingAdcpError({ code: "INVALID_REQUEST", message: text }, {
        ...options,
        onWarning: (warning) => leaks.push(...(warning.leaks ?? [])),
      });
      if (!checked.valid) {
        deepStrictEqual(checked.issues.map((issue) => [issue.kind, issue.field]), [[
          "leak",
          "message",
        ]]);
        return { refused: true };
      }
      return { sent: String(checked.error.message), leaks };
    });
    strictEqual(ran, LEAK_VECTORS.length);
  },
);

Deno.test("adcpErrorResult() summary leak vectors (one-line texts)", () => {
  const ran = runLeakVectors((text, options) => {
    if (/[\r\n]/.test(text)) return undefined;
    const leaks: LeakKind[] = [];
    try {
      const result = adcpErrorResult({ code: "INVALID_REQUEST", message: "Bad request" }, {
        ...options,
        summary: text,
        onWarning: (warning) => leaks.push(...(warning.leaks ?? [])),
      });
      return { sent: result.content[1]!.text, leaks };
    } catch (error) {
      // A strict-mode refusal names the kinds of leak and the size of the text, never the text.
      ok(error instanceof TypeError);
      match(
        error.message,
        new RegExp(
          String.raw`^Cannot build the error result as 'options\.summary' must be free of ` +
            String.raw`[a-z_]+(, [a-z_]+)* \(strict mode\): ` +
            String.raw`current value is "\(\d+ characters, not shown\)"$`,
        ),
      );
      return { refused: true };
    }
  });
  ok(ran > 50, `ran ${ran}`);
});

Deno.test(
  "checkOutgoingAdcpError() names each new leak kind in strict mode, " +
    "never the leaked text",
  () => {
    const checked = checkOutgoingAdcpError({
      code: "SERVICE_UNAVAILABLE",
      message: "ORA-00942: table or view does not exist",
      suggestion: "Retry with Bearer 4f9a1c2e8b7d6a5f0e1d",
      details: { session: "PHPSESSID=el4ukv0kqbvoirg7nkp4dncpk3", svc: "ledger-core is down" },
    }, { strict: true, internalServiceNames: ["ledger-core"] });
    deepStrictEqual(checked, {
      valid: false,
      issues: [
        { kind: "leak", field: "message", message: "Expected message to hold no database_error" },
        {
          kind: "leak",
          field: "suggestion",
          message: "Expected suggestion to hold no bearer_token",
        },
        {
          kind: "leak",
          field: "details.session",
          message: "Expected details.session to hold no session_id",
        },
        {
          kind: "leak",
          field: "details.svc",
          message: "Expected details.svc to hold no internal_service",
        },
      ],
    });
  },
);

Deno.test("checkOutgoingAdcpError() checks internalServiceNames", () => {
  const error = { code: "INVALID_REQUEST", message: "x" };
  throws(() => checkOutgoingAdcpError(error, { internalServiceNames: "svc" as unknown as [] }), {
    name: "TypeError",
    message: "Cannot check the outgoing error as 'options.internalServiceNames' must be an array " +
      'of strings: current value is "(3 characters, not shown)"',
  });
  throws(() => checkOutgoingAdcpError(error, { internalServiceNames: ["ok", " "] }), {
    name: "TypeError",
    message: "Cannot check the outgoing error as 'options.internalServiceNames[1]' must be a " +
      'non-empty string: current value is " "',
  });
  throws(() => checkOutgoingAdcpError(error, { internalServiceNames: ["x".repeat(257)] }), {
    name: "RangeError",
    message:
      "Cannot check the outgoing error as 'options.internalServiceNames[0].length' must be " +
      "at most 256: current value is 257",
  });
  throws(
    () => checkOutgoingAdcpError(error, { internalServiceNames: Array(1025).fill("svc") }),
    {
      name: "RangeError",
      message: "Cannot check the outgoing error as 'options.internalServiceNames.length' must be " +
        "at most 1024: current value is 1025",
    },
  );
  // Regular-expression syntax in a name is literal text.
  const checked = checkOutgoingAdcpError({ code: "INVALID_REQUEST", message: "a.b and a+b(c)" }, {
    internalServiceNames: ["a+b(c)", "a.b"],
  });
  deepStrictEqual(checked.valid && checked.error.message, "[redacted] and [redacted]");
  const literal = checkOutgoingAdcpError({ code: "INVALID_REQUEST", message: "axb" }, {
    internalServiceNames: ["a.b"],
  });
  deepStrictEqual(literal.valid && literal.error.message, "axb");
});

Deno.test(
  "checkOutgoingAdcpError() scans 100 KB adversarial " +
    "text for the new leak shapes in linear time",
  () => {
    const n = 100_000;
    const fill = (unit: string) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const inputs = [
      fill("eyJ"),
      fill("eyJa."),
      fill("eyJaaaaaaa.aa"),
      fill("Bearer "),
      fill("Bearer a"),
      fill("Basic QUJD"),
      fill("sk_live_"),
      fill("AKIA"),
      fill("ghp_"),
      fill("xoxb-"),
      fill("AIza"),
      fill("sessionid="),
      fill("PHPSESSID=a"),
      fill("Cookie:"),
      fill("api_key="),
      fill('"password": "'),
      fill("-----BEGIN PRIVATE KEY-----"),
      fill("-----BEGIN "),
      fill("a"),
      fill("aB3+"),
      fill("0a"),
      fill("SELECT "),
      fill("SELECT FROM "),
      fill('relation "'),
      fill("duplicate entry '"),
      fill("ER_"),
      fill("Msg 1, Level "),
      fill("ORA-"),
      fill("insert into "),
      fill("update a set "),
      fill("Seq Scan using "),
      fill("(cost=1.0..1"),
      fill("SEARCH a USING "),
      fill(" \t"),
      fill("inventory-svc"),
      fill("inventory-sv"),
    ];
    const names = Array.from({ length: 1023 }, (_, i) => `internal-service-${i}`);
    names.push("inventory-svc");
    for (const text of inputs) {
      for (const internalServiceNames of [[], names]) {
        const started = performance.now();
        checkOutgoingAdcpError({ code: "INVALID_REQUEST", message: text }, {
          internalServiceNames,
        });
        const elapsed = performance.now() - started;
        ok(elapsed < 500, `${JSON.stringify(text.slice(0, 16))}: took ${elapsed.toFixed(0)} ms`);
      }
    }
  },
);

Deno.test(
  "checkOutgoingAdcpError() drops a key of details or issues that leaks, " +
    "and refuses it in strict mode",
  () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
    const error = {
      code: "SERVICE_UNAVAILABLE",
      message: "Upstream down",
      details: {
        "inventory-svc": "down",
        "10.0.3.7:5432": { state: "timeout", host: "db-1.prod.internal" },
        "SELECT * FROM users": 1,
        [jwt]: true,
        attempts: 3,
        setup_url: "https://seller.example/setup",
        nested: [{ "/srv/app/db.ts:42": "x", reason: "pool exhausted" }],
      },
      issues: [{
        pointer: "/budget",
        message: "Too low",
        keyword: "minimum",
        "session=LPJ5jEFugtI8dCSVBiX1": "x",
      }],
    };
    const options = { internalServiceNames: ["inventory-svc"] };
    const warnings: OutgoingErrorWarning[] = [];
    const checked = checkOutgoingAdcpError(error, {
      ...options,
      onWarning: (warning) => warnings.push(warning),
    });
    ok(checked.valid);
    // The leaking keys go with everything under them; clean keys and values stay.
    deepStrictEqual(checked.error.details, {
      attempts: 3,
      setup_url: "https://seller.example/setup",
      nested: [{ reason: "pool exhausted" }],
    });
    deepStrictEqual(checked.error.issues, [{
      pointer: "/budget",
      message: "Too low",
      keyword: "minimum",
    }]);
    deepStrictEqual(
      warnings.filter((w) => w.kind === "redacted").map((w) => [w.field, w.leaks, w.message]),
      [
        ["details", ["internal_service"], "Dropped a key of details holding internal_service"],
        ["details", ["ip_address"], "Dropped a key of details holding ip_address"],
        ["details", ["sql_fragment"], "Dropped a key of details holding sql_fragment"],
        ["details", ["jwt"], "Dropped a key of details holding jwt"],
        [
          "details.nested[0]",
          ["file_path"],
          "Dropped a key of details.nested[0] holding file_path",
        ],
        ["issues[0]", ["session_id"], "Dropped a key of issues[0] holding session_id"],
      ],
    );
    const strict = checkOutgoingAdcpError(error, { ...options, strict: true });
    ok(!strict.valid);
    deepStrictEqual(strict.issues.map((issue) => [issue.kind, issue.field, issue.message]), [
      ["leak", "details", "Expected the keys of details to hold no internal_service"],
      ["leak", "details", "Expected the keys of details to hold no ip_address"],
      ["leak", "details", "Expected the keys of details to hold no sql_fragment"],
      ["leak", "details", "Expected the keys of details to hold no jwt"],
      ["leak", "details.nested[0]", "Expected the keys of details.nested[0] to hold no file_path"],
      ["leak", "issues[0]", "Expected the keys of issues[0] to hold no session_id"],
    ]);
    // Neither the warnings nor the issues repeat a leaking key.
    const said = JSON.stringify([warnings, strict.issues]);
    for (const leaked of ["inventory-svc", "10.0.3.7", "SELECT", "eyJ", "/srv/app", "LPJ5jE"]) {
      ok(!said.includes(leaked), leaked);
    }
  },
);

Deno.test("checkOutgoingAdcpError() keeps the ordinary keys of details in strict mode", () => {
  const details = JSON.parse(
    '{"__proto__":{"a":1},"session_id":"x","api_key":"x","token":"x","select":"x",' +
      '"packages[0].budget":"x","min_budget":100,"Authorization":"required"}',
  );
  const checked = checkOutgoingAdcpError(
    { code: "INVALID_REQUEST", message: "Bad", details },
    { strict: true },
  );
  ok(checked.valid, JSON.stringify(checked));
  deepStrictEqual(Object.keys(checked.error.details as object), Object.keys(details));
});

Deno.test(
  "checkOutgoingAdcpError() scans 100 KB adversarial text for multi-line SQL, database, plan, " +
    "session and token shapes in linear time",
  () => {
    const n = 100_000;
    const fill = (unit: string) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const inputs = [
      // SQL over the whole text and the lines that continue it.
      fill("\n"),
      fill("\r\n"),
      fill("a\n"),
      fill(" \n"),
      fill("SELECT\n"),
      fill("SELECT a\n"),
      fill("FROM\n"),
      fill("SELECT\nFROM\n"),
      fill("SELECT a FROM b\n  "),
      fill("SELECT a FROM b\nAND "),
      "SELECT" + "\n".repeat(n) + "FROM",
      "SELECT" + " ".repeat(n) + "FROM",
      fill("select "),
      fill("select a, "),
      fill("select a,"),
      fill('select "a", '),
      fill('select "'),
      fill("select a."),
      fill("select a.b.c."),
      "select " + fill("a, "),
      "select " + fill('"a".'),
      fill("WHERE "),
      fill("WHERE a"),
      fill("WHERE a.a"),
      fill("WHERE\n"),
      // Database error phrases and codes.
      fill("permission denied for "),
      fill('column reference "'),
      fill("Key ("),
      fill("Key (a)=("),
      fill("division by "),
      fill('connection to server at "'),
      fill("could not connect to server: "),
      fill("cannot add or update a "),
      fill("column '"),
      fill("column 'a' cannot be "),
      fill("incorrect a value: "),
      fill("for column '"),
      fill("for column 'a' at row "),
      fill("can't connect to "),
      fill('near "'),
      fill('near "a"'),
      fill("table a"),
      fill("table "),
      fill("invalid column name "),
      fill("statement conflicted "),
      fill("cast to a"),
      fill("path `"),
      fill("ora-0"),
      fill("Mongoose"),
      fill("MongoServerSelection"),
      fill("ns not "),
      // Query plans.
      fill("->  "),
      fill("->        Hash"),
      fill("Filter: "),
      fill("Index Cond: "),
      fill("Sort Key: "),
      fill("Planning Time: 1"),
      fill("Planning Time: 1."),
      fill("SCAN a"),
      fill("SCAN "),
      fill("| 1 | "),
      fill("|  "),
      fill("| 1 |  SIMPLE "),
      fill("select_type"),
      // Sessions, tokens and the Authorization header.
      fill("session="),
      fill("session: a"),
      fill("session 0"),
      "session " + fill("0a"),
      fill("sid "),
      fill("sid: "),
      fill("_"),
      fill(" _"),
      fill("_a_"),
      fill(" _a_"),
      fill("_session"),
      fill(" _a_session="),
      fill("PHPSESSID: "),
      fill("token="),
      fill("token: "),
      fill("token: a"),
      fill("auth="),
      fill("bearer="),
      fill("csrftoken="),
      fill("x-amz-security-token="),
      fill("Authorization: "),
      fill("authorization:"),
      fill('Authorization: "'),
      fill("Proxy-Authorization: a"),
      "Authorization: " + fill("a"),
      fill("npm_"),
      fill("npm_a"),
      fill("sk-proj-"),
      fill("sk-proj-a"),
      fill("SG."),
      fill("SG.aaaaaaaaaaaaaaaa."),
      fill("https://hooks.slack.com/services/"),
    ];
    for (const text of inputs) {
      for (const strict of [false, true]) {
        const started = performance.now();
        checkOutgoingAdcpError({ code: "INVALID_REQUEST", message: text }, { strict });
        const elapsed = performance.now() - started;
        ok(elapsed < 500, `${JSON.stringify(text.slice(0, 24))}: took ${elapsed.toFixed(0)} ms`);
      }
    }
  },
);

Deno.test(
  "checkOutgoingAdcpError() scans the keys of " +
    "100 KB adversarial details in linear time",
  () => {
    const n = 100_000;
    const many = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`SELECT\n${i}`, `FROM ${i}`]),
    );
    const inputs: Record<string, unknown>[] = [
      { ["SELECT\n".repeat(n / 7)]: 1 },
      { ["session=".repeat(n / 8)]: 1 },
      { ["Authorization: ".repeat(n / 15)]: 1 },
      { ["a.".repeat(n / 2)]: 1 },
      many,
    ];
    for (const details of inputs) {
      const started = performance.now();
      checkOutgoingAdcpError({ code: "INVALID_REQUEST", message: "x", details });
      const elapsed = performance.now() - started;
      ok(elapsed < 500, `took ${elapsed.toFixed(0)} ms`);
    }
  },
);

Deno.test(
  "checkOutgoingAdcpError() scans through the characters buyers strip, " +
    "and leaves clean text as it is",
  () => {
    for (const strict of [false, true]) {
      const clean = checkOutgoingAdcpError({
        code: "INVALID_REQUEST",
        message: "Budget\u200b too\u00ad low",
      }, { strict });
      ok(clean.valid);
      strictEqual(clean.error.message, "Budget\u200b too\u00ad low");
      const hidden = checkOutgoingAdcpError({
        code: "INVALID_REQUEST",
        message: "in\u200bventory\u{E0041}-svc is down",
      }, { strict, internalServiceNames: ["inventory-svc"] });
      ok(strict ? !hidden.valid : hidden.valid && hidden.error.message === "[redacted] is down");
    }
  },
);

Deno.test("checkOutgoingAdcpError() never echoes a wrongly typed string in its issues", () => {
  const secret = "postgres://admin:hunter2@db.internal";
  for (
    const error of [
      secret,
      { code: "RATE_LIMITED", message: "Slow", retry_after: secret },
      { code: "RATE_LIMITED", message: "Slow", details: secret },
      { code: "RATE_LIMITED", message: "Slow", issues: secret },
    ]
  ) {
    const check = checkOutgoingAdcpError(error);
    strictEqual(check.valid, false);
    for (const issue of check.valid ? [] : check.issues) {
      strictEqual(issue.message.includes("hunter2"), false, issue.message);
      strictEqual(issue.message.includes("postgres"), false, issue.message);
    }
  }
});

Deno.test("checkOutgoingAdcpError() names a refused code and says why it is refused", () => {
  const prefix = "Expected code to be a standard AdCP code or X_{VENDOR}_{CODE}, got ";
  const cases: [unknown, string][] = [
    [
      "X_A_FLOOR",
      '"X_A_FLOOR", which is not of the X_{VENDOR}_{CODE} form ({VENDOR} matching ' +
      "/^[A-Z][A-Z0-9]{1,19}$/, {CODE} matching /^[A-Z][A-Z0-9_]{1,39}$/)",
    ],
    [
      "rate_limited",
      '"rate_limited": codes are case-sensitive, and the standard code is RATE_LIMITED',
    ],
    ["floor-not-met", '"floor-not-met"'],
    ["", '""'],
    [429, "429"],
    [null, "null"],
    [undefined, "undefined"],
    [["RATE_LIMITED"], "an array"],
    ["A".repeat(70), "a code of 70 characters (at most 64)"],
  ];
  for (const [code, got] of cases) {
    const checked = checkOutgoingAdcpError({ code, message: "x", recovery: "terminal" });
    deepStrictEqual(checked, {
      valid: false,
      issues: [{ kind: "code_format", field: "code", message: prefix + got }],
    }, String(code));
  }
  // A code over the 64 characters buyers accept is a code problem, not a size one, even when
  // unlisted codes are let through.
  const long = checkOutgoingAdcpError(
    { code: "A".repeat(70), message: "x", recovery: "terminal" },
    { allowUnlistedCode: true },
  );
  deepStrictEqual(!long.valid && long.issues.map((i) => [i.kind, i.message]), [[
    "code_format",
    prefix + "a code of 70 characters (at most 64)",
  ]]);
});

Deno.test(
  "checkOutgoingAdcpError() shows no refused code that holds a leak or is not shaped like a code",
  () => {
    const hidden: [string, OutgoingErrorOptions][] = [
      ["AKIAIOSFODNN7EXAMPLE", {}], // an AWS key id: api_key
      ["localhost", {}], // internal_host
      ["billing", { internalServiceNames: ["billing"] }],
      ["db-1.prod.internal", {}],
      ["Bearer 4f9a1c2e8b7d6a5f0e1d", {}],
      ["FLOOR_NOT_MET\n", {}],
      ["FLOOR\u202eTEM_TON", {}],
      ["_FLOOR", {}],
      ["9_LIVES", {}],
    ];
    for (const [code, options] of hidden) {
      const checked = checkOutgoingAdcpError({ code, message: "x", recovery: "terminal" }, options);
      ok(!checked.valid);
      const message = checked.issues[0]!.message;
      ok(!message.includes(code), message);
      ok(message.includes(`"(${code.length} characters, not shown)"`), message);
    }
  },
);

Deno.test(
  "checkOutgoingAdcpError() echoes a refused code only when code-like and leak-free, bounded",
  () => {
    const codeLike = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 200 }), fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,70}$/)),
        (code) => {
          const checked = checkOutgoingAdcpError({ code, message: "x", recovery: "terminal" });
          if (checked.valid) return;
          const issue = checked.issues.find((i) => i.field === "code");
          if (issue === undefined) return;
          ok(issue.message.length <= 400, issue.message);
          if (code.length >= 8 && issue.message.includes(JSON.stringify(code))) {
            ok(codeLike.test(code), code);
          }
          if (code.length > 64) ok(!issue.message.includes(code.slice(0, 64)), code);
        },
      ),
    );
  },
);

Deno.test("every seller helper names the code it refuses in the TypeError it throws", () => {
  const floor = { code: "FLOOR_NOT_MET", message: "Bid below the floor", recovery: "correctable" };
  const named = /got "FLOOR_NOT_MET", which is in neither/;
  throws(() => adcpErrorResult(floor), { name: "TypeError", message: named });
  throws(() => adcpFailedTask({ id: "t1", contextId: "c1" }, floor), {
    name: "TypeError",
    message: named,
  });
  throws(
    () => adcpErrorResult({ ...floor, code: "BUDGET_TOO_LOW" }, { payload: { errors: [floor] } }),
    { name: "TypeError", message: named },
  );
  throws(
    () => adcpFailedTask({ id: "t1", contextId: "c1" }, floor, { payload: { errors: [floor] } }),
    {
      name: "TypeError",
    },
  );
  // The JSON-RPC path takes three codes: another is named, a valid one or not.
  for (const code of ["FLOOR_NOT_MET", "BUDGET_TOO_LOW", "X_ACME_FLOOR_NOT_MET"]) {
    throws(() => adcpJsonRpcError({ ...floor, code }), {
      name: "TypeError",
      message: new RegExp(`: current value is "${code}"$`),
    });
  }
  throws(() => adcpJsonRpcError({ ...floor, code: "AKIAIOSFODNN7EXAMPLE" }), {
    name: "TypeError",
    message: /: current value is "\(20 characters, not shown\)"$/,
  });
  // The refused code is the TypeError's; every issue is still in its cause.
  try {
    adcpErrorResult({ code: "FLOOR_NOT_MET" });
  } catch (error) {
    deepStrictEqual(
      ((error as TypeError).cause as { field: string }[]).map((issue) => issue.field),
      ["code", "message"],
    );
  }
});
