// Runs one client call under withRetry of @adcp-wire/recovery, while keeping the call's result a
// union member: a structured-error result is thrown inside the attempt (so withRetry can decide),
// and whatever ends the retrying is turned back into a result.
import type { AdcpError } from "@adcp-wire/core";
import { type RecoveryDecision, RetryBudgetExhaustedError, withRetry } from "@adcp-wire/recovery";
import { JsonRpcError } from "./errors.ts";

import type { RetryOption } from "./mcp_client.ts";

/** A failed attempt, carried through withRetry. */
class FailedAttempt<R> {
  readonly result: R;
  readonly adcpError: AdcpError;
  constructor(result: R, adcpError: AdcpError) {
    this.result = result;
    this.adcpError = adcpError;
  }
}

/**
 * Runs `attempt`, retrying while `errorOf(result)` is a transient AdCP error and the budget
 * allows. A thrown `JsonRpcError` carrying an `adcp_error` (a `-32029` on a lazy `initialize`) is
 * retried the same way. When the budget runs out, the last result is returned with
 * `withDecision(result, decision)` applied, so the caller sees the escalation.
 */
export async function runWithRetry<R>(
  attempt: () => Promise<R>,
  retry: RetryOption | undefined,
  signal: AbortSignal | undefined,
  errorOf: (result: R) => AdcpError | null,
  withDecision: (result: R, decision: RecoveryDecision) => R,
): Promise<R> {
  if (retry === undefined || retry === false) return await attempt();
  try {
    return await withRetry(async () => {
      const result = await attempt();
      const adcpError = errorOf(result);
      if (adcpError !== null) throw new FailedAttempt(result, adcpError);
      return result;
    }, {
      ...(retry === true ? {} : { policy: retry }),
      ...(signal === undefined ? {} : { signal }),
      extractError: (thrown) =>
        thrown instanceof FailedAttempt
          ? thrown.adcpError
          : thrown instanceof JsonRpcError
          ? thrown.adcpError
          : null,
    });
  } catch (thrown) {
    if (thrown instanceof FailedAttempt) return thrown.result as R;
    if (thrown instanceof RetryBudgetExhaustedError && thrown.cause instanceof FailedAttempt) {
      return withDecision(thrown.cause.result as R, thrown.decision);
    }
    throw thrown;
  }
}
