// Hostile cases an audit of the clients found after the first hardening: work that blocked past
// the deadline (a 4 MiB task state, thousands of unparseable text items), a shared initialize that
// failed every waiting call with its owner's deadline, a `fetch` that ignores its signal, a huge
// SSE `retry`, a 304, and a stream that breaks off mid-way (resumed, not thrown).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { netTest, rejection, within, withServer } from "./_test_utils.ts";
import { A2AClient } from "./a2a/mod.ts";
import { DeadlineExceededError, HttpStatusError } from "./errors.ts";
import { McpClient } from "./mcp/mod.ts";
import { boundedFetch } from "./read/bounded_fetch.ts";

const INIT = { protocolVersion: "2025-11-25", capabilities: { tools: {} } };

/** Milliseconds `JSON.parse(text)` takes here (best of three), the yardstick for CPU bounds. */
function parseMs(text: string): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    JSON.parse(text);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

netTest("A2AClient reads a 4 MiB task state in time independent of its length", async () => {
  const state = "W".repeat(4_000_000);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { task: { id: "t", contextId: "c", status: { state } } },
  });
  const card = {
    supportedInterfaces: [{
      url: "https://a.example/a2a",
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  };
  const client = new A2AClient(card, {
    cardUrl: "https://a.example/",
    fetch: () =>
      Promise.resolve(new Response(body, { headers: { "content-type": "application/json" } })),
  });
  const started = performance.now();
  const result = await client.sendMessage(client.invocation("get_products", {}), {
    limits: { maxResponseBytes: 8_388_608 },
  });
  const elapsed = performance.now() - started;
  strictEqual(result.state?.length, 64); // an unknown state, reported cut to 64 characters
  ok(elapsed < 10 * parseMs(body) + 250, `took ${elapsed.toFixed(0)} ms`);
});

netTest(
  "McpClient stops parsing text items after 64 failures, in time close to JSON.parse",
  async () => {
    const content = Array.from({ length: 120_000 }, () => ({ type: "text", text: "{x}" }));
    content.push({ type: "text", text: '{"products":[]}' });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 2, result: { content } });
    let calls = 0;
    const client = new McpClient("https://agent.example/mcp", {
      fetch: (_input, init) => {
        const { id } = JSON.parse(String(init?.body));
        if (id === undefined) return Promise.resolve(new Response(null, { status: 202 }));
        return Promise.resolve(
          calls++ === 0 ? Response.json({ jsonrpc: "2.0", id, result: INIT }) : new Response(
            body.replace('"id":2', `"id":${id}`),
            { headers: { "content-type": "application/json" } },
          ),
        );
      },
    });
    await client.connect();
    const started = performance.now();
    const result = await client.callTool("get_products", {});
    const elapsed = performance.now() - started;
    ok(result.kind === "text"); // the valid item after the cap is not parsed
    ok(elapsed < 10 * parseMs(body) + 50, `took ${elapsed.toFixed(0)} ms`);
  },
);

netTest(
  "McpClient: a call waiting on another call's initialize survives that call's deadline",
  async () => {
    let initializes = 0;
    await within(
      10_000,
      withServer(async (request) => {
        const message = await request.json();
        if (message.id === undefined) return new Response(null, { status: 202 });
        if (message.method === "initialize") {
          initializes++;
          await new Promise((resolve) => setTimeout(resolve, 600));
          return Response.json({ jsonrpc: "2.0", id: message.id, result: INIT });
        }
        const result = { content: [{ type: "text", text: "ok" }] };
        return Response.json({ jsonrpc: "2.0", id: message.id, result });
      }, async (base) => {
        const client = new McpClient(`${base}/mcp`);
        const short = client.callTool("a", {}, { limits: { timeoutMs: 200 } });
        const long = client.callTool("b", {}, { limits: { timeoutMs: 5_000 } });
        const [first, second] = await Promise.allSettled([short, long]);
        ok(first.status === "rejected" && first.reason instanceof DeadlineExceededError);
        ok(
          second.status === "fulfilled",
          `the waiting call failed: ${
            String(
              second.status === "rejected" ? second.reason : "",
            )
          }`,
        );
        strictEqual(second.value.kind, "text");
        strictEqual(initializes, 2); // the waiting call ran its own handshake
      }),
    );
  },
);

netTest(
  "McpClient: a caller's abort of one call does not fail another waiting on the same initialize",
  async () => {
    await within(
      10_000,
      withServer(async (request) => {
        const message = await request.json();
        if (message.id === undefined) return new Response(null, { status: 202 });
        if (message.method === "initialize") {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return Response.json({ jsonrpc: "2.0", id: message.id, result: INIT });
        }
        return Response.json({ jsonrpc: "2.0", id: message.id, result: { content: [] } });
      }, async (base) => {
        const client = new McpClient(`${base}/mcp`);
        const controller = new AbortController();
        const aborted = client.callTool("a", {}, { limits: { signal: controller.signal } });
        const other = client.callTool("b", {});
        setTimeout(() => controller.abort("caller A cancelled"), 50);
        strictEqual(await rejection(aborted), "caller A cancelled");
        strictEqual((await other).kind, "text");
      }),
    );
  },
);

netTest("McpClient ends at its deadline even when a custom fetch ignores the signal", async () => {
  const client = new McpClient("https://agent.example/mcp", {
    // Never settles for 3 s, and ignores init.signal.
    fetch: () =>
      new Promise((resolve) =>
        setTimeout(
          () => resolve(new Response("{}", { headers: { "content-type": "application/json" } })),
          3_000,
        )
      ),
  });
  const started = performance.now();
  const error = await rejection(client.connect({ limits: { timeoutMs: 300 } }));
  ok(error instanceof DeadlineExceededError);
  ok(performance.now() - started < 1_000);
  await new Promise((resolve) => setTimeout(resolve, 3_050)); // let the late answer be cancelled
});

netTest(
  "McpClient clamps a seller's huge SSE retry to the deadline (no timer overflow)",
  async () => {
    let gets = 0;
    await within(
      10_000,
      withServer(async (request) => {
        if (request.method === "GET") {
          gets++;
          return new Response("", { headers: { "content-type": "text/event-stream" } });
        }
        const message = await request.json();
        if (message.id === undefined) return new Response(null, { status: 202 });
        if (message.method === "initialize") {
          return Response.json({ jsonrpc: "2.0", id: message.id, result: INIT });
        }
        const body = "id: 1\nretry: 99999999999\ndata: \n\n";
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }, async (base) => {
        const client = new McpClient(`${base}/mcp`);
        await client.connect();
        const started = performance.now();
        const error = await rejection(client.callTool("a", {}, { limits: { timeoutMs: 400 } }));
        const elapsed = performance.now() - started;
        ok(error instanceof DeadlineExceededError, `got ${error}`);
        ok(elapsed >= 350 && elapsed < 1_200, `took ${elapsed.toFixed(0)} ms`);
        strictEqual(gets, 0); // no reconnect before the seller's delay, which is past the deadline
      }),
    );
  },
);

netTest("A 304 answer is an HttpStatusError, not a refused redirect", async () => {
  const client = new McpClient("https://agent.example/mcp", {
    fetch: () => Promise.resolve(new Response(null, { status: 304 })),
  });
  const error = await rejection(client.connect());
  ok(error instanceof HttpStatusError);
  strictEqual(error.status, 304);
});

netTest(
  "McpClient resumes an SSE stream that breaks off mid-way, from its last event id",
  async () => {
    const seen: (string | null)[] = [];
    let callId = 0;
    await within(
      10_000,
      withServer(async (request) => {
        if (request.method === "GET") {
          seen.push(request.headers.get("last-event-id"));
          const result = { content: [{ type: "text", text: "resumed" }] };
          const body = `id: 2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: callId, result })}\n\n`;
          return new Response(body, { headers: { "content-type": "text/event-stream" } });
        }
        const message = await request.json();
        if (message.id === undefined) return new Response(null, { status: 202 });
        if (message.method === "initialize") {
          return Response.json({ jsonrpc: "2.0", id: message.id, result: INIT });
        }
        callId = message.id;
        // One event with an id, then the connection breaks (the stream errors mid-body).
        let sent = false;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (!sent) {
              sent = true;
              controller.enqueue(new TextEncoder().encode("id: 1\nretry: 10\ndata: \n\n"));
              return;
            }
            controller.error(new Error("connection lost"));
          },
        });
        return new Response(stream, { headers: { "content-type": "text/event-stream" } });
      }, async (base) => {
        const client = new McpClient(`${base}/mcp`);
        const result = await client.callTool("a", {});
        ok(result.kind === "text");
        strictEqual(result.text, "resumed");
        deepStrictEqual(seen, ["1"]);
      }),
    );
  },
);

netTest(
  "boundedFetch ends at its deadline even when the fetch it wraps ignores the signal",
  async () => {
    const slow = () =>
      new Promise<Response>((resolve) =>
        setTimeout(() => resolve(new Response("late", { status: 200 })), 2_000)
      );
    const started = performance.now();
    const error = await rejection(
      boundedFetch({ timeoutMs: 300 }, slow)("https://seller.example/"),
    );
    ok(error instanceof DeadlineExceededError);
    ok(performance.now() - started < 1_000, `took ${(performance.now() - started).toFixed(0)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2_050)); // let the late answer be cancelled
  },
);
