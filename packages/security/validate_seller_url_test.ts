import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  CHALLENGE_REDIRECT_PARAMETERS,
  DEFAULT_SELLER_URL_MAX_LENGTH,
  type SellerUrlPurpose,
  validateSellerUrl,
} from "./validate_seller_url.ts";

const PURPOSES: SellerUrlPurpose[] = ["setup_url", "policy_url", "file_url", "challenge_url"];

Deno.test("validateSellerUrl() rejects non-https schemes for every purpose", () => {
  for (const purpose of PURPOSES) {
    for (
      const url of [
        "http://seller.example/",
        "javascript:alert(1)",
        "data:text/plain,hi",
        "file:///etc/passwd",
        "wss://seller.example/",
        "vbscript:msgbox(1)",
      ]
    ) {
      deepStrictEqual(
        validateSellerUrl(url, { purpose, allowedHosts: ["seller.example"] }),
        { valid: false, reason: "not_https" },
        `${purpose} ${url}`,
      );
    }
  }
});

Deno.test("validateSellerUrl() enforces maxLength, 2048 by default", () => {
  strictEqual(DEFAULT_SELLER_URL_MAX_LENGTH, 2048);
  const base = "https://seller.example/";
  const exact = base + "a".repeat(2048 - base.length);
  deepStrictEqual(
    validateSellerUrl(exact, { purpose: "file_url", allowedHosts: ["seller.example"] }),
    {
      valid: true,
      url: exact,
    },
  );
  deepStrictEqual(
    validateSellerUrl(exact + "a", { purpose: "file_url", allowedHosts: ["seller.example"] }),
    { valid: false, reason: "too_long" },
  );
  deepStrictEqual(
    validateSellerUrl(base, {
      purpose: "file_url",
      allowedHosts: ["seller.example"],
      maxLength: 10,
    }),
    { valid: false, reason: "too_long" },
  );
});

Deno.test("validateSellerUrl() treats a non-string url as invalid, not as a programmer error", () => {
  deepStrictEqual(
    validateSellerUrl(42 as never, { purpose: "setup_url", allowedHosts: ["a.example"] }),
    {
      valid: false,
      reason: "invalid_url",
    },
  );
});

Deno.test("validateSellerUrl() strips every listed redirect parameter spelling from challenge URLs", () => {
  const query = CHALLENGE_REDIRECT_PARAMETERS.map((name, i) => `${name}=${i}`).join("&");
  deepStrictEqual(
    validateSellerUrl(`https://auth.seller.example/a?${query}&state=s`, {
      purpose: "challenge_url",
      allowedHosts: ["auth.seller.example"],
    }),
    { valid: true, url: "https://auth.seller.example/a?state=s" },
  );
  deepStrictEqual(
    validateSellerUrl("https://auth.seller.example/a?&&redirect+uri=x&a=1&&", {
      purpose: "challenge_url",
      allowedHosts: ["auth.seller.example"],
    }),
    { valid: true, url: "https://auth.seller.example/a?a=1" },
  );
});

Deno.test("validateSellerUrl() rejects malformed options with TypeError", () => {
  const cases: [unknown, string][] = [
    [null, "Expected options to be an object, got null"],
    [
      { purpose: "logo_url", allowedHosts: ["a.example"] },
      'Expected options.purpose to be one of setup_url, policy_url, file_url, challenge_url, got "logo_url"',
    ],
    [
      { purpose: "setup_url", allowedHosts: [] },
      "Expected options.allowedHosts to be a non-empty array of hosts, got an empty array",
    ],
    [
      { purpose: "setup_url", allowedHosts: "a.example" },
      "Expected options.allowedHosts to be a non-empty array of hosts, got string",
    ],
    [
      { purpose: "setup_url", allowedHosts: [1] },
      "Expected options.allowedHosts[0] to be a string, got number",
    ],
  ];
  for (const [options, message] of cases) {
    throws(() => validateSellerUrl("https://a.example/", options as never), {
      name: "TypeError",
      message,
    });
  }
  for (
    const entry of [
      "https://a.example",
      "a.example/path",
      "user@a.example",
      "*.*.a.example",
      "a.*.example",
      "a.example.",
      "*.203.0.113.7",
      "*.[::1]",
      "*.com",
      "::1",
      "",
      "a example",
    ]
  ) {
    throws(
      () =>
        validateSellerUrl("https://a.example/", { purpose: "setup_url", allowedHosts: [entry] }),
      TypeError,
      entry,
    );
  }
  throws(
    () =>
      validateSellerUrl("https://a.example/", {
        purpose: "setup_url",
        allowedHosts: ["a.example"],
        maxLength: -1,
      }),
    RangeError,
  );
});

Deno.test("validateSellerUrl() never accepts a non-https URL, userinfo, or a host off the list", () => {
  const allowedHosts = ["seller.example", "*.cdn.example", "203.0.113.7"];
  // Weighted toward near-valid URLs so that both outcomes are common.
  const scheme = fc.oneof(
    { arbitrary: fc.constantFrom("https", "HTTPS"), weight: 4 },
    {
      arbitrary: fc.constantFrom("http", "javascript", "data", "file", "ftp", "blob:https"),
      weight: 1,
    },
  );
  const host = fc.constantFrom(
    "seller.example",
    "SELLER.example",
    "x.cdn.example",
    "cdn.example",
    "a.b.cdn.example",
    "evil.example",
    "seller.example.",
    "203.0.113.7",
    "[::1]",
    "seller.example:8443",
  );
  const userinfo = fc.oneof(
    { arbitrary: fc.constant(""), weight: 4 },
    { arbitrary: fc.constantFrom("u@", "u:p@", "@", ":@", "seller.example@"), weight: 1 },
  );
  const slashes = fc.constantFrom("//", "//", "/", "", "\\\\", "/\\", "///");
  const rest = fc.string({ unit: fc.constantFrom(..."abc/?#&=%@:.\\_-+"), maxLength: 12 });
  const candidate = fc.oneof(
    {
      arbitrary: fc.tuple(scheme, slashes, userinfo, host, rest)
        .map(([s, sl, u, h, r]) => `${s}:${sl}${u}${h}/${r}`),
      weight: 6,
    },
    { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 1 },
    { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
  );
  let accepted = 0;
  let rejected = 0;
  fc.assert(
    fc.property(candidate, fc.constantFrom(...PURPOSES), (url, purpose) => {
      const result = validateSellerUrl(url, { purpose, allowedHosts });
      if (!result.valid) {
        rejected++;
        return;
      }
      accepted++;
      const parsed = new URL(result.url);
      strictEqual(parsed.protocol, "https:");
      strictEqual(parsed.username, "");
      strictEqual(parsed.password, "");
      ok(!/^[a-z]+:[/\\]*[^/\\?#]*@/i.test(url), `raw userinfo accepted: ${url}`);
      ok(
        parsed.host === "seller.example" || parsed.host === "203.0.113.7" ||
          /^[^.:]+(?:\.[^.:]+)*\.cdn\.example$/.test(parsed.host),
        `host ${parsed.host}`,
      );
      strictEqual(result.url, parsed.href);
      if (purpose === "challenge_url") {
        strictEqual(parsed.hash, "");
        for (const name of parsed.searchParams.keys()) {
          ok(!CHALLENGE_REDIRECT_PARAMETERS.includes(name.toLowerCase().replace(/[^a-z0-9]/g, "")));
        }
      }
    }),
    { numRuns: 3000 },
  );
  // The generator must exercise both outcomes for the property to mean anything.
  ok(accepted > 150, `accepted ${accepted}`);
  ok(rejected > 150, `rejected ${rejected}`);
});

Deno.test("validateSellerUrl() holds the normalized URL to maxLength too", () => {
  const options = {
    purpose: "setup_url",
    allowedHosts: ["seller.example"],
    maxLength: 100,
  } as const;
  const emoji = "https://seller.example/" + "\u{1F600}".repeat(38); // 99 UTF-16 units
  ok(emoji.length <= 100);
  deepStrictEqual(validateSellerUrl(emoji, options), { valid: false, reason: "too_long" });
  const ascii = "https://seller.example/" + "a".repeat(77); // exactly 100 units, unchanged by parsing
  deepStrictEqual(validateSellerUrl(ascii, options), { valid: true, url: ascii });
});

Deno.test("validateSellerUrl() drops every challenge parameter that is or may be a redirect", () => {
  const options = { purpose: "challenge_url", allowedHosts: ["auth.seller.example"] } as const;
  const base = "https://auth.seller.example/authorize?client_id=abc";
  const dropped = [
    "oauth_callback=https%3A%2F%2Fevil.example",
    "wreply=x",
    "RelayState=x",
    "target_link_uri=x",
    "success_redirect_url=x",
    "login_redirect=x",
    "redirect_uris=x",
    "returnTo=x",
    "forward=x",
    "anything=https://evil.example",
    "anything=HTTP%3A%2F%2Fevil.example",
    "anything=%2F%2Fevil.example",
    "anything=%5C%5Cevil.example",
    "anything=+%20https://evil.example",
    "state=1;redirect_uri=https%3A%2F%2Fevil.example",
  ];
  for (const parameter of dropped) {
    const result = validateSellerUrl(`${base}&${parameter}&scope=read`, options);
    deepStrictEqual(result, { valid: true, url: `${base}&scope=read` }, parameter);
  }
  const kept = "client_id=abc&scope=read%3Aproducts&state=x%2Fy&prompt=login&nonce=n-1" +
    "&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3A1&code_challenge=abc_-";
  deepStrictEqual(
    validateSellerUrl(`https://auth.seller.example/authorize?${kept}`, options),
    { valid: true, url: `https://auth.seller.example/authorize?${kept}` },
  );
});

Deno.test("validateSellerUrl() refuses hostnames with empty labels, even under a wildcard", () => {
  const options = { purpose: "setup_url", allowedHosts: ["*.seller.example"] } as const;
  for (
    const host of [
      "..seller.example",
      "a..seller.example",
      ".a.seller.example",
      "a.%2E.seller.example",
    ]
  ) {
    deepStrictEqual(
      validateSellerUrl(`https://${host}/`, options),
      { valid: false, reason: "host_not_allowed" },
      host,
    );
  }
  strictEqual(validateSellerUrl("https://a.b.seller.example/", options).valid, true);
});
