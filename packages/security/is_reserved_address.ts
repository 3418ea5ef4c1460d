import { assertString } from "./_strings.ts";

/**
 * Returns true when a URL hostname is one a fetcher must never connect to for a
 * counterparty-controlled URL: a `localhost` name, or an IPv4 or IPv6 literal in a reserved range
 * (private, loopback, link-local and cloud metadata, CGNAT, multicast, documentation, every IPv6
 * outside global unicast, and the tunnels that embed IPv4). It fails closed on malformed or
 * non-canonical literals and runs in linear time. The ranges, and what a caller must still do
 * about names that resolve to such addresses, are in
 * [docs/security.md](../../docs/security.md#reserved-addresses).
 *
 * Spec: security.mdx, Webhook URL validation (SSRF), step 2.
 *
 * @param hostname The hostname to check, as the WHATWG URL parser outputs it (usually
 * `new URL(url).hostname`), or a resolved address with or without brackets.
 * @returns True when the host is reserved and must not be fetched; false for any other name and
 * for public IPv4 and IPv6 addresses.
 * @throws {TypeError} When `hostname` is not a string.
 *
 * @example Refusing reserved webhook hosts
 * ```ts
 * import { isReservedAddress } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const hostOf = (url: string) => new URL(url).hostname;
 * strictEqual(isReservedAddress(hostOf("https://169.254.169.254/latest/meta-data/")), true);
 * strictEqual(isReservedAddress(hostOf("https://0x7f.1/hook")), true); // 127.0.0.1
 * strictEqual(isReservedAddress(hostOf("https://[::ffff:10.0.0.1]/hook")), true);
 * strictEqual(isReservedAddress(hostOf("https://93.184.216.34/hook")), false);
 * strictEqual(isReservedAddress(hostOf("https://buyer.example/hook")), false);
 * ```
 */
export function isReservedAddress(hostname: string): boolean {
  assertString("check the address", "hostname", hostname);
  const length = hostname.length;
  if (hostname.charCodeAt(0) === LEFT_BRACKET) {
    return hostname.charCodeAt(length - 1) !== RIGHT_BRACKET ||
      isReservedIpv6(hostname, 1, length - 1);
  }
  if (hostname.includes(":")) return isReservedIpv6(hostname, 0, length);
  let end = length;
  while (end > 0 && hostname.charCodeAt(end - 1) === DOT) end--;
  if (end === 0) return true;
  if (endsInNumber(hostname, hostname.lastIndexOf(".", end - 1) + 1, end)) {
    const address = parseDottedDecimal(hostname, 0, end);
    return address === -1 || isReservedIpv4(address);
  }
  return isLocalhostName(hostname, end);
}

const DOT = 0x2e;
const COLON = 0x3a;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;
const LOCALHOST = "localhost";

/**
 * The reserved IPv4 ranges: those Security, "Webhook URL validation (SSRF)", step 2 lists, plus
 * the special-purpose, benchmarking and documentation ranges no public host uses.
 */
const RESERVED_IPV4: readonly (readonly [address: number, prefixLength: number])[] = [
  cidr("0.0.0.0", 8), // "this network" (RFC 1122)
  cidr("10.0.0.0", 8), // private (RFC 1918)
  cidr("100.64.0.0", 10), // CGNAT shared address space (RFC 6598)
  cidr("127.0.0.0", 8), // loopback
  cidr("169.254.0.0", 16), // link-local, cloud instance metadata at 169.254.169.254
  cidr("172.16.0.0", 12), // private (RFC 1918)
  cidr("192.0.0.0", 24), // IETF protocol assignments (RFC 6890)
  cidr("192.0.2.0", 24), // TEST-NET-1 (RFC 5737)
  cidr("192.88.99.0", 24), // deprecated 6to4 relay anycast (RFC 7526)
  cidr("192.168.0.0", 16), // private (RFC 1918)
  cidr("198.18.0.0", 15), // benchmarking (RFC 2544)
  cidr("198.51.100.0", 24), // TEST-NET-2 (RFC 5737)
  cidr("203.0.113.0", 24), // TEST-NET-3 (RFC 5737)
  cidr("224.0.0.0", 4), // multicast
  cidr("240.0.0.0", 4), // reserved, with limited broadcast 255.255.255.255
];

function cidr(address: string, prefixLength: number): readonly [number, number] {
  return [parseDottedDecimal(address, 0, address.length), prefixLength];
}

function isReservedIpv4(address: number): boolean {
  for (const [base, prefixLength] of RESERVED_IPV4) {
    if ((address ^ base) >>> (32 - prefixLength) === 0) return true;
  }
  return false;
}

/**
 * The IPv6 rule: reserved unless in global unicast `2000::/3`; inside it, Teredo, benchmarking,
 * ORCHID, documentation and 6to4 ranges are reserved too. Malformed text is reserved.
 */
function isReservedIpv6(text: string, start: number, end: number): boolean {
  const pieces = parseIpv6(text, start, end);
  if (pieces === undefined) return true;
  const first = pieces[0]!;
  const second = pieces[1]!;
  if ((first & 0xe000) !== 0x2000) return true;
  if (first === 0x2002) return true; // 6to4 (RFC 3056)
  if (first === 0x3fff && (second & 0xf000) === 0) return true; // 3fff::/20 documentation
  if (first !== 0x2001) return false;
  return second === 0 || // Teredo 2001::/32
    second === 0x0db8 || // documentation 2001:db8::/32
    (second === 0x0002 && pieces[2] === 0) || // benchmarking 2001:2::/48
    (second & 0xfff0) === 0x0010; // ORCHIDv2 2001:10::/28 (and ORCHID)
}

/**
 * `localhost` or a name ending in `.localhost` (letters ASCII case-insensitive), in
 * `name.slice(0, end)`.
 */
function isLocalhostName(name: string, end: number): boolean {
  const start = end - LOCALHOST.length;
  if (start < 0 || (start > 0 && name.charCodeAt(start - 1) !== DOT)) return false;
  for (let i = 0; i < LOCALHOST.length; i++) {
    // Every letter of "localhost" is lowercase, so only it and its uppercase form match.
    if ((name.charCodeAt(start + i) | 0x20) !== LOCALHOST.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * The WHATWG URL "ends in a number" test on the last label `text.slice(start, end)`: all decimal
 * digits, or `0x` followed by hex digits. The URL parser reads such a host as IPv4.
 */
function endsInNumber(text: string, start: number, end: number): boolean {
  if (start === end) return false;
  let i = start;
  let hex = false;
  if (
    end - start >= 2 && text.charCodeAt(start) === 0x30 &&
    (text.charCodeAt(start + 1) | 0x20) === 0x78
  ) {
    hex = true;
    i += 2;
  }
  for (; i < end; i++) {
    const value = hex ? hexValue(text.charCodeAt(i)) : decimalValue(text.charCodeAt(i));
    if (value === -1) return false;
  }
  return true;
}

/**
 * Parses `text.slice(start, end)` as canonical dotted decimal: four decimal parts of 0 to 255,
 * without leading zeros. Returns the address as an unsigned 32-bit number, or -1.
 */
function parseDottedDecimal(text: string, start: number, end: number): number {
  let address = 0;
  let parts = 0;
  let i = start;
  while (parts < 4) {
    if (parts > 0) {
      if (i >= end || text.charCodeAt(i) !== DOT) return -1;
      i++;
    }
    const partStart = i;
    let part = 0;
    for (; i < end; i++) {
      const digit = decimalValue(text.charCodeAt(i));
      if (digit === -1) break;
      if (i > partStart && part === 0) return -1; // a leading zero
      part = part * 10 + digit;
      if (part > 255) return -1;
    }
    if (i === partStart) return -1;
    address = address * 256 + part;
    parts++;
  }
  return i === end ? address : -1;
}

/**
 * Parses the IPv6 text `text.slice(start, end)` (no brackets) into eight 16-bit pieces, following
 * the WHATWG URL IPv6 parser: one to four hex digits a piece, at most one `::`, and optionally a
 * dotted decimal IPv4 tail in the last 32 bits. Returns undefined when malformed (so also for a
 * zone identifier such as `%eth0`).
 */
function parseIpv6(text: string, start: number, end: number): number[] | undefined {
  const pieces = [0, 0, 0, 0, 0, 0, 0, 0];
  let pieceIndex = 0;
  let compress = -1;
  let i = start;
  if (i < end && text.charCodeAt(i) === COLON) {
    if (i + 1 >= end || text.charCodeAt(i + 1) !== COLON) return undefined;
    i += 2;
    pieceIndex = 1;
    compress = 1;
  }
  while (i < end) {
    if (pieceIndex === 8) return undefined;
    if (text.charCodeAt(i) === COLON) {
      if (compress !== -1) return undefined;
      i++;
      pieceIndex++;
      compress = pieceIndex;
      continue;
    }
    let value = 0;
    let digits = 0;
    for (; digits < 4 && i < end; i++, digits++) {
      const digit = hexValue(text.charCodeAt(i));
      if (digit === -1) break;
      value = value * 16 + digit;
    }
    if (i < end && text.charCodeAt(i) === DOT) {
      if (digits === 0 || pieceIndex > 6) return undefined;
      const address = parseDottedDecimal(text, i - digits, end);
      if (address === -1) return undefined;
      pieces[pieceIndex++] = address >>> 16;
      pieces[pieceIndex++] = address & 0xffff;
      i = end;
      break;
    }
    if (i < end) {
      if (text.charCodeAt(i) !== COLON || digits === 0) return undefined;
      i++;
      if (i >= end) return undefined;
    }
    pieces[pieceIndex++] = value;
  }
  if (compress === -1) return pieceIndex === 8 ? pieces : undefined;
  // `::` stands for the zero pieces that make eight; the pieces written after it end the address.
  return [
    ...pieces.slice(0, compress),
    ...new Array<number>(8 - pieceIndex).fill(0),
    ...pieces.slice(compress, pieceIndex),
  ];
}

function decimalValue(code: number): number {
  return code >= 0x30 && code <= 0x39 ? code - 0x30 : -1;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
