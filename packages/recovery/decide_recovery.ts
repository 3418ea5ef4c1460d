import { validateAdcpError } from "@adcp-wire/core";
import { checkOptionKeys, isJsonObject, optionError, optionKeys, own } from "@adcp-wire/internal";
import { classify } from "./_classify.ts";
import { checkAttempt, checkElapsedSeconds } from "./_own.ts";
import { resolvePolicy, RETRY_POLICY_KEYS } from "./_policy.ts";
import { backoffDelay } from "./backoff.ts";
import type { RecoveryInput } from "./classify_recovery.ts";
import { normalizeRetryAfter } from "./normalize_retry_after.ts";
import type { RetryPolicy, RetryPolicyOptions } from "./retry_policy.ts";

/** Retry the operation after `delaySeconds` (a transient error within the retry budget). */
export interface RetryDecision {
  /** Always `"retry"`. */
  readonly action: "retry";
  /**
   * Seconds to wait before the next attempt: an integer for `retry_after`, any `> 0` for backoff.
   */
  readonly delaySeconds: number;
  /** Whether the delay is the seller's normalized `retry_after` or the policy's backoff. */
  readonly delaySource: "retry_after" | "backoff";
}

/**
 * Show `field` and `suggestion` to the caller and do not retry automatically (a correctable
 * error). Both are copied only when they are strings, and are otherwise left out; they are
 * seller-controlled text, never interpreted here: sanitize them before display.
 */
export interface SurfaceToCallerDecision {
  /** Always `"surface_to_caller"`. */
  readonly action: "surface_to_caller";
  /** The seller's `field`, raw, when it is a string. */
  readonly field?: string;
  /** The seller's `suggestion`, raw, when it is a string. */
  readonly suggestion?: string;
}

/**
 * Surface the error to a human operator and do not retry, because the error is terminal (by its
 * own `recovery`, an unknown `recovery` value, the code table, or an unknown code).
 */
export interface EscalateTerminalDecision {
  /** Always `"escalate_to_human"`. */
  readonly action: "escalate_to_human";
  /** Always `"terminal"`. */
  readonly reason: "terminal";
}

/**
 * Surface the error to a human operator: it is transient, but retrying would break the retry
 * budget (Transport Error Mapping, "Recovery Behavior": "Transient errors that persist beyond the
 * retry budget SHOULD be escalated as terminal").
 */
export interface EscalateRetryCountDecision {
  /** Always `"escalate_to_human"`. */
  readonly action: "escalate_to_human";
  /** Always `"retry_budget_exhausted"`. */
  readonly reason: "retry_budget_exhausted";
  /** Always `"max_retries"`: the failed attempt was number `maxRetries + 1` or later. */
  readonly limit: "max_retries";
}

/**
 * Surface the error to a human operator: it is transient, but waiting `delaySeconds` would end
 * past `maxElapsedSeconds` (see {@link EscalateRetryCountDecision}).
 */
export interface EscalateRetryTimeDecision {
  /** Always `"escalate_to_human"`. */
  readonly action: "escalate_to_human";
  /** Always `"retry_budget_exhausted"`. */
  readonly reason: "retry_budget_exhausted";
  /** Always `"max_elapsed_seconds"`. */
  readonly limit: "max_elapsed_seconds";
  /** The delay that was refused, in seconds. */
  readonly delaySeconds: number;
  /** Where the refused delay came from. */
  readonly delaySource: "retry_after" | "backoff";
}

/** Surface the error to a human operator and do not retry. */
export type EscalateToHumanDecision =
  | EscalateTerminalDecision
  | EscalateRetryCountDecision
  | EscalateRetryTimeDecision;

/**
 * No structured AdCP error was found (`null` or `undefined`, or a value that fails
 * `validateAdcpError` of `@adcp-wire/core`: not an object with a `code` string of 1 to 64
 * characters, or over 4096 bytes of JSON): fall back to generic error handling (Transport Error
 * Mapping, "Client Detection Order": "No structured error found — fall back to generic error
 * handling").
 */
export interface GenericErrorDecision {
  /** Always `"generic_error"`. */
  readonly action: "generic_error";
}

/**
 * What a buyer agent does after a failure, discriminated by `action`; the four actions are the
 * `expected_action` values of the `transport-error-mapping` test vectors.
 */
export type RecoveryDecision =
  | RetryDecision
  | SurfaceToCallerDecision
  | EscalateToHumanDecision
  | GenericErrorDecision;

/** Where an operation stands in its retry budget ({@link decideRecovery}). */
export interface RecoveryContext {
  /** The 1-based number of the attempt that just failed: 1 for the first call. */
  attempt: number;
  /** Seconds since the first attempt started, waits included: finite and `>= 0`. */
  elapsedSeconds: number;
  /**
   * The retry policy, or options for one.
   *
   * @default {createRetryPolicy()}
   */
  policy?: RetryPolicy | RetryPolicyOptions;
}

const DECIDE_ACTION = "decide recovery";

/**
 * Codes that a buyer must never retry automatically, whatever `recovery` the seller sends: a seller
 * (or a compromised one) claiming `transient` must not turn them into a retry loop.
 * - `CONFIGURATION_ERROR`: Error Handling, "Configuration Error Patterns": "the buyer MUST surface
 *   to a human at the seller and MUST NOT auto-retry".
 * - `AGENT_SUSPENDED`, `AGENT_BLOCKED`: Error Handling, per-agent gate: "Buyer agents MUST surface
 *   to a human at the buyer rather than auto-retrying on any of the three" (the third,
 *   `PERMISSION_DENIED` with `details.scope: "agent"`, is `correctable`, never retried anyway;
 *   decisions never read `details`).
 * - `CREDENTIAL_IN_ARGS`: Error Handling, the code table: "Do NOT auto-retry — auto-retry re-logs
 *   the credential".
 */
const NEVER_AUTO_RETRIED: ReadonlySet<string> = new Set([
  "CONFIGURATION_ERROR",
  "AGENT_SUSPENDED",
  "AGENT_BLOCKED",
  "CREDENTIAL_IN_ARGS",
]);

/** The keys of {@link RecoveryContext}: any other is refused. */
const RECOVERY_CONTEXT_KEYS = optionKeys<RecoveryContext>({
  attempt: true,
  elapsedSeconds: true,
  policy: true,
});

/** Where a policy option given in the context itself belongs, for the suggestion. */
const CONTEXT_NESTED_KEYS = { policy: RETRY_POLICY_KEYS } as const;

/**
 * Decides what to do about a failure from its extracted AdCP error, routing on `code` and
 * `recovery` only: no structured error gives `generic_error`, a correctable one
 * `surface_to_caller`, a terminal one (or a code never to auto-retry) `escalate_to_human`, and a
 * transient one `retry` after its normalized `retry_after` or a backoff delay, within the retry
 * budget when `context` is given.
 *
 * Transport Error Mapping, "Recovery Behavior"; Error Handling, "Retry Logic" (rules:
 * [docs/recovery.md](../../docs/recovery.md#decisions)).
 *
 * @param error The extracted error, or `null`/`undefined` when extraction found none.
 * @param context The attempt state and the policy; omit for a budget-free classification.
 * @returns The decision.
 * @throws {TypeError} When `context` or one of its fields has a bad type, or `context` or
 * `context.policy` has a key {@link RecoveryContext} or {@link RetryPolicyOptions} does not name.
 * @throws {RangeError} When `attempt` is not a safe integer `>= 1`, `elapsedSeconds` is not finite
 * and `>= 0`, a policy figure is out of range, or the policy's `random()` returns a number outside
 * `[0, 1)`. Never for any value of `error`.
 *
 * @example One decision per recovery class
 * ```ts
 * import { decideRecovery } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const context = { attempt: 1, elapsedSeconds: 0 };
 * deepStrictEqual(
 *   decideRecovery({ code: "RATE_LIMITED", recovery: "transient", retry_after: 2.5 }, context),
 *   { action: "retry", delaySeconds: 3, delaySource: "retry_after" },
 * );
 * deepStrictEqual(
 *   decideRecovery({ code: "BUDGET_TOO_LOW", field: "budget.total", suggestion: "Raise it" }),
 *   {
 *     action: "surface_to_caller",
 *     field: "budget.total",
 *     suggestion: "Raise it",
 *   },
 * );
 * deepStrictEqual(decideRecovery({ code: "ACCOUNT_SUSPENDED" }), {
 *   action: "escalate_to_human",
 *   reason: "terminal",
 * });
 * deepStrictEqual(decideRecovery(null), { action: "generic_error" });
 * deepStrictEqual(decideRecovery({ code: "RATE_LIMITED" }, { attempt: 4, elapsedSeconds: 10 }), {
 *   action: "escalate_to_human",
 *   reason: "retry_budget_exhausted",
 *   limit: "max_retries",
 * });
 * ```
 */
export function decideRecovery(
  error: RecoveryInput | null | undefined,
  context?: RecoveryContext,
): RecoveryDecision {
  let attempt = 1;
  let elapsedSeconds = 0;
  if (context !== undefined) {
    if (!isJsonObject(context)) {
      throw optionError(
        TypeError,
        DECIDE_ACTION,
        "context",
        "an object with attempt and elapsedSeconds",
        context,
      );
    }
    checkOptionKeys(DECIDE_ACTION, "context", context, RECOVERY_CONTEXT_KEYS, CONTEXT_NESTED_KEYS);
    attempt = checkAttempt(own(context, "attempt"), DECIDE_ACTION);
    elapsedSeconds = checkElapsedSeconds(own(context, "elapsedSeconds"), DECIDE_ACTION);
  }
  const policy = resolvePolicy(
    context === undefined ? undefined : own(context, "policy") as RetryPolicyOptions | undefined,
    DECIDE_ACTION,
    "context.policy",
  );

  // The check of the extraction layer, 4096-byte cap included: what fails it is no AdCP error.
  const valid = validateAdcpError(error);
  if (valid === null) return { action: "generic_error" };

  switch (classify(valid, policy.unknownCodeRecovery)) {
    case "correctable": {
      const field = own(valid, "field");
      const suggestion = own(valid, "suggestion");
      return {
        action: "surface_to_caller",
        ...(typeof field === "string" ? { field } : {}),
        ...(typeof suggestion === "string" ? { suggestion } : {}),
      };
    }
    case "terminal":
      return { action: "escalate_to_human", reason: "terminal" };
    case "transient": {
      if (NEVER_AUTO_RETRIED.has(own(valid, "code") as string)) {
        return { action: "escalate_to_human", reason: "terminal" };
      }
      const budgeted = context !== undefined;
      if (budgeted && attempt > policy.maxRetries) {
        return {
          action: "escalate_to_human",
          reason: "retry_budget_exhausted",
          limit: "max_retries",
        };
      }
      const retryAfter = normalizeRetryAfter(own(valid, "retry_after"));
      const delaySeconds = retryAfter ?? backoffDelay(attempt, policy);
      const delaySource = retryAfter === undefined ? "backoff" : "retry_after";
      if (budgeted && elapsedSeconds + delaySeconds > policy.maxElapsedSeconds) {
        return {
          action: "escalate_to_human",
          reason: "retry_budget_exhausted",
          limit: "max_elapsed_seconds",
          delaySeconds,
          delaySource,
        };
      }
      return { action: "retry", delaySeconds, delaySource };
    }
  }
}
