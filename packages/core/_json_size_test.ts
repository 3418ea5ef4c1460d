import { assertTimeGrowth } from "adcp-testkit";
import { strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { jsonSizeOver, MAX_NUMBER_LENGTH, plainJsonFits } from "./_json_size.ts";

const utf8 = (text: string) => new TextEncoder().encode(text).length;

Deno.test("jsonSizeOver() agrees with the UTF-8 length of JSON.stringify at every limit", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.nat({ max: 400 }), (value, limit) => {
      const size = utf8(JSON.stringify(value));
      const over = jsonSizeOver(value, limit);
      if (size <= limit) strictEqual(over, undefined);
      else strictEqual(over !== undefined && over > limit, true);
      if (over !== undefined && over <= 6 * size + 2 && size > limit) {
        // Exact unless the walk stopped early on its lower bound, which never exceeds the size.
        strictEqual(over <= size, true);
      }
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("jsonSizeOver() measures escapes and astral characters exactly near the limit", () => {
  for (const text of ['\u0000\u001f"\\', "é—😀", "\ud800x"]) {
    const value = { text };
    const size = utf8(JSON.stringify(value));
    strictEqual(jsonSizeOver(value, size), undefined);
    strictEqual(jsonSizeOver(value, size - 1), size);
  }
});

Deno.test("jsonSizeOver() stops early on a cyclic or huge value", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const over = jsonSizeOver(cyclic, 1_000);
  strictEqual(over !== undefined && over > 1_000, true);
  const huge = Array.from({ length: 1_000_000 }, () => 0);
  const hugeOver = jsonSizeOver(huge, 100);
  strictEqual(hugeOver !== undefined && hugeOver > 100, true);
  // The walk stops at the limit: the same time for ten times the array.
  assertTimeGrowth(
    (n) => Array.from({ length: n }, () => 0),
    (array) => jsonSizeOver(array, 100),
    1_000_000,
    { growth: "constant" },
  );
});

Deno.test("plainJsonFits() never says fits when JSON.stringify writes more or throws", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.nat({ max: 600 }), (value, limit) => {
      const size = utf8(JSON.stringify(value));
      if (plainJsonFits(value, limit)) strictEqual(size <= limit, true);
      // Plain data within a sixth of the limit is always proved (6 bytes per unit at most).
      if (typeof value === "object" && value !== null && 6 * size + 8 <= limit) {
        strictEqual(plainJsonFits(value, limit), true);
      }
    }),
    { numRuns: 3_000 },
  );
});

Deno.test("plainJsonFits() leaves what JSON.stringify treats apart to the exact reading", () => {
  class Box {
    constructor(readonly v: number) {}
    toJSON(): string {
      return "x".repeat(10_000);
    }
  }
  const getter = Object.defineProperty({}, "a", {
    enumerable: true,
    get() {
      throw new Error("getter");
    },
  });
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const deep: unknown[] = [];
  let inner = deep;
  for (let level = 0; level < 100; level++) inner.push(inner = []);
  const notPlain: unknown[] = [
    { a: new Date(0) },
    { a: new Box(1) },
    { toJSON: () => "x".repeat(10_000) },
    Object.assign(Object.create({ toJSON: () => "x" }), { a: 1 }),
    { a: 1n },
    { a: () => 1 },
    { a: Symbol("s") },
    { a: undefined },
    [1, , 3], // a hole: JSON.stringify writes null
    [undefined],
    new Number(5),
    new Boolean(false),
    Object(1n),
    new String("abc"),
    new Map([[1, 2]]),
    getter,
    cyclic,
    deep,
    new Proxy({}, {
      ownKeys() {
        throw new Error("trap");
      },
    }),
  ];
  for (const value of notPlain) strictEqual(plainJsonFits(value, 4096), false);
  // Plain data, null prototypes and raw JSON included, is proved.
  strictEqual(plainJsonFits(Object.assign(Object.create(null), { a: [1, "x"] }), 4096), true);
  strictEqual(plainJsonFits(JSON.parse('{"__proto__":{"a":1},"constructor":"x"}'), 4096), true);
  const rawJSON = (JSON as { rawJSON?: (text: string) => object }).rawJSON;
  if (rawJSON !== undefined) strictEqual(plainJsonFits({ n: rawJSON("1e400") }, 4096), true);
  strictEqual(plainJsonFits("a string", 4096), false); // only containers are asked
});

Deno.test("jsonSizeOver() counts the longest number JSON.stringify writes", () => {
  const longest = -0.0000012345678901234567;
  strictEqual(JSON.stringify(longest).length, MAX_NUMBER_LENGTH);
  const size = utf8(JSON.stringify([longest]));
  strictEqual(jsonSizeOver([longest], size), undefined);
  strictEqual(jsonSizeOver([longest], size - 1), size);
});
