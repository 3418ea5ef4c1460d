import { validateAdcpError } from "@adcp-wire/core";
import { checkOptionKeys, optionError, optionKeys } from "@adcp-wire/internal";
import { resolvePolicy, RETRY_POLICY_KEYS } from "./_policy.ts";
import type { RecoveryInput } from "./classify_recovery.ts";
import { decideRecovery, type RecoveryDecision } from "./decide_recovery.ts";
import { RetryBudgetExhaustedError } from "./errors.ts";
import type { RetryPolicy, RetryPolicyOptions } from "./retry_policy.ts";

/** One decision of {@link withRetry}, as reported to `onDecision`. */
export interface RetryEvent {
  /** The 1-based number of the attempt that failed. */
  readonly attempt: number;
  /** Seconds since the first attempt started, measured with the policy's clock. */
  readonly elapsedSeconds: number;
  /** What happens next. */
  readonly decision: RecoveryDecision;
  /** The extracted AdCP error, or `null` when the failure carried none. */
  readonly error: RecoveryInput | null;
  /** The value the attempt threw, unchanged. */
  readonly thrown: unknown;
}

/** Options of {@link withRetry}. */
export interface WithRetryOptions {
  /**
   * The retry policy, or options for one: budget, backoff, unknown-code class, random source,
   * clock and sleep.
   *
   * @default {createRetryPolicy()}
   */
  policy?: RetryPolicy | RetryPolicyOptions;
  /**
   * Cancels the whole operation: an abort before the first attempt, during an attempt or during a
   * wait rejects at once with `signal.reason`. It is also passed to each attempt. Default: no
   * signal, so the operation cannot be cancelled from outside.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
  /**
   * Finds the AdCP error in a thrown value. A result that fails `validateAdcpError` of
   * `@adcp-wire/core` (not an object with a `code` string of 1 to 64 characters, or over 4096
   * bytes of JSON) counts as none, and a failure with none is rethrown at once, unretried
   * (`generic_error`). Default: reads the thrown value's `adcpError` property, so a failure is
   * recognised when it is an object (for instance an `Error`) whose `adcpError` holds the
   * extracted error.
   *
   * @default {(thrown) => thrown.adcpError}
   */
  extractError?: (thrown: unknown) => RecoveryInput | null | undefined;
  /**
   * Called once per failed attempt with the decision taken, before any wait. An exception it
   * throws rejects `withRetry` with that exception. Default: none.
   *
   * @default {undefined}
   */
  onDecision?: (event: RetryEvent) => void;
}

function defaultExtractError(thrown: unknown): RecoveryInput | null {
  if ((typeof thrown !== "object" || thrown === null) && typeof thrown !== "function") return null;
  return validateAdcpError((thrown as { adcpError?: unknown }).adcpError);
}

/** Settles like `promise`, or rejects with `signal.reason` as soon as `signal` aborts. */
function untilAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) {
      promise.catch(() => {});
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

const RETRY_ACTION = "retry the operation";

/** The keys of {@link WithRetryOptions}: any other is refused. */
const WITH_RETRY_KEYS = optionKeys<WithRetryOptions>({
  policy: true,
  signal: true,
  extractError: true,
  onDecision: true,
});

/** Where a policy option given at the top level belongs, for the suggestion. */
const WITH_RETRY_NESTED_KEYS = { policy: RETRY_POLICY_KEYS } as const;

function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function") {
    throw optionError(TypeError, RETRY_ACTION, name, "a function", value);
  }
}

/**
 * Runs `operation` and retries it while it fails with a transient AdCP error, as
 * {@link decideRecovery} decides with the attempt number and the elapsed time: it waits the
 * decided delay, never past the policy's time budget, and rethrows any other failure unchanged at
 * once, or throws {@link RetryBudgetExhaustedError} when the budget refuses a retry. An abort of
 * `signal` rejects at once with `signal.reason`.
 *
 * Transport Error Mapping, "Recovery Behavior" and "Client Library Requirements" (rules:
 * [docs/recovery.md](../../docs/recovery.md#retrying)).
 *
 * @typeParam T The operation's result.
 * @param operation One attempt: receives the 1-based attempt number and the signal (a signal that
 * never aborts when none was given), and rejects with a value carrying the AdCP error.
 * @param options Policy, signal, error extraction and reporting.
 * @returns The result of the first successful attempt.
 * @throws {RetryBudgetExhaustedError} When a transient failure cannot be retried within the budget.
 * @throws {TypeError} When `operation` or an option has a bad type, `options` or `options.policy`
 * has an unknown key, or the policy's `now()` returns something other than a number.
 * @throws {RangeError} When a policy figure is out of range, or the policy's `now()` returns
 * `NaN` or an infinity.
 *
 * @example Success after a transient failure, with a fake clock
 * ```ts
 * import { type RetryEvent, withRetry } from "@adcp-wire/recovery";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * let clock = 0;
 * const waits: number[] = [];
 * const policy = {
 *   now: () => clock,
 *   sleep: (ms: number) => {
 *     waits.push(ms);
 *     clock += ms;
 *     return Promise.resolve();
 *   },
 * };
 * const events: RetryEvent[] = [];
 * const result = await withRetry(
 *   (attempt) => {
 *     if (attempt === 1) {
 *       const error = { code: "RATE_LIMITED", recovery: "transient", retry_after: 5 };
 *       return Promise.reject(Object.assign(new Error("Rate limited"), { adcpError: error }));
 *     }
 *     return Promise.resolve(`done on attempt ${attempt}`);
 *   },
 *   { policy, onDecision: (event) => events.push(event) },
 * );
 * strictEqual(result, "done on attempt 2");
 * deepStrictEqual(waits, [5000]);
 * strictEqual(events.length, 1);
 * strictEqual(events[0]?.decision.action, "retry");
 * ```
 */
export async function withRetry<T>(
  operation: (attempt: number, signal: AbortSignal) => Promise<T>,
  options?: WithRetryOptions,
): Promise<T> {
  if (typeof operation !== "function") {
    throw optionError(TypeError, RETRY_ACTION, "operation", "a function", operation);
  }
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw optionError(TypeError, RETRY_ACTION, "options", "an object", options);
  }
  checkOptionKeys(RETRY_ACTION, "options", options, WITH_RETRY_KEYS, WITH_RETRY_NESTED_KEYS);
  const policy = resolvePolicy(options?.policy, RETRY_ACTION, "options.policy");
  const givenSignal = options?.signal;
  if (givenSignal !== undefined && !(givenSignal instanceof AbortSignal)) {
    throw optionError(TypeError, RETRY_ACTION, "signal", "an AbortSignal", givenSignal);
  }
  checkFunction(options?.extractError, "extractError");
  checkFunction(options?.onDecision, "onDecision");
  const extractError = options?.extractError ?? defaultExtractError;
  const onDecision = options?.onDecision;
  const signal = givenSignal ?? new AbortController().signal;

  const readClock = (): number => {
    const t = policy.now();
    if (typeof t !== "number") {
      throw optionError(TypeError, RETRY_ACTION, "now()", "a finite number of milliseconds", t);
    }
    if (!Number.isFinite(t)) {
      throw optionError(RangeError, RETRY_ACTION, "now()", "a finite number of milliseconds", t);
    }
    return t;
  };

  signal.throwIfAborted();
  const start = readClock();
  /** Seconds since the first attempt started (a clock going backwards counts as none). */
  const elapsed = (): number => Math.max(0, (readClock() - start) / 1000);
  for (let attempt = 1;; attempt++) {
    let thrown: unknown;
    try {
      // Promise.resolve() also accepts an operation that returns a plain value or a thenable.
      return await untilAbort(Promise.resolve(operation(attempt, signal)), signal);
    } catch (e) {
      thrown = e;
    }
    signal.throwIfAborted();
    if (thrown instanceof RetryBudgetExhaustedError) {
      // An inner withRetry (a client's own retries) already spent its budget: terminal here too,
      // or nested budgets would multiply the attempts.
      const elapsedSeconds = elapsed();
      const { decision, adcpError: error } = thrown;
      onDecision?.({ attempt, elapsedSeconds, decision, error, thrown });
      throw thrown;
    }
    const extracted = extractError(thrown);
    const error = validateAdcpError(extracted);
    const elapsedSeconds = elapsed();
    const decision = decideRecovery(error, { attempt, elapsedSeconds, policy });
    onDecision?.({ attempt, elapsedSeconds, decision, error, thrown });
    const exhausted = (
      refused: RetryBudgetExhaustedError["decision"],
      seconds: number,
      adcpError: RecoveryInput,
    ) =>
      new RetryBudgetExhaustedError({
        decision: refused,
        attempts: attempt,
        elapsedSeconds: seconds,
        maxRetries: policy.maxRetries,
        maxElapsedSeconds: policy.maxElapsedSeconds,
        adcpError,
      }, thrown);
    if (decision.action !== "retry") {
      if (
        decision.action === "escalate_to_human" && decision.reason === "retry_budget_exhausted" &&
        error !== null
      ) {
        throw exhausted(decision, elapsedSeconds, error);
      }
      throw thrown;
    }
    // `onDecision` may have taken time: the wait must still end within the budget.
    const decidedSeconds = elapsed();
    if (decidedSeconds + decision.delaySeconds > policy.maxElapsedSeconds && error !== null) {
      throw exhausted(
        {
          action: "escalate_to_human",
          reason: "retry_budget_exhausted",
          limit: "max_elapsed_seconds",
          delaySeconds: decision.delaySeconds,
          delaySource: decision.delaySource,
        },
        decidedSeconds,
        error,
      );
    }
    // Promise.resolve() also accepts a custom sleep that returns a thenable or nothing.
    await untilAbort(Promise.resolve(policy.sleep(decision.delaySeconds * 1000, signal)), signal);
  }
}
