import { RedirectRefusedError } from "../errors.ts";
import { type BoundedBody, openResponseBody } from "./_body.ts";
import { cancelLate, Deadline, networkFailure, untilDeadline } from "./_deadline.ts";
import { anySignal, isResolved, resolveCallLimits, RESPONSE_LIMIT_NAMES } from "./_limits.ts";
import { isRedirect } from "./_redirect.ts";
import { SseEventSizer } from "./_sse_sizer.ts";
import type { ResponseLimits } from "./limits.ts";
import type { ReadProgress } from "./read_response.ts";
import { notShown, optionError, type OptionKeys, optionKeys } from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/** What boundedFetch does, for its option errors. */
const ACTION = "create a bounded fetch";

/** The shape of `fetch` that {@link boundedFetch} takes and returns. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options of {@link boundedFetch}: the limits every response gets, and a progress hook. */
export interface BoundedFetchOptions extends ResponseLimits {
  /**
   * Called after each body chunk is counted; see {@link ReadResponseOptions.onProgress}.
   * @default {undefined}
   */
  readonly onProgress?: ((progress: ReadProgress) => void) | undefined;
}

/** The keys of {@link BoundedFetchOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<BoundedFetchOptions>({
  ...RESPONSE_LIMIT_NAMES,
  onProgress: true,
});

/**
 * Wraps `fetch` so that every response body it returns enforces the limits, for third-party clients
 * (an MCP or A2A SDK's `fetch` option) that read bodies themselves. The deadline covers the headers
 * and the whole body, redirects are refused, and a body errors the moment it passes its cap. What a
 * wrapper cannot bound, and what the MCP SDK does with its errors, is in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param limits The limits of every response (combine layers with {@link resolveLimits}).
 * @param fetchImpl The `fetch` to wrap, looked up on `globalThis` at each call when omitted.
 * @returns A `fetch`-compatible function, whose responses are new `Response` objects with the
 * original status, headers, `url`, `redirected` and `type`.
 * @throws {TypeError} At once, when an option has the wrong type or an unknown key, or `fetchImpl`
 * is not a function.
 * @throws {RangeError} At once, when a limit is out of range.
 *
 * @example Bounding what a fake MCP agent sends
 * ```ts
 * import { boundedFetch } from "@adcp-wire/transports/read";
 * import { adcpSuccessResult } from "@adcp-wire/transports/seller";
 * import { fakeMcpAgent } from "@adcp-wire/transports/testing";
 * import { rejects } from "node:assert/strict";
 *
 * const big = () => adcpSuccessResult({ blob: "x".repeat(2_000) });
 * const fetch = boundedFetch({ maxResponseBytes: 1_000 }, fakeMcpAgent({ tools: { big } }));
 * const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big" } };
 * const body = JSON.stringify(call);
 * const response = await fetch("https://agent.example/mcp", { method: "POST", body });
 * await rejects(response.text(), { code: "RESPONSE_TOO_LARGE", phase: "raw" });
 * ```
 */
export function boundedFetch(limits?: BoundedFetchOptions, fetchImpl?: FetchLike): FetchLike {
  // Limits resolved already (resolveLimits) are not checked again.
  if (!isResolved(limits)) checkKeys(ACTION, "limits", limits, OPTION_KEYS);
  const resolved = resolveCallLimits(limits, "limits", null);
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
    const signal = own == null ? deadline.signal : anySignal([deadline.signal, own]);
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
