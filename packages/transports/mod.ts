/**
 * The transport layer of AdCP for buyers and sellers: bounded reading of agent responses, thin
 * MCP and A2A clients built on it that hand back typed AdCP results, and seller-side helpers that
 * produce what buyers extract.
 *
 * Buyers:
 * - {@linkcode McpClient}: MCP Streamable HTTP (`initialize`, sessions, `tools/list` pagination,
 *   `tools/call`, MCP tasks, JSON and SSE answers, `Last-Event-ID` resumption). A call returns an
 *   {@linkcode McpCallResult}: success data, a structured error with its recovery decision
 *   (JSON-RPC errors, the reserved `-32029`/`-32028`/`-32027` included), generic error or plain
 *   text.
 * - {@linkcode A2AClient}: A2A JSON-RPC, 1.0 ProtoJSON or v0.3, `SendMessage`,
 *   `SendStreamingMessage` (streamed artifacts accumulated), `GetTask`; the card's interfaces bound
 *   to the origin it came from ({@linkcode fetchAgentCard} returns a {@linkcode FetchedAgentCard});
 *   auth challenges checked with {@linkcode checkAuthChallenge} against the allow-list the agent
 *   card seeds ({@linkcode agentCardAuthHosts}).
 * - Both refuse redirects, bound each operation as a whole (one deadline, one byte budget, item
 *   caps: {@linkcode ClientLimits}), and can retry transient AdCP errors, network failures and
 *   transient HTTP statuses with `withRetry` of `@adcp-wire/recovery` (`retry` option), honouring
 *   `retry_after` / `Retry-After` and the retry budget, resending byte-identical requests
 *   ({@linkcode withIdempotencyKey}).
 *
 * Sellers: {@linkcode adcpErrorResult} and {@linkcode adcpSuccessResult} (MCP tool results),
 * {@linkcode adcpJsonRpcError} (the reserved JSON-RPC codes), {@linkcode adcpFailedTask} (A2A),
 * {@linkcode translateUpstreamError}, all checked by {@linkcode checkOutgoingAdcpError}; for
 * intermediaries, {@linkcode forwardAdcpError} passes an upstream error through unchanged.
 *
 * Bounded reading, under every client: the client obligation to "bound every agent response" of
 * MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits. Count bytes as they
 * arrive and abort rather than buffer-then-check, pre-reject an over-limit `Content-Length`, bound
 * raw and decoded bytes, pair the cap with a deadline, bound JSON depth and node count after the
 * cap passes, and fail with a distinct error instead of truncating.
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
 * {@linkcode MalformedUtf8Error}, {@linkcode ContentEncodingError}, and for the clients
 * {@linkcode AgentProtocolError} (an answer the protocol does not allow),
 * {@linkcode JsonRpcError} (a JSON-RPC error to a request other than a tool call or message),
 * {@linkcode RedirectRefusedError}, {@linkcode NetworkError}, {@linkcode HttpStatusError} and
 * {@linkcode ItemLimitError}. The
 * JSON bounds are checked by `@adcp-wire/security` (`scanJsonDepth`, `checkJsonBounds`) and
 * re-raised as this family's `JsonDepthLimitError` / `JsonNodeLimitError`, with the same `code`s
 * as the security package's classes, so one `catch` on `AdcpTransportError` covers every way a
 * read can fail.
 *
 * @example Calling a tool on an MCP agent and branching on the result
 * ```ts
 * import { McpClient } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * // A tiny in-process agent: initialize, the initialized notification, and one tool that is
 * // rate limited, answered in JSON as a Streamable HTTP server may.
 * const agent = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
 *   const message = await request.json();
 *   if (message.id === undefined) return new Response(null, { status: 202 });
 *   const adcp_error = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient", retry_after: 5 };
 *   const result = message.method === "initialize"
 *     ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "demo", version: "1" } }
 *     : { isError: true, content: [{ type: "text", text: JSON.stringify({ adcp_error }) }], structuredContent: { adcp_error } };
 *   return Response.json({ jsonrpc: "2.0", id: message.id, result });
 * });
 * try {
 *   const client = new McpClient(`http://127.0.0.1:${agent.addr.port}/mcp`, {
 *     agent: { maxResponseBytes: 1_048_576, timeoutMs: 10_000 },
 *   });
 *   const result = await client.callTool("get_products", { brief: "CTV for pet food" });
 *   switch (result.kind) {
 *     case "success":
 *       console.log(result.data);
 *       break;
 *     case "error":
 *       // Route on code and recovery only; message and details are seller-controlled text.
 *       strictEqual(result.error.code, "RATE_LIMITED");
 *       strictEqual(result.decision.action, "retry");
 *       strictEqual(result.decision.action === "retry" && result.decision.delaySeconds, 5);
 *       break;
 *     case "text":
 *       // isError: an error without a structured AdCP error; fall back to generic handling.
 *       console.log(result.isError ? "failed:" : "text:", result.text);
 *       break;
 *     case "jsonrpc_error":
 *       console.log(result.rpcCode);
 *       break;
 *   }
 *   strictEqual(result.kind, "error");
 * } finally {
 *   await agent.shutdown();
 * }
 * ```
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

export * from "./a2a/client.ts";
export * from "./seller/adcp_error_result.ts";
export * from "./seller/adcp_failed_task.ts";
export * from "./seller/adcp_jsonrpc_error.ts";
export * from "./seller/adcp_success_result.ts";
export * from "./client/auth_challenge.ts";
export * from "./read/bounded_fetch.ts";
export * from "./seller/check_outgoing_adcp_error.ts";
export * from "./errors.ts";
export * from "./external_types.ts";
export * from "./a2a/fetch_agent_card.ts";
export * from "./seller/forward_adcp_error.ts";
export * from "./client/idempotency_key.ts";
export * from "./read/limits.ts";
export * from "./mcp/client.ts";
export * from "./read/parse_bounded_json.ts";
export * from "./read/read_response.ts";
export * from "./read/sse.ts";
export * from "./read/stdio.ts";
export * from "./seller/translate_upstream_error.ts";
