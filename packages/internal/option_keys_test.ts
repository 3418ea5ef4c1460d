import { assertTimeGrowth } from "adcp-testkit";
import fc from "fast-check";
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { checkOptionKeys, nearestName, optionKeys } from "./option_keys.ts";

interface Limits {
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
}
interface Options {
  readonly headers?: unknown;
  readonly limits?: Limits;
  readonly retry: boolean;
}
const LIMITS = optionKeys<Limits>({ timeoutMs: true, maxResponseBytes: true });
const KEYS = optionKeys<Options>({ headers: true, limits: true, retry: true });

Deno.test("optionKeys() lists every key of the interface, optional and required", () => {
  deepStrictEqual([...KEYS], ["headers", "limits", "retry"]);
  // @ts-expect-error a missing key does not compile
  optionKeys<Options>({ headers: true, limits: true });
  // @ts-expect-error an extra key does not compile
  optionKeys<Limits>({ timeoutMs: true, maxResponseBytes: true, other: true });
});

Deno.test("checkOptionKeys() accepts known keys and non-objects", () => {
  checkOptionKeys("connect", "options", { headers: {}, limits: { timeoutMs: 1 } }, KEYS);
  checkOptionKeys("connect", "options", {}, KEYS);
  for (const value of [undefined, null, 1, "x", [1, 2]]) {
    checkOptionKeys("connect", "options", value, KEYS);
  }
  // Inherited keys are not the caller's options.
  checkOptionKeys("connect", "options", Object.create({ timeoutMs: 1 }), KEYS);
});

Deno.test("checkOptionKeys() names the unknown key and the nearest known one", () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ timeoutMs: 5 }, "options.timeoutMs", "options.limits.timeoutMs"],
    [{ headrs: {} }, "options.headrs", "options.headers"],
    [{ Retry: true }, "options.Retry", "options.retry"],
    [{ maxBytes: 1 }, "options.maxBytes", "options.limits.maxResponseBytes"],
  ];
  for (const [value, key, nearest] of cases) {
    throws(
      () => checkOptionKeys("connect", "options", value, KEYS, { limits: LIMITS }),
      (error: unknown) =>
        error instanceof TypeError &&
        error.message.startsWith(`Cannot connect as '${key}' must be a known option`) &&
        error.message.includes(`(the nearest is '${nearest}')`),
      key,
    );
  }
  throws(() => checkOptionKeys("read", "options", { x: 1 }, new Set()), /takes no options/);
});

Deno.test("nearestName() prefers a direct key to a nested one at the same distance", () => {
  strictEqual(nearestName("limit", ["limits", "a.limit"]), "a.limit");
  strictEqual(nearestName("limits", ["a.limits", "limits"]), "limits");
});

Deno.test("checkOptionKeys() refuses any hostile key, in the same time whatever its length", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 10_000 }), (key) => {
      if (KEYS.has(key)) return;
      throws(() => checkOptionKeys("connect", "options", { [key]: 1 }, KEYS, { limits: LIMITS }));
    }),
    { numRuns: 200 },
  );
  // Names are compared on their first 64 units: a long key costs what a 64-unit key costs.
  assertTimeGrowth(
    (n) => ({ [`maxRespons${"e".repeat(n)}`]: 1 }),
    (options) => throws(() => checkOptionKeys("connect", "options", options, KEYS)),
    1_000_000,
    { growth: "constant" },
  );
});
