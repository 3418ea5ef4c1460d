// Each McpClient call ends at its own deadline: a shared initialize fails no waiting call with its
// owner's deadline or abort, a custom fetch that ignores its signal cannot hold a call, and a
// seller's huge SSE retry is clamped to the deadline.
import { ok, strictEqual } from "node:assert/strict";
import { netTest, rejection, within, withServer } from "../_test_utils.ts";
import { INIT } from "../_test_sellers.ts";
import { DeadlineExceededError } from "../errors.ts";
import { McpClient } from "./mod.ts";

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
