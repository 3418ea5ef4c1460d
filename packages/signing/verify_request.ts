// Seller side: verifying an incoming AdCP request in one call (security.mdx, "Signed Requests
// (Transport Layer)"): the pre-checks, the capability modes and fallback composition, the
// 15-check checklist, and the body well-formedness of step 14.
import {
  checkOptionKeys,
  isJsonObject as isObject,
  optionError,
  optionKeys,
} from "@adcp-wire/internal";
import {
  type BodyLimits,
  bodyLimitsOf,
  DEFAULT_MAX_BODY_BYTES,
  type HttpMessageParts,
  readMessage,
} from "./_message.ts";
import { clockOf, keyResolverOf, type KeysOption, revocationOf } from "./_options.ts";
import { codeOf, REQUEST_PROFILE_3_1, REQUEST_PROFILE_3_2 } from "./_profile.ts";
import { parseBodyStrict, verifyCore } from "./_verify.ts";
import type { Profile } from "./_profile.ts";
import { type RequestSignatureErrorCode, SignatureVerificationError } from "./errors.ts";
import type { AdcpJwk, KeyResolver } from "./keys.ts";
import { InMemoryReplayStore, type ReplayStore } from "./replay.ts";
import type { RevocationSource } from "./revocation.ts";
import { agentUrlOption, type SignerIdentity, signerIdentityOf } from "./_signer_identity.ts";

const ACTION = "verify the request";

/**
 * The `request_signing` block a seller advertises on `get_adcp_capabilities`, which drives its
 * verifier. Operation names are AdCP operations (`create_media_buy`, no `/`); protocol methods are
 * JSON-RPC methods (`tasks/cancel`, with a `/`).
 */
export interface RequestSigningCapability {
  /** Signatures are verified when present; when `false`, they are ignored. Default `true`. */
  readonly supported?: boolean;
  /**
   * Content-digest posture. A 3.2 verifier requires coverage on every body (only `"required"` is
   * accepted); `"either"` (the default) and `"forbidden"` exist for a 3.0/3.1 endpoint.
   */
  readonly covers_content_digest?: "required" | "forbidden" | "either";
  /** Operations whose unsigned requests without another credential are rejected. */
  readonly required_for?: readonly string[];
  /** Operations whose signature failures are recorded, not enforced (shadow mode). */
  readonly warn_for?: readonly string[];
  /** Operations whose signatures are verified when present. */
  readonly supported_for?: readonly string[];
  /** JSON-RPC methods whose unsigned requests without another credential are rejected. */
  readonly protocol_methods_required_for?: readonly string[];
  /** JSON-RPC methods in shadow mode. */
  readonly protocol_methods_warn_for?: readonly string[];
  /** JSON-RPC methods whose signatures are verified when present. */
  readonly protocol_methods_supported_for?: readonly string[];
}

/** How a {@link RequestVerifier} verifies. */
export interface RequestVerifierOptions {
  /** Where keys come from: a {@link KeyResolver} (such as `JwksResolver`) or a fixed set. */
  readonly keys: KeysOption;
  /**
   * The `url` of the brand.json `agents[]` entry the keys belong to: `signer.agentUrl` and
   * `signer.senderId` of every verification. Needed for a custom {@link KeyResolver} that names
   * no agent; a `JwksResolver` or `StaticKeyResolver` made with `agentUrl` names its own (both
   * given must be equal). Without any, see {@link VerifiedSigner.senderId}.
   */
  readonly agentUrl?: string;
  /** The advertised capability. Default: supported, nothing required. */
  readonly capability?: RequestSigningCapability;
  /**
   * The signing profile of this endpoint: `"3.2"` (default: RFC 8941 Base64, content-digest on
   * every body) or `"3.1"` (an explicitly configured 3.0/3.1 compatibility endpoint: legacy
   * Base64URL, `covers_content_digest` as advertised). Never chosen from the request itself.
   */
  readonly profile?: "3.2" | "3.1";
  /**
   * The replay cache. Default: in memory, 250,000 entries per keyid and per signer (whatever
   * number of keyids it publishes), 1,000,000 in all.
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
  /** Longest body read, in bytes. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Deadline for reading a `Request` body, in milliseconds. Default 10,000. */
  readonly bodyTimeoutMs?: number;
}

/** What one call of {@link RequestVerifier.verify} is told about the request. */
export interface VerifyRequestOptions {
  /**
   * The AdCP operation the request invokes. Default: read from a JSON-RPC `tools/call` body
   * (`params.name`); pass it for other transports (A2A, REST-style routes).
   */
  readonly operation?: string;
  /** The JSON-RPC method (`tasks/cancel`). Default: read from a JSON-RPC body. */
  readonly protocolMethod?: string;
  /**
   * Whether the caller presented another credential the seller accepts for this operation (a
   * valid bearer token, API key or mTLS identity). Default `false`.
   */
  readonly fallbackAuthenticated?: boolean;
  /** The HTTP/2+ `:authority` pseudo-header, when your server exposes it. */
  readonly authority?: string;
  /** Aborts a key fetch. */
  readonly signal?: AbortSignal;
}

/** The keys of {@link RequestSigningCapability}: a top-level one is suggested there. */
const CAPABILITY_KEYS = optionKeys<RequestSigningCapability>({
  supported: true,
  covers_content_digest: true,
  required_for: true,
  warn_for: true,
  supported_for: true,
  protocol_methods_required_for: true,
  protocol_methods_warn_for: true,
  protocol_methods_supported_for: true,
});

/** The keys of {@link RequestVerifierOptions}. */
const REQUEST_VERIFIER_KEYS = optionKeys<RequestVerifierOptions>({
  keys: true,
  agentUrl: true,
  capability: true,
  profile: true,
  replay: true,
  revocation: true,
  now: true,
  maxBodyBytes: true,
  bodyTimeoutMs: true,
});

/** The keys of {@link VerifyRequestOptions}, checked on every call (a precomputed set). */
const VERIFY_REQUEST_KEYS = optionKeys<VerifyRequestOptions>({
  operation: true,
  protocolMethod: true,
  fallbackAuthenticated: true,
  authority: true,
  signal: true,
});

/**
 * The signer a verified signature established: the agent whose keys verified it, and step 7's
 * keyid and key. Spec: security.mdx, "Agent identity" (`verified_signer: { keyid, agent_url,
 * verified_at }`; `agent_url` comes from the key source the verifier configured, never from the
 * message) and webhooks.mdx, "Dedup by `idempotency_key`" (the sender identity is the resolved
 * `keyid` → signer `agents[]` entry URL).
 */
export interface VerifiedSigner {
  /**
   * The `url` of the brand.json `agents[]` entry whose keys verified the signature: the
   * verifier's `agentUrl` option, or its key source's (`JwksResolver.forAgent`, a resolver or
   * key set made with `agentUrl`). Absent when the configuration names no agent.
   */
  readonly agentUrl?: string;
  /**
   * The identity to dedup and budget by (`WebhookDedup`'s `sender`, the replay store's
   * `signer`): `agentUrl` when known; else `jwks:` and the JWKS URL for a `JwksResolver`, or
   * `keys:sha-256:` and a digest of the public key material for a fixed key set (one configured
   * set, one sender). Never the `keyid`: one seller can publish 1,000 of them. A custom
   * `KeyResolver` that names no agent (no `agentUrl`, no `jwksUri`) needs the verifier's
   * `agentUrl` option: without it a signature that passes step 8 throws a `TypeError`.
   */
  readonly senderId: string;
  /** The `keyid` the signature named and the JWKS resolved. */
  readonly keyid: string;
  /** The RFC 9421 algorithm. */
  readonly alg: "ed25519" | "ecdsa-p256-sha256";
  /** The public key that verified. */
  readonly jwk: AdcpJwk;
  /** Unix seconds. */
  readonly created: number;
  /** Unix seconds. */
  readonly expires: number;
  /** The nonce, now burned in the replay cache. */
  readonly nonce: string;
  /** When verification succeeded, Unix seconds. */
  readonly verifiedAt: number;
  /** The covered components, in order. */
  readonly components: readonly string[];
  /** The RFC 9421 signature base that verified. */
  readonly signatureBase: string;
}

/**
 * The signature layer's answer for an accepted request. `authentication` says what
 * authenticated it: `"signature"` (a verified signer), `"fallback"` (the other credential the
 * caller presented), or `"none"`: nothing did, so reject it unless the operation needs no
 * authentication. A `warning` is a shadow-mode (`warn_for`) failure to record: it establishes no
 * signer.
 */
export interface RequestVerification {
  /** What authenticated the request. */
  readonly authentication: "signature" | "fallback" | "none";
  /** The verified signer, with `authentication: "signature"` only. */
  readonly signer?: VerifiedSigner;
  /** The code of a shadow-mode failure or a missing signature on a `warn_for` operation. */
  readonly warning?: RequestSignatureErrorCode;
  /** The body bytes, read once: use them, not the consumed `Request`. */
  readonly body: Uint8Array;
  /** The JSON body, parsed strictly (step 14), on a verified JSON request. */
  readonly payload?: unknown;
  /** The AdCP operation the decision was made for, when known. */
  readonly operation?: string;
  /** The JSON-RPC method the decision was made for, when known. */
  readonly protocolMethod?: string;
}

type Mode = "required" | "warn" | "supported" | "none";

/** The step-14 error in the endpoint's profile (the parse ran under the 3.2 codes: same names). */
function parseBodyError(
  profile: Profile,
  error: SignatureVerificationError,
): SignatureVerificationError {
  return new SignatureVerificationError(
    codeOf(profile, "body_malformed"),
    14,
    "duplicate object keys or not JSON",
    { cause: error },
  );
}

function nameList(value: unknown, name: string, protocol: boolean): ReadonlySet<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw optionError(TypeError, "create the request verifier", name, "an array of strings", value);
  }
  for (const entry of value) {
    if (entry.includes("/") !== protocol) {
      throw optionError(
        RangeError,
        "create the request verifier",
        name,
        protocol
          ? "JSON-RPC method names (with a '/'), not AdCP operations"
          : "AdCP operation names (no '/'), not JSON-RPC methods",
        value,
      );
    }
  }
  return new Set(value);
}

/** A body parsed strictly once: its value, or the step-14 error it gives. */
type ParsedBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: SignatureVerificationError };

/**
 * Every non-empty body parsed as strict JSON, whatever its `Content-Type` says (AdCP bodies are
 * JSON; a body that does not parse strictly is one no rule here can classify safely).
 */
function parseBody(body: Uint8Array): ParsedBody {
  if (body.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: parseBodyStrict(REQUEST_PROFILE_3_2, body) };
  } catch (error) {
    return { ok: false, error: error as SignatureVerificationError };
  }
}

/** The AdCP operations (`tools/call` names) and JSON-RPC methods a body invokes, batch or not. */
function invocations(value: unknown): { tools: string[]; methods: string[] } {
  const tools: string[] = [];
  const methods: string[] = [];
  for (const call of Array.isArray(value) ? value : [value]) {
    if (!isObject(call) || call.jsonrpc !== "2.0" || typeof call.method !== "string") continue;
    const params = isObject(call.params) ? call.params : undefined;
    if (call.method === "tools/call") {
      if (typeof params?.name === "string") tools.push(params.name);
    } else methods.push(call.method);
  }
  return { tools, methods };
}

/**
 * Whether a payload carries a legacy webhook `authentication` block (on a
 * `push_notification_config`, or a `notification_configs[]` entry), at any depth and inside
 * arrays (a JSON-RPC batch, an A2A message): such a request must be signed on a signing-capable
 * seller, whatever `required_for` says (security.mdx, "Downgrade and injection resistance"). The
 * walk is iterative; its size is the parsed value's, which the strict parser bounds.
 *
 * @param value A parsed request body, or a part of one.
 * @returns Whether signing is required for this request.
 *
 * @example Detecting a legacy webhook credential
 * ```ts
 * import { carriesWebhookAuthentication } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(carriesWebhookAuthentication({
 *   push_notification_config: {
 *     url: "https://buyer.example/h",
 *     authentication: { credentials: "x" },
 *   },
 * }), true);
 * const plain = { push_notification_config: { url: "https://buyer.example/h" } };
 * strictEqual(carriesWebhookAuthentication(plain), false);
 * ```
 */
export function carriesWebhookAuthentication(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null) continue;
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    const record = current as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (key === "push_notification_config" && isObject(child) && hasAuthentication(child)) {
        return true;
      }
      if (key === "notification_configs" && Array.isArray(child)) {
        if (child.some((entry) => isObject(entry) && hasAuthentication(entry))) return true;
      }
      stack.push(child);
    }
  }
  return false;
}

function hasAuthentication(config: Record<string, unknown>): boolean {
  return Object.hasOwn(config, "authentication") && config.authentication !== null &&
    config.authentication !== undefined;
}

/**
 * Verifies incoming AdCP requests the way a seller's `request_signing` capability promises: an
 * unsigned request to a `required_for` operation without another credential is
 * `request_signature_required`; a signed one goes through the 15 checks of the request verifier
 * checklist, in order; a half-signed or malformed one is always rejected, never downgraded to
 * bearer. The codes are in docs/signing.md, "Rejection codes".
 *
 * @example Verifying a signed request
 * ```ts
 * import { RequestSigner, RequestVerifier } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
 *   "sign",
 *   "verify",
 * ]) as CryptoKeyPair;
 * const jwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
 * const signer = new RequestSigner({ key: pair.privateKey, keyid: "k1", alg: "ed25519" });
 * const verifier = new RequestVerifier({
 *   revocation: null,
 *   keys: [{
 *     ...jwk,
 *     kid: "k1",
 *     alg: "EdDSA",
 *     use: "sig",
 *     key_ops: ["verify"],
 *     adcp_use: "request-signing",
 *   }],
 *   agentUrl: "https://buyer.example/agent", // the agents[] entry these keys belong to
 *   capability: { covers_content_digest: "required", required_for: ["create_media_buy"] },
 * });
 * const request = await signer.signRequest(new Request("https://seller.example/mcp", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy"}}',
 * }));
 * const result = await verifier.verify(request);
 * strictEqual(result.authentication, "signature");
 * strictEqual(result.signer?.keyid, "k1");
 * strictEqual(result.signer?.agentUrl, "https://buyer.example/agent");
 * strictEqual(result.signer?.senderId, "https://buyer.example/agent");
 * strictEqual(result.operation, "create_media_buy");
 * ```
 */
export class RequestVerifier {
  readonly #keys: KeyResolver;
  readonly #identity: () => Promise<SignerIdentity>;
  readonly #replay: ReplayStore;
  readonly #revocation: RevocationSource | undefined;
  readonly #now: () => number;
  readonly #body: BodyLimits;
  readonly #legacy: boolean;
  readonly #digest: "required" | "forbidden" | "either";
  readonly #supported: boolean;
  readonly #ops: Readonly<Record<"required" | "warn" | "supported", ReadonlySet<string>>>;
  readonly #methods: Readonly<Record<"required" | "warn" | "supported", ReadonlySet<string>>>;

  /**
   * Makes a verifier.
   *
   * @param options Keys, capability, profile, state and clock.
   * @throws {TypeError} When an option has the wrong type or an unknown name (a capability field
   * at the top level is suggested under `capability`).
   * @throws {RangeError} When a capability list mixes the operation and method namespaces, or a
   * 3.2 endpoint advertises a digest posture other than `"required"`.
   *
   * @example A 3.2 endpoint must require content-digest coverage
   * ```ts
   * import { RequestVerifier } from "@adcp-wire/signing";
   * import { throws } from "node:assert/strict";
   *
   * throws(
   *   () =>
   *     new RequestVerifier({
   *       keys: [],
   *       revocation: null,
   *       capability: { covers_content_digest: "either" },
   *     }),
   *   RangeError,
   * );
   * ```
   */
  constructor(options: RequestVerifierOptions) {
    if (typeof options !== "object" || options === null) {
      throw optionError(TypeError, "create the request verifier", "options", "an object", options);
    }
    const action = "create the request verifier";
    checkOptionKeys(action, "options", options, REQUEST_VERIFIER_KEYS, {
      capability: CAPABILITY_KEYS,
    });
    this.#keys = keyResolverOf(options.keys, action);
    this.#identity = signerIdentityOf(
      this.#keys,
      agentUrlOption(options.agentUrl, action, "agentUrl"),
      action,
      ACTION,
    );
    this.#replay = options.replay ?? new InMemoryReplayStore();
    this.#revocation = revocationOf(options.revocation, action);
    this.#now = clockOf(options.now, action);
    this.#body = bodyLimitsOf(options, action, DEFAULT_MAX_BODY_BYTES);
    const profile = options.profile ?? "3.2";
    if (profile !== "3.2" && profile !== "3.1") {
      throw optionError(RangeError, action, "profile", '"3.2" or "3.1"', profile);
    }
    this.#legacy = profile === "3.1";
    const capability = options.capability ?? {};
    if (typeof capability !== "object" || capability === null) {
      throw optionError(TypeError, action, "capability", "an object", capability);
    }
    const digest = capability.covers_content_digest ?? (this.#legacy ? "either" : "required");
    if (!["required", "forbidden", "either"].includes(digest)) {
      throw optionError(
        RangeError,
        action,
        "capability.covers_content_digest",
        '"required", "forbidden" or "either"',
        digest,
      );
    }
    if (!this.#legacy && digest !== "required") {
      throw optionError(
        RangeError,
        action,
        "capability.covers_content_digest",
        '"required" on a 3.2 endpoint (legacy postures need profile "3.1")',
        digest,
      );
    }
    this.#digest = digest;
    this.#supported = capability.supported !== false;
    this.#ops = {
      required: nameList(capability.required_for, "capability.required_for", false),
      warn: nameList(capability.warn_for, "capability.warn_for", false),
      supported: nameList(capability.supported_for, "capability.supported_for", false),
    };
    this.#methods = {
      required: nameList(
        capability.protocol_methods_required_for,
        "capability.protocol_methods_required_for",
        true,
      ),
      warn: nameList(
        capability.protocol_methods_warn_for,
        "capability.protocol_methods_warn_for",
        true,
      ),
      supported: nameList(
        capability.protocol_methods_supported_for,
        "capability.protocol_methods_supported_for",
        true,
      ),
    };
  }

  /** The strictest mode any of the operations or methods is under. */
  #mode(operations: readonly string[], methods: readonly string[]): Mode {
    for (const mode of ["required", "warn", "supported"] as const) {
      if (operations.some((o) => this.#ops[mode].has(o))) return mode;
      if (methods.some((m) => this.#methods[mode].has(m))) return mode;
    }
    return "none";
  }

  /**
   * Verifies one request. The body is read once (at most `maxBodyBytes`) and returned.
   *
   * @param input A standard `Request` (its body is consumed) or the message parts.
   * @param options What the caller knows: the operation, another credential, `:authority`.
   * @returns What authenticated the request.
   * @throws {SignatureVerificationError} With the spec's code: the request must be rejected
   * (answer 401 with `error.wwwAuthenticate`).
   * @throws {BodyTooLargeError} When the body exceeds `maxBodyBytes`.
   * @throws {TypeError} When `input` is neither a Request nor message parts, or `options` has an
   * unknown key (checked before the body is read).
   *
   * @example An unsigned request to a required operation
   * ```ts
   * import { RequestVerifier, SignatureVerificationError } from "@adcp-wire/signing";
   * import { rejects, strictEqual } from "node:assert/strict";
   *
   * const verifier = new RequestVerifier({
   *   revocation: null,
   *   keys: [],
   *   capability: { required_for: ["create_media_buy"] },
   * });
   * const unsigned = { method: "POST", url: "https://seller.example/adcp", body: "{}" };
   * await rejects(
   *   verifier.verify(unsigned, { operation: "create_media_buy" }),
   *   (e) => e instanceof SignatureVerificationError && e.code === "request_signature_required",
   * );
   * const ok = await verifier.verify(unsigned, {
   *   operation: "create_media_buy",
   *   fallbackAuthenticated: true,
   * });
   * strictEqual(ok.authentication, "fallback");
   * ```
   */
  async verify(
    input: Request | HttpMessageParts,
    options: VerifyRequestOptions = {},
  ): Promise<RequestVerification> {
    const message = await readMessage(input, options, VERIFY_REQUEST_KEYS, this.#body, ACTION);
    const fallback = options.fallbackAuthenticated === true;
    const inputField = message.headers.get("signature-input");
    const signatureField = message.headers.get("signature");
    const profile = this.#legacy ? REQUEST_PROFILE_3_1 : REQUEST_PROFILE_3_2;
    const parsed = parseBody(message.body);
    const found = invocations(parsed.ok ? parsed.value : undefined);
    // Cross-namespace rule: a JSON-RPC body's tool name counts only under tools/call.
    const operations = options.operation !== undefined ? [options.operation] : found.tools;
    const methods = options.protocolMethod !== undefined ? [options.protocolMethod] : found.methods;
    const operation = operations[0];
    const protocolMethod = methods[0];
    const base = {
      body: message.body,
      ...(operation === undefined ? {} : { operation }),
      ...(protocolMethod === undefined ? {} : { protocolMethod }),
    };
    const unauthenticated = fallback ? "fallback" : "none";
    if (!this.#supported) return { authentication: unauthenticated, ...base };
    if ((inputField === null) !== (signatureField === null)) {
      throw new SignatureVerificationError(
        codeOf(profile, "header_malformed"),
        1,
        "Signature and Signature-Input must come together",
      );
    }
    const mode = this.#mode(operations, methods);
    const authenticationBlock = parsed.ok && carriesWebhookAuthentication(parsed.value);
    if (inputField === null || signatureField === null) {
      if (!parsed.ok) {
        throw new SignatureVerificationError(
          "request_body_malformed",
          0,
          "an unsigned body that does not parse strictly cannot be classified",
          { cause: parsed.error },
        );
      }
      if (authenticationBlock) {
        throw new SignatureVerificationError(
          "request_signature_required",
          0,
          "a webhook authentication block requires a signed request",
        );
      }
      if (mode === "required" && !fallback) {
        throw new SignatureVerificationError(
          "request_signature_required",
          0,
          "unsigned request to a required operation",
        );
      }
      return {
        authentication: unauthenticated,
        ...(mode === "warn" ? { warning: "request_signature_required" as const } : {}),
        ...base,
      };
    }
    const now = this.#now() / 1000;
    try {
      const result = await verifyCore(message, inputField, signatureField, {
        profile,
        keys: this.#keys,
        replay: this.#replay,
        revocation: this.#revocation,
        now,
        legacyDigest: this.#legacy ? this.#digest : undefined,
        label: "sig1",
        signal: options.signal,
        identity: this.#identity,
      });
      // Step 14, never shadowed: the signature is valid, the body is ambiguous.
      if (!parsed.ok) throw parseBodyError(profile, parsed.error);
      return {
        authentication: "signature",
        signer: { ...result, verifiedAt: now },
        ...(message.body.length === 0 ? {} : { payload: parsed.value }),
        ...base,
      };
    } catch (error) {
      // Shadow mode records well-formed verification failures, unless the body carries a webhook
      // authentication block (which must be signed) or cannot be classified at all.
      if (
        mode === "warn" && error instanceof SignatureVerificationError &&
        error.code !== "request_signature_header_malformed" &&
        error.code !== "request_body_malformed" && parsed.ok
      ) {
        if (authenticationBlock) {
          throw new SignatureVerificationError(
            "request_signature_required",
            0,
            "a webhook authentication block requires a verified signature",
            { cause: error },
          );
        }
        return {
          authentication: unauthenticated,
          warning: error.code as RequestSignatureErrorCode,
          ...base,
        };
      }
      throw error;
    }
  }
}
