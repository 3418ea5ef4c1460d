import { deepStrictEqual, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { agentCardAuthHosts, checkAuthChallenge } from "./auth_challenge.ts";

Deno.test("checkAuthChallenge() rejects non-https, userinfo and foreign hosts", () => {
  const allowedHosts = ["auth.seller.example"];
  const reasons = [
    ["http://auth.seller.example/login", "not_https"],
    ["javascript:alert(1)", "not_https"],
    ["https://user:pw@auth.seller.example/", "userinfo"],
    ["https://auth.seller.example.evil.example/", "host_not_allowed"],
    ["https://evil.example/?next=https://auth.seller.example", "host_not_allowed"],
  ] as const;
  for (const [url, reason] of reasons) {
    deepStrictEqual(checkAuthChallenge({ challenge_url: url }, { allowedHosts }), {
      valid: false,
      reason,
    });
  }
  deepStrictEqual(checkAuthChallenge({}, { allowedHosts }), {
    valid: false,
    reason: "missing_challenge_url",
  });
  deepStrictEqual(checkAuthChallenge(null, { allowedHosts }), {
    valid: false,
    reason: "missing_challenge_url",
  });
  deepStrictEqual(
    checkAuthChallenge({ challenge_url: "https://a.example/" }, { allowedHosts: [] }),
    {
      valid: false,
      reason: "no_allowed_hosts",
    },
  );
  throws(() => checkAuthChallenge({}, { allowedHosts: "x" as unknown as string[] }), TypeError);
});

Deno.test("checkAuthChallenge() sanitizes scheme and scopes, drops non-string scopes", () => {
  deepStrictEqual(
    checkAuthChallenge({
      challenge_url: "https://auth.seller.example/authorize#frag",
      auth_scheme: "oauth2\u202E",
      scopes: ["read\u200B", 7, "write"],
    }, { allowedHosts: ["auth.seller.example"] }),
    {
      valid: true,
      url: "https://auth.seller.example/authorize",
      authScheme: "oauth2",
      scopes: ["read", "write"],
    },
  );
});

Deno.test("agentCardAuthHosts() seeds from https interface URLs and authOrigin only", () => {
  deepStrictEqual(
    agentCardAuthHosts({
      url: "https://legacy.example/",
      additionalInterfaces: [{ url: "https://grpc.example:8443/", transport: "GRPC" }],
      supportedInterfaces: [
        { url: "https://sales.example/a2a" },
        { url: "http://plain.example/a2a" },
        { url: "https://u:p@creds.example/" },
        { url: 42 },
      ],
      authOrigin: ["https://auth.example", "not a url"],
      capabilities: {
        extensions: [{ uri: "x", params: { authOrigin: "https://ext-auth.example" } }],
      },
    }),
    ["sales.example", "grpc.example:8443", "legacy.example", "auth.example", "ext-auth.example"],
  );
  deepStrictEqual(agentCardAuthHosts(null), []);
});

Deno.test(
  "checkAuthChallenge() never throws and only accepts allow-listed https hosts (property)",
  () => {
    const allowedHosts = ["auth.seller.example", "*.login.example"];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            challenge_url: fc.oneof(
              fc.webUrl({ withQueryParameters: true, withFragments: true }),
              fc.string(),
            ),
            scopes: fc.anything(),
          }),
        ),
        (data) => {
          const checked = checkAuthChallenge(data, { allowedHosts });
          if (!checked.valid) return;
          const url = new URL(checked.url);
          ok(url.protocol === "https:");
          ok(url.hostname === "auth.seller.example" || url.hostname.endsWith(".login.example"));
          ok(!url.searchParams.has("redirect_uri"));
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.anything(), (card) => {
        for (const host of agentCardAuthHosts(card)) {
          // Every seeded entry is one validateSellerUrl accepts.
          checkAuthChallenge({ challenge_url: "https://x.example/" }, { allowedHosts: [host] });
        }
      }),
      { numRuns: 300 },
    );
  },
);
