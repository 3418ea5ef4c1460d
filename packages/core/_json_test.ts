// The fast own-property reads of _json.ts answer exactly as `own` and `ownElement` of
// @adcp-wire/internal, whatever the prototype and whatever Object.prototype and Array.prototype
// hold.
import fc from "fast-check";
import { strictEqual } from "node:assert/strict";
import { own, ownElement } from "@adcp-wire/internal";
import { adcpErrorOf, fastOwnElement, isAdcpErrorOnly, isOwnValue, PROTO } from "./_json.ts";
import { TRICKY_KEYS } from "./_test_utils.ts";

/** `own(object, key)` through the read `isOwnValue` expects of its callers. */
function fastOwn(object: Record<string, unknown>, key: string): unknown {
  const value = object[key];
  return value !== undefined && isOwnValue(object, key, PROTO[key]) ? value : undefined;
}

/**
 * Runs `check` with `target[key]` (a prototype) set to `value`, then puts back what was there
 * (`constructor`, `toString` and `__proto__` of Object.prototype included).
 */
function withPollution(target: object, key: string, value: unknown, check: () => void): void {
  const original = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, configurable: true, writable: true });
  try {
    check();
  } finally {
    if (original === undefined) delete (target as Record<string, unknown>)[key];
    else Object.defineProperty(target, key, original);
  }
}

const keys = fc.oneof(fc.constantFrom(...TRICKY_KEYS), fc.string({ maxLength: 4 }));
const values = fc.oneof(fc.jsonValue(), fc.constant(undefined));

/** Objects with every kind of prototype the extractors may be handed. */
const objects = fc.tuple(
  fc.dictionary(keys, values, { maxKeys: 4 }),
  fc.constantFrom("object", "null", "custom", "json"),
  fc.dictionary(keys, values, { maxKeys: 2 }),
).map(([entries, kind, inherited]) => {
  if (kind === "json") return JSON.parse(JSON.stringify(entries)) as Record<string, unknown>;
  const proto = kind === "object" ? Object.prototype : kind === "null" ? null : inherited;
  const object = Object.create(proto) as Record<string, unknown>;
  for (const [key, value] of Object.entries(entries)) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true });
  }
  return object;
});

Deno.test("isOwnValue() reads as own() on any object and any key", () => {
  fc.assert(
    fc.property(objects, keys, (object, key) => {
      strictEqual(fastOwn(object, key), own(object, key));
    }),
    { numRuns: 3_000 },
  );
});

Deno.test("isOwnValue() reads as own() with Object.prototype polluted", () => {
  fc.assert(
    fc.property(objects, keys, fc.jsonValue(), (object, key, polluted) => {
      withPollution(Object.prototype, key, polluted, () => {
        strictEqual(fastOwn(object, key), own(object, key));
        strictEqual(adcpErrorOf(object), own(object, "adcp_error"));
      });
    }),
    { numRuns: 1_000 },
  );
  withPollution(Object.prototype, "adcp_error", { code: "POLLUTED" }, () => {
    strictEqual(adcpErrorOf({}), undefined);
    strictEqual(adcpErrorOf({ adcp_error: 1 }), 1);
    strictEqual(isAdcpErrorOnly({}), false);
    strictEqual(isAdcpErrorOnly({ adcp_error: 1 }), true);
  });
});

Deno.test("fastOwnElement() reads as ownElement() on holes and polluted prototypes", () => {
  const arrays = fc.array(fc.oneof(fc.jsonValue(), fc.constant(undefined)), { maxLength: 5 })
    .chain((items) => fc.tuple(fc.constant(items), fc.subarray(items.map((_, index) => index))))
    .map(([items, holes]) => {
      const array = [...items];
      for (const index of holes) delete array[index];
      return array;
    });
  fc.assert(
    fc.property(arrays, fc.nat({ max: 6 }), fc.jsonValue(), (array, index, polluted) => {
      strictEqual(fastOwnElement(array, index), ownElement(array, index));
      withPollution(Array.prototype, String(index), polluted, () => {
        strictEqual(fastOwnElement(array, index), ownElement(array, index));
      });
      withPollution(Object.prototype, String(index), polluted, () => {
        strictEqual(fastOwnElement(array, index), ownElement(array, index));
      });
      const custom = Object.setPrototypeOf([...array], { [index]: polluted });
      strictEqual(fastOwnElement(custom, index), ownElement(custom, index));
    }),
    { numRuns: 1_000 },
  );
});

Deno.test("isAdcpErrorOnly() reads keys as Object.keys does, inherited and hidden aside", () => {
  strictEqual(isAdcpErrorOnly({ adcp_error: {} }), true);
  strictEqual(isAdcpErrorOnly({ adcp_error: {}, status: "x" }), false);
  strictEqual(isAdcpErrorOnly(Object.create({ adcp_error: {} })), false);
  const hidden = Object.defineProperty({}, "adcp_error", { value: {}, enumerable: false });
  strictEqual(isAdcpErrorOnly(hidden), false);
  strictEqual(isAdcpErrorOnly(JSON.parse('{"adcp_error":null}')), true);
});
