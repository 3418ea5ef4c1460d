// The HTTP and JSON-RPC plumbing shared by McpClient and A2AClient: one deadline per call that
// covers the request and every body read (reconnects included), bounded JSON and SSE bodies, and
// strict checks of the JSON-RPC responses an agent sends back.
import { AdcpWireError, isJsonObject, type JsonRecord, own } from "@adcp-wire/internal";
import { sanitizeSellerString } from "@adcp-wire/security";
import { extractAdcpErrorFromJsonRpcError, jsonSerializedBound } from "@adcp-wire/core";
import { normalizeRetryAfter } from "@adcp-wire/recovery";
import { isRequestSignatureErrorCode } from "@adcp-wire/signing";
import type { ResolvedClientLimits } from "./limits.ts";
import {
  AgentProtocolError,
  ContentEncodingError,
  DeadlineExceededError,
  HttpStatusError,
  ItemLimitError,
  JsonRpcError,
  RedirectRefusedError,
} from "../errors.ts";
import { parseContentCodings } from "../read/_body.ts";
import {
  cancelLate,
  Deadline,
  networkFailure as failure,
  untilDeadline,
} from "../read/_deadline.ts";
import { parseJsonWithin } from "../read/_json.ts";
import { readBody } from "../read/_read_body.ts";
import { isRedirect } from "../read/_redirect.ts";
import { decodeUtf8 } from "../read/_utf8_decoder.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";
import { SseBudget } from "../read/sse.ts";
import { signatureChallengeError } from "./_www_authenticate.ts";
import { describe } from "@adcp-wire/internal";

/**
 * Request headers as a fresh plain object of lower-case names, one per request: what the runtime's
 * `fetch` copies fastest (see {@link headerRecord}).
 */
export type HeaderRecord = Record<string, string>;

/**
 * The entries of `headers` as a {@link HeaderRecord} (names lower-case, as `Headers` gives them),
 * for a client to build once and copy per request.
 */
export function headerRecord(headers: Headers): HeaderRecord {
  const record: HeaderRecord = {};
  for (const [name, value] of headers) {
    Object.defineProperty(record, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return record;
}

/** An own string property, or `undefined`. */
export function ownString(object: JsonRecord, key: string): string | undefined {
  const value = own(object, key);
  return typeof value === "string" ? value : undefined;
}

/**
 * One request's bounds inside an operation: the resolved limits, one deadline started when the
 * request starts (covering the request, the response headers and every body read, reconnects
 * included), and the operation's byte budget (cumulative bytes across every response the operation
 * reads: pages, polls, reconnects and frames). A call made without an operation budget gets its
 * own.
 */
export class Call {
  readonly limits: ResolvedClientLimits;
  readonly budget: SseBudget;
  readonly deadline: Deadline;
  readonly startedAt: number;
  /** Server-to-client requests this call has answered. */
  answered = 0;
  readonly #counts: Counts;

  constructor(limits: ResolvedClientLimits, operation?: Call) {
    this.limits = limits;
    this.budget = operation?.budget ?? new SseBudget(limits);
    this.#counts = operation === undefined ? { events: 0 } : operation.#counts;
    this.startedAt = operation === undefined ? this.budget.startedAt : performance.now();
    this.deadline = new Deadline(limits.timeoutMs, limits.signal, this.startedAt);
  }

  /** Counts one SSE event of the operation. @throws {ItemLimitError} Past `maxEvents`. */
  countEvent(): void {
    const events = ++this.#counts.events;
    if (events > this.limits.maxEvents) {
      throw new ItemLimitError("events", this.limits.maxEvents, events);
    }
  }

  /** Milliseconds left before the deadline (never negative). */
  get remainingMs(): number {
    return Math.max(0, this.startedAt + this.limits.timeoutMs - performance.now());
  }

  /**
   * Throws the deadline's error when the deadline has passed, even if its timer could not fire yet
   * (synchronous work such as classifying a large answer keeps timers waiting).
   */
  checkDeadline(): void {
    this.deadline.throwIfExpired();
    const elapsed = performance.now() - this.startedAt;
    if (elapsed >= this.limits.timeoutMs) {
      throw new DeadlineExceededError(this.limits.timeoutMs, elapsed);
    }
  }

  /**
   * Settles like `promise`, or rejects with the deadline's error as soon as the deadline fires (for
   * work this call waits on but does not own, such as a shared `initialize`).
   */
  race<T>(promise: Promise<T>): Promise<T> {
    return untilDeadline(promise, this.deadline);
  }

  dispose(): void {
    this.deadline.dispose();
  }
}

/** Item counts shared by the requests of one operation. */
interface Counts {
  events: number;
}

/**
 * `fetch` under the call's deadline, never following a redirect.
 *
 * - Redirects: the request is sent with `redirect: "manual"`, and a 3xx answer (or a browser's
 *   opaque redirect, or a response a custom `fetch` reports as `redirected`) is refused with
 *   {@link RedirectRefusedError}, its body cancelled, so no request goes to the `Location`
 *   (Security, "Webhook URL validation (SSRF)", step 4).
 * - Failures: an abort by the deadline is reported as its error, a caller's abort as the caller's
 *   reason, anything else the runtime throws (refused, reset, DNS, TLS) as {@link NetworkError}.
 * - Encoding: unless the caller's headers set `Accept-Encoding`, the request asks for `identity`,
 *   so that the bytes the readers count are the bytes on the wire (MCP Response Extraction, Size
 *   Limits: "bound raw and decoded bytes"). An answer in a content coding anyway is refused, its
 *   body cancelled unread, with {@link ContentEncodingError} reason `"not_requested"`.
 */
export async function fetchWithin(
  fetchImpl: FetchLike | undefined,
  url: string,
  init: RequestInit & { readonly headers: Headers | HeaderRecord },
  call: Call,
): Promise<Response> {
  call.deadline.throwIfExpired();
  // The callers build fresh headers per request: set on them rather than copy them again.
  const given = init.headers;
  let headers: Headers | HeaderRecord;
  let identity: boolean;
  if (given instanceof Headers) {
    identity = !given.has("accept-encoding");
    if (identity) given.set("accept-encoding", "identity");
    headers = given;
  } else {
    identity = !Object.hasOwn(given, "accept-encoding");
    if (identity) given["accept-encoding"] = "identity";
    // The runtime's fetch copies a record at once (cheaper than a Headers); a fetch of the
    // caller's own gets the Headers object it may expect.
    headers = fetchImpl === undefined ? given : new Headers(given);
  }
  let response: Response;
  const pending = Promise.resolve((fetchImpl ?? globalThis.fetch)(url, {
    ...init,
    headers,
    redirect: "manual",
    signal: call.deadline.signal,
  }));
  try {
    // Raced with the deadline: a `fetch` that ignores its signal cannot hold the call past it (a
    // response that comes too late is cancelled unread).
    response = await call.race(pending);
  } catch (error) {
    cancelLate(pending);
    throw networkFailure(error, call);
  }
  if (!(response instanceof Response)) {
    throw new AgentProtocolError("invalid_message", "a Response from fetch", describe(response));
  }
  if (isRedirect(response)) {
    await discard(response);
    throw new RedirectRefusedError(response.status);
  }
  if (identity) {
    const codings = parseContentCodings(response.headers.get("content-encoding"));
    if (codings.length > 0) {
      await discard(response);
      throw new ContentEncodingError(codings.join(", "), "not_requested");
    }
  }
  return response;
}

/**
 * What a failed network step throws: the deadline's error once it fired, the caller's abort reason
 * when the caller aborted, a transport error as it is, and anything else as a
 * {@link NetworkError}.
 */
export function networkFailure(error: unknown, call: Call): unknown {
  return failure(error, call.deadline, call.limits.signal);
}

/** Cancels a body that will not be read. */
export async function discard(response: Response): Promise<void> {
  if (response.body !== null && !response.bodyUsed) await response.body.cancel().catch(() => {});
}

/** What a response body is, from its `Content-Type`. */
export function bodyKind(response: Response): "json" | "sse" | "other" {
  const value = response.headers.get("content-type") ?? "";
  // The common spellings first, without splitting.
  if (value === "application/json") return "json";
  if (value === "text/event-stream") return "sse";
  const type = value.split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || type === "application/a2a+json") return "json";
  if (type === "text/event-stream") return "sse";
  return "other";
}

/**
 * Reads a JSON body under the call's limits and deadline, charging its bytes to the operation's
 * budget.
 */
export async function readJsonWithin(response: Response, call: Call): Promise<unknown> {
  const { text } = await readJsonText(response, call);
  return parseJsonWithin(text, call.limits.maxJsonDepth, call.limits.maxJsonNodes);
}

/** A parsed JSON body and what every value parsed from it serializes to at most. */
export interface SourcedJson {
  readonly value: unknown;
  /** `jsonSerializedBound` of the body (`sourceJsonBytes` of the A2A extraction options). */
  readonly sourceJsonBytes: number;
}

/** {@link readJsonWithin}, with the bound of the body's serialized values (one regex scan). */
export async function readSourcedJsonWithin(response: Response, call: Call): Promise<SourcedJson> {
  const { text, byteLength } = await readJsonText(response, call);
  const value = parseJsonWithin(text, call.limits.maxJsonDepth, call.limits.maxJsonNodes);
  return { value, sourceJsonBytes: jsonSerializedBound(text, byteLength) };
}

/** Reads and decodes a JSON body under the call's limits, deadline and budget. */
async function readJsonText(
  response: Response,
  call: Call,
): Promise<{ readonly text: string; readonly byteLength: number }> {
  let bytes: Uint8Array;
  try {
    bytes = await readBody(
      response,
      {
        limits: call.limits,
        contentDecoding: "runtime",
        onProgress: undefined,
      },
      call.startedAt,
      call.budget,
      call.deadline,
    );
  } catch (error) {
    throw networkFailure(error, call);
  }
  return { text: decodeUtf8(bytes), byteLength: bytes.byteLength };
}

/** Parses one SSE event's data under the call's JSON bounds. */
export function parseEventData(data: string, call: Call): unknown {
  return parseJsonWithin(data, call.limits.maxJsonDepth, call.limits.maxJsonNodes);
}

/** A JSON-RPC error object as received, checked for shape. */
export interface RpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data: unknown;
}

/** A checked JSON-RPC response: a result or an error. */
export type RpcResponse =
  | { readonly id: unknown; readonly ok: true; readonly result: unknown }
  | { readonly id: unknown; readonly ok: false; readonly error: RpcErrorObject };

/**
 * Reads `value` as a JSON-RPC 2.0 response (`jsonrpc: "2.0"`, an `id`, and exactly one of
 * `result` or a well-formed `error`), or `undefined` when it is not one (a request, a
 * notification, anything else).
 */
export function asRpcResponse(value: unknown): RpcResponse | undefined {
  if (!isJsonObject(value) || own(value, "jsonrpc") !== "2.0" || !Object.hasOwn(value, "id")) {
    return undefined;
  }
  if (Object.hasOwn(value, "method")) return undefined;
  const hasResult = Object.hasOwn(value, "result");
  const hasError = Object.hasOwn(value, "error");
  if (hasResult === hasError) return undefined;
  const id = own(value, "id");
  if (hasResult) return { id, ok: true, result: own(value, "result") };
  const error = own(value, "error");
  if (!isJsonObject(error)) return undefined;
  const code = own(error, "code");
  const message = own(error, "message");
  if (typeof code !== "number" || !Number.isSafeInteger(code)) return undefined;
  return {
    id,
    ok: false,
    error: {
      code,
      message: typeof message === "string" ? message : "",
      data: own(error, "data"),
    },
  };
}

/** A request or notification the server sent on a response stream. */
export interface RpcInbound {
  readonly method: string;
  /** The request id, or `undefined` for a notification. */
  readonly id: string | number | undefined;
  readonly params: unknown;
}

/** Reads `value` as a JSON-RPC request or notification, or `undefined`. */
export function asRpcInbound(value: unknown): RpcInbound | undefined {
  if (!isJsonObject(value) || own(value, "jsonrpc") !== "2.0") return undefined;
  const method = own(value, "method");
  if (typeof method !== "string") return undefined;
  const id = own(value, "id");
  if (id !== undefined && typeof id !== "string" && typeof id !== "number") return undefined;
  return { method, id, params: own(value, "params") };
}

/** The seller's JSON-RPC error message, made safe to show or log: controls removed, 256 bytes. */
export function safeRpcMessage(message: string): string {
  return sanitizeSellerString(message, { maxBytes: 256 });
}

/** The error a non-`tools/call` request throws for a JSON-RPC error answer. */
export function jsonRpcError(error: RpcErrorObject): JsonRpcError {
  return new JsonRpcError(
    error.code,
    safeRpcMessage(error.message),
    error.data,
    extractAdcpErrorFromJsonRpcError({
      code: error.code,
      message: error.message,
      data: error.data,
    }),
  );
}

/**
 * Reads a non-2xx response: its JSON-RPC error when the body is one (a gateway rejecting a
 * request before dispatch answers so, often with HTTP 429, 401 or 503), else an
 * {@link HttpStatusError} carrying the `Retry-After` header (the body is cancelled unread).
 */
export async function errorStatusResponse(
  response: Response,
  call: Call,
): Promise<Extract<RpcResponse, { readonly ok: false }>> {
  const status = httpStatusError(response);
  if (bodyKind(response) === "json") {
    let value: unknown;
    try {
      value = await readJsonWithin(response, call);
    } catch (error) {
      // A gateway's HTML or empty page labelled JSON, or an oversized one: the status and its
      // Retry-After are what the caller can act on. Deadline and network failures stay as they are.
      if (isBodyError(error)) throw status;
      throw error;
    }
    const rpc = asRpcResponse(value);
    // A JSON-RPC error decides, unless a transient status (429, 408, 5xx) comes with one that
    // carries no AdCP error: then the status and its Retry-After decide, so that retry applies.
    if (rpc !== undefined && !rpc.ok) {
      if (status.adcpError === null || isJsonObject(adcpErrorOf(rpc.error))) return rpc;
    }
  } else {
    await discard(response);
  }
  throw status;
}

/**
 * Whether a body read failed on the body itself (size, syntax, encoding), not on time or network.
 */
function isBodyError(error: unknown): boolean {
  return error instanceof AdcpWireError && error.code !== "DEADLINE_EXCEEDED" &&
    error.code !== "NETWORK_ERROR";
}

/** The raw `data.adcp_error` of a JSON-RPC error object. */
function adcpErrorOf(error: RpcErrorObject): unknown {
  return isJsonObject(error.data) ? own(error.data, "adcp_error") : undefined;
}

/**
 * The error for a status outside 2xx, with its `Retry-After`, and for a 401 the signature code
 * of its `WWW-Authenticate` (one of the spec's, or none).
 */
export function httpStatusError(response: Response): HttpStatusError {
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
  if (response.status !== 401) return new HttpStatusError(response.status, retryAfter);
  const code = signatureChallengeError(response.headers.get("www-authenticate"));
  return new HttpStatusError(
    401,
    retryAfter,
    code !== undefined && isRequestSignatureErrorCode(code) ? code : undefined,
  );
}

/** Longest `Retry-After` value read, in characters (an HTTP-date is 29). */
const MAX_RETRY_AFTER_LENGTH = 64;

/**
 * A `Retry-After` header as whole seconds in [1, 3600]: delay-seconds (a finite number, rounded up
 * then clamped, as `retry_after` is: Error Handling, "Normative throttling behavior"), or an
 * HTTP-date (the seconds from `now` to it, rounded up then clamped; a date in the past gives 1).
 * `undefined` for a missing or unreadable value.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (text === "" || text.length > MAX_RETRY_AFTER_LENGTH) return undefined;
  let seconds: number;
  if (/^\d+(\.\d+)?$/.test(text)) {
    seconds = Number(text);
  } else {
    // IMF-fixdate, RFC 850 and asctime forms all start with a day name (RFC 9110, 5.6.7).
    if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/.test(text)) return undefined;
    const at = Date.parse(text);
    if (!Number.isFinite(at)) return undefined;
    seconds = (at - now) / 1000;
  }
  return normalizeRetryAfter(seconds);
}

/**
 * The operations some option objects run within: an option object registered here makes every
 * request of the call it is given to (each attempt of a retried call included) one more request of
 * that operation, sharing its byte budget and item counts and ending by its deadline. The unified
 * agent (`agent/`) registers the per-call options it hands to McpClient and A2AClient, so that a
 * call and the polls that follow it are bounded as one (a bound per request is not a bound per
 * operation). Not public: nothing outside this package can reach the map.
 */
const operations = new WeakMap<object, Call>();

/** Makes every call given `options` a request of `operation` (see {@link callFor}). */
export function joinOperation(options: object, operation: Call): void {
  operations.set(options, operation);
}

/**
 * A new call with `limits`: on its own, or, when `options` joined an operation, as a request of
 * it, its deadline the earlier of its own and the operation's.
 *
 * @throws {DeadlineExceededError} When the operation's time is up already.
 */
export function callFor(limits: ResolvedClientLimits, options: object | undefined): Call {
  const operation = options === undefined ? undefined : operations.get(options);
  if (operation === undefined) return new Call(limits);
  operation.checkDeadline();
  const remaining = Math.max(1, Math.ceil(operation.remainingMs));
  return new Call(
    remaining < limits.timeoutMs ? { ...limits, timeoutMs: remaining } : limits,
    operation,
  );
}

/** Sleeps `ms` milliseconds, or until the call's deadline fires (then throws its error). */
export function sleepWithin(ms: number, call: Call): Promise<void> {
  call.deadline.throwIfExpired();
  // Never longer than the time left (the deadline ends it then): a seller's huge SSE `retry` value
  // neither overflows a timer nor waits past the call.
  ms = Math.min(ms, call.remainingMs + 1);
  return new Promise<void>((resolve, reject) => {
    const onExpire = (): void => {
      clearTimeout(timer);
      reject(call.deadline.error);
    };
    const timer = setTimeout(() => {
      call.deadline.offExpire(onExpire);
      resolve();
    }, Math.max(0, ms));
    call.deadline.onExpire(onExpire);
  });
}

/** What the caller's own callback threw, carried past a stream's error handling unchanged. */
export class CallerError {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }

  /** The caller's error, marked so that no retry mistakes it for a transport failure. */
  unwrap(): unknown {
    if (typeof this.error === "object" && this.error !== null) thrownByCaller.add(this.error);
    return this.error;
  }
}

/** Objects a caller's own callback threw during a call: never retried, whatever their class. */
const thrownByCaller = new WeakSet<object>();

/** Whether `error` is an object a caller's callback threw (see {@link CallerError}). */
export function isCallerError(error: unknown): boolean {
  return typeof error === "object" && error !== null && thrownByCaller.has(error);
}
