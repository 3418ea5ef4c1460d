import { checkAttempt, describe } from "./_own.ts";
import { resolvePolicy } from "./_policy.ts";
import type { RetryPolicy, RetryPolicyOptions } from "./retry_policy.ts";

/**
 * The inclusive range a backoff delay lies in, in seconds ({@linkcode backoffBounds}).
 *
 * @example Checking a jittered delay against its bounds
 * ```ts
 * import { type BackoffBounds, backoffBounds, backoffDelay } from "@adcp-wire/recovery";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 *
 * const bounds: BackoffBounds = backoffBounds(2); // base 4 s, ±25%
 * deepStrictEqual(bounds, { min: 3, max: 5 });
 * const delay = backoffDelay(2, { random: () => 0.9 });
 * ok(bounds.min <= delay && delay <= bounds.max);
 * ```
 */
export interface BackoffBounds {
  /** Smallest possible delay: `base × (1 − jitter)`. */
  readonly min: number;
  /** Largest possible delay: `min(maxDelaySeconds, base × (1 + jitter))`. */
  readonly max: number;
}

function baseDelay(attempt: number, policy: RetryPolicy): number {
  // 2 ** (attempt - 1) overflows to Infinity for huge attempts; min() then gives the cap.
  return Math.min(policy.maxDelaySeconds, policy.initialDelaySeconds * 2 ** (attempt - 1));
}

/**
 * The exponential-backoff delay before retrying after attempt `attempt` failed, in seconds, for a
 * transient error without a usable `retry_after` (Transport Error Mapping, "Recovery Behavior":
 * "use exponential backoff starting at the client's configured initial delay"; Error Handling,
 * "Normative throttling behavior": "exponential backoff with jitter ... A base of 2 seconds, a cap
 * of 60 seconds, and ±25% jitter"). Exactly:
 *
 * ```
 * base  = min(maxDelaySeconds, initialDelaySeconds × 2^(attempt − 1))
 * delay = min(maxDelaySeconds, base × (1 + jitter × (2r − 1)))    r = policy.random() in [0, 1)
 * ```
 *
 * So with the defaults, attempts 1, 2, 3, 4, 5, 6 have bases 2, 4, 8, 16, 32, 60 s. `r = 0.5`
 * gives the base exactly; jitter spreads the delay over `[base × (1 − jitter), base × (1 +
 * jitter))`, and the cap is a hard ceiling applied after jitter, so at the cap the jitter only
 * shortens the delay (45 to 60 s by default). The delay is not rounded; it is always `> 0`
 * because `initialDelaySeconds >= 0.001` and `jitter < 1`. {@linkcode backoffBounds} gives the range.
 *
 * Calls `policy.random()` exactly once.
 *
 * @param attempt The 1-based number of the attempt that just failed.
 * @param policy The policy, or options for one.
 * @returns The delay in seconds.
 * @throws {TypeError} When `attempt` is not a number or `policy` has a bad type.
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
  checkAttempt(attempt);
  const p = resolvePolicy(policy);
  const r = p.random();
  if (typeof r !== "number" || !(r >= 0 && r < 1)) {
    throw new RangeError(
      `Invalid random(): expected a number >= 0 and < 1, received ${describe(r)}`,
    );
  }
  return Math.min(p.maxDelaySeconds, baseDelay(attempt, p) * (1 + p.jitter * (2 * r - 1)));
}

/**
 * The inclusive range {@linkcode backoffDelay} draws from for attempt `attempt` under `policy`:
 * `min = base × (1 − jitter)` and `max = min(maxDelaySeconds, base × (1 + jitter))`, with
 * `base = min(maxDelaySeconds, initialDelaySeconds × 2^(attempt − 1))`. Every delay the policy can
 * produce satisfies `min <= delay <= max` (`max` itself is reached only through the cap or
 * rounding, as `r < 1`).
 *
 * Conformance runners use it to check a backoff delay without fixing the random source. Does not
 * call `policy.random()`.
 *
 * @param attempt The 1-based number of the attempt that just failed.
 * @param policy The policy, or options for one.
 * @returns The bounds in seconds.
 * @throws {TypeError} When `attempt` is not a number or `policy` has a bad type.
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
  checkAttempt(attempt);
  const p = resolvePolicy(policy);
  const base = baseDelay(attempt, p);
  return { min: base * (1 - p.jitter), max: Math.min(p.maxDelaySeconds, base * (1 + p.jitter)) };
}
