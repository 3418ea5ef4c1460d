import fc from "fast-check";
import { ok, strictEqual } from "node:assert/strict";
import { describe } from "./describe.ts";

/** The longest string shown in full, in UTF-16 code units (describe.ts). */
const SHOWN = 32;
/** A generous bound on any rendering: every shown unit escaped as `\uXXXX`, quotes and `…`. */
const BOUND = SHOWN * 6 + 10;

Deno.test("describe() writes -0, NaN and the infinities as numbers are written", () => {
  strictEqual(describe(-0), "-0");
  strictEqual(describe(0), "0");
  strictEqual(describe(NaN), "NaN");
  strictEqual(describe(Infinity), "Infinity");
  strictEqual(describe(-Infinity), "-Infinity");
});

Deno.test("describe() writes finite numbers as String() does", () => {
  strictEqual(describe(1), "1");
  strictEqual(describe(-1), "-1");
  strictEqual(describe(1.5), "1.5");
  strictEqual(describe(1e21), "1e+21");
  strictEqual(describe(5e-324), "5e-324");
  strictEqual(describe(Number.MAX_SAFE_INTEGER + 2), "9007199254740992");
});

Deno.test("describe() quotes a string of at most 32 units whole", () => {
  strictEqual(describe(""), '""');
  strictEqual(describe("x"), '"x"');
  const full = "a".repeat(SHOWN);
  strictEqual(describe(full), `"${full}"`);
});

Deno.test("describe() cuts a string longer than 32 units and ends it in an ellipsis", () => {
  strictEqual(describe("a".repeat(SHOWN + 1)), `"${"a".repeat(SHOWN)}…"`);
  strictEqual(describe("b".repeat(10_000)), `"${"b".repeat(SHOWN)}…"`);
  // The cut counts code units: 31 ASCII units and the high half of an emoji are kept, and the
  // lone surrogate is escaped by JSON.stringify.
  strictEqual(describe(`${"a".repeat(31)}\u{1F600}tail`), `"${"a".repeat(31)}\\ud83d…"`);
});

Deno.test("describe() escapes quotes, backslashes and control characters as JSON does", () => {
  strictEqual(describe('say "hi"'), '"say \\"hi\\""');
  strictEqual(describe("a\\b"), '"a\\\\b"');
  strictEqual(describe("line\nbreak\r\t"), '"line\\nbreak\\r\\t"');
  strictEqual(describe("\u0000\u0001\u001f"), '"\\u0000\\u0001\\u001f"');
  strictEqual(describe("\x1b[31mred"), '"\\u001b[31mred"');
  strictEqual(describe("\ud800"), '"\\ud800"');
  strictEqual(describe("\udfff"), '"\\udfff"');
  // Escapes are counted after the cut: 40 control characters show 32 escapes.
  strictEqual(describe("\u0001".repeat(40)), `"${"\\u0001".repeat(SHOWN)}…"`);
});

Deno.test("describe() writes bigints with an n, booleans, undefined and null as written", () => {
  strictEqual(describe(0n), "0n");
  strictEqual(describe(10n), "10n");
  strictEqual(describe(-12345678901234567890n), "-12345678901234567890n");
  strictEqual(describe(true), "true");
  strictEqual(describe(false), "false");
  strictEqual(describe(undefined), "undefined");
  strictEqual(describe(null), "null");
});

Deno.test("describe() names arrays, objects, functions and symbols by kind only", () => {
  strictEqual(describe([]), "an array");
  strictEqual(describe([1, "secret"]), "an array");
  strictEqual(describe(new Array(3)), "an array");
  strictEqual(describe(new Proxy([], {})), "an array");
  strictEqual(describe({}), "an object");
  strictEqual(describe({ password: "secret" }), "an object");
  strictEqual(describe(Object.create(null)), "an object");
  strictEqual(describe(new Map([["k", "v"]])), "an object");
  strictEqual(describe(new Date(0)), "an object");
  strictEqual(describe(new String("boxed")), "an object");
  strictEqual(describe(new Uint8Array(2)), "an object");
  strictEqual(describe(new Proxy({}, {})), "an object");
  strictEqual(describe(() => 1), "a function");
  strictEqual(describe(function named() {}), "a function");
  strictEqual(describe(class Example {}), "a function");
  strictEqual(describe(async () => {}), "a function");
  strictEqual(describe(Symbol("secret")), "a symbol");
  strictEqual(describe(Symbol.iterator), "a symbol");
});

Deno.test("describe() never exceeds a small bound, whatever the string", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 200 }), (value) => {
      ok(describe(value).length <= BOUND);
    }),
    { numRuns: 1000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom("\u0000", "\u001f", '"', "\\", "\ud800") }), (
      value,
    ) => {
      ok(describe(value).length <= BOUND);
    }),
  );
});

Deno.test("describe() shows a string's first 32 units, so JSON.parse gives them back", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 80 }), (value) => {
      const expected = value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value;
      strictEqual(JSON.parse(describe(value)), expected);
    }),
    { numRuns: 1000 },
  );
});

Deno.test("describe() writes every number as String() does, but for -0", () => {
  fc.assert(
    fc.property(fc.double(), (value) => {
      strictEqual(describe(value), Object.is(value, -0) ? "-0" : String(value));
    }),
    { numRuns: 1000 },
  );
});

Deno.test("describe() renders any value as a bounded one-line string without throwing", () => {
  fc.assert(
    fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true }), (value) => {
      const shown = describe(value);
      strictEqual(typeof shown, "string");
      ok(shown.length <= BOUND);
      ok(!/[\n\r]/.test(shown));
    }),
    { numRuns: 500 },
  );
});
