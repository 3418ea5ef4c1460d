// The engine under fetchJwks and JwksResolver: the URL rules, one bounded request, the capped body
// read, the strict parse and the shape check. Spec: security.mdx, "Webhook URL validation (SSRF)"
// steps 1-6, "Key discovery (JWKS)", and the budgets of the `brand_json_url` quickstart
// (`MAX_JWKS_BYTES`, 10 s total deadline, strict JSON, no redirects).
import { untilAborted } from "./_abort.ts";
import {
  DuplicateKeyError,
  isReservedAddress,
  JsonDepthLimitError,
  JsonNodeLimitError,
  parseJsonStrict,
} from "@adcp-wire/security";
import {
  AdcpWireError,
  booleanOption,
  checkOptionKeys,
  concatBytes,
  deepFreeze,
  integerOption,
  isJsonObject,
  optionError,
  type OptionKeys,
} from "@adcp-wire/internal";
import { JwksError } from "./errors.ts";
import type { AdcpJwk, AdcpJwks } from "./keys.ts";
import { DEFAULT_JWKS_TIMEOUT_MS, DEFAULT_MAX_JWKS_BYTES, MAX_JWKS_KEYS } from "./_jwks_limits.ts";

/** The `fetch` a caller may pass: the global one's signature. */
export type JwksFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Longest JWKS or agent URL accepted, in UTF-16 code units (as the adagents fetch). */
export const MAX_URL_LENGTH = 2048;

/**
 * What a fetched body that is not a usable document (over the size cap, not UTF-8, not strict
 * JSON: a duplicate key, a byte order mark, past the JSON bounds) throws: `detail` says which,
 * `cause` is the parser's error. The JWKS fetch counts it `unavailable` (the spec's taxonomy has
 * no JWKS code for it); the brand.json fetch `brand_json_malformed` (security.mdx: "failed
 * strict-parse (duplicate keys, body cap exceeded, or non-JSON content) ... do not retry").
 */
export type MalformedBody = (detail: string, cause?: unknown) => Error;

/** The JWKS fetch's {@link MalformedBody}: `unavailable`, as every other failed fetch. */
const UNAVAILABLE_BODY: MalformedBody = (detail, cause) =>
  new JwksError("unavailable", detail, cause === undefined ? undefined : { cause });

/** Validated fetch settings. */
export interface FetchSettings {
  readonly fetch: JwksFetch | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly allowHttp: boolean;
  readonly allowReservedAddresses: boolean;
}

/** The fetch options as a caller passes them (validated by {@link fetchSettings}). */
export interface RawFetchOptions {
  readonly fetch?: unknown;
  readonly signal?: unknown;
  readonly timeoutMs?: unknown;
  readonly maxBytes?: unknown;
  readonly allowHttp?: unknown;
  readonly allowReservedAddresses?: unknown;
}

/**
 * The keys of the fetch options (`FetchJwksOptions` has the same), for the key sets of the
 * options objects that extend them.
 */
export const FETCH_OPTION_FLAGS = {
  fetch: true,
  signal: true,
  timeoutMs: true,
  maxBytes: true,
  allowHttp: true,
  allowReservedAddresses: true,
} as const satisfies { readonly [K in keyof Required<RawFetchOptions>]: true };

/**
 * Reads `options` as an options object (undefined is none) whose keys are all in `keys`: an
 * unknown one (a misspelled or misplaced option) is a TypeError naming the nearest known one.
 */
export function optionsObject<T extends object>(
  options: unknown,
  action: string,
  keys: OptionKeys,
): Partial<T> {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw optionError(TypeError, action, "options", "an object or undefined", options);
  }
  checkOptionKeys(action, "options", options, keys);
  return options as Partial<T>;
}

/** Validates the options every JWKS fetch shares; programmer errors are TypeError/RangeError. */
export function fetchSettings(
  raw: RawFetchOptions,
  action: string,
  maxBytes: number = DEFAULT_MAX_JWKS_BYTES,
): FetchSettings {
  const { fetch, signal } = raw;
  if (fetch !== undefined && typeof fetch !== "function") {
    throw optionError(TypeError, action, "options.fetch", "a function or undefined", fetch);
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw optionError(TypeError, action, "options.signal", "an AbortSignal or undefined", signal);
  }
  return {
    fetch: fetch as JwksFetch | undefined,
    signal,
    timeoutMs: integerOption(action, "options.timeoutMs", raw.timeoutMs, DEFAULT_JWKS_TIMEOUT_MS, {
      min: 1,
      max: DEFAULT_JWKS_TIMEOUT_MS,
    }),
    maxBytes: integerOption(action, "options.maxBytes", raw.maxBytes, maxBytes, {
      min: 1,
      max: maxBytes,
    }),
    allowHttp: booleanOption(action, "options.allowHttp", raw.allowHttp),
    allowReservedAddresses: booleanOption(
      action,
      "options.allowReservedAddresses",
      raw.allowReservedAddresses,
    ),
  };
}

// deno-lint-ignore no-control-regex -- controls and spaces are what is refused
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/;

/**
 * Whether the authority of an http(s) URL as written holds `@` (userinfo, even an empty one, which
 * the parser drops without trace). For these special schemes the WHATWG parser skips any run of
 * `/` and `\` after the scheme; the authority then ends at `/`, `\`, `?` or `#`.
 */
function writtenAuthorityHasAt(text: string): boolean {
  let i = text.indexOf(":") + 1;
  while (i < text.length && (text[i] === "/" || text[i] === "\\")) i++;
  for (; i < text.length; i++) {
    const char = text[i];
    if (char === "@") return true;
    if (char === "/" || char === "\\" || char === "?" || char === "#") return false;
  }
  return false;
}

/** Parses an http(s) URL that may come from a counterparty, or refuses it as untrusted. */
export function parseHttpUrl(input: unknown, action: string, name: string, what: string): URL {
  const text = input instanceof URL ? input.href : input;
  if (typeof text !== "string") {
    throw optionError(TypeError, action, name, "a URL string or a URL", input);
  }
  if (text === "" || text.length > MAX_URL_LENGTH || CONTROL_OR_SPACE.test(text)) {
    throw new JwksError("untrusted", `the ${what} is not a usable URL`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new JwksError("untrusted", `the ${what} is not a usable URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new JwksError("untrusted", `the ${what} is not an https URL`);
  }
  // SSRF rules forbid credentials in a counterparty URL; `https://trusted@evil/` also misleads.
  if (url.username !== "" || url.password !== "" || writtenAuthorityHasAt(text)) {
    throw new JwksError("untrusted", `the ${what} has userinfo`);
  }
  return url;
}

/**
 * The URL a JWKS is fetched from, checked against SSRF steps 1 and 2 as far as a URL can be: https
 * (http only with `allowHttp`), no userinfo, no `localhost` name or reserved IP literal (unless
 * `allowReservedAddresses`). The fragment is dropped. Names are not resolved here.
 */
export function jwksUrl(
  input: unknown,
  settings: Pick<FetchSettings, "allowHttp" | "allowReservedAddresses">,
  action: string,
  name: string,
): URL {
  return sourceUrl(input, settings, action, name, "JWKS URL");
}

/** {@link jwksUrl} for any key-source URL (`what` names it in messages: "brand.json URL"). */
export function sourceUrl(
  input: unknown,
  settings: Pick<FetchSettings, "allowHttp" | "allowReservedAddresses">,
  action: string,
  name: string,
  what: string,
): URL {
  const url = parseHttpUrl(input, action, name, what);
  if (url.protocol === "http:" && !settings.allowHttp) {
    throw new JwksError("untrusted", `the ${what} is not an https URL`);
  }
  if (!settings.allowReservedAddresses && isReservedAddress(url.hostname)) {
    throw new JwksError("untrusted", `the ${what} names a reserved address`);
  }
  url.hash = "";
  if (url.href.length > MAX_URL_LENGTH) {
    throw new JwksError("untrusted", `the ${what} is not a usable URL`);
  }
  return url;
}

/**
 * One fetch's deadline: a timer plus the caller's signal, as one AbortSignal handed to `fetch`.
 * `race` also bounds promises (a `fetch` or a body reader) that ignore the signal. Call `dispose`.
 */
class Deadline {
  readonly #controller = new AbortController();
  readonly #endsAt: number;
  readonly #timeoutMs: number;
  readonly #outer: AbortSignal | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #onOuterAbort: (() => void) | undefined;
  #error: unknown;
  #expired = false;

  constructor(timeoutMs: number, outer: AbortSignal | undefined) {
    this.#timeoutMs = timeoutMs;
    this.#endsAt = performance.now() + timeoutMs;
    this.#outer = outer;
    if (outer?.aborted) {
      this.#expire(outer.reason);
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#expire(this.#timeoutError());
    }, timeoutMs);
    if (outer !== undefined) {
      this.#onOuterAbort = () => this.#expire(outer.reason);
      outer.addEventListener("abort", this.#onOuterAbort, { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expired(): boolean {
    return this.#expired;
  }

  get error(): unknown {
    return this.#error;
  }

  /** Expires by the clock: buffered chunks are read without the timer getting a turn. */
  checkClock(): void {
    if (!this.#expired && performance.now() >= this.#endsAt) this.#expire(this.#timeoutError());
    if (this.#expired) throw this.#error;
  }

  /** Settles as `promise`, or rejects with the deadline's error when it fires first. */
  race<T>(promise: Promise<T>): Promise<T> {
    // The controller aborts with the deadline's error as its reason.
    return untilAborted(promise, this.#controller.signal);
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#onOuterAbort !== undefined) {
      this.#outer?.removeEventListener("abort", this.#onOuterAbort);
      this.#onOuterAbort = undefined;
    }
  }

  #timeoutError(): JwksError {
    return new JwksError("unavailable", `no complete answer within ${this.#timeoutMs} ms`);
  }

  #expire(error: unknown): void {
    if (this.#expired) return;
    this.dispose();
    this.#expired = true;
    this.#error = error;
    this.#controller.abort(error);
  }
}

/**
 * What a failed network step throws: the deadline's error (a JwksError, or the caller's abort
 * reason as `fetch` would), a JwksError as it is, anything else (refused, reset, DNS, TLS, a body
 * that broke off) as `unavailable` with the runtime's error as `cause` only: its wording is the
 * probing side channel SSRF step 6 keeps from the counterparty.
 */
function failure(error: unknown, deadline: Deadline): unknown {
  if (deadline.expired) return deadline.error;
  if (error instanceof AdcpWireError) return error;
  return new JwksError("unavailable", "network failure", { cause: error });
}

/** Cancels the body of a response that arrives after nobody waits for it. */
function cancelLate(pending: Promise<unknown>): void {
  pending.then(
    (late) => late instanceof Response ? late.body?.cancel().catch(() => {}) : undefined,
    () => {},
  );
}

/** Cancels a body that will not be read. */
async function discard(response: Response): Promise<void> {
  if (response.body !== null && !response.bodyUsed) await response.body.cancel().catch(() => {});
}

async function request(url: URL, settings: FetchSettings, deadline: Deadline): Promise<Response> {
  if (deadline.expired) throw deadline.error;
  const fetchImpl = settings.fetch ?? globalThis.fetch;
  let pending: Promise<Response>;
  try {
    pending = Promise.resolve(fetchImpl(url.href, {
      method: "GET",
      headers: { accept: "application/jwk-set+json, application/json" },
      // SSRF step 4: a 3xx is answered, never followed.
      redirect: "manual",
      // A counterparty URL gets no ambient credentials (cookies, HTTP auth) in a browser.
      credentials: "omit",
      // No `cache` mode: Cloudflare Workers without `cache_option_enabled` throw on one, and
      // Deno and Node have no HTTP cache. A browser's may answer a refetch from its cache, which
      // fails closed (the kid stays unknown until the cached copy expires).
      signal: deadline.signal,
    }));
  } catch (error) {
    pending = Promise.reject(error);
  }
  let response: unknown;
  try {
    response = await deadline.race(pending);
  } catch (error) {
    cancelLate(pending);
    throw failure(error, deadline);
  }
  if (!(response instanceof Response)) {
    throw optionError(
      TypeError,
      "fetch the JWKS",
      "options.fetch(input, init)",
      "a function returning a Response or a promise of one",
      response,
    );
  }
  return response;
}

/** Refuses redirects (untrusted) and other non-2xx answers (unavailable), body cancelled. */
async function checkStatus(response: Response): Promise<void> {
  const status = response.status;
  let refusal: JwksError | undefined;
  if (response.redirected === true) {
    refusal = new JwksError("untrusted", "the fetch followed a redirect, which is refused");
  } else if (response.type === "opaqueredirect") {
    refusal = new JwksError("untrusted", "redirect refused");
  } else if (status >= 300 && status <= 399) {
    refusal = new JwksError("untrusted", `redirect refused (HTTP ${status})`);
  } else if (status < 200 || status > 299) {
    refusal = new JwksError("unavailable", `HTTP ${status}`);
  }
  if (refusal !== undefined) {
    await discard(response);
    throw refusal;
  }
}

const DIGITS = /^[0-9]+$/;
const EMPTY = new Uint8Array(0);

/** Reads the body, refusing a declared length or a byte count over `maxBytes`. */
async function readCapped(
  response: Response,
  maxBytes: number,
  deadline: Deadline,
  malformed: MalformedBody,
): Promise<Uint8Array> {
  const declared = response.headers.get("content-length")?.trim();
  if (declared !== undefined && DIGITS.test(declared) && Number(declared) > maxBytes) {
    await discard(response);
    throw malformed(`the declared Content-Length is over ${maxBytes} bytes`);
  }
  const body = response.body;
  if (body === null) return EMPTY;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await deadline.race(reader.read());
      if (done) break;
      if (!(value instanceof Uint8Array)) {
        throw new JwksError("unavailable", "the body is not a byte stream");
      }
      total += value.byteLength;
      // The count is of bytes received, whatever Content-Length said.
      if (total > maxBytes) throw malformed(`the body exceeded ${maxBytes} bytes`);
      deadline.checkClock();
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw failure(error, deadline);
  }
  return concatBytes(chunks, total);
}

// `ignoreBOM` keeps a byte order mark in the text, where the strict parser refuses it.
const DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function parse(bytes: Uint8Array, malformed: MalformedBody): unknown {
  let text: string;
  try {
    text = DECODER.decode(bytes);
  } catch (error) {
    throw malformed("the body is not UTF-8", error);
  }
  try {
    return parseJsonStrict(text);
  } catch (error) {
    // Messages describe the body by kind only; the parser's error stays as `cause`.
    if (error instanceof SyntaxError) throw malformed("the body is not JSON", error);
    if (error instanceof DuplicateKeyError) {
      throw malformed("the body repeats a key in an object", error);
    }
    if (error instanceof JsonDepthLimitError || error instanceof JsonNodeLimitError) {
      throw malformed("the body exceeds the JSON bounds", error);
    }
    throw error;
  }
}

/**
 * The usable keys of a `keys` array: entries whose `kid` is a non-empty string that no other
 * entry has. A kid published twice names no key (security.mdx, "Agent key publication": `kid`
 * MUST NOT collide), so neither entry is kept; an entry without a kid cannot be named by a
 * `keyid` (RFC 7517 §5: ignore keys missing required members).
 */
export function usableKeys(entries: readonly AdcpJwk[]): AdcpJwk[] {
  const seen = new Map<string, number>();
  for (const entry of entries) {
    const kid = entry.kid;
    if (typeof kid === "string" && kid !== "") seen.set(kid, (seen.get(kid) ?? 0) + 1);
  }
  return entries.filter((entry) => typeof entry.kid === "string" && seen.get(entry.kid) === 1);
}

/** Checks a parsed body: an object whose `keys` is an array of at most 1,000 objects. */
function toJwks(value: unknown): AdcpJwks {
  if (!isJsonObject(value)) throw new JwksError("unavailable", "the body is not a JSON object");
  const keys = Object.hasOwn(value, "keys") ? value.keys : undefined;
  if (!Array.isArray(keys)) throw new JwksError("unavailable", "the body has no 'keys' array");
  if (keys.length > MAX_JWKS_KEYS) {
    throw new JwksError(
      "unavailable",
      `the 'keys' array has ${keys.length} entries, more than ${MAX_JWKS_KEYS}`,
    );
  }
  for (let i = 0; i < keys.length; i++) {
    if (!isJsonObject(keys[i])) {
      throw new JwksError("unavailable", `keys[${i}] is not a JSON object`);
    }
  }
  return deepFreeze({ keys: usableKeys(keys as AdcpJwk[]) });
}

/** One bounded JWKS fetch of an already checked URL. */
export async function fetchJwksFrom(url: URL, settings: FetchSettings): Promise<AdcpJwks> {
  return toJwks(await fetchJsonFrom(url, settings));
}

/**
 * One bounded fetch of an already checked URL, parsed as strict JSON (any shape). A body that is
 * no usable document throws what `malformed` makes (default: `unavailable`); the network, the
 * deadline and the status throw {@link JwksError} as ever.
 */
export async function fetchJsonFrom(
  url: URL,
  settings: FetchSettings,
  malformed: MalformedBody = UNAVAILABLE_BODY,
): Promise<unknown> {
  const deadline = new Deadline(settings.timeoutMs, settings.signal);
  try {
    const response = await request(url, settings, deadline);
    await checkStatus(response);
    const bytes = await readCapped(response, settings.maxBytes, deadline, malformed);
    return parse(bytes, malformed);
  } finally {
    deadline.dispose();
  }
}
