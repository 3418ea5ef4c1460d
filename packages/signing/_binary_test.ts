// Tests of the two Base64 spellings of AdCP signature values: RFC 8941 sf-binary (standard
// alphabet, padding required: the 3.2 request profile) and unpadded Base64URL (3.0/3.1 requests,
// webhook-signing v1). Each decodes only its own canonical spelling: pad bits, padding and
// alphabet mixes are refused, and encode/decode round-trip on any bytes.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { type BinaryEncoding, decodeBinary, encodeBinary } from "./_binary.ts";

const ENCODINGS: readonly BinaryEncoding[] = ["sf-binary", "base64url"];
const bytes = (...values: number[]) => new Uint8Array(values);

/** The standard-alphabet padded Base64 of `data`, from the platform (an independent oracle). */
function platformBase64(data: Uint8Array): string {
  let binary = "";
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function toUrl(standard: string): string {
  return standard.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

Deno.test("encodeBinary() writes the RFC 4648 test vectors in both spellings", () => {
  // RFC 4648 §10.
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "Zg=="],
    ["fo", "Zm8="],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg=="],
    ["fooba", "Zm9vYmE="],
    ["foobar", "Zm9vYmFy"],
  ];
  for (const [text, standard] of vectors) {
    const data = new TextEncoder().encode(text);
    strictEqual(encodeBinary(data, "sf-binary"), standard);
    strictEqual(encodeBinary(data, "base64url"), standard.replace(/=+$/, ""));
    deepStrictEqual(decodeBinary(standard, "sf-binary"), data);
    deepStrictEqual(decodeBinary(standard.replace(/=+$/, ""), "base64url"), data);
  }
});

Deno.test("encodeBinary() uses + and / in sf-binary, - and _ in base64url", () => {
  const data = bytes(0xfb, 0xff, 0xbf);
  strictEqual(encodeBinary(data, "sf-binary"), "+/+/");
  strictEqual(encodeBinary(data, "base64url"), "-_-_");
  deepStrictEqual(decodeBinary("+/+/", "sf-binary"), data);
  deepStrictEqual(decodeBinary("-_-_", "base64url"), data);
});

Deno.test("decodeBinary() reads the empty string as no bytes in both spellings", () => {
  for (const encoding of ENCODINGS) deepStrictEqual(decodeBinary("", encoding), new Uint8Array(0));
});

Deno.test("decodeBinary() refuses non-zero pad bits (one value, one spelling)", () => {
  // "Zg" is the canonical 0x66; "Zh".."Zv" carry the same byte with non-zero pad bits.
  deepStrictEqual(decodeBinary("Zg==", "sf-binary"), bytes(0x66));
  deepStrictEqual(decodeBinary("Zg", "base64url"), bytes(0x66));
  for (const last of "hijklmnopqrstuv") {
    strictEqual(decodeBinary(`Z${last}==`, "sf-binary"), undefined, last);
    strictEqual(decodeBinary(`Z${last}`, "base64url"), undefined, last);
  }
  // Two bytes: 2 pad bits.
  deepStrictEqual(decodeBinary("Zm8=", "sf-binary"), bytes(0x66, 0x6f));
  for (const last of "9+/") strictEqual(decodeBinary(`Zm${last}=`, "sf-binary"), undefined, last);
  for (const last of "9-_") strictEqual(decodeBinary(`Zm${last}`, "base64url"), undefined, last);
  strictEqual(decodeBinary("AB==", "sf-binary"), undefined);
  strictEqual(decodeBinary("AAB=", "sf-binary"), undefined);
});

Deno.test("decodeBinary() sf-binary requires exactly the canonical padding", () => {
  strictEqual(decodeBinary("Zg", "sf-binary"), undefined); // padding missing
  strictEqual(decodeBinary("Zg=", "sf-binary"), undefined); // one short
  strictEqual(decodeBinary("Zm8", "sf-binary"), undefined);
  strictEqual(decodeBinary("Zm8==", "sf-binary"), undefined); // one too many
  strictEqual(decodeBinary("Zm9v=", "sf-binary"), undefined);
  strictEqual(decodeBinary("Zm9v====", "sf-binary"), undefined);
  strictEqual(decodeBinary("Zg===", "sf-binary"), undefined);
  strictEqual(decodeBinary("Z===", "sf-binary"), undefined);
  strictEqual(decodeBinary("====", "sf-binary"), undefined);
  strictEqual(decodeBinary("=", "sf-binary"), undefined);
  strictEqual(decodeBinary("==", "sf-binary"), undefined);
  // Padding only at the end.
  strictEqual(decodeBinary("Zg==Zg==", "sf-binary"), undefined);
  strictEqual(decodeBinary("Z=g=", "sf-binary"), undefined);
  strictEqual(decodeBinary("=Zg=", "sf-binary"), undefined);
  // A lone sextet cannot be a byte.
  strictEqual(decodeBinary("ZZZZZ===", "sf-binary"), undefined);
});

Deno.test("decodeBinary() base64url refuses any padding and impossible lengths", () => {
  strictEqual(decodeBinary("Zg==", "base64url"), undefined);
  strictEqual(decodeBinary("Zm8=", "base64url"), undefined);
  strictEqual(decodeBinary("Zg=", "base64url"), undefined);
  strictEqual(decodeBinary("=", "base64url"), undefined);
  strictEqual(decodeBinary("Z", "base64url"), undefined); // 4n+1 characters
  strictEqual(decodeBinary("Zm9vY", "base64url"), undefined);
});

Deno.test("decodeBinary() refuses mixing the two alphabets, in either direction", () => {
  // "-" and "_" are Base64URL only; "+" and "/" are standard only.
  strictEqual(decodeBinary("-_-_", "sf-binary"), undefined);
  strictEqual(decodeBinary("+/+/", "base64url"), undefined);
  strictEqual(decodeBinary("+_+_", "sf-binary"), undefined);
  strictEqual(decodeBinary("+_+_", "base64url"), undefined);
  strictEqual(decodeBinary("-/-/", "sf-binary"), undefined);
  strictEqual(decodeBinary("-/-/", "base64url"), undefined);
  // The Base64URL form of a padded value, with its padding, is neither spelling.
  strictEqual(decodeBinary("-w==", "sf-binary"), undefined);
  strictEqual(decodeBinary("-w==", "base64url"), undefined);
});

Deno.test("decodeBinary() refuses characters outside both alphabets", () => {
  for (const bad of [" ", "\t", "\n", ".", "*", ":", "\u00e9", "\u0100", "\ud83d\ude00", "\0"]) {
    for (const encoding of ENCODINGS) {
      strictEqual(decodeBinary(`AA${bad}A`, encoding), undefined, JSON.stringify(bad));
      strictEqual(decodeBinary(`${bad}AAA`, encoding), undefined, JSON.stringify(bad));
    }
  }
  // Characters whose code is >= 128 but whose low 7 bits are an alphabet letter.
  strictEqual(decodeBinary("AA\u00c1A", "sf-binary"), undefined);
  strictEqual(decodeBinary("AA\u0141A", "base64url"), undefined);
});

Deno.test("decodeBinary() decodes a 64-byte signature in both spellings", () => {
  const signature = new Uint8Array(64).map((_, i) => (i * 37 + 11) & 0xff);
  const standard = encodeBinary(signature, "sf-binary");
  const url = encodeBinary(signature, "base64url");
  strictEqual(standard.length, 88);
  ok(standard.endsWith("=="));
  strictEqual(url.length, 86);
  deepStrictEqual(decodeBinary(standard, "sf-binary"), signature);
  deepStrictEqual(decodeBinary(url, "base64url"), signature);
  strictEqual(decodeBinary(standard, "base64url"), undefined);
  strictEqual(decodeBinary(url, "sf-binary"), undefined);
});

Deno.test("property: decodeBinary(encodeBinary(b)) is b, in both spellings", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(...ENCODINGS), (data, enc) => {
      const text = encodeBinary(data, enc);
      deepStrictEqual(decodeBinary(text, enc), data);
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("property: encodeBinary() agrees with the platform's btoa", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
      const standard = platformBase64(data);
      strictEqual(encodeBinary(data, "sf-binary"), standard);
      strictEqual(encodeBinary(data, "base64url"), toUrl(standard));
    }),
    { numRuns: 1_000 },
  );
});

Deno.test("property: every accepted text is the canonical spelling of what it decodes to", () => {
  // Any string over both alphabets plus "=": when decodeBinary accepts it, re-encoding gives the
  // same text back (so no two texts decode to the same bytes).
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=";
  const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }).map((cs) => cs.join(""));
  fc.assert(
    fc.property(text, fc.constantFrom(...ENCODINGS), (candidate, encoding) => {
      const decoded = decodeBinary(candidate, encoding);
      if (decoded !== undefined) strictEqual(encodeBinary(decoded, encoding), candidate);
    }),
    { numRuns: 5_000 },
  );
});

Deno.test("property: a single changed character changes the bytes or is refused", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
      fc.constantFrom(...ENCODINGS),
      fc.nat(),
      fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_="),
      (data, encoding, at, replacement) => {
        const text = encodeBinary(data, encoding);
        const i = at % text.length;
        if (text[i] === replacement) return;
        const changed = text.slice(0, i) + replacement + text.slice(i + 1);
        const decoded = decodeBinary(changed, encoding);
        if (decoded !== undefined) {
          ok(
            decoded.length !== data.length || decoded.some((b, j) => b !== data[j]),
            `${changed} decoded to the same bytes as ${text}`,
          );
        }
      },
    ),
    { numRuns: 3_000 },
  );
});

Deno.test("property: decodeBinary() answers any string with bytes or undefined", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 64 }), fc.constantFrom(...ENCODINGS), (
      text,
      encoding,
    ) => {
      const decoded = decodeBinary(text, encoding);
      ok(decoded === undefined || decoded instanceof Uint8Array);
    }),
    { numRuns: 2_000 },
  );
});
