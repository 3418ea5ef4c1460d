// The canonical `@target-uri` and `@authority` of the AdCP RFC 9421 profile:
// url-canonicalization.mdx "Algorithm" (steps 1-8) and security.mdx "AdCP RFC 9421 profile"
// (`@authority` canonicalization).
//
// The URL is read as a raw string, never through `new URL()` (which percent-encodes some
// characters, resolves `%2e` segments and turns `\` into `/`), so that the path and query keep
// their bytes. The WHATWG parser is used for one thing only: UTS-46 ToASCII of a DNS host, whose
// output is then checked against the flags the page adds (see `canonicalDnsHost`).
//
// Readings of the page that are stricter than its letter (the safer reading, each fails closed):
// - The URL must already be an RFC 3986 URI: a raw control character, space, non-ASCII character
//   (outside the host) or a character RFC 3986 does not allow in the component (`"`, `<`, `>`,
//   `\`, `^`, a backtick, `{`, `|`, `}`, `[`, `]`) is rejected, not percent-encoded. A signer
//   sends the encoded URL, the one that goes on the wire; encoding it here for the signer would
//   sign bytes that a fetch implementation may encode differently.
// - A malformed percent sequence (`%zz`, `%4`, `%` at the end) is rejected.
// - A path segment that is `.` or `..` only once its `%2E` is decoded is rejected
//   (`encoded_dot_segment`): step 5 (dot removal) before step 6 (decoding) would keep `/a/%2E%2E/b`
//   as `/a/../b`, which servers resolve to `/b`, and step 6 before step 5 would give `/b`.
//   Rejecting makes the order moot, so the result is the same under either reading.
// - Step 6 applies to the query (the page: "applies to path and query"): hex is uppercased and
//   unreserved characters decoded; nothing else in the query changes (step 7: no reordering, no
//   re-encoding, `+` kept, a trailing `?` kept).
// - Userinfo must be RFC 3986 userinfo (one `@` at most), though it is stripped (step 3).
// - The host must be an RFC 3986 IP literal, a dotted-quad IPv4 address or a DNS name; a `%` in
//   a DNS host (`%41.example`), a `_` or any sub-delim is rejected (UseSTD3ASCIIRules), and so is a
//   name the WHATWG parser would read as an IPv4 number (`0x7f.1`, `127.1`, `1.2.3.4.`).
// - An empty port (`host:`, `[::1]:`) is dropped with its `:`, as RFC 3986 §6.2.3 says ("an
//   explicit ":port", for which the port is empty or the default for the scheme, is equivalent to
//   one where the port and its ":" delimiter are elided"), in a URL and in a Host header alike.
//   Other ports are 1-65535 in their shortest decimal form: `0`, a sign, leading zeros (`:0443`,
//   `:08443`) and values over 65535 are rejected, not normalized. RFC 3986 strips a port equal to
//   the scheme's default, and `0443` as written is not `443`; reading it as a number is an
//   "additional transformation" the page forbids, on which implementations split (a WHATWG
//   parser, so a fetch's Host header, makes `h:0443` into `h`; a byte-wise one keeps `h:0443`),
//   so the signer and the verifier would sign and check different authorities.
// - Labels are at most 63 octets and names at most 253 (UTS-46 VerifyDnsLength): such a host could
//   not be resolved anyway.
import { optionError } from "@adcp-wire/internal";

/**
 * Why a URL or an authority could not be canonicalized. A verifier answers each with
 * `request_target_uri_malformed` (or `webhook_target_uri_malformed`), except a raw U-label it
 * received (`non_ascii_host`, {@link hasRawNonAsciiAuthority}), which vector 026 grades as
 * `request_signature_header_malformed` at step 1.
 */
export type TargetUriProblem =
  | "invalid_url"
  | "not_http"
  | "empty_authority"
  | "missing_host"
  | "userinfo_without_host"
  | "ipv6_unclosed"
  | "ipv6_bare"
  | "ipv6_zone"
  | "empty_label"
  | "multiple_trailing_dots"
  | "idna_invalid"
  | "non_ascii_host"
  | "too_long"
  | "invalid_character"
  | "invalid_percent_encoding"
  | "encoded_dot_segment"
  | "invalid_userinfo"
  | "invalid_host"
  | "invalid_ipv4"
  | "ipv6_invalid"
  | "invalid_port"
  | "host_too_long";

/** A URL or authority that the profile's canonicalization rejects. */
export class TargetUriError extends Error {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: "TargetUriError" = "TargetUriError";
  /** What was wrong. */
  readonly problem: TargetUriProblem;

  /** Makes the error; `detail` says where, without quoting the input. */
  constructor(problem: TargetUriProblem, detail?: string) {
    super(`Cannot canonicalize the URL: ${problem}${detail === undefined ? "" : ` (${detail})`}`);
    this.problem = problem;
  }
}

/** The canonical `@target-uri` and `@authority` of one URL. */
export interface CanonicalTarget {
  /** `scheme://authority/path[?query]`, fragment stripped. */
  readonly targetUri: string;
  /** `host[:port]`: lowercase, A-labels, default port stripped, IPv6 brackets kept. */
  readonly authority: string;
}

/** Longest URL (and header value) accepted, in UTF-16 code units: a bound, not a spec number. */
const MAX_TARGET_URI_LENGTH = 8192;
/** Longest raw host handed to ToASCII; the output is held to 253 octets (VerifyDnsLength). */
const MAX_RAW_HOST_LENGTH = 1024;
const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

// Character classes of RFC 3986 §2 and §3, indexed by ASCII code.
const UNRESERVED = 1; // ALPHA / DIGIT / "-" / "." / "_" / "~" (§2.3)
const SUB_DELIM = 2; // "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" (§2.2)
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9\-._~]/.test(ch)) CLASS[c] = UNRESERVED;
  else if ("!$&'()*+,;=".includes(ch)) CLASS[c] = SUB_DELIM;
}

const HEX = "0123456789ABCDEF";

/** The value of an ASCII hex digit, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** `U+XXXX at index N`: where a character was refused, without echoing the input. */
function at(text: string, index: number): string {
  const code = text.codePointAt(index) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")} at index ${index}`;
}

/** Step 0 (bound and hygiene): the length limit and no C0 control, space or DEL anywhere. */
function checkRaw(text: string): void {
  if (text.length > MAX_TARGET_URI_LENGTH) {
    throw new TargetUriError(
      "too_long",
      `${text.length} characters, limit ${MAX_TARGET_URI_LENGTH}`,
    );
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) throw new TargetUriError("invalid_character", at(text, i));
  }
}

/**
 * Step 6 on one path segment, the query or the fragment (`text` from `start` to `end` of `url`):
 * `%xx` hex uppercased, unreserved octets decoded (RFC 3986 §2.3, §6.2.2.1-2), every other
 * character checked against the component's grammar (`pchar`, plus `/` and `?` when `query`).
 */
function normalizePercent(url: string, start: number, end: number, query: boolean): string {
  let out = "";
  let runStart = start;
  for (let i = start; i < end; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x25) {
      const hi = i + 2 < end ? hexValue(url.charCodeAt(i + 1)) : -1;
      const lo = hi >= 0 ? hexValue(url.charCodeAt(i + 2)) : -1;
      if (lo < 0) throw new TargetUriError("invalid_percent_encoding", `at index ${i}`);
      const octet = hi * 16 + lo;
      out += url.slice(runStart, i);
      out += octet < 128 && CLASS[octet] === UNRESERVED
        ? String.fromCharCode(octet)
        : `%${HEX[hi]}${HEX[lo]}`;
      i += 2;
      runStart = i + 1;
      continue;
    }
    const ok = c < 128 &&
      (CLASS[c] !== 0 || c === 0x3a || c === 0x40 || (query && (c === 0x2f || c === 0x3f)));
    if (!ok) throw new TargetUriError("invalid_character", at(url, i));
  }
  return out + url.slice(runStart, end);
}

/**
 * Steps 5 and 6 on the path (`url` from `start` to `end`, empty or starting with `/`):
 * remove_dot_segments (RFC 3986 §5.2.4) over a segment stack, so consecutive slashes stay (`//`
 * is a segment then an empty segment) and `%2F` is not a separator; an empty path becomes `/`
 * (RFC 3986 §6.2.3). Linear in the path length.
 */
function canonicalPath(url: string, start: number, end: number): string {
  if (start === end) return "/";
  const out: string[] = [];
  let segStart = start + 1;
  while (true) {
    let segEnd = url.indexOf("/", segStart);
    if (segEnd < 0 || segEnd > end) segEnd = end;
    const last = segEnd === end;
    const segment = normalizePercent(url, segStart, segEnd, false);
    if (segment === "." || segment === "..") {
      // Shorter than its source: a `%2E` was decoded into it.
      if (segment.length !== segEnd - segStart) {
        throw new TargetUriError("encoded_dot_segment", `at index ${segStart}`);
      }
      if (segment === "..") out.pop();
      // A dot segment at the end leaves the path ending in "/" (RFC 3986 §5.2.4 steps B, C).
      if (last) out.push("");
    } else {
      out.push(segment);
    }
    if (last) break;
    segStart = segEnd + 1;
  }
  return `/${out.join("/")}`;
}

/** RFC 3986 `IPv4address`: four dec-octets, no leading zeros. */
const DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const IPV4 = new RegExp(`^(?:${DEC_OCTET}\\.){3}${DEC_OCTET}$`);
const H16 = /^[0-9A-Fa-f]{1,4}$/;

/** RFC 3986 `IPv6address` (§3.2.2): eight h16, at most one `::`, an IPv4 tail only at the end. */
function isIPv6(text: string): boolean {
  if (text.length < 2 || text.length > 45) return false;
  const gap = text.indexOf("::");
  if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) return false;
  const split = (part: string) => part === "" ? [] : part.split(":");
  const head = gap >= 0 ? split(text.slice(0, gap)) : text.split(":");
  const tail = gap >= 0 ? split(text.slice(gap + 2)) : [];
  const pieces = head.concat(tail);
  const ipv4Allowed = gap < 0 || tail.length > 0;
  let groups = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i === pieces.length - 1 && ipv4Allowed && piece.includes(".")) {
      if (!IPV4.test(piece)) return false;
      groups += 2;
    } else if (H16.test(piece)) {
      groups += 1;
    } else {
      return false;
    }
  }
  return gap >= 0 ? groups <= 7 : groups === 8;
}

/** The WHATWG "ends in a number" test: a host the URL parser would read as an IPv4 address. */
function endsInNumber(host: string): boolean {
  const parts = host.split(".");
  if (parts[parts.length - 1] === "") {
    if (parts.length === 1) return false;
    parts.pop();
  }
  const last = parts[parts.length - 1]!;
  return /^[0-9]+$/.test(last) || /^0[xX][0-9A-Fa-f]*$/.test(last);
}

// RFC 3492 §5 parameters.
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const MAX_INT = 0x7fffffff;

/** RFC 3492 §6.1 bias adaptation. */
function adapt(delta: number, points: number, first: boolean): number {
  delta = first ? Math.floor(delta / DAMP) : Math.floor(delta / 2);
  delta += Math.floor(delta / points);
  let k = 0;
  while (delta > ((BASE - T_MIN) * T_MAX) >> 1) {
    delta = Math.floor(delta / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * delta) / (delta + SKEW));
}

/** RFC 3492 §6.2 decoding of the part after `xn--`: code points, or undefined when invalid. */
function punycodeDecode(input: string): number[] | undefined {
  const output: number[] = [];
  const delimiter = input.lastIndexOf("-");
  for (let j = 0; j < Math.max(delimiter, 0); j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return undefined;
    output.push(c);
  }
  let n = 0x80;
  let i = 0;
  let bias = 72;
  for (let pos = delimiter > 0 ? delimiter + 1 : 0; pos < input.length;) {
    const oldI = i;
    let w = 1;
    for (let k = BASE;; k += BASE) {
      if (pos >= input.length) return undefined;
      const c = input.charCodeAt(pos++);
      const digit = c >= 0x61 && c <= 0x7a
        ? c - 0x61
        : c >= 0x41 && c <= 0x5a
        ? c - 0x41
        : c >= 0x30 && c <= 0x39
        ? c - 22
        : -1;
      if (digit < 0 || digit > Math.floor((MAX_INT - i) / w)) return undefined;
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      if (w > Math.floor(MAX_INT / (BASE - t))) return undefined;
      w *= BASE - t;
    }
    const length = output.length + 1;
    bias = adapt(i - oldI, length, oldI === 0);
    if (Math.floor(i / length) > MAX_INT - n) return undefined;
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return undefined;
    output.splice(i, 0, n);
    i++;
  }
  return output;
}

/** An ASCII letter, digit, `-` or `.`. */
function isLdhOrDot(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) ||
    c === 0x2d || c === 0x2e;
}

/** UTS-46 CheckHyphens (§4.1 criteria 2-3) on a label's code points. */
function hyphensOk(points: readonly number[]): boolean {
  if (points.length === 0) return false;
  if (points[0] === 0x2d || points[points.length - 1] === 0x2d) return false;
  return !(points[2] === 0x2d && points[3] === 0x2d);
}

/**
 * Step 2 for a DNS name or IPv4 address: lowercase, UTS-46 ToASCII, one root dot removed.
 *
 * ToASCII is the WHATWG URL parser's (UTS-46 Nontransitional, CheckBidi, CheckJoiners, no
 * CheckHyphens, no UseSTD3ASCIIRules); the input goes in with its own case, since lowercasing
 * before ToASCII is the pitfall the page names. Its output is then held to the two flags it
 * leaves off: UseSTD3ASCIIRules (every output label is LDH; for `xn--` labels also no U+2260,
 * U+226E, U+226F, which the pre-15.1 tables disallow under that flag) and CheckHyphens (on the
 * label, or on the decoded U-label of an `xn--` label). CheckBidi (and CheckJoiners, which the
 * page does not ask for and which only refuses more) and the Unicode table version are the
 * runtime's: the URL Standard sets CheckBidi=true and the tests hold Deno's parser to it; no
 * Bidi rule is re-implemented here. A runtime with other tables may refuse or accept a rare
 * character differently; as a verifier only ever sees A-labels (raw U-labels are refused), that
 * shows as a refusal, never as two canonical forms of one name.
 */
function canonicalDnsHost(raw: string, allowNonAscii: boolean): string {
  let nonAscii = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 0x80) nonAscii = true;
    else if (!isLdhOrDot(c)) {
      // UseSTD3ASCIIRules: only letters, digits, hyphen and dot (no `_`, `~`, `%`, sub-delims).
      throw new TargetUriError("invalid_host", at(raw, i));
    }
  }
  if (nonAscii && !allowNonAscii) throw new TargetUriError("non_ascii_host");
  if (raw.length > MAX_RAW_HOST_LENGTH) {
    throw new TargetUriError("host_too_long", `${raw.length} characters`);
  }
  // IPv4 is taken only in the RFC 3986 dotted-quad form; the root-dot rule is not for IPs.
  if (!nonAscii && endsInNumber(raw)) {
    if (IPV4.test(raw)) return raw;
    throw new TargetUriError("invalid_ipv4");
  }
  let parsed: URL;
  try {
    parsed = new URL(`https://${raw}/`);
  } catch {
    throw new TargetUriError("idna_invalid", "UTS-46 ToASCII failed");
  }
  let host = parsed.hostname;
  if (parsed.port !== "" || parsed.pathname !== "/" || parsed.username !== "" || host === "") {
    throw new TargetUriError("idna_invalid", "the host did not parse as one host");
  }
  // A mapped character (fullwidth digits) turned the name into an IPv4 address.
  if (endsInNumber(host)) throw new TargetUriError("invalid_ipv4");
  // Only U+002E and its three UTS-46 equivalents may separate labels; no other mapping may.
  if (nonAscii && raw.split(/[.\u3002\uFF0E\uFF61]/).length !== host.split(".").length) {
    throw new TargetUriError("idna_invalid", "a character mapped to a label separator");
  }
  // Exactly one trailing root-label dot is removed after ToASCII, on every path (ASCII or not);
  // a second one is an empty label (security.mdx "`@authority` canonicalization").
  if (host.endsWith(".")) {
    host = host.slice(0, -1);
    if (host.endsWith(".")) throw new TargetUriError("multiple_trailing_dots");
  }
  if (host.length > MAX_NAME_LENGTH) {
    throw new TargetUriError("host_too_long", `${host.length} octets, limit ${MAX_NAME_LENGTH}`);
  }
  for (const label of host.split(".")) {
    if (label === "") throw new TargetUriError("empty_label");
    if (label.length > MAX_LABEL_LENGTH) {
      throw new TargetUriError("host_too_long", `a label of ${label.length} octets`);
    }
    if (!/^[a-z0-9-]+$/.test(label)) {
      throw new TargetUriError("idna_invalid", "UseSTD3ASCIIRules: a label is not LDH");
    }
    if (label.startsWith("xn--")) {
      const points = punycodeDecode(label.slice(4));
      if (points === undefined || points.every((p) => p < 0x80)) {
        throw new TargetUriError("idna_invalid", "an xn-- label is not a valid A-label");
      }
      if (!hyphensOk(points)) throw new TargetUriError("idna_invalid", "CheckHyphens");
      if (points.some((p) => p === 0x2260 || p === 0x226e || p === 0x226f)) {
        throw new TargetUriError("idna_invalid", "UseSTD3ASCIIRules");
      }
    } else if (!hyphensOk(Array.from(label, (ch) => ch.charCodeAt(0)))) {
      throw new TargetUriError("idna_invalid", "CheckHyphens");
    }
  }
  return host;
}

/** The parts of an authority after steps 2-4. */
interface HostPort {
  readonly host: string;
  readonly authority: string;
}

/**
 * Steps 2 and 4 on `host[:port]` (no userinfo): IP literal (`[` … `]`, hex lowercased, no zone
 * id, no IPvFuture) or DNS name / IPv4, then the port, the default one (`443` for https, `80` for
 * http) and an empty one stripped with the `:` (RFC 3986 §6.2.3).
 */
function canonicalHostPort(
  hostPort: string,
  scheme: "https" | "http",
  allowNonAscii: boolean,
): HostPort {
  let host: string;
  let port: string | undefined;
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    if (close < 0) throw new TargetUriError("ipv6_unclosed");
    const literal = hostPort.slice(1, close);
    // RFC 6874 zone ids are node-local: any `%` (so `%25`) inside the brackets is rejected.
    if (literal.includes("%")) throw new TargetUriError("ipv6_zone");
    if (!isIPv6(literal)) throw new TargetUriError("ipv6_invalid");
    host = `[${literal.toLowerCase()}]`;
    const after = hostPort.slice(close + 1);
    if (after !== "") {
      if (!after.startsWith(":")) throw new TargetUriError("invalid_host", "text after ']'");
      port = after.slice(1);
    }
  } else {
    const colon = hostPort.indexOf(":");
    if (colon >= 0 && hostPort.indexOf(":", colon + 1) >= 0) {
      // An unbracketed IPv6 address is ambiguous with a port (step 3).
      throw isIPv6(hostPort) ? new TargetUriError("ipv6_bare") : new TargetUriError(
        "invalid_port",
        "more than one ':'",
      );
    }
    const raw = colon >= 0 ? hostPort.slice(0, colon) : hostPort;
    if (colon >= 0) port = hostPort.slice(colon + 1);
    if (raw === "") throw new TargetUriError("missing_host");
    host = canonicalDnsHost(raw, allowNonAscii);
  }
  // RFC 3986 §6.2.3: an empty port is elided with its ":" (`host:` is `host`).
  if (port === "") port = undefined;
  if (port !== undefined && !(/^[1-9][0-9]{0,4}$/.test(port) && Number(port) <= 65535)) {
    throw new TargetUriError("invalid_port", "not a decimal in 1-65535 without leading zeros");
  }
  const defaultPort = scheme === "https" ? "443" : "80";
  const authority = port === undefined || port === defaultPort ? host : `${host}:${port}`;
  return { host, authority };
}

/**
 * Canonical @target-uri and @authority of an absolute http(s) URL string (signer side, and the
 * URL the verifier reconstructs). U-labels are converted to A-labels (UTS-46 nontransitional).
 * A verifier first refuses a raw U-label it received ({@link hasRawNonAsciiAuthority}, vector
 * 026). Throws TargetUriError.
 */
export function canonicalTarget(url: string): CanonicalTarget {
  if (typeof url !== "string") {
    throw optionError(TypeError, "canonicalize the URL", "url", "a string", url);
  }
  checkRaw(url);
  // Step 1: lowercase the scheme; only http and https are request targets.
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  if (schemeMatch === null) throw new TargetUriError("invalid_url", "no scheme");
  const scheme = schemeMatch[1]!.toLowerCase();
  if (scheme !== "https" && scheme !== "http") throw new TargetUriError("not_http");
  let pos = schemeMatch[0].length;
  if (!url.startsWith("//", pos)) throw new TargetUriError("invalid_url", "no '//' authority");
  pos += 2;
  // Step 8: the fragment is stripped (checked, never kept).
  let end = url.indexOf("#", pos);
  if (end < 0) end = url.length;
  else normalizePercent(url, end + 1, url.length, true);
  let authorityEnd = pos;
  while (authorityEnd < end) {
    const c = url.charCodeAt(authorityEnd);
    if (c === 0x2f || c === 0x3f) break;
    authorityEnd++;
  }
  const authorityText = url.slice(pos, authorityEnd);
  if (authorityText === "") throw new TargetUriError("empty_authority");
  // Step 3: strip userinfo; an authority that is userinfo alone is malformed.
  let hostPort = authorityText;
  const atSign = authorityText.indexOf("@");
  if (atSign >= 0) {
    if (authorityText.indexOf("@", atSign + 1) >= 0) {
      throw new TargetUriError("invalid_userinfo", "more than one '@'");
    }
    for (let i = 0; i < atSign; i++) {
      const c = authorityText.charCodeAt(i);
      if (c === 0x25) {
        if (
          i + 2 >= atSign || hexValue(authorityText.charCodeAt(i + 1)) < 0 ||
          hexValue(authorityText.charCodeAt(i + 2)) < 0
        ) {
          throw new TargetUriError("invalid_userinfo", "malformed percent-encoding");
        }
      } else if (!(c < 128 && (CLASS[c] !== 0 || c === 0x3a))) {
        throw new TargetUriError("invalid_userinfo", at(authorityText, i));
      }
    }
    hostPort = authorityText.slice(atSign + 1);
    if (hostPort === "") throw new TargetUriError("userinfo_without_host");
  }
  // Steps 2 and 4.
  const { authority } = canonicalHostPort(hostPort, scheme, true);
  // Steps 5-7: path, then the query (step 6 only; its bytes otherwise kept, `?` alone kept).
  const queryMark = url.indexOf("?", authorityEnd);
  const pathEnd = queryMark >= 0 && queryMark < end ? queryMark : end;
  const path = canonicalPath(url, authorityEnd, pathEnd);
  const query = pathEnd < end ? `?${normalizePercent(url, pathEnd + 1, end, true)}` : "";
  return { targetUri: `${scheme}://${authority}${path}${query}`, authority };
}

/**
 * Canonical authority of a received `Host` / `:authority` header value for the given scheme
 * ("https" | "http"): lowercase, default port stripped, one trailing root dot removed, IPv6
 * brackets kept. Throws TargetUriError (a raw non-ASCII byte => "non_ascii_host"). For the same
 * ASCII `host[:port]` it returns what {@link canonicalTarget} returns as `authority`.
 */
export function canonicalAuthority(value: string, scheme: "https" | "http"): string {
  if (typeof value !== "string") {
    throw optionError(TypeError, "canonicalize the authority", "value", "a string", value);
  }
  if (scheme !== "https" && scheme !== "http") {
    throw optionError(
      TypeError,
      "canonicalize the authority",
      "scheme",
      '"https" or "http"',
      scheme,
    );
  }
  // A receiver never re-normalizes raw non-ASCII (url-canonicalization.mdx step 2); header bytes
  // read as Latin-1 arrive here as U+0080-U+00FF, so any code unit above U+007F is refused.
  for (let i = 0; i < value.length; i++) {
    if (value.charCodeAt(i) >= 0x80) throw new TargetUriError("non_ascii_host", `at index ${i}`);
  }
  checkRaw(value);
  if (value === "") throw new TargetUriError("empty_authority");
  // RFC 9110 §7.2: Host is `uri-host [ ":" port ]`, so no userinfo.
  if (value.includes("@")) {
    throw new TargetUriError("invalid_host", "userinfo in an authority header");
  }
  return canonicalHostPort(value, scheme, false).authority;
}

/**
 * Whether the authority part of an absolute URL string holds a raw non-ASCII character (a raw
 * IDN U-label on the wire, which a verifier rejects, vector 026). The authority runs from `//`
 * (after an optional scheme) to the first `/`, `?` or `#`; a string without `//` has none.
 */
export function hasRawNonAsciiAuthority(url: string): boolean {
  if (typeof url !== "string") {
    throw optionError(TypeError, "inspect the URL", "url", "a string", url);
  }
  const prefix = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\//.exec(url);
  if (prefix === null) return false;
  for (let i = prefix[0].length; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) return false;
    if (c >= 0x80) return true;
  }
  return false;
}
