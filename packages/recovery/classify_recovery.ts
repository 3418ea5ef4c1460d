import type { RecoveryClass } from "@adcp-wire/schemas";
import { classify, resolveUnknownCodeRecovery } from "./_classify.ts";
import { describe, isJsonObject } from "./_own.ts";

export type { RecoveryClass } from "@adcp-wire/schemas";

/**
 * An extracted AdCP error, as the extraction layer returns it (for instance `AdcpError` of
 * `@adcp-wire/core`, which is assignable to this type): a non-array object with a non-empty string
 * `code` of at most 64 characters. Every other field is the seller's raw value and may be any
 * JSON value; this package reads only `code`, `recovery`, `retry_after`, `field` and `suggestion`,
 * always as own properties, and routes only on `code` and `recovery` (Transport Error Mapping,
 * "Security Considerations" > "Buyer Agent Requirements": "Route all recovery decisions through
 * `code` and `recovery` only").
 *
 * @example Seller text never steers the class
 * ```ts
 * import { classifyRecovery, type RecoveryInput } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error: RecoveryInput = {
 *   code: "ACCOUNT_SUSPENDED",
 *   message: "Temporary glitch, retry right away", // never read
 *   details: { retryable: true }, // never read
 * };
 * strictEqual(classifyRecovery(error), "terminal");
 * ```
 */
export interface RecoveryInput {
  /** The error code: a standard code, a vendor code (`X_{VENDOR}_{CODE}`) or any other string. */
  readonly code: string;
  /** Any other seller field, unvalidated. */
  readonly [key: string]: unknown;
}

/**
 * Options of {@linkcode classifyRecovery}.
 *
 * @example Treating unknown codes as transient
 * ```ts
 * import { classifyRecovery, type ClassifyRecoveryOptions } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * const options: ClassifyRecoveryOptions = { unknownCodeRecovery: "transient" };
 * strictEqual(classifyRecovery({ code: "X_ACME_BUSY" }), "terminal"); // the default
 * strictEqual(classifyRecovery({ code: "X_ACME_BUSY" }, options), "transient");
 * // It never overrides a `recovery` field or the standard code table:
 * const fixable = { code: "X_ACME_BUSY", recovery: "correctable" };
 * strictEqual(classifyRecovery(fixable, options), "correctable");
 * strictEqual(classifyRecovery({ code: "ACCOUNT_SUSPENDED" }, options), "terminal");
 * ```
 */
export interface ClassifyRecoveryOptions {
  /**
   * The class of an error that carries no `recovery` and whose `code` is not in the standard
   * table. Must be one of the three classes.
   *
   * The specs disagree here. Transport Error Mapping ("Recovery Behavior" and "Seller-Specific
   * Error Codes") says to treat such an error as `terminal`, and its test vector
   * `mcp-missing-recovery-unknown-code` expects `escalate_to_human`. Error Handling
   * ("Forward-compatible decoding", step 3), the `core/error.json` description of `code` and the
   * manifest's `error_code_policy.default_unknown_recovery` say `transient`, bounded by the retry
   * budget. The default follows the transport page and its vectors, and is the reading that never
   * retries on a guess; pass `"transient"` to follow the error-handling page instead.
   *
   * @default {"terminal"}
   */
  unknownCodeRecovery?: RecoveryClass;
}

/**
 * Classifies an extracted AdCP error as `transient`, `correctable` or `terminal` (Transport Error
 * Mapping, "Recovery Behavior" and "Client Library Requirements" 6; Error Handling, "Recovery
 * Classification"):
 *
 * 1. When `error` has an own `recovery` property, that property decides: its value when it is
 *    exactly `"transient"`, `"correctable"` or `"terminal"` (case-sensitive), and `terminal` for
 *    any other value ("Treat unknown `recovery` values as `terminal`").
 * 2. When `recovery` is absent, the standard code table generated into `@adcp-wire/schemas` from
 *    `enums/error-code.json` decides ("When `recovery` is absent: Fall back to code-based
 *    classification using the standard error code table"). Deprecated codes keep their class.
 * 3. When the code is not in the table either (an unknown or vendor code),
 *    `options.unknownCodeRecovery` decides, `terminal` by default (see
 *    {@linkcode ClassifyRecoveryOptions.unknownCodeRecovery} for the conflicting texts).
 *
 * An own `recovery` holding `undefined` (possible in JavaScript, not in JSON) counts as absent.
 * `recovery: null` counts as present, so it classifies as `terminal`. The schema types `recovery`
 * as a string enum, so `null` is a value outside it, and the spec's rule for those is `terminal`;
 * it is also the reading that takes no automatic action on a malformed error. A seller that means
 * "no recovery" omits the key (a JSON serializer drops `undefined`); the reference snippet's
 * truthiness test (`if (adcpError.recovery)`), which would fall back to the code table for `null`
 * and `""`, is not followed, as the prose wins over a page's snippet.
 *
 * `message`, `suggestion` and `details` are never read.
 *
 * @param error The extracted error.
 * @param options How to classify unknown codes.
 * @returns The recovery class.
 * @throws {TypeError} When `error` is not a non-array object, or `options.unknownCodeRecovery` is
 * not one of the three classes.
 *
 * @example The three rules in turn
 * ```ts
 * import { classifyRecovery } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * // 1. recovery wins, and an unknown recovery value is terminal
 * strictEqual(classifyRecovery({ code: "RATE_LIMITED", recovery: "correctable" }), "correctable");
 * strictEqual(classifyRecovery({ code: "RATE_LIMITED", recovery: "deferred" }), "terminal");
 * // 2. no recovery: the standard code table
 * strictEqual(classifyRecovery({ code: "RATE_LIMITED" }), "transient");
 * strictEqual(classifyRecovery({ code: "BUDGET_TOO_LOW" }), "correctable");
 * // 3. unknown code without recovery: terminal unless configured otherwise
 * strictEqual(classifyRecovery({ code: "X_ACME_FLOOR_NOT_MET" }), "terminal");
 * strictEqual(
 *   classifyRecovery({ code: "X_ACME_FLOOR_NOT_MET" }, { unknownCodeRecovery: "transient" }),
 *   "transient",
 * );
 * ```
 */
export function classifyRecovery(
  error: RecoveryInput,
  options?: ClassifyRecoveryOptions,
): RecoveryClass {
  if (options !== undefined && !isJsonObject(options)) {
    throw new TypeError(`Invalid options: expected an object, received ${describe(options)}`);
  }
  const unknownCode = resolveUnknownCodeRecovery(options?.unknownCodeRecovery);
  if (!isJsonObject(error)) {
    throw new TypeError(`Invalid error: expected an object, received ${describe(error)}`);
  }
  return classify(error, unknownCode);
}
