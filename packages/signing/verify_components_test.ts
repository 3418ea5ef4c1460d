// Verifier checklist step 6: a signature covers the profile's required components, and the body
// digest as the endpoint's posture says (always on 3.2 and for webhooks; either, required or
// forbidden as a 3.1 endpoint advertises).
import { strictEqual } from "node:assert/strict";
import { codeOf, failsWith, PROFILES, sign, verified, verify } from "./_test_verify.ts";

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
