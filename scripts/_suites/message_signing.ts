/**
 * The RFC 9421 suites: `request-signing` and `webhook-signing` (upstream's compliance folders,
 * one vector per file, assembled by the runner into one bundle per folder with the folder's
 * `keys.json`), `target-uri-canonicalization` (`canonicalization.json`) and
 * `body-integrity-policy` (`body-integrity-policy.json`). Request and reply shapes are in
 * `vectors/README.md`.
 *
 * @module
 */
import {
  expectErrorCode,
  expectResult,
  isObject,
  objectResult,
  pretty,
  type SuiteDef,
  type Verdict,
} from "./_def.ts";

/** A bundle's vectors with the bundle's keys attached; or why the bundle is malformed. */
function collectBundle(doc: Record<string, unknown>): unknown[] | string {
  if (!Array.isArray(doc.keys) || !Array.isArray(doc.vectors)) {
    return "signing bundle: expected `keys` and `vectors` arrays";
  }
  return doc.vectors.map((v) => (isObject(v) ? { ...v, keys: doc.keys } : v));
}

/** The public part of a keys.json entry (no private `d`, no comment). */
function publicJwk(key: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(key)) {
    if (name === "_private_d_for_test_only" || name === "$comment" || name === "d") continue;
    out[name] = value;
  }
  return out;
}

function keyById(v: Record<string, unknown>, kid: string): Record<string, unknown> | undefined {
  const keys = Array.isArray(v.keys) ? v.keys : [];
  return keys.find((k): k is Record<string, unknown> => isObject(k) && k.kid === kid);
}

/** The verifier's JWKS: `jwks_override` (a JWKS, or a kid → JWK map over `jwks_ref`), else refs. */
function jwksOf(v: Record<string, unknown>): { keys: unknown[] } {
  const override = v.jwks_override;
  if (isObject(override) && Array.isArray(override.keys)) {
    return { keys: override.keys.map((k) => (isObject(k) ? publicJwk(k) : k)) };
  }
  const refs = Array.isArray(v.jwks_ref) ? v.jwks_ref.filter((r) => typeof r === "string") : [];
  return {
    keys: refs.flatMap((kid: string) => {
      const replaced = isObject(override) ? override[kid] : undefined;
      if (isObject(replaced)) return [publicJwk(replaced)];
      const key = keyById(v, kid);
      return key === undefined ? [] : [publicJwk(key)];
    }),
  };
}

/** One header of a vector's request, by case-insensitive name. */
function header(v: Record<string, unknown>, name: string): string | undefined {
  const request = isObject(v.request) ? v.request : {};
  const headers = isObject(request.headers) ? request.headers : {};
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === "string") return value;
  }
  return undefined;
}

/** The `sig1` member of a dictionary header, as text (vectors' headers are well formed). */
export function sig1Member(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.split(/,\s*(?=[a-z*][a-z0-9_.*-]*=)/).find((m) => m.startsWith("sig1="));
}

/** The fixed parameters of a positive vector's `sig1`, for re-signing it. */
function signInput(v: Record<string, unknown>): Record<string, unknown> | undefined {
  const outcome = isObject(v.expected_outcome) ? v.expected_outcome : {};
  const member = sig1Member(header(v, "signature-input"));
  if (outcome.success !== true || member === undefined) return undefined;
  const list = /^sig1=\(([^)]*)\)/.exec(member);
  const param = (name: string) => new RegExp(`;${name}=("([^"]*)"|(\\d+))`).exec(member);
  const keyid = param("keyid")?.[2];
  const key = keyid === undefined ? undefined : keyById(v, keyid);
  if (list === null || key === undefined || typeof key._private_d_for_test_only !== "string") {
    return undefined;
  }
  const digest = header(v, "content-digest");
  return {
    ...(digest === undefined ? {} : {
      digest_encoding: /[+/=]/.test(digest.replace(/^[^:]*:/, "")) ? "sf-binary" : "base64url",
    }),
    key: { ...publicJwk(key), d: key._private_d_for_test_only },
    keyid,
    alg: param("alg")?.[2],
    created: Number(param("created")?.[3]),
    expires: Number(param("expires")?.[3]),
    nonce: param("nonce")?.[2],
    components: [...(list[1] ?? "").matchAll(/"([^"]*)"/g)].map((m) => m[1]),
  };
}

/** The AdCP operation a vector's URL names (its last path segment), unless the body is JSON-RPC. */
function operationOf(v: Record<string, unknown>): string | undefined {
  const request = isObject(v.request) ? v.request : {};
  if (typeof request.body === "string" && /"jsonrpc"\s*:/.test(request.body)) return undefined;
  const url = typeof request.url === "string" ? request.url : "";
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, "").split(/[?#]/)[0] ?? "";
  const last = path.split("/").pop() ?? "";
  return /^[a-z][a-z0-9_]*$/.test(last) ? last : undefined;
}

function signingInput(v: Record<string, unknown>, webhook: boolean): unknown {
  const sign = signInput(v);
  return {
    ...(webhook ? {} : { profile: v.signing_profile_version === "3.2" ? "3.2" : "3.1" }),
    now: v.reference_now,
    request: v.request,
    ...(webhook || v.verifier_capability === undefined
      ? {}
      : { capability: v.verifier_capability }),
    jwks: jwksOf(v),
    ...(v.test_harness_state === undefined ? {} : { state: v.test_harness_state }),
    ...(webhook ? {} : {
      ...(operationOf(v) === undefined ? {} : { operation: operationOf(v) }),
      fallback_authenticated: header(v, "authorization") !== undefined,
    }),
    ...(sign === undefined ? {} : { sign }),
  };
}

function judgeSigning(v: Record<string, unknown>, reply: Parameters<SuiteDef["judge"]>[1]) {
  const outcome = isObject(v.expected_outcome) ? v.expected_outcome : {};
  if (outcome.success !== true) return expectErrorCode(outcome.error_code, reply);
  const r = objectResult(reply);
  if (!r.ok) return r.verdict;
  const got = r.value;
  if (got.verified !== true) {
    return { reason: "expected a verified signature", expected: { verified: true }, actual: got };
  }
  if (
    typeof v.expected_signature_base === "string" &&
    got.signature_base !== v.expected_signature_base
  ) {
    return {
      reason: "signature base differs",
      expected: v.expected_signature_base,
      actual: got.signature_base,
    };
  }
  return judgeSigned(v, got.signed);
}

/** The re-signed fields against the vector's bytes (signature bytes only for Ed25519). */
function judgeSigned(v: Record<string, unknown>, signed: unknown): Verdict | undefined {
  const sign = signInput(v);
  if (sign === undefined) return undefined;
  if (!isObject(signed)) {
    return { reason: "expected the re-signed fields (`signed`)", actual: signed };
  }
  const checks: [string, unknown, unknown][] = [
    ["Signature-Input", sig1Member(header(v, "signature-input")), signed.signature_input],
  ];
  if (sign.alg === "ed25519") {
    checks.push(["Signature", sig1Member(header(v, "signature")), signed.signature]);
  }
  const digest = header(v, "content-digest");
  if (digest !== undefined) checks.push(["Content-Digest", digest, signed.content_digest]);
  for (const [name, expected, actual] of checks) {
    if (expected !== actual) {
      return { reason: `the signer's ${name} differs from the vector's`, expected, actual };
    }
  }
  return undefined;
}

/** `request-signing`: upstream's request-signing folder (and profile-3.2), and local bundles. */
export const requestSigningSuite: SuiteDef = {
  required: ["request", "reference_now", "expected_outcome"],
  collect: collectBundle,
  input: (v) => signingInput(v, false),
  judge: judgeSigning,
};

/** `webhook-signing`: upstream's webhook-signing folder, and local bundles. */
export const webhookSigningSuite: SuiteDef = {
  required: ["request", "reference_now", "expected_outcome"],
  collect: collectBundle,
  input: (v) => signingInput(v, true),
  judge: judgeSigning,
};

/** `target-uri-canonicalization`: `canonicalization.json`'s cases, by `name`. */
export const canonicalizationSuite: SuiteDef = {
  required: ["input_url"],
  collect(doc) {
    if (!Array.isArray(doc.cases)) return "canonicalization file: expected a `cases` array";
    return doc.cases.map((c) => isObject(c) ? { id: c.name, description: c.rule ?? "", ...c } : c);
  },
  input: (v) => ({ url: v.input_url }),
  judge(v, reply) {
    if (v.reject === true) return expectErrorCode(v.expected_error_code, reply);
    return expectResult(
      { target_uri: v.expected_target_uri, authority: v.expected_authority },
      reply,
    );
  },
};

const FACTS = [
  "endpoint_profile",
  "mode",
  "legacy_digest_policy",
  "has_body",
  "signature_present",
  "signature_header_state",
  "covers_content_digest",
  "digest_matches_body",
  "cryptographic_signature_valid",
  "fallback_auth_valid",
  "request_body_adcp_version",
];

/** `body-integrity-policy`: the 3.2 policy matrix, by `id`. */
export const bodyIntegritySuite: SuiteDef = {
  required: ["mode", "expected"],
  collect(doc) {
    if (!Array.isArray(doc.cases)) return "body-integrity file: expected a `cases` array";
    return doc.cases.map((c) => (isObject(c) ? { description: String(c.id ?? ""), ...c } : c));
  },
  input: (v) => Object.fromEntries(FACTS.filter((k) => Object.hasOwn(v, k)).map((k) => [k, v[k]])),
  judge(v, reply) {
    const r = objectResult(reply);
    if (!r.ok) return r.verdict;
    const expected = isObject(v.expected) ? v.expected : {};
    for (const [key, value] of Object.entries(expected)) {
      if (r.value[key] !== value) {
        return { reason: `${key} differs: ${pretty(r.value[key])}`, expected, actual: r.value };
      }
    }
    return undefined;
  },
};
