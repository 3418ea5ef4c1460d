import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { splitAt } from "../_test_utils.ts";
import { MalformedUtf8Error } from "../errors.ts";
import { decodeUtf8, Utf8StreamDecoder } from "./_utf8_decoder.ts";

const fatal = new TextDecoder("utf-8", { fatal: true });

/** What a fatal decoder says: the text, or "invalid". */
function reference(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    return "invalid";
  }
}

function ours(bytes: Uint8Array): string {
  try {
    return decodeUtf8(bytes);
  } catch (error) {
    if (error instanceof MalformedUtf8Error) return "invalid";
    throw error;
  }
}

function oursStreamed(chunks: Uint8Array[]): string {
  const decoder = new Utf8StreamDecoder();
  let text = "";
  try {
    for (const chunk of chunks) text += decoder.decode(chunk);
  } catch (error) {
    if (error instanceof MalformedUtf8Error) return "invalid";
    throw error;
  }
  return decoder.pending > 0 ? "invalid" : text;
}

// Bytes biased towards UTF-8 edge cases: lead bytes, continuations, ASCII, U+FFFD's encoding.
const utf8ish = fc.array(
  fc.oneof(
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom(0xef, 0xbf, 0xbd, 0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0x80, 0xa0, 0x41),
  ),
  { maxLength: 40 },
).map((values) => new Uint8Array(values));

Deno.test("decodeUtf8() agrees with a fatal TextDecoder on arbitrary bytes", () => {
  fc.assert(
    fc.property(utf8ish, (bytes) => {
      const expected = reference(bytes);
      strictEqual(ours(bytes), expected.charCodeAt(0) === 0xfeff ? expected.slice(1) : expected);
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("Utf8StreamDecoder gives the same result whatever the chunk boundaries", () => {
  fc.assert(
    fc.property(utf8ish, fc.array(fc.nat({ max: 40 }), { maxLength: 8 }), (bytes, cuts) => {
      strictEqual(oursStreamed(splitAt(bytes, cuts)), ours(bytes));
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("Utf8StreamDecoder round-trips arbitrary text split anywhere", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fc.array(fc.nat({ max: 120 })),
      (text, cuts) => {
        const bytes = new TextEncoder().encode(text);
        const expected = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
        strictEqual(oursStreamed(splitAt(bytes, cuts)), expected);
      },
    ),
  );
});

Deno.test("decodeUtf8() keeps a genuine U+FFFD and rejects a malformed sequence", () => {
  strictEqual(decodeUtf8(new Uint8Array([0x61, 0xef, 0xbf, 0xbd, 0x62])), "a\uFFFDb");
  throws(() => decodeUtf8(new Uint8Array([0x61, 0xc3, 0x28])), MalformedUtf8Error);
  throws(() => decodeUtf8(new Uint8Array([0xed, 0xa0, 0x80])), MalformedUtf8Error); // surrogate
  throws(() => decodeUtf8(new Uint8Array([0xe2, 0x82])), MalformedUtf8Error); // truncated
});

Deno.test("decoders drop a byte order mark only at the very start", () => {
  strictEqual(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])), "{}");
  const decoder = new Utf8StreamDecoder();
  deepStrictEqual(
    [
      decoder.decode(new Uint8Array([0xef, 0xbb])),
      decoder.decode(new Uint8Array([0xbf, 0x61])),
      decoder.decode(new Uint8Array([0xef, 0xbb, 0xbf])),
    ],
    ["", "a", "\uFEFF"],
  );
});

Deno.test("Utf8StreamDecoder.lastWasAscii holds exactly when the chunk is all ASCII", () => {
  const encoder = new TextEncoder();
  const decoder = new Utf8StreamDecoder();
  decoder.decode(encoder.encode("\uFEFFdata")); // BOM dropped: indexes shifted
  strictEqual(decoder.lastWasAscii, false);
  decoder.decode(encoder.encode("data: x\n\n"));
  strictEqual(decoder.lastWasAscii, true);
  // A four-byte character carried in (2 units from 1 byte) and a two-byte one (1 unit from 2
  // bytes): as many units as bytes, yet not ASCII.
  decoder.decode(new Uint8Array([0x61, 0xf0, 0x9f, 0x98]));
  strictEqual(decoder.lastWasAscii, false); // carried out
  const text = decoder.decode(new Uint8Array([0x80, 0xc3, 0xa9, 0x61]));
  strictEqual(text.length, 4);
  strictEqual(decoder.lastWasAscii, false);
  decoder.decode(encoder.encode("é"));
  strictEqual(decoder.lastWasAscii, false);
  fc.assert(
    fc.property(fc.uint8Array({ max: 0x7f, maxLength: 64 }), (bytes) => {
      const fresh = new Utf8StreamDecoder();
      fresh.decode(encoder.encode("x")); // past the BOM check
      fresh.decode(bytes);
      strictEqual(fresh.lastWasAscii, true);
    }),
  );
});
