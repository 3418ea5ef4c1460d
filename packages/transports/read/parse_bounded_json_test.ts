import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { JsonDepthLimitError, JsonNodeLimitError, MalformedJsonError } from "../errors.ts";
import { parseBoundedJson } from "./parse_bounded_json.ts";

Deno.test("parseBoundedJson() rejects nesting past maxJsonDepth before parsing", () => {
  const error = (() => {
    try {
      parseBoundedJson("[".repeat(100_000) + "]".repeat(100_000));
    } catch (error) {
      return error;
    }
  })();
  strictEqual(error instanceof JsonDepthLimitError, true);
  strictEqual((error as JsonDepthLimitError).limit, 64);
  strictEqual((error as JsonDepthLimitError).observed, 65);
  deepStrictEqual(parseBoundedJson("[[[]]]", { maxJsonDepth: 3 }), [[[]]]);
  throws(() => parseBoundedJson("[[[]]]", { maxJsonDepth: 2 }), {
    code: "JSON_DEPTH_LIMIT",
    observed: 3,
  });
  // Brackets inside strings do not count.
  deepStrictEqual(parseBoundedJson('{"a":"[[[[[["}', { maxJsonDepth: 1 }), { a: "[[[[[[" });
});

Deno.test("parseBoundedJson() rejects more values than maxJsonNodes after parsing", () => {
  throws(() => parseBoundedJson("[1,2,3]", { maxJsonNodes: 3 }), (error: unknown) => {
    strictEqual(error instanceof JsonNodeLimitError, true);
    strictEqual((error as JsonNodeLimitError).limit, 3);
    strictEqual((error as JsonNodeLimitError).observed, 4);
    return true;
  });
  deepStrictEqual(parseBoundedJson("[1,2,3]", { maxJsonNodes: 4 }), [1, 2, 3]);
  deepStrictEqual(parseBoundedJson('{"a":{"b":1}}', { maxJsonNodes: 3 }), { a: { b: 1 } });
  throws(() => parseBoundedJson('{"a":{"b":1}}', { maxJsonNodes: 2 }), { code: "JSON_NODE_LIMIT" });
});

Deno.test("parseBoundedJson() reports malformed JSON without quoting it", () => {
  throws(() => parseBoundedJson('{"secret": ev1l'), (error: unknown) => {
    strictEqual(error instanceof MalformedJsonError, true);
    strictEqual((error as MalformedJsonError).reason, "syntax");
    strictEqual((error as Error).message.includes("ev1l"), false);
    return true;
  });
  throws(() => parseBoundedJson(""), MalformedJsonError);
  throws(() => parseBoundedJson(42 as unknown as string), {
    name: "TypeError",
    message: "Cannot parse the JSON as 'text' must be a string: current value is 42",
  });
  throws(() => parseBoundedJson("1", { maxJsonDepth: -1 }), RangeError);
});

Deno.test("parseBoundedJson() equals JSON.parse on any JSON within the bounds", () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 6 }), (text) => {
      deepStrictEqual(parseBoundedJson(text), JSON.parse(text));
    }),
  );
});

Deno.test("parseBoundedJson() fails exactly when a bound is exceeded", () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 5 }),
      fc.nat({ max: 6 }),
      fc.nat({ max: 40 }),
      (value, maxJsonDepth, maxJsonNodes) => {
        const text = JSON.stringify(value);
        const { depth, nodes } = measure(value);
        let outcome: string;
        try {
          parseBoundedJson(text, { maxJsonDepth, maxJsonNodes });
          outcome = "ok";
        } catch (error) {
          outcome = (error as { code: string }).code;
        }
        const expected = depth > maxJsonDepth
          ? "JSON_DEPTH_LIMIT"
          : nodes > maxJsonNodes
          ? "JSON_NODE_LIMIT"
          : "ok";
        strictEqual(outcome, expected);
      },
    ),
    { numRuns: 500 },
  );
});

/** Reference depth and node count, recursively. */
function measure(value: unknown): { depth: number; nodes: number } {
  if (typeof value !== "object" || value === null) return { depth: 0, nodes: 1 };
  const children = Array.isArray(value) ? value : Object.values(value);
  let depth = 0;
  let nodes = 1;
  for (const child of children) {
    const inner = measure(child);
    depth = Math.max(depth, inner.depth);
    nodes += inner.nodes;
  }
  return { depth: depth + 1, nodes };
}
