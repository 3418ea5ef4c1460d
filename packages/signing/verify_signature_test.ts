// Verifier checklist steps 10-11: any change to a signed message (a signature bit, a covered
// value, the key, the body under its digest, a Host or :authority that is not the target's) fails
// with the profile's code, and a signature that fails burns no nonce.
import { strictEqual } from "node:assert/strict";
import {
  codeOf,
  ED,
  failsWith,
  flipSignatureBit,
  header,
  NOW,
  OTHER_ED,
  type Parts,
  PROFILES,
  setHeader,
  setParam,
  sign,
  verified,
  verify,
} from "./_test_verify.ts";
import { InMemoryReplayStore } from "./replay.ts";

for (const profile of PROFILES) {
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
