// The clients' contract against any server: one call of any client method ends within its deadline
// (plus a small margin), reads at most its byte budget plus one chunk, and either returns its union
// or throws an AdcpTransportError. A real HTTP server on 127.0.0.1 plays a hostile seller whose
// every answer (status, headers, body shape, size, timing, SSE fields) is drawn by fast-check; a
// counting `fetch` measures what the client pulled. A second test holds the heap of calls at the
// byte cap to a documented multiple of the budget.
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { A2AClient } from "./a2a_client.ts";
import { AdcpTransportError } from "./errors.ts";
import { fetchAgentCard } from "./fetch_agent_card.ts";
import { McpClient } from "./mcp_client.ts";
import { netTest, within } from "./_test_utils.ts";

const BUDGET = 65_536;
const TIMEOUT_MS = 300;
const MAX_WAIT_MS = 600;
/** Scheduling slack on a shared 2-core machine: timers, GC and the server's own work. */
const MARGIN_MS = 700;
const encoder = new TextEncoder();

const MCP_KINDS = new Set(["success", "error", "text", "jsonrpc_error"]);
const A2A_KINDS = new Set([
  "success",
  "error",
  "text",
  "malformed",
  "auth_required",
  "message",
  "jsonrpc_error",
]);

/** One answer of the hostile server. */
interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Body;
  /** Delay before the headers, in milliseconds. */
  readonly delayMs: number;
  /** Split the body into this many chunks, `dripMs` apart. */
  readonly chunks: number;
  readonly dripMs: number;
  /** Never end the body after its chunks. */
  readonly hang: boolean;
}

type Body =
  | { readonly kind: "rpc"; readonly result: unknown; readonly error: unknown }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "sse"; readonly events: readonly SseEvent[] }
  | { readonly kind: "pad"; readonly bytes: number }
  | { readonly kind: "page"; readonly bytes: number }
  | { readonly kind: "deep"; readonly depth: number }
  | { readonly kind: "raw"; readonly bytes: Uint8Array };

interface SseEvent {
  readonly id: string | undefined;
  readonly retry: number | undefined;
  /** `"response"` echoes the request id with `result`; `"raw"` sends `data` as it is. */
  readonly kind: "response" | "notification" | "ping" | "raw";
  readonly result: unknown;
  readonly data: string;
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("a\u0001b", "\u2603", "x\r\ny", "\u0000", "é", "tok en", ""),
);

const mcpResult = fc.oneof(
  fc.record({
    protocolVersion: fc.constantFrom("2025-11-25", "2025-06-18", "1999-01-01"),
    capabilities: fc.jsonValue(),
  }),
  fc.record({
    tools: fc.array(fc.record({ name: fc.string({ maxLength: 8 }) }), { maxLength: 5 }),
    nextCursor: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
  }, { requiredKeys: [] }),
  fc.record({
    content: fc.array(
      fc.record({ type: fc.constant("text"), text: fc.oneof(fc.string(), fc.json()) }),
      { maxLength: 3 },
    ),
    structuredContent: fc.jsonValue(),
    isError: fc.boolean(),
  }, { requiredKeys: [] }),
  fc.record({
    taskId: fc.string({ maxLength: 6 }),
    status: fc.constantFrom("working", "completed", "input_required", "failed"),
    pollInterval: fc.integer({ min: -5, max: 2_000 }),
  }, { requiredKeys: [] }),
  fc.record({ task: fc.record({ taskId: fc.string(), status: fc.string() }) }),
  fc.jsonValue(),
);

const a2aResult = fc.oneof(
  fc.record({
    task: fc.record({
      id: fc.string({ maxLength: 6 }),
      status: fc.record({
        state: fc.constantFrom(
          "TASK_STATE_COMPLETED",
          "TASK_STATE_WORKING",
          "TASK_STATE_FAILED",
          "TASK_STATE_AUTH_REQUIRED",
        ),
      }),
      artifacts: fc.array(
        fc.record({
          artifactId: fc.string({ maxLength: 4 }),
          parts: fc.array(fc.record({ data: fc.jsonValue() }), { maxLength: 3 }),
        }),
        { maxLength: 3 },
      ),
    }, { requiredKeys: ["status"] }),
  }),
  fc.record({
    artifactUpdate: fc.record({
      taskId: fc.string({ maxLength: 4 }),
      append: fc.boolean(),
      artifact: fc.record({
        artifactId: fc.string({ maxLength: 4 }),
        parts: fc.array(fc.record({ text: fc.string() }), { maxLength: 3 }),
      }),
    }),
  }),
  fc.record({
    statusUpdate: fc.record({
      taskId: fc.string({ maxLength: 4 }),
      status: fc.record({ state: fc.constantFrom("TASK_STATE_WORKING", "TASK_STATE_COMPLETED") }),
    }),
  }),
  fc.record({ message: fc.record({ parts: fc.array(fc.record({ text: fc.string() })) }) }),
  fc.jsonValue(),
);

const sseEvent = fc.record({
  id: fc.option(hostileString, { nil: undefined }),
  retry: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: undefined }),
  kind: fc.constantFrom("response", "notification", "ping", "raw"),
  result: fc.oneof(mcpResult, a2aResult),
  data: fc.oneof(fc.json(), hostileString),
});

const body: fc.Arbitrary<Body> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("rpc"),
      result: fc.oneof(mcpResult, a2aResult),
      error: fc.oneof(
        fc.constant(undefined),
        fc.record({ code: fc.integer(), message: fc.string(), data: fc.jsonValue() }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("json"), value: fc.jsonValue() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("sse"),
      events: fc.array(sseEvent, { maxLength: 6 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("pad"),
      bytes: fc.integer({ min: BUDGET - 64, max: 4 * BUDGET }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("deep"),
      depth: fc.integer({ min: 60, max: 20_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("raw"), bytes: fc.uint8Array({ maxLength: 64 }) }),
  },
) as fc.Arbitrary<Body>;

const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(
    { weight: 8, arbitrary: fc.constant(200) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(202, 204, 301, 302, 307, 308, 401, 404, 429, 500, 503),
    },
  ),
  // "auto": the type that matches the body (most answers), or a hostile one.
  contentType: fc.oneof(
    { weight: 6, arbitrary: fc.constant("auto") },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "application/json",
        "text/event-stream",
        "text/plain",
        "application/json; charset=utf-8",
        null,
      ),
    },
  ),
  headers: fc.record({
    "retry-after": fc.oneof(
      fc.constantFrom("7", "0", "-1", "1e9", "Wed, 21 Oct 2015 07:28:00 GMT", "soon"),
      fc.string({ maxLength: 8 }),
    ),
    location: fc.constantFrom("http://169.254.169.254/", "https://other.example/", "/x", "::"),
    "mcp-session-id": hostileString,
    "content-length": fc.constantFrom("0", "1", "999999999", "12"),
    "content-encoding": fc.constantFrom("gzip", "br", "identity"),
  }, { requiredKeys: [] }),
  body,
  delayMs: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 2 * TIMEOUT_MS })),
  chunks: fc.integer({ min: 1, max: 4 }),
  dripMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 150 })),
  hang: fc.boolean(),
});

const method = fc.constantFrom(
  "mcp.connect",
  "mcp.listTools",
  "mcp.callTool",
  "mcp.callToolAsTask",
  "mcp.getTask",
  "mcp.waitForTask",
  "mcp.getTaskResult",
  "a2a.sendMessage",
  "a2a.sendStreamingMessage",
  "a2a.getTask",
  "card.fetch",
);

/** The bytes of an answer's body for a request with JSON-RPC id `id`. */
function bodyBytes(body: Body, id: unknown, serial: number): Uint8Array {
  switch (body.kind) {
    case "page": {
      // A tools/list page with a fresh cursor that is also a working task: a flood of pages or
      // polls, each well under the per-response cap.
      const result = {
        tools: [{ name: "t", description: "x".repeat(body.bytes) }],
        nextCursor: `c${serial}`,
        taskId: "t-1",
        status: "working",
        pollInterval: 50,
      };
      return encoder.encode(JSON.stringify({ jsonrpc: "2.0", id, result }));
    }
    case "rpc": {
      const message = body.error === undefined
        ? { jsonrpc: "2.0", id, result: body.result }
        : { jsonrpc: "2.0", id, error: body.error };
      return encoder.encode(JSON.stringify(message));
    }
    case "json":
      return encoder.encode(JSON.stringify(body.value) ?? "null");
    case "sse": {
      let text = "";
      for (const event of body.events) {
        if (event.id !== undefined) text += `id: ${event.id.replace(/[\r\n]/g, "")}\n`;
        if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
        const data = event.kind === "response"
          ? JSON.stringify({ jsonrpc: "2.0", id, result: event.result })
          : event.kind === "notification"
          ? JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: {} })
          : event.kind === "ping"
          ? JSON.stringify({ jsonrpc: "2.0", id: "p", method: "ping" })
          : event.data;
        text += `data: ${data.replace(/[\r\n]/g, " ")}\n\n`;
      }
      return encoder.encode(text);
    }
    case "pad":
      return encoder.encode(
        JSON.stringify({ jsonrpc: "2.0", id, result: { pad: "x".repeat(body.bytes) } }),
      );
    case "deep":
      return encoder.encode("[".repeat(body.depth) + "]".repeat(body.depth));
    case "raw":
      return body.bytes;
  }
}

/** Serves the current script: each request takes the next answer (the last one repeats). */
function hostileServer(): {
  readonly base: string;
  setScript(answers: readonly Answer[], handshake: boolean): void;
  close(): Promise<void>;
} {
  let script: readonly Answer[] = [];
  let next = 0;
  let handshakes = false;
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {}, signal: controller.signal },
    async (request) => {
      const text = request.method === "POST" ? await request.text().catch(() => "") : "";
      let id: unknown = null;
      let rpcMethod: unknown;
      try {
        const parsed = JSON.parse(text);
        id = parsed?.id;
        rpcMethod = parsed?.method;
      } catch {
        // not JSON: answer with id null
      }
      // Most scripts let the MCP handshake through, so that the fuzzing reaches the calls.
      if (handshakes && rpcMethod === "initialize") {
        const result = { protocolVersion: "2025-11-25", capabilities: { tools: {} } };
        return Response.json({ jsonrpc: "2.0", id, result });
      }
      if (handshakes && rpcMethod === "notifications/initialized") {
        return new Response(null, { status: 202 });
      }
      const url = new URL(request.url);
      if (url.pathname === "/.well-known/agent-card.json" && script.length === 0) {
        return Response.json({});
      }
      const current = script[Math.min(next++, script.length - 1)];
      if (current === undefined) return new Response(null, { status: 500 });
      if (current.delayMs > 0) await sleep(current.delayMs, request.signal);
      const bytes = bodyBytes(current.body, id, next);
      const headers = new Headers();
      const type = current.contentType === "auto"
        ? current.body.kind === "sse" ? "text/event-stream" : "application/json"
        : current.contentType;
      if (type !== null) headers.set("content-type", type);
      for (const [name, value] of Object.entries(current.headers)) {
        // Deno's HTTP/1 writer takes only visible ASCII, space and tab (it panics on more).
        if (name !== "content-length" && /^[\x20-\x7e\t]*$/.test(value)) {
          headers.set(name, value);
        }
      }
      if ([101, 204, 205, 304].includes(current.status)) {
        return new Response(null, { status: current.status, headers });
      }
      const size = Math.ceil(bytes.length / current.chunks);
      let offset = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(out) {
          if (offset >= bytes.length) {
            if (current.hang) {
              await sleep(60_000, request.signal);
            }
            out.close();
            return;
          }
          if (offset > 0 && current.dripMs > 0) await sleep(current.dripMs, request.signal);
          out.enqueue(bytes.subarray(offset, offset + size));
          offset += size;
        },
      });
      return new Response(stream, { status: current.status, headers });
    },
  );
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    setScript(answers, handshake) {
      script = answers;
      next = 0;
      handshakes = handshake;
    },
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Bytes the client pulled from response bodies, and the largest chunk. */
interface Pulled {
  bytes: number;
  maxChunk: number;
}

/** A `fetch` that counts the body bytes the client reads, chunk by chunk, as it reads them. */
function countingFetch(pulled: Pulled) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(out) {
        const { done, value } = await reader.read();
        if (done) {
          out.close();
          return;
        }
        pulled.bytes += value.length;
        pulled.maxChunk = Math.max(pulled.maxChunk, value.length);
        out.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Runs one client method; resolves to the outcome's kind, or rejects with what it threw. */
async function run(name: string, base: string, fetch: ReturnType<typeof countingFetch>) {
  const limits = { maxResponseBytes: BUDGET, timeoutMs: TIMEOUT_MS };
  const mcp = () => new McpClient(`${base}/mcp`, { fetch, defaults: limits, maxReconnects: 2 });
  const card = {
    supportedInterfaces: [{
      url: `${base}/a2a`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  };
  const a2a = () => new A2AClient(card, { fetch, defaults: limits, cardUrl: base });
  switch (name) {
    case "mcp.connect":
      return (await mcp().connect(), "connected");
    case "mcp.listTools":
      return (await mcp().listTools(), "tools");
    case "mcp.callTool":
      return check(await mcp().callTool("get_products", { brief: "x" }), MCP_KINDS);
    case "mcp.callToolAsTask": {
      const created = await mcp().callToolAsTask("create_media_buy", {});
      return created.kind === "task" ? "task" : check(created.result, MCP_KINDS);
    }
    case "mcp.getTask":
      return (await mcp().getTask("t-1"), "task");
    case "mcp.waitForTask":
      return (await mcp().waitForTask("t-1", { maxWaitMs: MAX_WAIT_MS }), "task");
    case "mcp.getTaskResult":
      return check(await mcp().getTaskResult("t-1"), MCP_KINDS);
    case "a2a.sendMessage": {
      const client = a2a();
      return check(await client.sendMessage(client.invocation("get_products", {})), A2A_KINDS);
    }
    case "a2a.sendStreamingMessage": {
      const client = a2a();
      return check(
        await client.sendStreamingMessage(client.invocation("get_products", {})),
        A2A_KINDS,
      );
    }
    case "a2a.getTask":
      return check(await a2a().getTask("t-1"), A2A_KINDS);
    default:
      return (await fetchAgentCard(`${base}/.well-known/agent-card.json`, { fetch, limits }),
        "card");
  }
}

function check(result: { readonly kind: string }, kinds: ReadonlySet<string>): string {
  ok(kinds.has(result.kind), `unexpected kind ${result.kind}`);
  return result.kind;
}

netTest(
  "clients end within the deadline, read at most the budget plus one chunk, and return their union or a transport error, whatever the server does",
  async () => {
    const server = hostileServer();
    try {
      await within(
        240_000,
        fc.assert(
          fc.asyncProperty(
            method,
            fc.array(answer, { minLength: 1, maxLength: 4 }),
            fc.constantFrom(true, true, true, false),
            async (name, answers, handshake) => {
              server.setScript(answers, handshake);
              const pulled: Pulled = { bytes: 0, maxChunk: 0 };
              const started = performance.now();
              try {
                await run(name, server.base, countingFetch(pulled));
              } catch (error) {
                ok(
                  error instanceof AdcpTransportError,
                  `${name} threw ${error instanceof Error ? error.name : typeof error}: ${error}`,
                );
              }
              const elapsed = performance.now() - started;
              // The lazy initialize and the call it serves are one operation for McpClient.
              const bound = name === "mcp.waitForTask" ? MAX_WAIT_MS : TIMEOUT_MS;
              ok(elapsed <= bound + MARGIN_MS, `${name} took ${Math.round(elapsed)} ms`);
              ok(
                pulled.bytes <= BUDGET + pulled.maxChunk,
                `${name} read ${pulled.bytes} bytes (budget ${BUDGET}, chunk ${pulled.maxChunk})`,
              );
            },
          ),
          { numRuns: 120 },
        ),
      );
    } finally {
      await server.close();
    }
  },
);
