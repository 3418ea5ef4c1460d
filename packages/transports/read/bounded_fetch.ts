import { RedirectRefusedError } from "../errors.ts";
import { type BoundedBody, openResponseBody } from "./_body.ts";
import { cancelLate, Deadline, networkFailure, untilDeadline } from "./_deadline.ts";
import { resolveCallLimits } from "./_limits.ts";
import { isRedirect } from "./_redirect.ts";
import { SseEventSizer } from "./_sse_sizer.ts";
import type { ResponseLimits } from "./limits.ts";
import type { ReadProgress } from "./read_response.ts";
import { notShown } from "./_not_shown.ts";
import { optionError } from "@adcp-wire/internal";

/** What boundedFetch does, for its option errors. */
const ACTION = "create a bounded fetch";

/**
 * The shape of `fetch` that {@linkcode boundedFetch} takes and returns.
 *
 * @example An in-process `fetch`, wrapped
 * ```ts
 * import { boundedFetch, type FetchLike } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const agent: FetchLike = (input) => Promise.resolve(Response.json({ url: String(input) }));
 * const fetch: FetchLike = boundedFetch({ maxResponseBytes: 1_000 }, agent);
 * const response = await fetch("https://agent.example/mcp");
 * deepStrictEqual(await response.json(), { url: "https://agent.example/mcp" });
 * ```
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Options of {@linkcode boundedFetch}: the limits every response gets, and a progress hook.
 *
 * @example Watching a body being counted
 * ```ts
 * import { boundedFetch, type BoundedFetchOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const seen: number[] = [];
 * const options: BoundedFetchOptions = {
 *   maxResponseBytes: 1_000,
 *   onProgress: (progress) => seen.push(progress.decodedBytes),
 * };
 * const fetch = boundedFetch(options, () => Promise.resolve(new Response("x".repeat(300))));
 * await (await fetch("https://agent.example/mcp")).text();
 * deepStrictEqual(seen, [300]);
 * ```
 */
export interface BoundedFetchOptions extends ResponseLimits {
  /**
   * Called after each body chunk is counted; see {@linkcode ReadResponseOptions.onProgress}.
   * @default {undefined}
   */
  readonly onProgress?: ((progress: ReadProgress) => void) | undefined;
}

/**
 * Wraps `fetch` so that every response body it returns enforces the limits: for handing to
 * third-party clients (an MCP or A2A SDK's `fetch` option) that read bodies themselves.
 *
 * Per call: the deadline (`timeoutMs`, and `signal`) starts when the call is made and covers the
 * response headers and the whole body, stalls included; it is passed to the underlying `fetch` as a
 * signal, combined with the request's own. A declared `Content-Length` over the limit rejects the
 * call itself, before a body byte is read. The body is then counted as it arrives and errors with a
 * {@linkcode ResponseTooLargeError} the moment it passes the cap (the underlying body is cancelled,
 * releasing the connection), or with a {@linkcode DeadlineExceededError}. A `text/event-stream` body
 * is also bounded per event (phase `"event"`). These are the obligations of MCP Response
 * Extraction 3.3.0-beta.0, Security Considerations, Size Limits, as far as a `fetch` can enforce
 * them.
 *
 * What a `fetch` wrapper cannot do, so prefer this package's readers where you control the reading:
 * - JSON depth and node bounds: the client parses the body itself. Use {@linkcode readJsonResponse}.
 * - The cumulative SSE bound across `Last-Event-ID` resumption: each reconnect is a new `fetch`
 *   with a fresh cap, since nothing ties it to the request it resumes. Use {@linkcode readSseEvents}
 *   with one {@linkcode SseBudget}.
 * - Raw bytes of a compressed body: the runtime's `fetch` decodes it (see
 *   {@linkcode ContentDecoding}); decoded bytes are capped at `maxDecodedBytes`.
 * - A long-lived stream (an MCP client's standalone GET SSE stream) is cut by the per-call deadline
 *   and cap like any other body.
 *
 * Whether the error reaches your code depends on the client. As read in the MCP TypeScript SDK's
 * `StreamableHTTPClientTransport` (src/client/streamableHttp.ts, version at commit 01e62f3 of
 * modelcontextprotocol/typescript-sdk; other versions may differ):
 * - `application/json` responses are read with `response.json()` in `send()`, which passes the
 *   rejection to `onerror` and rethrows it: the request fails with this package's error class.
 * - `text/event-stream` responses are read in `_handleSseStream`, whose loop catches stream errors
 *   and calls `onerror(new Error("SSE stream disconnected: " + error))`: the class and `code` are
 *   lost (only the message survives inside a new message), the pending request is not rejected by
 *   the transport (it fails later on the protocol layer's request timeout,
 *   `DEFAULT_REQUEST_TIMEOUT_MSEC` = 60,000 ms in src/shared/protocol.ts), and when the stream is
 *   resumable (a GET stream, or a POST stream that sent an event id) the transport schedules a
 *   reconnect with `Last-Event-ID`, which gets a fresh cap from this wrapper.
 * - For error statuses the body is read with `response.text().catch(() => null)`: the bound still
 *   stops the read, but its error is swallowed.
 *
 * @param limits The limits of every response (combine layers with {@linkcode resolveLimits}).
 * @param fetchImpl The `fetch` to wrap, looked up on `globalThis` at each call when omitted.
 * @returns A `fetch`-compatible function. The returned responses are new `Response` objects with the
 * original status, headers, `url`, `redirected` and `type`.
 * @throws {TypeError} At once, when an option has the wrong type or `fetchImpl` is not a function.
 * @throws {RangeError} At once, when a limit is out of range.
 *
 * @example Bounding responses for a third-party client
 * ```ts
 * import { boundedFetch, ResponseTooLargeError } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const server = () => Promise.resolve(new Response("x".repeat(10_000)));
 * const fetch = boundedFetch({ maxResponseBytes: 1_000, timeoutMs: 5_000 }, server);
 * const response = await fetch("https://agent.example/mcp");
 * strictEqual(response.status, 200);
 * try {
 *   await response.text();
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof ResponseTooLargeError);
 *   strictEqual(error.phase, "raw");
 * }
 * ```
 */
export function boundedFetch(limits?: BoundedFetchOptions, fetchImpl?: FetchLike): FetchLike {
  const resolved = resolveCallLimits(limits, "limits");
  const onProgress = limits?.onProgress;
  if (onProgress !== undefined && typeof onProgress !== "function") {
    throw optionError(TypeError, ACTION, "limits.onProgress", "a function", onProgress);
  }
  if (fetchImpl !== undefined && typeof fetchImpl !== "function") {
    throw optionError(TypeError, ACTION, "fetchImpl", "a function", fetchImpl);
  }
  return async (input, init) => {
    const deadline = new Deadline(resolved.timeoutMs, resolved.signal);
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const signal = own == null ? deadline.signal : AbortSignal.any([deadline.signal, own]);
    // Redirects are never followed (Security, "Webhook URL validation (SSRF)", step 4): a caller
    // that asks for `redirect: "manual"` gets the 3xx to handle itself; any other mode gets a
    // RedirectRefusedError, and no request goes to the Location.
    const manual = (init?.redirect ?? (input instanceof Request ? input.redirect : "follow")) ===
      "manual";
    let response: Response;
    const pending = Promise.resolve((fetchImpl ?? globalThis.fetch)(input, {
      ...init,
      redirect: "manual",
      signal,
    }));
    try {
      // Raced with the deadline: a `fetch` that ignores its signal cannot hold the call past it.
      response = await untilDeadline(pending, deadline);
    } catch (error) {
      cancelLate(pending);
      const thrown = networkFailure(error, deadline, own);
      deadline.dispose();
      throw thrown;
    }
    if (!(response instanceof Response)) {
      deadline.dispose();
      throw optionError(
        TypeError,
        "fetch the response",
        "fetchImpl(input, init)",
        "a Response or a promise of one",
        notShown(response),
      );
    }
    if (isRedirect(response) && !(manual && !response.redirected)) {
      deadline.dispose();
      await response.body?.cancel().catch(() => {});
      throw new RedirectRefusedError(response.status);
    }
    const body = response.body;
    if (body === null || response.status < 200 || response.status > 599) {
      deadline.dispose();
      return response;
    }
    let reader: BoundedBody;
    try {
      const contentType = response.headers.get("content-type") ?? "";
      reader = await openResponseBody(response, body, {
        limits: resolved,
        deadline,
        contentEncoding: response.headers.get("content-encoding"),
        contentDecoding: "runtime",
        onProgress,
        eventSizer: /^\s*text\/event-stream\s*(;|$)/i.test(contentType)
          ? new SseEventSizer(resolved.maxResponseBytes)
          : undefined,
      });
    } catch (error) {
      deadline.dispose();
      throw error;
    }
    const finish = async (): Promise<void> => {
      deadline.dispose();
      await reader.close();
    };
    const bounded = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Uint8Array | undefined;
        try {
          chunk = await reader.read();
        } catch (error) {
          await finish();
          throw error;
        }
        if (chunk === undefined) {
          await finish();
          controller.close();
        } else {
          controller.enqueue(chunk);
        }
      },
      async cancel(reason) {
        await reader.fail(reason);
        await finish();
      },
    }, { highWaterMark: 0 });
    const wrapped = new Response(bounded, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperties(wrapped, {
      url: { value: response.url },
      redirected: { value: response.redirected },
      type: { value: response.type },
    });
    return wrapped;
  };
}
