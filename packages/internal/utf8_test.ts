import fc from "fast-check";
import { strictEqual } from "node:assert/strict";
import {
  findNativeCounter,
  nativeUtf8Length,
  portableUtf8LengthUpTo,
  utf8LengthExceeds,
  utf8LengthUpTo,
} from "./utf8.ts";

/** Reference count: a char-code loop, lone surrogates as U+FFFD (3 bytes). */
function referenceLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index++;
      } else {
        bytes += 3;
      }
    } else bytes += 3;
  }
  return bytes;
}

/** Asserts that every counter (chosen, portable, native) measures `text` as `expected` bytes. */
function assertCounted(text: string, expected: number): void {
  strictEqual(utf8LengthUpTo(text, Infinity), expected);
  strictEqual(portableUtf8LengthUpTo(text, Infinity), expected);
  if (nativeUtf8Length !== undefined) strictEqual(nativeUtf8Length(text), expected);
}

const CHUNK = 32_768;
const codeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 64 })
  .map((units) => String.fromCharCode(...units));
const surrogateHeavy = fc.array(
  fc.constantFrom("a", "é", "€", "\u{1F600}", "\ud800", "\udc00", "\udbff\udfff"),
  { maxLength: 64 },
).map((parts) => parts.join(""));

Deno.test("utf8LengthUpTo() counts like TextEncoder and the reference loop", () => {
  const encoder = new TextEncoder();
  fc.assert(
    fc.property(fc.oneof(codeUnits, surrogateHeavy, fc.string({ unit: "binary" })), (text) => {
      const expected = encoder.encode(text).length;
      strictEqual(referenceLength(text), expected);
      assertCounted(text, expected);
    }),
  );
});

Deno.test("utf8LengthUpTo() keeps surrogate pairs whole across chunk boundaries", () => {
  const encoder = new TextEncoder();
  fc.assert(
    fc.property(
      fc.integer({ min: CHUNK - 4, max: CHUNK + 1 }),
      fc.oneof(codeUnits, surrogateHeavy),
      (padding, tail) => {
        const text = "a".repeat(padding) + tail + "a".repeat(padding) + tail;
        assertCounted(text, encoder.encode(text).length);
      },
    ),
    { numRuns: 200 },
  );
  const pairOnBoundary = "a".repeat(CHUNK - 1) + "\u{1F600}";
  assertCounted(pairOnBoundary, CHUNK - 1 + 4);
  const loneHighOnBoundary = "a".repeat(CHUNK - 1) + "\ud800" + "b";
  assertCounted(loneHighOnBoundary, CHUNK - 1 + 3 + 1);
  const loneLowAfterBoundary = "a".repeat(CHUNK) + "\udc00";
  assertCounted(loneLowAfterBoundary, CHUNK + 3);
});

Deno.test("utf8LengthUpTo() counts text with and without units above U+00FF alike", () => {
  const encoder = new TextEncoder();
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 0xff }), { maxLength: 64 }),
      fc.option(fc.integer({ min: 0x100, max: 0xffff }), { nil: undefined }),
      fc.nat(64),
      (narrow, wide, at) => {
        const units = [...narrow];
        if (wide !== undefined) units.splice(at, 0, wide);
        const text = String.fromCharCode(...units);
        assertCounted(text, encoder.encode(text).length);
      },
    ),
  );
  assertCounted("é".repeat(10), 20);
  assertCounted("é".repeat(10) + "€", 23);
});

Deno.test(
  "utf8LengthUpTo() counts Latin-1 text that turns non-ASCII after whole ASCII chunks",
  () => {
    const encoder = new TextEncoder();
    const latin1 = fc.array(fc.integer({ min: 0, max: 0xff }), { maxLength: 64 })
      .map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 * CHUNK + 1 }), latin1, latin1, (padding, a, b) => {
        const text = "a".repeat(padding) + a + "b".repeat(CHUNK) + b;
        assertCounted(text, encoder.encode(text).length);
      }),
      { numRuns: 200 },
    );
  },
);

Deno.test("portableUtf8LengthUpTo() stops counting soon after the limit", () => {
  // after the first ASCII chunk
  strictEqual(portableUtf8LengthUpTo("a".repeat(CHUNK * 4), 10), CHUNK);
  // 6th é run
  strictEqual(portableUtf8LengthUpTo("éa".repeat(CHUNK * 2), CHUNK * 4 + 5), CHUNK * 4 + 6);
  // units alone are past 10
  strictEqual(portableUtf8LengthUpTo("é".repeat(CHUNK * 4), 10), CHUNK * 4);
  // one run
  strictEqual(portableUtf8LengthUpTo("€".repeat(CHUNK * 4) + "a", 10), CHUNK * 4 * 3 + 1);
  // 20 units, then the first run: 2 extra
  strictEqual(portableUtf8LengthUpTo("€a".repeat(10), 21), 22);
});

Deno.test("utf8LengthExceeds() matches the exact count at every limit", () => {
  fc.assert(
    fc.property(
      fc.oneof(codeUnits, surrogateHeavy),
      fc.integer({ min: 0, max: 200 }),
      (text, limit) => {
        strictEqual(utf8LengthExceeds(text, limit), referenceLength(text) > limit);
      },
    ),
  );
});

Deno.test("utf8LengthExceeds() decides at the exact byte boundary", () => {
  const euros = "€".repeat(1400); // 1,400 UTF-16 units, 4,200 UTF-8 bytes
  strictEqual(utf8LengthExceeds(euros, 4200), false);
  strictEqual(utf8LengthExceeds(euros, 4199), true);
  strictEqual(utf8LengthExceeds("a".repeat(4096), 4096), false);
  strictEqual(utf8LengthExceeds("a".repeat(4097), 4096), true);
  strictEqual(utf8LengthExceeds("\u{1F600}".repeat(3), 12), false);
  strictEqual(utf8LengthExceeds("\u{1F600}".repeat(3), 11), true);
  strictEqual(utf8LengthExceeds("\ud800".repeat(3), 9), false); // lone surrogates: 3 bytes each
  strictEqual(utf8LengthExceeds("\ud800".repeat(3), 8), true);
  strictEqual(utf8LengthExceeds("", 0), false);
});

Deno.test("the native counter is found in Deno and used for exact counts", () => {
  // Deno 2 has a global Buffer whose byteLength passes the probe; if this fails, the exact count
  // silently fell back to the portable counters (about 50 times slower on Latin-1 text).
  strictEqual(typeof nativeUtf8Length, "function");
  const text = "é".repeat(CHUNK * 2) + "\ud800";
  assertCounted(text, CHUNK * 4 + 3);
  strictEqual(utf8LengthUpTo(text, 10), CHUNK * 4 + 3); // native: exact even past the limit
});

Deno.test("findNativeCounter() refuses a Buffer that does not count UTF-8 like TextEncoder", () => {
  const units = (text: string) => text.length;
  const cesu8 = (text: string) =>
    // lone surrogates right, but a pair as 6 bytes
    new TextEncoder().encode(text).length +
    2 * (text.match(/[\ud800-\udbff][\udc00-\udfff]/g) ?? []).length;
  const replacesPairs = (text: string) =>
    new TextEncoder().encode(text.replace(/[\ud800-\udfff]/g, "")).length;
  strictEqual(findNativeCounter({}), undefined);
  strictEqual(findNativeCounter({ Buffer: {} }), undefined);
  strictEqual(findNativeCounter({ Buffer: { byteLength: 7 } }), undefined);
  strictEqual(findNativeCounter({ Buffer: { byteLength: units } }), undefined);
  strictEqual(findNativeCounter({ Buffer: { byteLength: cesu8 } }), undefined);
  strictEqual(findNativeCounter({ Buffer: { byteLength: replacesPairs } }), undefined);
  const throws = () => {
    throw new Error("no");
  };
  strictEqual(findNativeCounter({ Buffer: { byteLength: throws } }), undefined);
  const exact = (text: string) => new TextEncoder().encode(text).length;
  strictEqual(findNativeCounter({ Buffer: { byteLength: exact } })?.("é€"), 5);
});
