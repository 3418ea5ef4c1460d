// The clients' contract against any server: one call of any client method ends within its deadline
// (plus a small margin), reads at most its byte budget plus one chunk, and either returns its union
// or throws an AdcpTransportError. A real HTTP server on 127.0.0.1 plays a hostile seller whose
// every answer (status, headers, body shape, size, timing, SSE fields) is drawn by fast-check; a
// counting `fetch` measures what the client pulled. A second test holds the heap of calls at the
// byte cap to a documented multiple of the budget.
import { ok } from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { A2A_KINDS, isAnyTransportError, MCP_KINDS, netTest, within } from "../_test_utils.ts";
import { A2AClient } from "../a2a/mod.ts";
import { fetchAgentCard } from "../a2a/fetch_agent_card.ts";
import { McpClient } from "../mcp/mod.ts";
import type { Answer, Body } from "../testdata/hostile_server.ts";

const BUDGET = 65_536;
const TIMEOUT_MS = 300;
const MAX_WAIT_MS = 600;
/** Scheduling slack on a shared 2-core machine: timers, GC and the server's own work. */
const MARGIN_MS = 700;

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

/** The hostile server, in a worker of its own: its allocations never count as the client's. */
function hostileServer(): Promise<{
  readonly base: string;
  setScript(answers: readonly Answer[], handshake: boolean): Promise<void>;
  close(): Promise<void>;
}> {
  const worker = new Worker(new URL("../testdata/hostile_server.ts", import.meta.url), {
    type: "module",
  });
  const replies: ((data: unknown) => void)[] = [];
  worker.onmessage = (event) => replies.shift()?.(event.data);
  const reply = () => new Promise<unknown>((resolve) => replies.push(resolve));
  return reply().then((listening) => {
    const { port } = listening as { port: number };
    return {
      base: `http://127.0.0.1:${port}`,
      async setScript(answers, handshake) {
        const done = reply();
        worker.postMessage({ type: "script", answers, handshake });
        await done;
      },
      async close() {
        const done = reply();
        worker.postMessage({ type: "close" });
        await done;
        worker.terminate();
      },
    };
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
async function run(
  name: string,
  base: string,
  fetch: ReturnType<typeof countingFetch>,
  budget = BUDGET,
  timeoutMs = TIMEOUT_MS,
) {
  const limits = { maxResponseBytes: budget, timeoutMs };
  const mcp = () =>
    new McpClient(`${base}/mcp`, { fetch, defaultLimits: limits, maxReconnects: 2 });
  const card = {
    supportedInterfaces: [{
      url: `${base}/a2a`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  };
  const a2a = () => new A2AClient(card, { fetch, defaultLimits: limits, cardUrl: base });
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
  "clients end within the deadline, read at most the budget plus one chunk, and return their " +
    "union or a transport error, whatever the server does",
  async () => {
    const server = await hostileServer();
    try {
      await within(
        240_000,
        fc.assert(
          fc.asyncProperty(
            method,
            fc.array(answer, { minLength: 1, maxLength: 4 }),
            fc.constantFrom(true, true, true, false),
            async (name, answers, handshake) => {
              await server.setScript(answers, handshake);
              const pulled: Pulled = { bytes: 0, maxChunk: 0 };
              const started = performance.now();
              try {
                await run(name, server.base, countingFetch(pulled));
              } catch (error) {
                ok(
                  isAnyTransportError(error),
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

/**
 * The documented bound: a call's V8 heap growth stays under this many times its byte budget. The
 * densest shape, a body of empty objects (3 bytes each on the wire, about 60 in the heap), reaches
 * about 22x; typical payloads about 3x.
 */
const HEAP_MULTIPLE = 32;
const MEMORY_BUDGET = 1_048_576;

/** V8's `gc()`, exposed through node:v8 flags (the flag applies to this test process only). */
const gc: () => void = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

/**
 * The V8 heap in use. External memory is left out: Deno's `fetch` takes a fresh 64 KiB buffer for
 * every network read, released by the next GC, so its peak follows the chunk count and the
 * collector's timing rather than anything the client keeps.
 */
function memoryNow(): number {
  return Deno.memoryUsage().heapUsed;
}

/** Answers sized to a 1 MiB budget: bodies near and over it, page and poll floods, SSE floods. */
const heavyAnswer: fc.Arbitrary<Answer> = fc.record({
  status: fc.constant(200),
  contentType: fc.constant("auto"),
  headers: fc.constant({}),
  body: fc.oneof(
    fc.record({
      kind: fc.constant("pad"),
      bytes: fc.integer({ min: MEMORY_BUDGET / 2, max: 4 * MEMORY_BUDGET }),
    }),
    fc.record({
      kind: fc.constant("page"),
      bytes: fc.integer({ min: MEMORY_BUDGET / 8, max: MEMORY_BUDGET / 2 }),
    }),
    fc.record({
      kind: fc.constant("dense"),
      bytes: fc.integer({ min: MEMORY_BUDGET / 2, max: MEMORY_BUDGET }),
    }),
    fc.record({ kind: fc.constant("deep"), depth: fc.integer({ min: 10_000, max: 500_000 }) }),
    fc.record({
      kind: fc.constant("sse"),
      events: fc.array(
        fc.record({
          id: fc.constant("1"),
          retry: fc.constant(undefined),
          kind: fc.constant("raw" as const),
          result: fc.constant(null),
          data: fc.constant("[" + "0,".repeat(60_000) + "0]"),
        }),
        { minLength: 1, maxLength: 40 },
      ),
    }),
  ) as fc.Arbitrary<Body>,
  delayMs: fc.constant(0),
  chunks: fc.integer({ min: 1, max: 64 }),
  dripMs: fc.constant(0),
  hang: fc.constant(false),
});

netTest(
  `a client call against a hostile server grows the heap by at most ${HEAP_MULTIPLE}x its byte ` +
    `budget`,
  async () => {
    const server = await hostileServer();
    let worst = 0;
    try {
      await within(
        240_000,
        fc.assert(
          fc.asyncProperty(method, heavyAnswer, async (name, heavy) => {
            await server.setScript([heavy], true);
            const pulled: Pulled = { bytes: 0, maxChunk: 0 };
            gc();
            const baseline = memoryNow();
            let peak = baseline;
            const timer = setInterval(() => peak = Math.max(peak, memoryNow()), 1);
            try {
              await run(name, server.base, countingFetch(pulled), MEMORY_BUDGET, 5_000);
            } catch (error) {
              ok(isAnyTransportError(error), `${name} threw ${error}`);
            } finally {
              clearInterval(timer);
              peak = Math.max(peak, memoryNow());
            }
            const growth = (peak - baseline) / MEMORY_BUDGET;
            worst = Math.max(worst, growth);
            ok(
              growth <= HEAP_MULTIPLE,
              `${name} grew the heap by ${growth.toFixed(1)}x its budget (${heavy.body.kind})`,
            );
          }),
          {
            numRuns: 40,
            examples: [[
              "mcp.waitForTask",
              {
                status: 200,
                contentType: "auto",
                headers: {},
                body: { kind: "page", bytes: 131_072 },
                delayMs: 0,
                chunks: 54,
                dripMs: 0,
                hang: false,
              },
            ]],
          },
        ),
      );
    } finally {
      await server.close();
    }
    ok(worst > 0, "the sampling saw no growth at all: the check cannot fail");
  },
);
