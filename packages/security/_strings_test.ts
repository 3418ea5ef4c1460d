import fc from "fast-check";
import { ok, strictEqual } from "node:assert/strict";
import { cutFromStart, findCut, truncateUtf8 } from "./_strings.ts";

const encoder = new TextEncoder();
const bytesOf = (text: string): number => encoder.encode(text).length;

/** The reference cut: encodeInto stops before the first code point that does not fit. */
function referenceCut(text: string, maxBytes: number): number {
  return encoder.encodeInto(text, new Uint8Array(maxBytes)).read;
}

/** Well-formed strings of 1- to 4-byte code points, runs of one kind mixed with others. */
const wellFormed = fc.array(
  fc.oneof(
    fc.constantFrom("a", "é", "€", "\u{1F600}", "\u{10FFFF}", "\u07FF", "\u0800", "\uFFFF"),
    fc.constantFrom("a", "é", "€", "\u{1F600}").chain((unit) =>
      fc.integer({ min: 1, max: 200 }).map((count) => unit.repeat(count))
    ),
  ),
  { maxLength: 40 },
).map((parts) => parts.join(""));

Deno.test("findCut() finds the longest prefix that fits, like encodeInto", () => {
  fc.assert(
    fc.property(wellFormed, fc.double({ min: 0, max: 1, noNaN: true }), (text, at) => {
      const total = bytesOf(text);
      if (total === 0) return;
      const maxBytes = Math.floor(at * (total - 1));
      let calls = 0;
      const measure = (span: string) => {
        calls++;
        return bytesOf(span);
      };
      strictEqual(findCut(text, maxBytes, total, measure), referenceCut(text, maxBytes));
      // Safeguarded: never more than about twice a binary search over the units.
      ok(calls <= 2 * Math.ceil(Math.log2(text.length + 1)) + 2, `${calls} measurements`);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("findCut() never splits a surrogate pair, wherever the search lands", () => {
  for (let padding = 0; padding < 80; padding++) {
    const text = "a".repeat(padding) + "\u{1F600}".repeat(200) + "é".repeat(padding);
    const total = bytesOf(text);
    for (let maxBytes = 0; maxBytes < total; maxBytes += 7) {
      strictEqual(findCut(text, maxBytes, total, bytesOf), referenceCut(text, maxBytes));
    }
  }
});

Deno.test("cutFromStart() keeps whole code points while they fit", () => {
  fc.assert(
    fc.property(wellFormed, fc.nat(2000), (text, maxBytes) => {
      strictEqual(cutFromStart(text, maxBytes), referenceCut(text, maxBytes));
    }),
    { numRuns: 1000 },
  );
});

Deno.test("truncateUtf8() gives the longest fitting prefix for small and large caps", () => {
  fc.assert(
    fc.property(
      wellFormed,
      fc.oneof(fc.nat(1100), fc.integer({ min: 1025, max: 40_000 })),
      (text, maxBytes) => {
        const out = truncateUtf8(text, maxBytes);
        strictEqual(out, text.slice(0, referenceCut(text, maxBytes)));
        ok(bytesOf(out) <= maxBytes);
      },
    ),
    { numRuns: 2000 },
  );
});
