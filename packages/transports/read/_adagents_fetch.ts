// The engine under fetchAdagentsJson and fetchAuthoritativeAdagentsJson: the URL checks, the
// redirect policy of each of the two fetches, one deadline over every hop, the bounded body read
// and the strict JSON parse. The rules are in docs/bounded-reading.md, "adagents.json discovery".
import { isReservedAddress, parseJsonStrict } from "@adcp-wire/security";
import { isJsonObject, notShown, optionError } from "@adcp-wire/internal";
import {
  AdagentsDiscoveryError,
  type AdagentsDiscoveryReason,
  HttpStatusError,
  MalformedJsonError,
} from "../errors.ts";
import { cancelLate, Deadline, networkFailure, untilDeadline } from "./_deadline.ts";
import type { ResolvedLimits } from "./_limits.ts";
import { readBody } from "./_read_body.ts";
import { registrableDomain } from "./_registrable_domain.ts";
import { decodeUtf8 } from "./_utf8_decoder.ts";
import type { FetchLike } from "./bounded_fetch.ts";

/**
 * Longest URL accepted, requested or from a `Location`, in UTF-16 code units: the
 * `DEFAULT_SELLER_URL_MAX_LENGTH` of `@adcp-wire/security`.
 */
export const MAX_URL_LENGTH = 2048;

/**
 * The redirect statuses of the Fetch Standard: the only ones followed. Any other 3xx (300
 * Multiple Choices, 304 Not Modified to a request that was not conditional, 305 Use Proxy, 306) is
 * refused, never followed.
 */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

// Header values are byte strings; a URI reference is printable ASCII without spaces (RFC 3986).
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
// deno-lint-ignore no-control-regex -- controls and spaces are what is refused
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
// Characters a bare domain cannot hold (it would name a path, a query, a fragment or userinfo).
const NOT_IN_DOMAIN = /[/\\?#@]/;

/** How one of the two fetches behaves. */
export interface ChainPolicy {
  /**
   * The `authoritative_location` fetch (no redirect followed, no nested `authoritative_location`)
   * rather than the `/.well-known/adagents.json` one.
   */
  readonly authoritative: boolean;
  /** Redirects followed at most (0 to 3; 0 for the authoritative fetch). */
  readonly maxRedirects: number;
  readonly allowHttp: boolean;
  readonly allowReservedAddresses: boolean;
  /** Byte caps, JSON bounds, the deadline of the whole operation and the caller's signal. */
  readonly limits: ResolvedLimits;
  readonly fetch: FetchLike | undefined;
  /** What option errors say could not be done. */
  readonly action: string;
}

/** One redirect that was followed. */
export interface AdagentsRedirect {
  /** Its status: 301, 302, 303, 307 or 308. */
  readonly status: number;
  /** The URL that answered with the redirect. */
  readonly from: string;
  /** The URL it led to, checked and then requested. */
  readonly to: string;
}

/** An adagents.json file and where it came from. */
export interface FetchedAdagentsJson {
  /** The URL that answered with the file (after redirects), without fragment. */
  readonly url: string;
  /** The URL first requested, normalized. */
  readonly requestedUrl: string;
  /** The file, a JSON object parsed strictly (raw, seller-controlled: validate before use). */
  readonly document: Record<string, unknown>;
  /** The redirects followed, in order (always empty for the authoritative fetch). */
  readonly redirects: readonly AdagentsRedirect[];
}

function refused(reason: AdagentsDiscoveryReason): AdagentsDiscoveryError {
  return new AdagentsDiscoveryError(reason);
}

/** Whether a parsed hostname names a host: not empty, no leading or trailing dot or empty label. */
function wellFormedHost(hostname: string): boolean {
  return hostname !== "" && !hostname.startsWith(".") && !hostname.endsWith(".") &&
    !hostname.includes("..");
}

/**
 * Whether the authority of a URL reference contains `@` (userinfo, even empty: the parser drops an
 * empty `@`, which hides it from `username`). The authority starts after the scheme and any run of
 * `/` and `\` (the WHATWG parser treats `\` as `/` in http(s) URLs), or after `//` in a reference
 * without a scheme, and ends at the first `/`, `\`, `?` or `#`. A reference with a scheme and no
 * slashes is scanned too, so `https:@host` fails closed.
 */
export function authorityHasAt(text: string): boolean {
  const scheme = SCHEME.exec(text);
  const start = scheme === null ? 0 : scheme[0].length;
  let i = start;
  while (i < text.length && (text[i] === "/" || text[i] === "\\")) i++;
  if (scheme === null && i - start < 2) return false; // a path: no authority
  for (; i < text.length; i++) {
    const char = text[i];
    if (char === "@") return true;
    if (char === "/" || char === "\\" || char === "?" || char === "#") return false;
  }
  return false;
}

/**
 * The URL to request first, from the caller's domain or URL: a bare domain becomes
 * `https://<domain>/.well-known/adagents.json` (`wellKnown`), one trailing root dot is removed
 * (url-canonicalization.mdx, step 2), the fragment is dropped. The value may come from a seller
 * (a `publisher_domain`, an `authoritative_location`), so only a wrong type is a TypeError.
 *
 * @throws {TypeError} When `input` is neither a string nor a URL.
 * @throws {AdagentsDiscoveryError} `invalid_url`, `not_https`, `userinfo`, `reserved_address`.
 */
export function requestedUrl(
  input: unknown,
  wellKnown: boolean,
  policy: ChainPolicy,
  name: string,
): URL {
  const value = input instanceof URL ? input.href : input;
  if (typeof value !== "string") {
    throw optionError(
      TypeError,
      policy.action,
      name,
      wellKnown ? "a domain or URL string, or a URL" : "a URL string or a URL",
      input,
    );
  }
  if (value.length > MAX_URL_LENGTH || value === "" || CONTROL_OR_SPACE.test(value)) {
    throw refused("invalid_url");
  }
  let text = value;
  if (wellKnown && !ABSOLUTE.test(value)) {
    if (NOT_IN_DOMAIN.test(value)) throw refused("invalid_url");
    text = `https://${value}/.well-known/adagents.json`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refused("invalid_url");
  }
  if (!(url.protocol === "https:" || (url.protocol === "http:" && policy.allowHttp))) {
    throw refused("not_https");
  }
  if (url.username !== "" || url.password !== "" || authorityHasAt(text)) {
    throw refused("userinfo");
  }
  const host = url.hostname;
  if (host.endsWith(".") && !host.endsWith("..")) url.hostname = host.slice(0, -1);
  if (!wellFormedHost(url.hostname)) throw refused("invalid_url");
  if (!policy.allowReservedAddresses && isReservedAddress(url.hostname)) {
    throw refused("reserved_address");
  }
  url.hash = "";
  if (url.href.length > MAX_URL_LENGTH) throw refused("invalid_url");
  return url;
}

/** The next hop of a redirect, or why it is refused. */
export type NextHop =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly reason: AdagentsDiscoveryReason };

/**
 * Checks a redirect's `Location` against the policy of the `/.well-known/adagents.json` fetch, in
 * order: a usable Location, `https:` (or `http:` to `http:` with `allowHttp`), no userinfo, a
 * well-formed host, not a reserved address, and the registrable domain of the ORIGINALLY
 * requested host (`anchor`, never the previous hop's). Pure: nothing is requested here.
 *
 * Spec: managed-networks.mdx, "Why not HTTP redirects?"; Security, "Webhook URL validation
 * (SSRF)", step 4.
 */
export function nextHop(
  location: string | null,
  current: URL,
  anchor: string | undefined,
  policy: Pick<ChainPolicy, "allowHttp" | "allowReservedAddresses">,
): NextHop {
  if (location === null || location.length > MAX_URL_LENGTH || !PRINTABLE_ASCII.test(location)) {
    return { ok: false, reason: "invalid_location" };
  }
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    return { ok: false, reason: "invalid_location" };
  }
  if (next.href.length > MAX_URL_LENGTH) return { ok: false, reason: "invalid_location" };
  const https = next.protocol === "https:";
  if (!https && !(next.protocol === "http:" && current.protocol === "http:" && policy.allowHttp)) {
    return { ok: false, reason: "scheme_downgrade" };
  }
  if (next.username !== "" || next.password !== "" || authorityHasAt(location)) {
    return { ok: false, reason: "userinfo" };
  }
  if (!wellFormedHost(next.hostname)) return { ok: false, reason: "invalid_location" };
  if (!policy.allowReservedAddresses && isReservedAddress(next.hostname)) {
    return { ok: false, reason: "reserved_address" };
  }
  if (anchor === undefined) return { ok: false, reason: "no_registrable_domain" };
  if (registrableDomain(next.hostname) !== anchor) {
    return { ok: false, reason: "cross_registrable_domain" };
  }
  next.hash = "";
  return { ok: true, url: next };
}

/** Cancels a body that will not be read. */
async function discard(response: Response): Promise<void> {
  if (response.body !== null && !response.bodyUsed) await response.body.cancel().catch(() => {});
}

/** One request under the operation's deadline, never followed by the runtime. */
async function request(url: URL, policy: ChainPolicy, deadline: Deadline): Promise<Response> {
  deadline.throwIfExpired();
  const fetchImpl = policy.fetch ?? globalThis.fetch;
  let pending: Promise<Response>;
  try {
    pending = Promise.resolve(fetchImpl(url.href, {
      method: "GET",
      headers: { accept: "application/json" },
      redirect: "manual",
      // A counterparty URL gets no ambient credentials (cookies, HTTP auth) in a browser.
      credentials: "omit",
      signal: deadline.signal,
    }));
  } catch (error) {
    pending = Promise.reject(error);
  }
  let response: Response;
  try {
    // Raced with the deadline: a `fetch` that ignores its signal cannot hold the call past it.
    response = await untilDeadline(pending, deadline);
  } catch (error) {
    cancelLate(pending);
    throw networkFailure(error, deadline, policy.limits.signal);
  }
  if (!(response instanceof Response)) {
    throw optionError(
      TypeError,
      "fetch adagents.json",
      "options.fetch(input, init)",
      "a Response or a promise of one",
      notShown(response),
    );
  }
  return response;
}

/**
 * Fetches `start` under `policy`: redirects checked by {@link nextHop} (the well-known fetch) or
 * refused (the authoritative fetch), one deadline from the first request to the last body byte,
 * the body capped and parsed as strict JSON, which must be an object.
 */
export async function fetchChain(start: URL, policy: ChainPolicy): Promise<FetchedAdagentsJson> {
  const { limits } = policy;
  const startedAt = performance.now();
  const deadline = new Deadline(limits.timeoutMs, limits.signal, startedAt);
  const anchor = registrableDomain(start.hostname);
  const redirects: AdagentsRedirect[] = [];
  let current = start;
  try {
    for (;;) {
      const response = await request(current, policy, deadline);
      const status = response.status;
      const refuse = async (reason: AdagentsDiscoveryReason) => {
        await discard(response);
        return new AdagentsDiscoveryError(reason, status, redirects.length);
      };
      if (response.redirected === true) throw await refuse("followed_by_fetch");
      if (response.type === "opaqueredirect") {
        throw await refuse(
          policy.authoritative ? "redirect_on_authoritative_location" : "opaque_redirect",
        );
      }
      if (REDIRECT_STATUSES.has(status)) {
        if (policy.authoritative) throw await refuse("redirect_on_authoritative_location");
        if (redirects.length >= policy.maxRedirects) throw await refuse("too_many_redirects");
        const hop = nextHop(response.headers.get("location"), current, anchor, policy);
        if (!hop.ok) throw await refuse(hop.reason);
        await discard(response);
        redirects.push({ status, from: current.href, to: hop.url.href });
        current = hop.url;
        continue;
      }
      if (status >= 300 && status <= 399) throw await refuse("unsupported_redirect_status");
      if (status < 200 || status > 299) {
        await discard(response);
        throw new HttpStatusError(status);
      }
      const document = await readDocument(response, policy, deadline, startedAt);
      if (!isJsonObject(document)) {
        throw new AdagentsDiscoveryError("not_an_object", status, redirects.length);
      }
      if (policy.authoritative && Object.hasOwn(document, "authoritative_location")) {
        throw new AdagentsDiscoveryError("nested_authoritative_location", status, 0);
      }
      return { url: current.href, requestedUrl: start.href, document, redirects };
    }
  } finally {
    deadline.dispose();
  }
}

/** Reads the body of the final answer and parses it as strict JSON. */
async function readDocument(
  response: Response,
  policy: ChainPolicy,
  deadline: Deadline,
  startedAt: number,
): Promise<unknown> {
  const { limits } = policy;
  let bytes: Uint8Array;
  try {
    // The reader's own deadline starts at `startedAt`: it ends when the operation's does.
    bytes = await readBody(
      response,
      { limits, contentDecoding: "runtime", onProgress: undefined },
      startedAt,
    );
  } catch (error) {
    throw networkFailure(error, deadline, limits.signal);
  }
  const text = decodeUtf8(bytes);
  let value: unknown;
  try {
    value = parseJsonStrict(text, {
      maxJsonDepth: limits.maxJsonDepth,
      maxJsonNodes: limits.maxJsonNodes,
    });
  } catch (error) {
    // The SyntaxError's message describes seller bytes by index; ours describes them by size.
    if (error instanceof SyntaxError) throw new MalformedJsonError("syntax", text.length);
    throw error;
  }
  return value;
}
