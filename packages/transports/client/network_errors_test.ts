// A connection the network refuses, or an answer that breaks off half way, reaches the caller of
// any client, of fetchAgentCard and of boundedFetch as a transient NetworkError that names no
// runtime detail; retry gives up on a port that stays refused after maxRetries + 1 attempts.
import { ok, strictEqual } from "node:assert/strict";
import {
  BOUND_MS,
  isAnyTransportError,
  netTest,
  rejection,
  within,
  withServer,
} from "../_test_utils.ts";
import {
  a2aCard,
  a2aClient,
  brokenOff,
  COMPLETED_FRAME,
  flakyFetch,
  type Handler,
  INIT_RESULT,
  LIMITS,
  mcpClient,
  mcpSeller,
  parseRpc,
  recording,
  recordingSleep,
  sseFrames,
  TOOL_SUCCESS,
  WORKING_FRAME,
} from "../_test_sellers.ts";
import { fetchAgentCard } from "../a2a/fetch_agent_card.ts";
import { NetworkError } from "../errors.ts";
import { boundedFetch } from "../read/bounded_fetch.ts";

/** What a runtime says about a refused connection: none of it may reach a message. */
const RUNTIME_DETAIL = /refused|os error|error sending request|tcp|connection|client error|errno/i;

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
