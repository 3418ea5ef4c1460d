// Private: option checks, the safe copy, and one validator run.
import { checkOptionKeys, optionError, type OptionKeys, optionKeys } from "@adcp-wire/internal";
import type { CompiledValidator } from "@adcp-wire/schemas/validators";
import { type JsonLimits, type JsonValue, toSafeJson } from "@adcp-wire/security";
import { toIssues } from "./_issues.ts";
import {
  DEFAULT_MAX_ISSUES,
  type ValidateOptions,
  type ValidationIssue,
} from "./validation_result.ts";

/** Options after checking. */
export interface ResolvedOptions {
  readonly limits: JsonLimits | undefined;
  readonly maxIssues: number;
}

/** The keys of {@link ValidateOptions}, for the key sets of the options that extend it. */
export const VALIDATE_OPTION_FLAGS = { limits: true, maxIssues: true } as const;

/** The keys of {@link ValidateOptions}: any other is refused. */
export const VALIDATE_KEYS: OptionKeys = optionKeys<ValidateOptions>(VALIDATE_OPTION_FLAGS);

/** The keys of `JsonLimits` (`options.limits`): any other is refused. */
const JSON_LIMITS_KEYS = optionKeys<JsonLimits>({ maxJsonDepth: true, maxJsonNodes: true });

/** Where a limit given at the top level belongs, for the suggestion of an unknown key. */
const NESTED_KEYS: Readonly<Record<string, OptionKeys>> = { limits: JSON_LIMITS_KEYS };

/**
 * Checks the options shared by every validation function; `action` names the call in messages
 * (`"validate a task response"`), `keys` are the keys of the function's options (an own key that
 * is not one of them, or of `options.limits`, is refused).
 *
 * @throws {TypeError} When `options` is not an object or `undefined`, has an unknown key, or
 * `maxIssues` is not a number.
 * @throws {RangeError} When `maxIssues` is not a positive safe integer.
 */
export function resolveOptions(
  options: ValidateOptions | undefined,
  action: string,
  keys: OptionKeys,
): ResolvedOptions {
  if (options === undefined) return { limits: undefined, maxIssues: DEFAULT_MAX_ISSUES };
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw optionError(TypeError, action, "options", "an object", options);
  }
  checkOptionKeys(action, "options", options, keys, NESTED_KEYS);
  // The values of the limits are checked by the copy (`toSafeJson`), their keys here.
  checkOptionKeys(action, "options.limits", options.limits, JSON_LIMITS_KEYS);
  // `undefined` only: `null` is a malformed value, not an omitted option.
  const maxIssues = options.maxIssues === undefined ? DEFAULT_MAX_ISSUES : options.maxIssues;
  if (typeof maxIssues !== "number") {
    throw optionError(TypeError, action, "options.maxIssues", "a number", maxIssues);
  }
  if (!Number.isSafeInteger(maxIssues) || maxIssues < 1) {
    throw optionError(
      RangeError,
      action,
      "options.maxIssues",
      "a positive safe integer",
      maxIssues,
    );
  }
  return { limits: options.limits, maxIssues };
}

/**
 * The pollution-safe copy that is validated and returned (so the value returned is exactly the
 * value checked).
 *
 * @throws {JsonDepthLimitError | JsonNodeLimitError} When the data exceeds the limits.
 * @throws {TypeError} When the data is not JSON data.
 */
export function safeCopy(data: unknown, options: ResolvedOptions): JsonValue {
  return toSafeJson(data, options.limits);
}

/** Runs one validator; `undefined` when the value passes, else the issues. */
export function check(
  validate: CompiledValidator,
  value: JsonValue,
  options: ResolvedOptions,
  prefix = "",
): ValidationIssue[] | undefined {
  if (validate(value)) return undefined;
  return toIssues(validate.errors, options.maxIssues, prefix);
}
