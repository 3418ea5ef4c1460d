// checkAdcpError answers as the plain reading (JSON.stringify, then the UTF-8 count) whatever it
// is told of the source text, because JSON.stringify never writes a parsed value in more than 21/4
// times the UTF-8 bytes of the text it came from.
import fc from "fast-check";
import { strictEqual } from "node:assert/strict";
import { checkAdcpError } from "./_adcp_error.ts";
import { adcpErrorText, jsonText } from "./_test_utils.ts";

const utf8 = (text: string) => new TextEncoder().encode(text).length;

/** The check as the spec states it: serialize, count. */
function reference(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  if (!Object.hasOwn(value, "code")) return null;
  const code = (value as { code: unknown }).code;
  if (typeof code !== "string" || code.length === 0 || code.length > 64) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return null;
  }
  return text !== undefined && utf8(text) <= 4096 ? value : null;
}

/** Numbers as JSON text writes them and JSON.stringify rewrites them longer, or shorter. */
const numberText = fc.constantFrom(
  "1e20",
  "9E20",
  "1E+20",
  "-1e20",
  "1e-7",
  "1e-6",
  "1.5e-6",
  "1e21",
  "1e400",
  "-0",
  "0.1000000000000000055511151231257827",
  "123456789012345678901234567890",
  "5e-324",
);
/** Strings with escapes, raw non-ASCII and lone surrogates (raw or escaped). */
const stringText = fc.constantFrom(
  '"\\u00e9\\u20ac"',
  '"\\/\\b\\f\\n\\r\\t\\"\\\\"',
  '"\\ud800"',
  '"\ud800"',
  '"\udc00x\ud83d"',
  '"é—😀"',
  '"\\u0001\\u001f"',
  '"\u2028\u2029"',
  '""',
);
const leaf = fc.oneof(numberText, stringText, jsonText);
/** JSON text with the values above, and whitespace, in objects and arrays. */
const text: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(
      fc.tuple(fc.constantFrom("code", "message", "n", "__proto__", "a"), tie("value")),
      { maxLength: 5 },
    ).map((entries) => `{ ${entries.map(([k, v]) => `"${k}" : ${v}`).join(" ,\n")} }`),
    fc.array(tie("value"), { maxLength: 5 }).map((items) => `[ ${items.join(" , ")} ]`),
  ),
})).value;

/** Every object and array inside `value`, itself included. */
function* containers(value: unknown): Generator<unknown> {
  if (typeof value !== "object" || value === null) return;
  yield value;
  for (const item of Object.values(value)) yield* containers(item);
}

Deno.test("JSON.stringify writes no parsed value in more than 21/4 of its source's bytes", () => {
  fc.assert(
    fc.property(text, (source) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(source);
      } catch {
        return; // not JSON: nothing parsed
      }
      for (const value of [parsed, ...containers(parsed)]) {
        strictEqual(utf8(JSON.stringify(value)) * 4 <= utf8(source) * 21, true, source);
      }
    }),
    { numRuns: 5_000 },
  );
  // The worst case: four bytes written as twenty-one.
  strictEqual(JSON.stringify(JSON.parse("9e20")), "900000000000000000000");
});

Deno.test("checkAdcpError() answers as serializing and counting, whatever the source bound", () => {
  const errorText = fc.oneof(
    adcpErrorText,
    fc.tuple(fc.constantFrom('"RATE_LIMITED"', '"X"', '""'), text).map(([code, rest]) =>
      `{"code":${code},"details":${rest}}`
    ),
  );
  fc.assert(
    fc.property(errorText, (source) => {
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch {
        return;
      }
      const expected = reference(value);
      strictEqual(checkAdcpError(value, Infinity), expected);
      strictEqual(checkAdcpError(value, utf8(source)), expected);
      strictEqual(checkAdcpError(value, 3 * source.length), expected);
    }),
    { numRuns: 5_000 },
  );
});

Deno.test("checkAdcpError() takes a source of at most 780 bytes as proof of the bound", () => {
  // Nearly 780 bytes of `9e20`s, which JSON.stringify writes in 4096 bytes or less.
  const numbers = Array.from({ length: 150 }, () => "9e20").join(",");
  const source = `{"code":"X","n":[${numbers}]}`;
  const value = JSON.parse(source);
  strictEqual(utf8(source) <= 780, true);
  strictEqual(utf8(JSON.stringify(value)) <= 4096, true);
  strictEqual(checkAdcpError(value, utf8(source)), value);
  // A larger one is measured: here it is over the bound.
  const larger = JSON.parse(`{"code":"X","n":[${numbers},${numbers}]}`);
  strictEqual(checkAdcpError(larger, Infinity), null);
  strictEqual(checkAdcpError(larger, 2 * utf8(source)), null);
});
