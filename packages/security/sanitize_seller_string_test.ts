import fc from "fast-check";
import { AssertionError, ok, strictEqual, throws } from "node:assert/strict";
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
  strictEqual(removed.join(","), expected.filter((codePoint) => codePoint <= 0xffff).join(","));
  // C0, DEL+C1, U+00AD, U+061C, U+180E, U+200B–F, U+2028–E, U+2060–4, U+2066–F, U+FEFF, U+FFF9–B.
  strictEqual(removed.length, 32 + 33 + 1 + 1 + 1 + 5 + 7 + 5 + 10 + 1 + 3);
});

Deno.test(
  "sanitizeSellerString() removes exactly the tag block among all astral code points",
  () => {
    const removed: number[] = [];
    for (let codePoint = 0x10000; codePoint <= 0x10ffff; codePoint++) {
      const char = String.fromCodePoint(codePoint);
      const out = sanitizeSellerString(`a${char}b`, { maxBytes: 16 });
      if (out === "ab") removed.push(codePoint);
      else if (out !== `a${char}b`) {
        throw new AssertionError({ message: `U+${codePoint.toString(16)}` });
      }
    }
    strictEqual(removed.length, 0x80);
    strictEqual(removed[0], 0xe0000);
    strictEqual(removed.at(-1), 0xe007f);
  },
);

Deno.test(
  "sanitizeSellerString() removes each added invisible character, keeping its neighbours",
  () => {
    const cases: [string, string, string][] = [
      // [removed, lower neighbour, upper neighbour]
      ["\u00AD", "\u00AC", "\u00AE"], // soft hyphen
      ["\u061C", "\u061B", "\u061D"], // Arabic letter mark
      ["\u180E", "\u180D", "\u180F"], // Mongolian vowel separator
      ["\u2060", "\u205F", "\u2061"], // word joiner
      ["\u2064", "\u2063", "\u2065"], // invisible plus (U+2065 is unassigned, kept)
      ["\u206A", "\u2069", "\u206B"], // inhibit symmetric swapping
      ["\u206F", "\u206E", "\u2070"], // nominal digit shapes
      ["\uFFF9", "\uFFF8", "\uFFFA"], // interlinear annotation anchor
      ["\uFFFB", "\uFFFA", "\uFFFC"], // interlinear annotation terminator
      ["\u{E0000}", "\u{DFFFF}", "\u{E0001}"], // first of the tag block
      ["\u{E007F}", "\u{E007E}", "\u{E0080}"], // cancel tag, last of the tag block
    ];
    for (const [removed, lower, upper] of cases) {
      const keep = (char: string) => inStripSet(char.codePointAt(0)!) ? "" : char;
      strictEqual(
        sanitizeSellerString(`${lower}a${removed}b${upper}`, { maxBytes: 64 }),
        `${keep(lower)}ab${keep(upper)}`,
        removed,
      );
    }
    // Subdivision flag: black flag, tags g b s c t, cancel tag. Only the black flag stays.
    strictEqual(
      sanitizeSellerString("\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", {
        maxBytes: 64,
      }),
      "\u{1F3F4}",
    );
  },
);

Deno.test(
  "sanitizeSellerString() never splits a tag character's surrogate pair at a byte cap",
  () => {
    const tag = "\u{E0041}";
    // Tags are removed before truncation, so they never count against the cap, wherever they sit:
    // before the cut, on it, or across the prefix boundary of the long-input path (2 * maxBytes +
    // 16 units). Removed filler in front keeps the pair's position inside the sanitized output.
    for (let maxBytes = 0; maxBytes <= 12; maxBytes++) {
      const expected = "b".repeat(maxBytes);
      for (let at = 0; at <= 2 * maxBytes + 20; at++) {
        for (const filler of ["\u0000".repeat(at), "\u0000" + tag.repeat(at)]) {
          const out = sanitizeSellerString(filler + tag + "b".repeat(40), { maxBytes });
          strictEqual(out, expected, `${maxBytes} ${at} ${filler.length}`);
        }
        // Kept text before the tag is cut on a code point boundary as usual.
        const mixed = "a".repeat(at) + tag + "\u{1F600}b";
        strictEqual(sanitizeSellerString(mixed, { maxBytes }), referenceSanitize(mixed, maxBytes));
      }
    }
    // A lone high surrogate of the tag block is not a tag: it becomes U+FFFD (3 bytes).
    strictEqual(sanitizeSellerString("a\uDB40", { maxBytes: 4 }), "a\uFFFD");
    strictEqual(sanitizeSellerString("a\uDB40", { maxBytes: 3 }), "a");
    strictEqual(sanitizeSellerString("\uDC41\uDB40", { maxBytes: 16 }), "\uFFFD\uFFFD");
  },
);

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
    message: "Cannot sanitize a seller string as 'value' must be a string: current value is 1",
  });
  throws(call("a", null), {
    name: "TypeError",
    message:
      "Cannot sanitize a seller string as 'options' must be an object: current value is null",
  });
  throws(call("a", {}), {
    name: "TypeError",
    message: "Cannot sanitize a seller string as 'options.maxBytes' must be a non-negative safe " +
      "integer: current value is undefined",
  });
  for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
    throws(call("a", { maxBytes: bad }), {
      name: "RangeError",
      message:
        "Cannot sanitize a seller string as 'options.maxBytes' must be a non-negative safe " +
        `integer: current value is ${bad}`,
    });
  }
});

Deno.test(
  "sanitizeSellerString() output has no removed code point, fits, is well-formed and stable",
  () => {
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
  },
);

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
