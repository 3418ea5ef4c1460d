/**
 * What a buyer agent does after an AdCP error has been extracted from a transport response
 * (Transport Error Mapping, "Recovery Behavior", "Seller-Specific Error Codes" and "Client Library
 * Requirements"; Error Handling, "Retry Logic"):
 *
 * - {@link classifyRecovery}: `transient`, `correctable` or `terminal`, from the error's
 *   `recovery`, else the standard code table of `@adcp-wire/schemas`, else a configurable default.
 * - {@link normalizeRetryAfter}: a seller's `retry_after` as whole seconds in [1, 3600].
 * - {@link decideRecovery}: `retry` (with a delay), `surface_to_caller`, `escalate_to_human`
 *   or `generic_error`, within a retry budget ({@link createRetryPolicy}).
 * - {@link withRetry}: runs an async operation and retries it on transient AdCP errors, with
 *   abort support and an injectable clock.
 * - {@link isStandardErrorCode} and {@link isVendorErrorCode}.
 *
 * Every decision routes on `code` and `recovery` only; `message`, `suggestion` and `details` are
 * seller-controlled text and never steer anything.
 *
 * @example Deciding, then retrying
 * ```ts
 * import { classifyRecovery, decideRecovery, withRetry } from "@adcp-wire/recovery";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const rateLimited = { code: "RATE_LIMITED", retry_after: 5 }; // no recovery: code table
 * strictEqual(classifyRecovery(rateLimited), "transient");
 * deepStrictEqual(decideRecovery(rateLimited, { attempt: 1, elapsedSeconds: 0 }), {
 *   action: "retry",
 *   delaySeconds: 5,
 *   delaySource: "retry_after",
 * });
 *
 * let calls = 0;
 * const value = await withRetry(() => {
 *   calls++;
 *   return calls < 3
 *     ? Promise.reject({ adcpError: { code: "SERVICE_UNAVAILABLE", recovery: "transient" } })
 *     : Promise.resolve("ok");
 * }, { policy: { sleep: () => Promise.resolve() } }); // no real waiting
 * strictEqual(value, "ok");
 * strictEqual(calls, 3);
 * ```
 *
 * @module
 */
export * from "./backoff.ts";
export * from "./classify_recovery.ts";
export * from "./decide_recovery.ts";
export * from "./error_code.ts";
export * from "./errors.ts";
export * from "./external_types.ts";
export * from "./normalize_retry_after.ts";
export * from "./retry_policy.ts";
export * from "./with_retry.ts";
