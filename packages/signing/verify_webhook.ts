// Buyer side: verifying an incoming RFC 9421 webhook in one call (security.mdx, "Webhook
// callbacks", "Verifier checklist for webhooks").
import { checkOptionKeys, optionError, optionKeys } from "@adcp-wire/internal";
import {
  type BodyLimits,
  bodyLimitsOf,
  DEFAULT_WEBHOOK_MAX_BODY_BYTES,
  type HttpMessageParts,
  readMessage,
} from "./_message.ts";
import { clockOf, keyResolverOf, type KeysOption, revocationOf } from "./_options.ts";
import { WEBHOOK_PROFILE } from "./_profile.ts";
import { parseBodyStrict, verifyCore } from "./_verify.ts";
import { SignatureVerificationError } from "./errors.ts";
import type { KeyResolver } from "./keys.ts";
import {
  DEFAULT_WEBHOOK_REPLAY_CAP_PER_KEYID,
  InMemoryReplayStore,
  type ReplayStore,
} from "./replay.ts";
import type { RevocationSource } from "./revocation.ts";
import type { VerifiedSigner } from "./verify_request.ts";
import { agentUrlOption, type SignerIdentity, signerIdentityOf } from "./_signer_identity.ts";

const ACTION = "verify the webhook";

/** The headers of the deprecated legacy HMAC-SHA256 scheme, which select the other mode. */
const LEGACY_HMAC_HEADERS = ["x-adcp-signature", "x-adcp-timestamp"];

/** How a {@link WebhookVerifier} verifies. */
export interface WebhookVerifierOptions {
  /** The seller's keys: a {@link KeyResolver} (such as `JwksResolver`) or a fixed set. */
  readonly keys: KeysOption;
  /**
   * The `url` of the seller's brand.json `agents[]` entry the keys belong to (the agent URL you
   * integrated with): `signer.agentUrl` and `signer.senderId`, the sender of `WebhookDedup`.
   * Needed for a custom {@link KeyResolver} that names no agent; a `JwksResolver` or
   * `StaticKeyResolver` made with `agentUrl` names its own (both given must be equal). Without
   * any, see `VerifiedSigner.senderId`.
   */
  readonly agentUrl?: string;
  /**
   * The replay cache; share one across every endpoint a seller can reach (security.mdx,
   * "Cross-endpoint scoping"). Default: in memory, 100,000 entries per keyid, 250,000 per signer
   * (whatever number of keyids it publishes), 1,000,000 in all.
   */
  readonly replay?: ReplayStore;
  /**
   * The signers' revocation list (step 9): a {@link RevocationSource} such as `RevocationList`,
   * which the verifier consults before any cryptography. Required: pass `null` only for keys that
   * have no revocation list (pinned test keys), knowing that step 9 is then skipped; "verifiers
   * accepting request-signed mutations MUST poll the revocation list".
   */
  readonly revocation: RevocationSource | null;
  /** The clock, in milliseconds since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** Longest body read, in bytes. Default 1 MiB (webhooks.mdx, "Payload size limit"). */
  readonly maxBodyBytes?: number;
  /** Deadline for reading a `Request` body, in milliseconds. Default 10,000. */
  readonly bodyTimeoutMs?: number;
}

/** What one call of {@link WebhookVerifier.verify} is told. */
export interface VerifyWebhookOptions {
  /** The HTTP/2+ `:authority` pseudo-header, when your server exposes it. */
  readonly authority?: string;
  /** Aborts a key fetch. */
  readonly signal?: AbortSignal;
}

/** The keys of {@link WebhookVerifierOptions}. */
const WEBHOOK_VERIFIER_KEYS = optionKeys<WebhookVerifierOptions>({
  keys: true,
  agentUrl: true,
  replay: true,
  revocation: true,
  now: true,
  maxBodyBytes: true,
  bodyTimeoutMs: true,
});

/** The keys of {@link VerifyWebhookOptions}, checked on every call (a precomputed set). */
const VERIFY_WEBHOOK_KEYS = optionKeys<VerifyWebhookOptions>({ authority: true, signal: true });

/** A verified webhook: who signed it, its exact bytes, and its JSON parsed strictly. */
export interface WebhookVerification {
  /** The seller agent and key that signed; `signer.senderId` is the sender to dedup by. */
  readonly signer: VerifiedSigner;
  /** The body bytes, read once. */
  readonly body: Uint8Array;
  /** The body parsed strictly (step 14): raw seller data, to extract and validate next. */
  readonly payload: unknown;
}

/**
 * Verifies RFC 9421 webhooks from a seller, for a registration made without `authentication`
 * (the 9421 mode): all 15 checks of the webhook checklist in order, then the strict parse of step
 * 14, so nothing unsigned, forged, replayed or ambiguous reaches extraction. An unsigned webhook
 * is `webhook_signature_header_malformed` (this library's reading: the taxonomy has no
 * "required" code for webhooks, and a missing pair is the degenerate broken pair); one carrying
 * the legacy HMAC headers is `webhook_mode_mismatch`.
 *
 * @example Verifying a signed webhook
 * ```ts
 * import { WebhookSigner, WebhookVerifier } from "@adcp-wire/signing";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
 *   "sign",
 *   "verify",
 * ]) as CryptoKeyPair;
 * const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
 * const signer = new WebhookSigner({ key: pair.privateKey, keyid: "seller-1", alg: "ed25519" });
 * const verifier = new WebhookVerifier({
 *   revocation: null,
 *   agentUrl: "https://seller.example/mcp", // the agents[] entry these keys belong to
 *   keys: [{
 *     ...jwk,
 *     kid: "seller-1",
 *     alg: "EdDSA",
 *     use: "sig",
 *     key_ops: ["verify"],
 *     adcp_use: "request-signing",
 *   }],
 * });
 * const delivery = await signer.signRequest(new Request("https://buyer.example/hooks/1", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: '{"task_id":"t1","status":"completed"}',
 * }));
 * const result = await verifier.verify(delivery);
 * strictEqual(result.signer.keyid, "seller-1");
 * strictEqual(result.signer.senderId, "https://seller.example/mcp"); // WebhookDedup's sender
 * deepStrictEqual(result.payload, { task_id: "t1", status: "completed" });
 * ```
 */
export class WebhookVerifier {
  readonly #keys: KeyResolver;
  readonly #identity: () => Promise<SignerIdentity>;
  readonly #replay: ReplayStore;
  readonly #revocation: RevocationSource | undefined;
  readonly #now: () => number;
  readonly #body: BodyLimits;

  /**
   * Makes a verifier.
   *
   * @param options Keys, state and clock.
   * @throws {TypeError} When an option has the wrong type or an unknown name.
   *
   * @example Usage
   * ```ts
   * import { WebhookVerifier } from "@adcp-wire/signing";
   * import { throws } from "node:assert/strict";
   *
   * throws(() => new WebhookVerifier({ revocation: null, keys: "not keys" as never }), TypeError);
   * ```
   */
  constructor(options: WebhookVerifierOptions) {
    if (typeof options !== "object" || options === null) {
      throw optionError(TypeError, "create the webhook verifier", "options", "an object", options);
    }
    const action = "create the webhook verifier";
    checkOptionKeys(action, "options", options, WEBHOOK_VERIFIER_KEYS);
    this.#keys = keyResolverOf(options.keys, action);
    this.#identity = signerIdentityOf(
      this.#keys,
      agentUrlOption(options.agentUrl, action, "agentUrl"),
      action,
      ACTION,
    );
    this.#replay = options.replay ??
      new InMemoryReplayStore({ maxEntriesPerKeyid: DEFAULT_WEBHOOK_REPLAY_CAP_PER_KEYID });
    this.#revocation = revocationOf(options.revocation, action);
    this.#now = clockOf(options.now, action);
    this.#body = bodyLimitsOf(options, action, DEFAULT_WEBHOOK_MAX_BODY_BYTES);
  }

  /**
   * Verifies one webhook delivery.
   *
   * @param input A standard `Request` (its body is consumed) or the message parts.
   * @param options `:authority`, signal.
   * @returns The signer, the bytes and the strictly parsed payload.
   * @throws {SignatureVerificationError} With a `webhook_*` code: answer 401 with
   * `error.wwwAuthenticate` (the sender stops retrying that delivery).
   * @throws {BodyTooLargeError} When the body exceeds `maxBodyBytes`.
   * @throws {TypeError} When `input` is neither a Request nor message parts, or `options` has an
   * unknown key (checked before the body is read).
   *
   * @example An unsigned webhook never reaches extraction
   * ```ts
   * import { SignatureVerificationError, WebhookVerifier } from "@adcp-wire/signing";
   * import { rejects } from "node:assert/strict";
   *
   * const verifier = new WebhookVerifier({ revocation: null, keys: [] });
   * await rejects(
   *   verifier.verify({ method: "POST", url: "https://buyer.example/hook", body: "{}" }),
   *   (e) =>
   *     e instanceof SignatureVerificationError &&
   *     e.code === "webhook_signature_header_malformed",
   * );
   * ```
   */
  async verify(
    input: Request | HttpMessageParts,
    options: VerifyWebhookOptions = {},
  ): Promise<WebhookVerification> {
    const message = await readMessage(input, options, VERIFY_WEBHOOK_KEYS, this.#body, ACTION);
    const inputField = message.headers.get("signature-input");
    const signatureField = message.headers.get("signature");
    if (inputField === null && signatureField === null) {
      if (LEGACY_HMAC_HEADERS.some((name) => message.headers.has(name))) {
        throw new SignatureVerificationError(
          "webhook_mode_mismatch",
          0,
          "a legacy HMAC webhook on an RFC 9421 registration",
        );
      }
      throw new SignatureVerificationError(
        "webhook_signature_header_malformed",
        1,
        "the webhook is not signed",
      );
    }
    if (inputField === null || signatureField === null) {
      throw new SignatureVerificationError(
        "webhook_signature_header_malformed",
        1,
        "Signature and Signature-Input must come together",
      );
    }
    const now = this.#now() / 1000;
    const result = await verifyCore(message, inputField, signatureField, {
      profile: WEBHOOK_PROFILE,
      keys: this.#keys,
      replay: this.#replay,
      revocation: this.#revocation,
      now,
      label: "sig1",
      signal: options.signal,
      identity: this.#identity,
    });
    const payload = parseBodyStrict(WEBHOOK_PROFILE, message.body);
    return { signer: { ...result, verifiedAt: now }, body: message.body, payload };
  }
}
