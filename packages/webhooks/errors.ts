// The error family of @adcp-wire/webhooks: conditions a webhook receiver (or a signer of legacy
// HMAC webhooks) is expected to catch. Programmer errors (bad options) are TypeError/RangeError.
import { AdcpWireError } from "@adcp-wire/internal";

/** The literal `code` of every error in the `@adcp-wire/webhooks` family. */
export type AdcpWebhookErrorCode =
  | "weak_webhook_secret"
  | "malformed_body_input";

/**
 * Base class of the `@adcp-wire/webhooks` error family, under the workspace root `AdcpWireError`
 * of `@adcp-wire/internal`. Catch it to handle every webhook rejection at once, or narrow on
 * {@link AdcpWebhookError.code}. The codes are lower-case, as the webhook codes the spec names
 * are (`duplicate_key_input`, `webhook_body_malformed`).
 *
 * @example Catching every webhook error at once
 * ```ts
 * import { AdcpWebhookError, importLegacyWebhookSecret } from "@adcp-wire/webhooks";
 * import { rejects } from "node:assert/strict";
 *
 * await rejects(importLegacyWebhookSecret("short"), AdcpWebhookError);
 * ```
 */
export abstract class AdcpWebhookError extends AdcpWireError {
  /** Stable machine-readable identifier of the condition. */
  abstract override readonly code: AdcpWebhookErrorCode;
}

/**
 * Why {@link WeakWebhookSecretError} refused a legacy webhook secret.
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 */
export type WeakWebhookSecretReason =
  /** Fewer than 32 bytes ("Minimum secret length: 32 bytes"). */
  | "too_short"
  /** A well-known weak shape (one byte repeated, a repeated block, a sequential run). */
  | "low_entropy";

/**
 * A legacy webhook HMAC secret was refused at configuration time, before any signature was
 * computed: shorter than 32 bytes, or of a well-known weak shape (the rules are listed on
 * `importLegacyWebhookSecret`). The message and fields describe the secret by its byte length and
 * the rule it breaks, never by its content. The `code` is lower-case, as the webhook codes the
 * spec names are.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, "Minimum secret length: 32 bytes";
 * webhook-hmac-sha256.json, `secret_rejection_vectors` (reject well-known weak values).
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 *
 * @example Reading the reason
 * ```ts
 * import { WeakWebhookSecretError } from "@adcp-wire/webhooks";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new WeakWebhookSecretError("too_short", 31, "at least 32 bytes");
 * strictEqual(error.code, "weak_webhook_secret");
 * strictEqual(
 *   error.message,
 *   "Cannot use the legacy webhook secret: expected at least 32 bytes (observed a 31-byte value)",
 * );
 * ```
 */
export class WeakWebhookSecretError extends AdcpWebhookError {
  /** Always `"weak_webhook_secret"`. */
  readonly code: "weak_webhook_secret" = "weak_webhook_secret";
  /** Always `"WeakWebhookSecretError"`. */
  override readonly name: "WeakWebhookSecretError" = "WeakWebhookSecretError";
  /** Why the secret was refused. */
  readonly reason: WeakWebhookSecretReason;
  /** The secret's length in bytes (its UTF-8 length when given as a string). */
  readonly byteLength: number;

  /**
   * Creates the error.
   *
   * @param reason Why the secret was refused.
   * @param byteLength The secret's length in bytes.
   * @param requirement The rule the secret breaks, as a phrase (`at least 32 bytes`); never the
   * secret's content.
   *
   * @example Usage
   * ```ts
   * import { WeakWebhookSecretError } from "@adcp-wire/webhooks";
   * import { strictEqual } from "node:assert/strict";
   *
   * const error = new WeakWebhookSecretError("low_entropy", 32, "at least 4 distinct byte values");
   * strictEqual(error.reason, "low_entropy");
   * ```
   */
  constructor(reason: WeakWebhookSecretReason, byteLength: number, requirement: string) {
    super(
      `Cannot use the legacy webhook secret: expected ${requirement} ` +
        `(observed a ${byteLength}-byte value)`,
      { cause: { reason, byteLength } },
    );
    this.reason = reason;
    this.byteLength = byteLength;
  }
}

/**
 * A legacy webhook signer was given a body that is not strict JSON text (not UTF-8, empty, or
 * not JSON), and was not told to sign such bodies. Every body of the legacy scheme is a JSON
 * state-change notification, and a verifier refuses a body it cannot parse strictly, so the
 * signer refuses it before computing any HMAC. The message gives the byte length only; `cause`
 * is the parse error, whose message names an index and a code point, never the body.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, Duplicate object keys (signers check their
 * input before signing) and webhook verifier checklist step 14.
 *
 * @deprecated The legacy HMAC-SHA256 scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;
 * use the RFC 9421 webhook profile.
 *
 * @example Reading the size
 * ```ts
 * import { WebhookBodyInputError } from "@adcp-wire/webhooks";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new WebhookBodyInputError(0);
 * strictEqual(error.code, "malformed_body_input");
 * strictEqual(
 *   error.message,
 *   "Cannot sign the legacy webhook body: expected strict JSON text " +
 *     "(observed 0 bytes that are not)",
 * );
 * ```
 */
export class WebhookBodyInputError extends AdcpWebhookError {
  /** Always `"malformed_body_input"`. */
  readonly code: "malformed_body_input" = "malformed_body_input";
  /** Always `"WebhookBodyInputError"`. */
  override readonly name: "WebhookBodyInputError" = "WebhookBodyInputError";
  /** The body's length in bytes. */
  readonly byteLength: number;

  /**
   * Creates the error.
   *
   * @param byteLength The body's length in bytes.
   * @param cause Why the body is not strict JSON (a `SyntaxError` or a `TypeError` of UTF-8
   * decoding), if known.
   *
   * @example Usage
   * ```ts
   * import { WebhookBodyInputError } from "@adcp-wire/webhooks";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new WebhookBodyInputError(3).byteLength, 3);
   * ```
   */
  constructor(byteLength: number, cause?: unknown) {
    super(
      `Cannot sign the legacy webhook body: expected strict JSON text ` +
        `(observed ${byteLength} bytes that are not)`,
      cause === undefined ? undefined : { cause },
    );
    this.byteLength = byteLength;
  }
}

/**
 * Every error class of `@adcp-wire/webhooks`, for exhaustive handling. The receiving checks
 * return their refusals as values; only the legacy HMAC configuration and signing throw these.
 */
export type AnyWebhookError = WeakWebhookSecretError | WebhookBodyInputError;
