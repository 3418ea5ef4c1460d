import type { AdcpError } from "@adcp-wire/schemas";
import { ERROR_SCHEMA_VALIDATOR } from "@adcp-wire/schemas/validators";
import { check, resolveOptions, safeCopy, VALIDATE_KEYS } from "./_run.ts";
import type { ValidateOptions, ValidationResult } from "./validation_result.ts";

export type { AdcpError } from "@adcp-wire/schemas";

/**
 * Validates an error object strictly against the pinned version's `core/error.json`, on a
 * pollution-safe copy (`toSafeJson` of `@adcp-wire/security`) that is returned when it conforms.
 * This is the full schema check, separate from the lenient structural check extraction applies
 * (`validateAdcpError` of `@adcp-wire/core`): do not make it a precondition for classifying
 * errors; use it to decide whether to trust the optional fields. Unknown codes pass. Why the two
 * checks differ is in [docs/validation.md](../../docs/validation.md#error-objects).
 *
 * Spec: Transport Error Mapping, Client Detection Order; error-handling.mdx, Forward-compatible
 * decoding.
 *
 * @param value The error object, such as an extracted `adcp_error` or an entry of `errors[]`.
 * @param options Limits.
 * @returns `{ valid: true, value, schemas }` or `{ valid: false, issues, schemas }`.
 * @throws {TypeError} When an option is malformed or unknown, or the value is not JSON data.
 * @throws {RangeError} When `maxIssues` or a limit is out of range.
 * @throws {JsonDepthLimitError} When the value nests deeper than the limit.
 * @throws {JsonNodeLimitError} When the value holds more values than the limit.
 *
 * @example A conforming error and one with an out-of-range retry_after
 * ```ts
 * import { validateAdcpErrorSchema } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 *
 * const good = await validateAdcpErrorSchema({ code: "X_ACME_FLOOR", message: "Below floor" });
 * ok(good.valid);
 * const late = { code: "RATE_LIMITED", message: "Wait", retry_after: 0 };
 * const bad = await validateAdcpErrorSchema(late);
 * ok(!bad.valid);
 * deepStrictEqual(bad.issues, [
 *   { pointer: "/retry_after", message: "Expected a number >= 1", keyword: "minimum" },
 * ]);
 * ```
 */
export async function validateAdcpErrorSchema(
  value: unknown,
  options?: ValidateOptions,
): Promise<ValidationResult<AdcpError>> {
  const resolved = resolveOptions(options, "validate an AdCP error", VALIDATE_KEYS);
  const { validate } = await ERROR_SCHEMA_VALIDATOR.load();
  const copy = safeCopy(value, resolved);
  const schemas = [ERROR_SCHEMA_VALIDATOR.schema];
  const issues = check(validate, copy, resolved);
  return issues === undefined
    ? { valid: true, value: copy as unknown as AdcpError, schemas }
    : { valid: false, issues, schemas };
}
