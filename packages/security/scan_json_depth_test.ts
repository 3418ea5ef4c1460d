import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { checkJsonBounds } from "./check_json_bounds.ts";
import { JsonDepthLimitError } from "./errors.ts";
import { scanJsonDepth } from "./scan_json_depth.ts";

Deno.test("scanJsonDepth() measures bracket nesting outside strings", () => {
  deepStrictEqual(scanJsonDepth("1", 64), { valid: true, depth: 0 });
  deepStrictEqual(scanJsonDepth('{"a":[1,{"b":[]}]}', 64), { valid: true, depth: 4 });
  deepStrictEqual(scanJsonDepth('["[[[[", "{{{{"]', 1), { valid: true, depth: 1 });
});

Deno.test("scanJsonDepth() honours escaped quotes and backslash runs", () => {
  // "a\"[[" is one string; "b\\" ends after the escaped backslash, so the next [ counts.
  deepStrictEqual(scanJsonDepth('["a\\"[[[", "b\\\\", [1]]', 2), { valid: true, depth: 2 });
  const result = scanJsonDepth('["b\\\\", [[1]]]', 2);
  ok(!result.valid);
  strictEqual(result.error.observed, 3);
});

Deno.test("scanJsonDepth() rejects a 100,000-deep bomb at the first bracket past the limit", () => {
  const result = scanJsonDepth("[".repeat(100_000) + "]".repeat(100_000), 64);
  ok(!result.valid);
  ok(result.error instanceof JsonDepthLimitError);
  strictEqual(result.error.limit, 64);
  strictEqual(result.error.observed, 65);
  deepStrictEqual(scanJsonDepth("[".repeat(64) + "]".repeat(64), 64), { valid: true, depth: 64 });
});

Deno.test("scanJsonDepth() defaults to depth 64 and tolerates malformed text", () => {
  strictEqual(scanJsonDepth("[".repeat(65)).valid, false);
  deepStrictEqual(scanJsonDepth("]]]][", 1), { valid: true, depth: 1 });
  deepStrictEqual(scanJsonDepth('["unterminated [[[[', 1), { valid: true, depth: 1 });
});

Deno.test("scanJsonDepth() rejects malformed arguments", () => {
  throws(() => scanJsonDepth(1 as never, 2), {
    name: "TypeError",
    message: "Cannot scan JSON depth as 'text' must be a string: current value is 1",
  });
  throws(() => scanJsonDepth("[]", 1.5), {
    name: "RangeError",
    message: "Cannot scan JSON depth as 'maxJsonDepth' must be a non-negative safe integer: " +
      "current value is 1.5",
  });
});

Deno.test("scanJsonDepth() agrees with checkJsonBounds() on serialized JSON", () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 8 }),
      fc.integer({ min: 0, max: 10 }),
      (value, maxDepth) => {
        const text = JSON.stringify(value);
        const scanned = scanJsonDepth(text, maxDepth);
        const checked = checkJsonBounds(value, { maxJsonDepth: maxDepth });
        strictEqual(scanned.valid, checked.valid);
        if (scanned.valid && checked.valid) strictEqual(scanned.depth, checked.depth);
      },
    ),
  );
});
