// Behaviour tests of the signers and verifiers with freshly generated Ed25519 and P-256 keys:
// sign→verify round trips for the three profiles (3.2 requests, 3.1 requests, webhooks), then one
// test per verifier-checklist step that fails with exactly the spec's code, each bad message built
// by editing the headers of a good signed one (security.mdx, "Verifier checklist (requests)" and
// "Verifier checklist for webhooks"); the capability composition of the request verifier
// ("Composition with fallback authenticators", "Transport capability advertisement",
// "Downgrade and injection resistance"); the key-resolver failure modes; and option errors.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { decodeBinary, encodeBinary } from "./_binary.ts";
import type { HttpMessageParts } from "./_message.ts";
import type { KeysOption } from "./_options.ts";
import {
  BodyTimeoutError,
  BodyTooLargeError,
  JwksError,
  SignatureVerificationError,
  TargetUriMalformedError,
} from "./errors.ts";
import type { AdcpJwk, KeyResolver, ResolveKeyContext } from "./keys.ts";
import { JwksResolver, StaticKeyResolver } from "./jwks.ts";
import { InMemoryReplayStore, type ReplayStore } from "./replay.ts";
import { RevocationList, type RevocationSource } from "./revocation.ts";
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
import { makeKey, type TestAlg, type TestKey } from "./_test_keys.ts";

// ---------------------------------------------------------------------------------------------
// Keys, messages and helpers

/** The fixed clock: 2026-04-18T14:00:00Z. */
const NOW = 1_776_520_800;
const clock = () => NOW * 1000;

type Alg = TestAlg;

const ED = await makeKey("test-ed25519", "ed25519");
const P256 = await makeKey("test-p256", "ecdsa-p256-sha256");
/** A second Ed25519 key, published under ED's kid in some tests (a key substitution). */
const OTHER_ED = await makeKey("test-ed25519", "ed25519");
const KEYS: readonly TestKey[] = [ED, P256];

type ProfileName = "3.2" | "3.1" | "webhook";
const PROFILES: readonly ProfileName[] = ["3.2", "3.1", "webhook"];

/** A message as plain parts, header names lower-case, so tests can edit them. */
interface Parts {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

const TOOL_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "create_media_buy", arguments: { plan_id: "plan_001", budget: 1000 } },
});

const WEBHOOK_BODY = JSON.stringify({
  idempotency_key: "whk_01HW9D3H8FZP2N6R8T0V4X6Z9B",
  task_id: "task_456",
  status: "completed",
});

function message(profile: ProfileName, body?: string): Parts {
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
function codeOf(profile: ProfileName, failure: string): string {
  return `${prefix(profile)}_${failure}`;
}

interface SignerOptions extends Partial<RequestSignerOptions> {
  readonly signWith?: TestKey;
}

function makeSigner(profile: ProfileName, options: SignerOptions = {}) {
  const { signWith = ED, ...rest } = options;
  const base = { key: signWith.privateKey, keyid: signWith.kid, alg: signWith.alg, now: clock };
  return profile === "webhook"
    ? new WebhookSigner({ ...base, ...rest })
    : new RequestSigner({ ...base, profile, ...rest });
}

function withFields(parts: Parts, fields: SignatureFields): Parts {
  const headers: Record<string, string> = { ...parts.headers };
  for (const [name, value] of Object.entries(fields)) headers[name.toLowerCase()] = value;
  return { ...parts, headers };
}

async function sign(
  profile: ProfileName,
  parts: Parts = message(profile),
  overrides?: SignOverrides,
  options: SignerOptions = {},
): Promise<Parts> {
  return withFields(parts, await makeSigner(profile, options).sign(parts, overrides));
}

interface Env {
  readonly keys?: KeysOption;
  readonly agentUrl?: string;
  readonly replay?: ReplayStore;
  readonly revocation?: RevocationSource;
  readonly now?: () => number;
  readonly capability?: RequestSigningCapability;
  readonly maxBodyBytes?: number;
  readonly bodyTimeoutMs?: number;
}

function makeVerifier(profile: ProfileName, env: Env = {}): RequestVerifier | WebhookVerifier {
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
function verify(
  profile: ProfileName,
  parts: Parts | Request,
  env: Env = {},
  options: VerifyRequestOptions = {},
): Promise<unknown> {
  return makeVerifier(profile, env).verify(parts as HttpMessageParts, options);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Awaits a SignatureVerificationError with exactly `code` (and `step`, when given). */
async function failsWith(
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

function header(parts: Parts, name: string): string {
  const value = parts.headers[name];
  ok(value !== undefined, `no ${name} header`);
  return value;
}

/** `parts` with header `name` set to `value`, or removed when `value` is undefined. */
function setHeader(parts: Parts, name: string, value: string | undefined): Parts {
  const headers: Record<string, string> = { ...parts.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...parts, headers };
}

function editHeader(parts: Parts, name: string, edit: (value: string) => string): Parts {
  const before = header(parts, name);
  const after = edit(before);
  ok(after !== before, `the edit of ${name} changed nothing`);
  return setHeader(parts, name, after);
}

/** Replaces (or, with `raw` undefined, removes) one Signature-Input parameter. */
function setParam(parts: Parts, name: string, raw: string | undefined): Parts {
  return editHeader(parts, "signature-input", (input) => {
    const re = new RegExp(`;${name}=("[^"]*"|[^;]*)`);
    ok(re.test(input), `no ${name} in ${input}`);
    return input.replace(re, raw === undefined ? "" : `;${name}=${raw}`);
  });
}

function param(parts: Parts, name: string): string {
  const match = new RegExp(`;${name}=("[^"]*"|[^;]*)`).exec(header(parts, "signature-input"));
  ok(match !== null);
  return match[1]!;
}

function signatureEncoding(profile: ProfileName): "sf-binary" | "base64url" {
  return profile === "3.2" ? "sf-binary" : "base64url";
}

/** Flips bit `bit` of the decoded `Signature` value, keeping its canonical spelling. */
function flipSignatureBit(profile: ProfileName, parts: Parts, bit: number): Parts {
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
function forge(profile: ProfileName, parts: Parts): Parts {
  return setHeader(
    parts,
    "signature",
    `sig1=:${encodeBinary(new Uint8Array(64), signatureEncoding(profile))}:`,
  );
}

function throwsOption(fn: () => unknown, kind: ErrorConstructor, message: string): void {
  throws(fn, (error: unknown) => {
    ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
    strictEqual((error as Error).message, message);
    return true;
  });
}

async function rejectsOption(
  promise: Promise<unknown>,
  kind: ErrorConstructor,
  message: string,
): Promise<void> {
  const error = await rejection(promise);
  ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
  strictEqual((error as Error).message, message);
}

interface Verified {
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

async function verified(
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

// ---------------------------------------------------------------------------------------------
// Round trips

for (const profile of PROFILES) {
  for (const key of KEYS) {
    Deno.test(`sign→verify round trip: ${profile} profile, ${key.alg}`, async () => {
      const signed = await sign(profile, message(profile), undefined, { signWith: key });
      const result = await verified(profile, signed);
      const signer = result.signer!;
      strictEqual(signer.keyid, key.kid);
      strictEqual(signer.alg, key.alg);
      strictEqual(signer.created, NOW);
      strictEqual(signer.expires, NOW + 300);
      strictEqual(signer.verifiedAt, NOW);
      strictEqual(signer.jwk.kid, key.kid);
      ok(/^[A-Za-z0-9_-]{22}$/.test(signer.nonce), signer.nonce);
      deepStrictEqual(signer.components, [
        "@method",
        "@target-uri",
        "@authority",
        "content-type",
        "content-digest",
      ]);
      const target = profile === "webhook"
        ? "https://buyer.example/adcp/webhook/op_abc?attempt=1"
        : "https://seller.example/adcp/mcp?x=1";
      const authority = profile === "webhook" ? "buyer.example" : "seller.example";
      const lines = signer.signatureBase.split("\n");
      deepStrictEqual(lines.slice(0, 5), [
        '"@method": POST',
        `"@target-uri": ${target}`,
        `"@authority": ${authority}`,
        '"content-type": application/json',
        `"content-digest": ${header(signed, "content-digest")}`,
      ]);
      strictEqual(lines[5], `"@signature-params": ${header(signed, "signature-input").slice(5)}`);
      const body = profile === "webhook" ? WEBHOOK_BODY : TOOL_BODY;
      deepStrictEqual(result.payload, JSON.parse(body));
      deepStrictEqual(result.body, new TextEncoder().encode(body));
    });
  }
}

Deno.test("signers spell the binary values as their profile says", async () => {
  const v32 = await sign("3.2");
  const v31 = await sign("3.1");
  const hook = await sign("webhook");
  // 3.2: RFC 8941 sf-binary (standard alphabet, padded) for both values.
  ok(/^sig1=:[A-Za-z0-9+/]{86}==:$/.test(header(v32, "signature")), header(v32, "signature"));
  ok(/^sha-256=:[A-Za-z0-9+/]{43}=:$/.test(header(v32, "content-digest")));
  // 3.1: legacy unpadded Base64URL for both (the default legacyDigestEncoding).
  ok(/^sig1=:[A-Za-z0-9_-]{86}:$/.test(header(v31, "signature")), header(v31, "signature"));
  ok(/^sha-256=:[A-Za-z0-9_-]{43}:$/.test(header(v31, "content-digest")));
  // Webhook v1: Base64URL signature, RFC 8941 digest.
  ok(/^sig1=:[A-Za-z0-9_-]{86}:$/.test(header(hook, "signature")));
  ok(/^sha-256=:[A-Za-z0-9+/]{43}=:$/.test(header(hook, "content-digest")));
  // Tags.
  strictEqual(param(v32, "tag"), '"adcp/request-signing/v1"');
  strictEqual(param(hook, "tag"), '"adcp/webhook-signing/v1"');
});

Deno.test("a 3.1 signer writes an sf-binary Content-Digest; 3.1 verifiers read it", async () => {
  const signed = await sign("3.1", message("3.1"), undefined, {
    legacyDigestEncoding: "sf-binary",
  });
  ok(header(signed, "content-digest").endsWith("=:"));
  await verified("3.1", signed);
});

for (const profile of ["3.2", "3.1"] as const) {
  Deno.test(`sign→verify round trip without a body: ${profile} GET covers 3`, async () => {
    const parts: Parts = {
      method: "GET",
      url: "https://seller.example/adcp/status",
      headers: {},
      body: "",
    };
    const fields = await makeSigner(profile).sign(parts);
    strictEqual(fields["Content-Digest"], undefined);
    const result = await verified(profile, withFields(parts, fields));
    deepStrictEqual(result.signer!.components, ["@method", "@target-uri", "@authority"]);
    strictEqual(result.payload, undefined);
  });
}

Deno.test("signRequest() output verifies as a Request, for every profile", async () => {
  for (const profile of PROFILES) {
    const m = message(profile);
    const request = new Request(m.url, {
      method: m.method,
      headers: m.headers,
      body: m.body as string,
    });
    const signed = await makeSigner(profile).signRequest(request);
    ok(signed.headers.has("signature") && signed.headers.has("signature-input"));
    const result = await verified(profile, signed);
    deepStrictEqual(result.body, new TextEncoder().encode(m.body as string));
  }
});

Deno.test("a verifier ignores signature labels other than sig1", async () => {
  for (const profile of PROFILES) {
    const signed = await sign(profile);
    const extra = editHeader(
      editHeader(signed, "signature-input", (v) => `${v}, sig2=("@method");created=1;tag="x"`),
      "signature",
      (v) => `${v}, sig2=:AAAA:`,
    );
    await verified(profile, extra);
    // Even when sig2 comes first.
    const first = setHeader(
      setHeader(
        signed,
        "signature-input",
        `sig2=();alg="none", ${header(signed, "signature-input")}`,
      ),
      "signature",
      `sig2=:AA==:, ${header(signed, "signature")}`,
    );
    await verified(profile, first);
  }
});

Deno.test("a verifier reads canonical equivalents of the target URI as signed", async () => {
  for (const profile of PROFILES) {
    const signed = await sign(profile);
    const url = new URL(signed.url);
    // Upper-case scheme and host, explicit default port, a fragment: same canonical target.
    const variant = `HTTPS://${url.host.toUpperCase()}:443${url.pathname}${url.search}#frag`;
    await verified(profile, { ...signed, url: variant });
    // A Host header that matches after canonicalization.
    await verified(profile, setHeader(signed, "host", `${url.host.toUpperCase()}:443`));
    // Method case is canonicalized.
    await verified(profile, { ...signed, method: "post" });
  }
});

// ---------------------------------------------------------------------------------------------
// Pre-checks and step 1: header pair and parsing

for (const profile of PROFILES) {
  Deno.test(`${profile}: Signature or Signature-Input alone is header_malformed`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_header_malformed");
    await failsWith(verify(profile, setHeader(signed, "signature", undefined)), code, 1);
    await failsWith(verify(profile, setHeader(signed, "signature-input", undefined)), code, 1);
    if (profile !== "webhook") {
      // Never downgraded to the fallback credential, for any operation, in any mode.
      for (
        const capability of [{}, { required_for: ["create_media_buy"] }, {
          warn_for: ["create_media_buy"],
        }]
      ) {
        await failsWith(
          verify(profile, setHeader(signed, "signature", undefined), { capability }, {
            fallbackAuthenticated: true,
          }),
          code,
          1,
        );
      }
    }
  });

  Deno.test(`${profile}: a malformed signature field is header_malformed`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_header_malformed");
    const input = header(signed, "signature-input");
    const inner = input.slice(5);
    const list = inner.slice(0, inner.indexOf(")") + 1);
    const params = inner.slice(list.length);
    const bad: Record<string, Parts> = {
      "not a dictionary": setHeader(signed, "signature-input", "sig1=("),
      "garbage": setHeader(signed, "signature-input", "(((("),
      "empty": setHeader(signed, "signature-input", ""),
      "label only in Signature-Input": setHeader(signed, "signature-input", `sig2=${inner}`),
      "label only in Signature": editHeader(signed, "signature", (v) => v.replace("sig1", "sig2")),
      "not an inner list": setHeader(signed, "signature-input", 'sig1="@method"'),
      "component not a string": setHeader(signed, "signature-input", `sig1=(method)${params}`),
      "component with parameters": setHeader(
        signed,
        "signature-input",
        `sig1=${list.replace('"content-type"', '"content-type";sf')}${params}`,
      ),
      "duplicate component": setHeader(
        signed,
        "signature-input",
        `sig1=${list.replace('"@method"', '"@method" "@method"')}${params}`,
      ),
      "upper-case component": setHeader(
        signed,
        "signature-input",
        `sig1=${list.replace('"content-type"', '"Content-Type"')}${params}`,
      ),
      "unknown derived component": setHeader(
        signed,
        "signature-input",
        `sig1=${list.replace('"@method"', '"@query-param"')}${params}`,
      ),
      "duplicate tag parameter": editHeader(
        signed,
        "signature-input",
        (v) => `${v};tag="adcp/request-signing/v1"`,
      ),
      "duplicate label": editHeader(signed, "signature-input", (v) => `${v}, ${v}`),
      "duplicate Signature label": editHeader(signed, "signature", (v) => `${v}, ${v}`),
      "created as a string": setParam(signed, "created", `"${NOW}"`),
      "created as a decimal": setParam(signed, "created", `${NOW}.5`),
      "expires as a token": setParam(signed, "expires", "soon"),
      "keyid as a token": setParam(signed, "keyid", "test-ed25519"),
      "alg as a token": setParam(signed, "alg", "ed25519"),
      "tag as a token": setParam(signed, "tag", "adcp/request-signing/v1"),
      "nonce as a byte sequence": setParam(signed, "nonce", ":AAAAAAAAAAAAAAAAAAAAAA==:"),
      "nonce of 15 bytes": setParam(signed, "nonce", `"${"A".repeat(20)}"`),
      "nonce with padding": setParam(signed, "nonce", `"${"A".repeat(22)}=="`),
      "nonce in the standard alphabet": setParam(signed, "nonce", `"${"+".repeat(22)}"`),
      "nonce with non-canonical pad bits": setParam(signed, "nonce", `"${"A".repeat(21)}B"`),
      "keyid over 256 characters": setParam(signed, "keyid", `"${"k".repeat(257)}"`),
      "non-ASCII in Signature-Input": editHeader(
        signed,
        "signature-input",
        (v) => `${v};x="\u00e9"`,
      ),
      "Signature not a byte sequence": setHeader(signed, "signature", 'sig1="abc"'),
      "Signature an inner list": setHeader(signed, "signature", "sig1=(:AAAA:)"),
      "Signature of the other alphabet": editHeader(
        signed,
        "signature",
        (v) =>
          profile === "3.2"
            ? v.replace(/=*:$/, ":").replace(/\+/g, "-").replace(/\//g, "_")
            : v.replace(/:$/, "==:"),
      ),
      "Signature with non-canonical pad bits": editHeader(signed, "signature", (v) => {
        // The last sextet of 64 bytes carries 2 (sf-binary: 4 before "==") unused bits.
        const m = /^sig1=:(.*?)(=*):$/.exec(v)!;
        const last = m[1]!.slice(-1);
        const replacement = last === "A" ? "B" : String.fromCharCode(last.charCodeAt(0) + 1);
        return `sig1=:${m[1]!.slice(0, -1)}${replacement}${m[2]}:`;
      }),
      "Content-Digest not a byte sequence": setHeader(signed, "content-digest", "sha-256=abc"),
      "Content-Digest duplicate keys": editHeader(signed, "content-digest", (v) => `${v}, ${v}`),
      "Content-Digest not Base64": setHeader(signed, "content-digest", "sha-256=:A:"),
      "multi-valued Content-Type": setHeader(
        signed,
        "content-type",
        "application/json, text/plain",
      ),
      "raw non-ASCII host": { ...signed, url: signed.url.replace(".example", ".ex\u00e4mple") },
    };
    for (const [name, parts] of Object.entries(bad)) {
      const error = await failsWith(verify(profile, parts), code);
      strictEqual(error.step, 1, `${name}: ${error.message}`);
    }
  });

  Deno.test(`${profile}: a missing signature parameter is params_incomplete`, async () => {
    const signed = await sign(profile);
    for (const name of ["created", "expires", "nonce", "keyid", "alg", "tag"]) {
      await failsWith(
        verify(profile, setParam(signed, name, undefined)),
        codeOf(profile, "signature_params_incomplete"),
        2,
      );
    }
  });

  Deno.test(`${profile}: a tag not the profile's, byte for byte, is tag_invalid`, async () => {
    const signed = await sign(profile);
    const tag = profile === "webhook" ? "adcp/webhook-signing/v1" : "adcp/request-signing/v1";
    const other = profile === "webhook" ? "adcp/request-signing/v1" : "adcp/webhook-signing/v1";
    for (
      const bad of [
        other,
        tag.toUpperCase(),
        `${tag}x`,
        tag.slice(0, -1),
        `${tag.slice(0, -1)}2`,
        ` ${tag}`,
        "",
      ]
    ) {
      await failsWith(
        verify(profile, setParam(signed, "tag", JSON.stringify(bad))),
        codeOf(profile, "signature_tag_invalid"),
        3,
      );
    }
  });

  Deno.test(`${profile}: an alg outside the allow-list is alg_not_allowed`, async () => {
    const signed = await sign(profile);
    for (
      const bad of ["rsa-pss-sha512", "hmac-sha256", "ED25519", "ed25519 ", "EdDSA", "ES256", ""]
    ) {
      await failsWith(
        verify(profile, setParam(signed, "alg", JSON.stringify(bad))),
        codeOf(profile, "signature_alg_not_allowed"),
        4,
      );
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Step 5: the window, with its 60 s skew edges

for (const profile of PROFILES) {
  Deno.test(`${profile}: created = now + 60 is accepted, now + 61 is window_invalid`, async () => {
    await verified(profile, await sign(profile, undefined, { created: NOW + 60 }));
    await failsWith(
      verify(profile, await sign(profile, undefined, { created: NOW + 61 })),
      codeOf(profile, "signature_window_invalid"),
      5,
    );
  });

  Deno.test(`${profile}: expires = now - 60 is accepted, now - 61 is window_invalid`, async () => {
    await verified(
      profile,
      await sign(profile, undefined, { created: NOW - 360, expires: NOW - 60 }),
    );
    await failsWith(
      verify(profile, await sign(profile, undefined, { created: NOW - 361, expires: NOW - 61 })),
      codeOf(profile, "signature_window_invalid"),
      5,
    );
  });

  Deno.test(`${profile}: expires - created = 300 is accepted, 301 is window_invalid`, async () => {
    await verified(
      profile,
      await sign(profile, undefined, { created: NOW - 100, expires: NOW + 200 }),
    );
    await failsWith(
      verify(profile, await sign(profile, undefined, { created: NOW - 100, expires: NOW + 201 })),
      codeOf(profile, "signature_window_invalid"),
      5,
    );
  });

  Deno.test(`${profile}: expires <= created is window_invalid`, async () => {
    const signed = await sign(profile);
    for (const expires of [NOW, NOW - 1, 0, -1]) {
      await failsWith(
        verify(profile, setParam(signed, "expires", String(expires))),
        codeOf(profile, "signature_window_invalid"),
        5,
      );
    }
  });

  Deno.test(`${profile}: the window is read against a fractional clock`, async () => {
    // now = NOW + 0.5 s: created = NOW + 60 is within 60 s, NOW + 61 is not.
    const now = () => NOW * 1000 + 500;
    await verified(profile, await sign(profile, undefined, { created: NOW + 60 }), { now });
    await failsWith(
      verify(profile, await sign(profile, undefined, { created: NOW + 61 }), { now }),
      codeOf(profile, "signature_window_invalid"),
      5,
    );
  });

  Deno.test(`${profile}: huge and negative timestamps are window_invalid`, async () => {
    const signed = await sign(profile);
    for (
      const [created, expires] of [
        ["999999999999999", "999999999999999"],
        ["-999999999999999", String(NOW)],
        [String(NOW - 1), "999999999999999"],
        ["0", "300"],
      ]
    ) {
      const parts = setParam(setParam(signed, "created", created!), "expires", expires!);
      await failsWith(verify(profile, parts), codeOf(profile, "signature_window_invalid"), 5);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Step 6: covered components

Deno.test("3.2: a body without content-digest coverage is components_incomplete", async () => {
  const signed = await sign("3.2", undefined, {
    components: ["@method", "@target-uri", "@authority", "content-type"],
  });
  strictEqual(signed.headers["content-digest"], undefined);
  await failsWith(verify("3.2", signed), "request_signature_components_incomplete", 6);
  // Whatever the capability lists say, and with a fallback credential.
  for (
    const capability of [{ supported_for: ["create_media_buy"] }, {
      required_for: ["create_media_buy"],
    }]
  ) {
    await failsWith(
      verify("3.2", signed, { capability }, { fallbackAuthenticated: true }),
      "request_signature_components_incomplete",
      6,
    );
  }
});

for (const profile of PROFILES) {
  Deno.test(`${profile}: a missing required component is components_incomplete`, async () => {
    const all = ["@method", "@target-uri", "@authority", "content-type", "content-digest"];
    for (const missing of ["@method", "@target-uri", "@authority", "content-type"]) {
      const signed = await sign(profile, undefined, {
        components: all.filter((c) => c !== missing),
      });
      await failsWith(
        verify(profile, signed),
        codeOf(profile, "signature_components_incomplete"),
        6,
      );
    }
  });
}

Deno.test("webhook: a delivery without content-digest is components_incomplete", async () => {
  const signed = await sign("webhook", undefined, {
    components: ["@method", "@target-uri", "@authority", "content-type"],
  });
  await failsWith(verify("webhook", signed), "webhook_signature_components_incomplete", 6);
});

Deno.test("3.1: the advertised digest posture decides (either/required/forbidden)", async () => {
  const unbound = await sign("3.1", undefined, undefined, { coverContentDigest: false });
  strictEqual(unbound.headers["content-digest"], undefined);
  const bound = await sign("3.1");
  // "either" (the 3.1 default) accepts both.
  await verified("3.1", unbound);
  await verified("3.1", bound);
  await verified("3.1", unbound, { capability: { covers_content_digest: "either" } });
  // "required" refuses the unbound one.
  const required = { capability: { covers_content_digest: "required" as const } };
  await verified("3.1", bound, required);
  await failsWith(verify("3.1", unbound, required), "request_signature_components_incomplete", 6);
  // "forbidden" refuses the bound one.
  const forbidden = { capability: { covers_content_digest: "forbidden" as const } };
  await verified("3.1", unbound, forbidden);
  await failsWith(verify("3.1", bound, forbidden), "request_signature_components_unexpected", 6);
});

// ---------------------------------------------------------------------------------------------
// Steps 7-9: key resolution, key purpose, revocation

for (const profile of PROFILES) {
  Deno.test(`${profile}: a keyid the keys do not hold is key_unknown`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_key_unknown");
    await failsWith(verify(profile, signed, { keys: [P256.jwk] }), code, 7);
    await failsWith(verify(profile, signed, { keys: [] }), code, 7);
    await failsWith(verify(profile, setParam(signed, "keyid", '"test-ed25519 "')), code, 7);
    await failsWith(verify(profile, setParam(signed, "keyid", '"TEST-ED25519"')), code, 7);
    await failsWith(verify(profile, setParam(signed, "keyid", '"__proto__"')), code, 7);
    // A kid published twice names no key.
    await failsWith(verify(profile, signed, { keys: [ED.jwk, OTHER_ED.jwk] }), code, 7);
  });

  Deno.test(`${profile}: a resolver answering another kid or a non-JWK: key_unknown`, async () => {
    const signed = await sign(profile);
    const answers: unknown[] = [{ ...ED.jwk, kid: "someone-else" }, "jwk", null, 42, []];
    for (const answer of answers) {
      const keys: KeyResolver = { resolve: () => Promise.resolve(answer as AdcpJwk) };
      await failsWith(
        verify(profile, signed, { keys }),
        codeOf(profile, "signature_key_unknown"),
        7,
      );
    }
  });

  Deno.test(`${profile}: a JWK of the wrong purpose is key_purpose_invalid`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_key_purpose_invalid");
    const { use: _use, key_ops: _ops, adcp_use: _adcp, ...bare } = ED.jwk;
    const bad: Record<string, AdcpJwk> = {
      "use enc": { ...ED.jwk, use: "enc" },
      "use absent": { ...bare, key_ops: ["verify"], adcp_use: "request-signing" },
      "key_ops sign": { ...ED.jwk, key_ops: ["sign"] },
      "key_ops empty": { ...ED.jwk, key_ops: [] },
      "key_ops absent": { ...bare, use: "sig", adcp_use: "request-signing" },
      "key_ops a string": { ...ED.jwk, key_ops: "verify" as unknown as string[] },
      "adcp_use absent": { ...bare, use: "sig", key_ops: ["verify"] },
      "adcp_use response-signing": { ...ED.jwk, adcp_use: "response-signing" },
      "adcp_use governance-signing": { ...ED.jwk, adcp_use: "governance-signing" },
      "adcp_use upper-case": { ...ED.jwk, adcp_use: "REQUEST-SIGNING" },
      "adcp_use an array": { ...ED.jwk, adcp_use: ["request-signing"] as unknown as string },
      "alg ES256 on an Ed25519 key": { ...ED.jwk, alg: "ES256" },
      "alg absent": Object.fromEntries(Object.entries(ED.jwk).filter(([k]) => k !== "alg")),
      "crv X25519": { ...ED.jwk, crv: "X25519" },
      "kty EC": { ...ED.jwk, kty: "EC" },
      "material that does not import": { ...ED.jwk, x: "AAAA" },
      "material not Base64URL": { ...ED.jwk, x: "+/+/" },
    };
    for (const [name, jwk] of Object.entries(bad)) {
      const error = await failsWith(verify(profile, signed, { keys: [jwk] }), code);
      strictEqual(error.step, 8, `${name}: ${error.message}`);
    }
  });

  Deno.test(`${profile}: a sig alg not matching the JWK is key_purpose_invalid`, async () => {
    // Signed with Ed25519, claiming ecdsa-p256-sha256 (and the reverse).
    const ed = await sign(profile);
    await failsWith(
      verify(profile, setParam(ed, "alg", '"ecdsa-p256-sha256"')),
      codeOf(profile, "signature_key_purpose_invalid"),
      8,
    );
    const ec = await sign(profile, undefined, undefined, { signWith: P256 });
    await failsWith(
      verify(profile, setParam(ec, "alg", '"ed25519"')),
      codeOf(profile, "signature_key_purpose_invalid"),
      8,
    );
    // A P-256 JWK published as P-384.
    await failsWith(
      verify(profile, ec, { keys: [{ ...P256.jwk, crv: "P-384" }] }),
      codeOf(profile, "signature_key_purpose_invalid"),
      8,
    );
  });

  Deno.test(`${profile}: a revoked keyid is key_revoked, before the crypto check`, async () => {
    const revocation = new RevocationList();
    revocation.update({
      updated: new Date((NOW - 60) * 1000).toISOString(),
      next_update: new Date((NOW + 840) * 1000).toISOString(),
      revoked_kids: [ED.kid],
    });
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_key_revoked");
    await failsWith(verify(profile, signed, { revocation }), code, 9);
    // A forged signature is refused as revoked too (step 9 runs before step 10).
    await failsWith(verify(profile, forge(profile, signed), { revocation }), code, 9);
    // Other keys are fine on the same list.
    await verified(profile, await sign(profile, undefined, undefined, { signWith: P256 }), {
      revocation,
    });
  });

  Deno.test(`${profile}: a stale or never-loaded revocation list is revocation_stale`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_revocation_stale");
    await failsWith(verify(profile, signed, { revocation: new RevocationList() }), code, 9);
    const old = new RevocationList();
    old.update({
      updated: new Date((NOW - 10_000) * 1000).toISOString(),
      next_update: new Date((NOW - 9_100) * 1000).toISOString(), // stale after NOW - 5500
      revoked_kids: [],
    });
    await failsWith(verify(profile, signed, { revocation: old }), code, 9);
    // A source answering anything but "valid" or "revoked" fails closed.
    const odd: RevocationSource = { status: () => "unknown" as "valid" };
    await failsWith(verify(profile, signed, { revocation: odd }), code, 9);
    // Async sources are awaited.
    const fresh: RevocationSource = { status: () => Promise.resolve("valid" as const) };
    await verified(profile, signed, { revocation: fresh });
  });
}

// ---------------------------------------------------------------------------------------------
// Step 9a, 10-14

for (const profile of PROFILES) {
  Deno.test(`${profile}: a keyid at its replay cap is rate_abuse, before crypto`, async () => {
    const replay = new InMemoryReplayStore({ maxEntriesPerKeyid: 1 });
    await verified(profile, await sign(profile), { replay });
    const code = codeOf(profile, "signature_rate_abuse");
    await failsWith(verify(profile, await sign(profile), { replay }), code, "9a");
    // A forged signature is refused by the cap too, and costs no verification.
    await failsWith(verify(profile, forge(profile, await sign(profile)), { replay }), code, "9a");
    // Another key is not capped.
    await verified(profile, await sign(profile, undefined, undefined, { signWith: P256 }), {
      replay,
    });
    strictEqual(replay.stats(NOW).entries, 2);
  });

  Deno.test(`${profile}: a full store is rate_abuse for every keyid`, async () => {
    const replay = new InMemoryReplayStore({ maxEntries: 1 });
    await verified(profile, await sign(profile), { replay });
    await failsWith(
      verify(profile, await sign(profile, undefined, undefined, { signWith: P256 }), { replay }),
      codeOf(profile, "signature_rate_abuse"),
      "9a",
    );
  });

  Deno.test(`${profile}: one flipped signature bit is signature_invalid`, async () => {
    const signed = await sign(profile);
    const replay = new InMemoryReplayStore();
    for (const bit of [0, 7, 100, 255, 256, 511]) {
      await failsWith(
        verify(profile, flipSignatureBit(profile, signed, bit), { replay }),
        codeOf(profile, "signature_invalid"),
        10,
      );
    }
    // Nothing that failed step 10 entered the replay cache: the good one still verifies.
    strictEqual(replay.stats(NOW).entries, 0);
    await verified(profile, signed, { replay });
  });

  Deno.test(`${profile}: a changed covered value is signature_invalid`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_invalid");
    const url = new URL(signed.url);
    const changed: Record<string, Parts> = {
      "method": { ...signed, method: "PUT" },
      "path": { ...signed, url: signed.url.replace(url.pathname, `${url.pathname}x`) },
      "query": { ...signed, url: signed.url.replace(url.search, `${url.search}&y=2`) },
      "query order": { ...signed, url: `${url.origin}${url.pathname}?b=1&a=2` },
      "authority": { ...signed, url: signed.url.replace(url.host, `other.${url.host}`) },
      "port": { ...signed, url: signed.url.replace(url.host, `${url.host}:8443`) },
      "scheme": { ...signed, url: signed.url.replace("https:", "http:") },
      "content-type": setHeader(signed, "content-type", "application/json; charset=utf-8"),
      "content-digest": setHeader(
        signed,
        "content-digest",
        `${header(signed, "content-digest")}`.replace(
          /^sha-256/,
          "sha-512",
        ),
      ),
      "a parameter": setParam(signed, "expires", String(NOW + 299)),
      "the nonce": setParam(signed, "nonce", `"${"B".repeat(22)}"`.replace(/B"$/, 'A"')),
      "the keyid to another key's": setParam(signed, "keyid", `"${OTHER_ED.kid}x"`),
    };
    for (const [name, parts] of Object.entries(changed)) {
      const keys = name === "the keyid to another key's"
        ? [ED.jwk, { ...OTHER_ED.jwk, kid: `${OTHER_ED.kid}x` }]
        : undefined;
      const error = await failsWith(
        verify(profile, parts, keys === undefined ? {} : { keys }),
        code,
      );
      strictEqual(error.step, 10, `${name}: ${error.message}`);
    }
  });

  Deno.test(`${profile}: another key under the signer's kid is signature_invalid`, async () => {
    const signed = await sign(profile);
    await failsWith(
      verify(profile, signed, { keys: [OTHER_ED.jwk] }),
      codeOf(profile, "signature_invalid"),
      10,
    );
  });

  Deno.test(`${profile}: a changed body under a covered digest is digest_mismatch`, async () => {
    const signed = await sign(profile);
    const body = signed.body as string;
    const code = codeOf(profile, "signature_digest_mismatch");
    for (
      const changed of [
        body.replace("}", " }"),
        `${body} `,
        body.slice(0, -1),
        body.replace(/"/, "'"),
        "",
      ]
    ) {
      if (changed === "" && profile !== "webhook") continue; // no body: no digest required
      await failsWith(verify(profile, { ...signed, body: changed }), code, 11);
    }
  });

  Deno.test(`${profile}: the same signed message twice is signature_replayed`, async () => {
    const signed = await sign(profile);
    const verifier = makeVerifier(profile);
    await verifier.verify(signed);
    await failsWith(verifier.verify(signed), codeOf(profile, "signature_replayed"), 12);
    await failsWith(verifier.verify(signed), codeOf(profile, "signature_replayed"), 12);
  });

  Deno.test(`${profile}: a body with duplicate keys is body_malformed, nonce burned`, async () => {
    const body = profile === "webhook"
      ? '{"task_id":"t1","status":"completed","status":"failed"}'
      : '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy",' +
        '"arguments":{"budget":1,"budget":1000000}}}';
    const signed = await sign(profile, message(profile, body));
    const replay = new InMemoryReplayStore();
    await failsWith(verify(profile, signed, { replay }), codeOf(profile, "body_malformed"), 14);
    // Step 13 ran before step 14: a retry of the frame is a replay.
    strictEqual(replay.stats(NOW).entries, 1);
    await failsWith(verify(profile, signed, { replay }), codeOf(profile, "signature_replayed"), 12);
  });

  Deno.test(`${profile}: a JSON body that is not JSON or not UTF-8 is body_malformed`, async () => {
    const code = codeOf(profile, "body_malformed");
    await failsWith(verify(profile, await sign(profile, message(profile, "{not json"))), code, 14);
    const latin1 = message(profile);
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]); // {"\xff":1}
    await failsWith(verify(profile, await sign(profile, { ...latin1, body: bytes })), code, 14);
  });

  Deno.test(`${profile}: a Host not the target's authority is target_uri_malformed`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "target_uri_malformed");
    const url = new URL(signed.url);
    for (const host of ["evil.example", `${url.host}:8443`, `other.${url.host}`, `${url.host}..`]) {
      await failsWith(verify(profile, setHeader(signed, "host", host)), code, 10);
    }
    // Host equal after canonicalization is fine.
    await verified(profile, setHeader(signed, "host", `${url.host}.`));
  });

  Deno.test(`${profile}: an :authority not the target's is target_uri_malformed`, async () => {
    const signed = await sign(profile);
    const url = new URL(signed.url);
    const code = codeOf(profile, "target_uri_malformed");
    await failsWith(verify(profile, signed, {}, { authority: "evil.example" }), code, 10);
    await verified(profile, signed, {}, { authority: url.host.toUpperCase() });
    // :authority and Host must agree too.
    await failsWith(
      verify(profile, setHeader(signed, "host", "evil.example"), {}, { authority: url.host }),
      code,
      10,
    );
    await verified(profile, setHeader(signed, "host", url.host), {}, { authority: url.host });
  });

  Deno.test(`${profile}: a malformed target URL is target_uri_malformed`, async () => {
    const signed = await sign(profile);
    const url = new URL(signed.url);
    for (
      const bad of [
        signed.url.replace(url.host, `${url.host}..`),
        signed.url.replace(url.host, "[fe80::1%25eth0]"),
        `${signed.url}%zz`,
      ]
    ) {
      await failsWith(
        verify(profile, { ...signed, url: bad }),
        codeOf(profile, "target_uri_malformed"),
        10,
      );
    }
  });

  Deno.test(`${profile}: a covered header that is absent is signature_invalid`, async () => {
    const signed = await sign(profile);
    await failsWith(
      verify(profile, setHeader(signed, "content-type", undefined)),
      codeOf(profile, "signature_invalid"),
      10,
    );
  });
}

Deno.test({
  name: "a signature at the window's edge (expires = now - 60) is not accepted twice",
  async fn() {
    for (const profile of PROFILES) {
      const signed = await sign(profile, undefined, { created: NOW - 360, expires: NOW - 60 });
      const verifier = makeVerifier(profile);
      await verifier.verify(signed);
      await failsWith(verifier.verify(signed), codeOf(profile, "signature_replayed"), 12);
    }
  },
});

Deno.test({
  name: "a clock that answers NaN or a non-number never opens the window or the replay cache",
  async fn() {
    const expired = await sign("3.2", undefined, { created: NOW - 100_000, expires: NOW - 99_800 });
    for (const now of [() => NaN, () => undefined as unknown as number, () => "soon" as never]) {
      const verifier = makeVerifier("3.2", { now });
      const error = await rejection(verifier.verify(expired));
      ok(
        error instanceof TypeError || error instanceof RangeError ||
          (error instanceof SignatureVerificationError &&
            error.code === "request_signature_window_invalid"),
        `${error}`,
      );
    }
  },
});

Deno.test("checks run in the checklist's order: the earliest failing step answers", async () => {
  const signed = await sign("3.2");
  const broken = setParam(setParam(signed, "tag", '"x"'), "alg", '"none"');
  await failsWith(verify("3.2", broken), "request_signature_tag_invalid", 3);
  await failsWith(
    verify("3.2", setParam(broken, "nonce", undefined)),
    "request_signature_params_incomplete",
    2,
  );
  const late = setParam(signed, "created", String(NOW + 1000));
  await failsWith(verify("3.2", late, { keys: [] }), "request_signature_window_invalid", 5);
  // Unknown key before revocation, before the cap.
  const replay = new InMemoryReplayStore({ maxEntriesPerKeyid: 1 });
  replay.insert(ED.kid, "x", NOW + 1000, NOW);
  await failsWith(
    verify("3.2", signed, { keys: [], replay, revocation: new RevocationList() }),
    "request_signature_key_unknown",
    7,
  );
  await failsWith(
    verify("3.2", signed, { replay, revocation: new RevocationList() }),
    "request_signature_revocation_stale",
    9,
  );
});

// ---------------------------------------------------------------------------------------------
// Cross-profile: a signature of one profile on the other's verifier

Deno.test("a request signature on a webhook verifier: webhook_signature_tag_invalid", async () => {
  // 3.1 request signatures share the webhook's Base64URL spelling, so step 3 decides.
  const request = await sign("3.1", message("webhook"));
  await failsWith(verify("webhook", request), "webhook_signature_tag_invalid", 3);
  // A 3.2 request signature (sf-binary) fails the webhook parser first: the parser mode is the
  // route's, never a fallback (security.mdx, webhook checklist).
  const v32 = await sign("3.2", message("webhook"));
  await failsWith(verify("webhook", v32), "webhook_signature_header_malformed", 1);
});

Deno.test("a webhook signature on a request verifier: request_signature_tag_invalid", async () => {
  const hook = await sign("webhook", message("3.1"));
  await failsWith(verify("3.1", hook), "request_signature_tag_invalid", 3);
  // The webhook's Base64URL Signature is not 3.2 sf-binary.
  await failsWith(verify("3.2", hook), "request_signature_header_malformed", 1);
});

Deno.test("webhook: a deprecated webhook-signing key verifies; requests refuse it", async () => {
  const jwk = { ...ED.jwk, adcp_use: "webhook-signing" };
  await verified("webhook", await sign("webhook"), { keys: [jwk] });
  for (const profile of ["3.2", "3.1"] as const) {
    await failsWith(
      verify(profile, await sign(profile), { keys: [jwk] }),
      "request_signature_key_purpose_invalid",
      8,
    );
  }
});

// ---------------------------------------------------------------------------------------------
// Webhook mode

Deno.test("webhook: legacy HMAC headers on a 9421 route are webhook_mode_mismatch", async () => {
  const unsigned = message("webhook");
  for (
    const headers of [
      { "x-adcp-signature": "sha256=abcdef", "x-adcp-timestamp": String(NOW) },
      { "X-ADCP-Signature": "sha256=abcdef" },
      { "x-adcp-timestamp": String(NOW) },
    ]
  ) {
    await failsWith(
      verify("webhook", { ...unsigned, headers: { ...unsigned.headers, ...headers } }),
      "webhook_mode_mismatch",
      0,
    );
  }
});

Deno.test("webhook: an unsigned delivery is webhook_signature_header_malformed", async () => {
  await failsWith(verify("webhook", message("webhook")), "webhook_signature_header_malformed", 1);
});

// ---------------------------------------------------------------------------------------------
// Capability composition (request verifier)

const REQUIRED = { capability: { required_for: ["create_media_buy"] } };

Deno.test("required_for: unsigned without a credential is request_signature_required", async () => {
  const unsigned = message("3.2");
  await failsWith(verify("3.2", unsigned, REQUIRED), "request_signature_required", 0);
  // The operation may be given instead of read from the body.
  await failsWith(
    verify("3.2", { ...unsigned, body: "{}" }, REQUIRED, { operation: "create_media_buy" }),
    "request_signature_required",
    0,
  );
  // A non-boolean credential flag is no credential.
  await failsWith(
    verify("3.2", unsigned, REQUIRED, {
      fallbackAuthenticated: "yes" as unknown as boolean,
    }),
    "request_signature_required",
    0,
  );
});

Deno.test("required_for: unsigned with a fallback credential passes, no signer", async () => {
  const result = await verify("3.2", message("3.2"), REQUIRED, {
    fallbackAuthenticated: true,
  }) as Verified;
  strictEqual(result.authentication, "fallback");
  strictEqual(result.signer, undefined);
  strictEqual(result.warning, undefined);
  strictEqual(result.operation, "create_media_buy");
  strictEqual(result.payload, undefined);
});

Deno.test("an unlisted operation may be unsigned: authentication none", async () => {
  const result = await verify("3.2", message("3.2")) as Verified;
  strictEqual(result.authentication, "none");
  strictEqual(result.signer, undefined);
  const other = await verify("3.2", message("3.2"), REQUIRED, { operation: "get_products" });
  strictEqual((other as Verified).authentication, "none");
});

Deno.test("required_for: a signed request is judged on its merits, fallback or not", async () => {
  const signed = await sign("3.2");
  const ok1 = await verified("3.2", signed, REQUIRED, { fallbackAuthenticated: true });
  strictEqual(ok1.operation, "create_media_buy");
  await failsWith(
    verify("3.2", flipSignatureBit("3.2", signed, 3), REQUIRED, { fallbackAuthenticated: true }),
    "request_signature_invalid",
    10,
  );
  // Outside required_for too.
  await failsWith(
    verify("3.2", flipSignatureBit("3.2", signed, 3), {}, { fallbackAuthenticated: true }),
    "request_signature_invalid",
    10,
  );
});

Deno.test("a malformed signature blocks fallback for any operation", async () => {
  const signed = setHeader(await sign("3.2"), "signature-input", "sig1=(");
  for (const operation of ["create_media_buy", "get_products"]) {
    await failsWith(
      verify("3.2", signed, REQUIRED, { operation, fallbackAuthenticated: true }),
      "request_signature_header_malformed",
      1,
    );
  }
});

Deno.test("warn_for: failures come back as a warning and never a signer", async () => {
  const warn = { capability: { warn_for: ["create_media_buy"] } };
  // Unsigned.
  const unsigned = await verify("3.2", message("3.2"), warn) as Verified;
  strictEqual(unsigned.authentication, "none");
  strictEqual(unsigned.warning, "request_signature_required");
  strictEqual(unsigned.signer, undefined);
  const unsignedFallback = await verify("3.2", message("3.2"), warn, {
    fallbackAuthenticated: true,
  }) as Verified;
  strictEqual(unsignedFallback.authentication, "fallback");
  strictEqual(unsignedFallback.warning, "request_signature_required");
  // Well-formed signatures that fail.
  const signed = await sign("3.2");
  const failures: [Parts, string][] = [
    [flipSignatureBit("3.2", signed, 9), "request_signature_invalid"],
    [
      { ...signed, body: (signed.body as string).replace("1000", "9999") },
      "request_signature_digest_mismatch",
    ],
    [setParam(signed, "tag", '"x"'), "request_signature_tag_invalid"],
    [
      await sign("3.2", undefined, {
        components: ["@method", "@target-uri", "@authority", "content-type"],
      }),
      "request_signature_components_incomplete",
    ],
  ];
  for (const [parts, code] of failures) {
    for (const fallbackAuthenticated of [false, true]) {
      const result = await verify("3.2", parts, warn, { fallbackAuthenticated }) as Verified;
      strictEqual(result.warning, code);
      strictEqual(result.signer, undefined);
      strictEqual(result.payload, undefined);
      strictEqual(result.authentication, fallbackAuthenticated ? "fallback" : "none");
    }
  }
  // A valid signature in shadow mode still establishes the signer.
  const good = await verified("3.2", signed, warn);
  strictEqual(good.warning, undefined);
  // Malformed or partial pairs still hard-reject.
  await failsWith(
    verify("3.2", setHeader(signed, "signature-input", "sig1=("), warn, {
      fallbackAuthenticated: true,
    }),
    "request_signature_header_malformed",
  );
  await failsWith(
    verify("3.2", setHeader(signed, "signature", undefined), warn, { fallbackAuthenticated: true }),
    "request_signature_header_malformed",
  );
});

Deno.test("required_for wins over warn_for and supported_for", async () => {
  const both = {
    capability: {
      required_for: ["create_media_buy"],
      warn_for: ["create_media_buy"],
      supported_for: ["create_media_buy"],
    },
  };
  await failsWith(verify("3.2", message("3.2"), both), "request_signature_required", 0);
  const warnSupported = {
    capability: { warn_for: ["create_media_buy"], supported_for: ["create_media_buy"] },
  };
  strictEqual(
    (await verify("3.2", message("3.2"), warnSupported) as Verified).warning,
    "request_signature_required",
  );
});

Deno.test("supported_for: unsigned passes; a bad signature is rejected", async () => {
  const supported = { capability: { supported_for: ["create_media_buy"] } };
  strictEqual((await verify("3.2", message("3.2"), supported) as Verified).authentication, "none");
  await failsWith(
    verify("3.2", flipSignatureBit("3.2", await sign("3.2"), 1), supported),
    "request_signature_invalid",
    10,
  );
});

Deno.test("supported: false ignores signatures, even broken ones", async () => {
  const off = { capability: { supported: false, required_for: ["create_media_buy"] } };
  const broken = setHeader(await sign("3.2"), "signature-input", "sig1=(");
  const result = await verify("3.2", broken, off, { fallbackAuthenticated: true }) as Verified;
  strictEqual(result.authentication, "fallback");
  strictEqual(result.signer, undefined);
  strictEqual((await verify("3.2", message("3.2"), off) as Verified).authentication, "none");
});

const CANCEL_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 7,
  method: "tasks/cancel",
  params: { id: "task_1" },
});

Deno.test("protocol_methods_required_for: the JSON-RPC method is read from the body", async () => {
  const env = { capability: { protocol_methods_required_for: ["tasks/cancel"] } };
  const unsigned = message("3.2", CANCEL_BODY);
  await failsWith(verify("3.2", unsigned, env), "request_signature_required", 0);
  const fallback = await verify("3.2", unsigned, env, { fallbackAuthenticated: true }) as Verified;
  strictEqual(fallback.authentication, "fallback");
  strictEqual(fallback.protocolMethod, "tasks/cancel");
  strictEqual(fallback.operation, undefined);
  const signed = await verified("3.2", await sign("3.2", unsigned), env);
  strictEqual(signed.protocolMethod, "tasks/cancel");
  // The protocolMethod option is used as given.
  await failsWith(
    verify("3.2", { ...unsigned, body: "{}" }, env, { protocolMethod: "tasks/cancel" }),
    "request_signature_required",
    0,
  );
});

Deno.test("protocol_methods_warn_for: an unsigned method comes back with a warning", async () => {
  const env = { capability: { protocol_methods_warn_for: ["tasks/cancel"] } };
  const result = await verify("3.2", message("3.2", CANCEL_BODY), env) as Verified;
  strictEqual(result.warning, "request_signature_required");
  strictEqual(result.authentication, "none");
});

Deno.test("no cross-namespace match: a tools/call named tasks/cancel is not it", async () => {
  const env = { capability: { protocol_methods_required_for: ["tasks/cancel"] } };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "tasks/cancel", arguments: {} },
  });
  const result = await verify("3.2", message("3.2", body), env) as Verified;
  strictEqual(result.authentication, "none");
  strictEqual(result.protocolMethod, undefined);
  // And a JSON-RPC method named like an operation is not that operation.
  const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "create_media_buy", params: {} });
  const other = await verify("3.2", message("3.2", rpc), REQUIRED) as Verified;
  strictEqual(other.authentication, "none");
  strictEqual(other.operation, undefined);
  strictEqual(other.protocolMethod, "create_media_buy");
});

Deno.test("non-JSON-RPC bodies name no operation; non-strict JSON is refused", async () => {
  for (
    const body of [
      '{"jsonrpc":"1.0","method":"tools/call","params":{"name":"create_media_buy"}}',
      '{"method":"tools/call","params":{"name":"create_media_buy"}}',
      '{"jsonrpc":"2.0","method":"tools/call","params":{"name":7}}',
    ]
  ) {
    const result = await verify("3.2", message("3.2", body), REQUIRED) as Verified;
    strictEqual(result.authentication, "none", body);
    strictEqual(result.operation, undefined, body);
  }
  for (
    const body of [
      "not json",
      '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"create_media_buy","name":"x"}}',
    ]
  ) {
    await failsWith(verify("3.2", message("3.2", body), REQUIRED), "request_body_malformed", 0);
  }
  // The operation of a text/plain body is read all the same.
  const plain = { ...message("3.2"), headers: { "content-type": "text/plain" } };
  await failsWith(verify("3.2", plain, REQUIRED), "request_signature_required", 0);
});

Deno.test("an unsigned webhook authentication block is signature_required, always", async () => {
  const auth = { schemes: ["HMAC-SHA256"], credentials: "x".repeat(32) };
  const bodies = [
    // tools/call arguments.
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "create_media_buy",
        arguments: {
          push_notification_config: { url: "https://b.example/h", authentication: auth },
        },
      },
    },
    // accounts[].notification_configs[].
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "sync_accounts",
        arguments: {
          accounts: [{
            notification_configs: [{ url: "https://b.example/h" }, { authentication: auth }],
          }],
        },
      },
    },
    // sync_agent_notification_configs.
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "sync_agent_notification_configs",
        arguments: { notification_configs: [{ url: "https://b.example/h", authentication: auth }] },
      },
    },
    // A plain JSON body (A2A or REST-style routes).
    { push_notification_config: { url: "https://b.example/h", authentication: auth } },
    // A2A message params.
    {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: { configuration: { push_notification_config: { authentication: auth } } },
    },
  ];
  for (const body of bodies) {
    for (const fallbackAuthenticated of [false, true]) {
      await failsWith(
        verify("3.2", message("3.2", JSON.stringify(body)), {}, { fallbackAuthenticated }),
        "request_signature_required",
        0,
      );
      await failsWith(
        verify("3.2", message("3.2", JSON.stringify(body)), {}, {
          fallbackAuthenticated,
          operation: "create_media_buy",
        }),
        "request_signature_required",
        0,
      );
    }
    // Signed, it passes.
    await verified("3.2", await sign("3.2", message("3.2", JSON.stringify(body))));
  }
  // A null or absent authentication is no block.
  const none = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "create_media_buy",
      arguments: { push_notification_config: { url: "https://b.example/h", authentication: null } },
    },
  };
  strictEqual(
    (await verify("3.2", message("3.2", JSON.stringify(none))) as Verified).authentication,
    "none",
  );
});

Deno.test({
  name: "a webhook authentication block requires a signature when operation and method are given",
  async fn() {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "create_media_buy",
        arguments: { push_notification_config: { url: "https://b.example/h", authentication: {} } },
      },
    });
    await failsWith(
      verify("3.2", message("3.2", body), {}, {
        operation: "create_media_buy",
        protocolMethod: "tools/call",
        fallbackAuthenticated: true,
      }),
      "request_signature_required",
      0,
    );
  },
});

Deno.test({
  name: "a webhook authentication block in a JSON array body requires a signature",
  async fn() {
    const body = JSON.stringify([{
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "create_media_buy",
        arguments: { push_notification_config: { url: "https://b.example/h", authentication: {} } },
      },
    }]);
    await failsWith(
      verify("3.2", message("3.2", body), {}, { fallbackAuthenticated: true }),
      "request_signature_required",
      0,
    );
  },
});

Deno.test({
  name: "a webhook authentication block nested deeper than 32 levels still requires a signature",
  async fn() {
    let inner: unknown = {
      push_notification_config: { url: "https://b.example/h", authentication: {} },
    };
    for (let i = 0; i < 40; i++) inner = { ext: inner };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "create_media_buy", arguments: inner },
    });
    await failsWith(
      verify("3.2", message("3.2", body), {}, { fallbackAuthenticated: true }),
      "request_signature_required",
      0,
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Key resolvers: JWKS failures and the signal

for (const profile of PROFILES) {
  Deno.test(`${profile}: a resolver's JwksError is jwks_unavailable / jwks_untrusted`, async () => {
    const signed = await sign(profile);
    for (const reason of ["unavailable", "untrusted"] as const) {
      const cause = new JwksError(reason, "test");
      const keys: KeyResolver = { resolve: () => Promise.reject(cause) };
      const error = await failsWith(
        verify(profile, signed, { keys }),
        codeOf(profile, `signature_jwks_${reason}`),
        7,
      );
      strictEqual(error.cause, cause);
    }
  });

  Deno.test(`${profile}: a resolver's other errors propagate, burning no nonce`, async () => {
    const signed = await sign(profile);
    const boom = new Error("resolver bug");
    const replay = new InMemoryReplayStore();
    const keys: KeyResolver = { resolve: () => Promise.reject(boom) };
    strictEqual(await rejection(verify(profile, signed, { keys, replay })), boom);
    strictEqual(replay.stats(NOW).entries, 0);
  });
}

Deno.test("the verify signal reaches the resolver, which may abort with it", async () => {
  for (const profile of PROFILES) {
    const signed = await sign(profile);
    let received: AbortSignal | undefined;
    const keys: KeyResolver = {
      resolve(_keyid: string, context?: ResolveKeyContext) {
        received = context?.signal;
        return new Promise((_, reject) => {
          const signal = context?.signal;
          if (signal === undefined) return reject(new Error("no signal"));
          if (signal.aborted) return reject(signal.reason);
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      },
    };
    const controller = new AbortController();
    const pending = verify(profile, signed, { keys }, { signal: controller.signal });
    await Promise.resolve();
    controller.abort(new DOMException("stop", "AbortError"));
    const error = await rejection(pending);
    ok(error instanceof DOMException && error.name === "AbortError", `${error}`);
    strictEqual(received, controller.signal);
  }
});

Deno.test({
  name: "an aborted signal ends verification even when the resolver ignores it",
  async fn() {
    const signed = await sign("3.2");
    const keys: KeyResolver = { resolve: () => new Promise(() => {}) };
    const controller = new AbortController();
    const pending = verify("3.2", signed, { keys }, { signal: controller.signal });
    controller.abort();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve("hung"), 1_000);
    });
    try {
      const outcome = await Promise.race([
        pending.then(() => "resolved", () => "rejected"),
        timeout,
      ]);
      strictEqual(outcome, "rejected");
    } finally {
      clearTimeout(timer);
    }
  },
});

// ---------------------------------------------------------------------------------------------
// Bodies and inputs

Deno.test("verifiers stop reading a body over maxBodyBytes", async () => {
  for (const profile of PROFILES) {
    const signed = await sign(profile);
    const error = await rejection(verify(profile, signed, { maxBodyBytes: 10 }));
    ok(error instanceof BodyTooLargeError, `${error}`);
    strictEqual(error.maxBytes, 10);
    // A streamed Request body is cancelled at the cap.
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: stream,
    });
    ok(
      (await rejection(verify(profile, request, { maxBodyBytes: 1_000 }))) instanceof
        BodyTooLargeError,
    );
    ok(cancelled);
    ok(pulled < 40, `pulled ${pulled} chunks`);
    // A declared Content-Length over the cap is refused before reading.
    const declared = new Request(signed.url, {
      method: "POST",
      headers: { ...signed.headers, "content-length": "999999999" },
      body: "{}",
    });
    ok(
      (await rejection(verify(profile, declared, { maxBodyBytes: 1_000 }))) instanceof
        BodyTooLargeError,
    );
  }
});

Deno.test("verify() refuses inputs that are not a Request or message parts", async () => {
  for (const profile of PROFILES) {
    const action = profile === "webhook" ? "verify the webhook" : "verify the request";
    const v = makeVerifier(profile);
    await rejectsOption(
      v.verify("https://x.example" as unknown as Request),
      TypeError,
      `Cannot ${action} as 'input' must be a Request or message parts: current value is ` +
        `"https://x.example"`,
    );
    await rejectsOption(
      v.verify(null as unknown as Request),
      TypeError,
      `Cannot ${action} as 'input' must be a Request or message parts: current value is null`,
    );
    await rejectsOption(
      v.verify({ method: "POST" } as unknown as Request),
      TypeError,
      `Cannot ${action} as 'input' must be an object with method and url strings: current ` +
        "value is an object",
    );
    await rejectsOption(
      v.verify({ method: "POST", url: "https://x.example", body: 5 } as unknown as Request),
      TypeError,
      `Cannot ${action} as 'input.body' must be a Uint8Array or a string: current value is 5`,
    );
    await rejectsOption(
      v.verify({ method: "POST", url: "https://x.example", headers: { "a b": "c" } }),
      TypeError,
      `Cannot ${action} as 'input.headers' must be valid header fields: current value is an object`,
    );
    await rejectsOption(
      v.verify(message(profile), null as unknown as VerifyRequestOptions),
      TypeError,
      `Cannot ${action} as 'options' must be an object: current value is null`,
    );
  }
});

// ---------------------------------------------------------------------------------------------
// Option errors: verifiers

Deno.test("RequestVerifier refuses bad options with the option message", () => {
  const a = "Cannot create the request verifier as";
  const keys = [ED.jwk];
  const cases: [() => unknown, ErrorConstructor, string][] = [
    [
      () => new RequestVerifier(null as never),
      TypeError,
      `${a} 'options' must be an object: current value is null`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys: "jwks" as never }),
      TypeError,
      `${a} 'keys' must be a KeyResolver, a JWKS or an array of JWKs: current value is "jwks"`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys: {} as never }),
      TypeError,
      `${a} 'keys' must be a KeyResolver, a JWKS or an array of JWKs: current value is an object`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys, profile: "3.0" as never }),
      RangeError,
      `${a} 'profile' must be "3.2" or "3.1": current value is "3.0"`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys, now: 5 as never }),
      TypeError,
      `${a} 'now' must be a function: current value is 5`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys, maxBodyBytes: 0 }),
      RangeError,
      `${a} 'maxBodyBytes' must be a positive safe integer: current value is 0`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys, maxBodyBytes: "1" as never }),
      TypeError,
      `${a} 'maxBodyBytes' must be a positive safe integer: current value is "1"`,
    ],
    [
      // (null is read as "no capability", like undefined.)
      () => new RequestVerifier({ revocation: null, keys, capability: "all" as never }),
      TypeError,
      `${a} 'capability' must be an object: current value is "all"`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { covers_content_digest: "either" },
        }),
      RangeError,
      `${a} 'capability.covers_content_digest' must be "required" on a 3.2 endpoint (legacy ` +
      `postures need profile "3.1"): current value is "either"`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { covers_content_digest: "forbidden" },
        }),
      RangeError,
      `${a} 'capability.covers_content_digest' must be "required" on a 3.2 endpoint (legacy ` +
      `postures need profile "3.1"): current value is "forbidden"`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          profile: "3.1",
          capability: { covers_content_digest: "sometimes" as never },
        }),
      RangeError,
      `${a} 'capability.covers_content_digest' must be "required", "forbidden" or "either": ` +
      `current value is "sometimes"`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { required_for: ["tasks/cancel"] },
        }),
      RangeError,
      `${a} 'capability.required_for' must be AdCP operation names (no '/'), not JSON-RPC ` +
      `methods: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { warn_for: ["a", "tasks/get"] },
        }),
      RangeError,
      `${a} 'capability.warn_for' must be AdCP operation names (no '/'), not JSON-RPC ` +
      `methods: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { supported_for: "create_media_buy" as never },
        }),
      TypeError,
      `${a} 'capability.supported_for' must be an array of strings: current value is ` +
      `"create_media_buy"`,
    ],
    [
      () =>
        new RequestVerifier({ revocation: null, keys, capability: { required_for: [1] as never } }),
      TypeError,
      `${a} 'capability.required_for' must be an array of strings: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { protocol_methods_required_for: ["create_media_buy"] },
        }),
      RangeError,
      `${a} 'capability.protocol_methods_required_for' must be JSON-RPC method names (with a ` +
      `'/'), not AdCP operations: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { protocol_methods_warn_for: ["get"] },
        }),
      RangeError,
      `${a} 'capability.protocol_methods_warn_for' must be JSON-RPC method names (with a '/'), ` +
      `not AdCP operations: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { protocol_methods_supported_for: [null] as never },
        }),
      TypeError,
      `${a} 'capability.protocol_methods_supported_for' must be an array of strings: current ` +
      `value is an array`,
    ],
  ];
  for (const [fn, kind, text] of cases) throwsOption(fn, kind, text);
  // The valid shapes of `keys`.
  new RequestVerifier({ revocation: null, keys: { keys } });
  new RequestVerifier({ revocation: null, keys: { resolve: () => Promise.resolve(undefined) } });
  new RequestVerifier({
    revocation: null,
    keys,
    profile: "3.1",
    capability: { covers_content_digest: "forbidden" },
  });
});

Deno.test("WebhookVerifier refuses bad options with the option message", () => {
  const a = "Cannot create the webhook verifier as";
  const keys = [ED.jwk];
  throwsOption(
    () => new WebhookVerifier(undefined as never),
    TypeError,
    `${a} 'options' must be an object: current value is undefined`,
  );
  throwsOption(
    () => new WebhookVerifier({ revocation: null, keys: null as never }),
    TypeError,
    `${a} 'keys' must be a KeyResolver, a JWKS or an array of JWKs: current value is null`,
  );
  throwsOption(
    () => new WebhookVerifier({ revocation: null, keys, now: "now" as never }),
    TypeError,
    `${a} 'now' must be a function: current value is "now"`,
  );
  throwsOption(
    () => new WebhookVerifier({ revocation: null, keys, maxBodyBytes: 1.5 }),
    RangeError,
    `${a} 'maxBodyBytes' must be a positive safe integer: current value is 1.5`,
  );
});

// ---------------------------------------------------------------------------------------------
// Option errors: signers

Deno.test("RequestSigner and WebhookSigner refuse bad options with the option message", () => {
  const base = { key: ED.privateKey, keyid: "k", alg: "ed25519" as const };
  for (
    const [name, make] of [
      ["request", (o: object) => new RequestSigner(o as RequestSignerOptions)],
      ["webhook", (o: object) => new WebhookSigner(o as RequestSignerOptions)],
    ] as const
  ) {
    const a = `Cannot create the ${name} signer as`;
    const cases: [object, ErrorConstructor, string][] = [
      [
        { ...base, keyid: "" },
        TypeError,
        `${a} 'keyid' must be 1 to 256 printable ASCII characters: current value is ""`,
      ],
      [
        { ...base, keyid: "k\u00e9" },
        TypeError,
        `${a} 'keyid' must be 1 to 256 printable ASCII characters: current value is "k\u00e9"`,
      ],
      [
        { ...base, keyid: "a\nb" },
        TypeError,
        `${a} 'keyid' must be 1 to 256 printable ASCII characters: current value is "a\\nb"`,
      ],
      [
        { ...base, keyid: "k".repeat(257) },
        TypeError,
        `${a} 'keyid' must be 1 to 256 printable ASCII characters: current value is "${
          "k".repeat(32)
        }…"`,
      ],
      [
        { ...base, keyid: 7 },
        TypeError,
        `${a} 'keyid' must be 1 to 256 printable ASCII characters: current value is 7`,
      ],
      [
        { ...base, alg: "rsa-pss-sha512" },
        RangeError,
        `${a} 'alg' must be "ed25519" or "ecdsa-p256-sha256": current value is "rsa-pss-sha512"`,
      ],
      [
        { ...base, alg: "EdDSA" },
        RangeError,
        `${a} 'alg' must be "ed25519" or "ecdsa-p256-sha256": current value is "EdDSA"`,
      ],
      [
        { ...base, validitySeconds: 0 },
        RangeError,
        `${a} 'validitySeconds' must be an integer from 1 to 300: current value is 0`,
      ],
      [
        { ...base, validitySeconds: 301 },
        RangeError,
        `${a} 'validitySeconds' must be an integer from 1 to 300: current value is 301`,
      ],
      [
        { ...base, validitySeconds: 1.5 },
        RangeError,
        `${a} 'validitySeconds' must be an integer from 1 to 300: current value is 1.5`,
      ],
      [{ ...base, now: 0 }, TypeError, `${a} 'now' must be a function: current value is 0`],
      [
        { ...base, key: {} },
        TypeError,
        `${a} 'key' must be a CryptoKey or a private JWK: current value is an object`,
      ],
      [
        { ...base, key: "secret" },
        TypeError,
        `${a} 'key' must be a CryptoKey or a private JWK: current value is "secret"`,
      ],
      [
        { ...base, key: null },
        TypeError,
        `${a} 'key' must be a CryptoKey or a private JWK: current value is null`,
      ],
    ];
    for (const [options, kind, text] of cases) throwsOption(() => make(options), kind, text);
    throwsOption(
      () => make(null as never),
      TypeError,
      `${a} 'options' must be an object: current value is null`,
    );
  }
  const a = "Cannot create the request signer as";
  throwsOption(
    () => new RequestSigner({ ...base, profile: "3.0" as never }),
    RangeError,
    `${a} 'profile' must be "3.2" or "3.1": current value is "3.0"`,
  );
  throwsOption(
    () => new RequestSigner({ ...base, coverContentDigest: false }),
    RangeError,
    `${a} 'coverContentDigest' must be true on a 3.2 endpoint (only profile "3.1" may leave ` +
      `the body unbound): current value is false`,
  );
  throwsOption(
    () => new RequestSigner({ ...base, legacyDigestEncoding: "sf-binary" }),
    RangeError,
    `${a} 'legacyDigestEncoding' must be "base64url" or "sf-binary", with profile "3.1": ` +
      `current value is "sf-binary"`,
  );
  throwsOption(
    () => new RequestSigner({ ...base, profile: "3.1", legacyDigestEncoding: "hex" as never }),
    RangeError,
    `${a} 'legacyDigestEncoding' must be "base64url" or "sf-binary", with profile "3.1": ` +
      `current value is "hex"`,
  );
});

Deno.test({
  name: "signers refuse option values of the wrong type with a TypeError",
  fn() {
    const base = { key: ED.privateKey, keyid: "k", alg: "ed25519" as const };
    throws(() => new RequestSigner({ ...base, validitySeconds: "300" as never }), TypeError);
    throws(() => new WebhookSigner({ ...base, validitySeconds: "300" as never }), TypeError);
    throws(
      () => new RequestSigner({ ...base, profile: "3.1", coverContentDigest: 0 as never }),
      TypeError,
    );
    throws(() => new RequestSigner({ ...base, coverContentDigest: "no" as never }), TypeError);
  },
});

Deno.test("sign() refuses bad messages and overrides with the option message", async () => {
  const signer = makeSigner("3.2");
  const a = "Cannot create the request signer as";
  const good = message("3.2");
  await rejectsOption(
    signer.sign(null as never),
    TypeError,
    `${a} 'message' must be message parts with a url: current value is null`,
  );
  await rejectsOption(
    signer.sign(good, { nonce: "short" }),
    TypeError,
    `${a} 'nonce' must be unpadded Base64URL of 16+ bytes: current value is "short"`,
  );
  await rejectsOption(
    signer.sign(good, { nonce: `${"A".repeat(22)}==` }),
    TypeError,
    `${a} 'nonce' must be unpadded Base64URL of 16+ bytes: current value is "${"A".repeat(22)}=="`,
  );
  await rejectsOption(
    signer.sign(good, { created: NOW, expires: NOW }),
    RangeError,
    `${a} 'expires' must be an integer after created: current value is ${NOW}`,
  );
  await rejectsOption(
    signer.sign(good, { created: 1.5 }),
    RangeError,
    `${a} 'expires' must be an integer after created: current value is 301.5`,
  );
  await rejectsOption(
    signer.sign({ ...good, headers: {} }),
    TypeError,
    `${a} 'message.headers' must be one Content-Type for a body: current value is null`,
  );
  await rejectsOption(
    signer.sign({ ...good, headers: { "content-type": "a/b, c/d" } }),
    TypeError,
    `${a} 'message.headers' must be one Content-Type for a body: current value is "a/b, c/d"`,
  );
  await rejectsOption(
    signer.sign(good, { components: ["@method", "x-missing"] }),
    TypeError,
    `${a} 'message.headers' must be a x-missing field to cover: current value is null`,
  );
  await rejectsOption(
    signer.signRequest("https://x.example" as never),
    TypeError,
    `${a} 'request' must be a Request: current value is "https://x.example"`,
  );
  // A URL with no canonical form is never signed.
  const error = await rejection(signer.sign({ ...good, url: "https://seller.example../x" }));
  ok(error instanceof TargetUriMalformedError, `${error}`);
  strictEqual(error.problem, "multiple_trailing_dots");
  // A webhook signer needs a Content-Type even without a body.
  await rejectsOption(
    makeSigner("webhook").sign({ method: "POST", url: "https://b.example/h" }),
    TypeError,
    "Cannot create the webhook signer as 'message.headers' must be one Content-Type for a body: " +
      "current value is null",
  );
});

Deno.test("signers accept a private JWK as the key", async () => {
  for (const alg of ["ed25519", "ecdsa-p256-sha256"] as const) {
    const params = alg === "ed25519"
      ? { name: "Ed25519" }
      : { name: "ECDSA", namedCurve: "P-256" } as EcKeyGenParams;
    const pair = await crypto.subtle.generateKey(params, true, ["sign", "verify"]) as CryptoKeyPair;
    const privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    const publicJwk = await crypto.subtle.exportKey("jwk", pair.publicKey);
    const signer = new RequestSigner({ key: privateJwk, keyid: "jwk-key", alg, now: clock });
    const parts = message("3.2");
    const signed = withFields(parts, await signer.sign(parts));
    await verified("3.2", signed, {
      keys: [{
        ...publicJwk,
        kid: "jwk-key",
        alg: alg === "ed25519" ? "EdDSA" : "ES256",
        use: "sig",
        key_ops: ["verify"],
        adcp_use: "request-signing",
      }],
    });
  }
  // A private JWK of the wrong shape is refused at construction (sign_test.ts has the rest).
  throws(
    () =>
      new RequestSigner({
        key: { kty: "OKP", crv: "Ed25519", x: "AA", d: "AA" },
        keyid: "k",
        alg: "ed25519",
      }),
    TypeError,
  );
});

Deno.test("signers use the validity, nonce and clock they are given", async () => {
  const signer = new RequestSigner({
    key: ED.privateKey,
    keyid: ED.kid,
    alg: "ed25519",
    validitySeconds: 60,
    now: () => NOW * 1000 + 999,
  });
  const nonce = "AAAAAAAAAAAAAAAAAAAAAA";
  const fields = await signer.sign(message("3.2"), { nonce });
  const input = fields["Signature-Input"];
  ok(input.includes(`;created=${NOW};expires=${NOW + 60};nonce="${nonce}";keyid="${ED.kid}"`));
  // Two signatures get two random nonces.
  const a = await signer.sign(message("3.2"));
  const b = await signer.sign(message("3.2"));
  ok(a["Signature-Input"] !== b["Signature-Input"]);
});

Deno.test("a keyid with quotes, backslashes and delimiters round-trips byte for byte", async () => {
  const kid = 'a"b\\c d,e;f=(g)';
  for (const profile of PROFILES) {
    const signed = await sign(profile, undefined, undefined, {
      signWith: { ...ED, kid, jwk: { ...ED.jwk, kid } },
    });
    ok(header(signed, "signature-input").includes(';keyid="a\\"b\\\\c d,e;f=(g)";'));
    const result = await verified(profile, signed, { keys: [{ ...ED.jwk, kid }] });
    strictEqual(result.signer!.keyid, kid);
    // The unescaped spelling is another keyid.
    await failsWith(
      verify(profile, signed, { keys: [{ ...ED.jwk, kid: 'a\\"b\\\\c d,e;f=(g)' }] }),
      codeOf(profile, "signature_key_unknown"),
      7,
    );
  }
});

Deno.test("verifiers stop a body that trickles past bodyTimeoutMs (BodyTimeoutError)", async () => {
  for (const profile of PROFILES) {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request("https://seller.example/adcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
    });
    const started = performance.now();
    const error = await rejection(verify(profile, request, { bodyTimeoutMs: 100 }));
    ok(error instanceof BodyTimeoutError, `${error}`);
    strictEqual(error.timeoutMs, 100);
    ok(performance.now() - started < 2_000);
    ok(cancelled);
  }
});

Deno.test("webhook bodies are capped at 1 MiB by default, request bodies at 4 MiB", async () => {
  const big = JSON.stringify("x".repeat(1_048_577));
  const hook = rejection(
    new WebhookVerifier({ revocation: null, keys: [] }).verify({
      method: "POST",
      url: "https://b.example/h",
      body: big,
    }),
  );
  ok((await hook) instanceof BodyTooLargeError);
  strictEqual(((await hook) as BodyTooLargeError).maxBytes, 1_048_576);
  const request = await new RequestVerifier({ revocation: null, keys: [] }).verify({
    method: "POST",
    url: "https://s.example/adcp",
    body: big,
  });
  strictEqual(request.authentication, "none");
});

// ---------------------------------------------------------------------------------------------
// Found by the spec audit

Deno.test("verifiers require `revocation`: null skips step 9 only when said", () => {
  for (
    const make of [
      () => new RequestVerifier({ keys: [] } as never),
      () => new WebhookVerifier({ keys: [] } as never),
      () => new RequestVerifier({ keys: [], revocation: {} as never }),
    ]
  ) {
    let message = "";
    try {
      make();
    } catch (error) {
      ok(error instanceof TypeError);
      message = (error as Error).message;
    }
    ok(message.includes("'revocation' must be a RevocationSource, or null"), message);
  }
});

const AUTH_TOOL_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "create_media_buy",
    arguments: {
      plan_id: "p1",
      push_notification_config: { url: "https://b.example/h", authentication: { x: 1 } },
    },
  },
});

Deno.test("warn_for: an authentication block injected into a signed request", async () => {
  const signed = await sign("3.2"); // a valid signature over TOOL_BODY
  const injected = { ...signed, body: AUTH_TOOL_BODY }; // the digest no longer matches
  await failsWith(
    verify("3.2", injected, { capability: { warn_for: ["create_media_buy"] } }, {
      fallbackAuthenticated: true,
    }),
    "request_signature_required",
    0,
  );
});

Deno.test("unsigned bodies that do not parse strictly are refused", async () => {
  const required = { capability: { required_for: ["create_media_buy"] } };
  const duplicate = TOOL_BODY.replace('"id":1', '"id":1,"id":2');
  const deep = `${"[".repeat(70)}${"]".repeat(70)}`;
  for (const body of [duplicate, deep, "not json"]) {
    await failsWith(
      verify(
        "3.2",
        { ...message("3.2", body), headers: { "content-type": "text/plain" } },
        required,
      ),
      "request_body_malformed",
      0,
    );
  }
  // A JSON-RPC batch is classified element by element: the strictest mode wins.
  const batch = `[{"jsonrpc":"2.0","id":1,"method":"ping"},${TOOL_BODY}]`;
  await failsWith(verify("3.2", message("3.2", batch), required), "request_signature_required", 0);
});

Deno.test("step 14 runs on every signed body, and is never shadowed", async () => {
  const body = '{"budget":1,"budget":1000000}';
  const plain = await sign("3.2", {
    ...message("3.2", body),
    headers: { "content-type": "text/plain" },
  });
  await failsWith(verify("3.2", plain), "request_body_malformed", 14);
  const json = await sign("3.2", message("3.2", body));
  await failsWith(
    verify("3.2", json, { capability: { warn_for: ["create_media_buy"] } }, {
      operation: "create_media_buy",
      fallbackAuthenticated: true,
    }),
    "request_body_malformed",
    14,
  );
});

Deno.test("more than 32 covered components is malformed, before any key lookup", async () => {
  const signed = await sign("3.2");
  const headers = { ...signed.headers };
  const list = Array.from({ length: 40 }, (_, i) => `"x-h${i}"`).join(" ");
  headers["signature-input"] = headers["signature-input"]!.replace(
    /^sig1=\([^)]*\)/,
    `sig1=(${list})`,
  );
  let resolved = 0;
  const keys = { resolve: () => (resolved++, Promise.resolve(undefined)) };
  await failsWith(
    verify("3.2", { ...signed, headers }, { keys }),
    "request_signature_header_malformed",
    1,
  );
  strictEqual(resolved, 0);
});

// ---------------------------------------------------------------------------------------------
// The verified signer identity (security.mdx, "Agent identity"; webhooks.mdx, "Dedup by
// idempotency_key": the sender is the resolved keyid's agents[] entry URL, never the keyid)

const AGENT = "https://seller.example/mcp";

for (const profile of PROFILES) {
  Deno.test(`${profile}: signer.agentUrl and senderId come from the configuration`, async () => {
    const jwks = KEYS.map((k) => k.jwk);
    const viaOption = await verified(profile, await sign(profile), { keys: jwks, agentUrl: AGENT });
    strictEqual(viaOption.signer!.agentUrl, AGENT);
    strictEqual(viaOption.signer!.senderId, AGENT);
    const pinned = new StaticKeyResolver(jwks, { agentUrl: AGENT });
    const viaResolver = await verified(profile, await sign(profile), { keys: pinned });
    strictEqual(viaResolver.signer!.agentUrl, AGENT);
    strictEqual(viaResolver.signer!.senderId, AGENT);
    // Both given: they must agree.
    makeVerifier(profile, { keys: pinned, agentUrl: AGENT });
    throws(() => makeVerifier(profile, { keys: pinned, agentUrl: `${AGENT}/` }), RangeError);
    for (const bad of ["", "seller.example", "ftp://seller.example/", "x".repeat(2049)]) {
      throws(() => makeVerifier(profile, { agentUrl: bad }), TypeError);
      throws(() => new StaticKeyResolver([], { agentUrl: bad }), TypeError);
    }
  });

  Deno.test(`${profile}: every keyid of one key source is one sender`, async () => {
    // A key set that names no agent is one sender: a digest of its public key material.
    const first = await verified(profile, await sign(profile));
    const second = await verified(
      profile,
      await sign(profile, undefined, undefined, { signWith: P256 }),
    );
    strictEqual(first.signer!.agentUrl, undefined);
    ok(/^keys:sha-256:[A-Za-z0-9_-]{43}$/.test(first.signer!.senderId), first.signer!.senderId);
    strictEqual(second.signer!.senderId, first.signer!.senderId, "two keyids, one sender");
    const reordered = await verified(profile, await sign(profile), {
      keys: { keys: [P256.jwk, ED.jwk] },
    });
    strictEqual(reordered.signer!.senderId, first.signer!.senderId, "the set, not its order");
    const other = await verified(profile, await sign(profile), { keys: [ED.jwk] });
    ok(other.signer!.senderId !== first.signer!.senderId, "another set, another sender");
    // A JwksResolver that names no agent is its JWKS URL.
    const jwksUri = "https://keys.seller.example/.well-known/jwks.json";
    const fetch = () => Promise.resolve(Response.json({ keys: KEYS.map((k) => k.jwk) }));
    const viaJwks = await verified(profile, await sign(profile), {
      keys: new JwksResolver(jwksUri, { fetch }),
    });
    strictEqual(viaJwks.signer!.agentUrl, undefined);
    strictEqual(viaJwks.signer!.senderId, `jwks:${jwksUri}`);
    const named = await verified(profile, await sign(profile), {
      keys: new JwksResolver(jwksUri, { fetch, agentUrl: AGENT }),
    });
    strictEqual(named.signer!.senderId, AGENT);
  });

  Deno.test(`${profile}: a custom resolver naming no agent needs the agentUrl option`, async () => {
    const inner = new StaticKeyResolver(KEYS.map((k) => k.jwk));
    const keys: KeyResolver = { resolve: (keyid) => inner.resolve(keyid) };
    const replay = new InMemoryReplayStore();
    await rejectsOption(
      verify(profile, await sign(profile), { keys, replay }),
      TypeError,
      `Cannot verify the ${profile === "webhook" ? "webhook" : "request"} as 'agentUrl' must be ` +
        "the agents[] entry URL of a key source that names no agent (a KeyResolver without " +
        "agentUrl or jwksUri): current value is undefined",
    );
    strictEqual(replay.stats(NOW).entries, 0, "refused before the nonce is burned");
    const ok2 = await verified(profile, await sign(profile), { keys, agentUrl: AGENT });
    strictEqual(ok2.signer!.senderId, AGENT);
  });

  Deno.test(`${profile}: the replay budget is the signer's, across its keyids`, async () => {
    // One seller signing under many keyids gets one budget; another seller's is untouched.
    const replay = new InMemoryReplayStore({ maxEntriesPerKeyid: 5, maxEntriesPerSigner: 2 });
    const env = { replay, keys: KEYS.map((k) => k.jwk), agentUrl: AGENT };
    await verified(profile, await sign(profile), env);
    await verified(profile, await sign(profile, undefined, undefined, { signWith: P256 }), env);
    await failsWith(
      verify(profile, await sign(profile), env),
      codeOf(profile, "signature_rate_abuse"),
      "9a",
    );
    // The same kids published by another seller are that seller's keys: not capped.
    await verified(profile, await sign(profile), { ...env, agentUrl: "https://other.example/a" });
    strictEqual(replay.stats(NOW).entries, 3);
  });
}
