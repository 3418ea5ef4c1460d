import { AdcpWireError } from "@adcp-wire/internal";
import type { RecoveryInput } from "./classify_recovery.ts";
import type { EscalateRetryCountDecision, EscalateRetryTimeDecision } from "./decide_recovery.ts";

/** The literal upper-case `code` of every error in the `@adcp-wire/recovery` family. */
export type AdcpRecoveryErrorCode = "RETRY_BUDGET_EXHAUSTED";

/**
 * Base class of the errors `@adcp-wire/recovery` throws for conditions callers are expected to
 * catch, under the workspace root {@link AdcpWireError}. Programmer errors (bad options) are
 * `TypeError` or `RangeError` instead.
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
export abstract class AdcpRecoveryError extends AdcpWireError {
  /** Machine-readable error code, an upper-case string literal per subclass. */
  abstract override readonly code: AdcpRecoveryErrorCode;
  /** Error name, a string literal per subclass. */
  override readonly name: string = "AdcpRecoveryError";
}

/**
 * What {@link RetryBudgetExhaustedError} reports: the refused decision, the budget and the last
 * error.
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
 * Thrown by {@link withRetry} when an operation keeps failing with a transient error and the
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
 * const failure = {
 *   adcpError: { code: "RATE_LIMITED", recovery: "transient", retry_after: 3600 },
 * };
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
        : `Retry budget exhausted: expected the next wait to end within ` +
          `${details.maxElapsedSeconds} s, ` +
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

/** Every error class `@adcp-wire/recovery` throws, discriminated by `code`. */
export type AnyRecoveryError = RetryBudgetExhaustedError;
