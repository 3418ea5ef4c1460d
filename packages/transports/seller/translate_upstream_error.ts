import { normalizeRetryAfter } from "@adcp-wire/recovery";
import type { ExtractedAdcpError } from "@adcp-wire/core";
import { isJsonObject as isObject, own } from "@adcp-wire/internal";

/**
 * `retry_after` of a translated 429 whose `Retry-After` is absent or not a number of seconds: 10.
 */
export const DEFAULT_UPSTREAM_RETRY_AFTER_SECONDS = 10;

/**
 * Translates the failure of an upstream service a seller called (its own API, a database, another
 * agent) into an AdCP error for the buyer: an HTTP 429 becomes `RATE_LIMITED`, anything else
 * `SERVICE_UNAVAILABLE`, both `transient`. Nothing of the failure reaches the buyer beyond the
 * status class and the retry delay; the rules are in `docs/outgoing-errors.md`.
 *
 * Spec: Transport Error Mapping, Error Translation in Agent Chains.
 *
 * @param upstream A `Response`, an object with a numeric `status` and optional `headers` (a
 * `Headers` or a plain record), or anything else (a caught error).
 * @returns A new AdCP error with `code`, `message`, `recovery` and, for 429, `retry_after`.
 *
 * @example Translating a 429 and a crash
 * ```ts
 * import { translateUpstreamError } from "@adcp-wire/transports/seller";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const limited = new Response(null, { status: 429, headers: { "retry-after": "7.5" } });
 * strictEqual(translateUpstreamError(limited).retry_after, 8);
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
