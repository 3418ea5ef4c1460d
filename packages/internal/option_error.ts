// One message style for bad options, after the Deno standard library's.
import { describe } from "./describe.ts";

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
  return new kind(
    `Cannot ${action} as '${name}' must be ${requirement}: current value is ${describe(value)}`,
  ) as InstanceType<Kind>;
}
