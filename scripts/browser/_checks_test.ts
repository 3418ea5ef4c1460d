import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { CheckFailure, expectEqual, expectRejection, formatChecks, runChecks } from "./_checks.ts";

Deno.test("expectEqual() compares JSON values and says what differs", () => {
  expectEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] }, "value");
  try {
    expectEqual({ a: 1 }, { a: 2 }, "value");
    throw new Error("no failure");
  } catch (error) {
    strictEqual((error as Error).message, 'value: expected {"a":2}, saw {"a":1}');
    strictEqual(error instanceof CheckFailure, true);
  }
});

Deno.test("expectRejection() wants the error's name and fields, and no resolution", async () => {
  const failure = Object.assign(new Error("no"), { name: "ContentEncodingError", reason: "x" });
  await expectRejection(Promise.reject(failure), "ContentEncodingError", { reason: "x" });
  await rejects(expectRejection(Promise.reject(failure), "TypeError"), /expected TypeError/);
  await rejects(
    expectRejection(Promise.reject(failure), "ContentEncodingError", { reason: "y" }),
    /ContentEncodingError\.reason: expected "y", saw "x"/,
  );
  await rejects(expectRejection(Promise.resolve(1), "TypeError"), /but it resolved to 1/);
});

Deno.test("runChecks() runs every check and formatChecks() reports each", async () => {
  const outcomes = await runChecks([
    { name: "holds", run: () => {} },
    { name: "fails", run: () => Promise.reject(new TypeError("bad")) },
    { name: "still runs", run: () => {} },
  ]);
  deepStrictEqual(outcomes, [
    { name: "holds", passed: true },
    { name: "fails", passed: false, reason: "TypeError: bad" },
    { name: "still runs", passed: true },
  ]);
  strictEqual(
    formatChecks("Title:", outcomes),
    [
      "Title:",
      "  ✓ holds",
      "  ✗ fails",
      "      TypeError: bad",
      "  ✓ still runs",
      "  2 passed, 1 failed",
    ].join("\n"),
  );
});
