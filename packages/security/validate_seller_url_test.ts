import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  CHALLENGE_REDIRECT_PARAMETERS,
  DEFAULT_SELLER_URL_MAX_LENGTH,
  HARDENED_ALLOWED_PORTS,
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

Deno.test(
  "validateSellerUrl() treats a non-string url as invalid, not as a programmer error",
  () => {
    deepStrictEqual(
      validateSellerUrl(42 as never, { purpose: "setup_url", allowedHosts: ["a.example"] }),
      {
        valid: false,
        reason: "invalid_url",
      },
    );
  },
);

Deno.test(
  "validateSellerUrl() strips every listed redirect parameter spelling from challenge URLs",
  () => {
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
  },
);

Deno.test("validateSellerUrl() rejects malformed options with TypeError", () => {
  const cases: [unknown, string][] = [
    [null, "Cannot validate a seller URL as 'options' must be an object: current value is null"],
    [
      { purpose: "logo_url", allowedHosts: ["a.example"] },
      "Cannot validate a seller URL as 'options.purpose' must be one of setup_url, policy_url, " +
      `file_url, challenge_url: current value is "logo_url"`,
    ],
    [
      { purpose: "setup_url", allowedHosts: [] },
      "Cannot validate a seller URL as 'options.allowedHosts' must be a non-empty array of " +
      "hosts: current value is an array",
    ],
    [
      { purpose: "setup_url", allowedHosts: "a.example" },
      "Cannot validate a seller URL as 'options.allowedHosts' must be a non-empty array of " +
      `hosts: current value is "a.example"`,
    ],
    [
      { purpose: "setup_url", allowedHosts: [1] },
      "Cannot validate a seller URL as 'options.allowedHosts[0]' must be a string: current value " +
      "is 1",
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

Deno.test(
  "validateSellerUrl() never accepts a non-https URL, userinfo, or a host off the list",
  () => {
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
      "seller.example:9443",
      "seller.example:443",
      "x.cdn.example:8443",
      "203.0.113.7:4443",
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
      fc.property(
        candidate,
        fc.constantFrom(...PURPOSES),
        fc.boolean(),
        (url, purpose, hardened) => {
          const result = validateSellerUrl(url, {
            purpose,
            allowedHosts,
            ...(hardened ? { allowedPorts: HARDENED_ALLOWED_PORTS } : {}),
          });
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
            parsed.hostname === "seller.example" || parsed.hostname === "203.0.113.7" ||
              /^[^.:]+(?:\.[^.:]+)*\.cdn\.example$/.test(parsed.hostname),
            `host ${parsed.hostname}`,
          );
          // Every entry names no port, so any port is allowed; with the hardened profile, only 443
          // (written or not) and 8443.
          if (hardened) ok(parsed.port === "" || parsed.port === "8443", `port ${parsed.port}`);
          strictEqual(result.url, parsed.href);
          if (purpose === "challenge_url") {
            strictEqual(parsed.hash, "");
            for (const name of parsed.searchParams.keys()) {
              ok(
                !CHALLENGE_REDIRECT_PARAMETERS.includes(
                  name.toLowerCase().replace(/[^a-z0-9]/g, ""),
                ),
              );
            }
          }
        },
      ),
      { numRuns: 3000 },
    );
    // The generator must exercise both outcomes for the property to mean anything.
    ok(accepted > 150, `accepted ${accepted}`);
    ok(rejected > 150, `rejected ${rejected}`);
  },
);

Deno.test("validateSellerUrl() holds the normalized URL to maxLength too", () => {
  const options = {
    purpose: "setup_url",
    allowedHosts: ["seller.example"],
    maxLength: 100,
  } as const;
  const emoji = "https://seller.example/" + "\u{1F600}".repeat(38); // 99 UTF-16 units
  ok(emoji.length <= 100);
  deepStrictEqual(validateSellerUrl(emoji, options), { valid: false, reason: "too_long" });
  // exactly 100 units, unchanged by parsing
  const ascii = "https://seller.example/" + "a".repeat(77);
  deepStrictEqual(validateSellerUrl(ascii, options), { valid: true, url: ascii });
});

Deno.test(
  "validateSellerUrl() drops every challenge parameter that is or may be a redirect",
  () => {
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
  },
);

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

Deno.test("validateSellerUrl() does not restrict the port for an entry without one", () => {
  // Security, Webhook URL validation, "Destination port: permissive by default".
  for (const entry of ["seller.example", "SELLER.example"]) {
    for (const port of ["", ":443", ":8443", ":9443", ":4443", ":1", ":65535"]) {
      const url = `https://seller.example${port}/x`;
      deepStrictEqual(
        validateSellerUrl(url, { purpose: "file_url", allowedHosts: [entry] }),
        { valid: true, url: new URL(url).href },
        `${entry} ${url}`,
      );
    }
  }
  deepStrictEqual(
    validateSellerUrl("https://a.seller.example:9443/x", {
      purpose: "file_url",
      allowedHosts: ["*.seller.example"],
    }),
    { valid: true, url: "https://a.seller.example:9443/x" },
  );
  deepStrictEqual(
    validateSellerUrl("https://[2001:db8::1]:8443/x", {
      purpose: "file_url",
      allowedHosts: ["[2001:db8::1]"],
    }),
    { valid: true, url: "https://[2001:db8::1]:8443/x" },
  );
});

Deno.test("validateSellerUrl() restricts the port to the one an entry names, 443 included", () => {
  const check = (url: string, entry: string) =>
    validateSellerUrl(url, { purpose: "setup_url", allowedHosts: [entry] }).valid;
  const cases: [string, string, boolean][] = [
    ["https://seller.example:8443/x", "seller.example:8443", true],
    ["https://seller.example:9443/x", "seller.example:8443", false],
    ["https://seller.example/x", "seller.example:8443", false],
    ["https://seller.example/x", "seller.example:443", true],
    ["https://seller.example:443/x", "seller.example:443", true],
    ["https://seller.example:8443/x", "seller.example:443", false],
    ["https://seller.example/x", "seller.example:0443", true],
    ["https://a.seller.example:8443/x", "*.seller.example:8443", true],
    ["https://a.seller.example/x", "*.seller.example:8443", false],
    ["https://a.seller.example:8443/x", "*.seller.example:443", false],
    ["https://[2001:db8::1]/x", "[2001:db8::1]:443", true],
    ["https://[2001:db8::1]:8443/x", "[2001:db8::1]:443", false],
    ["https://203.0.113.7:8443/x", "203.0.113.7:8443", true],
    ["https://203.0.113.7/x", "203.0.113.7:8443", false],
  ];
  for (const [url, entry, valid] of cases) strictEqual(check(url, entry), valid, `${entry} ${url}`);
  // Another entry for the same host can widen it.
  strictEqual(
    validateSellerUrl("https://seller.example:9443/x", {
      purpose: "setup_url",
      allowedHosts: ["seller.example:8443", "seller.example"],
    }).valid,
    true,
  );
});

Deno.test(
  "validateSellerUrl() applies the opt-in hardened port profile on top of the entries",
  () => {
    deepStrictEqual(HARDENED_ALLOWED_PORTS, [443, 8443]);
    ok(Object.isFrozen(HARDENED_ALLOWED_PORTS));
    const hardened = (url: string, entry: string) =>
      validateSellerUrl(url, {
        purpose: "file_url",
        allowedHosts: [entry],
        allowedPorts: HARDENED_ALLOWED_PORTS,
      });
    deepStrictEqual(hardened("https://seller.example:9443/x", "seller.example"), {
      valid: false,
      reason: "port_not_allowed",
    });
    deepStrictEqual(hardened("https://seller.example:8443/x", "seller.example"), {
      valid: true,
      url: "https://seller.example:8443/x",
    });
    deepStrictEqual(hardened("https://seller.example/x", "seller.example"), {
      valid: true,
      url: "https://seller.example/x",
    });
    deepStrictEqual(hardened("https://seller.example:443/x", "seller.example"), {
      valid: true,
      url: "https://seller.example/x",
    });
    // Both must allow the port: an entry naming 9443 never matches under the profile, and an
    // entry naming 8443 still refuses 443.
    deepStrictEqual(hardened("https://seller.example:9443/x", "seller.example:9443"), {
      valid: false,
      reason: "port_not_allowed",
    });
    deepStrictEqual(hardened("https://seller.example/x", "seller.example:8443"), {
      valid: false,
      reason: "host_not_allowed",
    });
    deepStrictEqual(hardened("https://evil.example/x", "seller.example"), {
      valid: false,
      reason: "host_not_allowed",
    });
    // Any caller-chosen profile works the same way.
    deepStrictEqual(
      validateSellerUrl("https://seller.example/x", {
        purpose: "file_url",
        allowedHosts: ["seller.example"],
        allowedPorts: [8443],
      }),
      { valid: false, reason: "port_not_allowed" },
    );
  },
);

Deno.test(
  "validateSellerUrl() rejects a malformed allowedPorts or an entry with an empty port",
  () => {
    const call = (allowedPorts: unknown) => () =>
      validateSellerUrl("https://a.example/", {
        purpose: "setup_url",
        allowedHosts: ["a.example"],
        allowedPorts: allowedPorts as number[],
      });
    throws(call([]), {
      name: "TypeError",
      message:
        "Cannot validate a seller URL as 'options.allowedPorts' must be a non-empty array of " +
        "ports: current value is an array",
    });
    throws(call(null), {
      name: "TypeError",
      message:
        "Cannot validate a seller URL as 'options.allowedPorts' must be a non-empty array of " +
        "ports: current value is null",
    });
    throws(call(443), {
      name: "TypeError",
      message:
        "Cannot validate a seller URL as 'options.allowedPorts' must be a non-empty array of " +
        "ports: current value is 443",
    });
    throws(call([443, "8443"]), {
      name: "TypeError",
      message:
        "Cannot validate a seller URL as 'options.allowedPorts[1]' must be an integer from 1 to " +
        `65535: current value is "8443"`,
    });
    for (const bad of [0, -1, 65536, 443.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      throws(call([443, bad]), {
        name: "RangeError",
        message: "Cannot validate a seller URL as 'options.allowedPorts[1]' must be an integer " +
          `from 1 to 65535: current value is ${bad}`,
      });
    }
    strictEqual(call([1, 65535, 443])().valid, true);
    for (
      const entry of ["a.example:", "*.a.example:", "[::1]:", "a.example:x", "a.example:65536"]
    ) {
      throws(
        () =>
          validateSellerUrl("https://a.example/", { purpose: "setup_url", allowedHosts: [entry] }),
        TypeError,
        entry,
      );
    }
  },
);
