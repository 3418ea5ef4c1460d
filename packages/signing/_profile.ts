// The parameters that tell the request profile from the webhook profile, and the two wire formats
// of the request profile ("implementations SHOULD share verifier code between the two profiles,
// branch on the three profile parameters, and configure the profile-specific error codes").
import type { BinaryEncoding } from "./_binary.ts";
import type { SignatureErrorCode } from "./errors.ts";

/** RFC 9421 `tag` of AdCP request signatures. */
export const REQUEST_SIGNING_TAG = "adcp/request-signing/v1";
/** RFC 9421 `tag` of AdCP webhook signatures. */
export const WEBHOOK_SIGNING_TAG = "adcp/webhook-signing/v1";

/** The AdCP signing profile a message is signed or verified under. */
export interface Profile {
  readonly kind: "request" | "webhook";
  readonly tag: string;
  /** How the `Signature` value is spelled. */
  readonly signatureEncoding: BinaryEncoding;
  /** How `Content-Digest` values may be spelled (the first is what a signer writes). */
  readonly digestEncodings: readonly BinaryEncoding[];
  /** The `adcp_use` values a verifying key may declare. */
  readonly purposes: readonly string[];
}

/** AdCP 3.2 request signing: RFC 8941 sf-binary everywhere. */
export const REQUEST_PROFILE_3_2: Profile = {
  kind: "request",
  tag: REQUEST_SIGNING_TAG,
  signatureEncoding: "sf-binary",
  digestEncodings: ["sf-binary"],
  purposes: ["request-signing"],
};

/**
 * AdCP 3.0/3.1 request signing: the legacy unpadded Base64URL `Signature`. Its `Content-Digest`
 * may also be RFC 8941 sf-binary: upstream's 3.1 fixtures carry both spellings (positive 002 the
 * legacy one, negative 010 the RFC one, which must reach the digest comparison).
 */
export const REQUEST_PROFILE_3_1: Profile = {
  kind: "request",
  tag: REQUEST_SIGNING_TAG,
  signatureEncoding: "base64url",
  digestEncodings: ["base64url", "sf-binary"],
  purposes: ["request-signing"],
};

/**
 * Webhook signing v1 (all of AdCP 3.x): legacy unpadded Base64URL `Signature`; `Content-Digest`
 * as RFC 8941 sf-binary (every upstream webhook fixture spells it so) or legacy Base64URL. Keys of
 * purpose `request-signing`, or the deprecated `webhook-signing`.
 */
export const WEBHOOK_PROFILE: Profile = {
  kind: "webhook",
  tag: WEBHOOK_SIGNING_TAG,
  signatureEncoding: "base64url",
  digestEncodings: ["sf-binary", "base64url"],
  purposes: ["request-signing", "webhook-signing"],
};

/** The failure kinds of the checklist, named as in the request taxonomy without the prefix. */
export type Failure =
  | "required"
  | "target_uri_malformed"
  | "header_malformed"
  | "params_incomplete"
  | "tag_invalid"
  | "alg_not_allowed"
  | "window_invalid"
  | "components_incomplete"
  | "components_unexpected"
  | "key_unknown"
  | "key_purpose_invalid"
  | "key_revoked"
  | "revocation_stale"
  | "invalid"
  | "digest_mismatch"
  | "body_malformed"
  | "replayed"
  | "rate_abuse"
  | "jwks_unavailable"
  | "jwks_untrusted"
  | "mode_mismatch";

/** The profile's code for a failure kind. */
export function codeOf(profile: Profile, failure: Failure): SignatureErrorCode {
  const prefix = profile.kind;
  if (failure === "body_malformed" || failure === "target_uri_malformed") {
    return `${prefix}_${failure}` as SignatureErrorCode;
  }
  if (failure === "mode_mismatch") return "webhook_mode_mismatch";
  return `${prefix}_signature_${failure}` as SignatureErrorCode;
}
