import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { decodeBase64Bounded } from "./decode_base64_bounded.ts";
import { Base64SizeLimitError, InvalidBase64Error, type InvalidBase64Reason } from "./errors.ts";

const bytes = (...values: number[]) => new Uint8Array(values);

function toBase64(data: Uint8Array): string {
  let binary = "";
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function expectInvalid(raw: string, reason: InvalidBase64Reason, position: number): void {
  throws(() => decodeBase64Bounded(raw, { maxBytes: 1024 }), (error: unknown) => {
    ok(error instanceof InvalidBase64Error, `${raw}: ${error}`);
    strictEqual(error.reason, reason, raw);
    strictEqual(error.position, position, raw);
    return true;
  });
}

Deno.test("decodeBase64Bounded() decodes RFC 4648 test vectors, padded and unpadded", () => {
  const cases: [string, string][] = [
    ["", ""],
    ["Zg==", "f"],
    ["Zm8=", "fo"],
    ["Zm9v", "foo"],
    ["Zm9vYg==", "foob"],
    ["Zm9vYmE=", "fooba"],
    ["Zm9vYmFy", "foobar"],
    ["Zg", "f"],
    ["Zm8", "fo"],
  ];
  for (const [encoded, text] of cases) {
    deepStrictEqual(
      decodeBase64Bounded(encoded, { maxBytes: 6 }),
      new TextEncoder().encode(text),
      encoded,
    );
  }
});

Deno.test("decodeBase64Bounded() accepts the standard or the URL-safe alphabet, not both", () => {
  deepStrictEqual(decodeBase64Bounded("+/+/", { maxBytes: 3 }), bytes(0xfb, 0xff, 0xbf));
  deepStrictEqual(decodeBase64Bounded("-_-_", { maxBytes: 3 }), bytes(0xfb, 0xff, 0xbf));
  expectInvalid("+_AA", "mixed_alphabets", 1);
  expectInvalid("AA-/", "mixed_alphabets", 3);
});

Deno.test("decodeBase64Bounded() refuses oversize payloads from the length alone", () => {
  throws(() => decodeBase64Bounded("Zm9vYmFy", { maxBytes: 5 }), (error: unknown) => {
    ok(error instanceof Base64SizeLimitError);
    strictEqual(error.limit, 5);
    strictEqual(error.observed, 6);
    return true;
  });
  deepStrictEqual(
    decodeBase64Bounded("Zm9vYmE=", { maxBytes: 5 }),
    new TextEncoder().encode("fooba"),
  );
  // Refused before the characters are read: invalid characters do not matter.
  const huge = "!".repeat(4 * 1024 * 1024);
  throws(() => decodeBase64Bounded(huge, { maxBytes: 1024 * 1024 }), (error: unknown) => {
    ok(error instanceof Base64SizeLimitError);
    strictEqual(error.observed, 3 * 1024 * 1024);
    return true;
  });
});

Deno.test(
  "decodeBase64Bounded() rejects invalid characters, lengths and padding with positions",
  () => {
    expectInvalid("Zm9v\nYmFy", "invalid_character", 4);
    expectInvalid("Zm 9", "invalid_character", 2);
    expectInvalid("Zm9é", "invalid_character", 3);
    expectInvalid("Z", "invalid_length", 1);
    expectInvalid("Zm9vY", "invalid_length", 5);
    expectInvalid("Zg=", "invalid_padding", 2);
    expectInvalid("Zm9v=", "invalid_padding", 4);
    expectInvalid("Zm9v====", "invalid_padding", 4);
    expectInvalid("Z=g=", "invalid_padding", 1);
    expectInvalid("==", "invalid_padding", 0);
  },
);

Deno.test("decodeBase64Bounded() rejects non-canonical encodings", () => {
  expectInvalid("Zh==", "non_canonical", 1);
  expectInvalid("Zm9=", "non_canonical", 2);
  expectInvalid("Zh", "non_canonical", 1);
});

Deno.test("decodeBase64Bounded() rejects malformed arguments", () => {
  throws(() => decodeBase64Bounded(1 as never, { maxBytes: 1 }), {
    name: "TypeError",
    message: "Cannot decode base64 as 'raw' must be a string: current value is 1",
  });
  throws(() => decodeBase64Bounded("", undefined as never), {
    name: "TypeError",
    message: "Cannot decode base64 as 'options' must be an object: current value is undefined",
  });
  throws(() => decodeBase64Bounded("", { maxBytes: -5 }), {
    name: "RangeError",
    message: "Cannot decode base64 as 'options.maxBytes' must be a non-negative safe integer: " +
      "current value is -5",
  });
});

Deno.test("decodeBase64Bounded() round-trips arbitrary bytes in every accepted form", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (data) => {
      const padded = toBase64(data);
      const unpadded = padded.replace(/=+$/, "");
      const urlSafe = padded.replaceAll("+", "-").replaceAll("/", "_");
      for (const form of [padded, unpadded, urlSafe]) {
        deepStrictEqual(decodeBase64Bounded(form, { maxBytes: data.length }), data);
      }
      if (data.length > 0) {
        throws(
          () => decodeBase64Bounded(padded, { maxBytes: data.length - 1 }),
          Base64SizeLimitError,
        );
      }
    }),
  );
});

Deno.test(
  "decodeBase64Bounded() never returns more than maxBytes and throws only typed errors",
  () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.integer({ min: 0, max: 40 }),
        (raw, maxBytes) => {
          try {
            ok(decodeBase64Bounded(raw, { maxBytes }).length <= maxBytes);
          } catch (error) {
            ok(error instanceof Base64SizeLimitError || error instanceof InvalidBase64Error);
          }
        },
      ),
    );
  },
);
