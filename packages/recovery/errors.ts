import type { RecoveryInput } from "./classify_recovery.ts";
import type { EscalateRetryCountDecision, EscalateRetryTimeDecision } from "./decide_recovery.ts";

/**
 * The literal `code` of every error in the `@adcp-wire/recovery` family.
 *
 * @example Reading the code of a caught error
 * ```ts
 * import { AdcpRecoveryError, type AdcpRecoveryErrorCode, withRetry } from "@adcp-wire/recovery";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const busy = { adcpError: { code: "SERVICE_UNAVAILABLE", recovery: "transient" } };
 * const caught = await withRetry(() => Promise.reject(busy), { policy: { maxRetries: 0 } })
 *   .catch((error: unknown) => error);
 * ok(caught instanceof AdcpRecoveryError);
 * const code: AdcpRecoveryErrorCode = caught.code;
 * strictEqual(code, "RETRY_BUDGET_EXHAUSTED");
 * ```
 */
export type AdcpRecoveryErrorCode = "RETRY_BUDGET_EXHAUSTED";

/**
 * Base class of the errors `@adcp-wire/recovery` throws for conditions callers are expected to
 * catch. Programmer errors (bad options) are `TypeError` or `RangeError` instead.
 *
 * @example Catching any recovery error
 * ```ts
 * import { AdcpRecoveryError, withRetry } from "@adcp-wire/recovery";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const busy = { adcpError: { code: "SERVICE_UNAVAILABLE", recovery: "transient" } };
 * try {
 *   await withRetry(() => Promise.reject(busy), { policy: { maxRetries: 0 } });
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof AdcpRecoveryError);
 *   strictEqual(error.code, "RETRY_BUDGET_EXHAUSTED");
 * }
 * ```
 */
export abstract class AdcpRecoveryError extends Error {
  /** Machine-readable error code, a string literal per subclass. */
  abstract readonly code: AdcpRecoveryErrorCode;
  /** Error name, a string literal per subclass. */
  override readonly name: string = "AdcpRecoveryError";
}

/**
 * What {@linkcode RetryBudgetExhaustedError} reports.
 *
 * @example Throwing from a retry loop of your own
 * ```ts
 * import {
 *   decideRecovery,
 *   RetryBudgetExhaustedError,
 *   type RetryBudgetExhaustedDetails,
 * } from "@adcp-wire/recovery";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const adcpError = { code: "RATE_LIMITED", retry_after: 60 };
 * const decision = decideRecovery(adcpError, { attempt: 1, elapsedSeconds: 250 });
 * ok(decision.action === "escalate_to_human" && decision.reason === "retry_budget_exhausted");
 * const details: RetryBudgetExhaustedDetails = {
 *   decision,
 *   adcpError,
 *   attempts: 1,
 *   elapsedSeconds: 250,
 *   maxRetries: 3,
 *   maxElapsedSeconds: 300,
 * };
 * const error = new RetryBudgetExhaustedError(details, new Error("HTTP 429"));
 * strictEqual(error.limit, "max_elapsed_seconds");
 * strictEqual(
 *   error.message,
 *   "Retry budget exhausted: expected the next wait to end within 300 s, observed 250 s " +
 *     "elapsed plus a 60 s retry_after delay",
 * );
 * ```
 */
export interface RetryBudgetExhaustedDetails {
  /** The decision that refused the retry. */
  readonly decision: EscalateRetryCountDecision | EscalateRetryTimeDecision;
  /** Attempts made, the failed last one included. */
  readonly attempts: number;
  /** Seconds since the first attempt started when the retry was refused. */
  readonly elapsedSeconds: number;
  /** The policy's `maxRetries`. */
  readonly maxRetries: number;
  /** The policy's `maxElapsedSeconds`. */
  readonly maxElapsedSeconds: number;
  /** The extracted AdCP error of the last attempt (raw seller values). */
  readonly adcpError: RecoveryInput;
}

function seconds(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/**
 * Thrown by {@linkcode withRetry} when an operation keeps failing with a transient error and the
 * retry budget does not allow another attempt (Transport Error Mapping, "Recovery Behavior":
 * "Transient errors that persist beyond the retry budget SHOULD be escalated as terminal"). Treat
 * it as terminal: surface it to a human operator.
 *
 * Its `cause` is the value the last attempt threw, unchanged, so the transport's own error stays
 * reachable; the structured fields are on the instance. The message holds numbers only, never
 * seller text.
 *
 * @example Reading why the budget ran out
 * ```ts
 * import { RetryBudgetExhaustedError, withRetry } from "@adcp-wire/recovery";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const failure = { adcpError: { code: "RATE_LIMITED", recovery: "transient", retry_after: 3600 } };
 * try {
 *   await withRetry(() => Promise.reject(failure));
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof RetryBudgetExhaustedError);
 *   strictEqual(error.limit, "max_elapsed_seconds"); // one 3600 s wait exceeds 300 s
 *   strictEqual(error.attempts, 1);
 *   strictEqual(error.cause, failure);
 *   strictEqual(error.adcpError.code, "RATE_LIMITED");
 * }
 * ```
 */
export class RetryBudgetExhaustedError extends AdcpRecoveryError {
  /** Always `"RETRY_BUDGET_EXHAUSTED"`. */
  readonly code: "RETRY_BUDGET_EXHAUSTED" = "RETRY_BUDGET_EXHAUSTED";
  /** Always `"RetryBudgetExhaustedError"`. */
  override readonly name: "RetryBudgetExhaustedError" = "RetryBudgetExhaustedError";
  /** Which limit refused the retry. */
  readonly limit: "max_retries" | "max_elapsed_seconds";
  /** The decision that refused the retry. */
  readonly decision: EscalateRetryCountDecision | EscalateRetryTimeDecision;
  /** Attempts made, the failed last one included. */
  readonly attempts: number;
  /** Seconds since the first attempt started when the retry was refused. */
  readonly elapsedSeconds: number;
  /** The extracted AdCP error of the last attempt (raw seller values). */
  readonly adcpError: RecoveryInput;

  /**
   * Creates the error.
   *
   * @param details What ran out, and the last error.
   * @param cause The value the last attempt threw.
   */
  constructor(details: RetryBudgetExhaustedDetails, cause: unknown) {
    const { decision } = details;
    super(
      decision.limit === "max_retries"
        ? `Retry budget exhausted: expected at most ${details.maxRetries} retries, observed ` +
          `attempt ${details.attempts} failing with a transient error`
        : `Retry budget exhausted: expected the next wait to end within ${details.maxElapsedSeconds} s, ` +
          `observed ${seconds(details.elapsedSeconds)} s elapsed plus a ${
            seconds(decision.delaySeconds)
          } s ${decision.delaySource === "retry_after" ? "retry_after" : "backoff"} delay`,
      { cause },
    );
    this.limit = decision.limit;
    this.decision = decision;
    this.attempts = details.attempts;
    this.elapsedSeconds = details.elapsedSeconds;
    this.adcpError = details.adcpError;
  }
}

/**
 * Every error class `@adcp-wire/recovery` throws, discriminated by `code`.
 *
 * @example Handling every recovery error by code
 * ```ts
 * import {
 *   type AdcpRecoveryErrors,
 *   RetryBudgetExhaustedError,
 *   withRetry,
 * } from "@adcp-wire/recovery";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const note = (error: AdcpRecoveryErrors): string =>
 *   `${error.code} after ${error.attempts} attempt(s)`;
 *
 * const busy = { adcpError: { code: "SERVICE_UNAVAILABLE", recovery: "transient" } };
 * const caught = await withRetry(() => Promise.reject(busy), { policy: { maxRetries: 0 } })
 *   .catch((error: unknown) => error);
 * ok(caught instanceof RetryBudgetExhaustedError);
 * strictEqual(note(caught), "RETRY_BUDGET_EXHAUSTED after 1 attempt(s)");
 * ```
 */
export type AdcpRecoveryErrors = RetryBudgetExhaustedError;
