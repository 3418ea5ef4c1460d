import { withIdempotencyKey } from "./idempotency_key.ts";
import { optionError, rescopeOptionError } from "@adcp-wire/internal";

/**
 * The arguments a call sends, given its `idempotencyKey` option. `action` is what the messages say
 * could not be done, `argsName` what the caller called the arguments (`"args"`, `"input"`).
 *
 * @throws {TypeError} When the option is neither a boolean nor a string, or a key (given or already
 * in the arguments) does not match the schemas' pattern.
 */
export function keyedArgs(
  args: Record<string, unknown>,
  option: boolean | string | undefined,
  action: string,
  argsName = "args",
): Record<string, unknown> {
  if (option === undefined || option === false) return args;
  if (option !== true && typeof option !== "string") {
    throw optionError(TypeError, action, "options.idempotencyKey", "a boolean or a string", option);
  }
  try {
    return withIdempotencyKey(args, option === true ? undefined : option);
  } catch (error) {
    throw rescopeOptionError(
      error,
      action,
      (name) => name === "key" ? "options.idempotencyKey" : name.replace(/^args/, argsName),
    );
  }
}
