import { optionError } from "@adcp-wire/internal";
import { checkAttempt } from "./_own.ts";
import { resolvePolicy } from "./_policy.ts";
import type { RetryPolicy, RetryPolicyOptions } from "./retry_policy.ts";

/** The inclusive range a backoff delay lies in, in seconds ({@link backoffBounds}). */
export interface BackoffBounds {
  /** Smallest possible delay: `base × (1 − jitter)`. */
  readonly min: number;
  /** Largest possible delay: `min(maxDelaySeconds, base × (1 + jitter))`. */
  readonly max: number;
}

const DELAY_ACTION = "compute a backoff delay";
const BOUNDS_ACTION = "compute backoff bounds";

function baseDelay(attempt: number, policy: RetryPolicy): number {
  // 2 ** (attempt - 1) overflows to Infinity for huge attempts; min() then gives the cap.
  return Math.min(policy.maxDelaySeconds, policy.initialDelaySeconds * 2 ** (attempt - 1));
}

/**
 * The exponential-backoff delay, in seconds, before retrying after attempt `attempt` failed with a
 * transient error that has no usable `retry_after`: `initialDelaySeconds × 2^(attempt − 1)`,
 * jittered by ±`jitter` with one call of `policy.random()`, then capped at `maxDelaySeconds`
 * (defaults: 2 s doubling, ±25%, 60 s). Always `> 0`; {@link backoffBounds} gives its range.
 *
 * Transport Error Mapping, "Recovery Behavior"; Error Handling, "Normative throttling behavior"
 * (formula: [docs/recovery.md](../../docs/recovery.md#backoff)).
 *
 * @param attempt The 1-based number of the attempt that just failed.
 * @param policy The policy, or options for one.
 * @returns The delay in seconds.
 * @throws {TypeError} When `attempt` is not a number, or `policy` has a bad type or an unknown key.
 * @throws {RangeError} When `attempt` is not a safe integer `>= 1`, a policy figure is out of
 * range, or `policy.random()` returns something other than a number in `[0, 1)`.
 *
 * @example Deterministic delays with a fixed random source
 * ```ts
 * import { backoffDelay } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * const middle = { random: () => 0.5 }; // no jitter
 * strictEqual(backoffDelay(1, middle), 2);
 * strictEqual(backoffDelay(3, middle), 8);
 * strictEqual(backoffDelay(10, middle), 60);
 * strictEqual(backoffDelay(1, { random: () => 0 }), 1.5); // −25%
 * strictEqual(backoffDelay(10, { random: () => 0.99 }), 60); // capped after jitter
 * ```
 */
export function backoffDelay(attempt: number, policy?: RetryPolicy | RetryPolicyOptions): number {
  checkAttempt(attempt, DELAY_ACTION);
  const p = resolvePolicy(policy, DELAY_ACTION);
  const r = p.random();
  if (typeof r !== "number" || !(r >= 0 && r < 1)) {
    throw optionError(RangeError, DELAY_ACTION, "random()", "a number >= 0 and < 1", r);
  }
  return Math.min(p.maxDelaySeconds, baseDelay(attempt, p) * (1 + p.jitter * (2 * r - 1)));
}

/**
 * The inclusive range `{ min, max }` that {@link backoffDelay} draws from for attempt `attempt`
 * under `policy`, without calling `policy.random()`: what a conformance runner checks a backoff
 * delay against without fixing the random source.
 *
 * Error Handling, "Normative throttling behavior" (formula:
 * [docs/recovery.md](../../docs/recovery.md#backoff)).
 *
 * @param attempt The 1-based number of the attempt that just failed.
 * @param policy The policy, or options for one.
 * @returns The bounds in seconds.
 * @throws {TypeError} When `attempt` is not a number, or `policy` has a bad type or an unknown key.
 * @throws {RangeError} When `attempt` is not a safe integer `>= 1` or a policy figure is out of
 * range.
 *
 * @example Bounds under the default policy
 * ```ts
 * import { backoffBounds } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(backoffBounds(1), { min: 1.5, max: 2.5 });
 * deepStrictEqual(backoffBounds(3), { min: 6, max: 10 });
 * deepStrictEqual(backoffBounds(10), { min: 45, max: 60 });
 * deepStrictEqual(backoffBounds(2, { initialDelaySeconds: 1, jitter: 0 }), { min: 2, max: 2 });
 * ```
 */
export function backoffBounds(
  attempt: number,
  policy?: RetryPolicy | RetryPolicyOptions,
): BackoffBounds {
  checkAttempt(attempt, BOUNDS_ACTION);
  const p = resolvePolicy(policy, BOUNDS_ACTION);
  const base = baseDelay(attempt, p);
  return { min: base * (1 - p.jitter), max: Math.min(p.maxDelaySeconds, base * (1 + p.jitter)) };
}
