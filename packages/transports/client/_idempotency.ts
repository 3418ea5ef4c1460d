import { withIdempotencyKey } from "./idempotency_key.ts";
import { describe } from "@adcp-wire/internal";

/** The arguments a call sends, given its `idempotencyKey` option. */
export function keyedArgs(
  args: Record<string, unknown>,
  option: boolean | string | undefined,
): Record<string, unknown> {
  if (option === undefined || option === false) return args;
  if (option === true) return withIdempotencyKey(args);
  if (typeof option !== "string") {
    throw new TypeError(
      `Cannot send the call as options.idempotencyKey is not a boolean or a string: ${
        describe(option)
      }`,
    );
  }
  return withIdempotencyKey(args, option);
}
