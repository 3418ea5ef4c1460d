/**
 * The project's answers to the RFC 9421 suites (`request-signing`, `webhook-signing`,
 * `target-uri-canonicalization`, `body-integrity-policy`), through the public API of
 * `@adcp-wire/signing` only. The request shapes are in `vectors/README.md`.
 *
 * - `request-signing` / `webhook-signing`: a {@link RequestVerifier} / {@link WebhookVerifier}
 *   over the vector's keys at its `now`, its `test_harness_state` preloaded through the public
 *   `InMemoryReplayStore` and `RevocationList` (a per-keyid cap "hit" is a store of cap
 *   {@link HARNESS_CAP} filled with that many placeholder nonces). With `sign`, the signer
 *   also signs the message with the given fixed parameters and replies the fields it produced.
 * - `target-uri-canonicalization`: `canonicalizeTargetUri`.
 * - `body-integrity-policy`: the facts become a real request (signed or not, digest covered or
 *   not, digest or signature corrupted as the facts say), verified by a real `RequestVerifier` in
 *   the named mode; the reply is the decision the verifier's result maps to.
 *
 * @module
 */
import { field, isObject } from "./_input.ts";
import {
  canonicalizeTargetUri,
  InMemoryReplayStore,
  RequestSigner,
  type RequestSigningCapability,
  RequestVerifier,
  RevocationList,
  type SignatureFields,
  SignatureVerificationError,
  StaticKeyResolver,
  TargetUriMalformedError,
  WebhookSigner,
  WebhookVerifier,
} from "@adcp-wire/signing";

/** The per-keyid cap of the harness's replay store. */
export const HARNESS_CAP = 16;

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function stringField(input: unknown, key: string, suite: string): string {
  const value = field(input, key);
  if (typeof value !== "string") throw new TypeError(`${suite}: ${key} must be a string`);
  return value;
}

function numberField(input: unknown, key: string, suite: string): number {
  const value = field(input, key);
  if (typeof value !== "number") throw new TypeError(`${suite}: ${key} must be a number`);
  return value;
}

/** The replay store and revocation list of a vector's `test_harness_state`. */
function harness(state: unknown, now: number, suite: string) {
  const replay = new InMemoryReplayStore({ maxEntriesPerKeyid: HARNESS_CAP });
  let revocation: RevocationList | undefined;
  // The vector's clock: a list is timed against the vector's now, not the machine's.
  const clock = () => now * 1000;
  if (state === undefined || state === null) return { replay, revocation };
  if (!isObject(state)) throw new TypeError(`${suite}: state must be an object`);
  const entries = field(state, "replay_cache_entries");
  if (Array.isArray(entries)) {
    for (const entry of entries) {
      const ttl = field(entry, "ttl_seconds");
      replay.insert(
        stringField(entry, "keyid", suite),
        stringField(entry, "nonce", suite),
        now + (typeof ttl === "number" ? ttl : 360),
        now,
      );
    }
  }
  const capHit = field(state, "replay_cache_per_keyid_cap_hit");
  const capped = isObject(capHit)
    ? field(capHit, "keyid")
    : field(state, "per_keyid_cap_filled_for");
  if (typeof capped === "string") {
    for (let i = 0; i < HARNESS_CAP; i++) replay.insert(capped, `placeholder-${i}`, now + 360, now);
  }
  const list = field(state, "revocation_list");
  if (isObject(list)) {
    revocation = new RevocationList({ now: clock });
    revocation.update(list as never, now);
  }
  const kids = field(state, "revoked_kids");
  if (Array.isArray(kids)) {
    revocation = new RevocationList({ now: clock });
    revocation.update({ updated: iso(now), next_update: iso(now + 900), revoked_kids: kids }, now);
  }
  const stale = field(state, "revocation_list_stale_seconds");
  if (typeof stale === "number") {
    revocation = new RevocationList({ now: clock });
    const at = now - stale;
    revocation.update({ updated: iso(at), next_update: iso(at + 900), revoked_kids: [] }, at);
  }
  return { replay, revocation };
}

/** The message parts of `input.request`. */
function requestOf(input: Record<string, unknown>, suite: string) {
  const request = field(input, "request");
  const headers = field(request, "headers");
  if (!isObject(headers)) throw new TypeError(`${suite}: request.headers must be an object`);
  return {
    method: stringField(request, "method", suite),
    url: stringField(request, "url", suite),
    headers: headers as Record<string, string>,
    body: stringField(request, "body", suite),
  };
}

/** Signs the message with the fixed parameters of `input.sign`, for the byte comparison. */
async function signAgain(
  input: Record<string, unknown>,
  message: ReturnType<typeof requestOf>,
  webhook: boolean,
  profile: "3.1" | "3.2",
  suite: string,
): Promise<Record<string, string> | undefined> {
  const sign = field(input, "sign");
  if (sign === undefined) return undefined;
  const key = field(sign, "key") as JsonWebKey;
  const options = {
    key,
    keyid: stringField(sign, "keyid", suite),
    alg: stringField(sign, "alg", suite) as "ed25519",
  };
  const overrides = {
    created: numberField(sign, "created", suite),
    expires: numberField(sign, "expires", suite),
    nonce: stringField(sign, "nonce", suite),
    components: field(sign, "components") as string[],
  };
  // The signer adds Content-Digest itself: hand it the headers without the signature fields.
  const headers = new Headers(message.headers);
  for (const name of ["signature", "signature-input", "content-digest"]) headers.delete(name);
  const parts = { ...message, headers };
  const fields: SignatureFields = webhook
    ? await new WebhookSigner(options).sign(parts, overrides)
    : await new RequestSigner({
      ...options,
      profile,
      coverContentDigest: true,
      ...(profile === "3.1" && field(sign, "digest_encoding") === "sf-binary"
        ? { legacyDigestEncoding: "sf-binary" as const }
        : {}),
    }).sign(
      parts,
      overrides,
    );
  return {
    signature_input: fields["Signature-Input"],
    signature: fields.Signature,
    ...(fields["Content-Digest"] === undefined ? {} : { content_digest: fields["Content-Digest"] }),
  };
}

/** `request-signing`: verify (and re-sign) one request. */
export async function answerRequestSigning(input: unknown): Promise<unknown> {
  const suite = "request-signing";
  if (!isObject(input)) throw new TypeError(`${suite}: input must be an object`);
  const now = numberField(input, "now", suite);
  const profile = field(input, "profile") === "3.2" ? "3.2" : "3.1";
  const message = requestOf(input, suite);
  const { replay, revocation } = harness(field(input, "state"), now, suite);
  const capability = field(input, "capability") as RequestSigningCapability | undefined;
  const verifier = new RequestVerifier({
    keys: new StaticKeyResolver(field(input, "jwks") as never),
    ...(capability === undefined ? {} : { capability }),
    profile,
    replay,
    revocation: revocation ?? null,
    now: () => now * 1000,
  });
  const operation = field(input, "operation");
  const result = await verifier.verify(message, {
    ...(typeof operation === "string" ? { operation } : {}),
    fallbackAuthenticated: field(input, "fallback_authenticated") === true,
  });
  const signed = await signAgain(input, message, false, profile, suite);
  return {
    verified: result.authentication === "signature",
    authentication: result.authentication,
    ...(result.signer === undefined
      ? {}
      : { keyid: result.signer.keyid, signature_base: result.signer.signatureBase }),
    ...(signed === undefined ? {} : { signed }),
  };
}

/** `webhook-signing`: verify (and re-sign) one webhook. */
export async function answerWebhookSigning(input: unknown): Promise<unknown> {
  const suite = "webhook-signing";
  if (!isObject(input)) throw new TypeError(`${suite}: input must be an object`);
  const now = numberField(input, "now", suite);
  const message = requestOf(input, suite);
  const { replay, revocation } = harness(field(input, "state"), now, suite);
  const verifier = new WebhookVerifier({
    keys: new StaticKeyResolver(field(input, "jwks") as never),
    replay,
    revocation: revocation ?? null,
    now: () => now * 1000,
  });
  const result = await verifier.verify(message);
  const signed = await signAgain(input, message, true, "3.1", suite);
  return {
    verified: true,
    keyid: result.signer.keyid,
    signature_base: result.signer.signatureBase,
    ...(signed === undefined ? {} : { signed }),
  };
}

/** `target-uri-canonicalization`: one URL. */
export function answerCanonicalization(input: unknown): unknown {
  const url = stringField(input, "url", "target-uri-canonicalization");
  const { targetUri, authority } = canonicalizeTargetUri(url);
  return { target_uri: targetUri, authority };
}

/** A fixed Ed25519 key pair of the body-integrity harness (generated once per process). */
let harnessKeys: Promise<{ privateKey: CryptoKey; jwk: JsonWebKey }> | undefined;

function keysOnce() {
  harnessKeys ??= (async () => {
    const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
      "sign",
      "verify",
    ]) as CryptoKeyPair;
    const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
    return { privateKey: pair.privateKey, jwk };
  })();
  return harnessKeys;
}

const MODES: Record<string, [keyof RequestSigningCapability, string]> = {
  supported_for: ["supported_for", "create_media_buy"],
  required_for: ["required_for", "create_media_buy"],
  warn_for: ["warn_for", "create_media_buy"],
  protocol_methods_supported_for: ["protocol_methods_supported_for", "tasks/cancel"],
  protocol_methods_required_for: ["protocol_methods_required_for", "tasks/cancel"],
  protocol_methods_warn_for: ["protocol_methods_warn_for", "tasks/cancel"],
};

/** `body-integrity-policy`: the facts as a real request, verified by a real verifier. */
export async function answerBodyIntegrity(input: unknown): Promise<unknown> {
  const suite = "body-integrity-policy";
  if (!isObject(input)) throw new TypeError(`${suite}: input must be an object`);
  const mode = MODES[stringField(input, "mode", suite)];
  if (mode === undefined) throw new TypeError(`${suite}: unknown mode`);
  const [list, name] = mode;
  const protocol = name.includes("/");
  const legacy = field(input, "endpoint_profile") === "3.1";
  const legacyPolicy = field(input, "legacy_digest_policy");
  const { privateKey, jwk } = await keysOnce();
  const now = 1_776_520_800;
  const capability: RequestSigningCapability = {
    covers_content_digest: legacy && typeof legacyPolicy === "string"
      ? legacyPolicy as "either"
      : "required",
    [list]: [name],
  };
  const verifier = new RequestVerifier({
    revocation: null,
    keys: [{
      ...jwk,
      kid: "harness",
      alg: "EdDSA",
      use: "sig",
      key_ops: ["verify"],
      adcp_use: "request-signing",
    }],
    capability,
    profile: legacy ? "3.1" : "3.2",
    now: () => now * 1000,
  });
  const hasBody = field(input, "has_body") === true;
  const version = field(input, "request_body_adcp_version");
  const body = !hasBody
    ? ""
    : protocol
    ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: name, params: { taskId: "t1" } })
    : JSON.stringify({
      plan_id: "p1",
      ...(typeof version === "string" ? { adcp_version: version } : {}),
    });
  const headers: Record<string, string> = hasBody ? { "content-type": "application/json" } : {};
  const message = { method: "POST", url: "https://seller.example.com/adcp", headers, body };
  if (field(input, "signature_present") === true) {
    const malformed = field(input, "signature_header_state") === "malformed_pair";
    const cover = field(input, "covers_content_digest") === true;
    const signer = new RequestSigner({
      key: privateKey,
      keyid: "harness",
      alg: "ed25519",
      profile: legacy ? "3.1" : "3.2",
      now: () => now * 1000,
      ...(legacy ? { coverContentDigest: cover } : {}),
    });
    const components = ["@method", "@target-uri", "@authority"];
    if (hasBody) components.push("content-type");
    if (hasBody && cover) components.push("content-digest");
    const fields = await signer.sign(message, { components });
    headers["signature-input"] = fields["Signature-Input"];
    headers["signature"] = fields.Signature;
    if (fields["Content-Digest"] !== undefined) {
      headers["content-digest"] = fields["Content-Digest"];
    }
    if (field(input, "cryptographic_signature_valid") === false) {
      // Another body and digest under the old signature: the signature no longer verifies.
      message.body = `${body} `;
      if (cover) {
        const digest = new Uint8Array(
          await crypto.subtle.digest("SHA-256", new TextEncoder().encode(message.body)),
        );
        const matches = field(input, "digest_matches_body") !== false;
        const bytes = matches ? digest : digest.map((b) => b ^ 0xff);
        const text = btoa(String.fromCharCode(...bytes));
        headers["content-digest"] = `sha-256=:${
          legacy ? text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : text
        }:`;
      }
    } else if (field(input, "digest_matches_body") === false) {
      message.body = `${body} `; // the body alone changed: the digest is stale
    }
    if (malformed) delete headers["signature-input"];
  }
  try {
    const result = await verifier.verify(message, {
      ...(protocol ? { protocolMethod: name } : { operation: name }),
      fallbackAuthenticated: field(input, "fallback_auth_valid") === true,
    });
    if (result.authentication === "signature") {
      return {
        action: "accept",
        authentication_source: "signature",
        verified_signer_identity: true,
      };
    }
    if (result.authentication === "fallback") {
      return {
        action: result.warning === undefined ? "accept" : "accept_with_warning",
        authentication_source: "fallback",
        verified_signer_identity: false,
      };
    }
    return { action: "reject_unauthenticated", verified_signer_identity: false };
  } catch (error) {
    if (error instanceof SignatureVerificationError) {
      return { action: "reject", error_code: error.code, verified_signer_identity: false };
    }
    throw error;
  }
}

/** Whether an error is one the signing suites reply as a code. */
export function signingErrorCode(error: unknown): string | undefined {
  if (error instanceof SignatureVerificationError) return error.code;
  if (error instanceof TargetUriMalformedError) return error.code;
  return undefined;
}
