// Runs one client call under withRetry of @adcp-wire/recovery, while keeping the call's result a
// union member: a structured-error result is thrown inside the attempt (so withRetry can decide),
// and whatever ends the retrying is turned back into a result.
import type { ExtractedAdcpError } from "@adcp-wire/core";
import {
  isJsonObject,
  optionError,
  type OptionKeys,
  optionKeys,
  rescopeOptionError,
} from "@adcp-wire/internal";
import {
  createRetryPolicy,
  type RecoveryDecision,
  RetryBudgetExhaustedError,
  type RetryPolicy,
  type RetryPolicyOptions,
  withRetry,
} from "@adcp-wire/recovery";
import { isCallerError } from "./_rpc.ts";
import type { RetryOption } from "./options.ts";
import { checkKeys } from "../_options.ts";
import {
  AdcpTransportError,
  DeadlineExceededError,
  HttpStatusError,
  JsonRpcError,
  NetworkError,
} from "../errors.ts";

/**
 * The keys of the `retry` option: those of `RetryPolicyOptions`, which are those of a
 * `RetryPolicy` too (the type checker holds both), so a policy passes as it is.
 */
export const RETRY_KEYS: OptionKeys = optionKeys<RetryPolicyOptions & RetryPolicy>({
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

/**
 * The `retry` option of a client, checked when the client is created (`action`): `undefined` or a
 * boolean as given, policy options (or a policy) as the frozen policy `createRetryPolicy` of
 * `@adcp-wire/recovery` makes of them, which every call then uses without checking it again.
 *
 * @throws {TypeError | RangeError} Naming `options.retry` or `options.retry.<field>` (an unknown
 * field included).
 */
export function retryOption(action: string, value: unknown): boolean | RetryPolicy | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  if (!isJsonObject(value)) {
    throw optionError(
      TypeError,
      action,
      "options.retry",
      "a boolean, a RetryPolicy or RetryPolicyOptions",
      value,
    );
  }
  checkKeys(action, "options.retry", value, RETRY_KEYS);
  try {
    return createRetryPolicy(value as RetryPolicyOptions);
  } catch (error) {
    throw rescopeOptionError(error, action, (name) => `options.retry.${name}`);
  }
}

/** A failed attempt, carried through withRetry. */
class FailedAttempt<R> {
  readonly result: R;
  readonly adcpError: ExtractedAdcpError;
  constructor(result: R, adcpError: ExtractedAdcpError) {
    this.result = result;
    this.adcpError = adcpError;
  }
}

/** An attempt that ran out of its own deadline: a network timeout, transient. */
const TIMED_OUT: ExtractedAdcpError = {
  code: "SERVICE_UNAVAILABLE",
  message: "The agent did not answer within the deadline",
  recovery: "transient",
};

/**
 * The AdCP error a failed attempt stands for: a structured-error result, a JSON-RPC error carrying
 * one, a network failure or transient HTTP status (Error Handling, "Protocol Errors": network
 * errors are retryable), or an attempt that ran out of its own deadline. `null` for the rest.
 */
function retryableError(thrown: unknown): ExtractedAdcpError | null {
  if (thrown instanceof FailedAttempt) return thrown.adcpError;
  if (isCallerError(thrown)) return null; // the caller's own callback threw: never resend for it
  return thrown instanceof AdcpTransportError ? transportAdcpError(thrown) : null;
}

/**
 * The AdCP error a transport failure stands for, or `null`: the `adcpError` of a JSON-RPC error, an
 * HTTP status (429, 408, 5xx) or a network failure, and a transient `SERVICE_UNAVAILABLE` for a
 * deadline of ours (not for a caller's timeout signal).
 */
export function transportAdcpError(error: AdcpTransportError): ExtractedAdcpError | null {
  if (error instanceof JsonRpcError || error instanceof HttpStatusError) return error.adcpError;
  if (error instanceof NetworkError) return error.adcpError;
  if (error instanceof DeadlineExceededError && error.timeoutMs !== undefined) return TIMED_OUT;
  return null;
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
  errorOf: (result: R) => ExtractedAdcpError | null,
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
      extractError: retryableError,
    });
  } catch (thrown) {
    if (thrown instanceof FailedAttempt) return thrown.result as R;
    if (thrown instanceof RetryBudgetExhaustedError && thrown.cause instanceof FailedAttempt) {
      return withDecision(thrown.cause.result as R, thrown.decision);
    }
    // The budget ran out on a thrown transport failure: the call fails with the last one.
    if (thrown instanceof RetryBudgetExhaustedError && thrown.cause instanceof AdcpTransportError) {
      throw thrown.cause;
    }
    throw thrown;
  }
}
