// One message style for bad options, after the Deno standard library's.
import { describe } from "./describe.ts";

/** What each error of {@link optionError} was made of, for {@link rescopeOptionError}. */
const parts = new WeakMap<Error, {
  readonly kind: TypeErrorConstructor | RangeErrorConstructor;
  readonly name: string;
  readonly requirement: string;
  readonly value: unknown;
}>();

/**
 * The error for a bad option or argument, in one message style across the workspace:
 * `Cannot <action> as '<name>' must be <requirement>: current value is <value>`. The value goes
 * through {@link describe}, so strings are cut and objects are named by kind only.
 *
 * @param kind `TypeError` for a value of the wrong type, `RangeError` for one out of range.
 * @param action What could not be done, e.g. `"create an McpClient"`.
 * @param name The option or argument, e.g. `"timeoutMs"` or `"limits.maxTools"`.
 * @param requirement What it must be, e.g. `"a positive safe integer"`.
 * @param value The value seen.
 * @returns The error to throw.
 *
 * @example Usage
 * ```ts
 * import { optionError } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = optionError(
 *   RangeError,
 *   "read the body",
 *   "maxBytes",
 *   "a positive safe integer",
 *   -1,
 * );
 * strictEqual(
 *   error.message,
 *   "Cannot read the body as 'maxBytes' must be a positive safe integer: current value is -1",
 * );
 * ```
 */
export function optionError<Kind extends TypeErrorConstructor | RangeErrorConstructor>(
  kind: Kind,
  action: string,
  name: string,
  requirement: string,
  value: unknown,
): InstanceType<Kind> {
  const error = new kind(
    `Cannot ${action} as '${name}' must be ${requirement}: current value is ${describe(value)}`,
  ) as InstanceType<Kind>;
  parts.set(error, { kind, name, requirement, value });
  return error;
}

/**
 * The error `error` would have been had the check been made under `action`, with its option name
 * passed through `rename`: for a check one function makes on behalf of another's caller, so that
 * the message names what that caller did and passed (`"create an McpClient"`,
 * `"options.retry.maxRetries"`). Any error {@link optionError} did not make is returned as it is.
 *
 * @param error What the check threw.
 * @param action What could not be done, in the caller's words.
 * @param rename The caller's name for the option the error names.
 * @returns The error to throw: a fresh one of the same kind, or `error` itself.
 *
 * @example Reporting a nested check under the caller's action and option name
 * ```ts
 * import { optionError, rescopeOptionError } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * const inner = optionError(RangeError, "create a retry policy", "maxRetries", "a count", -1);
 * const outer = rescopeOptionError(inner, "create a client", (name) => `options.retry.${name}`);
 * strictEqual(
 *   (outer as RangeError).message,
 *   "Cannot create a client as 'options.retry.maxRetries' must be a count: current value is -1",
 * );
 * const other = new Error("boom");
 * strictEqual(rescopeOptionError(other, "create a client", (name) => name), other);
 * ```
 */
export function rescopeOptionError(
  error: unknown,
  action: string,
  rename: (name: string) => string,
): unknown {
  const made = error instanceof Error ? parts.get(error) : undefined;
  if (made === undefined) return error;
  return optionError(made.kind, action, rename(made.name), made.requirement, made.value);
}
