import { buildPolicy } from "./_policy.ts";
import type { RetryPolicy, RetryPolicyOptions } from "./_policy.ts";
export type { RetryPolicy, RetryPolicyOptions };

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
 * @throws {TypeError} When `options` is not an object or has a key {@link RetryPolicyOptions} does
 * not name, a number option is not a number, a function option is not a function, or
 * `unknownCodeRecovery` is not one of the three classes.
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
