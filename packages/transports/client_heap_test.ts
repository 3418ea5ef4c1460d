// The heap of a client stays flat over 5,000 calls (issue 18, "Heap flat over 5,000 calls"): each
// client is served in process by the agent of client_bench.ts (testdata/bench_server.ts, whose
// handler keeps nothing per call), and the V8 heap after a full garbage collection is compared
// after 1,000 and after 5,000 calls. The first 1,000 calls compile and optimize the code and fill
// the caches, so that what grows after them is what calls keep.
//
// The full collections come from V8's `gc()`, exposed at run time (`node:v8` setFlagsFromString,
// then `node:vm`: `deno test` has no --expose-gc); `globalThis.gc` is used when the run has one.
// A control test keeps what its calls return and must be seen to grow, so that a collector that
// collects nothing, or a heap figure that does not move, cannot make the other tests pass.
import { ok } from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { A2AClient } from "./a2a/mod.ts";
import { McpClient } from "./mcp/mod.ts";
import type { FetchLike } from "./read/bounded_fetch.ts";
import { benchHandler } from "./testdata/bench_server.ts";

const WARM_CALLS = 1_000;
const CALLS = 5_000;
/**
 * Most growth of the heap between call 1,000 and call 5,000: 1 MiB, that is 262 bytes per call.
 * After full collections the figure moved by less than 200 KiB between runs (code compiled late,
 * feedback); a client that kept even a small answer (about 1 KB) per call would pass it fourfold.
 */
const MAX_GROWTH = 1_048_576;
const ORIGIN = "https://agent.example";
const INPUT = { brief: "Premium CTV sports inventory for Q3" };

/** V8's full collection. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") return exposed as () => void;
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

const gc = collector();

/** The heap in use after full collections (the least of three, a turn of the event loop apart). */
async function heapAfterGc(): Promise<number> {
  let least = Infinity;
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    gc();
    least = Math.min(least, Deno.memoryUsage().heapUsed);
  }
  return least;
}

/** The bench agent in process, as a `fetch`. */
function agentFetch(): FetchLike {
  const handler = benchHandler();
  return (input, init) => handler(new Request(input, init));
}

/** Heap growth between call `WARM_CALLS` and call `CALLS` of `call`. */
async function growth(call: (index: number) => Promise<void>): Promise<number> {
  for (let index = 0; index < WARM_CALLS; index++) await call(index);
  const before = await heapAfterGc();
  for (let index = WARM_CALLS; index < CALLS; index++) await call(index);
  return await heapAfterGc() - before;
}

function assertFlat(grown: number): void {
  ok(grown < MAX_GROWTH, `the heap grew by ${grown} bytes over ${CALLS - WARM_CALLS} calls`);
}

for (const mode of ["json", "sse"] as const) {
  const name = `McpClient.callTool() keeps a flat heap over 5,000 calls (${mode.toUpperCase()})`;
  Deno.test(name, async () => {
    const client = new McpClient(`${ORIGIN}/mcp/${mode}/small`, { fetch: agentFetch() });
    assertFlat(
      await growth(async () => {
        const result = await client.callTool("get_products", INPUT);
        ok(result.kind === "success");
      }),
    );
  });
}

Deno.test("McpClient.listTools() keeps a flat heap over 5,000 calls", async () => {
  const client = new McpClient(`${ORIGIN}/mcp/json/small`, { fetch: agentFetch() });
  assertFlat(
    await growth(async () => {
      ok((await client.listTools()).length > 0);
    }),
  );
});

function a2aClient(): A2AClient {
  const card = {
    supportedInterfaces: [
      { url: `${ORIGIN}/a2a/small`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    ],
    capabilities: { streaming: true },
  };
  return new A2AClient(card, {
    cardUrl: `${ORIGIN}/.well-known/agent-card.json`,
    fetch: agentFetch(),
  });
}

Deno.test("A2AClient.sendMessage() keeps a flat heap over 5,000 calls", async () => {
  const client = a2aClient();
  assertFlat(
    await growth(async () => {
      const result = await client.sendMessage(client.invocation("get_products", INPUT));
      ok(result.kind === "success");
    }),
  );
});

Deno.test("A2AClient.sendStreamingMessage() keeps a flat heap over 5,000 calls", async () => {
  const client = a2aClient();
  assertFlat(
    await growth(async () => {
      const result = await client.sendStreamingMessage(client.invocation("get_products", INPUT));
      ok(result.kind === "success");
    }),
  );
});

Deno.test("the heap check sees a client's results kept past the bound", async () => {
  const client = new McpClient(`${ORIGIN}/mcp/json/small`, { fetch: agentFetch() });
  const kept: unknown[] = [];
  const grown = await growth(async (index) => {
    const result = await client.callTool("get_products", INPUT);
    if (index >= WARM_CALLS) kept.push(result);
  });
  ok(grown > MAX_GROWTH, `keeping ${kept.length} results grew the heap by only ${grown} bytes`);
});
