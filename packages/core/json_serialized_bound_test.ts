import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  DataPartTooLargeError,
  EXPONENT_GROWTH_BYTES,
  extractAdcpResponseFromA2A,
  jsonSerializedBound,
} from "./mod.ts";

const encoder = new TextEncoder();
const utf8 = (text: string): number => encoder.encode(text).length;

/** Every value inside `value` (itself included). */
function* values(value: unknown): Generator<unknown> {
  yield value;
  if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) yield* values(item);
  }
}

/** JSON source text with numbers in every notation, whitespace, escapes and duplicate keys. */
const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc.tuple(
    fc.constantFrom("", "-"),
    fc.integer({ min: 0, max: 99_999 }),
    fc.constantFrom("", ".5", ".125", ".000001"),
    fc.constantFrom("e", "E", "e+", "e-", "E-"),
    fc.integer({ min: 0, max: 400 }),
  ).map(([sign, int, frac, marker, exp]) => `${sign}${int}${frac}${marker}${exp}`),
);
const string = fc.oneof(
  fc.string({ unit: "grapheme" }).map((text) => JSON.stringify(text)),
  fc.constantFrom('"\\u00e9\\/\\n"', '"\\ud800"', '"3e4f"', '"\\u0001"'),
);
const { source } = fc.letrec<{ source: string }>((tie) => ({
  source: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    number,
    string,
    fc.constantFrom("true", "false", "null"),
    fc.array(tie("source")).map((items) => `[ ${items.join(" , ")} ]`),
    fc.array(fc.tuple(string, tie("source"))).map((members) =>
      `{ ${members.map(([key, item]) => `${key} : ${item}`).join(",")} }`
    ),
  ),
}));

Deno.test("jsonSerializedBound bounds the serialization of every value inside", () => {
  fc.assert(
    fc.property(source, (text) => {
      const bound = jsonSerializedBound(text, utf8(text));
      for (const value of values(JSON.parse(text))) {
        ok(utf8(JSON.stringify(value)) <= bound, text);
      }
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("jsonSerializedBound: an exponent grows a number by at most 17 bytes", () => {
  let most = 0;
  for (const sign of ["", "-"]) {
    for (const mantissa of ["1", "9", "1.5", "12", "0.1", "0"]) {
      for (const marker of ["e", "E", "e+", "e-"]) {
        for (let exp = 0; exp <= 400; exp++) {
          const text = `${sign}${mantissa}${marker}${exp}`;
          const grown = JSON.stringify(JSON.parse(text)).length - text.length;
          most = Math.max(most, grown);
        }
      }
    }
  }
  strictEqual(most, EXPONENT_GROWTH_BYTES); // 1e20, written 100000000000000000000
  strictEqual(jsonSerializedBound("[1e20,1e20]", 11), 11 + 2 * 17);
  strictEqual(jsonSerializedBound('{"a":"no numbers"}', 18), 18);
});

Deno.test("jsonSerializedBound refuses wrong arguments", () => {
  throws(() => jsonSerializedBound(1 as unknown as string, 1), TypeError);
  throws(() => jsonSerializedBound("1", "1" as unknown as number), TypeError);
  throws(() => jsonSerializedBound("1", -1), RangeError);
  throws(() => jsonSerializedBound("1", 1.5), RangeError);
});

/** A completed task whose one DataPart holds `data`, as JSON text. */
function taskText(data: string): string {
  return `{"id":"t1","status":{"state":"completed"},"artifacts":[{"parts":[{"data":${data}}]}]}`;
}

Deno.test("sourceJsonBytes skips the measure only when within the limit", () => {
  // 40 numbers written 1e20: 207 source bytes, serialized 40 × 22 + 9 = 889.
  const text = taskText(`{"n":[${Array(40).fill("1e20").join(",")}]}`);
  const task = JSON.parse(text);
  const bound = jsonSerializedBound(text, utf8(text));
  ok(bound >= utf8(JSON.stringify(task)));
  // The bound is honest: with it, a limit below the true size still refuses.
  throws(
    () => extractAdcpResponseFromA2A(task, { maxDataPartBytes: 600, sourceJsonBytes: bound }),
    DataPartTooLargeError,
  );
  // A limit above the bound skips the walk and returns the same data.
  deepStrictEqual(
    extractAdcpResponseFromA2A(task, { maxDataPartBytes: bound, sourceJsonBytes: bound }),
    extractAdcpResponseFromA2A(task, { maxDataPartBytes: bound }),
  );
  throws(() => extractAdcpResponseFromA2A(task, { sourceJsonBytes: -1 }), RangeError);
  throws(
    () => extractAdcpResponseFromA2A(task, { sourceJsonBytes: "1" as unknown as number }),
    TypeError,
  );
});
