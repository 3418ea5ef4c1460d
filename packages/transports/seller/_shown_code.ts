// How the seller helpers name a `code` they refuse, in the seller's own exception messages.
import { notShown } from "@adcp-wire/internal";
import { redactLeaks } from "./_leaks.ts";

/** What a code must look like to be shown: a letter, then letters, digits, `_` or `-`. */
const CODE_LIKE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * A `code` as a refusal may show it: the seller's own code, so that the seller can see which one
 * was refused, when it looks like a code (a letter, then at most 63 letters, digits, `_` or `-`)
 * and the leak heuristics find nothing in it (an API key, `localhost`, one of `serviceNames`); the
 * empty string as it is; any other string as a placeholder with its length. The exception is the
 * seller's, but an MCP SDK sends an exception's message to the buyer (a `-32603` JSON-RPC error, or
 * the text of an `isError` result), so nothing the Seller Requirements forbid is echoed. A
 * non-string is returned unchanged, for `describe` to show by kind.
 */
export function shownCode(code: unknown, serviceNames: RegExp | undefined): unknown {
  if (typeof code !== "string" || code === "") return code;
  if (CODE_LIKE.test(code) && redactLeaks(code, serviceNames).kinds.length === 0) return code;
  return notShown(code);
}
