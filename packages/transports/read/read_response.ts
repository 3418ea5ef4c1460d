import { parseJsonWithin } from "./_json.ts";
import { assertReadable, readBody, readerSettings } from "./_read_body.ts";
import { decodeUtf8 } from "./_utf8_decoder.ts";
import type { ContentDecoding, ReadProgress } from "./_body.ts";
import type { ReadResponseOptions } from "./_read_body.ts";
export type { ReadResponseOptions };
export type { ContentDecoding, ReadProgress };

/**
 * Reads a response body as UTF-8 text, bounded in bytes and time.
 *
 * Implements the client obligation to bound every agent response (MCP Response Extraction
 * 3.3.0-beta.0, Security Considerations, Size Limits): a declared `Content-Length` over the limit is
 * rejected before a body byte is read; bytes are counted as they arrive and the body is cancelled
 * (releasing the connection) as soon as a limit is passed, so at most the limit plus one chunk is
 * ever buffered; raw and decoded bytes are bounded (see {@linkcode ContentDecoding}); the deadline
 * covers the whole read, stalls included, and starts when this function is called. Failure is a
 * distinct error, never a truncated result.
 *
 * Decoding is fatal: malformed UTF-8 is a {@linkcode MalformedUtf8Error}, never U+FFFD. A leading
 * byte order mark is dropped. A response without a body (204, HEAD) reads as `""`.
 *
 * @param response The response; its body must not have been read.
 * @param options Limits (per call; combine layers with {@linkcode resolveLimits}) and reader
 * options.
 * @returns The body text.
 * @throws {ResponseTooLargeError} When the declared length, the raw bytes or the decoded bytes pass
 * their limit (`phase` says which).
 * @throws {DeadlineExceededError} When `timeoutMs` runs out or `signal` times out first.
 * @throws {MalformedUtf8Error} When the body is not UTF-8.
 * @throws {ContentEncodingError} With `contentDecoding: "manual"`, when the coding is unsupported
 * or the compressed data is corrupt.
 * @throws {TypeError} When `response` is not a Response, its body was already read, or an option
 * has the wrong type; also network errors, unchanged.
 * @throws {RangeError} When a limit is out of range.
 *
 * @example Reading a body, and refusing an oversized one
 * ```ts
 * import { readTextResponse, ResponseTooLargeError } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * strictEqual(await readTextResponse(new Response("hello")), "hello");
 *
 * const big = new Response("x".repeat(2_000), { headers: { "content-length": "2000" } });
 * try {
 *   await readTextResponse(big, { maxResponseBytes: 1_000 });
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof ResponseTooLargeError);
 *   strictEqual(error.phase, "content-length");
 *   strictEqual(error.observed, 2_000);
 * }
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
 * Reads a response body as JSON, bounded in bytes, time, nesting depth and node count.
 *
 * Everything {@linkcode readTextResponse} does, then the JSON bounds "after the cap passes" (MCP
 * Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits): a string-aware depth
 * pre-scan before `JSON.parse` (so a depth bomb is never built) and a node count after it. Use it
 * for every JSON response a client reads: `tools/call`, `tools/list`, `initialize`, `tasks/get`,
 * `tasks/result`, A2A JSON-RPC calls.
 *
 * @param response The response; its body must not have been read.
 * @param options Limits (per call; combine layers with {@linkcode resolveLimits}) and reader
 * options.
 * @returns The parsed value; validate it before use, it is seller-controlled.
 * @throws {ResponseTooLargeError} When the declared length, the raw bytes or the decoded bytes pass
 * their limit.
 * @throws {DeadlineExceededError} When `timeoutMs` runs out or `signal` times out first.
 * @throws {MalformedUtf8Error} When the body is not UTF-8.
 * @throws {JsonDepthLimitError} When the JSON nests deeper than `maxJsonDepth`.
 * @throws {MalformedJsonError} When the body is not JSON (an empty body included).
 * @throws {JsonNodeLimitError} When the JSON holds more than `maxJsonNodes` values.
 * @throws {ContentEncodingError} With `contentDecoding: "manual"`, when the coding is unsupported
 * or the compressed data is corrupt.
 * @throws {TypeError} When `response` is not a Response, its body was already read, or an option
 * has the wrong type; also network errors, unchanged.
 * @throws {RangeError} When a limit is out of range.
 *
 * @example Reading JSON, and refusing a depth bomb
 * ```ts
 * import { JsonDepthLimitError, readJsonResponse } from "@adcp-wire/transports";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(await readJsonResponse(new Response('{"jsonrpc":"2.0","id":1,"result":{}}')), {
 *   jsonrpc: "2.0",
 *   id: 1,
 *   result: {},
 * });
 *
 * try {
 *   await readJsonResponse(new Response("[".repeat(1_000) + "]".repeat(1_000)));
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof JsonDepthLimitError);
 *   strictEqual(error.limit, 64);
 *   strictEqual(error.observed, 65);
 * }
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
