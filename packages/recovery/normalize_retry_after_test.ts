import fc from "fast-check";
import { ok, strictEqual } from "node:assert/strict";
import {
  normalizeRetryAfter,
  RETRY_AFTER_MAX_SECONDS,
  RETRY_AFTER_MIN_SECONDS,
} from "./normalize_retry_after.ts";

Deno.test("normalizeRetryAfter() keeps integers within [1, 3600]", () => {
  strictEqual(normalizeRetryAfter(1), 1);
  strictEqual(normalizeRetryAfter(5), 5);
  strictEqual(normalizeRetryAfter(3600), 3600);
});

Deno.test("normalizeRetryAfter() rounds fractions up before clamping", () => {
  strictEqual(normalizeRetryAfter(2.2), 3);
  strictEqual(normalizeRetryAfter(2.0000001), 3);
  strictEqual(normalizeRetryAfter(0.0001), 1);
  strictEqual(normalizeRetryAfter(Number.MIN_VALUE), 1);
  strictEqual(normalizeRetryAfter(3599.5), 3600);
  strictEqual(normalizeRetryAfter(3600.5), 3600);
});

Deno.test("normalizeRetryAfter() clamps small, zero and negative values to 1", () => {
  strictEqual(normalizeRetryAfter(0), 1);
  strictEqual(normalizeRetryAfter(-0), 1);
  strictEqual(Object.is(normalizeRetryAfter(-0.5), 1), true); // ceil gives -0 first
  strictEqual(normalizeRetryAfter(-5), 1);
  strictEqual(normalizeRetryAfter(-1e308), 1);
  strictEqual(normalizeRetryAfter(-Number.MAX_VALUE), 1);
});

Deno.test("normalizeRetryAfter() clamps large values to 3600", () => {
  strictEqual(normalizeRetryAfter(3601), 3600);
  strictEqual(normalizeRetryAfter(86400), 3600);
  strictEqual(normalizeRetryAfter(1e308), 3600);
  strictEqual(normalizeRetryAfter(Number.MAX_VALUE), 3600);
});

Deno.test("normalizeRetryAfter() treats non-numbers and non-finite numbers as absent", () => {
  for (
    const v of [
      Number.NaN,
      Infinity,
      -Infinity,
      "5",
      "",
      "NaN",
      "Infinity",
      null,
      undefined,
      true,
      false,
      [5],
      { seconds: 5 },
      5n,
    ]
  ) {
    strictEqual(normalizeRetryAfter(v), undefined, String(v));
  }
});

Deno.test("normalizeRetryAfter() gives undefined or an integer in [1, 3600] (property)", () => {
  fc.assert(
    fc.property(fc.oneof(fc.double(), fc.anything()), (raw) => {
      const n = normalizeRetryAfter(raw);
      if (n === undefined) {
        ok(typeof raw !== "number" || !Number.isFinite(raw));
        return;
      }
      ok(Number.isInteger(n));
      ok(n >= RETRY_AFTER_MIN_SECONDS && n <= RETRY_AFTER_MAX_SECONDS);
      ok(!Object.is(n, -0));
    }),
  );
});

Deno.test("normalizeRetryAfter() never shortens a delay within the range (property)", () => {
  fc.assert(
    fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (raw) => {
      const n = normalizeRetryAfter(raw)!;
      strictEqual(n, Math.min(3600, Math.max(1, Math.ceil(raw))));
      if (raw <= 3600) ok(n >= raw);
    }),
  );
});
