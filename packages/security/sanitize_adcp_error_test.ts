import fc from "fast-check";
import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { hostileString, strippedCodePoints, utf8Length } from "./_test_util.ts";
import {
  ADCP_ERROR_DETAILS_LIMITS,
  OMITTED_MARKER,
  sanitizeAdcpError,
} from "./sanitize_adcp_error.ts";

function nestObjects(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = { n: value };
  return value;
}

function forEachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") visit(value);
  else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      visit(key);
      forEachString(child, visit);
    }
  }
}

function hasDangerousOwnKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  return Object.keys(value).some((key) =>
    key === "__proto__" || key === "constructor" || key === "prototype" ||
    hasDangerousOwnKey((value as Record<string, unknown>)[key])
  );
}

Deno.test("sanitizeAdcpError() keeps code, recovery and retry_after exactly as received", () => {
  const out = sanitizeAdcpError({
    code: "X_ACME_\u202EODD",
    recovery: "not-an-enum-value",
    retry_after: Number.NaN,
    message: "m",
  });
  strictEqual(out.code, "X_ACME_\u202EODD");
  strictEqual(out.recovery, "not-an-enum-value");
  ok(Number.isNaN(out.retry_after));
  deepStrictEqual(sanitizeAdcpError({ code: 42, recovery: null, retry_after: 7.5 }), {
    code: 42,
    recovery: null,
    retry_after: 7.5,
  });
});

Deno.test(
  "sanitizeAdcpError() sanitizes and caps message, suggestion, field, source and sdk_id",
  () => {
    const out = sanitizeAdcpError({
      code: "VALIDATION_ERROR",
      message: "a\u0000b".repeat(200),
      suggestion: "s\u200B".repeat(600),
      field: "packages[0]\u2066.x".repeat(100),
      source: "sdk\n",
      sdk_id: "@acme/sdk@1.0.0\u202E".repeat(20),
    });
    strictEqual(out.message, "ab".repeat(128));
    strictEqual(out.suggestion, "s".repeat(512));
    strictEqual(utf8Length(out.field!), 256);
    strictEqual(out.field!.startsWith("packages[0].xpackages[0].x"), true);
    strictEqual(out.source, "sdk");
    strictEqual(utf8Length(out.sdk_id!), 128);
  },
);

Deno.test("sanitizeAdcpError() drops unknown fields and non-string text fields", () => {
  deepStrictEqual(
    sanitizeAdcpError({
      code: "X",
      message: 12,
      suggestion: { text: "no" },
      field: ["a"],
      stack: "at db.query (/srv/app.js:1:1)",
      internal: { host: "10.0.0.1" },
    }),
    { code: "X" },
  );
});

Deno.test("sanitizeAdcpError() sanitizes details recursively and drops dangerous keys", () => {
  const raw = JSON.parse(`{
    "code": "POLICY_VIOLATION",
    "details": {
      "policy_url": "https://seller.example/p\\u0007",
      "violated_rules": ["No \\u202Eage targeting", 3, true, null],
      "__proto__": { "polluted": true },
      "nested": { "constructor": { "prototype": 1 }, "ok": "yes" },
      "__pro\\u200Bto__": "made dangerous by sanitizing",
      "dup\\u0000": "first",
      "dup": "second"
    }
  }`);
  deepStrictEqual(sanitizeAdcpError(raw).details, {
    policy_url: "https://seller.example/p",
    violated_rules: ["No age targeting", 3, true, null],
    nested: { ok: "yes" },
    dup: "first",
  });
  strictEqual(Object.hasOwn(Object.prototype, "polluted"), false);
});

Deno.test("sanitizeAdcpError() caps detail strings at 512 bytes and keys at 64 bytes", () => {
  const out = sanitizeAdcpError({ details: { ["k".repeat(100)]: "v".repeat(1000) } });
  deepStrictEqual(out.details, { ["k".repeat(64)]: "v".repeat(512) });
});

Deno.test("sanitizeAdcpError() replaces details past each bound with the marker", () => {
  strictEqual(ADCP_ERROR_DETAILS_LIMITS.maxJsonDepth, 8);
  strictEqual(ADCP_ERROR_DETAILS_LIMITS.maxJsonNodes, 512);
  strictEqual(ADCP_ERROR_DETAILS_LIMITS.maxTotalBytes, 4096);
  // Depth: details itself is depth 1.
  deepStrictEqual(sanitizeAdcpError({ details: nestObjects(8) }).details, nestObjects(8));
  strictEqual(sanitizeAdcpError({ details: nestObjects(9) }).details, OMITTED_MARKER);
  strictEqual(sanitizeAdcpError({ details: nestObjects(100_000) }).details, OMITTED_MARKER);
  // Nodes: details plus 511 values fit, 512 do not.
  deepStrictEqual(
    sanitizeAdcpError({ details: { list: new Array(510).fill(0) } }).details,
    { list: new Array(510).fill(0) },
  );
  strictEqual(
    sanitizeAdcpError({ details: { list: new Array(511).fill(0) } }).details,
    OMITTED_MARKER,
  );
  strictEqual(sanitizeAdcpError({ details: { list: new Array(1e9) } }).details, OMITTED_MARKER);
  // Total bytes: keys and strings together.
  const eight = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, "x".repeat(510)]));
  deepStrictEqual(sanitizeAdcpError({ details: eight }).details, eight); // 8 × 512 = 4096
  const nine = { ...eight, k8: "" };
  strictEqual(sanitizeAdcpError({ details: nine }).details, OMITTED_MARKER);
});

Deno.test(
  "sanitizeAdcpError() treats issues like details and containers in scalar fields too",
  () => {
    const out = sanitizeAdcpError({
      code: { evil: "\u202Ex", __proto__: null },
      issues: [{ pointer: "/a\n", message: "bad\u2028", keyword: "type" }],
    });
    deepStrictEqual(out.code, { evil: "x" });
    deepStrictEqual(out.issues, [{ pointer: "/a", message: "bad", keyword: "type" }]);
  },
);

Deno.test("sanitizeAdcpError() returns a fresh object and never invokes accessors", () => {
  let touched = false;
  const details = { a: 1 };
  const input = {
    code: "X",
    details,
    get message() {
      touched = true;
      return "from getter";
    },
  };
  Object.defineProperty(details, "b", { enumerable: true, get: () => (touched = true) });
  const out = sanitizeAdcpError(input);
  strictEqual(touched, false);
  deepStrictEqual(out, { code: "X", details: { a: 1 } });
  notStrictEqual(out.details, details);
});

Deno.test("sanitizeAdcpError() never throws, even on hostile proxies or non-objects", () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  deepStrictEqual(sanitizeAdcpError(proxy), {});
  deepStrictEqual(sanitizeAdcpError({ code: "X", details: proxy }), {
    code: "X",
    details: OMITTED_MARKER,
  });
  for (const input of [null, undefined, "text", 1, [{ code: "X" }], () => 1]) {
    deepStrictEqual(sanitizeAdcpError(input), {});
  }
});

Deno.test(
  "sanitizeAdcpError() output is bounded, clean and free of dangerous keys for any input",
  () => {
    const anyError = fc.record(
      {
        code: fc.anything(),
        message: fc.oneof(hostileString(400), fc.anything()),
        suggestion: hostileString(700),
        field: hostileString(300),
        details: fc.anything({ withObjectString: true, withNullPrototype: true, maxDepth: 4 }),
        issues: fc.anything({ maxDepth: 3 }),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(anyError, fc.anything()), (input) => {
        const out = sanitizeAdcpError(input);
        ok(
          Object.keys(out).every((key) =>
            [
              "code",
              "message",
              "field",
              "suggestion",
              "recovery",
              "retry_after",
              "details",
              "issues",
              "source",
              "sdk_id",
            ]
              .includes(key)
          ),
        );
        if (out.message !== undefined) ok(utf8Length(out.message) <= 256);
        if (out.suggestion !== undefined) ok(utf8Length(out.suggestion) <= 512);
        if (out.field !== undefined) ok(utf8Length(out.field) <= 256);
        for (const part of [out.message, out.suggestion, out.field, out.details, out.issues]) {
          forEachString(part, (text) => {
            strictEqual(strippedCodePoints(text).length, 0);
            ok(text.isWellFormed());
          });
        }
        strictEqual(hasDangerousOwnKey(out.details), false);
        strictEqual(hasDangerousOwnKey(out.issues), false);
        if (out.details !== undefined) ok(JSON.stringify(out.details).length < 40_000);
      }),
    );
  },
);
