// A message signed by RequestSigner or WebhookSigner verifies under its profile (3.2 and 3.1
// requests, webhooks) with either algorithm, and the verifier reports what was signed: the signer,
// the covered components, the signature base, the body. Signer options that shape a signature (a
// private JWK as the key, validity, nonce, clock, a keyid that needs escapes) round-trip too.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  clock,
  codeOf,
  ED,
  editHeader,
  failsWith,
  header,
  KEYS,
  makeSigner,
  message,
  NOW,
  param,
  type Parts,
  PROFILES,
  setHeader,
  sign,
  TOOL_BODY,
  verified,
  verify,
  WEBHOOK_BODY,
  withFields,
} from "./_test_verify.ts";
import { RequestSigner } from "./sign.ts";

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
