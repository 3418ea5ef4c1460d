// Verifier checklist steps 1-4 on the Signature and Signature-Input headers: a lone or malformed
// field is header_malformed (never downgraded to a fallback credential), a missing parameter
// params_incomplete, a tag not the profile's tag_invalid, an alg off the allow-list
// alg_not_allowed; the earliest failing step answers.
import { strictEqual } from "node:assert/strict";
import {
  codeOf,
  ED,
  editHeader,
  failsWith,
  header,
  NOW,
  type Parts,
  PROFILES,
  setHeader,
  setParam,
  sign,
  verify,
} from "./_test_verify.ts";
import { InMemoryReplayStore } from "./replay.ts";
import { RevocationList } from "./revocation.ts";

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
