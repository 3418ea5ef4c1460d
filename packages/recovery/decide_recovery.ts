import { classify } from "./_classify.ts";
import { checkAttempt, checkElapsedSeconds, isJsonObject, isStructuredError, own } from "./_own.ts";
import { resolvePolicy } from "./_policy.ts";
import { backoffDelay } from "./backoff.ts";
import type { RecoveryInput } from "./classify_recovery.ts";
import { normalizeRetryAfter } from "./normalize_retry_after.ts";
import type { RetryPolicy, RetryPolicyOptions } from "./retry_policy.ts";

/**
 * Retry the operation after `delaySeconds` (a transient error within the retry budget).
 *
 * @example A backoff retry
 * ```ts
 * import { decideRecovery, type RetryDecision } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const expected: RetryDecision = {
 *   action: "retry",
 *   delaySeconds: 4, // attempt 2: base 4 s, no jitter at random() = 0.5
 *   delaySource: "backoff", // no retry_after
 * };
 * const error = { code: "SERVICE_UNAVAILABLE", recovery: "transient" };
 * const context = { attempt: 2, elapsedSeconds: 3, policy: { random: () => 0.5 } };
 * deepStrictEqual(decideRecovery(error, context), expected);
 * ```
 */
export interface RetryDecision {
  /** Always `"retry"`. */
  readonly action: "retry";
  /** Seconds to wait before the next attempt: an integer for `retry_after`, any `> 0` for backoff. */
  readonly delaySeconds: number;
  /** Whether the delay is the seller's normalized `retry_after` or the policy's backoff. */
  readonly delaySource: "retry_after" | "backoff";
}

/**
 * Show `field` and `suggestion` to the caller and do not retry automatically (a correctable
 * error). Both are copied only when they are strings, and are otherwise left out; they are
 * seller-controlled text, never interpreted here: sanitize them before display.
 *
 * @example Surfacing a correctable error
 * ```ts
 * import { decideRecovery, type SurfaceToCallerDecision } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const expected: SurfaceToCallerDecision = {
 *   action: "surface_to_caller",
 *   suggestion: "Raise it to 500", // `field` is not a string, so it is left out
 * };
 * const error = { code: "BUDGET_TOO_LOW", field: ["budget"], suggestion: "Raise it to 500" };
 * deepStrictEqual(decideRecovery(error), expected);
 * ```
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
 *
 * @example An unknown recovery value escalates
 * ```ts
 * import { decideRecovery, type EscalateTerminalDecision } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const expected: EscalateTerminalDecision = {
 *   action: "escalate_to_human",
 *   reason: "terminal",
 * };
 * // An unknown `recovery` value is terminal, whatever the code table says.
 * deepStrictEqual(decideRecovery({ code: "RATE_LIMITED", recovery: "later" }), expected);
 * ```
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
 *
 * @example Too many retries
 * ```ts
 * import { decideRecovery, type EscalateRetryCountDecision } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const expected: EscalateRetryCountDecision = {
 *   action: "escalate_to_human",
 *   reason: "retry_budget_exhausted",
 *   limit: "max_retries",
 * };
 * const context = { attempt: 2, elapsedSeconds: 1, policy: { maxRetries: 1 } };
 * deepStrictEqual(decideRecovery({ code: "RATE_LIMITED", retry_after: 1 }, context), expected);
 * ```
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
 * past `maxElapsedSeconds` (see {@linkcode EscalateRetryCountDecision}).
 *
 * @example A wait that would end past the time budget
 * ```ts
 * import { decideRecovery, type EscalateRetryTimeDecision } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const expected: EscalateRetryTimeDecision = {
 *   action: "escalate_to_human",
 *   reason: "retry_budget_exhausted",
 *   limit: "max_elapsed_seconds",
 *   delaySeconds: 30, // 280 s + 30 s > 300 s
 *   delaySource: "retry_after",
 * };
 * const context = { attempt: 1, elapsedSeconds: 280 };
 * deepStrictEqual(decideRecovery({ code: "RATE_LIMITED", retry_after: 30 }, context), expected);
 * ```
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

/**
 * Surface the error to a human operator and do not retry.
 *
 * @example Explaining an escalation
 * ```ts
 * import { decideRecovery, type EscalateToHumanDecision } from "@adcp-wire/recovery";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const explain = (decision: EscalateToHumanDecision): string =>
 *   decision.reason === "terminal" ? "cannot succeed" : `retry budget spent (${decision.limit})`;
 *
 * const terminal = decideRecovery({ code: "ACCOUNT_SUSPENDED" });
 * ok(terminal.action === "escalate_to_human");
 * strictEqual(explain(terminal), "cannot succeed");
 * const spent = decideRecovery({ code: "RATE_LIMITED" }, { attempt: 4, elapsedSeconds: 0 });
 * ok(spent.action === "escalate_to_human");
 * strictEqual(explain(spent), "retry budget spent (max_retries)");
 * ```
 */
export type EscalateToHumanDecision =
  | EscalateTerminalDecision
  | EscalateRetryCountDecision
  | EscalateRetryTimeDecision;

/**
 * No structured AdCP error was found (`null` or `undefined`, or a value that is not an object with
 * a `code` string of 1 to 64 characters): fall back to generic error handling (Transport Error
 * Mapping, "Client Detection Order": "No structured error found — fall back to generic error
 * handling").
 *
 * @example No structured error
 * ```ts
 * import { decideRecovery, type GenericErrorDecision } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const expected: GenericErrorDecision = { action: "generic_error" };
 * deepStrictEqual(decideRecovery(undefined), expected);
 * deepStrictEqual(decideRecovery({ code: "" }), expected); // an empty code is no AdCP error
 * ```
 */
export interface GenericErrorDecision {
  /** Always `"generic_error"`. */
  readonly action: "generic_error";
}

/**
 * What a buyer agent does after a failure, discriminated by `action`; the four actions are the
 * `expected_action` values of the `transport-error-mapping` test vectors.
 *
 * @example Switching on the action
 * ```ts
 * import { decideRecovery, type RecoveryDecision } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * const summary = (decision: RecoveryDecision): string =>
 *   decision.action === "retry" ? `retry in ${decision.delaySeconds} s` : decision.action;
 *
 * strictEqual(summary(decideRecovery({ code: "RATE_LIMITED", retry_after: 5 })), "retry in 5 s");
 * strictEqual(summary(decideRecovery({ code: "BUDGET_TOO_LOW" })), "surface_to_caller");
 * strictEqual(summary(decideRecovery({ code: "ACCOUNT_SUSPENDED" })), "escalate_to_human");
 * strictEqual(summary(decideRecovery(null)), "generic_error");
 * ```
 */
export type RecoveryDecision =
  | RetryDecision
  | SurfaceToCallerDecision
  | EscalateToHumanDecision
  | GenericErrorDecision;

/**
 * Where an operation stands in its retry budget ({@linkcode decideRecovery}).
 *
 * @example Tracking attempts across failures
 * ```ts
 * import { decideRecovery, type RecoveryContext } from "@adcp-wire/recovery";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const error = { code: "SERVICE_UNAVAILABLE", recovery: "transient" };
 * const policy = { random: () => 0.5 }; // no jitter
 * const context: RecoveryContext = { attempt: 3, elapsedSeconds: 20, policy };
 * const third = decideRecovery(error, context);
 * ok(third.action === "retry");
 * strictEqual(third.delaySeconds, 8); // attempt 3: base 8 s
 * context.attempt = 4; // the default policy allows 3 retries
 * strictEqual(decideRecovery(error, context).action, "escalate_to_human");
 * ```
 */
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

/**
 * Decides what to do about a failure from its extracted AdCP error (Transport Error Mapping,
 * "Recovery Behavior"; Error Handling, "Retry Logic"), routing on `code` and `recovery` only:
 * `message`, `suggestion` and `details` never influence the action ("Buyer Agent Requirements":
 * "Route all recovery decisions through `code` and `recovery` only").
 *
 * 1. No structured error (`null`, `undefined`, or a value that is not an object with an own
 *    `code` string of 1 to 64 characters) → `generic_error`. The 4096-byte cap on the serialized
 *    error is the extraction layer's check and is not repeated here.
 * 2. Otherwise the error is classified as {@linkcode classifyRecovery} does, with the policy's
 *    `unknownCodeRecovery`.
 * 3. `correctable` → `surface_to_caller` with `field` and `suggestion` when they are strings; never
 *    retried, not even on the first attempt.
 * 4. `terminal` → `escalate_to_human` with reason `terminal`. So is `transient` for the codes the
 *    spec forbids to retry automatically (`CONFIGURATION_ERROR`, `AGENT_SUSPENDED`,
 *    `AGENT_BLOCKED`, `CREDENTIAL_IN_ARGS`), whatever `recovery` the seller sent.
 * 5. Any other `transient` → `retry`, within the budget. The delay is the `retry_after` as
 *    {@linkcode normalizeRetryAfter} makes it (ceiling, then clamp to [1, 3600]; no jitter), or,
 *    when that is absent, the policy's {@linkcode backoffDelay} for `attempt` (jittered).
 *    When `context` is given, the retry is allowed only if `attempt <= maxRetries` and
 *    `elapsedSeconds + delay <= maxElapsedSeconds`, using the delay actually chosen (after
 *    jitter); otherwise the decision is `escalate_to_human` with reason `retry_budget_exhausted`
 *    and the `limit` that was hit (the retry count is checked first, and then no delay is drawn).
 *
 * Without `context`, the decision is the action the spec's table gives a first failure, under the
 * default policy, and no budget is checked: a transient error is always `retry`, even with a
 * `retry_after` of 3600 s that alone exceeds the 300 s time budget. This is what the upstream
 * `transport-error-mapping` vectors expect (`mcp-extreme-retry-after`: `retry_after: 86400`, action
 * `retry`); a caller that loops on the decision must pass `context`, as {@linkcode withRetry} does.
 *
 * @param error The extracted error, or `null`/`undefined` when extraction found none.
 * @param context The attempt state and the policy; omit for a budget-free classification.
 * @returns The decision.
 * @throws {TypeError} When `context` or one of its fields has a bad type.
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
 * ```
 *
 * @example Escalating once the budget is spent
 * ```ts
 * import { decideRecovery } from "@adcp-wire/recovery";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const error = { code: "SERVICE_UNAVAILABLE", recovery: "transient", retry_after: 60 };
 * deepStrictEqual(decideRecovery(error, { attempt: 4, elapsedSeconds: 10 }), {
 *   action: "escalate_to_human",
 *   reason: "retry_budget_exhausted",
 *   limit: "max_retries",
 * });
 * deepStrictEqual(decideRecovery(error, { attempt: 2, elapsedSeconds: 250 }), {
 *   action: "escalate_to_human",
 *   reason: "retry_budget_exhausted",
 *   limit: "max_elapsed_seconds",
 *   delaySeconds: 60,
 *   delaySource: "retry_after",
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
      throw new TypeError(
        `Invalid context: expected an object with attempt and elapsedSeconds, received ${
          context === null ? "null" : typeof context
        }`,
      );
    }
    attempt = checkAttempt(own(context, "attempt"));
    elapsedSeconds = checkElapsedSeconds(own(context, "elapsedSeconds"));
  }
  const policy = resolvePolicy(
    context === undefined ? undefined : own(context, "policy") as RetryPolicyOptions | undefined,
  );

  if (!isStructuredError(error)) return { action: "generic_error" };

  switch (classify(error, policy.unknownCodeRecovery)) {
    case "correctable": {
      const field = own(error, "field");
      const suggestion = own(error, "suggestion");
      return {
        action: "surface_to_caller",
        ...(typeof field === "string" ? { field } : {}),
        ...(typeof suggestion === "string" ? { suggestion } : {}),
      };
    }
    case "terminal":
      return { action: "escalate_to_human", reason: "terminal" };
    case "transient": {
      if (NEVER_AUTO_RETRIED.has(own(error, "code") as string)) {
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
      const retryAfter = normalizeRetryAfter(own(error, "retry_after"));
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
