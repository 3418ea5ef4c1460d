// The hostile seller of client/contract_fuzz_test.ts, run in a worker so that its allocations stay
// out of the client's heap: a real HTTP server on 127.0.0.1 whose every answer (status, headers,
// body, size, timing, SSE fields) comes from the script the test sends.

/** One answer of the hostile server. */
export interface Answer {
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

export type Body =
  | { readonly kind: "rpc"; readonly result: unknown; readonly error: unknown }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "sse"; readonly events: readonly SseEvent[] }
  | { readonly kind: "pad"; readonly bytes: number }
  | { readonly kind: "page"; readonly bytes: number }
  | { readonly kind: "dense"; readonly bytes: number }
  | { readonly kind: "deep"; readonly depth: number }
  | { readonly kind: "raw"; readonly bytes: Uint8Array };

export interface SseEvent {
  readonly id: string | undefined;
  readonly retry: number | undefined;
  /** `"response"` echoes the request id with `result`; `"raw"` sends `data` as it is. */
  readonly kind: "response" | "notification" | "ping" | "raw";
  readonly result: unknown;
  readonly data: string;
}

const encoder = new TextEncoder();

/** The bytes of an answer's body for a request with JSON-RPC id `id`. */
function bodyBytes(body: Body, id: unknown, serial: number): Uint8Array {
  switch (body.kind) {
    case "dense": {
      // The densest shape in the heap: empty objects, 3 bytes each on the wire.
      const count = Math.max(0, Math.floor((body.bytes - 120) / 3));
      const items = count === 0 ? "" : "{}" + ",{}".repeat(count - 1);
      const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],` +
        `"structuredContent":{"items":[${items}]},"tools":[],"status":{"state":"completed"}}}`;
      return encoder.encode(text);
    }
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
function startServer(): {
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

// Worker protocol: posts {port} when listening; {type: "script"} and {type: "close"} are answered
// with one message each once done.
interface WorkerScope {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}
const scope = globalThis as unknown as WorkerScope;
if (typeof scope.postMessage === "function" && !("document" in globalThis)) {
  const server = startServer();
  scope.postMessage({ port: Number(new URL(server.base).port) });
  scope.onmessage = async (event: MessageEvent) => {
    const message = event.data as { type: string; answers?: Answer[]; handshake?: boolean };
    if (message.type === "script") {
      server.setScript(message.answers ?? [], message.handshake ?? false);
      scope.postMessage({ ok: true });
    } else if (message.type === "close") {
      await server.close();
      scope.postMessage({ closed: true });
    }
  };
}
