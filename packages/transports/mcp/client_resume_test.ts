// McpClient resumes an SSE stream that breaks off from its last event id, and only from a usable
// one: an id holding a control or non-Latin-1 character ends the call without a reconnect, and a
// redirect of the reconnect is refused.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { BOUND_MS, netTest, rejection, within, withServer } from "../_test_utils.ts";
import {
  API_KEY,
  INIT,
  mcpClient,
  mcpSeller,
  parseRpc,
  recording,
  sse,
  sseReconnectSeller,
  withTwoServers,
} from "../_test_sellers.ts";
import { AgentProtocolError, RedirectRefusedError } from "../errors.ts";
import { McpClient } from "./mod.ts";

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
