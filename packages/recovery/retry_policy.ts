import type { RecoveryClass } from "@adcp-wire/schemas";
import { buildPolicy } from "./_policy.ts";
import type { ClassifyRecoveryOptions } from "./classify_recovery.ts";

/**
 * Options of a retry policy ({@link createRetryPolicy}). The budget figures implement the
 * "Retry ceiling" of Transport Error Mapping, "Recovery Behavior" ("a maximum retry count (e.g.,
 * 3 attempts) and a maximum cumulative retry duration (e.g., 300 seconds) per operation"); the
 * backoff figures are the safe default of Error Handling, "Normative throttling behavior" ("A base
 * of 2 seconds, a cap of 60 seconds, and ±25% jitter").
 */
export interface RetryPolicyOptions extends ClassifyRecoveryOptions {
  /**
   * Most retries per operation, a non-negative safe integer. A transient failure of attempt `n`
   * (1-based) may be retried only when `n <= maxRetries`, so an operation runs at most
   * `maxRetries + 1` times. `0` never retries. The spec's "maximum retry count (e.g., 3 attempts)"
   * is read as 3 retries after the first call, as in the `retryWithBackoff` snippet of Error
   * Handling, "Exponential Backoff" (`maxRetries = 3`, attempts 0 to 3).
   *
   * @default {3}
   */
  maxRetries?: number;
  /**
   * Most seconds an operation may take, counted from the start of its first attempt and including
   * the waits, a finite number `>= 0`. A retry is allowed only when the time spent so far plus the
   * chosen delay stays within it (equal is allowed), so no wait ever ends past the budget.
   * `Infinity` is refused: the point of the ceiling is that a seller returning `retry_after: 3600`
   * every time cannot stall the agent indefinitely.
   *
   * @default {300}
   */
  maxElapsedSeconds?: number;
  /**
   * Backoff delay of the first retry before jitter, in seconds: `>= 0.001` and `<= 3600`. Used
   * only when the error has no usable `retry_after`.
   *
   * @default {2}
   */
  initialDelaySeconds?: number;
  /**
   * Hard ceiling of a backoff delay, in seconds, after jitter: `>= initialDelaySeconds` and
   * `<= 3600` (the `retry_after` ceiling, which also keeps every wait within what a timer can
   * hold). It does not apply to `retry_after`, which is honoured as normalized.
   *
   * @default {60} (or `initialDelaySeconds` when that is larger)
   */
  maxDelaySeconds?: number;
  /**
   * Relative jitter of a backoff delay, `>= 0` and `< 1`: the delay is spread over
   * `base × [1 − jitter, 1 + jitter)`. Below 1 so that a backoff delay is never zero.
   *
   * @default {0.25}
   */
  jitter?: number;
  /**
   * Random source of the jitter; must return a number in `[0, 1)`. Inject a constant for
   * deterministic delays: `() => 0.5` gives the base delay exactly.
   *
   * @default {() => Math.random()} (looked up at each call)
   */
  random?: () => number;
  /**
   * Clock of {@link withRetry}, in milliseconds; only differences between readings are used.
   *
   * @default {() => performance.now()}
   */
  now?: () => number;
  /**
   * How {@link withRetry} waits: resolves after `ms` milliseconds, and must reject promptly
   * (with `signal.reason`) when `signal` aborts. Inject a fake for tests.
   *
   * @default A `setTimeout` timer, cleared on abort.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * A validated retry policy with every default filled in: what {@link createRetryPolicy}
 * returns, frozen. It is accepted wherever {@link RetryPolicyOptions} are, without being
 * checked again.
 */
export interface RetryPolicy {
  /** Most retries per operation. */
  readonly maxRetries: number;
  /** Most seconds per operation, waits included. */
  readonly maxElapsedSeconds: number;
  /** First backoff delay before jitter, in seconds. */
  readonly initialDelaySeconds: number;
  /** Ceiling of a backoff delay, in seconds. */
  readonly maxDelaySeconds: number;
  /** Relative jitter of a backoff delay. */
  readonly jitter: number;
  /** Class of an unknown code without `recovery`. */
  readonly unknownCodeRecovery: RecoveryClass;
  /** Random source in `[0, 1)`. */
  readonly random: () => number;
  /** Clock in milliseconds. */
  readonly now: () => number;
  /** Abortable wait. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Creates a retry policy: checks `options`, fills in the defaults (3 retries, 300 s per operation,
 * backoff from 2 s doubling up to 60 s with ±25% jitter, unknown codes terminal) and freezes the
 * result, which holds no state and can serve many operations at once.
 *
 * Transport Error Mapping, "Recovery Behavior" ("Retry ceiling"); each figure's rule is on
 * {@link RetryPolicyOptions}.
 *
 * @param options The figures to change; an omitted or `undefined` field takes its default.
 * @returns The frozen policy.
 * @throws {TypeError} When `options` is not an object, a number option is not a number, a
 * function option is not a function, or `unknownCodeRecovery` is not one of the three classes.
 * @throws {RangeError} When a number option is out of its range; the message names the option
 * and the value.
 *
 * @example Defaults and overrides
 * ```ts
 * import { createRetryPolicy } from "@adcp-wire/recovery";
 * import { ok, strictEqual, throws } from "node:assert/strict";
 *
 * const policy = createRetryPolicy({ maxRetries: 5 });
 * strictEqual(policy.maxRetries, 5);
 * strictEqual(policy.maxElapsedSeconds, 300);
 * strictEqual(policy.initialDelaySeconds, 2);
 * strictEqual(policy.maxDelaySeconds, 60);
 * strictEqual(policy.jitter, 0.25);
 * strictEqual(policy.unknownCodeRecovery, "terminal");
 * ok(Object.isFrozen(policy));
 * throws(() => createRetryPolicy({ jitter: 1 }), RangeError);
 * ```
 */
export function createRetryPolicy(options?: RetryPolicyOptions): RetryPolicy {
  return buildPolicy(options, "create a retry policy");
}
