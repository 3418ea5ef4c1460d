import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  isJsonObject,
  isPlainObject,
  type JsonRecord,
  own,
  ownArray,
  ownElement,
  ownObject,
} from "./json.ts";

/** Keys that name inherited members of `Object.prototype`, or that JSON.parse keeps as data. */
const INHERITED_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
] as const;

Deno.test("isJsonObject() accepts non-null, non-array objects only", () => {
  strictEqual(isJsonObject({}), true);
  strictEqual(isJsonObject({ a: 1 }), true);
  strictEqual(isJsonObject(Object.create(null)), true);
  strictEqual(isJsonObject(JSON.parse('{"__proto__":[]}')), true);
  strictEqual(isJsonObject(new Date(0)), true);
  strictEqual(isJsonObject(new Map()), true);
  strictEqual(isJsonObject([]), false);
  strictEqual(isJsonObject(new Array(2)), false);
  strictEqual(isJsonObject(null), false);
  strictEqual(isJsonObject(undefined), false);
  strictEqual(isJsonObject("{}"), false);
  strictEqual(isJsonObject(1), false);
  strictEqual(isJsonObject(true), false);
  strictEqual(isJsonObject(1n), false);
  strictEqual(isJsonObject(() => ({})), false);
  strictEqual(isJsonObject(Symbol("x")), false);
});

Deno.test("isPlainObject() accepts objects whose prototype is Object.prototype or null", () => {
  strictEqual(isPlainObject({}), true);
  strictEqual(isPlainObject(Object.create(null)), true);
  // An own "__proto__" key from JSON.parse is data: the prototype stays Object.prototype.
  const parsed = JSON.parse('{"__proto__":{"polluted":true},"constructor":1}');
  strictEqual(isPlainObject(parsed), true);
  strictEqual(Object.getPrototypeOf(parsed), Object.prototype);
  strictEqual(isPlainObject(Object.create({})), false);
  strictEqual(isPlainObject(new Date(0)), false);
  strictEqual(isPlainObject(new (class Example {})()), false);
  strictEqual(isPlainObject(new Map()), false);
  strictEqual(isPlainObject([]), false);
  strictEqual(isPlainObject(null), false);
  strictEqual(isPlainObject(undefined), false);
  strictEqual(isPlainObject("x"), false);
});

Deno.test("own() reads own data and never an inherited property", () => {
  strictEqual(own({ a: 1 }, "a"), 1);
  strictEqual(own({ a: undefined }, "a"), undefined);
  strictEqual(own({ a: null }, "a"), null);
  for (const key of INHERITED_NAMES) {
    strictEqual(own({}, key), undefined, key);
    strictEqual(own(Object.create(null), key), undefined, key);
  }
  const child: JsonRecord = Object.create({ inherited: "from the prototype" });
  strictEqual(child["inherited"], "from the prototype");
  strictEqual(own(child, "inherited"), undefined);
  child["inherited"] = "own";
  strictEqual(own(child, "inherited"), "own");
});

Deno.test("own() reads __proto__ and constructor keys from JSON.parse as plain data", () => {
  const parsed = JSON.parse(
    '{"__proto__":{"admin":true},"constructor":"c","hasOwnProperty":5,"toString":[1]}',
  );
  deepStrictEqual(own(parsed, "__proto__"), { admin: true });
  strictEqual(own(parsed, "constructor"), "c");
  strictEqual(own(parsed, "hasOwnProperty"), 5);
  deepStrictEqual(own(parsed, "toString"), [1]);
  // Nothing leaked to the prototype chain.
  strictEqual(own({}, "admin"), undefined);
  strictEqual(({} as JsonRecord)["admin"], undefined);
});

Deno.test("own() ignores a polluted Object.prototype", () => {
  const proto = Object.prototype as Record<string, unknown>;
  proto["pollutedForOwnTest"] = "polluted";
  try {
    strictEqual(({} as JsonRecord)["pollutedForOwnTest"], "polluted");
    strictEqual(own({}, "pollutedForOwnTest"), undefined);
    strictEqual(ownObject({}, "pollutedForOwnTest"), undefined);
    strictEqual(ownArray({}, "pollutedForOwnTest"), undefined);
  } finally {
    delete proto["pollutedForOwnTest"];
  }
});

Deno.test("ownObject() returns an own JSON object, else undefined", () => {
  const inner = { b: 1 };
  strictEqual(ownObject({ a: inner }, "a"), inner);
  strictEqual(ownObject({ a: [1] }, "a"), undefined);
  strictEqual(ownObject({ a: null }, "a"), undefined);
  strictEqual(ownObject({ a: "{}" }, "a"), undefined);
  strictEqual(ownObject({ a: 1 }, "a"), undefined);
  strictEqual(ownObject({}, "a"), undefined);
  // The inherited __proto__ accessor returns Object.prototype, an object: it is not read.
  strictEqual(ownObject({}, "__proto__"), undefined);
  strictEqual(ownObject({}, "constructor"), undefined);
  const parsed = JSON.parse('{"__proto__":{"x":1},"constructor":{"prototype":{}}}');
  deepStrictEqual(ownObject(parsed, "__proto__"), { x: 1 });
  deepStrictEqual(ownObject(parsed, "constructor"), { prototype: {} });
  strictEqual(ownObject(Object.create({ a: {} }), "a"), undefined);
});

Deno.test("ownArray() returns an own array, else undefined", () => {
  const list = [1, 2];
  strictEqual(ownArray({ a: list }, "a"), list);
  strictEqual(ownArray({ a: {} }, "a"), undefined);
  strictEqual(ownArray({ a: { length: 1, 0: "x" } }, "a"), undefined);
  strictEqual(ownArray({ a: "[]" }, "a"), undefined);
  strictEqual(ownArray({ a: null }, "a"), undefined);
  strictEqual(ownArray({}, "a"), undefined);
  strictEqual(ownArray({}, "__proto__"), undefined);
  strictEqual(ownArray({}, "constructor"), undefined);
  const parsed = JSON.parse('{"__proto__":[1],"constructor":[2,3]}');
  deepStrictEqual(ownArray(parsed, "__proto__"), [1]);
  deepStrictEqual(ownArray(parsed, "constructor"), [2, 3]);
  strictEqual(ownArray(Object.create({ a: [] }), "a"), undefined);
});

Deno.test("ownElement() gives undefined for holes and out-of-range indices", () => {
  // deno-lint-ignore no-sparse-arrays
  const sparse = [1, , 3];
  strictEqual(ownElement(sparse, 0), 1);
  strictEqual(ownElement(sparse, 1), undefined);
  strictEqual(ownElement(sparse, 2), 3);
  strictEqual(ownElement(sparse, 3), undefined);
  strictEqual(ownElement(sparse, -1), undefined);
  strictEqual(ownElement(sparse, 0.5), undefined);
  strictEqual(ownElement(sparse, NaN), undefined);
  strictEqual(ownElement(new Array(3), 0), undefined);
  strictEqual(ownElement([undefined], 0), undefined);
  strictEqual(ownElement([null], 0), null);
  strictEqual(ownElement([1, 2], 1), 2);
});

Deno.test("ownElement() does not read a hole through an inherited element", () => {
  // deno-lint-ignore no-sparse-arrays
  const sparse = [1, , 3];
  Object.setPrototypeOf(sparse, Object.assign(Object.create(Array.prototype), { 1: "inherited" }));
  strictEqual(sparse[1], "inherited");
  strictEqual(ownElement(sparse, 1), undefined);
  const proto = Array.prototype as unknown as Record<number, unknown>;
  proto[7] = "polluted";
  try {
    const holes = new Array(8);
    strictEqual(holes[7], "polluted");
    strictEqual(ownElement(holes, 7), undefined);
  } finally {
    delete proto[7];
  }
});

/** JSON object text with the given members, in order (later duplicates win in JSON.parse). */
function objectText(members: readonly (readonly [string, unknown])[]): string {
  const text = members.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
  return `{${text.join(",")}}`;
}

Deno.test("the readers see exactly the members JSON.parse made, inherited names included", () => {
  const key = fc.oneof(fc.constantFrom(...INHERITED_NAMES), fc.string({ maxLength: 8 }));
  fc.assert(
    fc.property(
      fc.array(fc.tuple(key, fc.jsonValue({ maxDepth: 2 })), { maxLength: 8 }),
      (members) => {
        const parsed = JSON.parse(objectText(members)) as JsonRecord;
        ok(isJsonObject(parsed));
        ok(isPlainObject(parsed));
        // As JSON.parse gives each value back (-0 comes back as 0).
        const expected = new Map<string, unknown>(
          members.map(([key, value]) => [key, JSON.parse(JSON.stringify(value))]),
        );
        for (const probe of new Set([...INHERITED_NAMES, ...expected.keys()])) {
          const value = expected.get(probe);
          deepStrictEqual(own(parsed, probe), value, probe);
          const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
          deepStrictEqual(ownObject(parsed, probe), isObject ? value : undefined, probe);
          deepStrictEqual(ownArray(parsed, probe), Array.isArray(value) ? value : undefined, probe);
        }
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("ownElement() agrees with the array's own index keys", () => {
  fc.assert(
    fc.property(fc.sparseArray(fc.integer(), { maxLength: 20 }), fc.nat(25), (array, index) => {
      const isOwn = Object.keys(array).includes(String(index));
      strictEqual(ownElement(array, index), isOwn ? array[index] : undefined);
    }),
    { numRuns: 500 },
  );
});
