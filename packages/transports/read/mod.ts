/**
 * Bounded reading of agent responses: HTTP bodies ({@link readJsonResponse},
 * {@link readTextResponse}), Server-Sent Events ({@link readSseEvents}), newline-delimited stdio
 * ({@link readStdioMessages}), a `fetch` whose bodies are bounded ({@link boundedFetch}), text
 * from elsewhere ({@link parseBoundedJson}), the limits they share ({@link resolveLimits}), and
 * adagents.json discovery under its redirect policy ({@link fetchAdagentsJson},
 * {@link fetchAuthoritativeAdagentsJson}, {@link discoverAdagents}).
 * Every reader counts bytes as they arrive, pairs the cap with a deadline, bounds JSON depth and
 * node count, and fails with a distinct error instead of truncating (MCP Response Extraction,
 * Security Considerations, Size Limits). The rules are in `docs/bounded-reading.md`.
 *
 * @example Reading a JSON body under per-agent limits
 * ```ts
 * import {
 *   readJsonResponse,
 *   resolveLimits,
 *   ResponseTooLargeError,
 * } from "@adcp-wire/transports/read";
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 *
 * const limits = resolveLimits({ agentLimits: { maxResponseBytes: 64 } });
 * deepStrictEqual(await readJsonResponse(new Response('{"ok":true}'), limits), { ok: true });
 * await rejects(readJsonResponse(new Response("x".repeat(100)), limits), ResponseTooLargeError);
 * ```
 *
 * @module
 */

export * from "../errors.ts";
// Named by the public API (the `adcpError` of some error classes), re-exported so that these docs
// are complete on their own.
export type { AdcpErrorFieldName, ExtractedAdcpError } from "@adcp-wire/core";
export * from "./bounded_fetch.ts";
export * from "./fetch_adagents_json.ts";
export * from "./limits.ts";
export * from "./parse_bounded_json.ts";
export * from "./read_response.ts";
export * from "./sse.ts";
export * from "./stdio.ts";
