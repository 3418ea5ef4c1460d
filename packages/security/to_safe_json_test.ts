import fc from "fast-check";
import { deepStrictEqual, notStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { JsonDepthLimitError, JsonNodeLimitError } from "./errors.ts";
import { toSafeJson } from "./to_safe_json.ts";

function hasDangerousOwnKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  for (const key of Object.keys(value)) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") return true;
    if (hasDangerousOwnKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

Deno.test("toSafeJson() drops own __proto__, constructor and prototype keys at any depth", () => {
  const parsed = JSON.parse(
    '{"__proto__":{"polluted":1},"a":{"constructor":{"prototype":{"polluted":2}},' +
      '"b":[{"prototype":3,"c":4}]}}',
  );
  ok(Object.hasOwn(parsed, "__proto__"));
  const safe = toSafeJson(parsed);
  deepStrictEqual(safe, { a: { b: [{ c: 4 }] } });
  strictEqual(hasDangerousOwnKey(safe), false);
  strictEqual(Object.getPrototypeOf(safe), Object.prototype);
});

Deno.test(
  "toSafeJson() leaves Object.prototype untouched when the copy is spread and assigned",
  () => {
    const parsed = JSON.parse(
      '{"__proto__":{"polluted":"yes"},"nested":{"__proto__":{"polluted":"yes"}}}',
    );
    const safe = toSafeJson(parsed) as Record<string, unknown>;
    const state: Record<string, unknown> = {};
    Object.assign(state, safe);
    const spread = { ...safe };
    strictEqual(({} as Record<string, unknown>).polluted, undefined);
    strictEqual((state as Record<string, unknown>).polluted, undefined);
    strictEqual((spread.nested as Record<string, unknown>).polluted, undefined);
    strictEqual(Object.getPrototypeOf(spread.nested), Object.prototype);
    strictEqual(Object.hasOwn(Object.prototype, "polluted"), false);
  },
);

Deno.test("toSafeJson() copies without aliasing and keeps other keys, order and values", () => {
  const input = {
    z: 1,
    a: [true, null, "s", 1.5],
    m: { "": 0, "__proto": "kept", PROTOTYPE: "kept" },
  };
  const copy = toSafeJson(input) as typeof input;
  deepStrictEqual(copy, input);
  notStrictEqual(copy, input);
  notStrictEqual(copy.a, input.a);
  notStrictEqual(copy.m, input.m);
  deepStrictEqual(Object.keys(copy), ["z", "a", "m"]);
  deepStrictEqual(toSafeJson(Object.assign(Object.create(null), { a: 1 })), { a: 1 });
});

Deno.test(
  "toSafeJson() omits undefined properties and rejects non-JSON values with TypeError",
  () => {
    deepStrictEqual(toSafeJson({ a: undefined, b: 1 }), { b: 1 });
    throws(() => toSafeJson({ a: { b: () => 1 } }), {
      name: "TypeError",
      message: "Cannot copy JSON as 'value/a/b' must be JSON data: current value is a function",
    });
    throws(() => toSafeJson([1, Number.NaN]), {
      name: "TypeError",
      message: "Cannot copy JSON as 'value/1' must be a finite number: current value is NaN",
    });
    throws(() => toSafeJson({ d: new Date(0) }), {
      name: "TypeError",
      message:
        "Cannot copy JSON as 'value/d' must be an array or a plain object: current value is an " +
        "object",
    });
    throws(() => toSafeJson(10n), {
      name: "TypeError",
      message: "Cannot copy JSON as 'value' must be JSON data: current value is 10n",
    });
    // deno-lint-ignore no-sparse-arrays
    throws(() => toSafeJson([1, , 3]), {
      name: "TypeError",
      message:
        "Cannot copy JSON as 'value/1' must be JSON data, not an array hole: current value is " +
        "undefined",
    });
    throws(() => toSafeJson([undefined]), {
      name: "TypeError",
      message: "Cannot copy JSON as 'value/0' must be JSON data: current value is undefined",
    });
  },
);

Deno.test("toSafeJson() enforces depth and node limits with typed errors", () => {
  let deep: unknown = 0;
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  throws(() => toSafeJson(deep), (error: unknown) => {
    ok(error instanceof JsonDepthLimitError);
    strictEqual(error.limit, 64);
    strictEqual(error.observed, 65);
    return true;
  });
  throws(() => toSafeJson([1, 2, 3], { maxJsonNodes: 3 }), (error: unknown) => {
    ok(error instanceof JsonNodeLimitError);
    strictEqual(error.limit, 3);
    strictEqual(error.observed, 4);
    return true;
  });
  deepStrictEqual(toSafeJson([[1]], { maxJsonDepth: 2, maxJsonNodes: 3 }), [[1]]);
  // Deep but within a raised limit: iterative, so no stack overflow.
  let chain: unknown = 0;
  for (let i = 0; i < 100_000; i++) chain = [chain];
  ok(Array.isArray(toSafeJson(chain, { maxJsonDepth: 100_000 })));
});

Deno.test("toSafeJson() sanitizes seller keys that appear in its error pointers", () => {
  throws(() => toSafeJson({ "a\u202E\n/b~": { c: Symbol("s") } }), {
    name: "TypeError",
    message: "Cannot copy JSON as 'value/a~1b~0/c' must be JSON data: current value is a symbol",
  });
});

Deno.test("toSafeJson() output never has dangerous own keys and equals the filtered input", () => {
  const dangerousish = fc.oneof(
    fc.constantFrom("__proto__", "constructor", "prototype", "a", "b", "__proto", "Constructor"),
    fc.string({ maxLength: 4 }),
  );
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.oneof(
        fc.string(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
      ),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(dangerousish, tie("value"), { maxKeys: 4 }),
    ),
  })).value;
  fc.assert(
    fc.property(json, (value) => {
      // Rebuild through JSON text so __proto__ becomes an own key as JSON.parse makes it.
      const parsed = JSON.parse(JSON.stringify(value) ?? "null");
      const safe = toSafeJson(parsed);
      strictEqual(hasDangerousOwnKey(safe), false);
      const filtered = JSON.parse(
        JSON.stringify(parsed),
        (key, v) =>
          key === "__proto__" || key === "constructor" || key === "prototype" ? undefined : v,
      );
      deepStrictEqual(safe, filtered);
      strictEqual(Object.hasOwn(Object.prototype, "polluted"), false);
    }),
  );
});
