/**
 * The AdCP RFC 9421 HTTP Message Signatures profile, for requests and webhooks, on Web Crypto
 * only: signers ({@link RequestSigner}, {@link WebhookSigner}), verifiers that run the spec's
 * checklist in order and fail with its codes ({@link RequestVerifier}, {@link WebhookVerifier}),
 * the replay and revocation state they need behind small interfaces, and SSRF-safe JWKS key
 * discovery ({@link JwksResolver}).
 *
 * @example Sign a request, verify it
 * ```ts
 * import { RequestSigner, RequestVerifier } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
 *   "sign",
 *   "verify",
 * ]) as CryptoKeyPair;
 * const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
 * const signer = new RequestSigner({ key: pair.privateKey, keyid: "buyer-1", alg: "ed25519" });
 * const verifier = new RequestVerifier({
 *   revocation: null,
 *   keys: [{
 *     ...jwk,
 *     kid: "buyer-1",
 *     alg: "EdDSA",
 *     use: "sig",
 *     key_ops: ["verify"],
 *     adcp_use: "request-signing",
 *   }],
 * });
 * const signed = await signer.signRequest(new Request("https://seller.example/adcp", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: "{}",
 * }));
 * const result = await verifier.verify(signed, { operation: "create_media_buy" });
 * strictEqual(result.authentication, "signature");
 * ```
 *
 * @module
 */
export * from "./errors.ts";
export * from "./external_types.ts";
export * from "./keys.ts";
export * from "./jwks.ts";
export * from "./agent_keys.ts";
export * from "./replay.ts";
export * from "./revocation.ts";
export * from "./canonicalize_target_uri.ts";
export * from "./sign.ts";
export * from "./verify_request.ts";
export * from "./verify_webhook.ts";
export type { HttpMessageParts } from "./_message.ts";
export {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_WEBHOOK_MAX_BODY_BYTES,
} from "./_message.ts";
export { REQUEST_SIGNING_TAG, WEBHOOK_SIGNING_TAG } from "./_profile.ts";
export type { SignatureAlgorithm } from "./_crypto.ts";
export type { KeysOption } from "./_options.ts";
