// Signers: a buyer signing its AdCP requests, a seller signing its webhooks (security.mdx, "AdCP
// RFC 9421 profile", "Webhook callbacks"). One engine, two profiles.
import { checkOptionKeys, optionError, optionKeys } from "@adcp-wire/internal";
import { type BinaryEncoding, encodeBinary } from "./_binary.ts";
import {
  ALGORITHMS,
  digestOf,
  privateKeyOf,
  type SignatureAlgorithm,
  signBytes,
  signingKeyProblem,
} from "./_crypto.ts";
import { SigningFailedError, type SigningFailurePhase } from "./errors.ts";
import type { HttpMessageParts } from "./_message.ts";
import { clockOf } from "./_options.ts";
import {
  type Profile,
  REQUEST_PROFILE_3_1,
  REQUEST_PROFILE_3_2,
  WEBHOOK_PROFILE,
} from "./_profile.ts";
import { type InnerList, serializeInnerList, sfInteger, sfString } from "./_structured_fields.ts";
import { isMultiValued, MAX_VALIDITY_S, signatureBase } from "./_verify.ts";
import { canonicalizeTargetUri } from "./canonicalize_target_uri.ts";

/** How a signer signs. */
export interface SignerOptions {
  /**
   * The private key: a Web Crypto `CryptoKey` of type `private` with the `sign` usage, or a
   * private JWK (`d` present), imported on first use. Either must be of `alg`'s algorithm:
   * Ed25519 (JWK `kty: "OKP"`, `crv: "Ed25519"`) or ECDSA on P-256 (`kty: "EC"`,
   * `crv: "P-256"`); a JWK's optional `alg` and `use` must agree (`EdDSA`/`ES256`, `sig`; its
   * `key_ops` is not read, as the published entry with `d` added says `verify`). Checked when the
   * signer is made.
   */
  readonly key: CryptoKey | JsonWebKey;
  /** The `kid` of the matching public key in the agent's JWKS. */
  readonly keyid: string;
  /** `ed25519` (JWK `EdDSA`) or `ecdsa-p256-sha256` (JWK `ES256`). */
  readonly alg: SignatureAlgorithm;
  /** Seconds from `created` to `expires`: 1 to 300, default 300. */
  readonly validitySeconds?: number;
  /** The clock, in milliseconds since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** Options of a {@link RequestSigner}. */
export interface RequestSignerOptions extends SignerOptions {
  /**
   * The seller endpoint's signing profile: `"3.2"` (default: RFC 8941 Base64) or `"3.1"` (a
   * negotiated 3.0/3.1 endpoint: legacy unpadded Base64URL).
   */
  readonly profile?: "3.2" | "3.1";
  /**
   * Whether a body's `content-digest` is covered. Default `true`; `false` is accepted only on a
   * `"3.1"` endpoint that advertises `covers_content_digest: "forbidden"`.
   */
  readonly coverContentDigest?: boolean;
  /**
   * How a `"3.1"` endpoint's `Content-Digest` is spelled: `"base64url"` (default; the legacy
   * override as the 3.2 spec describes it) or `"sf-binary"` (what 3.1.19-era signers and
   * upstream's 3.1.19 fixtures wrote). Verifiers accept both on a 3.1 endpoint.
   */
  readonly legacyDigestEncoding?: "base64url" | "sf-binary";
}

/** Per-signature overrides: conformance tests and replays of fixed inputs. */
export interface SignOverrides {
  /** Unix seconds. Default: now. */
  readonly created?: number;
  /** Unix seconds. Default: `created + validitySeconds`. */
  readonly expires?: number;
  /** The nonce: unpadded Base64URL of 16+ bytes. Default: 16 random bytes. */
  readonly nonce?: string;
  /** The covered components, in order. Default: the profile's set for the message. */
  readonly components?: readonly string[];
}

/** The fields a signer adds to a message. */
export interface SignatureFields {
  /** The `Signature-Input` value (label `sig1`). */
  readonly "Signature-Input": string;
  /** The `Signature` value. */
  readonly Signature: string;
  /** The `Content-Digest` value, when the body's digest is covered. */
  readonly "Content-Digest"?: string;
}

/** The keys of {@link SignerOptions}, for the key sets of both signers. */
const SIGNER_FLAGS = {
  key: true,
  keyid: true,
  alg: true,
  validitySeconds: true,
  now: true,
} as const satisfies { readonly [K in keyof Required<SignerOptions>]: true };

/** The keys of {@link SignerOptions} (a {@link WebhookSigner}'s). */
const SIGNER_KEYS = optionKeys<SignerOptions>(SIGNER_FLAGS);

/** The keys of {@link RequestSignerOptions}. */
const REQUEST_SIGNER_KEYS = optionKeys<RequestSignerOptions>({
  ...SIGNER_FLAGS,
  profile: true,
  coverContentDigest: true,
  legacyDigestEncoding: true,
});

/** The keys of {@link SignOverrides}. */
const SIGN_OVERRIDES_KEYS = optionKeys<SignOverrides>({
  created: true,
  expires: true,
  nonce: true,
  components: true,
});

const NONCE = /^[A-Za-z0-9_-]{22,256}$/;
const SF_STRING = /^[\x20-\x7e]{1,256}$/;

function randomNonce(): string {
  return encodeBinary(crypto.getRandomValues(new Uint8Array(16)), "base64url");
}

/** The engine of both signers. */
class Signer {
  readonly #profile: Profile;
  readonly #keyid: string;
  readonly #alg: SignatureAlgorithm;
  readonly #validity: number;
  readonly #now: () => number;
  readonly #coverDigest: boolean;
  readonly #digestEncoding: BinaryEncoding;
  readonly #action: string;
  #key: Promise<CryptoKey>;

  constructor(
    profile: Profile,
    options: SignerOptions,
    coverDigest: boolean,
    action: string,
    digestEncoding: BinaryEncoding = profile.digestEncodings[0]!,
  ) {
    this.#profile = profile;
    this.#digestEncoding = digestEncoding;
    this.#action = action;
    if (typeof options.keyid !== "string" || !SF_STRING.test(options.keyid)) {
      throw optionError(
        TypeError,
        action,
        "keyid",
        "1 to 256 printable ASCII characters",
        options.keyid,
      );
    }
    if (!ALGORITHMS.has(options.alg)) {
      throw optionError(RangeError, action, "alg", '"ed25519" or "ecdsa-p256-sha256"', options.alg);
    }
    const validity = options.validitySeconds ?? MAX_VALIDITY_S;
    if (!Number.isSafeInteger(validity) || validity < 1 || validity > MAX_VALIDITY_S) {
      throw optionError(
        typeof validity === "number" ? RangeError : TypeError,
        action,
        "validitySeconds",
        "an integer from 1 to 300",
        validity,
      );
    }
    this.#keyid = options.keyid;
    this.#alg = options.alg;
    this.#validity = validity;
    this.#now = clockOf(options.now, action);
    this.#coverDigest = coverDigest;
    // A key that cannot sign is refused here, not on every request after it: a public key, one
    // without the `sign` usage, or one of another algorithm or curve than `alg`.
    const key = options.key;
    const problem = signingKeyProblem(key, this.#alg);
    if (problem !== undefined) {
      throw optionError(TypeError, action, problem.member, problem.requirement, problem.value);
    }
    if (typeof CryptoKey !== "undefined" && key instanceof CryptoKey) {
      this.#key = Promise.resolve(key);
    } else {
      this.#key = privateKeyOf(key as JsonWebKey, this.#alg);
      this.#key.catch(() => {});
    }
  }

  /** Runs one Web Crypto step; whatever it throws becomes a {@link SigningFailedError}. */
  async #crypto<T>(phase: SigningFailurePhase, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      throw new SigningFailedError({ phase, keyid: this.#keyid, alg: this.#alg }, {
        cause: error,
      });
    }
  }

  async sign(message: HttpMessageParts, overrides: SignOverrides = {}): Promise<SignatureFields> {
    const action = this.#action;
    if (typeof message !== "object" || message === null || typeof message.url !== "string") {
      throw optionError(TypeError, action, "message", "message parts with a url", message);
    }
    checkOptionKeys(action, "overrides", overrides, SIGN_OVERRIDES_KEYS);
    const method = String(message.method).toUpperCase();
    const headers = new Headers(message.headers);
    const rawBody = message.body ?? new Uint8Array(0);
    const body = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : rawBody;
    const target = canonicalizeTargetUri(message.url);
    const hasBody = body.length > 0;
    const created = overrides.created ?? Math.floor(this.#now() / 1000);
    const expires = overrides.expires ?? created + this.#validity;
    const nonce = overrides.nonce ?? randomNonce();
    if (!Number.isSafeInteger(created) || !Number.isSafeInteger(expires) || expires <= created) {
      throw optionError(RangeError, action, "expires", "an integer after created", expires);
    }
    if (!NONCE.test(nonce)) {
      throw optionError(TypeError, action, "nonce", "unpadded Base64URL of 16+ bytes", nonce);
    }
    const webhook = this.#profile.kind === "webhook";
    const components = overrides.components ?? [
      "@method",
      "@target-uri",
      "@authority",
      ...(hasBody || webhook ? ["content-type"] : []),
      ...((hasBody && this.#coverDigest) || webhook ? ["content-digest"] : []),
    ];
    let digest: string | undefined;
    if (components.includes("content-digest")) {
      const bytes = await this.#crypto("digest", () => digestOf("sha-256", body));
      digest = `sha-256=:${encodeBinary(bytes, this.#digestEncoding)}:`;
      headers.set("content-digest", digest);
    }
    const contentType = headers.get("content-type");
    if (
      components.includes("content-type") && (contentType === null || isMultiValued(contentType))
    ) {
      throw optionError(
        TypeError,
        action,
        "message.headers",
        "one Content-Type for a body",
        contentType,
      );
    }
    const list: InnerList = {
      kind: "inner_list",
      items: components.map((name) => ({ kind: "item", value: sfString(name), params: new Map() })),
      params: new Map([
        ["created", sfInteger(created)],
        ["expires", sfInteger(expires)],
        ["nonce", sfString(nonce)],
        ["keyid", sfString(this.#keyid)],
        ["alg", sfString(this.#alg)],
        ["tag", sfString(this.#profile.tag)],
      ]),
    };
    const params = serializeInnerList(list);
    const values = components.map((name) => {
      if (name === "@method") return method;
      if (name === "@target-uri") return target.targetUri;
      if (name === "@authority") return target.authority;
      const value = headers.get(name);
      if (value === null) {
        throw optionError(TypeError, action, "message.headers", `a ${name} field to cover`, null);
      }
      return value;
    });
    const base = new TextEncoder().encode(signatureBase(components, values, params));
    const key = await this.#crypto("import", () => this.#key);
    const signature = await this.#crypto("sign", () => signBytes(this.#alg, key, base));
    return {
      "Signature-Input": `sig1=${params}`,
      Signature: `sig1=:${encodeBinary(signature, this.#profile.signatureEncoding)}:`,
      ...(digest === undefined ? {} : { "Content-Digest": digest }),
    };
  }

  async signRequest(request: Request, overrides?: SignOverrides): Promise<Request> {
    if (!(request instanceof Request)) {
      throw optionError(TypeError, this.#action, "request", "a Request", request);
    }
    // Checked before the body is read.
    checkOptionKeys(this.#action, "overrides", overrides, SIGN_OVERRIDES_KEYS);
    const body = new Uint8Array(await request.clone().arrayBuffer());
    const fields = await this.sign(
      { method: request.method, url: request.url, headers: request.headers, body },
      overrides,
    );
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(fields)) headers.set(name, value);
    return new Request(request, { headers, ...(body.length > 0 ? { body } : {}) });
  }
}

/**
 * Signs AdCP requests (a buyer agent, or a seller calling an agent-side AdCP endpoint) under
 * `adcp/request-signing/v1`: `@method`, `@target-uri`, `@authority`, and on a body
 * `content-type` and `content-digest`, with `created`, `expires` (at most 300 s later), a
 * 128-bit nonce, `keyid`, `alg` and `tag`. Serialize the body once and sign those bytes:
 * {@link RequestSigner.signRequest} signs a `Request` as it will be sent.
 *
 * @example Signing with a fixed clock
 * ```ts
 * import { RequestSigner } from "@adcp-wire/signing";
 * import { match, ok } from "node:assert/strict";
 *
 * const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
 *   "sign",
 *   "verify",
 * ]) as CryptoKeyPair;
 * const signer = new RequestSigner({
 *   key: privateKey,
 *   keyid: "buyer-2026",
 *   alg: "ed25519",
 *   now: () => 1_776_520_800_000,
 * });
 * const fields = await signer.sign({
 *   method: "POST",
 *   url: "https://seller.example/mcp",
 *   headers: { "content-type": "application/json" },
 *   body: "{}",
 * });
 * match(fields["Signature-Input"], /^sig1=\("@method" "@target-uri" "@authority" "content-type"/);
 * match(fields["Signature-Input"], /"content-digest"\);created=1776520800;expires=1776521100;/);
 * ok(fields["Content-Digest"]?.startsWith("sha-256=:"));
 * ```
 */
export class RequestSigner {
  readonly #signer: Signer;

  /**
   * Makes a signer.
   *
   * @param options Key, keyid, algorithm, endpoint profile.
   * @throws {TypeError} When the key, keyid or an option has the wrong type, an option has an
   * unknown name (the message names the nearest option), or the key cannot
   * sign under `alg` (a public key, no `sign` usage, another algorithm or curve); the message
   * names the member (`key.type`, `key.usages`, `key.algorithm`, `key.crv`, ...).
   * @throws {RangeError} When `alg` is not allowed, the validity exceeds 300 s, or a 3.2 signer
   * is asked not to cover content-digest.
   *
   * @example A 3.2 signer always binds the body
   * ```ts
   * import { RequestSigner } from "@adcp-wire/signing";
   * import { throws } from "node:assert/strict";
   *
   * const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
   *   "sign",
   *   "verify",
   * ]) as CryptoKeyPair;
   * const unbound = { key: privateKey, keyid: "k", alg: "ed25519" } as const;
   * throws(() => new RequestSigner({ ...unbound, coverContentDigest: false }), RangeError);
   * ```
   *
   * @example A key that cannot sign is refused at once
   * ```ts
   * import { RequestSigner } from "@adcp-wire/signing";
   * import { throws } from "node:assert/strict";
   *
   * const { publicKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
   *   "sign",
   *   "verify",
   * ]) as CryptoKeyPair;
   * throws(
   *   () => new RequestSigner({ key: publicKey, keyid: "k", alg: "ed25519" }),
   *   (e) => e instanceof TypeError && e.message.includes("'key.type' must be \"private\""),
   * );
   * ```
   */
  constructor(options: RequestSignerOptions) {
    const action = "create the request signer";
    if (typeof options !== "object" || options === null) {
      throw optionError(TypeError, action, "options", "an object", options);
    }
    checkOptionKeys(action, "options", options, REQUEST_SIGNER_KEYS);
    const profile = options.profile ?? "3.2";
    if (profile !== "3.2" && profile !== "3.1") {
      throw optionError(RangeError, action, "profile", '"3.2" or "3.1"', profile);
    }
    const cover = options.coverContentDigest ?? true;
    if (typeof cover !== "boolean") {
      throw optionError(TypeError, action, "coverContentDigest", "a boolean", cover);
    }
    if (!cover && profile === "3.2") {
      throw optionError(
        RangeError,
        action,
        "coverContentDigest",
        'true on a 3.2 endpoint (only profile "3.1" may leave the body unbound)',
        cover,
      );
    }
    const digestEncoding = options.legacyDigestEncoding;
    if (digestEncoding !== undefined) {
      if (profile !== "3.1" || (digestEncoding !== "base64url" && digestEncoding !== "sf-binary")) {
        throw optionError(
          RangeError,
          action,
          "legacyDigestEncoding",
          '"base64url" or "sf-binary", with profile "3.1"',
          digestEncoding,
        );
      }
    }
    this.#signer = new Signer(
      profile === "3.2" ? REQUEST_PROFILE_3_2 : REQUEST_PROFILE_3_1,
      options,
      cover,
      action,
      digestEncoding,
    );
  }

  /**
   * The signature fields for a message: add them to the request as they are.
   *
   * @param message The method, the URL as it will be sent, the headers and the exact body.
   * @param overrides Fixed `created`/`expires`/`nonce`/components (tests, vectors).
   * @returns `Signature-Input`, `Signature`, and `Content-Digest` when covered.
   * @throws {TargetUriMalformedError} When the URL has no canonical form: nothing is signed.
   * @throws {SigningFailedError} When Web Crypto fails to import the key, hash the body or sign.
   * @throws {TypeError} When a covered field is missing, a body has no single Content-Type, or
   * `overrides` has an unknown key.
   *
   * @example Usage
   * ```ts
   * import { RequestSigner } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
   *   "sign",
   *   "verify",
   * ]) as CryptoKeyPair;
   * const signer = new RequestSigner({ key: privateKey, keyid: "k", alg: "ed25519" });
   * const fields = await signer.sign({ method: "GET", url: "https://seller.example/x" });
   * strictEqual(fields["Content-Digest"], undefined);
   * ```
   */
  sign(message: HttpMessageParts, overrides?: SignOverrides): Promise<SignatureFields> {
    return this.#signer.sign(message, overrides);
  }

  /**
   * A copy of `request` with the signature fields set (its body is read once, from a clone).
   *
   * @param request The request as it will be sent.
   * @param overrides Fixed parameters (tests).
   * @returns The signed request.
   * @throws {TargetUriMalformedError} When the URL has no canonical form: nothing is signed.
   * @throws {SigningFailedError} When Web Crypto fails to import the key, hash the body or sign.
   *
   * @example Usage
   * ```ts
   * import { RequestSigner } from "@adcp-wire/signing";
   * import { ok } from "node:assert/strict";
   *
   * const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
   *   "sign",
   *   "verify",
   * ]) as CryptoKeyPair;
   * const signer = new RequestSigner({ key: privateKey, keyid: "k", alg: "ed25519" });
   * const signed = await signer.signRequest(new Request("https://seller.example/x"));
   * ok(signed.headers.get("signature")?.startsWith("sig1=:"));
   * ```
   */
  signRequest(request: Request, overrides?: SignOverrides): Promise<Request> {
    return this.#signer.signRequest(request, overrides);
  }
}

/**
 * Signs webhook deliveries (a seller) under `adcp/webhook-signing/v1`: all five components,
 * `content-digest` always, the webhook v1 binary spelling (unpadded Base64URL signature, RFC 8941
 * digest, as upstream's fixtures). Sign with the agent's `adcp_use: "request-signing"` key, or a
 * second one under its own `kid`.
 *
 * @example Usage
 * ```ts
 * import { WebhookSigner } from "@adcp-wire/signing";
 * import { match } from "node:assert/strict";
 *
 * const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
 *   "sign",
 *   "verify",
 * ]) as CryptoKeyPair;
 * const signer = new WebhookSigner({ key: privateKey, keyid: "seller-hooks", alg: "ed25519" });
 * const fields = await signer.sign({
 *   method: "POST",
 *   url: "https://buyer.example/hooks",
 *   headers: { "content-type": "application/json" },
 *   body: "{}",
 * });
 * match(fields["Signature-Input"], /tag="adcp\/webhook-signing\/v1"$/);
 * ```
 */
export class WebhookSigner {
  readonly #signer: Signer;

  /**
   * Makes a signer.
   *
   * @param options Key, keyid, algorithm.
   * @throws {TypeError} When the key or keyid has the wrong type, an option has an unknown name
   * (`profile` included: it is the request signer's), or the key cannot sign under `alg` (a
   * public key, no `sign` usage, another algorithm or curve).
   * @throws {RangeError} When `alg` is not allowed or the validity exceeds 300 s.
   *
   * @example Usage
   * ```ts
   * import { WebhookSigner } from "@adcp-wire/signing";
   * import { throws } from "node:assert/strict";
   *
   * throws(() => new WebhookSigner({ key: {}, keyid: "k", alg: "ed25519" }), TypeError);
   * ```
   */
  constructor(options: SignerOptions) {
    const action = "create the webhook signer";
    if (typeof options !== "object" || options === null) {
      throw optionError(TypeError, action, "options", "an object", options);
    }
    checkOptionKeys(action, "options", options, SIGNER_KEYS);
    this.#signer = new Signer(WEBHOOK_PROFILE, options, true, action);
  }

  /**
   * The signature fields for a delivery.
   *
   * @param message The POST to the buyer's webhook URL, with its exact body.
   * @param overrides Fixed parameters (tests).
   * @returns `Signature-Input`, `Signature`, `Content-Digest`.
   * @throws {TargetUriMalformedError} When the URL has no canonical form: nothing is signed.
   * @throws {SigningFailedError} When Web Crypto fails to import the key, hash the body or sign.
   *
   * @example Usage
   * ```ts
   * import { WebhookSigner } from "@adcp-wire/signing";
   * import { ok } from "node:assert/strict";
   *
   * const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
   *   "sign",
   *   "verify",
   * ]) as CryptoKeyPair;
   * const signer = new WebhookSigner({ key: privateKey, keyid: "k", alg: "ed25519" });
   * const fields = await signer.sign({
   *   method: "POST",
   *   url: "https://buyer.example/h",
   *   headers: { "content-type": "application/json" },
   *   body: "{}",
   * });
   * ok(fields["Content-Digest"]);
   * ```
   */
  sign(message: HttpMessageParts, overrides?: SignOverrides): Promise<SignatureFields> {
    return this.#signer.sign(message, overrides);
  }

  /**
   * A copy of `request` with the signature fields set.
   *
   * @param request The delivery as it will be sent.
   * @param overrides Fixed parameters (tests).
   * @returns The signed request.
   * @throws {TargetUriMalformedError} When the URL has no canonical form: nothing is signed.
   * @throws {SigningFailedError} When Web Crypto fails to import the key, hash the body or sign.
   *
   * @example Usage
   * ```ts
   * import { WebhookSigner } from "@adcp-wire/signing";
   * import { ok } from "node:assert/strict";
   *
   * const { privateKey } = await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
   *   "sign",
   *   "verify",
   * ]) as CryptoKeyPair;
   * const signer = new WebhookSigner({ key: privateKey, keyid: "k", alg: "ed25519" });
   * const signed = await signer.signRequest(
   *   new Request("https://buyer.example/h", {
   *     method: "POST",
   *     headers: { "content-type": "application/json" },
   *     body: "{}",
   *   }),
   * );
   * ok(signed.headers.has("content-digest"));
   * ```
   */
  signRequest(request: Request, overrides?: SignOverrides): Promise<Request> {
    return this.#signer.signRequest(request, overrides);
  }
}
