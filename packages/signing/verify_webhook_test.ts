// WebhookVerifier's route mode and the separation of the profiles: legacy HMAC headers on an
// RFC 9421 route are webhook_mode_mismatch, an unsigned delivery is refused, and a signature or key
// of one profile never verifies on the other's verifier.
import { ED, failsWith, message, NOW, sign, verified, verify } from "./_test_verify.ts";

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
