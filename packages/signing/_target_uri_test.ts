import fc from "fast-check";
import { assertTimeGrowth } from "adcp-testkit";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  canonicalAuthority,
  canonicalTarget,
  hasRawNonAsciiAuthority,
  TargetUriError,
  type TargetUriProblem,
} from "./_target_uri.ts";

/** A row: an input URL, then its `[targetUri, authority]` or the problem it is refused for. */
type Row = readonly [input: string, expected: readonly [string, string] | TargetUriProblem];

/** Asserts that `run` throws a TargetUriError whose problem is `problem`. */
function assertProblem(run: () => unknown, problem: TargetUriProblem, label: string): void {
  throws(run, (error: unknown) => {
    ok(error instanceof TargetUriError, `${label}: not a TargetUriError: ${error}`);
    strictEqual(error.problem, problem, label);
    strictEqual(error.name, "TargetUriError");
    ok(error.message.startsWith(`Cannot canonicalize the URL: ${problem}`), error.message);
    return true;
  }, label);
}

/** Runs a table through canonicalTarget, naming the failing row. */
function runTable(rows: readonly Row[]): void {
  for (const [input, expected] of rows) {
    const label = JSON.stringify(input);
    if (typeof expected === "string") {
      assertProblem(() => canonicalTarget(input), expected, label);
    } else {
      deepStrictEqual(
        canonicalTarget(input),
        { targetUri: expected[0], authority: expected[1] },
        label,
      );
    }
  }
}

// compliance/3.2.0-beta.5/test-vectors/request-signing/canonicalization.json, every case in file
// order (input_url, expected_target_uri, expected_authority; the problem is ours, the vectors only
// say `request_target_uri_malformed`). The 3.1.19 file's 31 cases are these minus the six added in
// 3.2 (dns-root-dot-stripped, dns-root-dot-with-port-stripped, idn-u-label-root-dot-stripped,
// idn-a-label-root-dot-stripped, multiple-trailing-dots-rejected,
// internal-empty-dns-label-rejected), with the same inputs and outputs.
const CANONICALIZATION_VECTORS: readonly Row[] = [
  [
    "HTTPS://seller.example.com/adcp/create_media_buy",
    ["https://seller.example.com/adcp/create_media_buy", "seller.example.com"],
  ],
  ["https://Seller.Example.COM/p", ["https://seller.example.com/p", "seller.example.com"]],
  ["https://example.com./p", ["https://example.com/p", "example.com"]],
  ["https://example.com.:8443/p", ["https://example.com:8443/p", "example.com:8443"]],
  ["https://bücher.example/p", ["https://xn--bcher-kva.example/p", "xn--bcher-kva.example"]],
  ["https://BÜCHER.Example/p", ["https://xn--bcher-kva.example/p", "xn--bcher-kva.example"]],
  ["https://bücher.example./p", ["https://xn--bcher-kva.example/p", "xn--bcher-kva.example"]],
  [
    "https://xn--bcher-kva.example./p",
    ["https://xn--bcher-kva.example/p", "xn--bcher-kva.example"],
  ],
  ["https://example.com../p", "multiple_trailing_dots"],
  ["https://example..com/p", "empty_label"],
  ["https://[2001:DB8::1]/p", ["https://[2001:db8::1]/p", "[2001:db8::1]"]],
  ["https://[::1]:8443/p", ["https://[::1]:8443/p", "[::1]:8443"]],
  ["https://user:pass@seller.example.com/p", [
    "https://seller.example.com/p",
    "seller.example.com",
  ]],
  [
    "https://seller.example.com:443/adcp/create_media_buy",
    ["https://seller.example.com/adcp/create_media_buy", "seller.example.com"],
  ],
  ["http://seller.example.com:80/p", ["http://seller.example.com/p", "seller.example.com"]],
  [
    "https://seller.example.com:8443/p",
    ["https://seller.example.com:8443/p", "seller.example.com:8443"],
  ],
  [
    "https://seller.example.com/adcp/./create_media_buy",
    ["https://seller.example.com/adcp/create_media_buy", "seller.example.com"],
  ],
  ["https://seller.example.com/a/b/../c", ["https://seller.example.com/a/c", "seller.example.com"]],
  ["https://seller.example.com/a//b", ["https://seller.example.com/a//b", "seller.example.com"]],
  ["https://seller.example.com/a/.//b", ["https://seller.example.com/a//b", "seller.example.com"]],
  ["https://seller.example.com/a//../b", ["https://seller.example.com/a/b", "seller.example.com"]],
  ["https://seller.example.com?x=1", ["https://seller.example.com/?x=1", "seller.example.com"]],
  [
    "https://seller.example.com/path%2fhere",
    ["https://seller.example.com/path%2Fhere", "seller.example.com"],
  ],
  [
    "https://seller.example.com/a%3Ab%3Fc",
    ["https://seller.example.com/a%3Ab%3Fc", "seller.example.com"],
  ],
  ["https://seller.example.com/%7Efoo", ["https://seller.example.com/~foo", "seller.example.com"]],
  ["https://seller.example.com/%41%42C", ["https://seller.example.com/ABC", "seller.example.com"]],
  [
    "https://seller.example.com/p?b=2&a=1&c=3",
    ["https://seller.example.com/p?b=2&a=1&c=3", "seller.example.com"],
  ],
  ["https://seller.example.com/p?x=a+b", [
    "https://seller.example.com/p?x=a+b",
    "seller.example.com",
  ]],
  ["https://seller.example.com/p?", ["https://seller.example.com/p?", "seller.example.com"]],
  ["https://seller.example.com/p", ["https://seller.example.com/p", "seller.example.com"]],
  ["https://seller.example.com/p#frag", ["https://seller.example.com/p", "seller.example.com"]],
  ["https://:443/p", "missing_host"],
  ["https://user@/p", "userinfo_without_host"],
  ["https:///p", "empty_authority"],
  ["https://[::1/p", "ipv6_unclosed"],
  ["https://fe80::1/p", "ipv6_bare"],
  ["https://[fe80::1%25eth0]/p", "ipv6_zone"],
];

Deno.test("canonicalTarget() passes every canonicalization.json case (3.2 and 3.1)", () => {
  strictEqual(CANONICALIZATION_VECTORS.length, 37);
  runTable(CANONICALIZATION_VECTORS);
});

// The request URLs of request-signing positive vectors 005-012 (3.1.19 and 3.2.0-beta.5) and the
// `@target-uri` / `@authority` lines of their expected signature bases.
const SIGNING_VECTOR_URLS: readonly Row[] = [
  [
    "https://seller.example.com:443/adcp/create_media_buy",
    ["https://seller.example.com/adcp/create_media_buy", "seller.example.com"],
  ],
  [
    "https://seller.example.com/adcp/./create_media_buy",
    ["https://seller.example.com/adcp/create_media_buy", "seller.example.com"],
  ],
  [
    "https://seller.example.com/adcp/get_media_buy?b=2&a=1&c=3",
    ["https://seller.example.com/adcp/get_media_buy?b=2&a=1&c=3", "seller.example.com"],
  ],
  [
    "https://seller.example.com/adcp/resource/%e2%98%83/item",
    ["https://seller.example.com/adcp/resource/%E2%98%83/item", "seller.example.com"],
  ],
  [
    "https://seller.example.com/adcp/a%7Eb%2Dc%5Fd%2Ee/create_media_buy",
    ["https://seller.example.com/adcp/a~b-c_d.e/create_media_buy", "seller.example.com"],
  ],
  [
    "https://seller.example.com/adcp/segment%2Fwith-encoded-slash/create_media_buy",
    [
      "https://seller.example.com/adcp/segment%2Fwith-encoded-slash/create_media_buy",
      "seller.example.com",
    ],
  ],
  [
    "https://[2001:db8::1]/adcp/create_media_buy",
    ["https://[2001:db8::1]/adcp/create_media_buy", "[2001:db8::1]"],
  ],
  [
    "https://[2001:db8::1]:443/adcp/create_media_buy",
    ["https://[2001:db8::1]/adcp/create_media_buy", "[2001:db8::1]"],
  ],
];

Deno.test("canonicalTarget() gives the signature-base values of signing vectors 005-012", () => {
  runTable(SIGNING_VECTOR_URLS);
});

Deno.test("a raw U-label on the wire is detected and refused (negative vector 026)", () => {
  const url = "https://bücher.example.com/adcp/create_media_buy";
  strictEqual(hasRawNonAsciiAuthority(url), true);
  assertProblem(() => canonicalAuthority("bücher.example.com", "https"), "non_ascii_host", "026");
  // The signer side converts the same URL (canonicalization.json, idn-to-punycode).
  strictEqual(
    canonicalTarget(url).targetUri,
    "https://xn--bcher-kva.example.com/adcp/create_media_buy",
  );
});

Deno.test("two trailing dots are refused in URL and header (profile-3.2 negative 002)", () => {
  assertProblem(
    () => canonicalTarget("https://seller.example.com../adcp/create_media_buy"),
    "multiple_trailing_dots",
    "url",
  );
  assertProblem(
    () => canonicalAuthority("seller.example.com..", "https"),
    "multiple_trailing_dots",
    "header",
  );
  assertProblem(
    () => canonicalAuthority("seller.example.com..:8443", "https"),
    "multiple_trailing_dots",
    "header with port",
  );
});

Deno.test("canonicalTarget() handles scheme, IP and port edge cases", () => {
  runTable([
    ["HtTpS://a.example/p", ["https://a.example/p", "a.example"]],
    ["HTTP://A.EXAMPLE", ["http://a.example/", "a.example"]],
    ["https://a.example", ["https://a.example/", "a.example"]],
    ["https://a.example:443", ["https://a.example/", "a.example"]],
    ["https://localhost/p", ["https://localhost/p", "localhost"]],
    // The default port is the scheme's own: 80 is kept for https, 443 for http.
    ["https://a.example:80/p", ["https://a.example:80/p", "a.example:80"]],
    ["http://a.example:443/p", ["http://a.example:443/p", "a.example:443"]],
    ["https://a.example:1/p", ["https://a.example:1/p", "a.example:1"]],
    ["https://a.example:65535/p", ["https://a.example:65535/p", "a.example:65535"]],
    ["https://a.example:0/p", "invalid_port"],
    ["https://a.example:65536/p", "invalid_port"],
    ["https://a.example:99999/p", "invalid_port"],
    // RFC 3986 §6.2.3: an empty port goes with its ':'; a port with leading zeros is refused.
    ["https://a.example:/p", ["https://a.example/p", "a.example"]],
    ["https://a.example:", ["https://a.example/", "a.example"]],
    ["https://a.example:?x", ["https://a.example/?x", "a.example"]],
    ["https://a.example:#f", ["https://a.example/", "a.example"]],
    ["http://a.example:/p", ["http://a.example/p", "a.example"]],
    ["https://u:p@a.example:/p", ["https://a.example/p", "a.example"]],
    ["https://A.Example.:/p", ["https://a.example/p", "a.example"]],
    ["https://192.0.2.1:/p", ["https://192.0.2.1/p", "192.0.2.1"]],
    ["https://a.example::/p", "invalid_port"],
    ["https://a.example:0443/p", "invalid_port"],
    ["https://a.example:00443/p", "invalid_port"],
    ["https://a.example:08443/p", "invalid_port"],
    ["https://a.example:00/p", "invalid_port"],
    ["https://a.example:+443/p", "invalid_port"],
    ["https://a.example:44a/p", "invalid_port"],
    ["https://a.example:443:443/p", "invalid_port"],
    // IPv4: the dotted quad only, kept as written; the root-dot rule is not for IP addresses.
    ["https://192.0.2.1/p", ["https://192.0.2.1/p", "192.0.2.1"]],
    ["https://192.0.2.1:8443/p", ["https://192.0.2.1:8443/p", "192.0.2.1:8443"]],
    ["https://192.0.2.1./p", "invalid_ipv4"],
    ["https://0x7f.1/p", "invalid_ipv4"],
    ["https://127.1/p", "invalid_ipv4"],
    ["https://2130706433/p", "invalid_ipv4"],
    ["https://01.2.3.4/p", "invalid_ipv4"],
    ["https://256.1.1.1/p", "invalid_ipv4"],
    ["https://a.example.0x/p", "invalid_ipv4"],
    ["https://１２７.０.０.１/p", "invalid_ipv4"],
    // IPv6: brackets kept, hex lowercased, nothing else rewritten (no re-compression).
    ["https://[::ffff:1.2.3.4]/p", ["https://[::ffff:1.2.3.4]/p", "[::ffff:1.2.3.4]"]],
    ["https://[::FFFF:1.2.3.4]:443/p", ["https://[::ffff:1.2.3.4]/p", "[::ffff:1.2.3.4]"]],
    ["https://[0:0:0:0:0:0:0:1]/p", ["https://[0:0:0:0:0:0:0:1]/p", "[0:0:0:0:0:0:0:1]"]],
    ["https://[::]/p", ["https://[::]/p", "[::]"]],
    ["https://[1:2:3:4:5:6:7::]/p", ["https://[1:2:3:4:5:6:7::]/p", "[1:2:3:4:5:6:7::]"]],
    ["https://[::1]:0/p", "invalid_port"],
    ["https://[::1]:/p", ["https://[::1]/p", "[::1]"]],
    ["https://[::1]::/p", "invalid_port"],
    ["https://[::1]x/p", "invalid_host"],
    ["https://[::1]]/p", "invalid_host"],
    ["https://[1:2:3:4:5:6:7:8:9]/p", "ipv6_invalid"],
    ["https://[1:2:3:4:5:6:7]/p", "ipv6_invalid"],
    ["https://[1::2::3]/p", "ipv6_invalid"],
    ["https://[:::1]/p", "ipv6_invalid"],
    ["https://[12345::1]/p", "ipv6_invalid"],
    ["https://[1.2.3.4::]/p", "ipv6_invalid"],
    ["https://[::1.2.3.256]/p", "ipv6_invalid"],
    ["https://[v1.fe80::a]/p", "ipv6_invalid"],
    ["https://[]/p", "ipv6_invalid"],
    ["https://[fe80::1%eth0]/p", "ipv6_zone"],
    ["https://[fe80::1%25]/p", "ipv6_zone"],
    ["https://::1/p", "ipv6_bare"],
    ["https://2001:db8::1:443/p", "ipv6_bare"],
    ["https://a]b.example/p", "invalid_host"],
  ]);
});

Deno.test("canonicalTarget() refuses what is not an absolute http(s) URL", () => {
  runTable([
    ["", "invalid_url"],
    ["seller.example.com/p", "invalid_url"],
    ["//seller.example.com/p", "invalid_url"],
    ["1https://a.example/", "invalid_url"],
    ["https:a.example/p", "invalid_url"],
    ["https:/a.example/p", "invalid_url"],
    ["https:\\\\a.example\\p", "invalid_url"],
    ["ftp://a.example/p", "not_http"],
    ["wss://a.example/p", "not_http"],
    ["javascript://a.example/%0Aalert(1)", "not_http"],
    ["https://", "empty_authority"],
    ["https://?x=1", "empty_authority"],
    ["https://#f", "empty_authority"],
    ["https://@/p", "userinfo_without_host"],
    ["https://user:pass@/p", "userinfo_without_host"],
    ["https://user@:443/p", "missing_host"],
    ["https://:/p", "missing_host"],
  ]);
});

Deno.test("canonicalTarget() strips userinfo but refuses an ambiguous one", () => {
  runTable([
    ["https://u%41:p%7E@a.example/p", ["https://a.example/p", "a.example"]],
    ["https://!$&'()*+,;=:@a.example/p", ["https://a.example/p", "a.example"]],
    ["https://a@b@a.example/p", "invalid_userinfo"],
    ["https://u[1]@a.example/p", "invalid_userinfo"],
    ["https://ü@a.example/p", "invalid_userinfo"],
    ["https://u%zz@a.example/p", "invalid_userinfo"],
    ["https://u%4@a.example/p", "invalid_userinfo"],
    ["https://u%@a.example/p", "invalid_userinfo"],
  ]);
  // The message never quotes the input, so credentials do not end up in logs.
  throws(() => canonicalTarget("https://user:s3cret@@a.example/"), (error: unknown) => {
    ok(error instanceof TargetUriError);
    ok(!error.message.includes("s3cret"), error.message);
    return true;
  });
});

Deno.test("canonicalTarget() holds DNS hosts to UTS-46 with CheckHyphens and STD3 rules", () => {
  runTable([
    // UTS-46 Nontransitional: ß is kept (xn--fa-hia), not mapped to "ss".
    ["https://faß.de/p", ["https://xn--fa-hia.de/p", "xn--fa-hia.de"]],
    ["https://FAß.DE/p", ["https://xn--fa-hia.de/p", "xn--fa-hia.de"]],
    ["https://XN--BCHER-KVA.Example/p", [
      "https://xn--bcher-kva.example/p",
      "xn--bcher-kva.example",
    ]],
    // The three UTS-46 label separators, and one fullwidth trailing root dot.
    ["https://example\u3002com/p", ["https://example.com/p", "example.com"]],
    ["https://bücher\uFF0Eexample\uFF61/p", [
      "https://xn--bcher-kva.example/p",
      "xn--bcher-kva.example",
    ]],
    ["https://bücher.example\u3002./p", "multiple_trailing_dots"],
    // A soft hyphen is ignored by the mapping.
    ["https://bü\u00ADcher.example/p", [
      "https://xn--bcher-kva.example/p",
      "xn--bcher-kva.example",
    ]],
    ["https://\u05D0\u05D1.example/p", ["https://xn--4dbc.example/p", "xn--4dbc.example"]],
    ["https://a-b.example/p", ["https://a-b.example/p", "a-b.example"]],
    ["https://1a.example/p", ["https://1a.example/p", "1a.example"]],
    ["https://123.example/p", ["https://123.example/p", "123.example"]],
    // UseSTD3ASCIIRules: letters, digits and hyphens only.
    ["https://a_b.example/p", "invalid_host"],
    ["https://a~b.example/p", "invalid_host"],
    ["https://a!b.example/p", "invalid_host"],
    ["https://a%41.example/p", "invalid_host"],
    ["https://%41.example/p", "invalid_host"],
    ["https://%2e.example/p", "invalid_host"],
    ["https://a\uFF3Fb.example/p", "idna_invalid"], // fullwidth low line maps to "_"
    ["https://a\uFF0Fb.example/p", "idna_invalid"], // fullwidth solidus maps to "/"
    ["https://a\uFF1A443.example/p", "idna_invalid"], // fullwidth colon maps to ":"
    ["https://\u2260.example/p", "idna_invalid"], // ≠, disallowed under STD3 by pre-15.1 tables
    ["https://xn--1ch.example/p", "idna_invalid"],
    ["https://\u2488example/p", "idna_invalid"], // ⒈ (disallowed; once mapped to "1.")
    // CheckHyphens, on a plain label and on the decoded U-label of an A-label.
    ["https://-a.example/p", "idna_invalid"],
    ["https://a-.example/p", "idna_invalid"],
    ["https://ab--c.example/p", "idna_invalid"],
    ["https://ab--ü.example/p", "idna_invalid"],
    ["https://xn--ab---3ra.example/p", "idna_invalid"], // ab--ü
    ["https://xn----dha.example/p", "idna_invalid"], // ü-
    ["https://-ü.example/p", "idna_invalid"],
    ["https://xn---ab-fqa.example/p", "idna_invalid"], // -čab
    // Invalid Punycode, and an A-label whose U-label is all ASCII.
    ["https://xn--zz.example/p", "idna_invalid"],
    ["https://xn--.example/p", "idna_invalid"],
    ["https://xn--ab--c-.example/p", "idna_invalid"],
    ["https://xn--abc-.example/p", "idna_invalid"],
    // CheckBidi (the URL parser's): an LTR and an RTL character in one label; in a Bidi domain
    // name an LTR label must start with an L character.
    ["https://a\u05D0.example/p", "idna_invalid"],
    ["https://1\u05D0.example/p", "idna_invalid"],
    ["https://1abc.xn--4db.example/p", "idna_invalid"],
    // CheckJoiners (the URL parser's): ZWNJ outside a joining context.
    ["https://a\u200Cb.example/p", "idna_invalid"],
    // A label starting with a combining mark.
    ["https://\u0301a.example/p", "idna_invalid"],
    // Empty labels and lengths (VerifyDnsLength).
    ["https://./p", "empty_label"],
    ["https://../p", "multiple_trailing_dots"],
    ["https://.example.com/p", "empty_label"],
    [`https://${"a".repeat(63)}.example/p`, [
      `https://${"a".repeat(63)}.example/p`,
      `${"a".repeat(63)}.example`,
    ]],
    [`https://${"a".repeat(64)}.example/p`, "host_too_long"],
    [`https://${"a.".repeat(126)}ab/p`, "host_too_long"],
    [`https://${"a.".repeat(125)}abc./p`, [
      `https://${"a.".repeat(125)}abc/p`,
      `${"a.".repeat(125)}abc`,
    ]],
    [`https://${"ü".repeat(2000)}.example/p`, "host_too_long"],
    [`https://${"ü".repeat(60)}.example/p`, "host_too_long"],
  ]);
});

Deno.test("canonicalTarget() normalizes the path: dot segments, slashes, percent-encoding", () => {
  runTable([
    ["https://a.example/../../a", ["https://a.example/a", "a.example"]],
    ["https://a.example/..", ["https://a.example/", "a.example"]],
    ["https://a.example/.", ["https://a.example/", "a.example"]],
    ["https://a.example/a/..", ["https://a.example/", "a.example"]],
    ["https://a.example/a/b/..", ["https://a.example/a/", "a.example"]],
    ["https://a.example/a/b/.", ["https://a.example/a/b/", "a.example"]],
    ["https://a.example/a/./b/../../c", ["https://a.example/c", "a.example"]],
    ["https://a.example/..//a", ["https://a.example//a", "a.example"]],
    ["https://a.example//", ["https://a.example//", "a.example"]],
    ["https://a.example/a/...", ["https://a.example/a/...", "a.example"]],
    ["https://a.example/a/.b/..c", ["https://a.example/a/.b/..c", "a.example"]],
    ["https://a.example/a%2F..%2Fb", ["https://a.example/a%2F..%2Fb", "a.example"]],
    ["https://a.example/%2e%2e%2e", ["https://a.example/...", "a.example"]],
    ["https://a.example/a%2Eb", ["https://a.example/a.b", "a.example"]],
    ["https://a.example/%7e%2d%5f%2e%30%7a%5A", ["https://a.example/~-_.0zZ", "a.example"]],
    ["https://a.example/%3a%40%2f%25%20%00%ff", [
      "https://a.example/%3A%40%2F%25%20%00%FF",
      "a.example",
    ]],
    ["https://a.example/!$&'()*+,;=:@-._~", ["https://a.example/!$&'()*+,;=:@-._~", "a.example"]],
    ["https://a.example/p?q#f?g/h", ["https://a.example/p?q", "a.example"]],
    ["https://a.example/p#", ["https://a.example/p", "a.example"]],
    ["https://a.example#f", ["https://a.example/", "a.example"]],
    // Dot segments that exist only once `%2E` is decoded: refused (either step order would
    // otherwise give a different path).
    ["https://a.example/a/%2e%2e/b", "encoded_dot_segment"],
    ["https://a.example/a/%2E/b", "encoded_dot_segment"],
    ["https://a.example/a/.%2E", "encoded_dot_segment"],
    ["https://a.example/%2e", "encoded_dot_segment"],
    // Malformed percent-encoding.
    ["https://a.example/%", "invalid_percent_encoding"],
    ["https://a.example/a%", "invalid_percent_encoding"],
    ["https://a.example/%4", "invalid_percent_encoding"],
    ["https://a.example/%4/", "invalid_percent_encoding"],
    ["https://a.example/%zz", "invalid_percent_encoding"],
    ["https://a.example/%4g", "invalid_percent_encoding"],
    ["https://a.example/%%41", "invalid_percent_encoding"],
    // Raw characters RFC 3986 does not allow in a path: an encoded URL is expected.
    ["https://a.example/a b", "invalid_character"],
    ["https://a.example/a\tb", "invalid_character"],
    ["https://a.example/a\nb", "invalid_character"],
    ["https://a.example/a\u0000b", "invalid_character"],
    ["https://a.example/a\u007Fb", "invalid_character"],
    ["https://a.example/a\\b", "invalid_character"],
    ["https://a.example/bücher", "invalid_character"],
    ["https://a.example/\u{1F600}", "invalid_character"],
    ["https://a.example/\uD800", "invalid_character"],
    ["https://a.example/a[1]", "invalid_character"],
    ['https://a.example/"', "invalid_character"],
    ["https://a.example/<x>", "invalid_character"],
    ["https://a.example/a|b", "invalid_character"],
    ["https://a.example/a^b", "invalid_character"],
    ["https://a.example/a`b", "invalid_character"],
    ["https://a.example/{a}", "invalid_character"],
    [" https://a.example/", "invalid_character"],
    ["https://a.example/ ", "invalid_character"],
    ["https://a.exa\tmple/", "invalid_character"],
  ]);
});

Deno.test("canonicalTarget() keeps the query's bytes but for percent-encoding (step 6)", () => {
  runTable([
    ["https://a.example/p?b=2&a=1&b=1", ["https://a.example/p?b=2&a=1&b=1", "a.example"]],
    ["https://a.example/p?a=%7e&b=%2f&c=%41", ["https://a.example/p?a=~&b=%2F&c=A", "a.example"]],
    ["https://a.example/p?x=a+b%20c", ["https://a.example/p?x=a+b%20c", "a.example"]],
    ["https://a.example/p?/a/../b?c", ["https://a.example/p?/a/../b?c", "a.example"]],
    ["https://a.example/p?%2e%2e", ["https://a.example/p?..", "a.example"]],
    ["https://a.example/p??", ["https://a.example/p??", "a.example"]],
    ["https://a.example/p?a=1&&;=", ["https://a.example/p?a=1&&;=", "a.example"]],
    ["https://a.example?", ["https://a.example/?", "a.example"]],
    ["https://a.example/p?%", "invalid_percent_encoding"],
    ["https://a.example/p?a=%G0", "invalid_percent_encoding"],
    ["https://a.example/p?a[]=1", "invalid_character"],
    ["https://a.example/p?a=b c", "invalid_character"],
    ["https://a.example/p?a=ü", "invalid_character"],
    ["https://a.example/p?a='<b>'", "invalid_character"],
    // The fragment is stripped, but checked like the query.
    ["https://a.example/p#a b", "invalid_character"],
    ["https://a.example/p#%zz", "invalid_percent_encoding"],
    ["https://a.example/p#a#b", "invalid_character"],
  ]);
});

Deno.test("canonicalTarget() is bounded: 8192 characters, linear time", () => {
  const base = "https://a.example";
  const dots = base + "/.".repeat((8192 - base.length) >> 1);
  ok(dots.length <= 8192);
  const pct = `${base}/${"%41".repeat((8192 - base.length - 1) / 3 | 0)}`;
  const up = base + "/a".repeat(2043) + "/..".repeat(1355);
  const dotSlash = base + "/./".repeat(2725);
  ok(up.length <= 8192 && dotSlash.length <= 8192);
  canonicalTarget(`${base}/warm/./up/%41`);
  for (
    const [url, expected] of [
      [dots, `${base}/`],
      [pct, `${base}/${"A".repeat((8192 - base.length - 1) / 3 | 0)}`],
      [up, `${base}${"/a".repeat(2043 - 1355)}/`],
      [dotSlash, `${base}${"/".repeat(2725)}`],
    ] as const
  ) {
    const start = performance.now();
    const result = canonicalTarget(url);
    const elapsed = performance.now() - start;
    strictEqual(result.targetUri, expected);
    ok(elapsed < 50, `took ${elapsed} ms`);
  }
  assertProblem(
    () => canonicalTarget(`${base}/${"a".repeat(8192 - base.length)}`),
    "too_long",
    "8193",
  );
  strictEqual(canonicalTarget(`${base}/${"a".repeat(8191 - base.length)}`).targetUri.length, 8192);
  assertProblem(() => canonicalTarget("https://a.example/" + "%".repeat(1e6)), "too_long", "1e6");
  assertProblem(() => canonicalAuthority("a".repeat(8193), "https"), "too_long", "header");
  // Refused in time linear in the length, not quadratic (a ratio of two sizes, not a clock).
  assertTimeGrowth(
    (n) => ["a", "a:", "[", "@"].map((unit) => `https://${unit.repeat(n / unit.length)}/`),
    ([host, port, ipv6, userinfo]) => {
      assertProblem(() => canonicalTarget(host!), "host_too_long", "host");
      assertProblem(() => canonicalTarget(port!), "invalid_port", ":");
      assertProblem(() => canonicalTarget(ipv6!), "ipv6_unclosed", "[");
      assertProblem(() => canonicalTarget(userinfo!), "invalid_userinfo", "@");
    },
    8000,
  );
});

Deno.test("canonicalAuthority() canonicalizes Host and :authority values like the URL", () => {
  const accepted: readonly (readonly [string, "https" | "http", string])[] = [
    ["seller.example.com", "https", "seller.example.com"],
    ["Seller.Example.COM:443", "https", "seller.example.com"],
    ["seller.example.com:443", "http", "seller.example.com:443"],
    ["seller.example.com:80", "http", "seller.example.com"],
    ["seller.example.com:8443", "https", "seller.example.com:8443"],
    ["example.com.", "https", "example.com"],
    ["example.com.:8443", "https", "example.com:8443"],
    ["xn--bcher-kva.example.", "https", "xn--bcher-kva.example"],
    ["XN--BCHER-KVA.EXAMPLE", "https", "xn--bcher-kva.example"],
    ["[2001:DB8::1]", "https", "[2001:db8::1]"],
    ["[2001:DB8::1]:443", "https", "[2001:db8::1]"],
    ["[::1]:8443", "https", "[::1]:8443"],
    ["192.0.2.1:443", "https", "192.0.2.1"],
    // RFC 3986 §6.2.3: an empty port goes with its ':'.
    ["example.com:", "https", "example.com"],
    ["Example.COM.:", "http", "example.com"],
    ["[::1]:", "https", "[::1]"],
  ];
  for (const [value, scheme, expected] of accepted) {
    strictEqual(canonicalAuthority(value, scheme), expected, `${value} ${scheme}`);
  }
  const refused: readonly (readonly [string, TargetUriProblem])[] = [
    ["bücher.example", "non_ascii_host"],
    ["b\u00C3\u00BCcher.example", "non_ascii_host"], // UTF-8 bytes read as Latin-1
    ["example.com\u00A0", "non_ascii_host"],
    ["", "empty_authority"],
    [":443", "missing_host"],
    ["example.com:0", "invalid_port"],
    ["example.com:0443", "invalid_port"],
    ["example.com::", "invalid_port"],
    ["example.com:65536", "invalid_port"],
    ["user@example.com", "invalid_host"],
    ["example.com/p", "invalid_host"],
    ["example..com", "empty_label"],
    ["example.com..", "multiple_trailing_dots"],
    ["fe80::1", "ipv6_bare"],
    ["[::1", "ipv6_unclosed"],
    ["[fe80::1%25eth0]", "ipv6_zone"],
    ["a_b.example", "invalid_host"],
    ["example.com ", "invalid_character"],
    [" example.com", "invalid_character"],
    ["example.com\r\nx: y", "invalid_character"],
    ["0x7f.1", "invalid_ipv4"],
    ["xn--ab---3ra.example", "idna_invalid"],
  ];
  for (const [value, problem] of refused) {
    assertProblem(() => canonicalAuthority(value, "https"), problem, JSON.stringify(value));
  }
});

Deno.test("hasRawNonAsciiAuthority() looks at the authority only", () => {
  const rows: readonly (readonly [string, boolean])[] = [
    ["https://bücher.example.com/adcp/create_media_buy", true],
    ["https://BÜCHER.example/p", true],
    ["https://user:pässword@a.example/p", true],
    ["https://a.example:8443\u00A0/p", true],
    ["//bücher.example/p", true],
    ["https://bücher.example", true],
    ["https://xn--bcher-kva.example/p", false],
    ["https://a.example/bücher", false],
    ["https://a.example?q=bücher", false],
    ["https://a.example#bücher", false],
    ["bücher.example/p", false],
    ["https:bücher.example/p", false],
    ["", false],
  ];
  for (const [url, expected] of rows) strictEqual(hasRawNonAsciiAuthority(url), expected, url);
  assertTimeGrowth((n) => [`https://${"a".repeat(n)}ü`, "a".repeat(n)], ([withHost, without]) => {
    strictEqual(hasRawNonAsciiAuthority(withHost!), true);
    strictEqual(hasRawNonAsciiAuthority(without!), false);
  }, 1e6);
});

Deno.test("the functions throw TypeError for a value that is not a string", () => {
  throws(() => canonicalTarget(42 as unknown as string), TypeError);
  throws(() => canonicalTarget(undefined as unknown as string), TypeError);
  throws(() => canonicalAuthority(null as unknown as string, "https"), TypeError);
  throws(
    () => canonicalAuthority("a.example", "ftp" as "https"),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message ===
        'Cannot canonicalize the authority as \'scheme\' must be "https" or "http": ' +
          'current value is "ftp"',
  );
  throws(() => hasRawNonAsciiAuthority({} as unknown as string), TypeError);
});

// Generated URLs: pieces the rules act on, in every combination.
const schemeArb = fc.constantFrom("https", "HTTPS", "http", "HtTp");
const hostArb = fc.oneof(
  fc.constantFrom(
    "seller.example.com",
    "Seller.Example.COM",
    "example.com.",
    "bücher.example",
    "BÜCHER.Example.",
    "xn--bcher-kva.example",
    "faß.de",
    "example\u3002com",
    "[2001:DB8::1]",
    "[::ffff:1.2.3.4]",
    "[::1]",
    "192.0.2.1",
    "localhost",
    "example..com",
    "a_b.example",
    "ab--c.example",
  ),
  fc.array(fc.stringMatching(/^[A-Za-z0-9]([A-Za-z0-9-]{0,6}[A-Za-z0-9])?$/), {
    minLength: 1,
    maxLength: 4,
  }).map((labels) => labels.join(".")),
);
const portArb = fc.option(fc.constantFrom("443", "80", "8443", "1", "65535", "0", ""), {
  nil: undefined,
});
const userinfoArb = fc.option(fc.constantFrom("user", "user:pass", "u%41", ""), {
  nil: undefined,
});
const segmentArb = fc.oneof(
  fc.constantFrom(".", "..", "", "%2e", "%2E%2e", "a", "%41", "%7e", "%2f", "%E2%98%83", "~"),
  fc.constantFrom("b;c=d", "@:", "!$&'()*+,;=", "%zz", "a b", "ü"),
  fc.stringMatching(/^([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9a-fA-F]{2}){0,6}$/),
);
const pathArb = fc.array(segmentArb, { maxLength: 8 }).map((segments) =>
  segments.length === 0 ? "" : `/${segments.join("/")}`
);
const queryArb = fc.option(
  fc.stringMatching(/^([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9a-fA-F]{2}){0,12}$/),
  { nil: undefined },
);
const urlArb = fc.tuple(schemeArb, userinfoArb, hostArb, portArb, pathArb, queryArb, queryArb)
  .map(([scheme, userinfo, host, port, path, query, fragment]) =>
    `${scheme}://${userinfo === undefined ? "" : `${userinfo}@`}${host}${
      port === undefined ? "" : `:${port}`
    }${path}${query === undefined ? "" : `?${query}`}${
      fragment === undefined ? "" : `#${fragment}`
    }`
  );

/** Whether `text` has a code unit above U+007F. */
function hasNonAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return true;
  return false;
}

/** canonicalTarget, or the TargetUriError it threw (anything else fails the property). */
function attempt(url: string): ReturnType<typeof canonicalTarget> | TargetUriError {
  try {
    return canonicalTarget(url);
  } catch (error) {
    if (error instanceof TargetUriError) return error;
    throw error;
  }
}

Deno.test("canonicalTarget() is idempotent on generated URLs", () => {
  let accepted = 0;
  const runs = 2000;
  fc.assert(
    fc.property(fc.oneof(urlArb, fc.webUrl({ withQueryParameters: true, withFragments: true })), (
      url,
    ) => {
      const first = attempt(url);
      if (first instanceof TargetUriError) return;
      accepted++;
      deepStrictEqual(canonicalTarget(first.targetUri), first);
      // The output is the authority's own URL: scheme, `://`, the authority, then `/`.
      const scheme = first.targetUri.startsWith("https:") ? "https" : "http";
      ok(first.targetUri.startsWith(`${scheme}://${first.authority}/`), first.targetUri);
      ok(!/[^\x21-\x7E]|#/.test(first.targetUri), first.targetUri);
    }),
    { numRuns: runs },
  );
  // Not vacuous: most generated URLs are accepted.
  ok(accepted > runs / 4, `only ${accepted} of ${runs} accepted`);
});

Deno.test("canonicalAuthority() agrees with canonicalTarget() on generated authorities", () => {
  const asciiHost = hostArb.filter((host) => !hasNonAscii(host));
  fc.assert(
    fc.property(
      fc.constantFrom<"https" | "http">("https", "http"),
      asciiHost,
      portArb,
      (scheme, host, port) => {
        const value = port === undefined ? host : `${host}:${port}`;
        const fromUrl = attempt(`${scheme}://${value}/`);
        let fromHeader: string | TargetUriError;
        try {
          fromHeader = canonicalAuthority(value, scheme);
        } catch (error) {
          if (!(error instanceof TargetUriError)) throw error;
          fromHeader = error;
        }
        if (fromUrl instanceof TargetUriError) {
          ok(fromHeader instanceof TargetUriError, value);
          strictEqual(fromHeader.problem, fromUrl.problem, value);
        } else {
          strictEqual(fromHeader, fromUrl.authority, value);
        }
      },
    ),
    { numRuns: 1000 },
  );
});

Deno.test("the functions never throw anything but TargetUriError on arbitrary input", () => {
  const anyText = fc.oneof(
    fc.string({ unit: "binary", maxLength: 64 }),
    fc.string({ unit: "binary", maxLength: 64 }).map((tail) => `https://${tail}`),
    fc.string({ unit: "grapheme-ascii", maxLength: 64 }).map((tail) => `https://${tail}`),
    fc.string({ unit: "grapheme-ascii", maxLength: 64 }).map((tail) => `https://a.example/${tail}`),
  );
  fc.assert(
    fc.property(anyText, (text) => {
      const result = attempt(text);
      if (!(result instanceof TargetUriError)) {
        deepStrictEqual(canonicalTarget(result.targetUri), result);
      }
      try {
        canonicalAuthority(text, "https");
      } catch (error) {
        if (!(error instanceof TargetUriError)) throw error;
      }
      strictEqual(typeof hasRawNonAsciiAuthority(text), "boolean");
    }),
    { numRuns: 3000 },
  );
});
