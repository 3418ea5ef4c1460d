/**
 * Bounded reading of AdCP agent responses over HTTP (JSON and Server-Sent Events) and stdio: the
 * client obligation to "bound every agent response" of MCP Response Extraction 3.3.0-beta.0,
 * Security Considerations, Size Limits. Count bytes as they arrive and abort rather than
 * buffer-then-check, pre-reject an over-limit `Content-Length`, bound raw and decoded bytes, pair the
 * cap with a deadline, bound JSON depth and node count after the cap passes, and fail with a distinct
 * error instead of truncating.
 *
 * - Limits: {@linkcode resolveLimits} combines client defaults (at most 4 MiB), per-agent and
 *   per-call limits. Defaults: 4 MiB (4,194,304 bytes) per response, 30 s deadline, JSON depth 64,
 *   2,097,152 JSON values.
 * - HTTP bodies: {@linkcode readJsonResponse}, {@linkcode readTextResponse}.
 * - Server-Sent Events: {@linkcode readSseEvents} (or {@linkcode readSseEventBatches}, one array
 *   per network chunk, for throughput), bounded per event and per request across `Last-Event-ID`
 *   reconnects by one {@linkcode SseBudget} ({@linkcode createSseBudget}).
 * - stdio: {@linkcode readStdioMessages}, bounded per newline-delimited message.
 * - Third-party clients: {@linkcode boundedFetch}, a `fetch` whose response bodies enforce the caps
 *   and the deadline.
 * - Text from elsewhere: {@linkcode parseBoundedJson}.
 *
 * Every failure is one class of the {@linkcode AdcpTransportError} family, with a literal `code`:
 * {@linkcode ResponseTooLargeError} (`limit`, `observed`, `phase`), {@linkcode DeadlineExceededError},
 * {@linkcode JsonDepthLimitError}, {@linkcode JsonNodeLimitError}, {@linkcode MalformedJsonError},
 * {@linkcode MalformedUtf8Error}, {@linkcode ContentEncodingError}. The JSON bounds are checked by
 * `@adcp-wire/security` (`scanJsonDepth`, `checkJsonBounds`) and re-raised as this family's
 * `JsonDepthLimitError` / `JsonNodeLimitError`, with the same `code`s as the security package's
 * classes, so one `catch` on `AdcpTransportError` covers every way a read can fail.
 *
 * @example Reading a tool result under per-agent limits
 * ```ts
 * import { readJsonResponse, resolveLimits, ResponseTooLargeError } from "@adcp-wire/transports";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * const limits = resolveLimits({ agent: { maxResponseBytes: 64 }, call: { timeoutMs: 5_000 } });
 * const small = new Response('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}');
 * deepStrictEqual(await readJsonResponse(small, limits), {
 *   jsonrpc: "2.0",
 *   id: 1,
 *   result: { content: [] },
 * });
 *
 * const large = new Response(JSON.stringify({ padding: "x".repeat(100) }));
 * try {
 *   await readJsonResponse(large, limits);
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof ResponseTooLargeError);
 *   strictEqual(error.code, "RESPONSE_TOO_LARGE");
 *   strictEqual(error.limit, 64);
 * }
 * ```
 *
 * @module
 */

export * from "./bounded_fetch.ts";
export * from "./errors.ts";
export * from "./limits.ts";
export * from "./parse_bounded_json.ts";
export * from "./read_response.ts";
export * from "./sse.ts";
export * from "./stdio.ts";
