// Signing outgoing requests: a client given a `signer` wraps its `fetch` so that every request it
// sends (every attempt, every page, every reconnect) is signed just before it leaves, with a fresh
// nonce, over the exact bytes sent (security.mdx, "AdCP RFC 9421 profile").
import { optionError } from "@adcp-wire/internal";
import type { RequestSigner } from "@adcp-wire/signing";
import type { FetchLike } from "../read/bounded_fetch.ts";

/** What a client needs of a signer: `RequestSigner` of `@adcp-wire/signing`. */
export type RequestSigningOption = Pick<RequestSigner, "signRequest">;

/** `fetchImpl` (default: the global `fetch`) with each request signed by `signer` first. */
export function signingFetch(
  signer: unknown,
  fetchImpl: FetchLike | undefined,
  action: string,
): FetchLike | undefined {
  if (signer === undefined) return fetchImpl;
  if (
    typeof signer !== "object" || signer === null ||
    typeof (signer as RequestSigningOption).signRequest !== "function"
  ) {
    throw optionError(TypeError, action, "options.signer", "a RequestSigner", signer);
  }
  const sign = signer as RequestSigningOption;
  return async (input, init) => {
    const request = await sign.signRequest(new Request(input, init));
    return (fetchImpl ?? globalThis.fetch)(request);
  };
}
