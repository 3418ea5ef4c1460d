// The error family of @adcp-wire/signing. Programmer errors (bad options) are TypeError/RangeError.
import { AdcpWireError } from "@adcp-wire/internal";

/**
 * The stable codes of the request-signing profile (security.mdx, "Transport error taxonomy"),
 * returned in `WWW-Authenticate: Signature error="<code>"`.
 */
export type RequestSignatureErrorCode =
  | "request_signature_required"
  | "request_target_uri_malformed"
  | "request_signature_header_malformed"
  | "request_signature_params_incomplete"
  | "request_signature_tag_invalid"
  | "request_signature_alg_not_allowed"
  | "request_signature_window_invalid"
  | "request_signature_components_incomplete"
  | "request_signature_components_unexpected"
  | "request_signature_key_unknown"
  | "request_signature_key_purpose_invalid"
  | "request_signature_key_revoked"
  | "request_signature_revocation_stale"
  | "request_signature_invalid"
  | "request_signature_digest_mismatch"
  | "request_body_malformed"
  | "request_signature_replayed"
  | "request_signature_rate_abuse"
  | "request_signature_jwks_unavailable"
  | "request_signature_jwks_untrusted"
  // The discovery chain of an agent's keys (security.mdx, "Discovering an agent's signing keys
  // via `brand_json_url`", "Rejection codes for this discovery chain").
  | "request_signature_brand_json_url_missing"
  | "request_signature_capabilities_unreachable"
  | "request_signature_brand_json_unreachable"
  | "request_signature_brand_json_malformed"
  | "request_signature_brand_origin_mismatch"
  | "request_signature_agent_not_in_brand_json"
  | "request_signature_brand_json_ambiguous"
  | "request_signature_key_origin_mismatch"
  | "request_signature_key_origin_missing";

/** Every {@link RequestSignatureErrorCode}: the type checker refuses a missing or extra one. */
const REQUEST_SIGNATURE_CODES: ReadonlySet<string> = new Set(
  Object.keys(
    {
      request_signature_required: true,
      request_target_uri_malformed: true,
      request_signature_header_malformed: true,
      request_signature_params_incomplete: true,
      request_signature_tag_invalid: true,
      request_signature_alg_not_allowed: true,
      request_signature_window_invalid: true,
      request_signature_components_incomplete: true,
      request_signature_components_unexpected: true,
      request_signature_key_unknown: true,
      request_signature_key_purpose_invalid: true,
      request_signature_key_revoked: true,
      request_signature_revocation_stale: true,
      request_signature_invalid: true,
      request_signature_digest_mismatch: true,
      request_body_malformed: true,
      request_signature_replayed: true,
      request_signature_rate_abuse: true,
      request_signature_jwks_unavailable: true,
      request_signature_jwks_untrusted: true,
      request_signature_brand_json_url_missing: true,
      request_signature_capabilities_unreachable: true,
      request_signature_brand_json_unreachable: true,
      request_signature_brand_json_malformed: true,
      request_signature_brand_origin_mismatch: true,
      request_signature_agent_not_in_brand_json: true,
      request_signature_brand_json_ambiguous: true,
      request_signature_key_origin_mismatch: true,
      request_signature_key_origin_missing: true,
    } satisfies Record<RequestSignatureErrorCode, true>,
  ),
);

/**
 * Whether `value` is one of the spec's request-signing codes (security.mdx, "Transport error
 * taxonomy" and the key-discovery chain's codes): for reading a seller's
 * `WWW-Authenticate: Signature error="<code>"`, where anything else is seller text to drop.
 *
 * @param value A value to test.
 * @returns Whether it is a {@link RequestSignatureErrorCode}.
 *
 * @example Usage
 * ```ts
 * import { isRequestSignatureErrorCode } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isRequestSignatureErrorCode("request_signature_key_unknown"), true);
 * strictEqual(isRequestSignatureErrorCode("request_signature_whatever"), false);
 * strictEqual(isRequestSignatureErrorCode("__proto__"), false);
 * ```
 */
export function isRequestSignatureErrorCode(value: unknown): value is RequestSignatureErrorCode {
  return typeof value === "string" && REQUEST_SIGNATURE_CODES.has(value);
}

/**
 * The stable codes of the webhook-signing profile (security.mdx, "Webhook error taxonomy"). The
 * two `webhook_signature_jwks_*` codes are this library's: the webhook table has no JWKS-fetch
 * row, and "codes parallel the request-signing error taxonomy, prefixed `webhook_`".
 */
export type WebhookSignatureErrorCode =
  | "webhook_signature_header_malformed"
  | "webhook_signature_params_incomplete"
  | "webhook_signature_tag_invalid"
  | "webhook_signature_alg_not_allowed"
  | "webhook_signature_window_invalid"
  | "webhook_signature_components_incomplete"
  | "webhook_signature_key_unknown"
  | "webhook_signature_key_purpose_invalid"
  | "webhook_signature_key_revoked"
  | "webhook_signature_revocation_stale"
  | "webhook_signature_invalid"
  | "webhook_signature_digest_mismatch"
  | "webhook_body_malformed"
  | "webhook_target_uri_malformed"
  | "webhook_signature_replayed"
  | "webhook_signature_rate_abuse"
  | "webhook_mode_mismatch"
  | "webhook_signature_jwks_unavailable"
  | "webhook_signature_jwks_untrusted";

/** Every code a signature verification can fail with. */
export type SignatureErrorCode = RequestSignatureErrorCode | WebhookSignatureErrorCode;

/** The literal `code` of every error of the `@adcp-wire/signing` family. */
export type AdcpSigningErrorCode =
  | SignatureErrorCode
  | "jwks_unavailable"
  | "jwks_untrusted"
  | "body_too_large"
  | "body_timeout"
  | "agent_key_discovery"
  | "SIGNING_FAILED";

/**
 * Base class of the `@adcp-wire/signing` error family, under the workspace root `AdcpWireError`.
 * Codes the spec names keep its lower-case spelling; the one local condition the spec has no code
 * for, a signer that could not sign ({@link SigningFailedError}), is upper-case.
 *
 * @example Catching every signing error at once
 * ```ts
 * import { AdcpSigningError, SignatureVerificationError } from "@adcp-wire/signing";
 * import { ok } from "node:assert/strict";
 *
 * const error = new SignatureVerificationError("request_signature_invalid", 10);
 * ok(error instanceof AdcpSigningError);
 * ```
 */
export abstract class AdcpSigningError extends AdcpWireError {
  /** Stable machine-readable identifier of the condition. */
  abstract override readonly code: AdcpSigningErrorCode;
}

/**
 * A signed request or webhook was rejected, or a request that must be signed was not. `code` is
 * the spec's stable code, byte for byte (the conformance vectors grade on it); `step` is the
 * verifier-checklist step that rejected (`0` for the pre-checks, `"9a"` for the per-keyid cap),
 * informational only. The message says what was wrong without echoing seller bytes beyond a
 * short, escaped excerpt; answer the counterparty with the code alone
 * ({@link SignatureVerificationError.wwwAuthenticate}).
 *
 * @example Reading the code and the challenge
 * ```ts
 * import { SignatureVerificationError } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new SignatureVerificationError("request_signature_window_invalid", 5);
 * strictEqual(error.code, "request_signature_window_invalid");
 * strictEqual(error.wwwAuthenticate, 'Signature error="request_signature_window_invalid"');
 * ```
 */
export class SignatureVerificationError extends AdcpSigningError {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: "SignatureVerificationError" = "SignatureVerificationError";
  /** The spec's code for the failure. */
  override readonly code: SignatureErrorCode;
  /** The checklist step that rejected: 0 (pre-check), 1–14, or `"9a"`. */
  readonly step: number | "9a";

  /**
   * Makes the error.
   *
   * @param code The spec's code.
   * @param step The checklist step.
   * @param detail One line for logs: what was wrong (no secrets, no raw seller bytes).
   * @param options `cause`: the underlying error.
   *
   * @example Usage
   * ```ts
   * import { SignatureVerificationError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const error = new SignatureVerificationError("webhook_signature_replayed", 12, "nonce seen");
   * strictEqual(
   *   error.message,
   *   "Cannot accept the signature: webhook_signature_replayed (nonce seen)",
   * );
   * ```
   */
  constructor(
    code: SignatureErrorCode,
    step: number | "9a",
    detail?: string,
    options?: ErrorOptions,
  ) {
    super(
      `Cannot accept the signature: ${code}${detail === undefined ? "" : ` (${detail})`}`,
      options,
    );
    this.code = code;
    this.step = step;
  }

  /**
   * The `WWW-Authenticate` value to send with a 401: `Signature error="<code>"`, with no realm and
   * no other parameter (security.mdx, "`WWW-Authenticate` format").
   *
   * @example Usage
   * ```ts
   * import { SignatureVerificationError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const error = new SignatureVerificationError("webhook_signature_invalid", 10);
   * strictEqual(error.wwwAuthenticate, 'Signature error="webhook_signature_invalid"');
   * ```
   */
  get wwwAuthenticate(): string {
    return `Signature error="${this.code}"`;
  }
}

/** Why a JWKS could not be used. */
export type JwksErrorReason =
  /** Transient: network failure, timeout, 5xx, or a body that is not a JWKS (retry later). */
  | "unavailable"
  /** Refused by the SSRF rules: not https, userinfo, a reserved address, a redirect. */
  | "untrusted";

/**
 * A JWKS fetch failed (`jwks_unavailable`: retry with backoff) or was refused by the SSRF rules
 * (`jwks_untrusted`: not retryable). Verifiers turn it into `request_signature_jwks_unavailable`
 * / `_untrusted` (or the `webhook_` twins).
 *
 * @example Reading the reason
 * ```ts
 * import { JwksError } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new JwksError("untrusted", "redirect refused");
 * strictEqual(error.code, "jwks_untrusted");
 * strictEqual(error.reason, "untrusted");
 * ```
 */
export class JwksError extends AdcpSigningError {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: "JwksError" = "JwksError";
  /** `jwks_unavailable` or `jwks_untrusted`. */
  override readonly code: "jwks_unavailable" | "jwks_untrusted";
  /** Why the JWKS could not be used. */
  readonly reason: JwksErrorReason;

  /**
   * Makes the error.
   *
   * @param reason Why.
   * @param detail One line: what happened.
   * @param options `cause`: the underlying error.
   *
   * @example Usage
   * ```ts
   * import { JwksError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new JwksError("unavailable", "HTTP 503").code, "jwks_unavailable");
   * ```
   */
  constructor(reason: JwksErrorReason, detail: string, options?: ErrorOptions) {
    super(`Cannot use the JWKS: ${detail}`, options);
    this.reason = reason;
    this.code = reason === "unavailable" ? "jwks_unavailable" : "jwks_untrusted";
  }
}

/**
 * A message body was longer than the verifier reads (`maxBodyBytes`, default 4 MiB): reading
 * stopped at the cap, nothing was verified. Answer 413.
 *
 * @example Reading the cap
 * ```ts
 * import { BodyTooLargeError } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new BodyTooLargeError(4_194_304);
 * strictEqual(error.code, "body_too_large");
 * strictEqual(error.maxBytes, 4_194_304);
 * ```
 */
export class BodyTooLargeError extends AdcpSigningError {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: "BodyTooLargeError" = "BodyTooLargeError";
  /** Always `body_too_large`. */
  override readonly code = "body_too_large" as const;
  /** The cap, in bytes. */
  readonly maxBytes: number;

  /**
   * Makes the error.
   *
   * @param maxBytes The cap that was exceeded.
   *
   * @example Usage
   * ```ts
   * import { BodyTooLargeError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(
   *   new BodyTooLargeError(10).message,
   *   "Cannot verify the message: its body exceeds 10 bytes",
   * );
   * ```
   */
  constructor(maxBytes: number) {
    super(`Cannot verify the message: its body exceeds ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/**
 * A URL has no canonical `@target-uri` (url-canonicalization.mdx): no host, a bare or zoned IPv6
 * literal, an empty DNS label, more than one trailing dot, a bad percent escape. A signer refuses
 * to sign it; a verifier answers `request_target_uri_malformed` (`webhook_target_uri_malformed`).
 *
 * @example Reading the problem
 * ```ts
 * import { canonicalizeTargetUri, TargetUriMalformedError } from "@adcp-wire/signing";
 * import { throws } from "node:assert/strict";
 *
 * throws(
 *   () => canonicalizeTargetUri("https://example.com../p"),
 *   (e) => e instanceof TargetUriMalformedError && e.problem === "multiple_trailing_dots",
 * );
 * ```
 */
export class TargetUriMalformedError extends AdcpSigningError {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: "TargetUriMalformedError" = "TargetUriMalformedError";
  /** Always `request_target_uri_malformed`. */
  override readonly code = "request_target_uri_malformed" as const;
  /** Which rule the URL breaks, in snake_case (`missing_host`, `ipv6_zone`, ...). */
  readonly problem: string;

  /**
   * Makes the error.
   *
   * @param problem The rule broken.
   * @param options `cause`: the underlying error.
   *
   * @example Usage
   * ```ts
   * import { TargetUriMalformedError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new TargetUriMalformedError("missing_host").code, "request_target_uri_malformed");
   * ```
   */
  constructor(problem: string, options?: ErrorOptions) {
    super(`Cannot canonicalize the target URI: ${problem}`, options);
    this.problem = problem;
  }
}

/**
 * A message body did not arrive within the verifier's deadline (`bodyTimeoutMs`, default 10 s):
 * reading stopped, nothing was verified. Answer 408.
 *
 * @example Reading the deadline
 * ```ts
 * import { BodyTimeoutError } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new BodyTimeoutError(10_000);
 * strictEqual(error.code, "body_timeout");
 * strictEqual(error.timeoutMs, 10_000);
 * ```
 */
export class BodyTimeoutError extends AdcpSigningError {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: "BodyTimeoutError" = "BodyTimeoutError";
  /** Always `body_timeout`. */
  override readonly code = "body_timeout" as const;
  /** The deadline, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * Makes the error.
   *
   * @param timeoutMs The deadline that passed.
   *
   * @example Usage
   * ```ts
   * import { BodyTimeoutError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(
   *   new BodyTimeoutError(5).message,
   *   "Cannot verify the message: its body did not arrive within 5 ms",
   * );
   * ```
   */
  constructor(timeoutMs: number) {
    super(`Cannot verify the message: its body did not arrive within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** Which local step of signing failed ({@link SigningFailedError}). */
export type SigningFailurePhase =
  /** Importing the private JWK into Web Crypto (the lazy import of the first signature). */
  | "import"
  /** Hashing the body for `Content-Digest`. */
  | "digest"
  /** The signature itself, or a signer of the caller's own that threw. */
  | "sign";

/** What a {@link SigningFailedError} records. */
export interface SigningFailure {
  /** The step that failed. */
  readonly phase: SigningFailurePhase;
  /** The signer's `keyid`, when known. */
  readonly keyid?: string | undefined;
  /** The signer's `alg`, when known. */
  readonly alg?: string | undefined;
}

/**
 * A signer could not sign: Web Crypto refused the key or the operation (a key that imports but
 * cannot sign, a private JWK whose material is not a key). Nothing was sent. It is a local
 * failure, never a network one: the same key fails the same way on every attempt, so it is not
 * retried (a client passes it through unwrapped; `AdcpAgent` answers it as `failed` with no
 * recovery decision). Fix the signer's key: security.mdx, "AdCP RFC 9421 profile".
 *
 * The spec has no code for it (its taxonomy is the verifier's), hence the upper-case
 * `SIGNING_FAILED`. The runtime's error is the `cause`; the message names only its kind.
 *
 * @example Reading the phase and the key
 * ```ts
 * import { SigningFailedError } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new SigningFailedError({ phase: "sign", keyid: "buyer-1", alg: "ed25519" });
 * strictEqual(error.code, "SIGNING_FAILED");
 * strictEqual(error.phase, "sign");
 * strictEqual(error.keyid, "buyer-1");
 * ```
 */
export class SigningFailedError extends AdcpSigningError {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: "SigningFailedError" = "SigningFailedError";
  /** Always `SIGNING_FAILED`. */
  override readonly code = "SIGNING_FAILED" as const;
  /** The step that failed. */
  readonly phase: SigningFailurePhase;
  /** The signer's `keyid`, when known. */
  readonly keyid: string | undefined;
  /** The signer's `alg`, when known. */
  readonly alg: string | undefined;

  /**
   * Makes the error.
   *
   * @param failure The phase, and the signer's `keyid` and `alg` when known.
   * @param options `cause`: what Web Crypto (or the signer) threw.
   *
   * @example Usage
   * ```ts
   * import { SigningFailedError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const cause = new DOMException("no", "OperationError");
   * const error = new SigningFailedError({ phase: "sign", keyid: "k", alg: "ed25519" }, { cause });
   * strictEqual(
   *   error.message,
   *   'Cannot sign the message: the sign step failed for keyid "k" (ed25519) with OperationError',
   * );
   * strictEqual(error.cause, cause);
   * ```
   */
  constructor(failure: SigningFailure, options?: ErrorOptions) {
    const { phase, keyid, alg } = failure;
    const key = keyid === undefined ? "" : ` for keyid ${JSON.stringify(keyid)}`;
    const algorithm = alg === undefined ? "" : ` (${alg})`;
    const cause = options?.cause;
    const kind = cause instanceof Error || cause instanceof DOMException
      ? ` with ${cause.name}`
      : "";
    super(`Cannot sign the message: the ${phase} step failed${key}${algorithm}${kind}`, options);
    this.phase = phase;
    this.keyid = keyid;
    this.alg = alg;
  }
}

/** Why {@link AgentKeyDiscoveryError} refused. */
export type AgentKeyDiscoveryReason =
  /**
   * The brand.json failed the strict parse (not UTF-8 or JSON, a byte order mark, a duplicate
   * key, past the JSON bounds, over the 256 KiB cap), is not one of its shapes, or redirects a
   * second time.
   */
  | "brand_json_malformed"
  /** No `agents[]` entry has the agent's URL. */
  | "agent_not_in_brand_json"
  /** More than one entry has it. */
  | "brand_json_ambiguous";

/**
 * The brand.json gave no single agent entry for the URL (the spec's
 * `request_signature_brand_json_malformed`, `_agent_not_in_brand_json`, `_brand_json_ambiguous`;
 * a verifier then rejects with `*_signature_key_unknown`: "verifiers MUST NOT accept signatures
 * from a keyid they cannot resolve to a specific agents[] entry"). None is retryable
 * (security.mdx, "Rejection codes for this discovery chain": "do not retry; surface to
 * operations", "Not retryable"): the same document fails the same way until its operator fixes
 * it. A brand.json that could not be fetched (network, timeout, non-2xx) is a `JwksError`
 * `unavailable` instead, the transient `request_signature_brand_json_unreachable`.
 *
 * @example Reading the reason
 * ```ts
 * import { AgentKeyDiscoveryError } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new AgentKeyDiscoveryError("brand_json_ambiguous");
 * strictEqual(error.code, "agent_key_discovery");
 * strictEqual(error.specCode, "request_signature_brand_json_ambiguous");
 * ```
 */
export class AgentKeyDiscoveryError extends AdcpSigningError {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: "AgentKeyDiscoveryError" = "AgentKeyDiscoveryError";
  /** Always `agent_key_discovery`. */
  override readonly code = "agent_key_discovery" as const;
  /** Why. */
  readonly reason: AgentKeyDiscoveryReason;

  /**
   * Makes the error.
   *
   * @param reason Why.
   * @param detail One line for logs: what was wrong (the body by kind only, no seller bytes).
   * @param options `cause`: the parser's error, when there is one.
   *
   * @example Usage
   * ```ts
   * import { AgentKeyDiscoveryError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const error = new AgentKeyDiscoveryError("agent_not_in_brand_json");
   * strictEqual(error.reason, "agent_not_in_brand_json");
   * strictEqual(
   *   new AgentKeyDiscoveryError("brand_json_malformed", "the body is not JSON").message,
   *   "Cannot resolve the agent's keys: brand json malformed (the body is not JSON)",
   * );
   * ```
   */
  constructor(reason: AgentKeyDiscoveryReason, detail?: string, options?: ErrorOptions) {
    super(
      `Cannot resolve the agent's keys: ${reason.replaceAll("_", " ")}${
        detail === undefined ? "" : ` (${detail})`
      }`,
      options,
    );
    this.reason = reason;
  }

  /**
   * The request-signing taxonomy's code for the reason (`request_signature_<reason>`).
   *
   * @example Usage
   * ```ts
   * import { AgentKeyDiscoveryError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(
   *   new AgentKeyDiscoveryError("brand_json_malformed").specCode,
   *   "request_signature_brand_json_malformed",
   * );
   * ```
   */
  get specCode(): string {
    return `request_signature_${this.reason}`;
  }

  /**
   * The webhook twin of {@link AgentKeyDiscoveryError.specCode} (`webhook_signature_<reason>`),
   * for a webhook verifier resolving the seller's keys: the webhook taxonomy's "codes parallel
   * the request-signing error taxonomy, prefixed `webhook_`".
   *
   * @example Usage
   * ```ts
   * import { AgentKeyDiscoveryError } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(
   *   new AgentKeyDiscoveryError("brand_json_malformed").webhookSpecCode,
   *   "webhook_signature_brand_json_malformed",
   * );
   * ```
   */
  get webhookSpecCode(): string {
    return `webhook_signature_${this.reason}`;
  }
}

/**
 * Every error class of `@adcp-wire/signing`, for exhaustive handling: narrow on `code` (or on
 * `instanceof`), and the type checker says when a case is missing.
 */
export type AnySigningError =
  | SignatureVerificationError
  | JwksError
  | BodyTooLargeError
  | TargetUriMalformedError
  | BodyTimeoutError
  | SigningFailedError
  | AgentKeyDiscoveryError;
