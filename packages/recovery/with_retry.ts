import { describe, isStructuredError } from "./_own.ts";
import { resolvePolicy } from "./_policy.ts";
import type { RecoveryInput } from "./classify_recovery.ts";
import { decideRecovery, type RecoveryDecision } from "./decide_recovery.ts";
import { RetryBudgetExhaustedError } from "./errors.ts";
import type { RetryPolicy, RetryPolicyOptions } from "./retry_policy.ts";

/**
 * One decision of {@linkcode withRetry}, as reported to `onDecision`.
 *
 * @example Recording the decision on a correctable failure
 * ```ts
 * import { type RetryEvent, withRetry } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * const events: RetryEvent[] = [];
 * const failure = { adcpError: { code: "BUDGET_TOO_LOW", recovery: "correctable" } };
 * const caught = await withRetry(() => Promise.reject(failure), {
 *   onDecision: (event) => events.push(event),
 * }).catch((error: unknown) => error);
 * strictEqual(caught, failure); // correctable: rethrown at once, never retried
 * strictEqual(events.length, 1);
 * strictEqual(events[0]?.attempt, 1);
 * strictEqual(events[0]?.decision.action, "surface_to_caller");
 * ```
 */
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

/**
 * Options of {@linkcode withRetry}.
 *
 * @example A transport that carries the error elsewhere, and a fake sleep
 * ```ts
 * import { type RecoveryInput, withRetry, type WithRetryOptions } from "@adcp-wire/recovery";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const waits: number[] = [];
 * const options: WithRetryOptions = {
 *   // This transport rejects with `{ body: { adcp_error } }`.
 *   extractError: (thrown) => (thrown as { body: { adcp_error: RecoveryInput } }).body.adcp_error,
 *   policy: { sleep: (ms) => Promise.resolve(void waits.push(ms)) }, // no real waiting
 * };
 * const failure = { body: { adcp_error: { code: "RATE_LIMITED", retry_after: 2 } } };
 * const operation = (attempt: number) =>
 *   attempt < 3 ? Promise.reject(failure) : Promise.resolve("ok");
 * const result = await withRetry(operation, options);
 * strictEqual(result, "ok");
 * deepStrictEqual(waits, [2000, 2000]);
 * ```
 */
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
   * wait rejects at once with `signal.reason`. It is also passed to each attempt.
   *
   * @default No signal: the operation cannot be cancelled from outside.
   */
  signal?: AbortSignal;
  /**
   * Finds the AdCP error in a thrown value. A result that is not an object with a `code` string of
   * 1 to 64 characters counts as none, and a failure with none is rethrown at once, unretried
   * (`generic_error`).
   *
   * @default Reads the thrown value's `adcpError` property: a failure is recognised when it is an
   * object (for instance an `Error`) whose `adcpError` holds the extracted error.
   */
  extractError?: (thrown: unknown) => RecoveryInput | null | undefined;
  /**
   * Called once per failed attempt with the decision taken, before any wait. An exception it
   * throws rejects `withRetry` with that exception.
   *
   * @default None.
   */
  onDecision?: (event: RetryEvent) => void;
}

function defaultExtractError(thrown: unknown): RecoveryInput | null {
  if ((typeof thrown !== "object" || thrown === null) && typeof thrown !== "function") return null;
  const candidate = (thrown as { adcpError?: unknown }).adcpError;
  return isStructuredError(candidate) ? candidate : null;
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

function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function") {
    throw new TypeError(`Invalid ${name}: expected a function, received ${describe(value)}`);
  }
}

/**
 * Runs `operation` and retries it while it fails with a transient AdCP error, within the retry
 * budget of the policy (Transport Error Mapping, "Recovery Behavior" and "Client Library
 * Requirements": client libraries "MAY additionally auto-retry `transient` errors" and "expose a
 * `retryPolicy` option"). Each failure goes through {@linkcode decideRecovery} with the attempt
 * number and the elapsed time:
 *
 * - `retry`: waits `delaySeconds` with the policy's `sleep`, then runs the next attempt. The
 *   budget check guarantees the wait ends within `maxElapsedSeconds` of the first attempt's start;
 *   `withRetry` never waits past it.
 * - `surface_to_caller` (correctable), `escalate_to_human` with reason `terminal`, and
 *   `generic_error` (no AdCP error found): rethrows the thrown value unchanged, at once.
 *   Correctable and terminal errors are never retried.
 * - `escalate_to_human` with reason `retry_budget_exhausted`: throws a
 *   {@linkcode RetryBudgetExhaustedError} whose `cause` is the last thrown value. A typed error
 *   rather than the last failure itself, because the caller must be able to tell "this transient
 *   error persisted beyond the budget, escalate it as terminal" from an ordinary failure.
 *
 * Each decision is reported to `onDecision` first. An abort of `signal` (before the first attempt,
 * during an attempt, after a failed attempt, or during a wait) rejects at once with
 * `signal.reason`, even when the operation or a custom `sleep` ignores the signal; the default
 * sleep also clears its timer, so nothing is left pending. The operation receives the signal and
 * should stop on it; what a running attempt settles with after the abort is ignored.
 *
 * The wait always ends within `maxElapsedSeconds` of the first attempt's start: the clock is read
 * again after `onDecision`, and a retry whose wait would end past the budget throws
 * {@linkcode RetryBudgetExhaustedError} instead (after `onDecision` reported the retry). A
 * `RetryBudgetExhaustedError` thrown by the operation itself (an inner `withRetry`, such as a
 * client's own retries) is rethrown at once, after `onDecision` reports its escalation: nested
 * budgets never multiply.
 *
 * So the returned promise rejects with exactly one of: what the last attempt threw (not retried),
 * a {@linkcode RetryBudgetExhaustedError}, `signal.reason`, a `TypeError`/`RangeError` for bad
 * arguments, or what `extractError`, `onDecision` or `sleep` threw.
 *
 * @typeParam T The operation's result.
 * @param operation One attempt: receives the 1-based attempt number and the signal (a signal that
 * never aborts when none was given), and rejects with a value carrying the AdCP error.
 * @param options Policy, signal, error extraction and reporting.
 * @returns The result of the first successful attempt.
 * @throws {RetryBudgetExhaustedError} When a transient failure cannot be retried within the budget.
 * @throws {TypeError} When `operation` or an option has a bad type, or the policy's `now()` returns
 * something other than a finite number.
 * @throws {RangeError} When a policy figure is out of range.
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
    throw new TypeError(`Invalid operation: expected a function, received ${describe(operation)}`);
  }
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError(`Invalid options: expected an object, received ${describe(options)}`);
  }
  const policy = resolvePolicy(options?.policy);
  const givenSignal = options?.signal;
  if (givenSignal !== undefined && !(givenSignal instanceof AbortSignal)) {
    throw new TypeError(
      `Invalid signal: expected an AbortSignal, received ${describe(givenSignal)}`,
    );
  }
  checkFunction(options?.extractError, "extractError");
  checkFunction(options?.onDecision, "onDecision");
  const extractError = options?.extractError ?? defaultExtractError;
  const onDecision = options?.onDecision;
  const signal = givenSignal ?? new AbortController().signal;

  const readClock = (): number => {
    const t = policy.now();
    if (typeof t !== "number" || !Number.isFinite(t)) {
      throw new TypeError(
        `Invalid now(): expected a finite number of milliseconds, received ${describe(t)}`,
      );
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
    const error = isStructuredError(extracted) ? extracted : null;
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
