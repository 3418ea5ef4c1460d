// The agent of client_bench.ts, run in its own process so that its CPU time is not counted with
// the client's (scripts/bench.ts times the client's process):
//
//   deno run --no-config --allow-net=127.0.0.1 packages/transports/testdata/bench_server.ts
//
// It listens on 127.0.0.1 at a random port, prints one line `{"port":N,"pid":P}` on stdout, and
// exits when its stdin ends (the process that started it exited, however it ended) or on a
// signal. Every answer is precomputed bytes: per request it only reads the JSON-RPC id and
// splices it in, so that it does little work of its own on the shared cores.
//
// Routes (`SIZE` is `small`, about 1 KB of AdCP data, or `large`, about 1 MiB):
// - `POST /mcp/json/SIZE`, `POST /mcp/sse/SIZE`: an MCP Streamable HTTP agent answering in one
//   JSON body or in an SSE stream (`event: message`, as @modelcontextprotocol/sdk's server writes
//   it): `initialize` (with an `Mcp-Session-Id`), notifications (202), `ping`, `tools/list` (one
//   page of AdCP tools) and `tools/call` (an AdCP success result, `structuredContent` plus a
//   summary TextPart, whatever the tool). `GET` is 405 (no standalone stream), `DELETE` ends the
//   session.
// - `POST /a2a/SIZE`: an A2A 1.0 JSON-RPC agent: `SendMessage` answers a completed Task in the
//   AdCP A2A profile's shape (one artifact, one DataPart), `SendStreamingMessage` an SSE stream
//   of five frames (submitted task, working status, two artifact chunks, completed status).
// Nothing here is bounded or checked: it serves the benchmark's own clients only.

/** The data sizes served. */
export type BenchSize = "small" | "large";

/** Most bytes of the serialized AdCP data of a `large` answer: within A2A's 1 MiB DataPart cap. */
export const LARGE_DATA_BYTES = 1_000_000;

/** Products in a `small` answer (about 1 KB of JSON). */
export const SMALL_PRODUCTS = 2;

/** The AdCP tools `tools/list` lists. */
export const BENCH_TOOLS: readonly string[] = [
  "get_adcp_capabilities",
  "get_products",
  "list_creative_formats",
  "list_authorized_properties",
  "create_media_buy",
  "update_media_buy",
  "get_media_buys",
  "get_media_buy_delivery",
  "sync_creatives",
  "list_creatives",
  "provide_performance_feedback",
  "get_signals",
  "activate_signal",
  "sync_accounts",
  "list_accounts",
  "sync_audiences",
  "sync_catalogs",
  "sync_event_sources",
  "log_event",
  "build_creative",
];

/** One product of a `get_products` answer, about 450 bytes of JSON. */
function product(index: number): Record<string, unknown> {
  return {
    product_id: `ctv_sports_${index}`,
    name: `Premium CTV sports, package ${index}`,
    description: "Live and on-demand sports on connected TV apps, household frequency capped",
    publisher_properties: [{ publisher_domain: "sports.example", selection_type: "all" }],
    format_ids: [
      { agent_url: "https://creatives.example", id: "video_standard_30s" },
      { agent_url: "https://creatives.example", id: "video_standard_15s" },
    ],
    delivery_type: "guaranteed",
    pricing_options: [{
      pricing_option_id: `cpm_usd_${index}`,
      pricing_model: "cpm",
      fixed_price: 42.5,
      currency: "USD",
      min_spend_per_package: 5000,
    }],
    brief_relevance: "Matches the CTV sports brief",
  };
}

/**
 * The AdCP `get_products` data of an answer of `size`: the same on every call, and the same for
 * every client (client_bench.ts checks the product count it gets back).
 */
export function benchData(size: BenchSize): { status: string; products: unknown[] } {
  const data = { status: "completed", products: [] as unknown[] };
  if (size === "small") {
    for (let index = 0; index < SMALL_PRODUCTS; index++) data.products.push(product(index));
    return data;
  }
  // As many products as fit in LARGE_DATA_BYTES (ASCII: characters are bytes).
  let bytes = JSON.stringify(data).length;
  for (let index = 0;; index++) {
    const next = product(index);
    bytes += JSON.stringify(next).length + (index === 0 ? 0 : 1);
    if (bytes > LARGE_DATA_BYTES) return data;
    data.products.push(next);
  }
}

/** How many products an answer of `size` holds. */
export function benchProductCount(size: BenchSize): number {
  return benchData(size).products.length;
}

const encoder = new TextEncoder();
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };
const JSON_HEADERS = { "content-type": "application/json" };
/** The MCP versions answered as asked; anything else gets the newest. */
const MCP_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** A JSON-RPC response with the id left out: `head` + id + `tail`. */
interface Spliced {
  readonly tail: Uint8Array<ArrayBuffer>;
}

const HEAD = encoder.encode('{"jsonrpc":"2.0","id":');

function spliced(result: unknown): Spliced {
  return { tail: encoder.encode(`,"result":${JSON.stringify(result)}}`) };
}

/** The bytes of `prefix`, the response with id `id`, and `suffix`. */
function responseBytes(
  answer: Spliced,
  id: string,
  prefix = "",
  suffix = "",
): Uint8Array<ArrayBuffer> {
  const before = encoder.encode(prefix);
  const idBytes = encoder.encode(id);
  const after = encoder.encode(suffix);
  const out = new Uint8Array(
    before.length + HEAD.length + idBytes.length + answer.tail.length + after.length,
  );
  let offset = 0;
  for (const part of [before, HEAD, idBytes, answer.tail, after]) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A response streaming `chunks`, one enqueue each, with no Content-Length (as SSE is sent). */
function streamed(chunks: readonly Uint8Array[], headers: HeadersInit = SSE_HEADERS): Response {
  let index = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[index++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
    }),
    { headers },
  );
}

/** The precomputed answers. */
interface Answers {
  readonly initialize: ReadonlyMap<string, Spliced>;
  readonly tools: Spliced;
  readonly empty: Spliced;
  readonly call: Readonly<Record<BenchSize, Spliced>>;
  readonly send: Readonly<Record<BenchSize, Spliced>>;
  readonly stream: readonly Spliced[];
}

function buildAnswers(): Answers {
  const initialize = new Map<string, Spliced>();
  for (const protocolVersion of MCP_VERSIONS) {
    initialize.set(
      protocolVersion,
      spliced({
        protocolVersion,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "adcp-wire-bench-agent", version: "1.0.0" },
      }),
    );
  }
  const tools = BENCH_TOOLS.map((name) => ({
    name,
    title: name.replaceAll("_", " "),
    description: `AdCP task ${name}: see the AdCP task reference for its request and response`,
    inputSchema: {
      type: "object",
      properties: {
        adcp_major_version: { type: "integer", description: "AdCP major version of the request" },
        idempotency_key: { type: "string", description: "Idempotency key of a mutating call" },
        brief: { type: "string", description: "What the buyer is looking for" },
        context: { type: "object", description: "Opaque context echoed in the response" },
      },
    },
  }));
  const call = (size: BenchSize) => {
    const data = benchData(size);
    return spliced({
      content: [{ type: "text", text: `Found ${data.products.length} products` }],
      structuredContent: data,
    });
  };
  const task = (size: BenchSize) => ({
    task: {
      id: "task-bench-1",
      contextId: "ctx-bench-1",
      status: { state: "TASK_STATE_COMPLETED", timestamp: "2026-01-01T00:00:00.000Z" },
      artifacts: [{ artifactId: "adcp-result", parts: [{ data: benchData(size) }] }],
    },
  });
  const ids = { taskId: "task-bench-2", contextId: "ctx-bench-2" };
  const stream = [
    {
      task: { id: ids.taskId, contextId: ids.contextId, status: { state: "TASK_STATE_SUBMITTED" } },
    },
    {
      statusUpdate: {
        ...ids,
        status: {
          state: "TASK_STATE_WORKING",
          message: {
            messageId: "m-progress",
            role: "ROLE_AGENT",
            parts: [{ text: "Searching" }, { data: { percentage: 50 } }],
          },
        },
      },
    },
    {
      artifactUpdate: {
        ...ids,
        artifact: { artifactId: "result", parts: [{ text: "Found products" }] },
      },
    },
    {
      artifactUpdate: {
        ...ids,
        append: true,
        lastChunk: true,
        artifact: { artifactId: "result", parts: [{ data: benchData("small") }] },
      },
    },
    { statusUpdate: { ...ids, status: { state: "TASK_STATE_COMPLETED" } } },
  ];
  return {
    initialize,
    tools: spliced({ tools }),
    empty: spliced({}),
    call: { small: call("small"), large: call("large") },
    send: { small: spliced(task("small")), large: spliced(task("large")) },
    stream: stream.map(spliced),
  };
}

function rpcError(id: string, code: number, message: string, status = 200): Response {
  const body = `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code, message })}}`;
  return new Response(body, { status, headers: JSON_HEADERS });
}

/**
 * The agent's request handler (the routes above; any origin). Its only state is the set of MCP
 * sessions, one per `initialize`: it answers any number of calls without growing, which
 * client_heap_test.ts relies on when it serves a client in process.
 */
export function benchHandler(): (request: Request) => Promise<Response> {
  const answers = buildAnswers();
  const sessions = new Set<string>();
  return async (request) => {
    const [, protocol, mode, size] = new URL(request.url).pathname.split("/");
    const sized = size === "small" || size === "large" ? size : undefined;
    const isMcp = protocol === "mcp" && (mode === "json" || mode === "sse") && sized;
    const isA2A = protocol === "a2a" && (mode === "small" || mode === "large");
    if (!isMcp && !isA2A) {
      await request.body?.cancel();
      return new Response(null, { status: 404 });
    }
    if (isMcp && request.method === "DELETE") {
      sessions.delete(request.headers.get("mcp-session-id") ?? "");
      return new Response(null, { status: 200 });
    }
    if (request.method !== "POST") {
      await request.body?.cancel();
      return new Response(null, { status: 405, headers: { allow: "POST, DELETE" } });
    }
    let message: { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    try {
      message = JSON.parse(await request.text());
    } catch {
      return rpcError("null", -32700, "Parse error", 400);
    }
    const id = message.id === undefined ? undefined : JSON.stringify(message.id);
    if (isA2A) {
      const dataSize = mode as BenchSize;
      if (id === undefined) return new Response(null, { status: 202 });
      if (message.method === "SendMessage") {
        return new Response(responseBytes(answers.send[dataSize], id), { headers: JSON_HEADERS });
      }
      if (message.method === "SendStreamingMessage") {
        return streamed(answers.stream.map((frame) => responseBytes(frame, id, "data: ", "\n\n")));
      }
      return rpcError(id, -32601, "Method not found");
    }
    const headers: Record<string, string> = mode === "sse" ? { ...SSE_HEADERS } : {
      ...JSON_HEADERS,
    };
    let answer: Spliced;
    if (message.method === "initialize") {
      const sessionId = crypto.randomUUID();
      sessions.add(sessionId);
      headers["mcp-session-id"] = sessionId;
      const asked = message.params?.protocolVersion;
      answer = answers.initialize.get(typeof asked === "string" ? asked : "") ??
        answers.initialize.get(MCP_VERSIONS[0]!)!;
    } else {
      const sessionId = request.headers.get("mcp-session-id");
      if (sessionId === null) return rpcError(id ?? "null", -32000, "Missing session", 400);
      if (!sessions.has(sessionId)) return rpcError(id ?? "null", -32001, "No session", 404);
      headers["mcp-session-id"] = sessionId;
      if (id === undefined) return new Response(null, { status: 202 });
      if (message.method === "tools/list") answer = answers.tools;
      else if (message.method === "tools/call") answer = answers.call[sized as BenchSize];
      else if (message.method === "ping") answer = answers.empty;
      else return rpcError(id, -32601, "Method not found");
    }
    if (mode === "json") return new Response(responseBytes(answer, id ?? "null"), { headers });
    return streamed(
      [responseBytes(answer, id ?? "null", "event: message\ndata: ", "\n\n")],
      headers,
    );
  };
}

/** Starts the server on 127.0.0.1 at a random port: it listens when this returns. */
export function startBenchServer(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, benchHandler());
}

if (import.meta.main) {
  const server = startBenchServer();
  console.log(JSON.stringify({ port: server.addr.port, pid: Deno.pid }));
  // The parent holds the other end of stdin: its end, for any reason, ends this process.
  try {
    for await (const _ of Deno.stdin.readable) {
      // nothing is read from the parent; it only holds the pipe open
    }
  } finally {
    Deno.exit(0);
  }
}
