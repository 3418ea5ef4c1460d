import {
  ERROR_DETAILS_SCHEMA_BY_CODE,
  ERROR_DETAILS_VALIDATORS,
  VALIDATORS_ADCP_VERSION,
} from "@adcp-wire/schemas/validators";
import type { JsonValue } from "@adcp-wire/security";
import { check, resolveOptions, safeCopy, show } from "./_run.ts";
import type { ValidateOptions, ValidationResult } from "./validation_result.ts";

/**
 * Options of {@linkcode validateErrorDetails}.
 *
 * @example Choosing the schema of a sub-case
 * ```ts
 * import { validateErrorDetails, type ValidateErrorDetailsOptions } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 *
 * const options: ValidateErrorDetailsOptions = {
 *   schema: "error-details/agent-permission-denied.json", // PERMISSION_DENIED with scope "agent"
 * };
 * const details = { scope: "agent", reason: "credit_limit" };
 * const checked = await validateErrorDetails("PERMISSION_DENIED", details, options);
 * ok(!checked.valid);
 * deepStrictEqual(checked.issues, [
 *   { pointer: "/reason", message: 'Expected one of "sandbox_only"', keyword: "enum" },
 * ]);
 * // Without the option, PERMISSION_DENIED has no details schema of its own.
 * deepStrictEqual((await validateErrorDetails("PERMISSION_DENIED", details)).schemas, []);
 * ```
 */
export interface ValidateErrorDetailsOptions extends ValidateOptions {
  /**
   * The `error-details/*` schema to apply instead of the code's own, as a path relative to the version's schema
   * folder. For the shapes the spec recommends only in a sub-case of a code, which the code alone cannot tell:
   * `error-details/accessibility-violation.json` (accessibility failures of `CREATIVE_REJECTED`),
   * `error-details/agent-permission-denied.json` (`PERMISSION_DENIED` with `scope: "agent"`) and
   * `error-details/unsupported-refinement-dimension.json` (`UNSUPPORTED_FEATURE` from `refine_proposals`).
   * @default {undefined}
   */
  readonly schema?: string;
}

/**
 * Checks an error's `details` against the recommended shape for its code (Transport Error Mapping, "Recommended
 * `details` Shapes" and "`details` Schemas"): the `error-details/*` schema named after the code (`RATE_LIMITED` →
 * `error-details/rate-limited.json`), or `options.schema`. The check is advisory, on a pollution-safe copy:
 *
 * - A code without a `details` schema passes, with `schemas: []` and the copy as `value` (vendor codes, most
 *   standard codes).
 * - Keys of `details` that the schema does not name never fail, even where upstream closes the shape with
 *   `additionalProperties: false`; nested objects follow the schema. Ignore the keys you do not know.
 * - Absent `details` (`undefined`) is checked as `{}`, so it passes unless the schema requires a key (the spec
 *   makes some repair fields mandatory, such as `current_account` of `ACCOUNT_MOVED`); `value` is then `undefined`.
 *
 * A failure means the details are not the recommended shape: fall back to `code`, `message` and `recovery`, as the
 * spec tells agents to do "when details are absent or unexpected". Route recovery on `code` and `recovery` only,
 * never on details values (Transport Error Mapping, Security Considerations).
 *
 * @param code The error's `code`; any string (unknown codes have no schema and pass).
 * @param details The error's `details`.
 * @param options Another schema, and limits.
 * @returns `{ valid: true, value, schemas }` or `{ valid: false, issues, schemas }`.
 * @throws {TypeError} When `code` is not a string, `options.schema` names no `error-details/*` schema (the message
 * lists them), an option is malformed, or `details` is not JSON data.
 * @throws {RangeError} When `maxIssues` or a limit is out of range.
 * @throws {JsonDepthLimitError} When `details` nests deeper than the limit.
 * @throws {JsonNodeLimitError} When `details` holds more values than the limit.
 *
 * @example Recommended, unexpected and unknown shapes
 * ```ts
 * import { validateErrorDetails } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * const good = await validateErrorDetails("BUDGET_TOO_LOW", {
 *   minimum_budget: 500,
 *   currency: "USD",
 *   seller_note: "keys the schema does not name are fine",
 * });
 * ok(good.valid);
 * deepStrictEqual(good.schemas, ["error-details/budget-too-low.json"]);
 *
 * const bad = await validateErrorDetails("BUDGET_TOO_LOW", { minimum_budget: "500" });
 * ok(!bad.valid);
 * deepStrictEqual(bad.issues, [
 *   { pointer: "/minimum_budget", message: "Expected type number", keyword: "type" },
 * ]);
 *
 * const vendor = await validateErrorDetails("X_ACME_FLOOR", { floor: 2 });
 * ok(vendor.valid);
 * strictEqual(vendor.schemas.length, 0);
 * ```
 */
export async function validateErrorDetails(
  code: string,
  details: unknown,
  options?: ValidateErrorDetailsOptions,
): Promise<ValidationResult<JsonValue | undefined>> {
  const fn = "validateErrorDetails()";
  if (typeof code !== "string") {
    throw new TypeError(`${fn}: expected code to be a string, got ${show(code)}`);
  }
  const resolved = resolveOptions(options, fn);
  let schema: string | undefined;
  if (options?.schema !== undefined) {
    schema = options.schema;
    if (typeof schema !== "string" || !ERROR_DETAILS_VALIDATORS.has(schema)) {
      throw new TypeError(
        `${fn}: expected options.schema to be an error-details schema of AdCP ${VALIDATORS_ADCP_VERSION} (${
          [...ERROR_DETAILS_VALIDATORS.keys()].join(", ")
        }), got ${show(schema)}`,
      );
    }
  } else {
    schema = ERROR_DETAILS_SCHEMA_BY_CODE.get(code);
  }
  const copy = details === undefined ? undefined : safeCopy(details, resolved);
  const entry = schema === undefined ? undefined : ERROR_DETAILS_VALIDATORS.get(schema);
  if (entry === undefined) return { valid: true, value: copy, schemas: [] };
  const { validate } = await entry.load();
  // Only an absent `details` is checked as `{}`; `null` is a value, and not an object.
  const issues = check(validate, copy === undefined ? {} : copy, resolved);
  return issues === undefined
    ? { valid: true, value: copy, schemas: [entry.schema] }
    : { valid: false, issues, schemas: [entry.schema] };
}
