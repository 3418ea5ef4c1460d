import fc from "fast-check";
import { strictEqual, throws } from "node:assert/strict";
import { isReservedAddress } from "./is_reserved_address.ts";

/** Runs a table of `[hostname, expected]` rows, naming the failing row. */
function runTable(rows: readonly (readonly [string, boolean])[]): void {
  for (const [hostname, expected] of rows) {
    strictEqual(isReservedAddress(hostname), expected, JSON.stringify(hostname));
  }
}

/** Asserts that each row's hostname is exactly what the URL parser outputs for it. */
function assertParserOutput(rows: readonly (readonly [string, boolean])[]): void {
  for (const [hostname] of rows) {
    strictEqual(new URL(`https://${hostname}/`).hostname, hostname, hostname);
  }
}

// For each IPv4 range: the address before it, its first and last address, the address after it.
const IPV4_BOUNDARIES: readonly (readonly [string, boolean])[] = [
  // 0.0.0.0/8
  ["0.0.0.0", true],
  ["0.255.255.255", true],
  ["1.0.0.0", false],
  // 10.0.0.0/8
  ["9.255.255.255", false],
  ["10.0.0.0", true],
  ["10.255.255.255", true],
  ["11.0.0.0", false],
  // 100.64.0.0/10
  ["100.63.255.255", false],
  ["100.64.0.0", true],
  ["100.127.255.255", true],
  ["100.128.0.0", false],
  // 127.0.0.0/8
  ["126.255.255.255", false],
  ["127.0.0.0", true],
  ["127.0.0.1", true],
  ["127.255.255.255", true],
  ["128.0.0.0", false],
  // 169.254.0.0/16
  ["169.253.255.255", false],
  ["169.254.0.0", true],
  ["169.254.169.254", true],
  ["169.254.255.255", true],
  ["169.255.0.0", false],
  // 172.16.0.0/12
  ["172.15.255.255", false],
  ["172.16.0.0", true],
  ["172.31.255.255", true],
  ["172.32.0.0", false],
  // 192.0.0.0/24
  ["191.255.255.255", false],
  ["192.0.0.0", true],
  ["192.0.0.255", true],
  ["192.0.1.0", false],
  // 192.0.2.0/24
  ["192.0.1.255", false],
  ["192.0.2.0", true],
  ["192.0.2.255", true],
  ["192.0.3.0", false],
  // 192.168.0.0/16
  ["192.167.255.255", false],
  ["192.168.0.0", true],
  ["192.168.255.255", true],
  ["192.169.0.0", false],
  // 198.18.0.0/15
  ["198.17.255.255", false],
  ["198.18.0.0", true],
  ["198.19.255.255", true],
  ["198.20.0.0", false],
  // 198.51.100.0/24
  ["198.51.99.255", false],
  ["198.51.100.0", true],
  ["198.51.100.255", true],
  ["198.51.101.0", false],
  // 203.0.113.0/24
  ["203.0.112.255", false],
  ["203.0.113.0", true],
  ["203.0.113.255", true],
  ["203.0.114.0", false],
  // 224.0.0.0/4, then 240.0.0.0/4 right after it
  ["223.255.255.255", false],
  ["224.0.0.0", true],
  ["239.255.255.255", true],
  ["240.0.0.0", true],
  ["255.255.255.255", true],
  // public
  ["8.8.8.8", false],
  ["93.184.216.34", false],
];

// For each IPv6 rule: the edges of the range as the URL parser outputs them.
const IPV6_BOUNDARIES: readonly (readonly [string, boolean])[] = [
  // outside 2000::/3
  ["[::]", true],
  ["[::1]", true],
  ["[::2]", true],
  ["[::ffff:0:0]", true],
  ["[::ffff:7f00:1]", true],
  ["[::ffff:808:808]", true], // IPv4-mapped, even of a public address
  ["[::ffff:ffff:ffff]", true],
  ["[64:ff9b::]", true],
  ["[64:ff9b::808:808]", true],
  ["[fc00::]", true],
  ["[fd00:ec2::254]", true],
  ["[fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]", true],
  ["[fe80::]", true],
  ["[fe80::1]", true],
  ["[febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff]", true],
  ["[ff00::]", true],
  ["[ff02::1]", true],
  ["[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]", true],
  // 2000::/3: the address before it, its first and last address, the address after it
  ["[1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]", true],
  ["[2000::]", false],
  ["[3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]", false],
  ["[4000::]", true],
  // 2001::/32 (Teredo)
  ["[2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff]", false],
  ["[2001::]", true],
  ["[2001:0:ffff:ffff:ffff:ffff:ffff:ffff]", true],
  ["[2001:1::]", false],
  // 2001:db8::/32 (documentation)
  ["[2001:db7:ffff:ffff:ffff:ffff:ffff:ffff]", false],
  ["[2001:db8::]", true],
  ["[2001:db8:ffff:ffff:ffff:ffff:ffff:ffff]", true],
  ["[2001:db9::]", false],
  // 2002::/16 (6to4)
  ["[2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff]", false],
  ["[2002::]", true],
  ["[2002:c000:204::1]", true],
  ["[2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff]", true],
  ["[2003::]", false],
  // public
  ["[2606:4700::1111]", false],
  ["[2001:4860:4860::8888]", false],
];

Deno.test(
  "isReservedAddress() rejects the first and last address of each IPv4 range and accepts " +
    "its neighbours",
  () => {
    assertParserOutput(IPV4_BOUNDARIES);
    runTable(IPV4_BOUNDARIES);
  },
);

Deno.test(
  "isReservedAddress() rejects every IPv6 address outside 2000::/3 and the Teredo, " +
    "documentation and 6to4 prefixes",
  () => {
    assertParserOutput(IPV6_BOUNDARIES);
    runTable(IPV6_BOUNDARIES);
  },
);

Deno.test(
  "isReservedAddress() reads full, zero-padded, uppercase, embedded-IPv4 and unbracketed " +
    "IPv6 forms",
  () => {
    runTable([
      ["[0:0:0:0:0:0:0:1]", true],
      ["[0000:0000:0000:0000:0000:0000:0000:0001]", true],
      ["[0:0:0:0:0:ffff:7f00:1]", true],
      ["[::ffff:127.0.0.1]", true],
      ["[::ffff:8.8.8.8]", true],
      ["[0:0:0:0:0:ffff:8.8.8.8]", true],
      ["[::127.0.0.1]", true],
      ["[64:ff9b::8.8.8.8]", true],
      ["[FD00:EC2::254]", true],
      ["[FE80::1]", true],
      ["[fe80:0:0:0:0:0:0:1]", true],
      ["[2001:DB8::1]", true],
      ["[2001:0db8:0000:0000:0000:0000:0000:0001]", true],
      ["[2606:4700:0:0:0:0:0:1111]", false],
      ["[2606:4700:0000:0000:0000:0000:0000:1111]", false],
      ["[2606:4700::ABCD]", false],
      ["[2606:4700::17.17.17.17]", false],
      ["[2606:4700:0:0:0:0:17.17.17.17]", false],
      ["[2606:4700:0:0:0:0:0::]", false], // `::` standing for one zero piece
      ["[::2606:4700:0:0:0:0:1111]", true], // the same `::` at the front: 0:2606:…
      // Without brackets, as a resolver returns an address.
      ["::1", true],
      ["::ffff:127.0.0.1", true],
      ["fe80::1", true],
      ["2606:4700::1111", false],
    ]);
  },
);

Deno.test("isReservedAddress() fails closed on malformed IPv6 literals", () => {
  runTable([
    ["[", true],
    ["[]", true],
    ["[::1", true],
    ["::1]", true],
    ["[2606:4700::1111", true],
    ["2606:4700::1111]", true],
    ["[:]", true],
    ["[:::]", true],
    ["[:2606:4700::1111]", true],
    ["[2606:4700::1111:]", true],
    ["[2606:4700::1111::1]", true],
    ["[2606:4700:0:0:0:0:0]", true], // seven pieces, no `::`
    ["[2606:4700:0:0:0:0:0:1111:1]", true], // nine pieces
    ["[2606:4700:0:0:0:0:0:1111::]", true],
    ["[2606:4700::12345]", true],
    ["[2606:4700::g]", true],
    ["[2606:4700::1111%eth0]", true],
    ["[2606:4700::1111%25eth0]", true],
    ["[ 2606:4700::1111]", true],
    ["[2606:4700::1.2.3]", true],
    ["[2606:4700::1.2.3.4.5]", true],
    ["[2606:4700::1.2.3.256]", true],
    ["[2606:4700::01.2.3.4]", true],
    ["[2606:4700::1.2.3.4:1]", true],
    ["[2606:4700::a.2.3.4]", true],
    ["[2606:4700:0:0:0:0:0:1.2.3.4]", true], // IPv4 tail past the last 32 bits
    ["[1.2.3.4]", true],
    ["[2606:4700::1111]]", true],
  ]);
  // Each of these is also rejected by the URL parser: none of them is a real hostname.
  for (const text of ["[:::]", "[2606:4700::1111::1]", "[2606:4700::01.2.3.4]", "[1.2.3.4]"]) {
    throws(() => new URL(`https://${text}/`), TypeError, text);
  }
});

Deno.test(
  "isReservedAddress() rejects localhost and *.localhost, with trailing dots, and " +
    "nothing else by name",
  () => {
    runTable([
      ["localhost", true],
      ["localhost.", true],
      ["localhost..", true],
      ["a.localhost", true],
      ["foo.bar.localhost", true],
      ["foo.bar.localhost.", true],
      [".localhost", true],
      ["LOCALHOST", true], // not parser output (it lowercases), but compared case-insensitively
      ["Api.LocalHost.", true],
      ["localhost.example.com", false],
      ["notlocalhost", false],
      ["localhostx", false],
      ["xlocalhost", false],
      ["localhost.com", false],
      ["localhos", false],
      ["sales.example.com", false],
      ["example.com.", false],
      ["xn--bcher-kva.example", false],
      ["123.example", false],
      ["a_b.example", false],
    ]);
  },
);

Deno.test(
  "isReservedAddress() fails closed on empty hosts and on numeric hosts that are not " +
    "canonical dotted decimal",
  () => {
    runTable([
      ["", true],
      [".", true],
      ["127.1", true],
      ["0x7f.1", true],
      ["0x7f000001", true],
      ["2130706433", true],
      ["8.8.8.08", true],
      ["08.8.8.8", true],
      ["8.8.8.8.8", true],
      ["256.0.0.1", true],
      ["1.2.3.0x", true],
      ["example.123", true],
      ["example.0x1f", true],
      ["8.8.8.8.", false], // a trailing dot on a public address
      ["127.0.0.1.", true],
      ["example.0x1g", false], // not a number: a name
    ]);
  },
);

Deno.test(
  "isReservedAddress() judges URL-normalized IPv4 spellings by the address they denote",
  () => {
    const hostOf = (host: string) => new URL(`https://${host}/`).hostname;
    runTable([
      [hostOf("0x7f.1"), true],
      [hostOf("2130706433"), true],
      [hostOf("127.1"), true],
      [hostOf("0251.0376.0251.0376"), true], // 169.254.169.254 in octal
      [hostOf("0xa9fea9fe"), true],
      [hostOf("0"), true],
      [hostOf("LOCALHOST."), true],
      [hostOf("[::ffff:127.0.0.1]"), true],
      [hostOf("[0:0:0:0:0:0:0:1]"), true],
      [hostOf("1572395042"), false], // 93.184.216.34
      [hostOf("8.8.8.8."), false],
      [hostOf("[2606:4700:0:0:0:0:0:1111]"), false],
    ]);
  },
);

Deno.test("isReservedAddress() rejects a non-string with TypeError naming its kind", () => {
  for (
    const [value, shown] of [[null, "null"], [undefined, "undefined"], [42, "42"], [
      ["a"],
      "an array",
    ], [new URL("https://a.example/"), "an object"]] as const
  ) {
    throws(() => isReservedAddress(value as never), {
      name: "TypeError",
      message: `Cannot check the address as 'hostname' must be a string: current value is ${shown}`,
    });
  }
});

Deno.test("isReservedAddress() answers for megabyte-long inputs of every shape", () => {
  const long = 1 << 20;
  runTable([
    ["a".repeat(long), false],
    [`${"a.".repeat(long / 2)}localhost`, true],
    [".".repeat(long), true],
    ["1".repeat(long), true],
    [`[${"1:".repeat(long / 2)}]`, true],
    [`[${":".repeat(long)}]`, true],
    [`[::${"1".repeat(long)}]`, true],
    [`[::1.${"1".repeat(long)}]`, true],
  ]);
});

/** An independent restatement of the IPv4 ranges: [first address, prefix length]. */
const REFERENCE_IPV4: readonly (readonly [number, number])[] = [
  [0x00000000, 8],
  [0x0a000000, 8],
  [0x64400000, 10],
  [0x7f000000, 8],
  [0xa9fe0000, 16],
  [0xac100000, 12],
  [0xc0000000, 24],
  [0xc0000200, 24],
  [0xc0586300, 24],
  [0xc0a80000, 16],
  [0xc6120000, 15],
  [0xc6336400, 24],
  [0xcb007100, 24],
  [0xe0000000, 4],
  [0xf0000000, 4],
];

function referenceIpv4(address: number): boolean {
  return REFERENCE_IPV4.some(([first, prefixLength]) => {
    const mask = (0xffffffff << (32 - prefixLength)) >>> 0;
    return ((address & mask) >>> 0) === first;
  });
}

/** 32-bit addresses: uniform, and near every range edge. */
const ipv4Address = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.tuple(
    fc.constantFrom(
      ...REFERENCE_IPV4.flatMap(([first, prefixLength]) => [
        first,
        first + 2 ** (32 - prefixLength),
      ]),
    ),
    fc.integer({ min: -2, max: 1 }),
  ).map(([edge, delta]) => Math.min(Math.max(edge + delta, 0), 0xffffffff)),
);

Deno.test(
  "isReservedAddress() of the URL hostname of any IPv4 a.b.c.d equals the CIDR reference",
  () => {
    fc.assert(
      fc.property(ipv4Address, (address) => {
        const [a, b, c, d] = [
          address >>> 24,
          (address >>> 16) & 0xff,
          (address >>> 8) & 0xff,
          address & 0xff,
        ];
        const hostname = new URL("https://" + a + "." + b + "." + c + "." + d + "/").hostname;
        strictEqual(isReservedAddress(hostname), referenceIpv4(address), hostname);
        // The same address as one decimal number, as the URL parser also accepts it.
        strictEqual(
          isReservedAddress(new URL(`https://${address}/`).hostname),
          referenceIpv4(address),
        );
      }),
      { numRuns: 2000 },
    );
  },
);

/** An independent restatement of the IPv6 rule on the eight 16-bit pieces. */
function referenceIpv6(pieces: readonly number[]): boolean {
  const [first, second, third] = pieces as [number, number, number];
  const globalUnicast = first >= 0x2000 && first <= 0x3fff;
  const prefix32 = first * 0x10000 + second; // the first 32 bits
  const inRange = (base: number, length: number) =>
    Math.floor(prefix32 / 2 ** (32 - length)) === Math.floor(base / 2 ** (32 - length));
  const excluded = first === 0x2002 || // 6to4
    prefix32 === 0x20010000 || // Teredo 2001::/32
    prefix32 === 0x20010db8 || // documentation 2001:db8::/32
    (prefix32 === 0x20010002 && third === 0) || // benchmarking 2001:2::/48
    inRange(0x20010010, 28) || // ORCHID 2001:10::/28
    inRange(0x3fff0000, 20); // documentation 3fff::/20
  return !globalUnicast || excluded;
}

const piece = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }),
  fc.constantFrom(
    0,
    0,
    0,
    1,
    0x64,
    0xff9b,
    0xffff,
    0x1fff,
    0x2000,
    0x2001,
    0x2002,
    0xdb8,
    0x2,
    0x3ff0,
    0x3ffe,
    0x10,
    0x1f,
    0x3fff,
    0x0fff,
    0x1000,
    0x3fff,
    0x4000,
    0xfc00,
    0xfe80,
  ),
);

/**
 * Writes pieces in full, lowercase or uppercase, optionally compressing a run with `::` and ending
 * in dotted IPv4.
 */
function ipv6Text(
  pieces: readonly number[],
  compress: readonly [number, number] | undefined,
  dotted: boolean,
  upper: boolean,
): string {
  // With a dotted tail, pieces 6 and 7 are written as one part, so part indices 0-5 stay pieces.
  const parts = pieces.map((value) => value.toString(16));
  if (dotted) {
    const [high, low] = [pieces[6]!, pieces[7]!];
    parts.splice(6, 2, `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`);
  }
  let text: string;
  if (compress === undefined) {
    text = parts.join(":");
  } else {
    const [start, length] = compress;
    text = `${parts.slice(0, start).join(":")}::${parts.slice(start + length).join(":")}`;
  }
  return upper ? text.toUpperCase() : text;
}

Deno.test(
  "isReservedAddress() of any IPv6 literal equals the 2000::/3 reference, in every spelling",
  () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 8, maxLength: 8 }),
        fc.option(fc.tuple(fc.nat(7), fc.integer({ min: 1, max: 8 }))),
        fc.boolean(),
        fc.boolean(),
        (raw, run, dotted, upper) => {
          let pieces = raw;
          let compress: [number, number] | undefined;
          if (run !== null) {
            const [start, length] = [run[0], Math.min(run[1], 8 - run[0])];
            // `::` stands for zero pieces, and never for part of a dotted IPv4 tail.
            if (!dotted || start + length <= 6) {
              pieces = raw.map((value, index) =>
                index >= start && index < start + length ? 0 : value
              );
              compress = [start, length];
            }
          }
          const expected = referenceIpv6(pieces);
          const text = ipv6Text(pieces, compress, dotted, upper);
          strictEqual(isReservedAddress(`[${text}]`), expected, text);
          strictEqual(isReservedAddress(text), expected, text);
          const hostname = new URL(`https://[${text}]/`).hostname;
          strictEqual(isReservedAddress(hostname), expected, hostname);
        },
      ),
      { numRuns: 2000 },
    );
  },
);

/**
 * Texts near IPv6 literals: zero to nine hex groups, perhaps a `::` and a dotted tail, then
 * perhaps one edit (a deleted, replaced or inserted piece of text), so valid and malformed
 * literals both come up often.
 */
const ipv6Like = fc.tuple(
  fc.oneof(
    {
      arbitrary: fc.array(fc.constantFrom("0", "1", "ffff", "FE80", "2001", "db8", "2002"), {
        maxLength: 7,
      }),
      weight: 4,
    },
    fc.array(fc.constantFrom("0", "ff9b", "12345", "ABCD"), { minLength: 6, maxLength: 9 }),
  ),
  fc.option(fc.nat(7), { freq: 3 }),
  fc.option(fc.constantFrom("1.2.3.4", "127.0.0.1", "1.2.3", "01.2.3.4", "1.2.3.256"), { freq: 2 }),
  fc.option(
    fc.tuple(
      fc.nat(60),
      fc.nat(2),
      fc.constantFrom("", ":", "::", ".", "0", "g", "%25", "%", " ", "]", "["),
    ),
    { freq: 2 },
  ),
).map(([groups, compressAt, tail, edit]) => {
  const parts = tail === null ? groups : [...groups, tail];
  const at = compressAt === null ? -1 : Math.min(compressAt, groups.length);
  let text = at === -1
    ? parts.join(":")
    : `${parts.slice(0, at).join(":")}::${parts.slice(at).join(":")}`;
  if (edit !== null) {
    const [at, cut, insert] = edit;
    const position = at % (text.length + 1);
    text = text.slice(0, position) + insert + text.slice(position + cut);
  }
  return text;
});

Deno.test(
  "isReservedAddress() agrees with the URL parser: a bracketed text it rejects is " +
    "reserved, one it accepts keeps its verdict",
  () => {
    fc.assert(
      fc.property(ipv6Like, (text) => {
        const bracketed = `[${text}]`;
        let hostname: string | undefined;
        try {
          hostname = new URL(`https://${bracketed}/`).hostname;
        } catch {
          hostname = undefined;
        }
        if (hostname === undefined) {
          strictEqual(isReservedAddress(bracketed), true, bracketed);
        } else {
          strictEqual(isReservedAddress(bracketed), isReservedAddress(hostname), bracketed);
        }
      }),
      { numRuns: 5000 },
    );
  },
);

Deno.test("isReservedAddress() never throws for a string", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 64 }), (text) => {
      strictEqual(typeof isReservedAddress(text), "boolean");
    }),
  );
});
