/**
 * Smallest `retry_after` a client acts on, in seconds (Transport Error Mapping, "Recovery
 * Behavior": "Values below 1 become 1").
 */
export const RETRY_AFTER_MIN_SECONDS = 1;

/**
 * Largest `retry_after` a client acts on, in seconds (Transport Error Mapping, "Recovery
 * Behavior": "values above 3600 become 3600").
 */
export const RETRY_AFTER_MAX_SECONDS = 3600;

/**
 * Turns a seller's raw `retry_after` into the delay a client may act on: a finite number is rounded
 * up, then clamped to [{@link RETRY_AFTER_MIN_SECONDS}, {@link RETRY_AFTER_MAX_SECONDS}]; anything
 * else (a string, `null`, `NaN`, an infinity) is absent, and the caller falls back to backoff.
 *
 * Transport Error Mapping, "Recovery Behavior" ("retry_after bounds"; readings:
 * [docs/recovery.md](../../docs/recovery.md#retry_after)).
 *
 * @param raw The seller's `retry_after` value, exactly as extracted.
 * @returns An integer in [1, 3600], or `undefined`.
 *
 * @example Ceiling, then clamp
 * ```ts
 * import { normalizeRetryAfter } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(normalizeRetryAfter(5), 5);
 * strictEqual(normalizeRetryAfter(2.2), 3);
 * strictEqual(normalizeRetryAfter(0), 1);
 * strictEqual(normalizeRetryAfter(86400), 3600);
 * strictEqual(normalizeRetryAfter("5"), undefined);
 * strictEqual(normalizeRetryAfter(Number.NaN), undefined);
 * ```
 */
export function normalizeRetryAfter(raw: unknown): number | undefined {
  if (typeof raw !== "number" || !Number.isFinite(raw)) return undefined;
  // Math.max turns -0 (from -0 or from Math.ceil of a value in (-1, 0)) into 1.
  return Math.min(RETRY_AFTER_MAX_SECONDS, Math.max(RETRY_AFTER_MIN_SECONDS, Math.ceil(raw)));
}
