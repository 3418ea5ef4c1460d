import fc from "fast-check";
import { ok, strictEqual, throws } from "node:assert/strict";
import {
  hostileString,
  inStripSet,
  referenceSanitize,
  STRIP_RANGES,
  strippedCodePoints,
  utf8Length,
} from "./_test_util.ts";
import { sanitizeSellerString, SELLER_STRING_LIMITS } from "./sanitize_seller_string.ts";

Deno.test("sanitizeSellerString() removes exactly the strip set among all BMP code points", () => {
  const removed: number[] = [];
  for (let codePoint = 0; codePoint <= 0xffff; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    const out = sanitizeSellerString(`a${String.fromCharCode(codePoint)}b`, { maxBytes: 16 });
    if (out === "ab") removed.push(codePoint);
    else strictEqual(out, `a${String.fromCharCode(codePoint)}b`, `U+${codePoint.toString(16)}`);
  }
  const expected: number[] = [];
  for (const [first, last] of STRIP_RANGES) {
    for (let codePoint = first; codePoint <= last; codePoint++) expected.push(codePoint);
  }
  strictEqual(removed.join(","), expected.join(","));
  strictEqual(removed.length, 32 + 33 + 5 + 7 + 4 + 1);
});

Deno.test("sanitizeSellerString() keeps astral characters and replaces each lone surrogate", () => {
  strictEqual(sanitizeSellerString("\u{1F600}\u{10FFFF}", { maxBytes: 8 }), "\u{1F600}\u{10FFFF}");
  strictEqual(sanitizeSellerString("\uD83D\uD83D\uDE00", { maxBytes: 16 }), "\uFFFD\u{1F600}");
  strictEqual(sanitizeSellerString("\uDE00x\uD83D", { maxBytes: 16 }), "\uFFFDx\uFFFD");
});

Deno.test("sanitizeSellerString() truncates after removal, on a code point boundary", () => {
  strictEqual(sanitizeSellerString("\u202Eabc", { maxBytes: 3 }), "abc");
  strictEqual(sanitizeSellerString("ab\u{1F600}", { maxBytes: 5 }), "ab");
  strictEqual(sanitizeSellerString("ab\u{1F600}", { maxBytes: 6 }), "ab\u{1F600}");
  strictEqual(sanitizeSellerString("日本語", { maxBytes: 8 }), "日本");
});

Deno.test("sanitizeSellerString() long-input prefix path agrees with the full path", () => {
  // maxBytes 4 uses a 24-unit prefix; put the interesting part around the cut.
  const cases: [string, number, string][] = [
    ["\u0000".repeat(23) + "\u{1F600}" + "b".repeat(10), 4, "\u{1F600}"],
    ["\u0000".repeat(22) + "a\u{1F600}" + "b".repeat(10), 4, "a"],
    ["\u200B".repeat(40) + "xyz", 2, "xy"],
    ["\u0000".repeat(23) + "\uD800" + "b".repeat(10), 4, "\uFFFDb"],
    ["é".repeat(100), 5, "éé"],
    ["a".repeat(5000), 256, "a".repeat(256)],
  ];
  for (const [input, maxBytes, expected] of cases) {
    strictEqual(sanitizeSellerString(input, { maxBytes }), expected);
  }
});

Deno.test("sanitizeSellerString() presets are 256 bytes for message and 512 for suggestion", () => {
  strictEqual(SELLER_STRING_LIMITS.message, 256);
  strictEqual(SELLER_STRING_LIMITS.suggestion, 512);
  strictEqual(SELLER_STRING_LIMITS.field, 256);
  ok(Object.isFrozen(SELLER_STRING_LIMITS));
  const long = "ü".repeat(1000);
  strictEqual(
    utf8Length(sanitizeSellerString(long, { maxBytes: SELLER_STRING_LIMITS.message })),
    256,
  );
  strictEqual(
    utf8Length(sanitizeSellerString(long, { maxBytes: SELLER_STRING_LIMITS.suggestion })),
    512,
  );
});

Deno.test("sanitizeSellerString() rejects malformed arguments with TypeError or RangeError", () => {
  const call = (value: unknown, options: unknown) => () =>
    sanitizeSellerString(value as never, options as never);
  throws(call(1, { maxBytes: 1 }), {
    name: "TypeError",
    message: "Expected value to be a string, got number",
  });
  throws(call("a", null), {
    name: "TypeError",
    message: "Expected options to be an object, got null",
  });
  throws(call("a", {}), {
    name: "TypeError",
    message: "Expected options.maxBytes to be a number, got undefined",
  });
  for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
    throws(call("a", { maxBytes: bad }), {
      name: "RangeError",
      message: `Expected options.maxBytes to be a non-negative safe integer, got ${bad}`,
    });
  }
});

Deno.test("sanitizeSellerString() output has no removed code point, fits, is well-formed and stable", () => {
  fc.assert(
    fc.property(hostileString(300), fc.integer({ min: 0, max: 600 }), (input, maxBytes) => {
      const out = sanitizeSellerString(input, { maxBytes });
      strictEqual(strippedCodePoints(out).length, 0);
      ok(utf8Length(out) <= maxBytes);
      ok(out.isWellFormed());
      strictEqual(sanitizeSellerString(out, { maxBytes }), out);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("sanitizeSellerString() equals a code-point-by-code-point reference", () => {
  fc.assert(
    fc.property(hostileString(200), fc.integer({ min: 0, max: 120 }), (input, maxBytes) => {
      strictEqual(sanitizeSellerString(input, { maxBytes }), referenceSanitize(input, maxBytes));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("sanitizeSellerString() keeps clean input that fits unchanged", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (input) => {
      fc.pre(![...input].some((char) => inStripSet(char.codePointAt(0)!)));
      strictEqual(sanitizeSellerString(input, { maxBytes: 1024 }), input);
    }),
  );
});
