import { assertTimeGrowth } from "adcp-testkit";
import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { checkJsonBounds } from "./check_json_bounds.ts";
import { JsonDepthLimitError } from "./errors.ts";
import { checkJsonDepth, scanJsonDepth } from "./scan_json_depth.ts";

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

/** Text of brackets, quotes, backslashes and a few others: hostile to a scan, mostly not JSON. */
const hostileText = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("[", "{", "]", "}", '"', "\\", ",", ":", "1", " ") },
    { weight: 1, arbitrary: fc.constantFrom("\u00e9", "\u2014", "\u5e83", "\ud800", "😀") },
    { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
  ),
  { maxLength: 200 },
).map((units) => units.join(""));

Deno.test("checkJsonDepth() refuses what scanJsonDepth() refuses, with the same error", () => {
  const texts = fc.oneof(
    hostileText,
    fc.jsonValue({ maxDepth: 12 }).map((value) => JSON.stringify(value)),
    fc.nat({ max: 80 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
    fc.nat({ max: 80 }).map((depth) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)),
  );
  fc.assert(
    fc.property(texts, fc.nat({ max: 70 }), (text, maxDepth) => {
      const checked = checkJsonDepth(text, maxDepth);
      const scanned = scanJsonDepth(text, maxDepth);
      strictEqual(checked.valid, scanned.valid, text);
      if (!checked.valid && !scanned.valid) {
        strictEqual(checked.error.limit, scanned.error.limit);
        strictEqual(checked.error.observed, scanned.error.observed);
        strictEqual(checked.error.message, scanned.error.message);
      }
    }),
    { numRuns: 5_000 },
  );
});

Deno.test("checkJsonDepth() needs no scan when the brackets cannot nest deep enough", () => {
  // Exactly the limit in opening brackets, all in strings or not: within, whatever their order.
  deepStrictEqual(checkJsonDepth("[".repeat(64), 64), { valid: true });
  deepStrictEqual(checkJsonDepth('{"a":"[[[["}', 4), { valid: true });
  // One more, nested: refused at the first bracket past the limit.
  const over = checkJsonDepth("[".repeat(65), 64);
  ok(!over.valid && over.error instanceof JsonDepthLimitError && over.error.observed === 65);
  // Many brackets, none deep: scanned, and within.
  deepStrictEqual(checkJsonDepth("[1],".repeat(1_000).slice(0, -1).replace(/^/, "["), 2), {
    valid: true,
  });
  deepStrictEqual(checkJsonDepth('["[[[[[[[[", "{{{{{{{{{{"]', 1), { valid: true });
  deepStrictEqual(checkJsonDepth("", 0), { valid: true });
});

Deno.test("checkJsonDepth() refuses two million levels at the limit, unparsed", () => {
  for (const unit of ["[", '{"a":']) {
    const result = checkJsonDepth(unit.repeat(2_000_000), 64);
    ok(!result.valid);
    strictEqual(result.error.observed, 65);
    // The scan stops at the 65th level: the same time for ten times the levels.
    assertTimeGrowth((n) => unit.repeat(n), (bomb) => checkJsonDepth(bomb, 64), 2_000_000, {
      growth: "constant",
    });
  }
  // A bomb behind a long string, and behind many shallow brackets, is found as well.
  const behind = `["${"[".repeat(1_000_000)}",${"[1],".repeat(1_000)}${"[".repeat(100)}`;
  const result = checkJsonDepth(behind, 64);
  ok(!result.valid);
  strictEqual(result.error.observed, 65);
});

Deno.test("checkJsonDepth() rejects malformed arguments", () => {
  throws(() => checkJsonDepth(null as never, 2), {
    name: "TypeError",
    message: "Cannot check JSON depth as 'text' must be a string: current value is null",
  });
  throws(() => checkJsonDepth("[]", -1), {
    name: "RangeError",
    message: "Cannot check JSON depth as 'maxJsonDepth' must be a non-negative safe integer: " +
      "current value is -1",
  });
  strictEqual(checkJsonDepth("[".repeat(65)).valid, false); // the default limit is 64
});
