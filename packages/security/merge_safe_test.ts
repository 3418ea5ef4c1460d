import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { DangerousKeyError, JsonDepthLimitError } from "./errors.ts";
import { mergeSafe } from "./merge_safe.ts";

Deno.test("mergeSafe() deep-merges plain objects and replaces everything else", () => {
  const target = { a: { x: 1, y: [1, 2] }, b: "keep", c: { deep: { n: 1 } } };
  const result = mergeSafe(target, { a: { y: [3], z: true }, c: { deep: { m: 2 } }, d: null });
  strictEqual(result, target);
  deepStrictEqual(target, {
    a: { x: 1, y: [3], z: true },
    b: "keep",
    c: { deep: { n: 1, m: 2 } },
    d: null,
  });
});

Deno.test("mergeSafe() refuses dangerous keys at any depth and leaves the target untouched", () => {
  for (
    const [text, key, pointer] of [
      ['{"__proto__":{"polluted":1}}', "__proto__", "/__proto__"],
      ['{"a":{"constructor":{"prototype":{"polluted":1}}}}', "constructor", "/a/constructor"],
      ['{"a":[{"ok":1},{"prototype":1}]}', "prototype", "/a/1/prototype"],
    ] as const
  ) {
    const target = { a: { kept: true } };
    throws(() => mergeSafe(target, JSON.parse(text)), (error: unknown) => {
      ok(error instanceof DangerousKeyError);
      strictEqual(error.code, "DANGEROUS_KEY");
      strictEqual(error.key, key);
      strictEqual(error.pointer, pointer);
      return true;
    });
    deepStrictEqual(target, { a: { kept: true } });
  }
  strictEqual(Object.hasOwn(Object.prototype, "polluted"), false);
  strictEqual(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("mergeSafe() is all-or-nothing: a late dangerous key prevents earlier writes", () => {
  const target: Record<string, unknown> = { first: 0 };
  throws(
    () => mergeSafe(target, JSON.parse('{"first":1,"later":{"__proto__":{}}}')),
    DangerousKeyError,
  );
  deepStrictEqual(target, { first: 0 });
});

Deno.test("mergeSafe() never merges into inherited objects", () => {
  const shared = { setting: "shared" };
  const target = Object.create({ config: shared }) as Record<string, unknown>;
  mergeSafe(target, { config: { setting: "seller" } });
  deepStrictEqual(shared, { setting: "shared" });
  deepStrictEqual(target.config, { setting: "seller" });
  ok(Object.hasOwn(target, "config"));
});

Deno.test("mergeSafe() copies merged values, so later target edits never reach the source", () => {
  const source = { list: [1], obj: { a: 1 } };
  const target: { list?: number[]; obj?: { a: number } } = {};
  mergeSafe(target, source);
  target.list!.push(2);
  target.obj!.a = 9;
  deepStrictEqual(source, { list: [1], obj: { a: 1 } });
});

Deno.test("mergeSafe() rejects bad arguments and enforces limits", () => {
  throws(() => mergeSafe([], {}), {
    name: "TypeError",
    message:
      "Cannot merge seller data as 'target' must be a non-array object: current value is an array",
  });
  throws(() => mergeSafe({}, [1]), {
    name: "TypeError",
    message:
      "Cannot merge seller data as 'source' must be a plain object: current value is an array",
  });
  throws(() => mergeSafe({}, "x"), {
    name: "TypeError",
    message: "Cannot merge seller data as 'source' must be a plain object: current value is \"x\"",
  });
  throws(() => mergeSafe({}, { a: [() => 1] }), {
    name: "TypeError",
    message:
      "Cannot merge seller data as 'source/a/0' must be JSON data: current value is a function",
  });
  throws(() => mergeSafe({}, { a: { b: {} } }, { maxJsonDepth: 2 }), JsonDepthLimitError);
});

Deno.test(
  "mergeSafe() result equals a naive deep merge whenever no dangerous key is present",
  () => {
    const key = fc.constantFrom("a", "b", "c", "d");
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null)),
        fc.array(tie("value"), { maxLength: 2 }),
        fc.dictionary(key, tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    const object = fc.dictionary(key, json, { maxKeys: 4 });
    const naive = (into: Record<string, unknown>, from: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(from)) {
        const isObj = (x: unknown) => typeof x === "object" && x !== null && !Array.isArray(x);
        if (isObj(v) && isObj(into[k])) {
          naive(into[k] as Record<string, unknown>, v as Record<string, unknown>);
        } else into[k] = structuredClone(v);
      }
      return into;
    };
    fc.assert(
      fc.property(object, object, (target, source) => {
        const expected = naive(structuredClone(target), source);
        deepStrictEqual(mergeSafe(structuredClone(target), source), expected);
      }),
    );
  },
);
