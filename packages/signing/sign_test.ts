// The signers refuse, when they are made, a key that cannot sign under their `alg` (CryptoKey and
// JWK alike), and turn anything Web Crypto throws while signing into SigningFailedError: a local
// failure with its phase, never a raw DOMException (security.mdx, "AdCP RFC 9421 profile").
import { ok, rejects, strictEqual, throws } from "node:assert/strict";
import { AdcpWireError } from "@adcp-wire/internal";
import { AdcpSigningError, SigningFailedError, TargetUriMalformedError } from "./errors.ts";
import { RequestSigner, type SignerOptions, WebhookSigner } from "./sign.ts";

const SIGNERS = [
  ["request", (options: SignerOptions) => new RequestSigner(options)],
  ["webhook", (options: SignerOptions) => new WebhookSigner(options)],
] as const;

const MESSAGE = {
  method: "POST",
  url: "https://seller.example/adcp",
  headers: { "content-type": "application/json" },
  body: "{}",
};

async function pair(params: AlgorithmIdentifier | EcKeyGenParams | RsaHashedKeyGenParams) {
  return await crypto.subtle.generateKey(params, true, ["sign", "verify"]) as CryptoKeyPair;
}

/** `jwk` without the member `name`. */
function without(jwk: JsonWebKey, name: keyof JsonWebKey): JsonWebKey {
  const copy = { ...jwk };
  delete copy[name];
  return copy;
}

/** The TypeError a signer of `kind` throws for `member`, its requirement starting so. */
function keyError(kind: string, member: string, requirement: string) {
  return (error: unknown) => {
    ok(error instanceof TypeError, String(error));
    const expected = `Cannot create the ${kind} signer as '${member}' must be ${requirement}`;
    ok(error.message.startsWith(expected), `${error.message} / ${expected}`);
    return true;
  };
}

Deno.test("signers refuse a public CryptoKey when they are made", async () => {
  const ed = await pair({ name: "Ed25519" });
  const ec = await pair({ name: "ECDSA", namedCurve: "P-256" });
  for (const [kind, make] of SIGNERS) {
    throws(
      () => make({ key: ed.publicKey, keyid: "k", alg: "ed25519" }),
      keyError(kind, "key.type", '"private"'),
    );
    throws(
      () => make({ key: ec.publicKey, keyid: "k", alg: "ecdsa-p256-sha256" }),
      (error: unknown) =>
        error instanceof TypeError &&
        error.message.endsWith('current value is "public"') &&
        error.message.includes("'key.type'"),
    );
  }
});

Deno.test("signers refuse a private CryptoKey without the sign usage", async () => {
  // A P-256 private key made for key agreement (ECDH, usage deriveBits): private, the right
  // curve, but it cannot sign.
  const ecdh = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, [
    "deriveBits",
  ]) as CryptoKeyPair;
  strictEqual(ecdh.privateKey.type, "private");
  for (const [kind, make] of SIGNERS) {
    throws(
      () => make({ key: ecdh.privateKey, keyid: "k", alg: "ecdsa-p256-sha256" }),
      (error: unknown) =>
        keyError(kind, "key.usages", 'a list with "sign"')(error) &&
        (error as Error).message.endsWith('current value is "deriveBits"'),
    );
  }
});

Deno.test("signers refuse a CryptoKey of another algorithm or curve than alg", async () => {
  const ed = await pair({ name: "Ed25519" });
  const p256 = await pair({ name: "ECDSA", namedCurve: "P-256" });
  const p384 = await pair({ name: "ECDSA", namedCurve: "P-384" });
  const pss = await pair({
    name: "RSA-PSS",
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  });
  for (const [kind, make] of SIGNERS) {
    throws(
      () => make({ key: p256.privateKey, keyid: "k", alg: "ed25519" }),
      keyError(kind, "key.algorithm", 'Ed25519 for alg "ed25519"'),
    );
    throws(
      () => make({ key: ed.privateKey, keyid: "k", alg: "ecdsa-p256-sha256" }),
      keyError(kind, "key.algorithm", 'ECDSA on P-256 for alg "ecdsa-p256-sha256"'),
    );
    throws(
      () => make({ key: p384.privateKey, keyid: "k", alg: "ecdsa-p256-sha256" }),
      (error: unknown) =>
        error instanceof TypeError && error.message.endsWith('current value is "ECDSA P-384"'),
    );
    for (const alg of ["ed25519", "ecdsa-p256-sha256"] as const) {
      throws(
        () => make({ key: pss.privateKey, keyid: "k", alg }),
        keyError(kind, "key.algorithm", alg === "ed25519" ? "Ed25519" : "ECDSA on P-256"),
      );
    }
    // The right keys are accepted and sign.
    await make({ key: ed.privateKey, keyid: "k", alg: "ed25519" }).sign(MESSAGE);
    await make({ key: p256.privateKey, keyid: "k", alg: "ecdsa-p256-sha256" }).sign(MESSAGE);
  }
});

Deno.test("signers check a private JWK's members against alg when they are made", async () => {
  const ed = await crypto.subtle.exportKey("jwk", (await pair({ name: "Ed25519" })).privateKey);
  const ec = await crypto.subtle.exportKey(
    "jwk",
    (await pair({ name: "ECDSA", namedCurve: "P-256" })).privateKey,
  );
  const { d: _, ...publicEd } = ed;
  const cases: [JsonWebKey, "ed25519" | "ecdsa-p256-sha256", string, string][] = [
    [publicEd, "ed25519", "key", "a CryptoKey or a private JWK"],
    [ed, "ecdsa-p256-sha256", "key.kty", '"EC" for alg "ecdsa-p256-sha256"'],
    [ec, "ed25519", "key.kty", '"OKP" for alg "ed25519"'],
    [{ ...ec, crv: "P-384" }, "ecdsa-p256-sha256", "key.crv", '"P-256"'],
    [{ ...ed, crv: "Ed448" }, "ed25519", "key.crv", '"Ed25519"'],
    [without(ed, "crv"), "ed25519", "key.crv", '"Ed25519"'],
    [{ ...ed, d: "AA" }, "ed25519", "key.d", "32 bytes in unpadded Base64URL"],
    [without(ed, "x"), "ed25519", "key.x", "32 bytes in unpadded Base64URL"],
    [{ ...ec, y: `${ec.y}=` }, "ecdsa-p256-sha256", "key.y", "32 bytes in unpadded Base64URL"],
    [{ ...ed, alg: "ES256" }, "ed25519", "key.alg", '"EdDSA" for alg "ed25519"'],
    [{ ...ec, alg: "ES384" }, "ecdsa-p256-sha256", "key.alg", '"ES256"'],
    [{ ...ed, use: "enc" }, "ed25519", "key.use", '"sig"'],
  ];
  for (const [kind, make] of SIGNERS) {
    for (const [key, alg, member, requirement] of cases) {
      throws(() => make({ key, keyid: "k", alg }), keyError(kind, member, requirement));
    }
    // The private part is never shown.
    throws(
      () => make({ key: { ...ed, d: `${ed.d}x` }, keyid: "k", alg: "ed25519" }),
      (error: unknown) => error instanceof TypeError && !error.message.includes(ed.d!),
    );
    // Members that agree are accepted, and sign; so is the published entry with `d` added (its
    // key_ops says verify, and its adcp_use is the verifier's business).
    await make({
      key: { ...ed, alg: "EdDSA", use: "sig", key_ops: ["sign"] },
      keyid: "k",
      alg: "ed25519",
    }).sign(MESSAGE);
    await make({
      key: { ...ed, alg: "EdDSA", use: "sig", key_ops: ["verify"], adcp_use: "request-signing" },
      keyid: "k",
      alg: "ed25519",
    } as SignerOptions).sign(MESSAGE);
    await make({ key: { ...ec, alg: "ES256" }, keyid: "k", alg: "ecdsa-p256-sha256" }).sign(
      MESSAGE,
    );
  }
});

/** Runs `body` with `crypto.subtle[name]` replaced by one that rejects with `error`. */
async function withFailing(
  name: "sign" | "digest" | "importKey",
  error: unknown,
  body: () => Promise<void>,
): Promise<void> {
  const subtle = crypto.subtle as unknown as Record<string, unknown>;
  const original = subtle[name];
  subtle[name] = () => Promise.reject(error);
  try {
    await body();
  } finally {
    subtle[name] = original;
  }
}

Deno.test("a Web Crypto failure while signing is SigningFailedError, with its phase", async () => {
  const { privateKey } = await pair({ name: "Ed25519" });
  const refused = new DOMException("The operation failed", "OperationError");
  for (const [kind, make] of SIGNERS) {
    const signer = make({ key: privateKey, keyid: "buyer-1", alg: "ed25519" });
    for (const phase of ["sign", "digest"] as const) {
      await withFailing(phase, refused, async () => {
        const error = await signer.sign(MESSAGE).then(() => undefined, (e: unknown) => e);
        ok(error instanceof SigningFailedError, `${kind} ${phase}: ${error}`);
        ok(error instanceof AdcpSigningError && error instanceof AdcpWireError);
        strictEqual(error.code, "SIGNING_FAILED");
        strictEqual(error.name, "SigningFailedError");
        strictEqual(error.phase, phase);
        strictEqual(error.keyid, "buyer-1");
        strictEqual(error.alg, "ed25519");
        strictEqual(error.cause, refused);
        strictEqual(
          error.message,
          `Cannot sign the message: the ${phase} step failed for keyid "buyer-1" (ed25519) ` +
            "with OperationError",
        );
      });
      // signRequest() fails the same way.
      await withFailing(phase, refused, async () => {
        await rejects(
          signer.signRequest(new Request(MESSAGE.url, MESSAGE)),
          (e: unknown) => e instanceof SigningFailedError && e.phase === phase,
        );
      });
    }
    // Something that is not an Error is kept as the cause all the same.
    await withFailing("sign", "odd", async () => {
      await rejects(
        signer.sign(MESSAGE),
        (e: unknown) => e instanceof SigningFailedError && e.cause === "odd",
      );
    });
    // Web Crypto working again, the same signer signs.
    await signer.sign(MESSAGE);
  }
});

Deno.test("a private JWK that does not import is SigningFailedError at signing", async () => {
  const zero = "A".repeat(43);
  for (const [kind, make] of SIGNERS) {
    // Well formed, but the private scalar 0 is no key: Web Crypto refuses the import.
    const signer = make({
      key: { kty: "EC", crv: "P-256", x: zero, y: zero, d: zero },
      keyid: "k",
      alg: "ecdsa-p256-sha256",
    });
    await rejects(
      signer.sign(MESSAGE),
      (e: unknown) => e instanceof SigningFailedError && e.phase === "import",
      kind,
    );
    // A failed import of the first signature fails every later one the same way (no retry helps).
    await rejects(signer.sign(MESSAGE), SigningFailedError, kind);
  }
  // A JWK import that Web Crypto refuses for another reason, the same.
  const ed = await crypto.subtle.exportKey("jwk", (await pair({ name: "Ed25519" })).privateKey);
  await withFailing("importKey", new DOMException("no", "DataError"), async () => {
    const signer = new RequestSigner({ key: ed, keyid: "k", alg: "ed25519" });
    await rejects(
      signer.sign(MESSAGE),
      (e: unknown) => e instanceof SigningFailedError && e.phase === "import",
    );
  });
});

Deno.test("a URL with no canonical form is still TargetUriMalformedError", async () => {
  const { privateKey } = await pair({ name: "Ed25519" });
  const signer = new RequestSigner({ key: privateKey, keyid: "k", alg: "ed25519" });
  await rejects(
    signer.sign({ ...MESSAGE, url: "https://seller.example:0443/adcp" }),
    TargetUriMalformedError,
  );
});

Deno.test("a signer signs https://h:/p as https://h/p (RFC 3986 §6.2.3)", async () => {
  const { privateKey } = await pair({ name: "Ed25519" });
  const signer = new RequestSigner({ key: privateKey, keyid: "k", alg: "ed25519" });
  const fields = await signer.sign({ ...MESSAGE, url: "https://seller.example:/adcp" });
  ok(fields.Signature.startsWith("sig1=:"));
});
