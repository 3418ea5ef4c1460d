import type { RecoveryClass } from "@adcp-wire/schemas";
import { checkOptionKeys, isJsonObject, optionError, optionKeys } from "@adcp-wire/internal";
import { classify, resolveUnknownCodeRecovery } from "./_classify.ts";

export type { RecoveryClass } from "@adcp-wire/schemas";

/**
 * An extracted AdCP error, as the extraction layer returns it (`ExtractedAdcpError` of
 * `@adcp-wire/core` is assignable to it): an object with a string `code`, every other field the
 * seller's raw value. Decisions read only `code`, `recovery`, `retry_after`, `field` and
 * `suggestion`, as own properties, and route on `code` and `recovery` only (Transport Error
 * Mapping, "Security Considerations" > "Buyer Agent Requirements").
 */
export interface RecoveryInput {
  /** The error code: a standard code, a vendor code (`X_{VENDOR}_{CODE}`) or any other string. */
  readonly code: string;
  /** Any other seller field, unvalidated. */
  readonly [key: string]: unknown;
}

const CLASSIFY_ACTION = "classify recovery";

/** Options of {@link classifyRecovery}. */
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

/** The keys of {@link ClassifyRecoveryOptions}: any other is refused. */
const CLASSIFY_RECOVERY_KEYS = optionKeys<ClassifyRecoveryOptions>({ unknownCodeRecovery: true });

/**
 * Classifies an extracted AdCP error as `transient`, `correctable` or `terminal`: by its own
 * `recovery` (any value but the three classes is `terminal`), else by the standard code table of
 * `@adcp-wire/schemas`, else as `options.unknownCodeRecovery` (`terminal` by default). `message`,
 * `suggestion` and `details` are never read.
 *
 * Transport Error Mapping, "Recovery Behavior" and "Client Library Requirements" 6 (readings:
 * [docs/recovery.md](../../docs/recovery.md#classification)).
 *
 * @param error The extracted error.
 * @param options How to classify unknown codes.
 * @returns The recovery class.
 * @throws {TypeError} When `error` is not a non-array object, `options` has another key than
 * `unknownCodeRecovery`, or `options.unknownCodeRecovery` is not one of the three classes.
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
    throw optionError(TypeError, CLASSIFY_ACTION, "options", "an object", options);
  }
  checkOptionKeys(CLASSIFY_ACTION, "options", options, CLASSIFY_RECOVERY_KEYS);
  const unknownCode = resolveUnknownCodeRecovery(options?.unknownCodeRecovery, CLASSIFY_ACTION);
  if (!isJsonObject(error)) {
    throw optionError(TypeError, CLASSIFY_ACTION, "error", "an object", error);
  }
  return classify(error, unknownCode);
}
