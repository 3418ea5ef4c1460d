import { normalizeRetryAfter } from "@adcp-wire/recovery";
import type { ExtractedAdcpError } from "@adcp-wire/core";
import { isJsonObject as isObject, own } from "@adcp-wire/internal";

/**
 * `retry_after` of a translated 429 whose `Retry-After` is absent or not a number of seconds.
 *
 * @example The delay a 429 without a usable Retry-After gets
 * ```ts
 * import {
 *   DEFAULT_UPSTREAM_RETRY_AFTER_SECONDS,
 *   translateUpstreamError,
 * } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_UPSTREAM_RETRY_AFTER_SECONDS, 10);
 * const headers = { "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" }; // an HTTP-date is not used
 * const error = translateUpstreamError(new Response(null, { status: 429, headers }));
 * strictEqual(error.retry_after, DEFAULT_UPSTREAM_RETRY_AFTER_SECONDS);
 * ```
 */
export const DEFAULT_UPSTREAM_RETRY_AFTER_SECONDS = 10;

/**
 * Translates the failure of an upstream service a seller called (its own API, a database, another
 * agent) into an AdCP error for the buyer, as Transport Error Mapping, "Error Translation in Agent
 * Chains" requires:
 *
 * - an HTTP 429 becomes `RATE_LIMITED` (`transient`), with `retry_after` from a numeric
 *   `Retry-After` header (delay-seconds, rounded up and clamped to [1, 3600]), else 10 s; an
 *   HTTP-date `Retry-After` is not used, so the buyer's delay never depends on the seller's clock;
 * - an HTTP 5xx becomes `SERVICE_UNAVAILABLE` (`transient`): "Service temporarily unavailable";
 * - anything else (another status, a thrown `Error`, a timeout, any value) becomes
 *   `SERVICE_UNAVAILABLE` (`transient`): "An internal error occurred". Rule 2: a failure the
 *   seller can fix without the buyer is never `correctable`.
 *
 * Nothing of the upstream failure reaches the buyer beyond the status class and the retry delay:
 * no body, message, header or stack ("Never expose upstream details to the buyer"). Send the
 * result with {@linkcode adcpErrorResult} (tool level) or, for `RATE_LIMITED` and
 * `SERVICE_UNAVAILABLE` before dispatch, {@linkcode adcpJsonRpcError}. An upstream AdCP agent's own
 * `adcp_error` is not translated but passed through, unchanged, with {@linkcode forwardAdcpError}
 * (Rule 3: intermediaries "preserve or translate, never drop").
 *
 * @param upstream A `Response`, an object with a numeric `status` and optional `headers` (a
 * `Headers` or a plain record), or anything else (a caught error).
 * @returns A new AdCP error with `code`, `message`, `recovery` and, for 429, `retry_after`.
 *
 * @example Translating a 429 and a crash
 * ```ts
 * import { translateUpstreamError } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(
 *   translateUpstreamError(new Response(null, { status: 429, headers: { "retry-after": "7.5" } })),
 *   { code: "RATE_LIMITED", message: "Request rate exceeded", recovery: "transient", retry_after: 8 },
 * );
 * deepStrictEqual(translateUpstreamError(new Error("ECONNREFUSED 10.0.0.7:5432")), {
 *   code: "SERVICE_UNAVAILABLE",
 *   message: "An internal error occurred",
 *   recovery: "transient",
 * });
 * ```
 */
export function translateUpstreamError(upstream: unknown): ExtractedAdcpError {
  const status = statusOf(upstream);
  if (status === 429) {
    return {
      code: "RATE_LIMITED",
      message: "Request rate exceeded",
      recovery: "transient",
      retry_after: retryAfterOf(upstream) ?? DEFAULT_UPSTREAM_RETRY_AFTER_SECONDS,
    };
  }
  if (status !== undefined && status >= 500 && status <= 599) {
    return {
      code: "SERVICE_UNAVAILABLE",
      message: "Service temporarily unavailable",
      recovery: "transient",
    };
  }
  return {
    code: "SERVICE_UNAVAILABLE",
    message: "An internal error occurred",
    recovery: "transient",
  };
}

function statusOf(upstream: unknown): number | undefined {
  if (upstream instanceof Response) return upstream.status;
  if (!isObject(upstream) && !(upstream instanceof Error)) return undefined;
  const status = own(upstream as Record<string, unknown>, "status");
  return typeof status === "number" && Number.isInteger(status) ? status : undefined;
}

/** A numeric `Retry-After` (delay-seconds), rounded up and clamped, or `undefined`. */
function retryAfterOf(upstream: unknown): number | undefined {
  let value: unknown;
  const headers = upstream instanceof Response
    ? upstream.headers
    : own(upstream as Record<string, unknown>, "headers");
  if (headers instanceof Headers) {
    value = headers.get("retry-after");
  } else if (isObject(headers)) {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === "retry-after") value = own(headers, key);
    }
  }
  if (Array.isArray(value)) value = value[0];
  if (typeof value === "number") value = String(value);
  if (typeof value !== "string" || !/^\s*\d+(?:\.\d+)?\s*$/.test(value)) return undefined;
  return normalizeRetryAfter(Number(value));
}
