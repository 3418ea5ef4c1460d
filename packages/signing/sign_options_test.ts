// The signers refuse bad options when they are made, and bad messages and overrides when they
// sign, with the option message naming what is wrong.
import { ok, strictEqual, throws } from "node:assert/strict";
import {
  ED,
  makeSigner,
  message,
  NOW,
  rejection,
  rejectsOption,
  throwsOption,
} from "./_test_verify.ts";
import { TargetUriMalformedError } from "./errors.ts";
import { RequestSigner, type RequestSignerOptions, WebhookSigner } from "./sign.ts";

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
