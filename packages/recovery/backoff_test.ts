import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { backoffBounds, backoffDelay } from "./backoff.ts";
import { createRetryPolicy } from "./retry_policy.ts";

Deno.test("backoffDelay() doubles from 2 s up to the 60 s cap when r = 0.5", () => {
  const policy = createRetryPolicy({ random: () => 0.5 });
  deepStrictEqual(
    [1, 2, 3, 4, 5, 6, 7, 100].map((n) => backoffDelay(n, policy)),
    [2, 4, 8, 16, 32, 60, 60, 60],
  );
});

Deno.test("backoffDelay() applies ±25% jitter, then the cap", () => {
  strictEqual(backoffDelay(1, { random: () => 0 }), 1.5);
  strictEqual(backoffDelay(1, { random: () => 0.75 }), 2.25);
  strictEqual(backoffDelay(3, { random: () => 0 }), 6);
  strictEqual(backoffDelay(3, { random: () => 0.25 }), 7);
  strictEqual(backoffDelay(5, { random: () => 0.75 }), 36); // 32 × 1.125
  strictEqual(backoffDelay(6, { random: () => 0 }), 45);
  strictEqual(backoffDelay(6, { random: () => 0.9 }), 60); // 60 × 1.2 capped
  strictEqual(backoffDelay(5, { random: () => 0.99 }), 39.84);
});

Deno.test("backoffDelay() follows initialDelaySeconds, maxDelaySeconds and jitter", () => {
  const p = { initialDelaySeconds: 0.5, maxDelaySeconds: 3, jitter: 0, random: () => 0.9 };
  deepStrictEqual([1, 2, 3, 4, 5].map((n) => backoffDelay(n, p)), [0.5, 1, 2, 3, 3]);
});

Deno.test("backoffDelay() calls random() once and checks what it returns", () => {
  let calls = 0;
  backoffDelay(1, {
    random: () => {
      calls++;
      return 0.5;
    },
  });
  strictEqual(calls, 1);
  for (const bad of [1, -0.1, Number.NaN, "0.5"]) {
    throws(
      () => backoffDelay(1, { random: () => bad as number }),
      (e: unknown) =>
        e instanceof RangeError &&
        e.message.startsWith(
          "Cannot compute a backoff delay as 'random()' must be a number >= 0 and < 1: current " +
            "value is ",
        ),
    );
  }
});

Deno.test("backoffDelay() and backoffBounds() reject a bad attempt", () => {
  for (const bad of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 53]) {
    throws(() => backoffDelay(bad, { random: () => 0.5 }), RangeError, String(bad));
    throws(() => backoffBounds(bad), RangeError, String(bad));
  }
  throws(() => backoffDelay("1" as never), TypeError);
  throws(() => backoffBounds(null as never), TypeError);
});

Deno.test("backoffBounds() gives the documented range", () => {
  deepStrictEqual(backoffBounds(1), { min: 1.5, max: 2.5 });
  deepStrictEqual(backoffBounds(2), { min: 3, max: 5 });
  deepStrictEqual(backoffBounds(3), { min: 6, max: 10 });
  deepStrictEqual(backoffBounds(5), { min: 24, max: 40 });
  deepStrictEqual(backoffBounds(6), { min: 45, max: 60 });
  deepStrictEqual(backoffBounds(Number.MAX_SAFE_INTEGER), { min: 45, max: 60 });
  deepStrictEqual(backoffBounds(1, { jitter: 0 }), { min: 2, max: 2 });
  deepStrictEqual(backoffBounds(1, { maxRetries: 1 }), { min: 1.5, max: 2.5 });
});

Deno.test(
  "backoffDelay() stays within backoffBounds() and never exceeds maxDelay (property)",
  () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.double({ min: 0.001, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 3600, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r, initialDelaySeconds, extra, jitter) => {
          const options = {
            initialDelaySeconds,
            maxDelaySeconds: Math.min(3600, initialDelaySeconds + extra),
            jitter,
            random: () => r,
          };
          const delay = backoffDelay(attempt, options);
          const { min, max } = backoffBounds(attempt, options);
          ok(delay > 0, `delay ${delay}`);
          ok(min <= delay && delay <= max, `${min} <= ${delay} <= ${max}`);
          ok(delay <= options.maxDelaySeconds);
        },
      ),
    );
  },
);

Deno.test("backoffDelay() with default figures stays within [1.5, 60] (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (attempt, r) => {
        const delay = backoffDelay(attempt, { random: () => r });
        ok(delay >= 1.5 && delay <= 60);
      },
    ),
  );
});
