import { parseJsonWithin } from "./_json.ts";
import { assertReadable, readBody, readerSettings } from "./_read_body.ts";
import { decodeUtf8 } from "./_utf8_decoder.ts";
import type { ContentDecoding, ReadProgress } from "./_body.ts";
import type { ReadResponseOptions } from "./_read_body.ts";
export type { ReadResponseOptions };
export type { ContentDecoding, ReadProgress };

/**
 * Reads a response body as UTF-8 text, bounded in bytes and time: a declared `Content-Length` over
 * the limit is refused before a byte is read, bytes are counted as they arrive, and the body is
 * cancelled the moment a bound is passed. Failure is a distinct error, never a truncated result;
 * how bytes are counted is in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param response The response; its body must not have been read.
 * @param options Limits (per call; combine layers with {@link resolveLimits}) and reader options.
 * @returns The body text, a leading byte order mark dropped (`""` for a response without a body).
 * @throws {ResponseTooLargeError} When a byte bound is passed (`phase` says which).
 * @throws {DeadlineExceededError} When `timeoutMs` runs out or `signal` times out first.
 * @throws {MalformedUtf8Error} When the body is not UTF-8.
 * @throws {ContentEncodingError} With manual decoding, for an unsupported or corrupt coding.
 * @throws {NetworkError} When the body breaks off.
 * @throws {TypeError} When `response` is not an unread Response, or an option has the wrong type
 * or an unknown key.
 * @throws {RangeError} When a limit is out of range.
 *
 * @example Reading a body, and refusing an oversized one
 * ```ts
 * import { readTextResponse } from "@adcp-wire/transports/read";
 * import { rejects, strictEqual } from "node:assert/strict";
 *
 * strictEqual(await readTextResponse(new Response("hello")), "hello");
 * const big = new Response("x".repeat(2_000), { headers: { "content-length": "2000" } });
 * await rejects(readTextResponse(big, { maxResponseBytes: 1_000 }), { phase: "content-length" });
 * ```
 */
export async function readTextResponse(
  response: Response,
  options?: ReadResponseOptions,
): Promise<string> {
  assertReadable(response);
  const settings = readerSettings(options);
  return decodeUtf8(await readBody(response, settings));
}

/**
 * Reads a response body as JSON: everything {@link readTextResponse} does, then the JSON bounds of
 * {@link parseBoundedJson}, a depth pre-scan before `JSON.parse` and a node count after it. Use it
 * for every JSON response a client reads; the rules are in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param response The response; its body must not have been read.
 * @param options Limits (per call; combine layers with {@link resolveLimits}) and reader options.
 * @returns The parsed value; validate it before use, it is seller-controlled.
 * @throws {ResponseTooLargeError} When a byte bound is passed (`phase` says which).
 * @throws {DeadlineExceededError} When `timeoutMs` runs out or `signal` times out first.
 * @throws {MalformedJsonError} When the body is not JSON (an empty body included).
 * @throws {JsonDepthLimitError} When the JSON nests deeper than `maxJsonDepth`.
 * @throws {JsonNodeLimitError} When the JSON holds more than `maxJsonNodes` values.
 * @throws {MalformedUtf8Error | ContentEncodingError | NetworkError | TypeError | RangeError} As
 * {@link readTextResponse}.
 *
 * @example Reading JSON, and refusing a depth bomb
 * ```ts
 * import { JsonDepthLimitError, readJsonResponse } from "@adcp-wire/transports/read";
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 *
 * deepStrictEqual(await readJsonResponse(new Response('{"id":1}')), { id: 1 });
 * await rejects(readJsonResponse(new Response("[".repeat(1_000))), JsonDepthLimitError);
 * ```
 */
export async function readJsonResponse(
  response: Response,
  options?: ReadResponseOptions,
): Promise<unknown> {
  assertReadable(response);
  const settings = readerSettings(options);
  const text = decodeUtf8(await readBody(response, settings));
  return parseJsonWithin(text, settings.limits.maxJsonDepth, settings.limits.maxJsonNodes);
}
