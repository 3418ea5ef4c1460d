// Private: validation and resolution of retry policies.

import {
  checkOptionKeys,
  isJsonObject,
  optionError,
  type OptionKeys,
  optionKeys,
} from "@adcp-wire/internal";
import type { RecoveryClass } from "@adcp-wire/schemas";
import type { ClassifyRecoveryOptions } from "./classify_recovery.ts";
import { resolveUnknownCodeRecovery } from "./_classify.ts";
import { sleep } from "./_sleep.ts";
import { RETRY_AFTER_MAX_SECONDS } from "./normalize_retry_after.ts";

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
   * hold). It does not apply to `retry_after`, which is honoured as normalized. Default: 60, or
   * `initialDelaySeconds` when that is larger.
   *
   * @default {60}
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
   * deterministic delays: `() => 0.5` gives the base delay exactly. Default: `Math.random`,
   * looked up at each call.
   *
   * @default {() => Math.random()}
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
   * (with `signal.reason`) when `signal` aborts. Inject a fake for tests. Default: a
   * `setTimeout` timer, cleared on abort.
   *
   * @default {(ms, signal) => setTimeout(…)}
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Smallest `initialDelaySeconds`: 1 ms. Any smaller positive figure could make a jittered delay
 * underflow to 0 (`Number.MIN_VALUE * 0.1` is 0), and a backoff delay is always `> 0`.
 */
const MIN_INITIAL_DELAY_SECONDS = 0.001;

/** The keys of {@link RetryPolicyOptions}: any other is refused. */
export const RETRY_POLICY_KEYS: OptionKeys = optionKeys<RetryPolicyOptions>({
  maxRetries: true,
  maxElapsedSeconds: true,
  initialDelaySeconds: true,
  maxDelaySeconds: true,
  jitter: true,
  unknownCodeRecovery: true,
  random: true,
  now: true,
  sleep: true,
});

/** Policies made by buildPolicy(): already valid and frozen. */
const built = new WeakSet<object>();

function number(
  action: string,
  options: Record<string, unknown>,
  name: string,
  fallback: number,
  want: string,
  ok: (n: number) => boolean,
): number {
  const v = Object.hasOwn(options, name) ? options[name] : undefined;
  if (v === undefined) return fallback;
  if (typeof v !== "number") throw optionError(TypeError, action, name, want, v);
  if (!ok(v)) throw optionError(RangeError, action, name, want, v);
  return v;
}

function fn<F>(action: string, options: Record<string, unknown>, name: string, fallback: F): F {
  const v = Object.hasOwn(options, name) ? options[name] : undefined;
  if (v === undefined) return fallback;
  if (typeof v !== "function") throw optionError(TypeError, action, name, "a function", v);
  return v as F;
}

/**
 * Validates `options`, fills in the defaults, and returns a frozen policy. `action` is what error
 * messages say could not be done, `name` what they call `options` when it is not an object, and
 * `path` what they call it when it has an unknown key (`options.policy` inside other options).
 */
export function buildPolicy(
  options: RetryPolicyOptions | undefined,
  action: string,
  name = "options",
  path = name,
): RetryPolicy {
  if (options === undefined) options = {};
  if (!isJsonObject(options)) throw optionError(TypeError, action, name, "an object", options);
  checkOptionKeys(action, path, options, RETRY_POLICY_KEYS);
  const o = options as Record<string, unknown>;
  const maxRetries = number(
    action,
    o,
    "maxRetries",
    3,
    "a non-negative safe integer",
    (n) => Number.isSafeInteger(n) && n >= 0,
  );
  const maxElapsedSeconds = number(
    action,
    o,
    "maxElapsedSeconds",
    300,
    "a finite number of seconds >= 0",
    (n) => Number.isFinite(n) && n >= 0,
  );
  const initialDelaySeconds = number(
    action,
    o,
    "initialDelaySeconds",
    2,
    `a number of seconds >= ${MIN_INITIAL_DELAY_SECONDS} and <= ${RETRY_AFTER_MAX_SECONDS}`,
    (n) => n >= MIN_INITIAL_DELAY_SECONDS && n <= RETRY_AFTER_MAX_SECONDS,
  );
  const maxDelaySeconds = number(
    action,
    o,
    "maxDelaySeconds",
    Math.max(60, initialDelaySeconds),
    `a number of seconds >= initialDelaySeconds (${initialDelaySeconds}) and <= ` +
      `${RETRY_AFTER_MAX_SECONDS}`,
    (n) => n >= initialDelaySeconds && n <= RETRY_AFTER_MAX_SECONDS,
  );
  const jitter = number(
    action,
    o,
    "jitter",
    0.25,
    "a number >= 0 and < 1",
    (n) => n >= 0 && n < 1,
  );
  const policy: RetryPolicy = Object.freeze({
    maxRetries,
    maxElapsedSeconds,
    initialDelaySeconds,
    maxDelaySeconds,
    jitter,
    unknownCodeRecovery: resolveUnknownCodeRecovery(
      Object.hasOwn(o, "unknownCodeRecovery") ? o["unknownCodeRecovery"] : undefined,
      action,
    ),
    // Read at each call, not bound once: a test that replaces Math.random is seen by later calls.
    random: fn<() => number>(action, o, "random", () => Math.random()),
    now: fn<() => number>(action, o, "now", () => performance.now()),
    sleep: fn<(ms: number, signal: AbortSignal) => Promise<void>>(action, o, "sleep", sleep),
  });
  built.add(policy);
  return policy;
}

/** The default policy, built on first use. */
let defaultPolicy: RetryPolicy | undefined;

/**
 * A policy as given (when built by createRetryPolicy), the default one, or built from options;
 * `action` is what error messages say could not be done, `path` what they call the policy when
 * it has an unknown key.
 */
export function resolvePolicy(
  policy: RetryPolicy | RetryPolicyOptions | undefined,
  action: string,
  path = "policy",
): RetryPolicy {
  if (policy === undefined) return defaultPolicy ??= buildPolicy(undefined, action);
  return built.has(policy) ? policy as RetryPolicy : buildPolicy(policy, action, "policy", path);
}
