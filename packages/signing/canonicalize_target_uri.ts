// The public face of the @target-uri canonicalization (url-canonicalization.mdx).
import { canonicalTarget, TargetUriError } from "./_target_uri.ts";
import { TargetUriMalformedError } from "./errors.ts";

/** The canonical `@target-uri` and `@authority` of a URL. */
export interface CanonicalTargetUri {
  /** `@target-uri`: the eight steps of url-canonicalization.mdx applied. */
  readonly targetUri: string;
  /** `@authority`: lowercase A-label host, default port stripped, IPv6 brackets kept. */
  readonly authority: string;
}

/**
 * Canonicalizes a URL the way AdCP signers and verifiers must before building a signature base:
 * lowercase scheme and host, IDN to A-labels (UTS-46 nontransitional), one trailing root dot
 * removed, userinfo, the default port and an empty port (`host:`, RFC 3986 §6.2.3) stripped, an
 * empty path made `/`, dot segments removed (consecutive slashes kept),
 * percent escapes uppercased and unreserved ones decoded, the query kept byte for byte, the
 * fragment dropped. Malformed authorities are refused.
 *
 * Spec: url-canonicalization.mdx, "Algorithm"; security.mdx, "AdCP RFC 9421 profile".
 *
 * @param url An absolute `http:` or `https:` URL string.
 * @returns The two canonical values.
 * @throws {TargetUriMalformedError} When the URL has no canonical form; `problem` says why.
 *
 * @example Canonical forms
 * ```ts
 * import { canonicalizeTargetUri } from "@adcp-wire/signing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(canonicalizeTargetUri("HTTPS://Seller.Example:443/a/./b%7e?b=2&a=1#frag"), {
 *   targetUri: "https://seller.example/a/b~?b=2&a=1",
 *   authority: "seller.example",
 * });
 * deepStrictEqual(canonicalizeTargetUri("https://seller.example:/p"), {
 *   targetUri: "https://seller.example/p",
 *   authority: "seller.example",
 * });
 * ```
 */
export function canonicalizeTargetUri(url: string): CanonicalTargetUri {
  try {
    return canonicalTarget(url);
  } catch (error) {
    if (error instanceof TargetUriError) {
      throw new TargetUriMalformedError(error.problem, { cause: error });
    }
    throw error;
  }
}
