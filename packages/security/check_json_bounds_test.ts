import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { checkJsonBounds } from "./check_json_bounds.ts";
import { JsonDepthLimitError, JsonNodeLimitError } from "./errors.ts";
import { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_NODES } from "./json_limits.ts";

function nest(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

Deno.test("checkJsonBounds() counts depth as nested containers and nodes as values", () => {
  deepStrictEqual(checkJsonBounds("x"), { valid: true, depth: 0, nodes: 1 });
  deepStrictEqual(checkJsonBounds([]), { valid: true, depth: 1, nodes: 1 });
  deepStrictEqual(checkJsonBounds({ a: [1, { b: null }], c: "d" }), {
    valid: true,
    depth: 3,
    nodes: 6,
  });
});

Deno.test("checkJsonBounds() accepts exactly maxJsonDepth and rejects maxJsonDepth + 1", () => {
  deepStrictEqual(checkJsonBounds(nest(64)), { valid: true, depth: 64, nodes: 65 });
  const result = checkJsonBounds(nest(65));
  ok(!result.valid);
  ok(result.error instanceof JsonDepthLimitError);
  strictEqual(result.error.limit, 64);
  strictEqual(result.error.observed, 65);
});

Deno.test("checkJsonBounds() handles a 100,000-deep value without recursion", () => {
  const result = checkJsonBounds(nest(100_000));
  ok(!result.valid);
  strictEqual(result.error.code, "JSON_DEPTH_LIMIT");
  deepStrictEqual(
    checkJsonBounds(nest(100_000), { maxJsonDepth: 100_000, maxJsonNodes: 200_000 }),
    { valid: true, depth: 100_000, nodes: 100_001 },
  );
});

Deno.test("checkJsonBounds() accepts exactly maxJsonNodes and rejects one more", () => {
  deepStrictEqual(checkJsonBounds([1, 2], { maxJsonNodes: 3 }), {
    valid: true,
    depth: 1,
    nodes: 3,
  });
  const result = checkJsonBounds([1, 2, 3], { maxJsonNodes: 3 });
  ok(!result.valid);
  ok(result.error instanceof JsonNodeLimitError);
  strictEqual(result.error.limit, 3);
  strictEqual(result.error.observed, 4);
  const root = checkJsonBounds(1, { maxJsonNodes: 0 });
  ok(!root.valid);
  strictEqual(root.error.code, "JSON_NODE_LIMIT");
});

Deno.test("checkJsonBounds() default node limit admits the densest 4 MiB JSON text", () => {
  strictEqual(DEFAULT_MAX_JSON_DEPTH, 64);
  strictEqual(DEFAULT_MAX_JSON_NODES, 2_097_152);
  // "[0,0,…,0]" with 2,097,151 elements is 4,194,303 bytes: the most values 4 MiB can hold.
  const text = `[${new Array(2_097_151).fill("0").join(",")}]`;
  ok(text.length <= 4 * 1024 * 1024);
  deepStrictEqual(checkJsonBounds(JSON.parse(text)), { valid: true, depth: 1, nodes: 2_097_152 });
  const denser = checkJsonBounds(new Array(2_097_152).fill(0));
  ok(!denser.valid);
  strictEqual(denser.error.code, "JSON_NODE_LIMIT");
});

Deno.test("checkJsonBounds() terminates on a cyclic value through the node limit", () => {
  const cyclic: unknown[] = [];
  cyclic.push(cyclic);
  const result = checkJsonBounds(cyclic, { maxJsonDepth: 1_000_000, maxJsonNodes: 1000 });
  ok(!result.valid);
  strictEqual(result.error.code, "JSON_NODE_LIMIT");
});

Deno.test("checkJsonBounds() rejects malformed limits", () => {
  throws(() => checkJsonBounds(1, null as never), {
    name: "TypeError",
    message: "Cannot check JSON bounds as 'limits' must be an object: current value is null",
  });
  throws(() => checkJsonBounds(1, { maxJsonDepth: -1 }), {
    name: "RangeError",
    message: "Cannot check JSON bounds as 'limits.maxJsonDepth' must be a non-negative safe " +
      "integer: current value is -1",
  });
  throws(() => checkJsonBounds(1, { maxJsonNodes: "9" as never }), {
    name: "TypeError",
    message: "Cannot check JSON bounds as 'limits.maxJsonNodes' must be a non-negative safe " +
      'integer: current value is "9"',
  });
});

Deno.test("checkJsonBounds() refuses the 0.1 limit names rather than ignore them", () => {
  throws(() => checkJsonBounds([[1]], { maxDepth: 1 } as never), {
    name: "TypeError",
    message: "Cannot check JSON bounds as 'limits.maxDepth' must be absent (renamed " +
      "'maxJsonDepth'): current value is 1",
  });
  throws(() => checkJsonBounds([1], { maxJsonNodes: 9, maxNodes: 1 } as never), {
    name: "TypeError",
    message: "Cannot check JSON bounds as 'limits.maxNodes' must be absent (renamed " +
      "'maxJsonNodes'): current value is 1",
  });
  // An explicitly undefined old name is an unknown key like any other.
  throws(() => checkJsonBounds([1], { maxDepth: undefined } as never), {
    name: "TypeError",
    message: "Cannot check JSON bounds as 'limits.maxDepth' must be a known option (the " +
      "nearest is 'limits.maxJsonDepth'): current value is undefined",
  });
});

Deno.test("checkJsonBounds() agrees with a recursive count on arbitrary JSON", () => {
  const measure = (value: unknown): [number, number] => {
    if (typeof value !== "object" || value === null) return [0, 1];
    let depth = 0;
    let nodes = 1;
    for (const child of Object.values(value)) {
      const [d, n] = measure(child);
      depth = Math.max(depth, d);
      nodes += n;
    }
    return [depth + 1, nodes];
  };
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      const [depth, nodes] = measure(value);
      deepStrictEqual(checkJsonBounds(value), { valid: true, depth, nodes });
      const tight = checkJsonBounds(value, { maxJsonDepth: depth, maxJsonNodes: nodes });
      strictEqual(tight.valid, true);
      if (depth > 0) strictEqual(checkJsonBounds(value, { maxJsonDepth: depth - 1 }).valid, false);
      strictEqual(checkJsonBounds(value, { maxJsonNodes: nodes - 1 }).valid, false);
    }),
  );
});
