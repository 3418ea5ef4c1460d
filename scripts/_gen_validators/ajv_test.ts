import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { findDuplicateItem } from "./ajv.ts";

Deno.test("findDuplicateItem() finds equal JSON items as JSON Schema defines equality", () => {
  strictEqual(findDuplicateItem([]), undefined);
  strictEqual(
    findDuplicateItem([1, "1", true, "true", null, "null", [1, 2], [2, 1], {}, []]),
    undefined,
  );
  deepStrictEqual(findDuplicateItem([{ a: 1, b: [2, { c: 3 }] }, 7, { b: [2, { c: 3 }], a: 1 }]), [
    0,
    2,
  ]);
  deepStrictEqual(findDuplicateItem([0, 1, -0]), [0, 2]);
  deepStrictEqual(findDuplicateItem(["x", "y", "y", "x"]), [1, 2]);
  deepStrictEqual(
    findDuplicateItem([{ "__proto__": 1 }, JSON.parse('{"__proto__":1}')]),
    undefined,
  );
  deepStrictEqual(
    findDuplicateItem([JSON.parse('{"__proto__":1}'), JSON.parse('{"__proto__":1}')]),
    [0, 1],
  );
});

Deno.test("findDuplicateItem() runs in linear time on many distinct objects", () => {
  const items = Array.from({ length: 200_000 }, (_item, index) => ({
    id: `item_${index}`,
    n: index,
  }));
  const start = performance.now();
  strictEqual(findDuplicateItem(items), undefined);
  const elapsedMs = performance.now() - start;
  ok(elapsedMs < 3000, `${elapsedMs} ms`); // Ajv's pairwise check needs hours for this
});

Deno.test("findDuplicateItem() handles items nested far deeper than recursion allows", () => {
  const deep = (depth: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let level = 0; level < depth; level++) {
      value = level % 2 === 0 ? { k: value } : [value];
    }
    return value;
  };
  deepStrictEqual(findDuplicateItem([deep(200_000, 1), deep(200_000, 2), deep(200_000, 1)]), [
    0,
    2,
  ]);
  strictEqual(findDuplicateItem([deep(200_000, 1), deep(200_000, 2)]), undefined);
});

Deno.test("findDuplicateItem() agrees with a pairwise JSON Schema equality", () => {
  const equal = (left: unknown, right: unknown): boolean => {
    if (typeof left === "number" && typeof right === "number") return left === right; // -0 is 0
    if (
      left === null || right === null || typeof left !== "object" || typeof right !== "object"
    ) {
      return left === right;
    }
    if (Array.isArray(left) !== Array.isArray(right)) return false;
    if (Array.isArray(left) && Array.isArray(right)) {
      return left.length === right.length &&
        left.every((item, index) => equal(item, right[index]));
    }
    const leftKeys = Object.keys(left).sort();
    const rightKeys = Object.keys(right).sort();
    return leftKeys.length === rightKeys.length &&
      leftKeys.every((key, index) =>
        key === rightKeys[index] &&
        equal((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key])
      );
  };
  const pairwise = (items: readonly unknown[]): [number, number] | undefined => {
    for (let later = 1; later < items.length; later++) {
      for (let earlier = 0; earlier < later; earlier++) {
        if (equal(items[earlier], items[later])) return [earlier, later];
      }
    }
    return undefined;
  };
  const small = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(0, -0, 1, 1.5, "1", "", true, false, null, "{}", "[]"),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "b", "__proto__"), tie("value"), { maxKeys: 3 }),
    ),
  })).value;
  fc.assert(
    fc.property(fc.array(small, { maxLength: 8 }), (items) => {
      const json = JSON.parse(JSON.stringify(items)) as unknown[];
      const found = findDuplicateItem(json);
      const expected = pairwise(json);
      // The same verdict; for a duplicate, the same later index and an equal earlier item.
      strictEqual(found === undefined, expected === undefined);
      if (found !== undefined && expected !== undefined) {
        strictEqual(found[1], expected[1]);
        ok(equal(json[found[0]], json[found[1]]));
      }
    }),
    { numRuns: 3000 },
  );
});
