// The hostile-seller suite for the clients (issue 12): McpClient, A2AClient, fetchAgentCard and
// boundedFetch against real HTTP servers on 127.0.0.1 that redirect, refuse, reset, throttle, send
// unusable SSE ids, and record every byte they receive. Two servers are two origins. Every test is
// bounded in time (`within`), shuts its servers down, and leaves no body unread or uncancelled, so
// the resource and op sanitizers stay on.
import { deepStrictEqual, notStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { withRetry } from "@adcp-wire/recovery";
import {
  encoder,
  isAnyTransportError,
  netTest,
  rejection,
  within,
  withServer,
} from "./_test_utils.ts";
import { A2AClient, type A2AClientOptions } from "./a2a/mod.ts";
import { fetchAgentCard } from "./a2a/fetch_agent_card.ts";
import { withIdempotencyKey } from "./client/idempotency_key.ts";
import {
  AgentProtocolError,
  HttpStatusError,
  NetworkError,
  RedirectRefusedError,
} from "./errors.ts";
import { McpClient, type McpClientOptions } from "./mcp/mod.ts";
import { boundedFetch, type FetchLike } from "./read/bounded_fetch.ts";

const BOUND_MS = 20_000;
/** Each client call's own deadline: a client that follows a redirect to 169.254.169.254 fails. */
const LIMITS = { timeoutMs: 5_000 };
const STATUSES = [301, 302, 303, 307, 308] as const;
/** A credential the caller sets; no request to a redirect target may carry it. */
const API_KEY = "k-3b1f9e-caller-secret";
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** What a runtime says about a refused connection: none of it may reach a message. */
const RUNTIME_DETAIL = /refused|os error|error sending request|tcp|connection|client error|errno/i;

// ---------------------------------------------------------------------------------------------
// Servers and recordings
// ---------------------------------------------------------------------------------------------

/** One request as a server received it: method, path (with query), headers, raw body text. */
interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly body: string;
}

type Handler = (request: Request, seen: Seen) => Response | Promise<Response>;

/**
 * A server handler that records every request (reading its whole body) before `handler` answers.
 */
function recording(handler: Handler): { seen: Seen[]; serve: Deno.ServeHandler } {
  const seen: Seen[] = [];
  return {
    seen,
    serve: async (request) => {
      const url = new URL(request.url);
      const entry: Seen = {
        method: request.method,
        path: url.pathname + url.search,
        headers: request.headers,
        body: await request.text(),
      };
      seen.push(entry);
      return await handler(request, entry);
    },
  };
}

/** Runs `fn` against two servers (two origins), and always shuts both down. */
function withTwoServers(
  first: Deno.ServeHandler,
  second: Deno.ServeHandler,
  fn: (firstBase: string, secondBase: string) => Promise<void>,
): Promise<void> {
  return withServer(first, (a) => withServer(second, (b) => fn(a, b)));
}

/** The base URL of a port nothing listens on any more: a server bound it, then shut down. */
async function closedBase(): Promise<string> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(null, { status: 204 }),
  );
  const port = server.addr.port;
  await server.shutdown();
  return `http://127.0.0.1:${port}`;
}

/** A `fetch` that records the URL of every request, then lets the runtime send it. */
function urlRecordingFetch(): { urls: string[]; fetch: FetchLike } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return globalThis.fetch(input, init);
    },
  };
}

/**
 * A 200 whose body breaks off: it declares `Content-Length` for all of `text` and sends only the
 * first half, then the server ends the connection.
 */
function brokenOff(text: string, contentType: string): Response {
  const bytes = encoder.encode(text);
  const half = bytes.slice(0, bytes.length >> 1);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(half);
      controller.close();
    },
  });
  return new Response(body, {
    headers: { "content-type": contentType, "content-length": String(bytes.length) },
  });
}

function sse(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/** A fake `sleep` for retry policies: records each wait and does not wait. */
function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}

function assertNetworkError(error: unknown, label: string, port?: string): void {
  ok(error instanceof NetworkError, `${label}: expected NetworkError, got ${String(error)}`);
  ok(isAnyTransportError(error));
  strictEqual(error.code, "NETWORK_ERROR");
  strictEqual(error.name, "NetworkError");
  strictEqual(error.adcpError.code, "SERVICE_UNAVAILABLE");
  strictEqual(error.adcpError.recovery, "transient");
  for (const text of [error.message, String(error.adcpError.message)]) {
    ok(!RUNTIME_DETAIL.test(text), `${label}: runtime detail in ${JSON.stringify(text)}`);
    ok(port === undefined || !text.includes(port), `${label}: the port in ${JSON.stringify(text)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Protocol answers
// ---------------------------------------------------------------------------------------------

const INIT_RESULT = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: {} },
  serverInfo: { name: "hostile-seller", version: "1.0.0" },
};
const TOOL_SUCCESS = {
  content: [{ type: "text", text: "Done" }],
  structuredContent: { status: "completed", media_buy_id: "mb_1" },
};

function rpcResult(id: unknown, result: unknown): Response {
  return Response.json({ jsonrpc: "2.0", id, result });
}

/** A parsed JSON-RPC message body (the fields the servers here look at). */
interface RpcBody {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
}

function parseRpc(body: string): RpcBody {
  return body === "" ? {} : JSON.parse(body) as RpcBody;
}

/**
 * A hand-written MCP server: `initialize` answered in JSON, notifications with 202, `tools/call`
 * by `toolsCall` (with its 0-based index), a GET (an SSE reconnect) by `get` (405 when absent).
 */
function mcpSeller(
  toolsCall: (id: number | string, seen: Seen, index: number) => Response | Promise<Response>,
  get?: (seen: Seen) => Response | Promise<Response>,
): Handler {
  let calls = 0;
  return (_request, seen) => mcpAnswer(seen, (id) => toolsCall(id, seen, calls++), get);
}

/** What {@link mcpSeller} answers to one request. */
function mcpAnswer(
  seen: Seen,
  toolsCall: (id: number | string) => Response | Promise<Response>,
  get?: (seen: Seen) => Response | Promise<Response>,
): Response | Promise<Response> {
  if (seen.method === "GET") return get?.(seen) ?? new Response(null, { status: 405 });
  const message = parseRpc(seen.body);
  if (message.id === undefined) return new Response(null, { status: 202 });
  if (message.method === "initialize") return rpcResult(message.id, INIT_RESULT);
  if (message.method === "tools/call") return toolsCall(message.id);
  return Response.json({
    jsonrpc: "2.0",
    id: message.id,
    error: { code: -32601, message: "Method not found" },
  });
}

function mcpClient(base: string, options: McpClientOptions = {}): McpClient {
  return new McpClient(`${base}/mcp`, {
    headers: { "x-api-key": API_KEY },
    defaultLimits: LIMITS,
    ...options,
  });
}

function a2aCard(base: string): Record<string, unknown> {
  return {
    name: "Hostile seller",
    supportedInterfaces: [{
      url: `${base}/a2a`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  };
}

function a2aClient(base: string, options: A2AClientOptions = {}): A2AClient {
  return new A2AClient(a2aCard(base), {
    cardUrl: `${base}/.well-known/agent-card.json`,
    headers: { "x-api-key": API_KEY },
    defaultLimits: LIMITS,
    ...options,
  });
}

const IDS = { id: "task_1", contextId: "ctx_1" };
const COMPLETED_TASK = {
  ...IDS,
  status: { state: "TASK_STATE_COMPLETED" },
  artifacts: [{ artifactId: "result", parts: [{ data: { status: "completed", ok: true } }] }],
};
/** A failed task whose artifact carries a transient AdCP error (Transport Error Mapping, A2A). */
const RATE_LIMITED_TASK = {
  ...IDS,
  status: { state: "TASK_STATE_FAILED" },
  artifacts: [{
    artifactId: "error-result",
    parts: [
      { text: "Rate limited." },
      {
        data: {
          adcp_error: {
            code: "RATE_LIMITED",
            message: "x",
            recovery: "transient",
            retry_after: 1,
          },
        },
      },
    ],
  }],
};
const WORKING_FRAME = {
  statusUpdate: { taskId: "task_1", contextId: "ctx_1", status: { state: "TASK_STATE_WORKING" } },
};
const COMPLETED_FRAME = { task: COMPLETED_TASK };

function sseFrames(id: unknown, frames: readonly unknown[]): string {
  return frames.map((result) => `data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`)
    .join("");
}

// ---------------------------------------------------------------------------------------------
// 1. Redirects
// ---------------------------------------------------------------------------------------------

/** One operation that must refuse a redirect. */
interface RedirectCase {
  /** How the test names the operation. */
  readonly name: string;
  /** Requests the seller receives, the redirected one last. */
  readonly sellerRequests: number;
  /** The seller: answers what comes first normally and the request to refuse with `redirect()`. */
  readonly seller: (seen: Seen, redirect: () => Response) => Response | Promise<Response>;
  /** Runs the operation against `seller` and returns how it failed. */
  readonly run: (seller: string, fetch: FetchLike | undefined) => Promise<unknown>;
}

/** Answers an `initialize`, notifications and a `tools/call`, and redirects the reconnect GET. */
function sseReconnectSeller(seen: Seen, redirect: () => Response): Response {
  if (seen.method === "GET") return redirect();
  const message = parseRpc(seen.body);
  if (message.id === undefined) return new Response(null, { status: 202 });
  if (message.method === "initialize") return rpcResult(message.id, INIT_RESULT);
  // The stream primes an event id, then drops before the response: the client must resume.
  return sse("retry: 1\nid: ev-1\ndata: \n\n");
}

const REDIRECT_CASES: readonly RedirectCase[] = [
  {
    name: "McpClient.connect (initialize)",
    sellerRequests: 1,
    seller: (_seen, redirect) => redirect(),
    run: (seller, fetch) => rejection(mcpClient(seller, { fetch }).connect()),
  },
  {
    name: "McpClient.callTool (tools/call)",
    sellerRequests: 3,
    seller: (seen, redirect) => mcpAnswer(seen, () => redirect()),
    run: (seller, fetch) =>
      rejection(mcpClient(seller, { fetch }).callTool("get_products", { brief: "CTV" })),
  },
  {
    name: "McpClient SSE reconnect (GET with Last-Event-ID)",
    sellerRequests: 4,
    seller: sseReconnectSeller,
    run: (seller, fetch) =>
      rejection(mcpClient(seller, { fetch }).callTool("get_products", { brief: "CTV" })),
  },
  {
    name: "McpClient answer to a server ping (POST)",
    sellerRequests: 4,
    seller: (seen, redirect) => {
      if (parseRpc(seen.body).result !== undefined) return redirect(); // the answer to the ping
      return mcpAnswer(
        seen,
        () => sse(`data: ${JSON.stringify({ jsonrpc: "2.0", id: "srv-1", method: "ping" })}\n\n`),
      );
    },
    run: (seller, fetch) =>
      rejection(mcpClient(seller, { fetch }).callTool("get_products", { brief: "CTV" })),
  },
  {
    name: "McpClient.close (DELETE)",
    sellerRequests: 3,
    seller: (seen, redirect) => {
      if (seen.method === "DELETE") return redirect();
      const message = parseRpc(seen.body);
      if (message.id === undefined) return new Response(null, { status: 202 });
      return Response.json({ jsonrpc: "2.0", id: message.id, result: INIT_RESULT }, {
        headers: { "mcp-session-id": "session-1" },
      });
    },
    run: async (seller, fetch) => {
      const client = mcpClient(seller, { fetch });
      await client.connect();
      return await rejection(client.close());
    },
  },
  {
    name: "A2AClient.sendMessage (SendMessage)",
    sellerRequests: 1,
    seller: (_seen, redirect) => redirect(),
    run: (seller, fetch) => {
      const client = a2aClient(seller, { fetch });
      return rejection(client.sendMessage(client.invocation("get_products", { brief: "CTV" })));
    },
  },
  {
    name: "A2AClient.sendStreamingMessage (SendStreamingMessage)",
    sellerRequests: 1,
    seller: (_seen, redirect) => redirect(),
    run: (seller, fetch) => {
      const client = a2aClient(seller, { fetch });
      return rejection(
        client.sendStreamingMessage(client.invocation("get_products", { brief: "CTV" })),
      );
    },
  },
  {
    name: "A2AClient.getTask (GetTask)",
    sellerRequests: 1,
    seller: (_seen, redirect) => redirect(),
    run: (seller, fetch) => rejection(a2aClient(seller, { fetch }).getTask("task_1")),
  },
  {
    name: "fetchAgentCard",
    sellerRequests: 1,
    seller: (_seen, redirect) => redirect(),
    run: (seller, fetch) =>
      rejection(
        fetchAgentCard(`${seller}/.well-known/agent-card.json`, {
          headers: { "x-api-key": API_KEY },
          limits: LIMITS,
          ...(fetch === undefined ? {} : { fetch }),
        }),
      ),
  },
  {
    name: "boundedFetch (default redirect mode)",
    sellerRequests: 1,
    seller: (_seen, redirect) => redirect(),
    run: (seller, fetch) =>
      rejection(
        boundedFetch(LIMITS, fetch)(`${seller}/mcp`, {
          method: "POST",
          headers: { "x-api-key": API_KEY, "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: {} }),
        }),
      ),
  },
];

/** Where a redirect points, as the test names it. */
interface RedirectTarget {
  readonly name: string;
  /** The Location values (`undefined`: no Location header), given the seller and the witness. */
  readonly locations: (seller: string, witness: string) => (string | undefined)[];
  /**
   * Whether the operation runs with a URL-recording fetch (for targets no server stands behind).
   */
  readonly recordUrls: boolean;
}

const REDIRECT_TARGETS: readonly RedirectTarget[] = [
  {
    name: "to another origin",
    locations: (_seller, witness) => [`${new URL(witness).origin}/collect?from=seller`],
    recordUrls: false,
  },
  {
    name: "to a plain http:// URL on another host name",
    locations: (_seller, witness) => [`http://localhost:${new URL(witness).port}/plain-http`],
    recordUrls: false,
  },
  {
    name: "to 169.254.169.254 and [::1]",
    locations: () => ["http://169.254.169.254/latest/meta-data/iam/", "http://[::1]/admin"],
    recordUrls: true,
  },
  {
    name: "to a relative Location",
    locations: () => ["/elsewhere?stolen=1"],
    recordUrls: false,
  },
  {
    name: "without a Location header",
    locations: () => [undefined],
    recordUrls: false,
  },
];

for (const operation of REDIRECT_CASES) {
  for (const target of REDIRECT_TARGETS) {
    netTest(
      `${operation.name} refuses 301/302/303/307/308 ${target.name} and sends nothing there`,
      async () => {
        const witness = recording(() => new Response("witness reached", { status: 200 }));
        let redirect: () => Response = () => new Response("unset", { status: 500 });
        const seller = recording((_request, seen) => operation.seller(seen, () => redirect()));
        await within(
          BOUND_MS,
          withTwoServers(seller.serve, witness.serve, async (sellerBase, witnessBase) => {
            for (const status of STATUSES) {
              for (const location of target.locations(sellerBase, witnessBase)) {
                const label = `${status} to ${location ?? "(no Location)"}`;
                seller.seen.length = 0;
                redirect = () =>
                  new Response("Moved", {
                    status,
                    headers: location === undefined ? {} : { location },
                  });
                const recorder = target.recordUrls ? urlRecordingFetch() : undefined;
                const error = await operation.run(sellerBase, recorder?.fetch);
                ok(
                  error instanceof RedirectRefusedError,
                  `${label}: expected RedirectRefusedError, got ${String(error)}`,
                );
                ok(isAnyTransportError(error));
                strictEqual(error.code, "REDIRECT_REFUSED", label);
                strictEqual(error.name, "RedirectRefusedError", label);
                strictEqual(error.status, status, label);
                // Nothing reached the witness: not the JSON-RPC body, not the caller's key.
                deepStrictEqual(witness.seen, [], label);
                // The seller saw exactly the requests of the operation, the caller's key on each,
                // and no request to the Location's path.
                deepStrictEqual(
                  seller.seen.map((seen) => seen.headers.get("x-api-key")),
                  Array(operation.sellerRequests).fill(API_KEY),
                  label,
                );
                ok(
                  seller.seen.every((seen) =>
                    seen.path === "/mcp" || seen.path === "/a2a" ||
                    seen.path === "/.well-known/agent-card.json"
                  ),
                  `${label}: seller paths ${seller.seen.map((seen) => seen.path)}`,
                );
                if (recorder !== undefined) {
                  strictEqual(recorder.urls.length, operation.sellerRequests, label);
                  ok(
                    recorder.urls.every((url) => new URL(url).origin === sellerBase),
                    `${label}: requested ${recorder.urls}`,
                  );
                }
              }
            }
          }),
        );
      },
    );
  }
}

netTest(
  "McpClient refuses a 307 on the SSE reconnect after it resumed from the event id it was given",
  async () => {
    const witness = recording(() => new Response("witness reached"));
    let witnessBase = "";
    const seller = recording((_request, seen) =>
      sseReconnectSeller(
        seen,
        () => new Response(null, { status: 307, headers: { location: `${witnessBase}/sse` } }),
      )
    );
    await within(
      BOUND_MS,
      withTwoServers(seller.serve, witness.serve, async (sellerBase, other) => {
        witnessBase = other;
        const error = await rejection(mcpClient(sellerBase).callTool("get_products", {}));
        ok(error instanceof RedirectRefusedError, String(error));
        strictEqual(error.status, 307);
        const get = seller.seen.at(-1)!;
        strictEqual(get.method, "GET");
        strictEqual(get.headers.get("last-event-id"), "ev-1");
        strictEqual(get.headers.get("x-api-key"), API_KEY);
        deepStrictEqual(witness.seen, []);
      }),
    );
  },
);

netTest(
  'boundedFetch with redirect: "manual" hands back every 3xx untouched and follows none',
  async () => {
    const witness = recording(() => new Response("witness reached"));
    let status = 0;
    let location: string | undefined;
    const seller = recording(() =>
      new Response("Moved", {
        status,
        headers: { "x-seller": "kept", ...(location === undefined ? {} : { location }) },
      })
    );
    await within(
      BOUND_MS,
      withTwoServers(seller.serve, witness.serve, async (sellerBase, witnessBase) => {
        const fetch = boundedFetch(LIMITS);
        const targets = REDIRECT_TARGETS.flatMap((target) =>
          target.locations(sellerBase, witnessBase)
        );
        for (status of STATUSES) {
          for (location of targets) {
            const label = `${status} to ${location ?? "(no Location)"}`;
            seller.seen.length = 0;
            const response = await fetch(`${sellerBase}/mcp`, {
              method: "POST",
              redirect: "manual",
              headers: { "x-api-key": API_KEY },
              body: "{}",
            });
            strictEqual(response.status, status, label);
            strictEqual(response.headers.get("location"), location ?? null, label);
            strictEqual(response.redirected, false, label);
            strictEqual(response.headers.get("x-seller"), "kept", label);
            strictEqual(await response.text(), "Moved", label);
            strictEqual(seller.seen.length, 1, label);
            deepStrictEqual(witness.seen, [], label);
          }
        }
      }),
    );
  },
);

/**
 * A caller's `fetch` that follows a redirect by itself (the library asked for `manual`) and
 * reports it with `redirected: true`.
 */
function selfFollowingFetch(): FetchLike {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const first = await globalThis.fetch(input, { ...init, redirect: "manual" });
    const location = first.headers.get("location");
    await first.body?.cancel();
    if (first.status < 300 || first.status > 399 || location === null) return first;
    const next = await globalThis.fetch(new URL(location, url), { ...init, redirect: "manual" });
    return Object.defineProperty(next, "redirected", { value: true });
  };
}

netTest(
  "every client refuses an answer its custom fetch reports as redirected: true",
  async () => {
    // The witness answers each request as its protocol expects, so only `redirected` can refuse it.
    const witness = recording((request, seen) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith("agent-card.json")) return Response.json(a2aCard(url.origin));
      const message = parseRpc(seen.body);
      if (url.pathname === "/a2a") return rpcResult(message.id, COMPLETED_FRAME);
      if (message.id === undefined) return new Response(null, { status: 202 });
      return rpcResult(message.id, INIT_RESULT);
    });
    let witnessOrigin = "";
    const seller = recording((request) =>
      new Response(null, {
        status: 307,
        headers: { location: `${witnessOrigin}${new URL(request.url).pathname}` },
      })
    );
    await within(
      BOUND_MS,
      withTwoServers(seller.serve, witness.serve, async (sellerBase, witnessBase) => {
        witnessOrigin = witnessBase;
        const fetch = selfFollowingFetch();
        const a2a = a2aClient(sellerBase, { fetch });
        const runs: [string, () => Promise<unknown>][] = [
          ["McpClient.connect", () => mcpClient(sellerBase, { fetch }).connect()],
          [
            "A2AClient.sendMessage",
            () => a2a.sendMessage(a2a.invocation("get_products", {})),
          ],
          [
            "fetchAgentCard",
            () => fetchAgentCard(`${sellerBase}/.well-known/agent-card.json`, { fetch }),
          ],
          ["boundedFetch", () => boundedFetch(LIMITS, fetch)(`${sellerBase}/mcp`)],
          [
            'boundedFetch with redirect: "manual"',
            () => boundedFetch(LIMITS, fetch)(`${sellerBase}/mcp`, { redirect: "manual" }),
          ],
        ];
        for (const [name, run] of runs) {
          const error = await rejection(run());
          ok(error instanceof RedirectRefusedError, `${name}: ${String(error)}`);
          strictEqual(error.code, "REDIRECT_REFUSED", name);
        }
      }),
    );
  },
);

// ---------------------------------------------------------------------------------------------
// 2. The error contract
// ---------------------------------------------------------------------------------------------

const REFUSED_RUNS: readonly [string, (base: string) => Promise<unknown>][] = [
  ["McpClient.connect", (base) => mcpClient(base).connect()],
  ["McpClient.callTool", (base) => mcpClient(base).callTool("get_products", { brief: "CTV" })],
  [
    "A2AClient.sendMessage",
    (base) => {
      const client = a2aClient(base);
      return client.sendMessage(client.invocation("get_products", {}));
    },
  ],
  [
    "A2AClient.sendStreamingMessage",
    (base) => {
      const client = a2aClient(base);
      return client.sendStreamingMessage(client.invocation("get_products", {}));
    },
  ],
  ["fetchAgentCard", (base) => fetchAgentCard(`${base}/.well-known/agent-card.json`)],
  ["boundedFetch", (base) => boundedFetch(LIMITS)(`${base}/mcp`)],
];

for (const [name, run] of REFUSED_RUNS) {
  netTest(
    `${name} turns a refused connection into a NetworkError that names no runtime detail`,
    async () => {
      await within(
        BOUND_MS,
        (async () => {
          const base = await closedBase();
          const error = await rejection(run(base));
          assertNetworkError(error, name, new URL(base).port);
          ok(error instanceof NetworkError);
          ok(error.cause instanceof TypeError, `cause: ${String(error.cause)}`);
        })(),
      );
    },
  );
}

/** A `fetch` that fails like a refused connection `failures` times, then sends for real. */
function flakyFetch(failures: number): { calls: { count: number }; fetch: FetchLike } {
  const calls = { count: 0 };
  return {
    calls,
    fetch: (input, init) => {
      if (++calls.count <= failures) {
        return Promise.reject(
          new TypeError(
            "error sending request for url (http://127.0.0.1/): client error (Connect): tcp " +
              "connect error: Connection refused (os error 111)",
          ),
        );
      }
      return globalThis.fetch(input, init);
    },
  };
}

netTest(
  "McpClient.callTool with retry retries two refused connections and succeeds on the third attempt",
  async () => {
    const seller = recording(mcpSeller((id) => rpcResult(id, TOOL_SUCCESS)));
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { waits, sleep } = recordingSleep();
        const flaky = flakyFetch(2);
        const client = mcpClient(base, { fetch: flaky.fetch, retry: { maxRetries: 2, sleep } });
        const result = await client.callTool("get_products", { brief: "CTV" });
        deepStrictEqual(result, { kind: "success", data: TOOL_SUCCESS.structuredContent });
        strictEqual(waits.length, 2); // three attempts: two failed, two waits
        // Attempts 1 and 2 failed on initialize; attempt 3 ran initialize, the notification and
        // tools/call.
        strictEqual(flaky.calls.count, 5);
        deepStrictEqual(
          seller.seen.map((seen) => parseRpc(seen.body).method),
          ["initialize", "notifications/initialized", "tools/call"],
        );
      }),
    );
  },
);

netTest(
  "A2AClient.sendMessage with retry retries two refused connections and succeeds on the third " +
    "attempt",
  async () => {
    const seller = recording((_request, seen) =>
      rpcResult(parseRpc(seen.body).id, COMPLETED_FRAME)
    );
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { waits, sleep } = recordingSleep();
        const flaky = flakyFetch(2);
        const client = a2aClient(base, { fetch: flaky.fetch, retry: { maxRetries: 2, sleep } });
        const result = await client.sendMessage(client.invocation("get_products", {}));
        strictEqual(result.kind, "success");
        strictEqual(flaky.calls.count, 3);
        strictEqual(waits.length, 2);
        strictEqual(seller.seen.length, 1);
      }),
    );
  },
);

netTest(
  "retry gives up on a port that stays refused with the NetworkError after maxRetries + 1 attempts",
  async () => {
    await within(
      BOUND_MS,
      (async () => {
        const base = await closedBase();
        const port = new URL(base).port;
        const mcpCalls = flakyFetch(0);
        const { waits, sleep } = recordingSleep();
        const mcp = mcpClient(base, { fetch: mcpCalls.fetch, retry: { maxRetries: 2, sleep } });
        assertNetworkError(await rejection(mcp.callTool("get_products", {})), "McpClient", port);
        strictEqual(mcpCalls.calls.count, 3);
        strictEqual(waits.length, 2);
        const a2aCalls = flakyFetch(0);
        const a2a = a2aClient(base, { fetch: a2aCalls.fetch, retry: { maxRetries: 2, sleep } });
        assertNetworkError(
          await rejection(a2a.sendMessage(a2a.invocation("get_products", {}))),
          "A2AClient",
          port,
        );
        strictEqual(a2aCalls.calls.count, 3);
        strictEqual(waits.length, 4);
      })(),
    );
  },
);

/** Operations whose answer body breaks off half way: each must fail with a NetworkError. */
const BROKEN_OFF_RUNS: readonly {
  readonly name: string;
  readonly seller: Handler;
  readonly run: (base: string) => Promise<unknown>;
}[] = [
  {
    name: "McpClient.connect (JSON initialize answer)",
    seller: (_request, seen) =>
      brokenOff(
        JSON.stringify({ jsonrpc: "2.0", id: parseRpc(seen.body).id, result: INIT_RESULT }),
        "application/json",
      ),
    run: (base) => mcpClient(base).connect(),
  },
  {
    name: "McpClient.callTool (JSON tools/call answer)",
    seller: mcpSeller((id) =>
      brokenOff(JSON.stringify({ jsonrpc: "2.0", id, result: TOOL_SUCCESS }), "application/json")
    ),
    run: (base) => mcpClient(base).callTool("get_products", {}),
  },
  {
    name: "McpClient.callTool (SSE tools/call answer without an event id)",
    seller: mcpSeller((id) =>
      brokenOff(
        `data: ${JSON.stringify({ jsonrpc: "2.0", id, result: TOOL_SUCCESS })}\n\n`,
        "text/event-stream",
      )
    ),
    run: (base) => mcpClient(base).callTool("get_products", {}),
  },
  {
    name: "A2AClient.sendMessage",
    seller: (_request, seen) =>
      brokenOff(
        JSON.stringify({ jsonrpc: "2.0", id: parseRpc(seen.body).id, result: COMPLETED_FRAME }),
        "application/json",
      ),
    run: (base) => {
      const client = a2aClient(base);
      return client.sendMessage(client.invocation("get_products", {}));
    },
  },
  {
    name: "A2AClient.sendStreamingMessage",
    seller: (_request, seen) =>
      brokenOff(
        sseFrames(parseRpc(seen.body).id, [WORKING_FRAME, COMPLETED_FRAME]),
        "text/event-stream",
      ),
    run: (base) => {
      const client = a2aClient(base);
      return client.sendStreamingMessage(client.invocation("get_products", {}));
    },
  },
  {
    name: "fetchAgentCard",
    seller: (request) =>
      brokenOff(JSON.stringify(a2aCard(new URL(request.url).origin)), "application/json"),
    run: (base) => fetchAgentCard(`${base}/.well-known/agent-card.json`),
  },
  {
    name: "boundedFetch (reading the body)",
    seller: () =>
      brokenOff(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), "application/json"),
    run: async (base) => await (await boundedFetch(LIMITS)(`${base}/mcp`)).text(),
  },
];

for (const { name, seller, run } of BROKEN_OFF_RUNS) {
  netTest(`${name} turns a body that breaks off half way into a NetworkError`, async () => {
    const server = recording(seller);
    await within(
      BOUND_MS,
      withServer(server.serve, async (base) => {
        const error = await rejection(run(base));
        assertNetworkError(error, name, new URL(base).port);
        ok(!(error instanceof TypeError));
      }),
    );
  });
}

/** A throttling answer: `status`, a `Retry-After` of `retryAfter()`, a text/plain body. */
function throttled(status: number, retryAfter: () => string): Response {
  return new Response("Slow down, buyer", {
    status,
    headers: { "retry-after": retryAfter(), "content-type": "text/plain; charset=utf-8" },
  });
}

const RETRY_AFTER_FORMS: readonly {
  readonly name: string;
  readonly value: () => string;
  /** The seconds the header may stand for (an HTTP-date has whole seconds: allow a tick). */
  readonly seconds: readonly number[];
}[] = [
  { name: "delta-seconds 7", value: () => "7", seconds: [7] }, // a 7_000 ms wait, exactly
  {
    name: "an HTTP-date 30 s ahead",
    value: () => new Date(Date.now() + 30_000).toUTCString(),
    seconds: [29, 30, 31],
  },
];

const THROTTLED_RUNS: readonly {
  readonly name: string;
  /** The seller, answering the request under test with `answer()`. */
  readonly seller: (answer: () => Response) => Handler;
  readonly run: (base: string) => Promise<unknown>;
}[] = [
  {
    name: "McpClient.connect",
    seller: (answer) => () => answer(),
    run: (base) => mcpClient(base).connect(),
  },
  {
    name: "McpClient.callTool",
    seller: (answer) => mcpSeller(() => answer()),
    run: (base) => mcpClient(base).callTool("get_products", {}),
  },
  {
    name: "A2AClient.sendMessage",
    seller: (answer) => () => answer(),
    run: (base) => {
      const client = a2aClient(base);
      return client.sendMessage(client.invocation("get_products", {}));
    },
  },
  {
    name: "A2AClient.sendStreamingMessage",
    seller: (answer) => () => answer(),
    run: (base) => {
      const client = a2aClient(base);
      return client.sendStreamingMessage(client.invocation("get_products", {}));
    },
  },
  {
    name: "fetchAgentCard",
    seller: (answer) => () => answer(),
    run: (base) => fetchAgentCard(`${base}/.well-known/agent-card.json`),
  },
];

for (const { name, seller, run } of THROTTLED_RUNS) {
  netTest(
    `${name} turns 429 and 503 with Retry-After into an HttpStatusError carrying retry_after`,
    async () => {
      let answer: () => Response = () => new Response(null, { status: 500 });
      const server = recording(seller(() => answer()));
      await within(
        BOUND_MS,
        withServer(server.serve, async (base) => {
          for (const status of [429, 503]) {
            for (const form of RETRY_AFTER_FORMS) {
              const label = `${status} with ${form.name}`;
              answer = () => throttled(status, form.value);
              const error = await rejection(run(base));
              ok(error instanceof HttpStatusError, `${label}: ${String(error)}`);
              ok(isAnyTransportError(error));
              strictEqual(error.code, "HTTP_STATUS", label);
              strictEqual(error.status, status, label);
              ok(
                form.seconds.includes(error.retryAfterSeconds!),
                `${label}: retryAfterSeconds ${error.retryAfterSeconds}`,
              );
              ok(error.adcpError !== null, label);
              strictEqual(
                error.adcpError.code,
                status === 429 ? "RATE_LIMITED" : "SERVICE_UNAVAILABLE",
                label,
              );
              strictEqual(error.adcpError.recovery, "transient", label);
              strictEqual(error.adcpError.retry_after, error.retryAfterSeconds, label);
              ok(!error.message.includes("Slow down"), `${label}: seller text in the message`);
            }
          }
        }),
      );
    },
  );
}

netTest(
  "McpClient.callTool and A2AClient.sendMessage with retry wait the Retry-After of a 429 or 503",
  async () => {
    let form = RETRY_AFTER_FORMS[0]!;
    let status = 429;
    const mcp = recording(
      mcpSeller((id, _seen, index) =>
        index % 2 === 0 ? throttled(status, form.value) : rpcResult(id, TOOL_SUCCESS)
      ),
    );
    let a2aCalls = 0;
    const a2a = recording((_request, seen) =>
      a2aCalls++ % 2 === 0
        ? throttled(status, form.value)
        : rpcResult(parseRpc(seen.body).id, COMPLETED_FRAME)
    );
    await within(
      BOUND_MS,
      withTwoServers(mcp.serve, a2a.serve, async (mcpBase, a2aBase) => {
        for (status of [429, 503]) {
          for (form of RETRY_AFTER_FORMS) {
            const label = `${status} with ${form.name}`;
            const mcpSleep = recordingSleep();
            const mcpResult = await mcpClient(mcpBase, { retry: { sleep: mcpSleep.sleep } })
              .callTool("get_products", {});
            strictEqual(mcpResult.kind, "success", label);
            strictEqual(mcpSleep.waits.length, 1, label);
            ok(
              form.seconds.map((seconds) => seconds * 1_000).includes(mcpSleep.waits[0]!),
              `${label}: McpClient waited ${mcpSleep.waits}`,
            );
            const a2aSleep = recordingSleep();
            const client = a2aClient(a2aBase, { retry: { sleep: a2aSleep.sleep } });
            const a2aResult = await client.sendMessage(client.invocation("get_products", {}));
            strictEqual(a2aResult.kind, "success", label);
            strictEqual(a2aSleep.waits.length, 1, label);
            ok(
              form.seconds.map((seconds) => seconds * 1_000).includes(a2aSleep.waits[0]!),
              `${label}: A2AClient waited ${a2aSleep.waits}`,
            );
          }
        }
      }),
    );
  },
);

netTest(
  "a 401 is an HttpStatusError without an AdCP error, and retry sends it once",
  async () => {
    const unauthorized = () =>
      new Response("Who are you?", {
        status: 401,
        headers: { "content-type": "text/plain", "www-authenticate": "Bearer" },
      });
    const mcp = recording(mcpSeller(() => unauthorized()));
    const other = recording(() => unauthorized());
    await within(
      BOUND_MS,
      withTwoServers(mcp.serve, other.serve, async (mcpBase, otherBase) => {
        const { waits, sleep } = recordingSleep();
        const errors: [string, unknown][] = [];
        errors.push([
          "McpClient.callTool",
          await rejection(mcpClient(mcpBase, { retry: { sleep } }).callTool("get_products", {})),
        ]);
        const client = a2aClient(otherBase, { retry: { sleep } });
        errors.push([
          "A2AClient.sendMessage",
          await rejection(client.sendMessage(client.invocation("get_products", {}))),
        ]);
        errors.push([
          "fetchAgentCard",
          await rejection(fetchAgentCard(`${otherBase}/.well-known/agent-card.json`)),
        ]);
        for (const [name, error] of errors) {
          ok(error instanceof HttpStatusError, `${name}: ${String(error)}`);
          strictEqual(error.status, 401, name);
          strictEqual(error.adcpError, null, name);
          strictEqual(error.retryAfterSeconds, undefined, name);
        }
        deepStrictEqual(waits, []);
        strictEqual(
          mcp.seen.filter((seen) => parseRpc(seen.body).method === "tools/call").length,
          1,
        );
        deepStrictEqual(other.seen.map((seen) => seen.path), [
          "/a2a",
          "/.well-known/agent-card.json",
        ]);
      }),
    );
  },
);

for (
  const [what, id] of [["a control character", "a\u0001b"], ["a non-Latin-1 character", "\u2603"]]
) {
  netTest(
    `McpClient refuses to resume from an SSE id holding ${what} and sends no reconnect`,
    async () => {
      const stream = () => sse(`retry: 1\nid: ${id}\ndata: \n\n`);
      const onInitialize = recording((_request, seen) => {
        const message = parseRpc(seen.body);
        if (seen.method === "GET") return new Response("reconnected", { status: 500 });
        if (message.id === undefined) return new Response(null, { status: 202 });
        return stream();
      });
      const onToolsCall = recording(
        mcpSeller(() => stream(), () => new Response(null, { status: 500 })),
      );
      await within(
        BOUND_MS,
        withTwoServers(onInitialize.serve, onToolsCall.serve, async (initBase, callBase) => {
          const runs: [string, () => Promise<unknown>][] = [
            ["connect", () => mcpClient(initBase).connect()],
            ["callTool", () => mcpClient(callBase).callTool("get_products", {})],
          ];
          for (const [name, call] of runs) {
            const error = await rejection(call());
            ok(!(error instanceof TypeError), `${name}: a bare TypeError: ${String(error)}`);
            ok(error instanceof AgentProtocolError, `${name}: ${String(error)}`);
            strictEqual(error.reason, "invalid_message", name);
          }
          deepStrictEqual(onInitialize.seen.map((seen) => seen.method), ["POST"]);
          deepStrictEqual(onToolsCall.seen.map((seen) => seen.method), ["POST", "POST", "POST"]);
        }),
      );
    },
  );
}

for (const retry of [false, true]) {
  netTest(
    `McpClient passes the very object its onNotification throws to the caller, with no reconnect${
      retry ? " (retry on)" : ""
    }`,
    async () => {
      const progress = {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 1, progress: 50 },
      };
      const seller = recording(mcpSeller(
        () => sse(`retry: 1\nid: n-1\ndata: ${JSON.stringify(progress)}\n\n`),
        () => new Response("reconnected", { status: 500 }),
      ));
      await within(
        BOUND_MS,
        withServer(seller.serve, async (base) => {
          const thrown = new Error("the caller's own failure");
          const { waits, sleep } = recordingSleep();
          const client = mcpClient(base, {
            onNotification: () => {
              throw thrown;
            },
            ...(retry ? { retry: { sleep } } : {}),
          });
          const error = await rejection(client.callTool("get_products", {}));
          strictEqual(error, thrown);
          deepStrictEqual(waits, []);
          deepStrictEqual(
            seller.seen.map((seen) => `${seen.method} ${parseRpc(seen.body).method ?? ""}`),
            ["POST initialize", "POST notifications/initialized", "POST tools/call"],
          );
        }),
      );
    },
  );

  netTest(
    `A2AClient passes the very object its onEvent throws to the caller${
      retry ? " (retry on)" : ""
    }`,
    async () => {
      const seller = recording((_request, seen) =>
        sse(sseFrames(parseRpc(seen.body).id, [WORKING_FRAME, COMPLETED_FRAME]))
      );
      await within(
        BOUND_MS,
        withServer(seller.serve, async (base) => {
          const thrown = new Error("the caller's own failure");
          const { waits, sleep } = recordingSleep();
          const client = a2aClient(base, retry ? { retry: { sleep } } : {});
          const error = await rejection(
            client.sendStreamingMessage(client.invocation("get_products", {}), {
              onEvent: () => {
                throw thrown;
              },
            }),
          );
          strictEqual(error, thrown);
          deepStrictEqual(waits, []);
          strictEqual(seller.seen.length, 1);
        }),
      );
    },
  );
}

/** A throttling answer that claims JSON but whose body is empty or not JSON (a gateway's page). */
const JSON_LABELLED_BODIES: readonly [string, string][] = [
  ["an empty body", ""],
  ["an HTML page", "<html><body>503 Service Temporarily Unavailable</body></html>"],
];

for (
  const [name, seller, run] of [
    [
      "McpClient.callTool",
      (answer: () => Response) => mcpSeller(() => answer()),
      (base: string) => mcpClient(base).callTool("get_products", {}),
    ],
    [
      "A2AClient.sendMessage",
      (answer: () => Response) => () => answer(),
      (base: string) => {
        const client = a2aClient(base);
        return client.sendMessage(client.invocation("get_products", {}));
      },
    ],
  ] as const
) {
  netTest(
    `${name} keeps the status and Retry-After of a 429 or 503 labelled JSON whose body does not ` +
      `parse`,
    async () => {
      let answer: () => Response = () => new Response(null, { status: 500 });
      const server = recording(seller(() => answer()));
      await within(
        BOUND_MS,
        withServer(server.serve, async (base) => {
          for (const status of [429, 503]) {
            for (const [what, body] of JSON_LABELLED_BODIES) {
              const label = `${status} with ${what}`;
              answer = () =>
                new Response(body, {
                  status,
                  headers: { "content-type": "application/json", "retry-after": "7" },
                });
              const error = await rejection(run(base));
              ok(error instanceof HttpStatusError, `${label}: ${String(error)}`);
              strictEqual(error.status, status, label);
              strictEqual(error.retryAfterSeconds, 7, label);
              strictEqual(error.adcpError?.retry_after, 7, label);
            }
          }
        }),
      );
    },
  );
}

netTest(
  "McpClient with retry never resends a tools/call because its own onNotification threw",
  async () => {
    // The caller's callback fails with an error that happens to look transient (it came from the
    // caller's own network call): it is the caller's failure, not the seller's, so it must reach
    // the caller at once, and the mutating call must not be sent again.
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } };
    const seller = recording(mcpSeller(
      () => sse(`data: ${JSON.stringify(progress)}\n\n`),
      () => new Response("reconnected", { status: 500 }),
    ));
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const thrown = new NetworkError(new TypeError("the caller's own request failed"));
        const { waits, sleep } = recordingSleep();
        const client = mcpClient(base, {
          retry: { sleep },
          onNotification: () => {
            throw thrown;
          },
        });
        const error = await rejection(
          client.callTool("create_media_buy", { buyer_ref: "x" }, { idempotencyKey: true }),
        );
        strictEqual(error, thrown);
        deepStrictEqual(waits, []);
        strictEqual(toolCallBodies(seller.seen).length, 1);
      }),
    );
  },
);

netTest(
  "A2AClient with retry never resends SendStreamingMessage because its own onEvent threw",
  async () => {
    const seller = recording((_request, seen) =>
      sse(sseFrames(parseRpc(seen.body).id, [WORKING_FRAME, COMPLETED_FRAME]))
    );
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const thrown = new NetworkError(new TypeError("the caller's own request failed"));
        const { waits, sleep } = recordingSleep();
        const client = a2aClient(base, { retry: { sleep } });
        const error = await rejection(
          client.sendStreamingMessage(client.invocation("create_media_buy", {}), {
            onEvent: () => {
              throw thrown;
            },
          }),
        );
        strictEqual(error, thrown);
        deepStrictEqual(waits, []);
        strictEqual(seller.seen.length, 1);
      }),
    );
  },
);

// ---------------------------------------------------------------------------------------------
// 3. Retries resend the same bytes
// ---------------------------------------------------------------------------------------------

/** The `tools/call` bodies a server received. */
function toolCallBodies(seen: readonly Seen[]): string[] {
  return seen.filter((entry) => parseRpc(entry.body).method === "tools/call").map((entry) =>
    entry.body
  );
}

function argumentsOf(body: string): Record<string, unknown> {
  return parseRpc(body).params!.arguments as Record<string, unknown>;
}

const TRANSIENT_ANSWERS: readonly [string, (id: number | string) => Response][] = [
  [
    "a -32029 JSON-RPC error with a transient adcp_error",
    (id) =>
      Response.json({
        jsonrpc: "2.0",
        id,
        error: {
          code: -32029,
          message: "Rate limited",
          data: {
            adcp_error: {
              code: "RATE_LIMITED",
              message: "x",
              recovery: "transient",
              retry_after: 1,
            },
          },
        },
      }),
  ],
  [
    "an HTTP 503",
    () => new Response("Busy", { status: 503, headers: { "content-type": "text/plain" } }),
  ],
];

for (const [what, transient] of TRANSIENT_ANSWERS) {
  netTest(
    `McpClient retry after ${what} resends the tools/call byte for byte, with one UUID v4 key`,
    async () => {
      const seller = recording(
        mcpSeller((id, _seen, index) => index === 0 ? transient(id) : rpcResult(id, TOOL_SUCCESS)),
      );
      await within(
        BOUND_MS,
        withServer(seller.serve, async (base) => {
          const { waits, sleep } = recordingSleep();
          const client = mcpClient(base, { retry: { sleep } });
          const result = await client.callTool("create_media_buy", { buyer_ref: "x" }, {
            idempotencyKey: true,
          });
          strictEqual(result.kind, "success");
          strictEqual(waits.length, 1);
          const [first, second, ...rest] = toolCallBodies(seller.seen);
          deepStrictEqual(rest, []);
          strictEqual(second, first);
          const args = argumentsOf(first!);
          strictEqual(args.buyer_ref, "x");
          ok(UUID_V4.test(String(args.idempotency_key)), `key ${args.idempotency_key}`);
          ok(first!.includes(`"idempotency_key":"${args.idempotency_key}"`));

          await client.callTool("create_media_buy", { buyer_ref: "x" }, { idempotencyKey: true });
          const third = toolCallBodies(seller.seen)[2]!;
          const key = argumentsOf(third).idempotency_key;
          ok(UUID_V4.test(String(key)), `key ${key}`);
          notStrictEqual(key, args.idempotency_key);
        }),
      );
    },
  );
}

netTest(
  "A2AClient retry after a failed task with a transient error resends SendMessage byte for byte",
  async () => {
    let calls = 0;
    const seller = recording((_request, seen) =>
      rpcResult(parseRpc(seen.body).id, {
        task: calls++ === 0 ? RATE_LIMITED_TASK : COMPLETED_TASK,
      })
    );
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { waits, sleep } = recordingSleep();
        const client = a2aClient(base, { retry: { sleep } });
        const result = await client.sendMessage(
          client.invocation("create_media_buy", { buyer_ref: "x" }, { idempotencyKey: true }),
        );
        strictEqual(result.kind, "success");
        deepStrictEqual(waits, [1_000]);
        const [first, second, ...rest] = seller.seen.map((seen) => seen.body);
        deepStrictEqual(rest, []);
        strictEqual(second, first);
        const inputOf = (body: string) => {
          const params = parseRpc(body).params as {
            message: { messageId: string; parts: { data: { input: Record<string, unknown> } }[] };
          };
          return {
            messageId: params.message.messageId,
            input: params.message.parts[0]!.data.input,
          };
        };
        const sent = inputOf(first!);
        strictEqual(sent.input.buyer_ref, "x");
        ok(UUID_V4.test(String(sent.input.idempotency_key)), `key ${sent.input.idempotency_key}`);

        await client.sendMessage(
          client.invocation("create_media_buy", { buyer_ref: "x" }, { idempotencyKey: true }),
        );
        const again = inputOf(seller.seen[2]!.body);
        ok(UUID_V4.test(String(again.input.idempotency_key)));
        notStrictEqual(again.input.idempotency_key, sent.input.idempotency_key);
        notStrictEqual(again.messageId, sent.messageId);
      }),
    );
  },
);

netTest(
  "withRetry around McpClient.callTool after a NetworkError resends the same arguments bytes",
  async () => {
    const seller = recording(mcpSeller((id, _seen, index) =>
      index === 0
        // The seller received the call, then the answer broke off: the outcome is unknown.
        ? brokenOff(
          JSON.stringify({ jsonrpc: "2.0", id, result: TOOL_SUCCESS }),
          "application/json",
        )
        : rpcResult(id, TOOL_SUCCESS)
    ));
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { waits, sleep } = recordingSleep();
        const client = mcpClient(base);
        const args = withIdempotencyKey({ buyer_ref: "x", packages: [{ budget: 1_000 }] });
        const thrown: unknown[] = [];
        const result = await withRetry(() => client.callTool("create_media_buy", args), {
          policy: { sleep },
          onDecision: (event) => thrown.push(event.thrown),
        });
        strictEqual(result.kind, "success");
        strictEqual(thrown.length, 1);
        ok(thrown[0] instanceof NetworkError, String(thrown[0]));
        strictEqual(waits.length, 1);
        const [first, second, ...rest] = toolCallBodies(seller.seen);
        deepStrictEqual(rest, []);
        const paramsText = (body: string) => body.slice(body.indexOf('"params":'));
        strictEqual(paramsText(second!), paramsText(first!));
        strictEqual(
          JSON.stringify(argumentsOf(second!)),
          JSON.stringify(argumentsOf(first!)),
        );
        strictEqual(argumentsOf(first!).idempotency_key, args.idempotency_key);
        ok(UUID_V4.test(args.idempotency_key));
      }),
    );
  },
);

netTest(
  "withRetry around A2AClient.sendMessage after a NetworkError resends the same message",
  async () => {
    let calls = 0;
    const seller = recording((_request, seen) => {
      const id = parseRpc(seen.body).id;
      return calls++ === 0
        ? brokenOff(
          JSON.stringify({ jsonrpc: "2.0", id, result: COMPLETED_FRAME }),
          "application/json",
        )
        : rpcResult(id, COMPLETED_FRAME);
    });
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { sleep } = recordingSleep();
        const client = a2aClient(base);
        const message = client.invocation("create_media_buy", { buyer_ref: "x" }, {
          idempotencyKey: true,
        });
        const result = await withRetry(() => client.sendMessage(message), { policy: { sleep } });
        strictEqual(result.kind, "success");
        const [first, second, ...rest] = seller.seen.map((seen) => seen.body);
        deepStrictEqual(rest, []);
        const paramsText = (body: string) => body.slice(body.indexOf('"params":'));
        strictEqual(paramsText(second!), paramsText(first!));
      }),
    );
  },
);

// ---------------------------------------------------------------------------------------------
// 4. Constructor validation
// ---------------------------------------------------------------------------------------------

const BAD_OPTIONS: readonly [string, string, A2AClientOptions][] = [
  ["authHosts", 'authHosts: ["not a host!"]', { authHosts: ["not a host!"] }],
  ["allowedHosts", "allowedHosts: [42]", { allowedHosts: [42] as unknown as string[] }],
  ["extensions", 'extensions: ["not a uri"]', { extensions: ["not a uri"] }],
  ["allowHttp", 'allowHttp: "yes"', { allowHttp: "yes" as unknown as boolean }],
];

for (const [option, shown, options] of BAD_OPTIONS) {
  netTest(`new A2AClient() throws a TypeError naming ${option} for { ${shown} }`, async () => {
    await within(
      BOUND_MS,
      Promise.resolve().then(() => {
        const base = "https://sales.example";
        let requests = 0;
        throws(
          () =>
            new A2AClient(a2aCard(base), {
              cardUrl: `${base}/.well-known/agent-card.json`,
              fetch: () => {
                requests++;
                return Promise.resolve(new Response(null, { status: 500 }));
              },
              ...options,
            }),
          (error: unknown) => {
            ok(error instanceof TypeError, String(error));
            ok(error.message.includes(option), `message: ${error.message}`);
            return true;
          },
        );
        strictEqual(requests, 0);
      }),
    );
  });
}
