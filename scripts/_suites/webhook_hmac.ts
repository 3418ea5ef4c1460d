/**
 * The `webhook-hmac` suite: the legacy webhook HMAC-SHA256 scheme (deprecated in AdCP 3.x,
 * removed in 4.0). Reads upstream's `webhook-hmac-sha256.json`, whose vectors sit in sections,
 * and local files of one flat `vectors` array whose entries carry their `kind` and `secret`.
 *
 * Kinds, requests and what passes:
 *
 * - `sign` (upstream `vectors`, the top-level `secret` copied in): `{operation: "sign", secret,
 *   timestamp, raw_body}` computes the signature over the bytes as given. Passes with result
 *   `{signature, verify}`: `signature` equal to `expected_signature`, and `verify` (the impl
 *   verifies its own signature at `current_time = timestamp`) equal to `expected_verify` when the
 *   vector has it, else `webhook_body_malformed` for `expected_verifier_action:
 *   "reject-malformed"` (its `rfc9421_error_code`), else `"valid"` for a body `JSON.parse`
 *   reads, else `"valid"` or `"webhook_body_malformed"` (a strict verifier may refuse a body that
 *   is not JSON, such as the empty one, once the HMAC has matched).
 * - `verify-reject` (upstream `rejection_vectors`): `{operation: "verify", secret, timestamp,
 *   raw_body, signature, current_time}` (`current_time` the vector's, else its numeric
 *   `timestamp`, else `null` for the impl's clock). Passes with result `{valid: false, error}`,
 *   and `error` equal to `expected_error` when the vector has it (local vectors).
 * - `verify-accept` (local only): the same request; passes with result `{valid: true}`.
 * - `secret-reject` (upstream `secret_rejection_vectors`, which have no ids: made up as
 *   `secret-rejection-<n>`, n from 1): `{operation: "configure", secret}`. Passes with an error
 *   reply (the secret is refused at configuration time), whose code is `expected_error` when the
 *   vector has it.
 * - `signer-reject` (upstream `signer_side.rejection_vectors`, the top-level `secret` copied in):
 *   `{operation: "signer", secret, timestamp, raw_body}` runs the signer with its input check,
 *   `raw_body` being `signer_input_body` and `timestamp` 1700000000 when the vector has none.
 *   Passes with the error code `duplicate_key_input` exactly (security.mdx: "the error
 *   identifier … MUST be `duplicate_key_input` exactly").
 * - `signer-sign` (upstream `signer_side.positive_vectors`): the same request; passes with a
 *   result whose `signature` is `sha256=` and 64 lower-case hex digits and whose `verify` is
 *   `"valid"`.
 *
 * Local vectors may give the body as `raw_body_base64` (standard base64 of the exact bytes)
 * instead of `raw_body`, for bytes that are not UTF-8; the request then carries `raw_body_base64`.
 * A local `timestamp` may be a string: it is sent as the header text, exactly.
 *
 * @module
 */
import {
  type AnswerReply,
  isObject,
  objectResult,
  pretty,
  resultOf,
  type SuiteDef,
  type Verdict,
} from "./_def.ts";

/** The vector kinds of this suite. */
export const WEBHOOK_HMAC_KINDS = [
  "sign",
  "verify-reject",
  "verify-accept",
  "secret-reject",
  "signer-reject",
  "signer-sign",
] as const;

/** The timestamp signer vectors are signed at when they carry none. */
export const SIGNER_TIMESTAMP = 1700000000;

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/** The sections of an upstream file, flattened; or why the file is malformed. */
function collectUpstream(doc: Record<string, unknown>): unknown[] | string {
  const secret = doc.secret;
  if (typeof secret !== "string") return "webhook-hmac file: expected a string `secret`";
  const out: unknown[] = [];
  const section = (value: unknown, name: string): unknown[] | string => {
    if (value === undefined) return [];
    return Array.isArray(value) ? value : `webhook-hmac file: \`${name}\` must be an array`;
  };
  const sign = section(doc.vectors, "vectors");
  const reject = section(doc.rejection_vectors, "rejection_vectors");
  const secrets = section(doc.secret_rejection_vectors, "secret_rejection_vectors");
  const signerSide = doc.signer_side;
  if (signerSide !== undefined && !isObject(signerSide)) {
    return "webhook-hmac file: `signer_side` must be an object";
  }
  const signerReject = section(signerSide?.rejection_vectors, "signer_side.rejection_vectors");
  const signerSign = section(signerSide?.positive_vectors, "signer_side.positive_vectors");
  for (const s of [sign, reject, secrets, signerReject, signerSign]) {
    if (typeof s === "string") return s;
  }
  const entry = (v: unknown) => (isObject(v) ? v : {});
  for (const v of sign as unknown[]) out.push({ ...entry(v), kind: "sign", secret });
  for (const v of reject as unknown[]) out.push({ secret, ...entry(v), kind: "verify-reject" });
  (secrets as unknown[]).forEach((v, i) => {
    out.push({ ...entry(v), id: `secret-rejection-${i + 1}`, kind: "secret-reject" });
  });
  for (const v of signerReject as unknown[]) {
    out.push({ secret, ...entry(v), kind: "signer-reject" });
  }
  for (const v of signerSign as unknown[]) out.push({ secret, ...entry(v), kind: "signer-sign" });
  return out;
}

/** A local file's flat vectors, each with a known `kind`; or why the file is malformed. */
function collectLocal(doc: Record<string, unknown>): unknown[] | string {
  if (!Array.isArray(doc.vectors)) {
    return "webhook-hmac file: expected a top-level `secret` (upstream) or a `vectors` array";
  }
  for (const [i, v] of doc.vectors.entries()) {
    const kind = isObject(v) ? v.kind : undefined;
    if (!(WEBHOOK_HMAC_KINDS as readonly unknown[]).includes(kind)) {
      return `webhook-hmac file: vectors[${i}].kind must be one of ${
        WEBHOOK_HMAC_KINDS.join(", ")
      }`;
    }
  }
  return doc.vectors;
}

/** The body fields of a request: `raw_body`, or `raw_body_base64` for a local vector. */
function bodyFields(v: Record<string, unknown>, field = "raw_body"): Record<string, unknown> {
  return Object.hasOwn(v, "raw_body_base64")
    ? { raw_body_base64: v.raw_body_base64 }
    : { raw_body: v[field] };
}

/** The body as text when it is UTF-8, for deciding what verifying it should give. */
function bodyText(v: Record<string, unknown>): string | undefined {
  if (typeof v.raw_body === "string") return v.raw_body;
  if (typeof v.raw_body_base64 !== "string") return undefined;
  try {
    const bytes = Uint8Array.from(atob(v.raw_body_base64), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** What verifying a `sign` vector's own signature may give. */
function allowedVerify(v: Record<string, unknown>): readonly string[] {
  if (typeof v.expected_verify === "string") return [v.expected_verify];
  if (v.expected_verifier_action === "reject-malformed") {
    return [
      typeof v.rfc9421_error_code === "string" ? v.rfc9421_error_code : "webhook_body_malformed",
    ];
  }
  const text = bodyText(v);
  if (text !== undefined) {
    try {
      JSON.parse(text);
      return ["valid"];
    } catch {
      // not JSON: a strict verifier may refuse it after the HMAC matched
    }
  }
  return ["valid", "webhook_body_malformed"];
}

function currentTime(v: Record<string, unknown>): unknown {
  if (Object.hasOwn(v, "current_time")) return v.current_time;
  return typeof v.timestamp === "number" ? v.timestamp : null;
}

function judgeSigned(
  reply: AnswerReply,
  expectedSignature: unknown,
  verify: readonly string[],
): Verdict | undefined {
  const r = objectResult(reply);
  if (!r.ok) return r.verdict;
  const result = r.value;
  if (expectedSignature === undefined) {
    if (typeof result.signature !== "string" || !SIGNATURE.test(result.signature)) {
      return { reason: "expected a signature sha256=<64 hex>", actual: result.signature };
    }
  } else if (result.signature !== expectedSignature) {
    return { reason: "signature differs", expected: expectedSignature, actual: result.signature };
  }
  if (typeof result.verify !== "string" || !verify.includes(result.verify)) {
    return {
      reason: `verifying the produced signature at current_time = timestamp gave the wrong outcome`,
      expected: verify.length === 1 ? verify[0] : verify,
      actual: result.verify,
    };
  }
  return undefined;
}

function judgeVerify(
  v: Record<string, unknown>,
  reply: AnswerReply,
  valid: boolean,
): Verdict | undefined {
  const r = objectResult(reply);
  if (!r.ok) return r.verdict;
  const result = r.value;
  if (result.valid !== valid) {
    return {
      reason: valid ? "expected the delivery to verify" : "expected a rejection",
      actual: result,
    };
  }
  if (!valid && Object.hasOwn(v, "expected_error") && result.error !== v.expected_error) {
    return { reason: "rejection code differs", expected: v.expected_error, actual: result.error };
  }
  return undefined;
}

/** The `webhook-hmac` suite. */
export const suite: SuiteDef = {
  required: ["kind", "secret"],
  collect: (doc) => (typeof doc.secret === "string" ? collectUpstream(doc) : collectLocal(doc)),
  input(v) {
    switch (v.kind) {
      case "sign":
        return { operation: "sign", secret: v.secret, timestamp: v.timestamp, ...bodyFields(v) };
      case "signer-reject":
      case "signer-sign":
        return {
          operation: "signer",
          secret: v.secret,
          timestamp: Object.hasOwn(v, "timestamp") ? v.timestamp : SIGNER_TIMESTAMP,
          ...bodyFields(
            v,
            Object.hasOwn(v, "signer_input_body") ? "signer_input_body" : "raw_body",
          ),
        };
      case "verify-reject":
      case "verify-accept":
        return {
          operation: "verify",
          secret: v.secret,
          timestamp: v.timestamp,
          signature: v.signature,
          current_time: currentTime(v),
          ...bodyFields(v),
        };
      default:
        return { operation: "configure", secret: v.secret };
    }
  },
  judge(v, reply) {
    switch (v.kind) {
      case "sign":
        return judgeSigned(reply, v.expected_signature, allowedVerify(v));
      case "signer-sign":
        return judgeSigned(reply, v.expected_signature, ["valid"]);
      case "verify-reject":
        return judgeVerify(v, reply, false);
      case "verify-accept":
        return judgeVerify(v, reply, true);
      case "signer-reject": {
        const r = resultOf(reply);
        if (r.ok) {
          return { reason: "expected the signer to refuse its input", actual: r.value };
        }
        return r.code === "duplicate_key_input"
          ? undefined
          : { reason: "error code differs", expected: "duplicate_key_input", actual: r.code };
      }
      case "secret-reject": {
        const r = resultOf(reply);
        if (r.ok) return { reason: "expected the secret to be refused", actual: r.value };
        return Object.hasOwn(v, "expected_error") && r.code !== v.expected_error
          ? { reason: "error code differs", expected: v.expected_error, actual: r.code }
          : undefined;
      }
      default:
        return { reason: `unknown kind ${pretty(v.kind)}` };
    }
  },
};
