import { optionError, optionKeys } from "@adcp-wire/internal";
import { assertByteCount, assertOptionsObject } from "./_strings.ts";

/** What a seller-provided URL is for; each purpose maps to a spec rule. */
export type SellerUrlPurpose =
  /** `details.setup_url` of `ACCOUNT_SETUP_REQUIRED` (Transport Error Mapping, URL validation). */
  | "setup_url"
  /** `details.policy_url` of `CREATIVE_REJECTED` / `POLICY_VIOLATION` (same section). */
  | "policy_url"
  /**
   * A2A FilePart `url` (1.0) or `uri` (v0.3) (A2A Response Extraction, FilePart URI validation).
   */
  | "file_url"
  /**
   * `challenge_url` of an `auth-required` challenge (A2A Response Extraction, Auth challenge URL
   * validation).
   */
  | "challenge_url";

/** Options for {@link validateSellerUrl}. */
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
   * subdomain (see {@link validateSellerUrl}); IPv6 in brackets (`[2001:db8::1]`,
   * `[2001:db8::1]:8443`). An entry without a port allows any port ("the protocol does not
   * constrain ports", Security, Webhook URL validation, "Destination port: permissive by
   * default"); an entry with a port allows only that port, `:443` included. Entries are
   * normalized by the same URL parser as the checked URL (lowercase, punycode, IPv4 forms).
   */
  readonly allowedHosts: readonly string[];
  /**
   * A port allow-list applied to every URL on top of `allowedHosts`: the URL's port (443 when it
   * has none) must be listed here and allowed by the matching entry. For the spec's opt-in
   * hardened profile pass {@link HARDENED_ALLOWED_PORTS} (443 and 8443). Each an integer
   * from 1 to 65535; non-empty. Absent, ports are not restricted beyond the entries' own:
   * "SDKs that ship a DEFAULT_ALLOWED_PORTS constant MUST default it to 'no restriction' and
   * surface {443, 8443} as an opt-in profile, never as a default" (Security, Webhook URL
   * validation, "Destination port: permissive by default"). Default: no port restriction.
   * @default {undefined}
   */
  readonly allowedPorts?: readonly number[];
  /**
   * Longest accepted URL, in UTF-16 code units.
   * @default {2048}
   */
  readonly maxLength?: number;
}

/** Why {@link validateSellerUrl} rejected a URL; stable values for logs and tests. */
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

/** Result of {@link validateSellerUrl}. */
export type SellerUrlValidation =
  | {
    /** The URL passed every check. */
    readonly valid: true;
    /**
     * The URL to use: the parser's normalized `href`, with redirect parameters removed for
     * `challenge_url`.
     */
    readonly url: string;
  }
  | {
    /** The URL failed a check and must not be opened, fetched or shown as a link. */
    readonly valid: false;
    /** The first check it failed. */
    readonly reason: SellerUrlRejection;
  };

/** The default `maxLength` of {@link validateSellerUrl}: 2048 code units. */
export const DEFAULT_SELLER_URL_MAX_LENGTH = 2048;

/**
 * The hardened port profile for {@link ValidateSellerUrlOptions.allowedPorts}: 443 and 8443.
 * Opt-in, never a default: the spec requires SDKs to leave ports unrestricted by default and to
 * offer {443, 8443} only as a profile to turn on, so this package ships no `DEFAULT_ALLOWED_PORTS`.
 * A seller that turns it on must document the allowed ports for its buyers.
 *
 * Spec: security.mdx, Webhook URL validation, Destination port: permissive by default.
 */
export const HARDENED_ALLOWED_PORTS: readonly number[] = Object.freeze([443, 8443]);

/**
 * Query parameter names removed from a `challenge_url`, compared after form-decoding, lowercasing
 * and removing everything but letters and digits (so `redirect_uri`, `Redirect-URI`,
 * `redirectUri` and `redirect%5Furi` are one name): the names the spec gives and other common
 * names for a redirect target. Other parameters are removed too (see
 * [docs/seller-url-rules.md](../../docs/seller-url-rules.md#auth-challenge-urls)).
 *
 * Spec: A2A Response Extraction, Security Considerations, Auth challenge URL validation.
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
 * returns the exact URL to use: `https:` only, no userinfo, a host on the caller's allow-list
 * (exact, `*.domain` wildcard or IP literal, each optionally with a port), ports unrestricted
 * unless an entry or `allowedPorts` says so, and, for `challenge_url`, the fragment and every
 * redirect-like query parameter removed. The checks, in order, with the reason each one returns
 * and the exact matching rules, are in [docs/seller-url-rules.md](../../docs/seller-url-rules.md).
 *
 * Spec: Transport Error Mapping, Security Considerations, URL validation; A2A Response Extraction,
 * Security Considerations, FilePart URI validation and Auth challenge URL validation.
 *
 * @param url The untrusted URL.
 * @param options Purpose, allow-list (from configuration, never from the payload), and the
 * optional port allow-list and length cap.
 * @returns `{ valid: true, url }` with the parser's `href` (use it, not the input), or
 * `{ valid: false, reason }` with the first check that failed.
 * @throws {TypeError} When `options` is malformed: `purpose` not one of the four values,
 * `allowedHosts` not a non-empty array of host patterns, `allowedPorts` not a non-empty array
 * of numbers, or a key {@link ValidateSellerUrlOptions} does not name.
 * @throws {RangeError} When `options.maxLength` is not a non-negative safe integer, or a port in
 * `options.allowedPorts` is not an integer from 1 to 65535.
 *
 * @example Accepting a setup URL, rejecting look-alikes, stripping a challenge's redirect
 * ```ts
 * import { validateSellerUrl } from "@adcp-wire/security";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const setup = { purpose: "setup_url", allowedHosts: ["seller.example"] } as const;
 * deepStrictEqual(validateSellerUrl("https://SELLER.example/setup?a=1", setup), {
 *   valid: true,
 *   url: "https://seller.example/setup?a=1",
 * });
 * deepStrictEqual(validateSellerUrl("https://seller.example@evil.example/", setup), {
 *   valid: false,
 *   reason: "userinfo",
 * });
 * const challenge = { purpose: "challenge_url", allowedHosts: ["*.seller.example"] } as const;
 * const login = "https://auth.seller.example/a?redirect_uri=https%3A%2F%2Fevil.example&x=1";
 * deepStrictEqual(validateSellerUrl(login, challenge), {
 *   valid: true,
 *   url: "https://auth.seller.example/a?x=1",
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

const ACTION = "validate a seller URL";

/** The keys of {@link ValidateSellerUrlOptions}: any other is refused. */
const VALIDATE_SELLER_URL_KEYS = optionKeys<ValidateSellerUrlOptions>({
  purpose: true,
  allowedHosts: true,
  allowedPorts: true,
  maxLength: true,
});

function resolveOptions(options: ValidateSellerUrlOptions): {
  purpose: SellerUrlPurpose;
  allowed: AllowedHost[];
  ports: ReadonlySet<number> | undefined;
  maxLength: number;
} {
  assertOptionsObject(ACTION, options, VALIDATE_SELLER_URL_KEYS);
  const { purpose, allowedHosts } = options;
  if (typeof purpose !== "string" || !PURPOSES.has(purpose)) {
    throw optionError(
      TypeError,
      ACTION,
      "options.purpose",
      "one of setup_url, policy_url, file_url, challenge_url",
      purpose,
    );
  }
  if (!Array.isArray(allowedHosts) || allowedHosts.length === 0) {
    throw optionError(
      TypeError,
      ACTION,
      "options.allowedHosts",
      "a non-empty array of hosts",
      allowedHosts,
    );
  }
  const maxLength = options.maxLength ?? DEFAULT_SELLER_URL_MAX_LENGTH;
  assertByteCount(ACTION, "options.maxLength", maxLength);
  const allowed = allowedHosts.map((entry: unknown, index: number) => parseEntry(entry, index));
  const ports = parsePorts(options.allowedPorts);
  return { purpose: purpose as SellerUrlPurpose, allowed, ports, maxLength };
}

function parsePorts(allowedPorts: unknown): ReadonlySet<number> | undefined {
  if (allowedPorts === undefined) return undefined;
  if (!Array.isArray(allowedPorts) || allowedPorts.length === 0) {
    throw optionError(
      TypeError,
      ACTION,
      "options.allowedPorts",
      "a non-empty array of ports",
      allowedPorts,
    );
  }
  allowedPorts.forEach((port: unknown, index: number) => {
    const name = `options.allowedPorts[${index}]`;
    const requirement = "an integer from 1 to 65535";
    if (typeof port !== "number") throw optionError(TypeError, ACTION, name, requirement, port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw optionError(RangeError, ACTION, name, requirement, port);
    }
  });
  return new Set(allowedPorts as number[]);
}

function parseEntry(entry: unknown, index: number): AllowedHost {
  const name = `options.allowedHosts[${index}]`;
  if (typeof entry !== "string") {
    throw optionError(TypeError, ACTION, name, "a string", entry);
  }
  const wildcard = entry.startsWith("*.");
  const host = wildcard ? entry.slice(2) : entry;
  const fail = (why: string): never => {
    throw optionError(
      TypeError,
      ACTION,
      name,
      `a host, host:port or *.domain pattern (${why})`,
      entry,
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
