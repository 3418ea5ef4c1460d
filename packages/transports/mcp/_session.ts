// The wire side of an MCP session over Streamable HTTP: JSON-RPC framing, the session and
// protocol-version headers, JSON or SSE answers, resuming a dropped stream with Last-Event-ID, and
// answering the server's own requests. `McpClient` (client.ts) owns the AdCP side.
import type { JsonRecord } from "@adcp-wire/internal";
import {
  asRpcInbound,
  asRpcResponse,
  bodyKind,
  type Call,
  CallerError,
  discard,
  errorStatusResponse,
  fetchWithin,
  type HeaderRecord,
  headerRecord,
  httpStatusError,
  jsonRpcError,
  parseEventData,
  readJsonWithin,
  type RpcResponse,
  sleepWithin,
} from "../client/_rpc.ts";
import { AgentProtocolError, NetworkError } from "../errors.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";
import { readSseEvents } from "../read/sse.ts";
import { findResponse, invalid } from "./_results.ts";
import type { McpNotification } from "./types.ts";

/** Longest `Mcp-Session-Id` accepted, in characters. */
const MAX_SESSION_ID_LENGTH = 1024;
/** A session id is visible ASCII only (MCP Streamable HTTP, Session Management). */
const SESSION_ID = /^[\x21-\x7e]+$/;
/** Reconnect delay when the server sent no SSE `retry` field, in milliseconds. */
const DEFAULT_RECONNECT_DELAY_MS = 500;
/**
 * A value a header can hold: visible ASCII, space and tab, nothing else (an SSE id is any text).
 */
const HEADER_VALUE = /^[\x20-\x7e\t]*$/;

/** Most server-to-client requests one call answers (a `ping` flood is not answered past this). */
const MAX_ANSWERED_REQUESTS = 32;

interface Exchange {
  readonly method: string;
  readonly id: number | undefined;
  readonly body: string;
}

/** What an {@link McpSession} needs from its client. */
export interface McpSessionOptions {
  readonly url: string;
  readonly headers: Headers;
  readonly fetch: FetchLike | undefined;
  readonly maxReconnects: number;
  readonly onNotification: ((notification: McpNotification) => void) | undefined;
  /** Called when the server answers 404 to a request in a session: the session is gone. */
  readonly onExpired: () => void;
}

/** One MCP session's wire state and exchanges. */
export class McpSession {
  readonly #url: string;
  /** The client's own headers, copied into every request's. */
  readonly #headers: HeaderRecord;
  readonly #fetch: FetchLike | undefined;
  readonly #maxReconnects: number;
  readonly #onNotification: ((notification: McpNotification) => void) | undefined;
  readonly #onExpired: () => void;
  #nextId = 1;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;

  constructor(options: McpSessionOptions) {
    this.#url = options.url;
    this.#headers = headerRecord(options.headers);
    this.#fetch = options.fetch;
    this.#maxReconnects = options.maxReconnects;
    this.#onNotification = options.onNotification;
    this.#onExpired = options.onExpired;
  }

  /** The session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The negotiated protocol version, sent on every request once set. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  set protocolVersion(version: string | undefined) {
    this.#protocolVersion = version;
  }

  /** Forgets the session id only (`close()` sends its DELETE with the old id). */
  dropSessionId(): void {
    this.#sessionId = undefined;
  }

  /** Forgets the session id and protocol version (before a new `initialize`, or on close). */
  reset(): void {
    this.#sessionId = undefined;
    this.#protocolVersion = undefined;
  }

  /** The URL and headers of a request in this session (for `close()`'s DELETE). */
  requestHeaders(accept: string): HeaderRecord {
    return this.#requestHeaders(accept);
  }

  /** The endpoint URL. */
  get url(): string {
    return this.#url;
  }

  /** The `fetch` in use. */
  get fetch(): FetchLike | undefined {
    return this.#fetch;
  }

  /** Sends a request whose JSON-RPC error is thrown; returns the `result`. */
  async resultOf(method: string, params: unknown, call: Call): Promise<unknown> {
    const response = await this.request(method, params, call);
    if (!response.ok) throw jsonRpcError(response.error);
    return response.result;
  }

  /** Sends a request and returns its checked JSON-RPC response. */
  async request(method: string, params: unknown, call: Call): Promise<RpcResponse> {
    return (await this.exchange(this.message(method, params), call))!;
  }

  /** Serializes one message (a request with a fresh id, or a notification). */
  message(method: string, params: unknown, isRequest = true): Exchange {
    const message: JsonRecord = { jsonrpc: "2.0" };
    const id = isRequest ? this.#nextId++ : undefined;
    if (id !== undefined) message.id = id;
    message.method = method;
    if (params !== undefined) message.params = params;
    return { method, id, body: JSON.stringify(message) };
  }

  /** POSTs one message; for a request, reads the answer (JSON or SSE, resuming the stream). */
  async exchange(exchange: Exchange, call: Call): Promise<RpcResponse | undefined> {
    const sentSession = this.#sessionId;
    const headers = this.#requestHeaders("application/json, text/event-stream");
    headers["content-type"] = "application/json";
    const response = await fetchWithin(this.#fetch, this.#url, {
      method: "POST",
      headers,
      body: exchange.body,
    }, call);
    if (response.status === 404 && sentSession !== undefined) {
      await discard(response);
      this.#sessionId = undefined;
      this.#onExpired();
      throw new AgentProtocolError(
        "session_expired",
        "an answer within the session",
        "HTTP 404 (session not found)",
        404,
      );
    }
    if (response.status < 200 || response.status > 299) {
      const rpc = await errorStatusResponse(response, call);
      if (exchange.id === undefined) throw jsonRpcError(rpc.error);
      return rpc;
    }
    if (exchange.method === "initialize") {
      try {
        this.#takeSessionId(response);
      } catch (error) {
        await discard(response); // refused before its body was read: release the connection
        throw error;
      }
    }
    if (exchange.id === undefined) {
      // A notification: 202 Accepted, no body expected.
      await discard(response);
      return undefined;
    }
    const kind = bodyKind(response);
    if (kind === "json") {
      return findResponse(await readJsonWithin(response, call), exchange.id);
    }
    if (kind === "sse") return await this.#readStream(response, exchange.id, call);
    await discard(response);
    throw new AgentProtocolError(
      "content_type",
      "application/json or text/event-stream",
      response.status === 202 ? "HTTP 202 without a body" : "another Content-Type",
      response.status,
    );
  }

  /** A fresh record of the request headers (see {@link HeaderRecord}). */
  #requestHeaders(accept: string): HeaderRecord {
    const headers = { ...this.#headers };
    headers.accept = accept;
    if (this.#sessionId !== undefined) headers["mcp-session-id"] = this.#sessionId;
    if (this.#protocolVersion !== undefined) {
      headers["mcp-protocol-version"] = this.#protocolVersion;
    }
    return headers;
  }

  #takeSessionId(response: Response): void {
    const sessionId = response.headers.get("mcp-session-id");
    if (sessionId === null) return;
    if (sessionId.length > MAX_SESSION_ID_LENGTH || !SESSION_ID.test(sessionId)) {
      throw invalid(
        `an Mcp-Session-Id of visible ASCII, at most ${MAX_SESSION_ID_LENGTH} characters`,
        "another value",
      );
    }
    this.#sessionId = sessionId;
  }

  /** Reads SSE streams until the response to `id` arrives, resuming with Last-Event-ID. */
  async #readStream(first: Response, id: number, call: Call): Promise<RpcResponse> {
    let response: Response | undefined = first;
    for (let reconnects = 0;; reconnects++) {
      let dropped: unknown;
      try {
        for await (const event of readSseEvents(response, { budget: call.budget })) {
          call.countEvent();
          if (event.data === "") continue; // priming event (an id, no message)
          const value = parseEventData(event.data, call);
          const messages = Array.isArray(value) ? value : [value];
          for (let index = 0; index < messages.length; index++) {
            if (index > 0) call.countEvent(); // each message of a batch counts as an event
            const message = messages[index];
            const rpc = asRpcResponse(message);
            if (rpc !== undefined) {
              if (rpc.id === id) return rpc;
              continue;
            }
            await this.#inbound(message, call);
          }
        }
      } catch (error) {
        if (error instanceof CallerError) throw error.unwrap(); // the caller's own callback threw
        if (call.deadline.expired) throw call.deadline.error;
        // A network failure mid-stream is resumable like an early end; anything else is final.
        if (!(error instanceof NetworkError)) throw error;
        dropped = error;
      }
      const lastEventId = call.budget.lastEventId;
      if (lastEventId === undefined) {
        if (dropped !== undefined) throw dropped;
        throw new AgentProtocolError(
          "stream_ended",
          "the JSON-RPC response before the SSE stream ended",
          "the end of a stream without an event id to resume from",
        );
      }
      if (reconnects >= this.#maxReconnects) {
        throw new AgentProtocolError(
          "reconnect_limit",
          `the response within ${this.#maxReconnects} reconnects`,
          "the stream end again",
        );
      }
      // The id goes back in a header: a value a header cannot hold is refused, not sent.
      if (!HEADER_VALUE.test(lastEventId)) {
        throw invalid("an SSE id usable as a Last-Event-ID header", "another value");
      }
      await sleepWithin(call.budget.retryMs ?? DEFAULT_RECONNECT_DELAY_MS, call);
      const headers = this.#requestHeaders("text/event-stream");
      headers["last-event-id"] = lastEventId;
      response = await fetchWithin(this.#fetch, this.#url, { method: "GET", headers }, call);
      if (response.status < 200 || response.status > 299) {
        await discard(response);
        throw httpStatusError(response);
      }
      if (bodyKind(response) !== "sse") {
        await discard(response);
        throw new AgentProtocolError(
          "content_type",
          "a text/event-stream answer to the Last-Event-ID reconnect",
          "another Content-Type",
          response.status,
        );
      }
    }
  }

  /** Handles a server request or notification seen on a response stream. */
  async #inbound(message: unknown, call: Call): Promise<void> {
    const inbound = asRpcInbound(message);
    if (inbound === undefined) return;
    if (inbound.id === undefined) {
      const onNotification = this.#onNotification;
      if (onNotification !== undefined) {
        try {
          onNotification({ method: inbound.method, params: inbound.params });
        } catch (error) {
          throw new CallerError(error);
        }
      }
      return;
    }
    // A server may ask for little: a flood of requests is not answered past a few per call.
    if (++call.answered > MAX_ANSWERED_REQUESTS) return;
    const answer: JsonRecord = inbound.method === "ping"
      ? { jsonrpc: "2.0", id: inbound.id, result: {} }
      : {
        jsonrpc: "2.0",
        id: inbound.id,
        error: { code: -32601, message: "Method not supported by this client" },
      };
    const headers = this.#requestHeaders("application/json, text/event-stream");
    headers["content-type"] = "application/json";
    await discard(
      await fetchWithin(this.#fetch, this.#url, {
        method: "POST",
        headers,
        body: JSON.stringify(answer),
      }, call),
    );
  }
}
