import { assertByteCount, describe } from "./_strings.ts";

/**
 * What a seller-provided URL is for; each purpose maps to a spec rule.
 *
 * @example Only `challenge_url` strips redirects
 * ```ts
 * import { type SellerUrlPurpose, validateSellerUrl } from "@adcp-wire/security";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const url = "https://auth.seller.example/login?next=https://evil.example&lang=en";
 * const check = (purpose: SellerUrlPurpose) =>
 *   validateSellerUrl(url, { purpose, allowedHosts: ["auth.seller.example"] });
 * deepStrictEqual(check("challenge_url"), {
 *   valid: true,
 *   url: "https://auth.seller.example/login?lang=en",
 * });
 * deepStrictEqual(check("setup_url"), { valid: true, url });
 * ```
 */
export type SellerUrlPurpose =
  /** `details.setup_url` of `ACCOUNT_SETUP_REQUIRED` (Transport Error Mapping, URL validation). */
  | "setup_url"
  /** `details.policy_url` of `CREATIVE_REJECTED` / `POLICY_VIOLATION` (same section). */
  | "policy_url"
  /** A2A FilePart `url` (1.0) or `uri` (v0.3) (A2A Response Extraction, FilePart URI validation). */
  | "file_url"
  /** `challenge_url` of an `auth-required` challenge (A2A Response Extraction, Auth challenge URL validation). */
  | "challenge_url";

/**
 * Options for {@linkcode validateSellerUrl}.
 *
 * @example A wildcard allow-list and a length cap
 * ```ts
 * import { validateSellerUrl, type ValidateSellerUrlOptions } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const options: ValidateSellerUrlOptions = {
 *   purpose: "file_url",
 *   allowedHosts: ["cdn.seller.example", "*.assets.seller.example"],
 *   maxLength: 256,
 * };
 * strictEqual(validateSellerUrl("https://eu.assets.seller.example/a.png", options).valid, true);
 * const apex = validateSellerUrl("https://assets.seller.example/a.png", options); // not covered
 * deepStrictEqual(apex, { valid: false, reason: "host_not_allowed" });
 * const long = validateSellerUrl(`https://cdn.seller.example/${"a".repeat(300)}`, options);
 * deepStrictEqual(long, { valid: false, reason: "too_long" });
 * ```
 */
export interface ValidateSellerUrlOptions {
  /** What the URL is for. Required. `challenge_url` also strips redirect parameters. */
  readonly purpose: SellerUrlPurpose;
  /**
   * The seller's known hosts, from configuration, never from the payload being checked: for
   * example the hosts of the Agent Card's `supportedInterfaces[].url` and declared `authOrigin`
   * ("a per-agent allow-list seeded from the Agent Card … rather than derived from the task
   * payload", A2A Response Extraction, Auth challenge URL validation). Required, non-empty.
   *
   * Each entry is `host` or `host:port`, or `*.domain` / `*.domain:port` for any strict
   * subdomain (see {@linkcode validateSellerUrl}); IPv6 in brackets (`[2001:db8::1]`,
   * `[2001:db8::1]:8443`). An entry without a port allows any port ("the protocol does not
   * constrain ports", Security, Webhook URL validation, "Destination port: permissive by
   * default"); an entry with a port allows only that port, `:443` included. Entries are
   * normalized by the same URL parser as the checked URL (lowercase, punycode, IPv4 forms).
   */
  readonly allowedHosts: readonly string[];
  /**
   * A port allow-list applied to every URL on top of `allowedHosts`: the URL's port (443 when it
   * has none) must be listed here and allowed by the matching entry. For the spec's opt-in
   * hardened profile pass {@linkcode HARDENED_ALLOWED_PORTS} (443 and 8443). Each an integer
   * from 1 to 65535; non-empty. Absent, ports are not restricted beyond the entries' own:
   * "SDKs that ship a DEFAULT_ALLOWED_PORTS constant MUST default it to 'no restriction' and
   * surface {443, 8443} as an opt-in profile, never as a default" (Security, Webhook URL
   * validation, "Destination port: permissive by default").
   * @default {undefined} (no port restriction)
   */
  readonly allowedPorts?: readonly number[];
  /**
   * Longest accepted URL, in UTF-16 code units.
   * @default {2048}
   */
  readonly maxLength?: number;
}

/**
 * Why {@linkcode validateSellerUrl} rejected a URL; stable values for logs and tests.
 *
 * @example One reason per failed check
 * ```ts
 * import { type SellerUrlRejection, validateSellerUrl } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const options = { purpose: "policy_url", allowedHosts: ["seller.example"] } as const;
 * const reasonOf = (url: string): SellerUrlRejection | undefined => {
 *   const result = validateSellerUrl(url, options);
 *   return result.valid ? undefined : result.reason;
 * };
 * strictEqual(reasonOf("/policy"), "invalid_url");
 * strictEqual(reasonOf("http://seller.example/policy"), "not_https");
 * strictEqual(reasonOf("https://user@seller.example/policy"), "userinfo");
 * strictEqual(reasonOf("https://seller.example./policy"), "host_not_allowed");
 * ```
 */
export type SellerUrlRejection =
  /** Not a string, contains ASCII controls or spaces, or not an absolute URL. */
  | "invalid_url"
  /** Longer than `maxLength`. */
  | "too_long"
  /** A scheme other than `https:` (`http:`, `javascript:`, `data:`, `file:`, …). */
  | "not_https"
  /** A userinfo component, even an empty one (`https://@host/`). */
  | "userinfo"
  /** `allowedPorts` is set and does not list the URL's port (443 when it has none). */
  | "port_not_allowed"
  /** The host (with port) is not on the allow-list, or ends with a dot. */
  | "host_not_allowed";

/**
 * Result of {@linkcode validateSellerUrl}.
 *
 * @example Using the normalized URL, not the input
 * ```ts
 * import { type SellerUrlValidation, validateSellerUrl } from "@adcp-wire/security";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const result: SellerUrlValidation = validateSellerUrl(
 *   "https://SELLER.EXAMPLE:443/a/../policy#top",
 *   { purpose: "policy_url", allowedHosts: ["seller.example"] },
 * );
 * ok(result.valid);
 * strictEqual(result.url, "https://seller.example/policy#top");
 * ```
 */
export type SellerUrlValidation =
  | {
    /** The URL passed every check. */
    readonly valid: true;
    /** The URL to use: the parser's normalized `href`, with redirect parameters removed for `challenge_url`. */
    readonly url: string;
  }
  | {
    /** The URL failed a check and must not be opened, fetched or shown as a link. */
    readonly valid: false;
    /** The first check it failed. */
    readonly reason: SellerUrlRejection;
  };

/**
 * The default `maxLength` of {@linkcode validateSellerUrl}: 2048 code units.
 *
 * @example The default length cap
 * ```ts
 * import { DEFAULT_SELLER_URL_MAX_LENGTH, validateSellerUrl } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_SELLER_URL_MAX_LENGTH, 2048);
 * const url = `https://seller.example/${"a".repeat(DEFAULT_SELLER_URL_MAX_LENGTH)}`;
 * const options = { purpose: "setup_url", allowedHosts: ["seller.example"] } as const;
 * deepStrictEqual(validateSellerUrl(url, options), { valid: false, reason: "too_long" });
 * ```
 */
export const DEFAULT_SELLER_URL_MAX_LENGTH = 2048;

/**
 * The hardened port profile for {@linkcode ValidateSellerUrlOptions.allowedPorts}: 443 and 8443.
 * Opt-in, never a default: "SDKs that ship a DEFAULT_ALLOWED_PORTS constant MUST default it to
 * 'no restriction' and surface {443, 8443} as an opt-in profile, never as a default" (Security,
 * Webhook URL validation, "Destination port: permissive by default"). This package ships no
 * `DEFAULT_ALLOWED_PORTS`: leaving `allowedPorts` out is the unrestricted default. A seller that
 * turns the profile on "MUST document the allowed-port set" for its buyers (same section).
 *
 * @example Opting in to the hardened profile
 * ```ts
 * import { HARDENED_ALLOWED_PORTS, validateSellerUrl } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const open = { purpose: "file_url", allowedHosts: ["cdn.seller.example"] } as const;
 * const hardened = { ...open, allowedPorts: HARDENED_ALLOWED_PORTS };
 * const tomcat = "https://cdn.seller.example:9443/a.png";
 * strictEqual(validateSellerUrl(tomcat, open).valid, true); // the default: ports unrestricted
 * deepStrictEqual(validateSellerUrl(tomcat, hardened), {
 *   valid: false,
 *   reason: "port_not_allowed",
 * });
 * strictEqual(validateSellerUrl("https://cdn.seller.example:8443/a.png", hardened).valid, true);
 * strictEqual(validateSellerUrl("https://cdn.seller.example/a.png", hardened).valid, true);
 * ```
 */
export const HARDENED_ALLOWED_PORTS: readonly number[] = Object.freeze([443, 8443]);

/**
 * Query parameter names removed from a `challenge_url`, compared after form-decoding, lowercasing
 * and removing everything but letters and digits, so `redirect_uri`, `Redirect-URI`,
 * `redirectUri` and `redirect%5Furi` are all caught. The list holds the names the spec gives
 * (`redirect_uri`, `return_url`), `redirect_url`, `return_to`, `next`, `continue` and
 * `callback_url`, and other common names for the same thing, since the spec covers "`redirect_uri`,
 * `return_url`, or similar query parameters" (A2A Response Extraction, Auth challenge URL
 * validation).
 *
 * @example Listing the normalized names
 * ```ts
 * import { CHALLENGE_REDIRECT_PARAMETERS } from "@adcp-wire/security";
 * import { ok } from "node:assert/strict";
 *
 * ok(CHALLENGE_REDIRECT_PARAMETERS.includes("redirecturi"));
 * ```
 */
export const CHALLENGE_REDIRECT_PARAMETERS: readonly string[] = Object.freeze([
  "redirecturi",
  "redirecturl",
  "redirect",
  "redirectto",
  "returnurl",
  "returnuri",
  "returnto",
  "return",
  "next",
  "nexturl",
  "continue",
  "continueurl",
  "callback",
  "callbackurl",
  "callbackuri",
  "goto",
  "dest",
  "destination",
  "redir",
  "successurl",
  "failureurl",
  "cancelurl",
  "errorurl",
  "postlogoutredirecturi",
]);

const REDIRECT_NAMES: ReadonlySet<string> = new Set(CHALLENGE_REDIRECT_PARAMETERS);
/**
 * Parts of normalized parameter names that mark a redirect under any other name (`oauth_callback`,
 * WS-Federation `wreply`, `post_login_redirect_uri`, `success_redirect_url`, SAML `RelayState`,
 * OIDC `target_link_uri`).
 */
const REDIRECT_NAME_MARKERS: readonly string[] = [
  "redir",
  "callback",
  "return",
  "reply",
  "continue",
  "goto",
  "relaystate",
  "target",
  "forward",
];
/**
 * A parameter value that is an absolute http(s) URL or a scheme-relative one (`//host`, `\\host`),
 * after form-decoding and leading spaces or controls: whatever the parameter's name, the server may
 * send the user there.
 */
// deno-lint-ignore no-control-regex -- leading controls are skipped on purpose
const URL_LIKE_VALUE = /^[\u0000-\u0020]*(?:https?:|[/\\]{2})/i;
const PURPOSES: ReadonlySet<string> = new Set([
  "setup_url",
  "policy_url",
  "file_url",
  "challenge_url",
]);
// ASCII controls and space: the URL parser silently removes or trims these, so the string a
// user sees and the URL that is used could differ.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007F]/;
const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;
// Characters that cannot appear in an allow-list entry (it is a host, not a URL).
// deno-lint-ignore no-control-regex -- matching control characters is the point
const ENTRY_FORBIDDEN = /[\u0000-\u0020\u007F/\\?#@*]/;

interface AllowedHost {
  readonly wildcard: boolean;
  readonly hostname: string;
  /** The one port the entry allows, or `undefined` when it names none (any port). */
  readonly port: number | undefined;
}
// The explicit port at the end of an allow-list entry (after the `]` of an IPv6 literal).
const ENTRY_PORT = /:(\d*)$/;

/**
 * Validates a seller-provided URL before it is opened, fetched, or rendered as a link, and
 * returns the exact URL to use.
 *
 * Implements, for every purpose, Transport Error Mapping, Security Considerations, URL
 * validation ("uses the `https` scheme, contains no userinfo component …, and the domain
 * matches the seller's known domain"; "All seller-provided URLs MUST be rejected if they use
 * non-`https` schemes (`http`, `javascript`, `data`, `file`)") and A2A Response Extraction,
 * Security Considerations, FilePart URI validation and Auth challenge URL validation.
 *
 * Checks, in order (the first failure is the `reason`):
 * 1. `invalid_url` when the value is not a string; then `too_long` when it is longer than
 *    `maxLength` code units (checked before parsing).
 * 2. `invalid_url`: no ASCII controls or spaces (the parser would silently drop or trim them, so
 *    the string shown and the URL used could differ), and `new URL(url)` parses it as an
 *    absolute URL (WHATWG URL Standard; no base, so relative URLs fail).
 * 3. `not_https`: the scheme is `https:`.
 * 4. `userinfo`: no username or password, and no `@` in the raw authority either: the parser
 *    normalizes an empty userinfo (`https://@host/`, `https://:@host/`) away, but its presence
 *    means someone tried, so it fails closed.
 * 5. `port_not_allowed`, only when `allowedPorts` is set: the URL's port (443 when it has none)
 *    is in `allowedPorts`. An opt-in hardened profile ({@linkcode HARDENED_ALLOWED_PORTS}); by
 *    default no port is refused for itself, as "the protocol does not constrain ports"
 *    (Security, Webhook URL validation, "Destination port: permissive by default").
 * 6. `host_not_allowed`: the parsed host must match an allow-list entry, and the entry's port, if
 *    it names one, must be the URL's port (443 when it has none). An entry without a port allows
 *    any port. With `allowedPorts` too, both must allow the port: an entry `host:9443` never
 *    matches under the hardened profile (the safer reading of an entry that contradicts it).
 *    - Exact: the hostname equals the entry's normalized hostname.
 *    - Wildcard `*.domain`: the hostname is a strict subdomain of `domain`, at any depth:
 *      `a.domain` and `a.b.domain` match, `domain` itself never does (nor `xdomain`, which only
 *      ends with the same letters). List the apex separately when it is allowed too.
 *    - IP literals (IPv4 in any form the parser accepts, and `[IPv6]`) match only an exact entry
 *      for the same address, never a wildcard.
 *    - A hostname ending in a dot (`example.com.`) is rejected: it names the same DNS host but
 *      can be treated as a different site by cookies, TLS and allow-lists downstream. So is a
 *      hostname with an empty label (`a..seller.example`, `.a.seller.example`).
 *
 * For `challenge_url`, the returned URL also has its fragment removed (an OAuth authorization
 * endpoint URL "MUST NOT include a fragment component", RFC 6749 §3.1) and every query parameter
 * that is or may be a redirect ("Any `redirect_uri`, `return_url`, or similar query parameters
 * MUST be dropped or overwritten by the client before navigation. Never forward a
 * seller-supplied redirect."), the safer reading of "similar": a parameter whose name, after
 * form-decoding, lowercasing and keeping only letters and digits, is in
 * {@linkcode CHALLENGE_REDIRECT_PARAMETERS} or contains `redir`, `callback`, `return`, `reply`,
 * `continue`, `goto`, `relaystate`, `target` or `forward`; or whose value is an absolute http(s)
 * URL or starts with `//` or `\\`, whatever its name. Since some servers also split a query on
 * `;`, an `&`-separated segment is dropped whole when any of its `;` parts is such a parameter.
 * Other parameters keep their original encoding and order; empty `&&` segments are dropped.
 *
 * Also `too_long` when the normalized URL to return is longer than `maxLength` (the parser
 * percent-encodes non-ASCII characters, so it can be several times longer than the input).
 *
 * @param url The untrusted URL.
 * @param options Purpose, allow-list (from configuration, never from the payload), and the
 * optional port allow-list and length cap.
 * @returns `{ valid: true, url }` with the parser's `href` (use it, not the input), or
 * `{ valid: false, reason }`.
 * @throws {TypeError} When `options` is malformed: `purpose` not one of the four values,
 * `allowedHosts` not a non-empty array, an entry that is not a valid host pattern, or
 * `allowedPorts` not a non-empty array of numbers.
 * @throws {RangeError} When `options.maxLength` is not a non-negative safe integer, or a port in
 * `options.allowedPorts` is not an integer from 1 to 65535.
 *
 * @example Accepting a setup URL and rejecting look-alikes
 * ```ts
 * import { validateSellerUrl } from "@adcp-wire/security";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const options = { purpose: "setup_url", allowedHosts: ["seller.example"] } as const;
 * deepStrictEqual(validateSellerUrl("https://SELLER.example/setup?a=1", options), {
 *   valid: true,
 *   url: "https://seller.example/setup?a=1",
 * });
 * deepStrictEqual(validateSellerUrl("https://seller.example@evil.example/", options), {
 *   valid: false,
 *   reason: "userinfo",
 * });
 * deepStrictEqual(validateSellerUrl("javascript:alert(1)", options), {
 *   valid: false,
 *   reason: "not_https",
 * });
 * ```
 *
 * @example Stripping a seller-supplied redirect from an auth challenge
 * ```ts
 * import { validateSellerUrl } from "@adcp-wire/security";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const result = validateSellerUrl(
 *   "https://auth.seller.example/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fevil.example&scope=read",
 *   { purpose: "challenge_url", allowedHosts: ["*.seller.example"] },
 * );
 * deepStrictEqual(result, {
 *   valid: true,
 *   url: "https://auth.seller.example/authorize?client_id=abc&scope=read",
 * });
 * ```
 */
export function validateSellerUrl(
  url: string,
  options: ValidateSellerUrlOptions,
): SellerUrlValidation {
  const { purpose, allowed, ports, maxLength } = resolveOptions(options);

  if (typeof url !== "string") return reject("invalid_url");
  if (url.length > maxLength) return reject("too_long");
  if (CONTROL_OR_SPACE.test(url)) return reject("invalid_url");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return reject("invalid_url");
  }
  if (parsed.protocol !== "https:") return reject("not_https");
  if (parsed.username !== "" || parsed.password !== "" || rawAuthorityHasAt(url)) {
    return reject("userinfo");
  }
  // The parser leaves the port empty when it is the scheme's default (443), given or not.
  const port = parsed.port === "" ? 443 : Number(parsed.port);
  if (ports !== undefined && !ports.has(port)) return reject("port_not_allowed");
  if (!hostAllowed(parsed.hostname, port, allowed)) return reject("host_not_allowed");

  if (purpose === "challenge_url") {
    parsed.hash = "";
    parsed.search = stripRedirectParameters(parsed.search);
  }
  // The parser percent-encodes non-ASCII (one `€` becomes 9 characters): the URL returned is held
  // to the same cap as the input.
  if (parsed.href.length > maxLength) return reject("too_long");
  return { valid: true, url: parsed.href };
}

function reject(reason: SellerUrlRejection): SellerUrlValidation {
  return { valid: false, reason };
}

/**
 * True when the authority of a special-scheme URL string contains `@`. Mirrors the WHATWG
 * parser: after the scheme, any run of `/` and `\` is skipped, and the authority ends at the
 * first `/`, `\`, `?` or `#`. Only called once the parser has confirmed the `https:` scheme and
 * the string has no controls or spaces (so no leading whitespace to account for).
 */
function rawAuthorityHasAt(url: string): boolean {
  let i = url.indexOf(":") + 1;
  while (i < url.length && (url[i] === "/" || url[i] === "\\")) i++;
  for (; i < url.length; i++) {
    const char = url[i];
    if (char === "@") return true;
    if (char === "/" || char === "\\" || char === "?" || char === "#") return false;
  }
  return false;
}

function isIpLiteral(hostname: string): boolean {
  // The parser canonicalizes every IPv4 form to dotted decimal, and a hostname whose last label
  // is numeric is always parsed as IPv4, so this pattern is exact. IPv6 keeps its brackets.
  return hostname.startsWith("[") || IPV4.test(hostname);
}

function hostAllowed(hostname: string, port: number, allowed: readonly AllowedHost[]): boolean {
  // A trailing dot, a leading dot or an empty label between dots (`a..seller.example`): the
  // parser keeps them, and they name no ordinary host.
  if (
    hostname === "" || hostname.endsWith(".") || hostname.startsWith(".") || hostname.includes("..")
  ) {
    return false;
  }
  const ip = isIpLiteral(hostname);
  for (const entry of allowed) {
    if (entry.port !== undefined && entry.port !== port) continue;
    if (!entry.wildcard) {
      if (entry.hostname === hostname) return true;
      continue;
    }
    if (ip) continue;
    const suffix = "." + entry.hostname;
    if (hostname.length > suffix.length && hostname.endsWith(suffix)) return true;
  }
  return false;
}

function stripRedirectParameters(search: string): string {
  if (search.length <= 1) return search;
  const kept: string[] = [];
  for (const segment of search.slice(1).split("&")) {
    if (segment === "") continue;
    // Some servers also split on ";" (Rails' Rack 2, Go before 1.17, Python before 3.9.2): a
    // segment any of whose ";" parts is a redirect is dropped whole.
    if (!segment.split(";").some(isRedirectParameter)) kept.push(segment);
  }
  return kept.length === 0 ? "" : `?${kept.join("&")}`;
}

/** Whether one `name=value` query part is, or may be, a redirect (see `validateSellerUrl`). */
function isRedirectParameter(part: string): boolean {
  const equals = part.indexOf("=");
  // URLSearchParams applies form decoding ("+" is a space, lenient percent-decoding).
  const [name, value] = new URLSearchParams(part).entries().next().value ?? ["", ""];
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (REDIRECT_NAMES.has(normalized)) return true;
  if (REDIRECT_NAME_MARKERS.some((marker) => normalized.includes(marker))) return true;
  return equals !== -1 && URL_LIKE_VALUE.test(value);
}

function resolveOptions(options: ValidateSellerUrlOptions): {
  purpose: SellerUrlPurpose;
  allowed: AllowedHost[];
  ports: ReadonlySet<number> | undefined;
  maxLength: number;
} {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`Expected options to be an object, got ${describe(options)}`);
  }
  const { purpose, allowedHosts } = options;
  if (typeof purpose !== "string" || !PURPOSES.has(purpose)) {
    throw new TypeError(
      `Expected options.purpose to be one of setup_url, policy_url, file_url, challenge_url, got ${
        typeof purpose === "string" ? JSON.stringify(purpose) : describe(purpose)
      }`,
    );
  }
  if (!Array.isArray(allowedHosts) || allowedHosts.length === 0) {
    throw new TypeError(
      `Expected options.allowedHosts to be a non-empty array of hosts, got ${
        Array.isArray(allowedHosts) ? "an empty array" : describe(allowedHosts)
      }`,
    );
  }
  const maxLength = options.maxLength ?? DEFAULT_SELLER_URL_MAX_LENGTH;
  assertByteCount("options.maxLength", maxLength);
  const allowed = allowedHosts.map((entry: unknown, index: number) => parseEntry(entry, index));
  const ports = parsePorts(options.allowedPorts);
  return { purpose: purpose as SellerUrlPurpose, allowed, ports, maxLength };
}

function parsePorts(allowedPorts: unknown): ReadonlySet<number> | undefined {
  if (allowedPorts === undefined) return undefined;
  if (!Array.isArray(allowedPorts) || allowedPorts.length === 0) {
    throw new TypeError(
      `Expected options.allowedPorts to be a non-empty array of ports, got ${
        Array.isArray(allowedPorts) ? "an empty array" : describe(allowedPorts)
      }`,
    );
  }
  allowedPorts.forEach((port: unknown, index: number) => {
    if (typeof port !== "number") {
      throw new TypeError(
        `Expected options.allowedPorts[${index}] to be a number, got ${describe(port)}`,
      );
    }
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new RangeError(
        `Expected options.allowedPorts[${index}] to be an integer from 1 to 65535, got ${port}`,
      );
    }
  });
  return new Set(allowedPorts as number[]);
}

function parseEntry(entry: unknown, index: number): AllowedHost {
  const name = `options.allowedHosts[${index}]`;
  if (typeof entry !== "string") {
    throw new TypeError(`Expected ${name} to be a string, got ${describe(entry)}`);
  }
  const wildcard = entry.startsWith("*.");
  const host = wildcard ? entry.slice(2) : entry;
  const fail = (why: string): never => {
    throw new TypeError(
      `Expected ${name} to be a host, host:port or *.domain pattern, got ${
        JSON.stringify(entry)
      } (${why})`,
    );
  };
  if (host === "" || ENTRY_FORBIDDEN.test(host)) {
    fail("empty, or contains a scheme, path, userinfo, wildcard or whitespace");
  }
  let parsed: URL;
  try {
    parsed = new URL(`https://${host}`);
  } catch {
    return fail("not a valid host");
  }
  if (parsed.pathname !== "/" || parsed.search !== "" || parsed.hash !== "") {
    fail("not a bare host");
  }
  const hostname = parsed.hostname;
  if (hostname.endsWith(".")) fail("trailing dot");
  if (wildcard && isIpLiteral(hostname)) fail("a wildcard cannot cover an IP address");
  if (wildcard && !hostname.includes(".")) {
    fail("a wildcard needs a domain with at least two labels");
  }
  // The parser drops a default port (`host:443` parses like `host`), so whether the entry names
  // a port is read from the entry itself.
  const explicit = ENTRY_PORT.exec(host);
  if (explicit !== null && explicit[1] === "") fail("empty port");
  const port = parsed.port !== "" ? Number(parsed.port) : explicit !== null ? 443 : undefined;
  return { wildcard, hostname, port };
}
