/**
 * Smallest `retry_after` a client acts on, in seconds (Transport Error Mapping, "Recovery
 * Behavior": "Values below 1 become 1").
 *
 * @example Values below the floor
 * ```ts
 * import { normalizeRetryAfter, RETRY_AFTER_MIN_SECONDS } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(RETRY_AFTER_MIN_SECONDS, 1);
 * strictEqual(normalizeRetryAfter(0), RETRY_AFTER_MIN_SECONDS);
 * strictEqual(normalizeRetryAfter(-30), RETRY_AFTER_MIN_SECONDS);
 * ```
 */
export const RETRY_AFTER_MIN_SECONDS = 1;

/**
 * Largest `retry_after` a client acts on, in seconds (Transport Error Mapping, "Recovery
 * Behavior": "values above 3600 become 3600").
 *
 * @example Values above the ceiling
 * ```ts
 * import { normalizeRetryAfter, RETRY_AFTER_MAX_SECONDS } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(RETRY_AFTER_MAX_SECONDS, 3600);
 * strictEqual(normalizeRetryAfter(86400), RETRY_AFTER_MAX_SECONDS); // one day becomes one hour
 * ```
 */
export const RETRY_AFTER_MAX_SECONDS = 3600;

/**
 * Turns a seller's raw `retry_after` into the delay a client may act on, in whole seconds, or
 * `undefined` when the value counts as absent.
 *
 * - Only a finite JSON number counts. Strings (even `"5"`), `null`, booleans, objects, `NaN` and
 *   the infinities are absent (`core/error.json` types `retry_after` as a number; Transport Error
 *   Mapping, "Recovery Behavior": "Non-finite values (`NaN`, `Infinity`) MUST be treated as
 *   absent"). An absent value makes a transient error fall back to exponential backoff.
 * - A fractional value is rounded up first ("clients that encounter one MUST apply the same
 *   ceiling-then-clamp rule"; `core/error.json`: "consumers receiving one MUST round up to the
 *   next whole second before clamping"), so a retry is never scheduled earlier than asked.
 * - The result is then clamped to [{@linkcode RETRY_AFTER_MIN_SECONDS},
 *   {@linkcode RETRY_AFTER_MAX_SECONDS}] ("Values below 1 become 1, values above 3600 become
 *   3600"): `0`, `-0` and negative values give 1, `0.0001` gives 1, `3600.5` and `1e308` give 3600.
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
