// No client follows a redirect: McpClient (every request it sends), A2AClient, fetchAgentCard and
// boundedFetch refuse a 301, 302, 303, 307 or 308 wherever it points, and an answer their custom
// fetch reports as redirected, sending nothing to the target and the caller's key nowhere else; a
// 304 is no redirect. Two local servers are two origins.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { BOUND_MS, isAnyTransportError, netTest, rejection, within } from "../_test_utils.ts";
import {
  a2aCard,
  a2aClient,
  API_KEY,
  COMPLETED_FRAME,
  INIT_RESULT,
  LIMITS,
  mcpAnswer,
  mcpClient,
  parseRpc,
  recording,
  REDIRECT_TARGETS,
  rpcResult,
  type Seen,
  sse,
  sseReconnectSeller,
  STATUSES,
  withTwoServers,
} from "../_test_sellers.ts";
import { fetchAgentCard } from "../a2a/fetch_agent_card.ts";
import { HttpStatusError, RedirectRefusedError } from "../errors.ts";
import { McpClient } from "../mcp/mod.ts";
import { boundedFetch, type FetchLike } from "../read/bounded_fetch.ts";

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

netTest("A 304 answer is an HttpStatusError, not a refused redirect", async () => {
  const client = new McpClient("https://agent.example/mcp", {
    fetch: () => Promise.resolve(new Response(null, { status: 304 })),
  });
  const error = await rejection(client.connect());
  ok(error instanceof HttpStatusError);
  strictEqual(error.status, 304);
});
