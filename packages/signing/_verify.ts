// The verifier checklist shared by the request and webhook profiles (security.mdx, "Verifier
// checklist (requests)" and "Verifier checklist for webhooks"): steps 1-13 in their documented
// order, short-circuiting on the first failure, then step 14 (body well-formedness) on its own so
// that the strict parse a caller needs anyway is the check.
import { DuplicateKeyError, parseJsonStrict } from "@adcp-wire/security";
import { untilAborted } from "./_abort.ts";
import { decodeBinary } from "./_binary.ts";
import {
  ALGORITHMS,
  bytesEqual,
  digestOf,
  publicKeyOf,
  type SignatureAlgorithm,
  verifyBytes,
} from "./_crypto.ts";
import { codeOf, type Failure, type Profile } from "./_profile.ts";
import {
  type BareItem,
  type InnerList,
  type Member,
  parseDictionary,
  serializeInnerList,
  StructuredFieldError,
} from "./_structured_fields.ts";
import {
  canonicalAuthority,
  canonicalTarget,
  hasRawNonAsciiAuthority,
  TargetUriError,
} from "./_target_uri.ts";
import { JwksError, SignatureVerificationError } from "./errors.ts";
import type { AdcpJwk, KeyResolver } from "./keys.ts";
import type { ReplayStore } from "./replay.ts";
import type { RevocationSource } from "./revocation.ts";
import type { SignerIdentity } from "./_signer_identity.ts";

/** An HTTP message as the verifier sees it. */
export interface Message {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: Uint8Array;
  /** The HTTP/2+ `:authority` pseudo-header, when the server exposes it. */
  readonly authority?: string | undefined;
}

/** How {@link verifyCore} runs. */
export interface CoreOptions {
  readonly profile: Profile;
  readonly keys: KeyResolver;
  readonly replay: ReplayStore;
  readonly revocation?: RevocationSource | undefined;
  /** Unix seconds. */
  readonly now: number;
  /** The 3.0/3.1 `covers_content_digest` posture; absent for the 3.2 and webhook rules. */
  readonly legacyDigest?: "required" | "forbidden" | "either" | undefined;
  /** The Signature-Input label processed: `sig1`. */
  readonly label: string;
  readonly signal?: AbortSignal | undefined;
  /** Who the keys belong to: read at step 9a, for the replay budgets and the result. */
  readonly identity: () => Promise<SignerIdentity>;
}

/** What a successful verification established. */
export interface CoreResult {
  readonly agentUrl?: string;
  readonly senderId: string;
  readonly keyid: string;
  readonly alg: SignatureAlgorithm;
  readonly created: number;
  readonly expires: number;
  readonly nonce: string;
  readonly jwk: AdcpJwk;
  readonly components: readonly string[];
  readonly signatureBase: string;
}

/** Skew tolerated on `created` and `expires`: 60 s. */
export const CLOCK_SKEW_S = 60;
/** Longest validity, `expires − created`: 300 s. */
export const MAX_VALIDITY_S = 300;
/** Longest `nonce` and `keyid` accepted, in characters. */
export const MAX_PARAM_LENGTH = 256;
/**
 * Most covered components accepted: 32. The profile covers five; "signers MUST NOT cover
 * additional headers without coordination", and a longer list only buys an attacker work.
 */
export const MAX_COMPONENTS = 32;
/** Shortest decoded nonce: 16 bytes (128 bits). */
export const MIN_NONCE_BYTES = 16;

const REQUIRED_PARAMS = ["created", "expires", "nonce", "keyid", "alg", "tag"] as const;
const STRING_PARAMS = new Set(["nonce", "keyid", "alg", "tag"]);
const INTEGER_PARAMS = new Set(["created", "expires"]);
const DERIVED = new Set(["@method", "@target-uri", "@authority"]);
const FIELD_NAME = /^[a-z0-9!#$%&'*+\-.^_`|~]+$/;
const NONCE = /^[A-Za-z0-9_-]+$/;
const DIGEST_ALGORITHMS = ["sha-256", "sha-512"] as const;

function fail(
  profile: Profile,
  failure: Failure,
  step: number | "9a",
  detail: string,
  cause?: unknown,
): never {
  throw new SignatureVerificationError(
    codeOf(profile, failure),
    step,
    detail,
    cause === undefined ? undefined : { cause },
  );
}

/** Whether a field value holds a comma outside quoted strings: two field lines combined. */
export function isMultiValued(value: string): boolean {
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ",") return true;
  }
  return false;
}

/** The parsed and type-checked parts of the processed signature (step 1). */
interface Parsed {
  readonly list: InnerList;
  readonly components: readonly string[];
  readonly params: ReadonlyMap<string, BareItem>;
  readonly signature: Uint8Array;
  readonly digests: ReadonlyMap<string, Uint8Array> | undefined;
}

function parseField(profile: Profile, text: string, name: string): Map<string, Member> {
  try {
    return parseDictionary(text);
  } catch (error) {
    if (error instanceof StructuredFieldError) {
      return fail(profile, "header_malformed", 1, `${name}: ${error.message}`);
    }
    throw error;
  }
}

/** Step 1: parse `Signature-Input`, `Signature` and the covered single-valued fields. */
function parse(
  profile: Profile,
  message: Message,
  input: string,
  signatureField: string,
  label: string,
): Parsed {
  if (hasRawNonAsciiAuthority(message.url)) {
    fail(profile, "header_malformed", 1, "raw non-ASCII host: an A-label is required");
  }
  const inputs = parseField(profile, input, "Signature-Input");
  const signatures = parseField(profile, signatureField, "Signature");
  const member = inputs.get(label);
  const signed = signatures.get(label);
  if (member === undefined || signed === undefined) {
    fail(profile, "header_malformed", 1, `no ${label} label in both Signature-Input and Signature`);
  }
  if (member.kind !== "inner_list") fail(profile, "header_malformed", 1, "not an inner list");
  if (member.items.length > MAX_COMPONENTS) {
    fail(profile, "header_malformed", 1, `more than ${MAX_COMPONENTS} covered components`);
  }
  const components: string[] = [];
  const seen = new Set<string>();
  for (const item of member.items) {
    if (item.value.type !== "string") {
      fail(profile, "header_malformed", 1, "a component identifier is not a string");
    }
    if (item.params.size > 0) {
      fail(profile, "header_malformed", 1, "component parameters are not part of the profile");
    }
    const name = item.value.value;
    if (!DERIVED.has(name) && !FIELD_NAME.test(name)) {
      fail(profile, "header_malformed", 1, "unsupported component identifier");
    }
    if (seen.has(name)) fail(profile, "header_malformed", 1, "duplicate component");
    seen.add(name);
    components.push(name);
  }
  for (const [key, value] of member.params) {
    if (STRING_PARAMS.has(key) && value.type !== "string") {
      fail(profile, "header_malformed", 1, `parameter ${key} must be a quoted string`);
    }
    if (INTEGER_PARAMS.has(key) && value.type !== "integer") {
      fail(profile, "header_malformed", 1, `parameter ${key} must be an integer`);
    }
    if (value.type === "string" && value.value.length > MAX_PARAM_LENGTH) {
      fail(profile, "header_malformed", 1, `parameter ${key} is too long`);
    }
  }
  const nonce = member.params.get("nonce");
  if (nonce !== undefined && nonce.type === "string") {
    const bytes = NONCE.test(nonce.value) ? decodeBinary(nonce.value, "base64url") : undefined;
    if (bytes === undefined || bytes.length < MIN_NONCE_BYTES) {
      fail(profile, "header_malformed", 1, "nonce must be unpadded Base64URL of 16+ bytes");
    }
  }
  if (signed.kind !== "item" || signed.value.type !== "binary") {
    fail(profile, "header_malformed", 1, "Signature member is not a byte sequence");
  }
  const signature = decodeBinary(signed.value.raw, profile.signatureEncoding);
  if (signature === undefined) {
    fail(
      profile,
      "header_malformed",
      1,
      `Signature is not ${
        profile.signatureEncoding === "sf-binary" ? "RFC 8941 Base64" : "unpadded Base64URL"
      }`,
    );
  }
  const contentType = message.headers.get("content-type");
  if (contentType !== null && isMultiValued(contentType)) {
    fail(profile, "header_malformed", 1, "Content-Type has more than one value");
  }
  let digests: Map<string, Uint8Array> | undefined;
  const digestField = message.headers.get("content-digest");
  if (digestField !== null) {
    digests = new Map();
    for (const [algorithm, entry] of parseField(profile, digestField, "Content-Digest")) {
      if (entry.kind !== "item" || entry.value.type !== "binary") {
        fail(profile, "header_malformed", 1, "Content-Digest member is not a byte sequence");
      }
      const raw = entry.value.raw;
      const bytes = profile.digestEncodings
        .map((encoding) => decodeBinary(raw, encoding))
        .find((decoded) => decoded !== undefined);
      if (bytes === undefined) {
        fail(profile, "header_malformed", 1, "Content-Digest value is not Base64 of the profile");
      }
      digests.set(algorithm, bytes);
    }
  }
  return { list: member, components, params: member.params, signature, digests };
}

function stringParam(params: ReadonlyMap<string, BareItem>, key: string): string {
  const value = params.get(key);
  return value !== undefined && value.type === "string" ? value.value : "";
}

function integerParam(params: ReadonlyMap<string, BareItem>, key: string): number {
  const value = params.get(key);
  return value !== undefined && value.type === "integer" ? value.value : NaN;
}

/** Step 6: the covered components the profile requires, and those it forbids. */
function checkComponents(profile: Profile, options: CoreOptions, parsed: Parsed, body: boolean) {
  const covered = new Set(parsed.components);
  const required = ["@method", "@target-uri", "@authority"];
  const legacy = options.legacyDigest;
  if (profile.kind === "webhook") required.push("content-type", "content-digest");
  else {
    if (body) required.push("content-type");
    if (body && (legacy === undefined || legacy === "required")) required.push("content-digest");
  }
  const missing = required.filter((c) => !covered.has(c));
  if (missing.length > 0) {
    fail(profile, "components_incomplete", 6, `not covered: ${missing.join(", ")}`);
  }
  if (legacy === "forbidden" && covered.has("content-digest")) {
    fail(profile, "components_unexpected", 6, "content-digest covered on a forbidden endpoint");
  }
}

/** Step 8: `use`, `key_ops`, `adcp_use`, and the JWK's `alg`/`kty`/`crv` against the sig alg. */
function checkKey(profile: Profile, jwk: AdcpJwk, alg: SignatureAlgorithm): void {
  const spec = ALGORITHMS.get(alg)!;
  const ops = jwk.key_ops;
  if (jwk.use !== "sig") fail(profile, "key_purpose_invalid", 8, "JWK use is not sig");
  if (!Array.isArray(ops) || !ops.includes("verify")) {
    fail(profile, "key_purpose_invalid", 8, "JWK key_ops lacks verify");
  }
  if (typeof jwk.adcp_use !== "string" || !profile.purposes.includes(jwk.adcp_use)) {
    fail(profile, "key_purpose_invalid", 8, `JWK adcp_use is not ${profile.purposes.join(" or ")}`);
  }
  if (jwk.alg !== spec.jwkAlg || jwk.kty !== spec.kty || jwk.crv !== spec.crv) {
    fail(profile, "key_purpose_invalid", 8, `JWK alg/kty/crv do not match ${alg}`);
  }
}

/** The value of one covered component (step 10). */
function componentValue(
  profile: Profile,
  name: string,
  message: Message,
  target: { targetUri: string; authority: string },
): string {
  if (name === "@method") return message.method.toUpperCase();
  if (name === "@target-uri") return target.targetUri;
  if (name === "@authority") return target.authority;
  const value = message.headers.get(name);
  if (value === null) fail(profile, "invalid", 10, `covered field ${name} is absent`);
  return value;
}

/** The RFC 9421 §2.5 signature base: one `"name": value` line per component, LF-joined. */
export function signatureBase(
  components: readonly string[],
  values: readonly string[],
  signatureParams: string,
): string {
  let base = "";
  for (let i = 0; i < components.length; i++) {
    base += `"${components[i]}": ${values[i]}\n`;
  }
  return `${base}"@signature-params": ${signatureParams}`;
}

/** Step 10's target: canonical `@target-uri` and `@authority`, checked against Host/:authority. */
export function canonicalTargetOf(
  profile: Profile,
  message: Message,
): { targetUri: string; authority: string } {
  let target: { targetUri: string; authority: string };
  try {
    target = canonicalTarget(message.url);
    const scheme = target.targetUri.startsWith("https:") ? "https" : "http";
    const host = message.headers.get("host");
    const sources = [message.authority, host ?? undefined].filter((v) => v !== undefined);
    for (const source of sources) {
      if (canonicalAuthority(source as string, scheme) !== target.authority) {
        fail(profile, "target_uri_malformed", 10, "authority does not match the target URI");
      }
    }
  } catch (error) {
    if (error instanceof TargetUriError) {
      return fail(profile, "target_uri_malformed", 10, error.message, error);
    }
    throw error;
  }
  return target;
}

/** Steps 1-13. Throws {@link SignatureVerificationError} with the profile's code. */
export async function verifyCore(
  message: Message,
  input: string,
  signatureField: string,
  options: CoreOptions,
): Promise<CoreResult> {
  const { profile } = options;
  // 1
  const parsed = parse(profile, message, input, signatureField, options.label);
  // 2
  const absent = REQUIRED_PARAMS.filter((key) => !parsed.params.has(key));
  if (absent.length > 0) fail(profile, "params_incomplete", 2, `absent: ${absent.join(", ")}`);
  const tag = stringParam(parsed.params, "tag");
  const alg = stringParam(parsed.params, "alg");
  const keyid = stringParam(parsed.params, "keyid");
  const nonce = stringParam(parsed.params, "nonce");
  const created = integerParam(parsed.params, "created");
  const expires = integerParam(parsed.params, "expires");
  // 3
  if (tag !== profile.tag) fail(profile, "tag_invalid", 3, `tag is not ${profile.tag}`);
  // 4
  if (!ALGORITHMS.has(alg)) fail(profile, "alg_not_allowed", 4, "alg is not allowed");
  const algorithm = alg as SignatureAlgorithm;
  // 5
  const now = options.now;
  if (
    expires <= created || created > now + CLOCK_SKEW_S || expires < now - CLOCK_SKEW_S ||
    expires - created > MAX_VALIDITY_S
  ) {
    fail(profile, "window_invalid", 5, "created/expires outside the window");
  }
  // 6
  const hasBody = message.body.length > 0;
  checkComponents(profile, options, parsed, hasBody);
  // 7
  let jwk: AdcpJwk | undefined;
  try {
    jwk = await untilAborted(
      options.keys.resolve(keyid, options.signal === undefined ? {} : { signal: options.signal }),
      options.signal,
    );
  } catch (error) {
    if (error instanceof JwksError) {
      fail(
        profile,
        error.reason === "untrusted" ? "jwks_untrusted" : "jwks_unavailable",
        7,
        error.message,
        error,
      );
    }
    throw error;
  }
  if (jwk === undefined || jwk === null || typeof jwk !== "object" || jwk.kid !== keyid) {
    fail(profile, "key_unknown", 7, "keyid is not in the signer's JWKS");
  }
  // 8
  checkKey(profile, jwk, algorithm);
  const key = await publicKeyOf(jwk, algorithm);
  if (key === undefined) fail(profile, "key_purpose_invalid", 8, "JWK material does not import");
  // 9
  if (options.revocation !== undefined) {
    const status = await options.revocation.status(keyid, now);
    if (status === "revoked") fail(profile, "key_revoked", 9, "keyid is revoked");
    if (status !== "valid") fail(profile, "revocation_stale", 9, "revocation list is stale");
  }
  // 9a: the budgets are the signer's (its agent), not the keyid's alone.
  const identity = await untilAborted(options.identity(), options.signal);
  const sender = identity.senderId;
  if (await options.replay.capped(keyid, now, sender)) {
    fail(profile, "rate_abuse", "9a", "replay cache cap reached for this keyid");
  }
  // 10
  const target = canonicalTargetOf(profile, message);
  const values = parsed.components.map((name) => componentValue(profile, name, message, target));
  const base = signatureBase(parsed.components, values, serializeInnerList(parsed.list));
  const baseBytes = new TextEncoder().encode(base);
  if (!(await verifyBytes(algorithm, key, parsed.signature, baseBytes))) {
    fail(profile, "invalid", 10, "the signature does not verify");
  }
  // 11
  if (parsed.components.includes("content-digest")) {
    const digests = parsed.digests;
    const known = DIGEST_ALGORITHMS.filter((a) => digests?.has(a));
    if (known.length === 0) fail(profile, "digest_mismatch", 11, "no sha-256 or sha-512 digest");
    for (const algorithmName of known) {
      const actual = await digestOf(algorithmName, message.body);
      if (!bytesEqual(actual, digests!.get(algorithmName)!)) {
        fail(profile, "digest_mismatch", 11, `${algorithmName} of the body does not match`);
      }
    }
  }
  // 12
  if (await options.replay.seen(keyid, nonce, now)) {
    fail(profile, "replayed", 12, "nonce already seen for this keyid");
  }
  // 13
  const inserted = await options.replay.insert(keyid, nonce, expires + CLOCK_SKEW_S, now, sender);
  if (inserted === "replayed") fail(profile, "replayed", 13, "nonce already seen for this keyid");
  if (inserted === "capped") fail(profile, "rate_abuse", 13, "replay cache cap reached");
  return {
    ...(identity.agentUrl === undefined ? {} : { agentUrl: identity.agentUrl }),
    senderId: sender,
    keyid,
    alg: algorithm,
    created,
    expires,
    nonce,
    jwk,
    components: parsed.components,
    signatureBase: base,
  };
}

/** Whether a Content-Type names JSON (`application/json`, `*\/*+json`). */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const essence = value.split(";", 1)[0]!.trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
}

/**
 * Step 14: a JSON body parsed strictly; duplicate keys (and text that is not JSON) are
 * `*_body_malformed`. Returns the parsed value.
 */
export function parseBodyStrict(profile: Profile, body: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
  } catch (error) {
    return fail(profile, "body_malformed", 14, "body is not UTF-8", error);
  }
  try {
    return parseJsonStrict(text);
  } catch (error) {
    const detail = error instanceof DuplicateKeyError
      ? "duplicate object keys"
      : "body is not JSON";
    return fail(profile, "body_malformed", 14, detail, error);
  }
}
