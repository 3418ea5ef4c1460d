// The fixtures of the signer and verifier tests: two fresh keys (Ed25519, P-256) on a fixed clock,
// a signed message of each profile (3.2 and 3.1 requests, webhooks), and edits of its signature
// headers, so that each test builds its bad message from a good one.
import { ok, strictEqual, throws } from "node:assert/strict";
import { decodeBinary, encodeBinary } from "./_binary.ts";
import type { HttpMessageParts } from "./_message.ts";
import type { KeysOption } from "./_options.ts";
import { SignatureVerificationError } from "./errors.ts";
import type { AdcpJwk } from "./keys.ts";
import type { ReplayStore } from "./replay.ts";
import type { RevocationSource } from "./revocation.ts";
import {
  RequestSigner,
  type RequestSignerOptions,
  type SignatureFields,
  type SignOverrides,
  WebhookSigner,
} from "./sign.ts";
import {
  type RequestSigningCapability,
  RequestVerifier,
  type RequestVerifierOptions,
  type VerifyRequestOptions,
} from "./verify_request.ts";
import { WebhookVerifier, type WebhookVerifierOptions } from "./verify_webhook.ts";
import { makeKey, type TestKey } from "./_test_keys.ts";

/** The fixed clock: 2026-04-18T14:00:00Z. */
export const NOW = 1_776_520_800;
export const clock = () => NOW * 1000;

export const ED = await makeKey("test-ed25519", "ed25519");
export const P256 = await makeKey("test-p256", "ecdsa-p256-sha256");
/** A second Ed25519 key, published under ED's kid in some tests (a key substitution). */
export const OTHER_ED = await makeKey("test-ed25519", "ed25519");
export const KEYS: readonly TestKey[] = [ED, P256];

export type ProfileName = "3.2" | "3.1" | "webhook";
export const PROFILES: readonly ProfileName[] = ["3.2", "3.1", "webhook"];

/** A message as plain parts, header names lower-case, so tests can edit them. */
export interface Parts {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

export const TOOL_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "create_media_buy", arguments: { plan_id: "plan_001", budget: 1000 } },
});

export const WEBHOOK_BODY = JSON.stringify({
  idempotency_key: "whk_01HW9D3H8FZP2N6R8T0V4X6Z9B",
  task_id: "task_456",
  status: "completed",
});

export function message(profile: ProfileName, body?: string): Parts {
  return profile === "webhook"
    ? {
      method: "POST",
      url: "https://buyer.example/adcp/webhook/op_abc?attempt=1",
      headers: { "content-type": "application/json" },
      body: body ?? WEBHOOK_BODY,
    }
    : {
      method: "POST",
      url: "https://seller.example/adcp/mcp?x=1",
      headers: { "content-type": "application/json" },
      body: body ?? TOOL_BODY,
    };
}

function prefix(profile: ProfileName): "request" | "webhook" {
  return profile === "webhook" ? "webhook" : "request";
}

/** The profile's code for `failure` (`signature_invalid`, `body_malformed`, ...). */
export function codeOf(profile: ProfileName, failure: string): string {
  return `${prefix(profile)}_${failure}`;
}

interface SignerOptions extends Partial<RequestSignerOptions> {
  readonly signWith?: TestKey;
}

export function makeSigner(profile: ProfileName, options: SignerOptions = {}) {
  const { signWith = ED, ...rest } = options;
  const base = { key: signWith.privateKey, keyid: signWith.kid, alg: signWith.alg, now: clock };
  return profile === "webhook"
    ? new WebhookSigner({ ...base, ...rest })
    : new RequestSigner({ ...base, profile, ...rest });
}

export function withFields(parts: Parts, fields: SignatureFields): Parts {
  const headers: Record<string, string> = { ...parts.headers };
  for (const [name, value] of Object.entries(fields)) headers[name.toLowerCase()] = value;
  return { ...parts, headers };
}

export async function sign(
  profile: ProfileName,
  parts: Parts = message(profile),
  overrides?: SignOverrides,
  options: SignerOptions = {},
): Promise<Parts> {
  return withFields(parts, await makeSigner(profile, options).sign(parts, overrides));
}

export interface Env {
  readonly keys?: KeysOption;
  readonly agentUrl?: string;
  readonly replay?: ReplayStore;
  readonly revocation?: RevocationSource;
  readonly now?: () => number;
  readonly capability?: RequestSigningCapability;
  readonly maxBodyBytes?: number;
  readonly bodyTimeoutMs?: number;
}

export function makeVerifier(
  profile: ProfileName,
  env: Env = {},
): RequestVerifier | WebhookVerifier {
  const base: WebhookVerifierOptions = {
    keys: env.keys ?? KEYS.map((k) => k.jwk),
    ...(env.agentUrl === undefined ? {} : { agentUrl: env.agentUrl }),
    now: env.now ?? clock,
    ...(env.replay === undefined ? {} : { replay: env.replay }),
    revocation: env.revocation ?? null,
    ...(env.maxBodyBytes === undefined ? {} : { maxBodyBytes: env.maxBodyBytes }),
    ...(env.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: env.bodyTimeoutMs }),
  };
  if (profile === "webhook") return new WebhookVerifier(base);
  const options: RequestVerifierOptions = {
    ...base,
    profile,
    ...(env.capability === undefined ? {} : { capability: env.capability }),
  };
  return new RequestVerifier(options);
}

/** Verifies with a fresh verifier (fresh replay store unless `env.replay`). */
export function verify(
  profile: ProfileName,
  parts: Parts | Request,
  env: Env = {},
  options: VerifyRequestOptions = {},
): Promise<unknown> {
  return makeVerifier(profile, env).verify(parts as HttpMessageParts, options);
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Awaits a SignatureVerificationError with exactly `code` (and `step`, when given). */
export async function failsWith(
  promise: Promise<unknown>,
  code: string,
  step?: number | "9a",
): Promise<SignatureVerificationError> {
  const error = await rejection(promise);
  ok(
    error instanceof SignatureVerificationError,
    `expected a SignatureVerificationError: ${error}`,
  );
  strictEqual(error.code, code, error.message);
  if (step !== undefined) strictEqual(error.step, step, error.message);
  strictEqual(error.wwwAuthenticate, `Signature error="${code}"`);
  strictEqual(error.name, "SignatureVerificationError");
  return error;
}

export function header(parts: Parts, name: string): string {
  const value = parts.headers[name];
  ok(value !== undefined, `no ${name} header`);
  return value;
}

/** `parts` with header `name` set to `value`, or removed when `value` is undefined. */
export function setHeader(parts: Parts, name: string, value: string | undefined): Parts {
  const headers: Record<string, string> = { ...parts.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...parts, headers };
}

export function editHeader(parts: Parts, name: string, edit: (value: string) => string): Parts {
  const before = header(parts, name);
  const after = edit(before);
  ok(after !== before, `the edit of ${name} changed nothing`);
  return setHeader(parts, name, after);
}

/** Replaces (or, with `raw` undefined, removes) one Signature-Input parameter. */
export function setParam(parts: Parts, name: string, raw: string | undefined): Parts {
  return editHeader(parts, "signature-input", (input) => {
    const re = new RegExp(`;${name}=("[^"]*"|[^;]*)`);
    ok(re.test(input), `no ${name} in ${input}`);
    return input.replace(re, raw === undefined ? "" : `;${name}=${raw}`);
  });
}

export function param(parts: Parts, name: string): string {
  const match = new RegExp(`;${name}=("[^"]*"|[^;]*)`).exec(header(parts, "signature-input"));
  ok(match !== null);
  return match[1]!;
}

function signatureEncoding(profile: ProfileName): "sf-binary" | "base64url" {
  return profile === "3.2" ? "sf-binary" : "base64url";
}

/** Flips bit `bit` of the decoded `Signature` value, keeping its canonical spelling. */
export function flipSignatureBit(profile: ProfileName, parts: Parts, bit: number): Parts {
  return editHeader(parts, "signature", (value) => {
    const match = /^sig1=:([^:]*):$/.exec(value);
    ok(match !== null, value);
    const bytes = decodeBinary(match[1]!, signatureEncoding(profile));
    ok(bytes !== undefined && bytes.length === 64);
    const flipped = bytes.slice();
    flipped[bit >> 3]! ^= 1 << (bit & 7);
    return `sig1=:${encodeBinary(flipped, signatureEncoding(profile))}:`;
  });
}

/** An all-zero signature of the profile's spelling: well-formed, never valid. */
export function forge(profile: ProfileName, parts: Parts): Parts {
  return setHeader(
    parts,
    "signature",
    `sig1=:${encodeBinary(new Uint8Array(64), signatureEncoding(profile))}:`,
  );
}

export function throwsOption(fn: () => unknown, kind: ErrorConstructor, message: string): void {
  throws(fn, (error: unknown) => {
    ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
    strictEqual((error as Error).message, message);
    return true;
  });
}

export async function rejectsOption(
  promise: Promise<unknown>,
  kind: ErrorConstructor,
  message: string,
): Promise<void> {
  const error = await rejection(promise);
  ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
  strictEqual((error as Error).message, message);
}

export interface Verified {
  readonly authentication?: string;
  readonly signer?: {
    readonly agentUrl?: string;
    readonly senderId: string;
    readonly keyid: string;
    readonly alg: string;
    readonly created: number;
    readonly expires: number;
    readonly nonce: string;
    readonly verifiedAt: number;
    readonly components: readonly string[];
    readonly signatureBase: string;
    readonly jwk: AdcpJwk;
  };
  readonly warning?: string;
  readonly payload?: unknown;
  readonly body: Uint8Array;
  readonly operation?: string;
  readonly protocolMethod?: string;
}

export async function verified(
  profile: ProfileName,
  parts: Parts | Request,
  env?: Env,
  options?: VerifyRequestOptions,
): Promise<Verified> {
  const result = await verify(profile, parts, env, options) as Verified;
  ok(result.signer !== undefined, "no signer established");
  if (profile !== "webhook") strictEqual(result.authentication, "signature");
  return result;
}

/** The agents[] entry URL a verifier is configured with, in the signer-identity tests. */
export const AGENT = "https://seller.example/mcp";
