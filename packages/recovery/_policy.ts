// Private: validation and resolution of retry policies.

import { isJsonObject, optionError } from "@adcp-wire/internal";
import { resolveUnknownCodeRecovery } from "./_classify.ts";
import { sleep } from "./_sleep.ts";
import { RETRY_AFTER_MAX_SECONDS } from "./normalize_retry_after.ts";
import type { RetryPolicy, RetryPolicyOptions } from "./retry_policy.ts";

/**
 * Smallest `initialDelaySeconds`: 1 ms. Any smaller positive figure could make a jittered delay
 * underflow to 0 (`Number.MIN_VALUE * 0.1` is 0), and a backoff delay is always `> 0`.
 */
const MIN_INITIAL_DELAY_SECONDS = 0.001;

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
 * messages say could not be done, `name` what they call `options` when it is not an object.
 */
export function buildPolicy(
  options: RetryPolicyOptions | undefined,
  action: string,
  name = "options",
): RetryPolicy {
  if (options === undefined) options = {};
  if (!isJsonObject(options)) throw optionError(TypeError, action, name, "an object", options);
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
    `a number of seconds >= initialDelaySeconds (${initialDelaySeconds}) and <= ${RETRY_AFTER_MAX_SECONDS}`,
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
 * `action` is what error messages say could not be done.
 */
export function resolvePolicy(
  policy: RetryPolicy | RetryPolicyOptions | undefined,
  action: string,
): RetryPolicy {
  if (policy === undefined) return defaultPolicy ??= buildPolicy(undefined, action);
  return built.has(policy) ? policy as RetryPolicy : buildPolicy(policy, action, "policy");
}
