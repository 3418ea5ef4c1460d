import type { JsonLimits } from "@adcp-wire/security";

/**
 * One reason a value failed its schema, shaped like an entry of AdCP's own `issues[]`
 * (`core/error.json`, error-handling.mdx "Error object fields", `issues`): an RFC 6901 `pointer`, a
 * human-readable `message` and the JSON Schema `keyword` that rejected the value.
 *
 * The pointer names the offending field: for `required` and `dependencies` that is the missing
 * property, for `additionalProperties` and `propertyNames` the property not allowed, and otherwise
 * the value that failed (the validator's `instancePath`). It is built from the keys of the checked
 * data, so it can carry seller-controlled text: escape it before display. It is at most
 * {@link ISSUE_POINTER_MAX_LENGTH} characters long. The message is written from the keyword and the
 * schema's own values (never from the data) and is at most {@link ISSUE_MESSAGE_MAX_LENGTH}
 * characters long.
 */
export interface ValidationIssue {
  /** RFC 6901 JSON Pointer to the offending field, relative to the validated value (`""`: root). */
  readonly pointer: string;
  /** What was expected, in one sentence without a trailing period. */
  readonly message: string;
  /** The JSON Schema keyword that rejected the value (`required`, `type`, `enum`, `format`…). */
  readonly keyword: string;
}

/**
 * The result of a validation: the pollution-safe copy that was validated, or the issues found.
 * `schemas` lists the schemas that were applied, as paths relative to the AdCP version's schema
 * folder (such as `media-buy/get-products-response.json`), in order; it is empty when no schema
 * exists for the value (an interim status without a schema, a code without a `details` schema), in
 * which case the value passes unchecked.
 *
 * @typeParam T The type of a valid value.
 */
export type ValidationResult<T> =
  | {
    /** The value conforms to every applied schema. */
    readonly valid: true;
    /**
     * A fresh copy of the input without `__proto__`, `constructor` or `prototype` keys: the value
     * validated.
     */
    readonly value: T;
    /** The schemas applied, in order (empty when none exists for the value). */
    readonly schemas: readonly string[];
  }
  | {
    /** The value failed a schema. */
    readonly valid: false;
    /**
     * Why: at most `maxIssues` entries in the validator's order, the failures of the branches of an
     * `anyOf` or `oneOf` before the failure of that keyword. The last entry, the failure that
     * stopped validation, is always kept.
     */
    readonly issues: readonly ValidationIssue[];
    /** The schemas applied, in order; the last one failed. */
    readonly schemas: readonly string[];
  };

/** Options shared by every validation function. */
export interface ValidateOptions {
  /**
   * Depth and node limits for the copy made before validating (see `toSafeJson` of
   * `@adcp-wire/security`). Default: `maxJsonDepth` 64 and `maxJsonNodes` 2097152.
   */
  readonly limits?: JsonLimits;
  /**
   * The most issues reported; the rest are dropped. A positive safe integer.
   * @default {20}
   */
  readonly maxIssues?: number;
}

/**
 * Default of {@link ValidateOptions.maxIssues}: 20. Validation stops at the first failure, so more
 * than one issue only comes from the branches of a failed `anyOf` or `oneOf`; the cap bounds what a
 * hostile payload can make a caller log or show.
 */
export const DEFAULT_MAX_ISSUES = 20;

/**
 * The longest {@link ValidationIssue.pointer}: 1024 characters. A longer pointer (data keys are
 * seller-controlled and can be long) is cut back to the deepest ancestor that fits, and the message
 * says so.
 */
export const ISSUE_POINTER_MAX_LENGTH = 1024;

/**
 * The longest {@link ValidationIssue.message}: 300 characters. Messages quote only schema values
 * (property names, patterns, allowed values), each cut to 64 characters.
 */
export const ISSUE_MESSAGE_MAX_LENGTH = 300;
