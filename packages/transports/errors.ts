import type { ExtractedAdcpError } from "@adcp-wire/core";
import type { RequestSignatureErrorCode } from "@adcp-wire/signing";
import { AdcpWireError } from "@adcp-wire/internal";
import {
  AdcpSecurityError,
  JsonDepthLimitError,
  JsonNodeLimitError,
  sanitizeSellerString,
} from "@adcp-wire/security";

// Why one file past 600 lines: the whole family (base, codes, union and thirteen classes) is
// declared together, as jose's `util/errors.ts` does, so a reader sees every code in one place.
//
// The error family of @adcp-wire/transports: conditions a caller is expected to catch when an
// agent's response breaks a safety bound. Programmer errors (bad options) are TypeError/RangeError.
//
// The JSON depth and node bounds are checked by @adcp-wire/security and thrown as its
// `JsonDepthLimitError` / `JsonNodeLimitError`, declared once there and re-exported here; they are
// members of `AnyTransportError`. Every class here and there extends `AdcpWireError`, so one
// `instanceof AdcpWireError` catches every way reading a response can fail.

export { AdcpSecurityError, AdcpWireError, JsonDepthLimitError, JsonNodeLimitError };
export type { AdcpSecurityErrorCode } from "@adcp-wire/security";

/**
 * The literal `code` of every error in the `@adcp-wire/transports` family.
 */
export type AdcpTransportErrorCode =
  | "RESPONSE_TOO_LARGE"
  | "DEADLINE_EXCEEDED"
  | "MALFORMED_JSON"
  | "MALFORMED_UTF8"
  | "CONTENT_ENCODING"
  | "AGENT_PROTOCOL"
  | "JSONRPC_ERROR"
  | "REDIRECT_REFUSED"
  | "NETWORK_ERROR"
  | "HTTP_STATUS"
  | "ITEM_LIMIT"
  | "ADAGENTS_DISCOVERY"
  | "RESPONSE_SCHEMA";

/**
 * Base class of the `@adcp-wire/transports` error family: every way reading an agent response can
 * fail a safety bound, and every way an agent's answer can be unusable to {@link McpClient}
 * and {@link A2AClient}. Catch it to handle them all, or narrow on
 * {@link AdcpTransportError.code}.
 *
 * Failures of the network itself (refused, reset, DNS, TLS) are {@link NetworkError}; only a
 * caller's own cancellation (the reason of the caller's `AbortSignal`) is passed through unchanged.
 *
 * @example Narrowing on the code
 * ```ts
 * import { AdcpTransportError, readTextResponse } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * try {
 *   await readTextResponse(new Response("0123456789"), { maxResponseBytes: 4 });
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof AdcpTransportError);
 *   strictEqual(error.code, "RESPONSE_TOO_LARGE");
 * }
 * ```
 */
export abstract class AdcpTransportError extends AdcpWireError {
  /** Stable machine-readable identifier of the condition. */
  abstract override readonly code: AdcpTransportErrorCode;
}

/**
 * Where a size bound was hit:
 *
 * - `"content-length"`: the declared `Content-Length` was over `maxResponseBytes`, rejected before
 *   a body byte was read.
 * - `"raw"`: the bytes received on the wire passed `maxResponseBytes`.
 * - `"decoded"`: the bytes after content decoding (gzip, deflate, br) passed `maxDecodedBytes`.
 * - `"event"`: one Server-Sent Event passed `maxResponseBytes`.
 * - `"cumulative"`: the bytes of one operation, across every response it read (SSE reconnects,
 *   `tools/list` pages, task polls, stream frames), passed `maxResponseBytes`.
 * - `"message"`: one newline-delimited stdio message passed `maxResponseBytes`. (An addition to
 *   the five HTTP phases: stdio has its own per-message bound.)
 * - `"data-part"`: the A2A DataPart the extraction selected passed `maxDataPartBytes` (A2A
 *   Response Extraction, Security Considerations, Size Limits).
 */
export type ResponseSizePhase =
  | "content-length"
  | "raw"
  | "decoded"
  | "event"
  | "cumulative"
  | "message"
  | "data-part";

const PHASE_SUBJECT: Record<ResponseSizePhase, string> = {
  "content-length": "declared Content-Length",
  raw: "body",
  decoded: "decoded body",
  event: "one SSE event",
  cumulative: "bytes for one operation",
  message: "one stdio message",
  "data-part": "one A2A DataPart",
};

/**
 * A response passed a size bound. Reading stopped there and the body was cancelled: nothing is
 * returned, nothing is truncated.
 *
 * Implements "count bytes as they arrive and abort rather than buffer-then-check, pre-reject an
 * over-limit `Content-Length`, bound raw and decoded bytes [...] and fail with a distinct error
 * instead of truncating" (MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size
 * Limits).
 *
 * `observed` is the count when reading stopped: for `"content-length"` the declared length; for the
 * streamed phases the bytes counted, which passes `limit` by at most the last chunk read.
 *
 * @example Reading the structured fields
 * ```ts
 * import { ResponseTooLargeError } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const error = new ResponseTooLargeError(4_194_304, 4_259_840, "raw");
 * strictEqual(
 *   error.message,
 *   "Cannot read response: body exceeded 4194304 bytes (observed 4259840)",
 * );
 * deepStrictEqual(error.cause, { limit: 4_194_304, observed: 4_259_840, phase: "raw" });
 * ```
 */
export class ResponseTooLargeError extends AdcpTransportError {
  /** Always `"RESPONSE_TOO_LARGE"`. */
  readonly code: "RESPONSE_TOO_LARGE" = "RESPONSE_TOO_LARGE";
  /** Always `"ResponseTooLargeError"`. */
  override readonly name: "ResponseTooLargeError" = "ResponseTooLargeError";
  /** The bound, in bytes. */
  readonly limit: number;
  /** The byte count when reading stopped (the declared length for `"content-length"`). */
  readonly observed: number;
  /** Which bound was hit. */
  readonly phase: ResponseSizePhase;

  /**
   * Creates the error.
   *
   * @param limit The bound, in bytes.
   * @param observed The byte count when reading stopped.
   * @param phase Which bound was hit.
   */
  constructor(limit: number, observed: number, phase: ResponseSizePhase) {
    super(
      `Cannot read response: ${
        PHASE_SUBJECT[phase]
      } exceeded ${limit} bytes (observed ${observed})`,
      { cause: { limit, observed, phase } },
    );
    this.limit = limit;
    this.observed = observed;
    this.phase = phase;
  }
}

/**
 * Reading a response did not finish before its deadline. The body was cancelled.
 *
 * Implements "pair the cap with a deadline" (MCP Response Extraction 3.3.0-beta.0, Security
 * Considerations, Size Limits): a server that drips bytes slowly, or stalls, cannot hold a reader
 * forever while staying under the byte cap.
 *
 * Raised when `timeoutMs` runs out, and also when the caller's `signal` aborts with a
 * `TimeoutError` (as `AbortSignal.timeout()` does); `timeoutMs` is then `undefined`. Any other
 * abort reason is rethrown as it is.
 *
 * @example Reading the structured fields
 * ```ts
 * import { DeadlineExceededError } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new DeadlineExceededError(30_000, 30_004);
 * strictEqual(
 *   error.message,
 *   "Cannot read response: deadline of 30000 ms exceeded (elapsed 30004 ms)",
 * );
 * strictEqual(error.code, "DEADLINE_EXCEEDED");
 * ```
 */
export class DeadlineExceededError extends AdcpTransportError {
  /** Always `"DEADLINE_EXCEEDED"`. */
  readonly code: "DEADLINE_EXCEEDED" = "DEADLINE_EXCEEDED";
  /** Always `"DeadlineExceededError"`. */
  override readonly name: "DeadlineExceededError" = "DeadlineExceededError";
  /** The deadline in milliseconds, or `undefined` when a caller's timeout signal fired. */
  readonly timeoutMs: number | undefined;
  /** Milliseconds from the start of the deadline to when it fired (whole milliseconds). */
  readonly elapsedMs: number;

  /**
   * Creates the error.
   *
   * @param timeoutMs The deadline in milliseconds, or `undefined` when a signal fired.
   * @param elapsedMs Milliseconds elapsed when the deadline fired.
   * @param cause The abort reason of the caller's signal, when that is what fired.
   */
  constructor(timeoutMs: number | undefined, elapsedMs: number, cause?: unknown) {
    const elapsed = Math.round(elapsedMs);
    super(
      timeoutMs === undefined
        ? `Cannot read response: the caller's timeout signal fired (elapsed ${elapsed} ms)`
        : `Cannot read response: deadline of ${timeoutMs} ms exceeded (elapsed ${elapsed} ms)`,
      { cause: cause === undefined ? { timeoutMs, elapsedMs: elapsed } : cause },
    );
    this.timeoutMs = timeoutMs;
    this.elapsedMs = elapsed;
  }
}

/**
 * Why a body was not accepted as JSON: `"syntax"` when `JSON.parse` rejected it (an empty body
 * included), `"unterminated"` when a newline-delimited stdio stream ended inside a message.
 */
export type MalformedJsonReason = "syntax" | "unterminated";

/**
 * A response (or one stdio message) is not valid JSON. The message never quotes the body:
 * `JSON.parse` errors embed a snippet of the input, which is seller-controlled.
 *
 * @example Reading the reason
 * ```ts
 * import { MalformedJsonError } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new MalformedJsonError("syntax", 12);
 * strictEqual(
 *   error.message,
 *   "Cannot read response: expected JSON, saw 12 characters that do not parse",
 * );
 * strictEqual(error.reason, "syntax");
 * ```
 */
export class MalformedJsonError extends AdcpTransportError {
  /** Always `"MALFORMED_JSON"`. */
  readonly code: "MALFORMED_JSON" = "MALFORMED_JSON";
  /** Always `"MalformedJsonError"`. */
  override readonly name: "MalformedJsonError" = "MalformedJsonError";
  /** Why the text was not accepted. */
  readonly reason: MalformedJsonReason;
  /** Size of the rejected text in UTF-16 code units (`"syntax"`) or bytes (`"unterminated"`). */
  readonly length: number;

  /**
   * Creates the error.
   *
   * @param reason Why the text was not accepted.
   * @param length Size of the rejected text.
   */
  constructor(reason: MalformedJsonReason, length: number) {
    super(
      reason === "syntax"
        ? `Cannot read response: expected JSON, saw ${length} characters that do not parse`
        : `Cannot read response: expected a newline after each message, saw the stream end ` +
          `after ${length} bytes of an unterminated message`,
      { cause: { reason, length } },
    );
    this.reason = reason;
    this.length = length;
  }
}

/**
 * A response body is not valid UTF-8. Decoding is fatal: malformed bytes are an error, never
 * replaced with U+FFFD, so what a caller parses is exactly what the server sent.
 *
 * @example Catching malformed UTF-8
 * ```ts
 * import { MalformedUtf8Error, readTextResponse } from "@adcp-wire/transports";
 * import { ok } from "node:assert/strict";
 *
 * try {
 *   await readTextResponse(new Response(new Uint8Array([0x7b, 0xff, 0x7d])));
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof MalformedUtf8Error);
 * }
 * ```
 */
export class MalformedUtf8Error extends AdcpTransportError {
  /** Always `"MALFORMED_UTF8"`. */
  readonly code: "MALFORMED_UTF8" = "MALFORMED_UTF8";
  /** Always `"MalformedUtf8Error"`. */
  override readonly name: "MalformedUtf8Error" = "MalformedUtf8Error";

  /** Creates the error. */
  constructor() {
    super("Cannot read response: expected UTF-8 text, saw a malformed byte sequence");
  }
}

/**
 * Why a content coding could not be applied: `"unsupported"` when the runtime has no decoder for
 * it, `"corrupt"` when the compressed bytes are invalid, `"not_requested"` when a client asked for
 * `identity` and the agent used a coding anyway.
 */
export type ContentEncodingReason = "unsupported" | "corrupt" | "not_requested";

/**
 * A body in a content coding that could not be decoded: raised when the caller asked to decode
 * the body itself (`contentDecoding: "manual"`, reasons `"unsupported"` and `"corrupt"`), and by
 * {@link McpClient}, {@link A2AClient} and {@link fetchAgentCard} when an agent answers
 * in a content coding although the request asked for `Accept-Encoding: identity` (reason
 * `"not_requested"`: its raw bytes could not be bounded).
 *
 * `encoding` is the seller's `Content-Encoding` token, reduced to printable ASCII and at most 64
 * characters so that it is safe to log.
 *
 * @example Reading the fields
 * ```ts
 * import { ContentEncodingError } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new ContentEncodingError("zstd", "unsupported");
 * strictEqual(
 *   error.message,
 *   'Cannot read response: expected gzip, deflate or br, saw Content-Encoding "zstd"',
 * );
 * ```
 */
export class ContentEncodingError extends AdcpTransportError {
  /** Always `"CONTENT_ENCODING"`. */
  readonly code: "CONTENT_ENCODING" = "CONTENT_ENCODING";
  /** Always `"ContentEncodingError"`. */
  override readonly name: "ContentEncodingError" = "ContentEncodingError";
  /** The content coding, sanitized. */
  readonly encoding: string;
  /** Why it could not be applied. */
  readonly reason: ContentEncodingReason;

  /**
   * Creates the error.
   *
   * @param encoding The content coding (sanitized here).
   * @param reason Why it could not be applied.
   */
  constructor(encoding: string, reason: ContentEncodingReason) {
    const safe = encoding.replace(/[^\x20-\x7e]/g, "?").slice(0, 64);
    super(
      reason === "unsupported"
        ? `Cannot read response: expected gzip, deflate or br, saw Content-Encoding "${safe}"`
        : reason === "not_requested"
        ? `Cannot read response: expected no content coding (Accept-Encoding: identity), saw ` +
          `Content-Encoding "${safe}"`
        : `Cannot read response: body is not valid "${safe}" data`,
      { cause: { encoding: safe, reason } },
    );
    this.encoding = safe;
    this.reason = reason;
  }
}

/**
 * Why an agent's answer could not be used by {@link McpClient} or {@link A2AClient}:
 *
 * - `"http_status"`: an HTTP status the protocol does not allow there, without a JSON-RPC error
 *   body (`status` holds it).
 * - `"content_type"`: a body that is neither `application/json` nor `text/event-stream` where one
 *   of them was required.
 * - `"invalid_message"`: JSON that is not the expected JSON-RPC response (no matching `id`, no
 *   `result` object, a `result` of the wrong shape, a malformed session id).
 * - `"stream_ended"`: an SSE stream ended before the response arrived and could not be resumed
 *   (no event id to resume from).
 * - `"session_expired"`: the server answered 404 to a request carrying an `Mcp-Session-Id`: the
 *   session is gone and the client must `connect()` again (MCP Streamable HTTP, Session
 *   Management).
 * - `"unsupported_version"`: `initialize` negotiated an MCP protocol version this client does not
 *   speak.
 * - `"page_limit"`: `tools/list` kept returning a `nextCursor` past the page bound, or repeated a
 *   cursor.
 * - `"reconnect_limit"`: an SSE stream dropped more often than the reconnect bound allows.
 * - `"agent_card"`: the A2A agent card has no usable JSON-RPC interface (none declared, or its URL
 *   is neither `https:` nor loopback `http:`).
 * - `"adcp_profile"`: an A2A answer breaks the AdCP A2A Profile Extension v3 the request activated
 *   (the `message` branch of a `SendMessage` answer, AdCP Submitted work outside an A2A completed
 *   Task, the AdCP `task_id` copied into metadata, ...); the message names the rule's code, one
 *   of `AdcpProfileResponseCode`.
 */
export type AgentProtocolReason =
  | "content_type"
  | "invalid_message"
  | "stream_ended"
  | "session_expired"
  | "unsupported_version"
  | "page_limit"
  | "reconnect_limit"
  | "agent_card"
  | "adcp_profile";

/**
 * An agent answered in a way the MCP or A2A protocol does not allow, so the call has no usable
 * result. Never carries seller text: `detail` is written by this package.
 *
 * @example Reading the reason
 * ```ts
 * import { AgentProtocolError } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new AgentProtocolError("content_type", "application/json", "text/html", 200);
 * strictEqual(
 *   error.message,
 *   "Cannot use agent response: expected application/json, saw text/html",
 * );
 * strictEqual(error.code, "AGENT_PROTOCOL");
 * strictEqual(error.status, 200);
 * ```
 */
export class AgentProtocolError extends AdcpTransportError {
  /** Always `"AGENT_PROTOCOL"`. */
  readonly code: "AGENT_PROTOCOL" = "AGENT_PROTOCOL";
  /** Always `"AgentProtocolError"`. */
  override readonly name: "AgentProtocolError" = "AgentProtocolError";
  /** What was wrong. */
  readonly reason: AgentProtocolReason;
  /** The HTTP status of the response, when there was one. */
  readonly status: number | undefined;

  /**
   * Creates the error.
   *
   * @param reason What was wrong.
   * @param expected What the protocol required (written by this package, never seller text).
   * @param seen What arrived instead (idem).
   * @param status The HTTP status, when there was a response.
   */
  constructor(reason: AgentProtocolReason, expected: string, seen: string, status?: number) {
    super(`Cannot use agent response: expected ${expected}, saw ${seen}`, {
      cause: { reason, status },
    });
    this.reason = reason;
    this.status = status;
  }
}

/**
 * An agent answered a request other than `tools/call` (`initialize`, `tools/list`, `tasks/get`,
 * `tasks/result`, A2A `GetTask` ...) with a JSON-RPC error. A `tools/call` or A2A message send
 * returns such errors as a result member instead of throwing.
 *
 * `adcpError` is the validated `error.data.adcp_error` (Transport Error Mapping, "Client
 * Detection Order" step 4), so `withRetry` of `@adcp-wire/recovery`, whose default
 * `extractError` reads a thrown value's `adcpError`, retries a `-32029` rate limit on its own.
 * `rpcMessage` is the seller's message with control, zero-width and bidi characters removed and
 * cut to 256 UTF-8 bytes; it is not part of `message`, which is safe to log as it is.
 *
 * @example Reading the fields
 * ```ts
 * import { JsonRpcError } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new JsonRpcError(-32029, "Rate limit exceeded", undefined, {
 *   code: "RATE_LIMITED",
 *   retry_after: 5,
 * });
 * strictEqual(error.message, "Agent answered with JSON-RPC error -32029 (AdCP code RATE_LIMITED)");
 * strictEqual(error.adcpError?.code, "RATE_LIMITED");
 * ```
 */
export class JsonRpcError extends AdcpTransportError {
  /** Always `"JSONRPC_ERROR"`. */
  readonly code: "JSONRPC_ERROR" = "JSONRPC_ERROR";
  /** Always `"JsonRpcError"`. */
  override readonly name: "JsonRpcError" = "JsonRpcError";
  /** The JSON-RPC `error.code`. */
  readonly rpcCode: number;
  /** The JSON-RPC `error.message`, sanitized (seller-controlled). */
  readonly rpcMessage: string;
  /** The JSON-RPC `error.data`, raw (seller-controlled). */
  readonly data: unknown;
  /** The validated `error.data.adcp_error`, or `null`. */
  readonly adcpError: ExtractedAdcpError | null;

  /**
   * Creates the error.
   *
   * @param rpcCode The JSON-RPC error code.
   * @param rpcMessage The JSON-RPC error message, already sanitized.
   * @param data The JSON-RPC error data.
   * @param adcpError The validated AdCP error it carries, or `null`.
   */
  constructor(
    rpcCode: number,
    rpcMessage: string,
    data: unknown,
    adcpError: ExtractedAdcpError | null,
  ) {
    const adcp = adcpError === null ? "" : ` (AdCP code ${safeCode(adcpError.code)})`;
    super(`Agent answered with JSON-RPC error ${rpcCode}${adcp}`, {
      cause: { rpcCode, adcpCode: adcpError?.code },
    });
    this.rpcCode = rpcCode;
    this.rpcMessage = rpcMessage;
    this.data = data;
    this.adcpError = adcpError;
  }
}

/** An AdCP code reduced to the characters a code may hold, for messages that get logged. */
function safeCode(code: string): string {
  return code.replace(/[^A-Za-z0-9_]/g, "?");
}

/**
 * Any error of the `@adcp-wire/transports` family, discriminated by `code`.
 */
export type AnyTransportError =
  | ResponseTooLargeError
  | DeadlineExceededError
  | JsonDepthLimitError
  | JsonNodeLimitError
  | MalformedJsonError
  | MalformedUtf8Error
  | ContentEncodingError
  | AgentProtocolError
  | JsonRpcError
  | RedirectRefusedError
  | NetworkError
  | HttpStatusError
  | ItemLimitError
  | AdagentsDiscoveryError
  | ResponseSchemaError;

/**
 * An agent answered with a redirect (HTTP 3xx), and the library never follows one: a seller could
 * otherwise send the request body and the caller's headers to another origin, or aim the client at
 * a reserved address (Security, "Webhook URL validation (SSRF)", step 4: "Refuse to follow
 * redirects when fetching counterparty-controlled URLs"). No request is sent to the `Location`.
 *
 * @example A 308 to another origin is refused
 * ```ts
 * import { fetchAgentCard, RedirectRefusedError } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const headers = { location: "http://169.254.169.254/" };
 * const fetch = () => Promise.resolve(new Response(null, { status: 308, headers }));
 * const cardUrl = "https://sales.example/.well-known/agent-card.json";
 * const error = await fetchAgentCard(cardUrl, { fetch }).catch((thrown: unknown) => thrown);
 * ok(error instanceof RedirectRefusedError);
 * strictEqual(error.code, "REDIRECT_REFUSED");
 * strictEqual(error.status, 308);
 * ```
 */
export class RedirectRefusedError extends AdcpTransportError {
  /** Always `"REDIRECT_REFUSED"`. */
  readonly code: "REDIRECT_REFUSED" = "REDIRECT_REFUSED";
  /** Always `"RedirectRefusedError"`. */
  override readonly name: "RedirectRefusedError" = "RedirectRefusedError";
  /** The HTTP status (`0` for a browser's opaque redirect, whose status is hidden). */
  readonly status: number;

  /**
   * Creates the error.
   *
   * @param status The redirect's HTTP status.
   */
  constructor(status: number) {
    super(`Cannot use agent response: expected no redirect, saw HTTP ${status} (not followed)`, {
      cause: { status },
    });
    this.status = status;
  }
}

/**
 * The request failed before an answer arrived: connection refused or reset, DNS or TLS failure,
 * a body that broke off. Network errors are transient (Error Handling, "Protocol Errors": retry
 * with exponential backoff), so {@link NetworkError.adcpError} is a transient
 * `SERVICE_UNAVAILABLE`, which the clients' `retry` option and `withRetry` of
 * `@adcp-wire/recovery` retry. The message names no cause: the runtime's error is kept in `cause`
 * for local logs only (Security, "Webhook URL validation (SSRF)", step 6: do not echo fetch errors
 * to the counterparty).
 *
 * @example A refused connection
 * ```ts
 * import { McpClient, NetworkError } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const client = new McpClient("https://agent.example/mcp", {
 *   fetch: () => Promise.reject(new TypeError("error sending request: Connection refused")),
 * });
 * const error = await client.connect().catch((thrown: unknown) => thrown);
 * ok(error instanceof NetworkError);
 * strictEqual(error.code, "NETWORK_ERROR");
 * strictEqual(error.adcpError.recovery, "transient");
 * ```
 */
export class NetworkError extends AdcpTransportError {
  /** Always `"NETWORK_ERROR"`. */
  readonly code: "NETWORK_ERROR" = "NETWORK_ERROR";
  /** Always `"NetworkError"`. */
  override readonly name: "NetworkError" = "NetworkError";
  /** The AdCP error this failure stands for: a transient `SERVICE_UNAVAILABLE`. */
  readonly adcpError: ExtractedAdcpError & { readonly recovery: "transient" };

  /**
   * Creates the error.
   *
   * @param cause What the runtime threw (kept for local logs; never part of `message`).
   */
  constructor(cause: unknown) {
    super("Cannot reach agent: the request failed before an answer arrived", { cause });
    this.adcpError = {
      code: "SERVICE_UNAVAILABLE",
      message: "The agent could not be reached",
      recovery: "transient",
    };
  }
}

/**
 * An agent answered with a status outside 2xx and no usable protocol error in the body.
 *
 * `429`, `408` and `5xx` are transient: {@link HttpStatusError.adcpError} is then
 * `RATE_LIMITED` (429) or `SERVICE_UNAVAILABLE`, with `retry_after` from the `Retry-After` header
 * when it has one (delay-seconds or an HTTP-date, rounded up and clamped to [1, 3600] as
 * `retry_after` is: Error Handling, "Normative throttling behavior"), so the clients' `retry`
 * option and `withRetry` of `@adcp-wire/recovery` wait that long before retrying. Other statuses
 * carry `adcpError: null` and are not retried. A 401 that refuses a signed request names the
 * spec's reason in `signatureError` (from `WWW-Authenticate: Signature error="<code>"`).
 *
 * @example A 429 with Retry-After
 * ```ts
 * import { fetchAgentCard, HttpStatusError } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const fetch = () =>
 *   Promise.resolve(new Response("busy", { status: 429, headers: { "retry-after": "7" } }));
 * const cardUrl = "https://sales.example/.well-known/agent-card.json";
 * const error = await fetchAgentCard(cardUrl, { fetch }).catch((thrown: unknown) => thrown);
 * ok(error instanceof HttpStatusError);
 * strictEqual(error.status, 429);
 * strictEqual(error.retryAfterSeconds, 7);
 * strictEqual(error.adcpError?.code, "RATE_LIMITED");
 * ```
 */
export class HttpStatusError extends AdcpTransportError {
  /** Always `"HTTP_STATUS"`. */
  readonly code: "HTTP_STATUS" = "HTTP_STATUS";
  /** Always `"HttpStatusError"`. */
  override readonly name: "HttpStatusError" = "HttpStatusError";
  /** The HTTP status. */
  readonly status: number;
  /** The `Retry-After` header as whole seconds in [1, 3600], or `undefined`. */
  readonly retryAfterSeconds: number | undefined;
  /** The transient AdCP error this status stands for (429, 408, 5xx), or `null`. */
  readonly adcpError: ExtractedAdcpError | null;
  /**
   * Why the seller refused the request's signature: the spec's code in the `WWW-Authenticate:
   * Signature error="<code>"` of a 401 (security.mdx, "`WWW-Authenticate` format"), such as
   * `request_signature_key_unknown`; `undefined` when the answer named none, or named a value
   * that is not one of the spec's codes (never seller text).
   */
  readonly signatureError: RequestSignatureErrorCode | undefined;

  /**
   * Creates the error.
   *
   * @param status The HTTP status.
   * @param retryAfterSeconds The normalized `Retry-After`, if any.
   * @param signatureError The signature code of a 401's `WWW-Authenticate`, if any.
   */
  constructor(
    status: number,
    retryAfterSeconds?: number,
    signatureError?: RequestSignatureErrorCode,
  ) {
    const why = signatureError === undefined ? "" : ` (signature refused: ${signatureError})`;
    super(`Cannot use agent response: expected a 2xx status, saw HTTP ${status}${why}`, {
      cause: { status, retryAfterSeconds, signatureError },
    });
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.signatureError = signatureError;
    const transient = status === 429 || status === 408 || (status >= 500 && status <= 599);
    this.adcpError = transient
      ? {
        code: status === 429 ? "RATE_LIMITED" : "SERVICE_UNAVAILABLE",
        message: `The agent answered HTTP ${status}`,
        recovery: "transient",
        ...(retryAfterSeconds === undefined ? {} : { retry_after: retryAfterSeconds }),
      }
      : null;
  }
}

/**
 * What an {@link ItemLimitError} counted.
 */
export type LimitedItem = "tools" | "events" | "artifacts" | "parts";

/**
 * One client operation collected more items than its cap allows: tools over every `tools/list`
 * page (`maxTools`), SSE events over every stream and reconnect (`maxEvents`), artifacts
 * (`maxArtifacts`) or parts (`maxParts`) of an A2A task over every frame. The caps bound the work
 * and memory of one call whatever the seller sends; see {@link ClientLimits}.
 *
 * @example Reading the fields
 * ```ts
 * import { ItemLimitError } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new ItemLimitError("tools", 4_096, 4_097);
 * strictEqual(
 *   error.message,
 *   "Cannot use agent response: more than 4096 tools in one call (observed 4097)",
 * );
 * strictEqual(error.code, "ITEM_LIMIT");
 * ```
 */
export class ItemLimitError extends AdcpTransportError {
  /** Always `"ITEM_LIMIT"`. */
  readonly code: "ITEM_LIMIT" = "ITEM_LIMIT";
  /** Always `"ItemLimitError"`. */
  override readonly name: "ItemLimitError" = "ItemLimitError";
  /** What was counted. */
  readonly item: LimitedItem;
  /** The cap. */
  readonly limit: number;
  /** The count when reading stopped (`limit + 1`). */
  readonly observed: number;

  /**
   * Creates the error.
   *
   * @param item What was counted.
   * @param limit The cap.
   * @param observed The count when reading stopped.
   */
  constructor(item: LimitedItem, limit: number, observed: number) {
    super(
      `Cannot use agent response: more than ${limit} ${item} in one call (observed ${observed})`,
      { cause: { item, limit, observed } },
    );
    this.item = item;
    this.limit = limit;
    this.observed = observed;
  }
}

/**
 * Why an `adagents.json` fetch was refused by its redirect and SSRF policy or by the shape of the
 * file (`docs/bounded-reading.md`, "adagents.json discovery", has the full rules):
 *
 * - `"invalid_url"`: the URL to fetch (the domain or URL given, or an `authoritative_location`)
 *   is not an absolute URL, is over 2,048 characters, or has a malformed host.
 * - `"not_https"`: the URL to fetch is not `https:` (`http:` needs `allowHttp`).
 * - `"userinfo"`: a URL to fetch or a redirect `Location` carries userinfo (`user@host`).
 * - `"reserved_address"`: its host is `localhost` or a reserved IP literal (Security, "Webhook URL
 *   validation (SSRF)", step 2; `allowReservedAddresses` lifts it).
 * - `"invalid_location"`: a redirect without a usable `Location` (missing, over 2,048
 *   characters, not printable ASCII, unparsable, or a host with a trailing dot or empty label).
 * - `"scheme_downgrade"`: a redirect to a scheme other than `https:` (`http:` to `http:` is
 *   tolerated with `allowHttp`; `https:` to `http:` never).
 * - `"cross_registrable_domain"`: a redirect off the registrable domain (eTLD+1, Public Suffix
 *   List with its private section) of the originally requested host.
 * - `"no_registrable_domain"`: a redirect from a requested host that has no registrable domain (an
 *   IP literal, `localhost`, a bare public suffix such as `github.io`), so none can be followed.
 * - `"too_many_redirects"`: a redirect past the cap (`maxRedirects`, at most and by default 3).
 * - `"redirect_on_authoritative_location"`: any redirect on the `authoritative_location` fetch.
 * - `"unsupported_redirect_status"`: a 3xx that is not a redirect to follow (300, 304, 305, 306,
 *   309 to 399).
 * - `"opaque_redirect"`: a browser's opaque redirect (`redirect: "manual"` hides its `Location`).
 * - `"followed_by_fetch"`: the `fetch` followed a redirect itself (`redirected: true`).
 * - `"not_an_object"`: the file is JSON but not an object.
 * - `"nested_authoritative_location"`: the authoritative file has an `authoritative_location`.
 */
export type AdagentsDiscoveryReason =
  | "invalid_url"
  | "not_https"
  | "userinfo"
  | "reserved_address"
  | "invalid_location"
  | "scheme_downgrade"
  | "cross_registrable_domain"
  | "no_registrable_domain"
  | "too_many_redirects"
  | "redirect_on_authoritative_location"
  | "unsupported_redirect_status"
  | "opaque_redirect"
  | "followed_by_fetch"
  | "not_an_object"
  | "nested_authoritative_location";

const DISCOVERY_DETAIL: Record<AdagentsDiscoveryReason, string> = {
  invalid_url: "expected an absolute URL with a well-formed host, saw one that is not",
  not_https: "expected an https: URL, saw another scheme",
  userinfo: "expected a URL without userinfo, saw one with userinfo",
  reserved_address: "expected a public host, saw localhost or a reserved IP address",
  invalid_location: "expected a redirect with a usable Location, saw a missing or malformed one",
  scheme_downgrade: "expected a redirect to https:, saw one to another scheme",
  cross_registrable_domain:
    "expected a redirect within the requested registrable domain, saw one to another",
  no_registrable_domain:
    "expected a requested host with a registrable domain, saw an IP address or a public suffix",
  too_many_redirects: "expected no more redirects than the cap, saw another",
  redirect_on_authoritative_location:
    "expected no redirect on the authoritative_location fetch, saw one",
  unsupported_redirect_status:
    "expected a 2xx status or a 301, 302, 303, 307 or 308 redirect, saw another 3xx",
  opaque_redirect: "expected a readable redirect, saw an opaque one (its Location is hidden)",
  followed_by_fetch: "expected fetch to return redirects unfollowed, saw one it followed",
  not_an_object: "expected a JSON object, saw another JSON value",
  nested_authoritative_location:
    "expected an authoritative file without authoritative_location, saw one",
};

/**
 * An `adagents.json` fetch was refused: a redirect its policy does not follow, a URL its SSRF
 * checks refuse, or a file of the wrong shape. A refused redirect is never requested. `reason`
 * says which rule ({@link AdagentsDiscoveryReason}); the message names no seller string.
 *
 * Spec: managed-networks.mdx, "Why not HTTP redirects?" and "Security considerations"; Security,
 * "Webhook URL validation (SSRF)", step 4.
 *
 * @example Reading the fields
 * ```ts
 * import { AdagentsDiscoveryError } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new AdagentsDiscoveryError("cross_registrable_domain", 302, 1);
 * strictEqual(
 *   error.message,
 *   "Cannot fetch adagents.json: expected a redirect within the requested registrable domain, " +
 *     "saw one to another (HTTP 302 after 1 redirect)",
 * );
 * strictEqual(error.code, "ADAGENTS_DISCOVERY");
 * strictEqual(error.reason, "cross_registrable_domain");
 * ```
 */
export class AdagentsDiscoveryError extends AdcpTransportError {
  /** Always `"ADAGENTS_DISCOVERY"`. */
  readonly code: "ADAGENTS_DISCOVERY" = "ADAGENTS_DISCOVERY";
  /** Always `"AdagentsDiscoveryError"`. */
  override readonly name: "AdagentsDiscoveryError" = "AdagentsDiscoveryError";
  /** Which rule refused the fetch. */
  readonly reason: AdagentsDiscoveryReason;
  /** The HTTP status of the refused answer, or `undefined` when no answer was involved. */
  readonly status: number | undefined;
  /** How many redirects had been followed when the fetch was refused. */
  readonly redirects: number;

  /**
   * Creates the error.
   *
   * @param reason Which rule refused the fetch.
   * @param status The HTTP status of the refused answer, if one was involved.
   * @param redirects How many redirects had been followed.
   */
  constructor(reason: AdagentsDiscoveryReason, status?: number, redirects = 0) {
    const where = status === undefined
      ? ""
      : ` (HTTP ${status} after ${redirects} redirect${redirects === 1 ? "" : "s"})`;
    super(`Cannot fetch adagents.json: ${DISCOVERY_DETAIL[reason]}${where}`, {
      cause: { reason, status, redirects },
    });
    this.reason = reason;
    this.status = status;
    this.redirects = redirects;
  }
}

/** One way a payload failed its schema: where, what was expected, and which keyword refused it. */
export interface SchemaIssue {
  /** RFC 6901 JSON Pointer into the payload (`""`: its root). */
  readonly pointer: string;
  /** What was expected. */
  readonly message: string;
  /** The JSON Schema keyword that refused the value. */
  readonly keyword: string;
}

/**
 * A task payload failed the pinned schema of its task, and the caller asked for validation
 * (`validate: true` of `AdcpAgent.call`): the answer is not usable as the task's response. The
 * issues come from `@adcp-wire/validation`; their messages are written by it (never seller text),
 * and the pointers name the payload's fields (seller-chosen keys: the one in `message` is
 * sanitized and cut to 128 bytes, `issues` are as reported).
 *
 * @example Reading the fields
 * ```ts
 * import { ResponseSchemaError } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new ResponseSchemaError("get_products", ["media-buy/get-products-response.json"], [
 *   { pointer: "/products", message: "Expected an array", keyword: "type" },
 * ]);
 * strictEqual(
 *   error.message,
 *   "Cannot use agent response: the get_products payload fails " +
 *     "media-buy/get-products-response.json at /products (Expected an array)",
 * );
 * strictEqual(error.code, "RESPONSE_SCHEMA");
 * ```
 */
export class ResponseSchemaError extends AdcpTransportError {
  /** Always `"RESPONSE_SCHEMA"`. */
  readonly code: "RESPONSE_SCHEMA" = "RESPONSE_SCHEMA";
  /** Always `"ResponseSchemaError"`. */
  override readonly name: "ResponseSchemaError" = "ResponseSchemaError";
  /** The task whose payload failed. */
  readonly task: string;
  /** The schemas applied, in order. */
  readonly schemas: readonly string[];
  /** Why, as `@adcp-wire/validation` reports it (the failure that stopped validation last). */
  readonly issues: readonly SchemaIssue[];

  /**
   * Creates the error.
   *
   * @param task The task name.
   * @param schemas The schemas applied.
   * @param issues The issues found (at least one).
   */
  constructor(task: string, schemas: readonly string[], issues: readonly SchemaIssue[]) {
    const last = issues.at(-1);
    const pointer = last === undefined
      ? ""
      : sanitizeSellerString(last.pointer, { maxBytes: 128 }) || "/";
    const where = last === undefined ? "" : ` at ${pointer} (${last.message})`;
    super(
      `Cannot use agent response: the ${task} payload fails ${schemas.at(-1) ?? "its schema"}` +
        where,
      { cause: { task, schemas, issues } },
    );
    this.task = task;
    this.schemas = Object.freeze([...schemas]);
    this.issues = Object.freeze([...issues]);
  }
}
