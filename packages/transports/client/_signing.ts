// Signing outgoing requests: a client given a `signer` wraps its `fetch` so that every request it
// sends (every attempt, every page, every reconnect) is signed just before it leaves, with a fresh
// nonce, over the exact bytes sent (security.mdx, "AdCP RFC 9421 profile").
import { AdcpWireError, optionError } from "@adcp-wire/internal";
import { type RequestSigner, SigningFailedError } from "@adcp-wire/signing";
import type { FetchLike } from "../read/bounded_fetch.ts";

/** What a client needs of a signer: `RequestSigner` of `@adcp-wire/signing`. */
export type RequestSigningOption = Pick<RequestSigner, "signRequest">;

/**
 * What a failed signature throws: the signing package's own errors as they are
 * (`SigningFailedError`, `TargetUriMalformedError`), anything else a signer threw as a
 * `SigningFailedError` with it as the cause. Never the network's error: the request was not sent,
 * and the same signer fails the same way on every attempt, so nothing retries it (the clients
 * pass an `AdcpWireError` through their network-failure mapping unchanged).
 */
function signingFailure(error: unknown): unknown {
  if (error instanceof AdcpWireError) return error;
  return new SigningFailedError({ phase: "sign" }, { cause: error });
}

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
    const unsigned = new Request(input, init);
    let request: Request;
    try {
      request = await sign.signRequest(unsigned);
    } catch (error) {
      throw signingFailure(error);
    }
    return (fetchImpl ?? globalThis.fetch)(request);
  };
}
