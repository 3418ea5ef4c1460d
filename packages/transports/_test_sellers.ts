// Hand-written sellers for the client tests: servers on 127.0.0.1 that record every request they
// receive (every byte of it), MCP and A2A answers to serve, and clients pointed at them with a
// caller's credential and a deadline of their own.
import { encoder, withServer } from "./_test_utils.ts";
import { A2AClient, type A2AClientOptions } from "./a2a/mod.ts";
import { McpClient, type McpClientOptions } from "./mcp/mod.ts";
import type { FetchLike } from "./read/bounded_fetch.ts";

/** Each client call's own deadline: a client that follows a redirect to 169.254.169.254 fails. */
export const LIMITS = { timeoutMs: 5_000 };
/** The redirect statuses. */
export const STATUSES = [301, 302, 303, 307, 308] as const;
/** A credential the caller sets; no request to a redirect target may carry it. */
export const API_KEY = "k-3b1f9e-caller-secret";
/** A version 4 UUID, as a generated idempotency key is. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One request as a server received it: method, path (with query), headers, raw body text. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly body: string;
}

/** A seller's answer to a request it recorded. */
export type Handler = (request: Request, seen: Seen) => Response | Promise<Response>;

/**
 * A server handler that records every request (reading its whole body) before `handler` answers.
 */
export function recording(handler: Handler): { seen: Seen[]; serve: Deno.ServeHandler } {
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
export function withTwoServers(
  first: Deno.ServeHandler,
  second: Deno.ServeHandler,
  fn: (firstBase: string, secondBase: string) => Promise<void>,
): Promise<void> {
  return withServer(first, (a) => withServer(second, (b) => fn(a, b)));
}

/**
 * A 200 whose body breaks off: it declares `Content-Length` for all of `text` and sends only the
 * first half, then the server ends the connection.
 */
export function brokenOff(text: string, contentType: string): Response {
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

/** A 200 text/event-stream answer of `text`. */
export function sse(text: string): Response {
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/** A fake `sleep` for retry policies: records each wait and does not wait. */
export function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}

/** An `initialize` result without serverInfo. */
export const INIT = { protocolVersion: "2025-11-25", capabilities: { tools: {} } };
/** An `initialize` result. */
export const INIT_RESULT = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: {} },
  serverInfo: { name: "hostile-seller", version: "1.0.0" },
};
/** A successful `tools/call` result. */
export const TOOL_SUCCESS = {
  content: [{ type: "text", text: "Done" }],
  structuredContent: { status: "completed", media_buy_id: "mb_1" },
};

/** A JSON-RPC result answer. */
export function rpcResult(id: unknown, result: unknown): Response {
  return Response.json({ jsonrpc: "2.0", id, result });
}

/** A parsed JSON-RPC message body (the fields the servers here look at). */
export interface RpcBody {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
}

/** The JSON-RPC message of a request body (`{}` for an empty body). */
export function parseRpc(body: string): RpcBody {
  return body === "" ? {} : JSON.parse(body) as RpcBody;
}

/**
 * A hand-written MCP server: `initialize` answered in JSON, notifications with 202, `tools/call`
 * by `toolsCall` (with its 0-based index), a GET (an SSE reconnect) by `get` (405 when absent).
 */
export function mcpSeller(
  toolsCall: (id: number | string, seen: Seen, index: number) => Response | Promise<Response>,
  get?: (seen: Seen) => Response | Promise<Response>,
): Handler {
  let calls = 0;
  return (_request, seen) => mcpAnswer(seen, (id) => toolsCall(id, seen, calls++), get);
}

/** What {@link mcpSeller} answers to one request. */
export function mcpAnswer(
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

/** An McpClient for the seller at `base`, sending the caller's key, with its own deadline. */
export function mcpClient(base: string, options: McpClientOptions = {}): McpClient {
  return new McpClient(`${base}/mcp`, {
    headers: { "x-api-key": API_KEY },
    defaultLimits: LIMITS,
    ...options,
  });
}

/** The agent card of the A2A seller at `base`. */
export function a2aCard(base: string): Record<string, unknown> {
  return {
    name: "Hostile seller",
    supportedInterfaces: [{
      url: `${base}/a2a`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  };
}

/** An A2AClient for the seller at `base`, sending the caller's key, with its own deadline. */
export function a2aClient(base: string, options: A2AClientOptions = {}): A2AClient {
  return new A2AClient(a2aCard(base), {
    cardUrl: `${base}/.well-known/agent-card.json`,
    headers: { "x-api-key": API_KEY },
    defaultLimits: LIMITS,
    ...options,
  });
}

const IDS = { id: "task_1", contextId: "ctx_1" };
/** A completed A2A task with one data artifact. */
export const COMPLETED_TASK = {
  ...IDS,
  status: { state: "TASK_STATE_COMPLETED" },
  artifacts: [{ artifactId: "result", parts: [{ data: { status: "completed", ok: true } }] }],
};
/** A failed task whose artifact carries a transient AdCP error (Transport Error Mapping, A2A). */
export const RATE_LIMITED_TASK = {
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
/** A streamed A2A status update: the task is working. */
export const WORKING_FRAME = {
  statusUpdate: { taskId: "task_1", contextId: "ctx_1", status: { state: "TASK_STATE_WORKING" } },
};
/** A streamed A2A frame carrying the completed task. */
export const COMPLETED_FRAME = { task: COMPLETED_TASK };

/** JSON-RPC results `frames`, one SSE event each, answering request `id`. */
export function sseFrames(id: unknown, frames: readonly unknown[]): string {
  return frames.map((result) => `data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`)
    .join("");
}

/** Answers an `initialize`, notifications and a `tools/call`, and redirects the reconnect GET. */
export function sseReconnectSeller(seen: Seen, redirect: () => Response): Response {
  if (seen.method === "GET") return redirect();
  const message = parseRpc(seen.body);
  if (message.id === undefined) return new Response(null, { status: 202 });
  if (message.method === "initialize") return rpcResult(message.id, INIT_RESULT);
  // The stream primes an event id, then drops before the response: the client must resume.
  return sse("retry: 1\nid: ev-1\ndata: \n\n");
}

/** Where a redirect points, as the test names it. */
export interface RedirectTarget {
  readonly name: string;
  /** The Location values (`undefined`: no Location header), given the seller and the witness. */
  readonly locations: (seller: string, witness: string) => (string | undefined)[];
  /**
   * Whether the operation runs with a URL-recording fetch (for targets no server stands behind).
   */
  readonly recordUrls: boolean;
}

/** Where the redirect tests point a redirect. */
export const REDIRECT_TARGETS: readonly RedirectTarget[] = [
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

/** A `fetch` that fails like a refused connection `failures` times, then sends for real. */
export function flakyFetch(failures: number): { calls: { count: number }; fetch: FetchLike } {
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
