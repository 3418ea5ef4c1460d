import {
  ERROR_DETAILS_SCHEMA_BY_CODE,
  ERROR_DETAILS_VALIDATORS,
  VALIDATORS_ADCP_VERSION,
} from "@adcp-wire/schemas/validators";
import type { JsonValue } from "@adcp-wire/security";
import { optionError, optionKeys } from "@adcp-wire/internal";
import { check, resolveOptions, safeCopy, VALIDATE_OPTION_FLAGS } from "./_run.ts";
import type { ValidateOptions, ValidationResult } from "./validation_result.ts";

/** Options of {@link validateErrorDetails}. */
export interface ValidateErrorDetailsOptions extends ValidateOptions {
  /**
   * The `error-details/*` schema to apply instead of the code's own, as a path relative to the
   * version's schema folder. For the shapes the spec recommends only in a sub-case of a code, which
   * the code alone cannot tell: `error-details/accessibility-violation.json` (accessibility
   * failures of `CREATIVE_REJECTED`), `error-details/agent-permission-denied.json`
   * (`PERMISSION_DENIED` with `scope: "agent"`) and
   * `error-details/unsupported-refinement-dimension.json` (`UNSUPPORTED_FEATURE` from
   * `refine_proposals`).
   * @default {undefined}
   */
  readonly schema?: string;
}

/** The keys of {@link ValidateErrorDetailsOptions}: any other is refused. */
const VALIDATE_ERROR_DETAILS_KEYS = optionKeys<ValidateErrorDetailsOptions>({
  ...VALIDATE_OPTION_FLAGS,
  schema: true,
});

/**
 * Checks an error's `details` against the recommended shape for its code: the `error-details/*`
 * schema named after the code (`RATE_LIMITED` → `error-details/rate-limited.json`), or
 * `options.schema`. The check is advisory and lenient (a code without a schema passes, keys the
 * schema does not name never fail, absent `details` is checked as `{}`); the exact rules are in
 * [docs/validation.md](../../docs/validation.md#error-details). On a failure, fall back to `code`,
 * `message` and `recovery`, and never route recovery on `details` values.
 *
 * Spec: Transport Error Mapping, Recommended `details` Shapes and `details` Schemas.
 *
 * @param code The error's `code`; any string (unknown codes have no schema and pass).
 * @param details The error's `details`.
 * @param options Another schema, and limits.
 * @returns `{ valid: true, value, schemas }` or `{ valid: false, issues, schemas }`.
 * @throws {TypeError} When `code` is not a string, `options.schema` names no `error-details/*`
 * schema (the message lists them), an option is malformed or unknown, or `details` is not JSON
 * data.
 * @throws {RangeError} When `maxIssues` or a limit is out of range.
 * @throws {JsonDepthLimitError} When `details` nests deeper than the limit.
 * @throws {JsonNodeLimitError} When `details` holds more values than the limit.
 *
 * @example Recommended, unexpected and unknown shapes
 * ```ts
 * import { validateErrorDetails } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * const good = await validateErrorDetails("BUDGET_TOO_LOW", { minimum_budget: 500, note: "ok" });
 * deepStrictEqual(good.schemas, ["error-details/budget-too-low.json"]);
 * ok(good.valid);
 * const bad = await validateErrorDetails("BUDGET_TOO_LOW", { minimum_budget: "500" });
 * ok(!bad.valid);
 * strictEqual(bad.issues[0]?.message, "Expected type number");
 * strictEqual((await validateErrorDetails("X_ACME_FLOOR", { floor: 2 })).schemas.length, 0);
 * ```
 */
export async function validateErrorDetails(
  code: string,
  details: unknown,
  options?: ValidateErrorDetailsOptions,
): Promise<ValidationResult<JsonValue | undefined>> {
  const action = "validate error details";
  if (typeof code !== "string") throw optionError(TypeError, action, "code", "a string", code);
  const resolved = resolveOptions(options, action, VALIDATE_ERROR_DETAILS_KEYS);
  let schema: string | undefined;
  if (options?.schema !== undefined) {
    schema = options.schema;
    if (typeof schema !== "string" || !ERROR_DETAILS_VALIDATORS.has(schema)) {
      const schemas = [...ERROR_DETAILS_VALIDATORS.keys()].join(", ");
      throw optionError(
        TypeError,
        action,
        "options.schema",
        `an error-details schema of AdCP ${VALIDATORS_ADCP_VERSION} (${schemas})`,
        schema,
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
