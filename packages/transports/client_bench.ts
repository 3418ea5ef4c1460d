// Our clients against the official SDK clients, call for call, against one local agent:
// McpClient against @modelcontextprotocol/sdk 1.32.2 (`Client` over
// `StreamableHTTPClientTransport`), A2AClient against @a2a-js/sdk 1.3.0 (`ClientFactory`'s
// JSON-RPC `Client`). Each group is one row: the SDK client is the baseline, the target is
// `time <= 1.00x` (issue 18).
//
//   deno task bench --filter=client_bench (ratios with targets), or
//   deno bench --lock=deno.bench.lock --allow-read --allow-net --allow-env --allow-run \
//     packages/transports/client_bench.ts
//
// (The SDKs are locked for benchmarks in deno.bench.lock, which `deno task bench` passes.)
//
// How the client's CPU is isolated: the agent (testdata/bench_server.ts) runs in another process,
// started here with Deno.Command when this module loads and stopped on `unload` (the group
// processes of scripts/bench.ts end with Deno.exit, which dispatches it). It also exits by itself
// when its stdin ends, that is when this process is gone however it ended, so it never outlives a
// run. scripts/bench.ts times a group by its process's CPU time (all threads): the agent's
// parsing, serializing and socket writes are in the other process and not counted; the client's
// fetch, body reading, parsing and checking are. The agent serves precomputed bytes, so that it
// takes little of the two shared cores.
//
// What a call is, for both clients alike: one `await` of the client's public call with the same
// arguments, on a client connected before measuring (the MCP session, `initialize` and
// `notifications/initialized`, set up once per client: the first, unmeasured call of each
// benchmark creates and checks its client), over the same global `fetch` and its connection pool.
// A "16 concurrent" iteration is 16 calls under one Promise.all. Each call's result is checked
// (ours: `kind === "success"`; the SDK's: no `isError`, a task), equally cheap for both.
// Differences kept on purpose, each of which makes the SDK's work smaller, never ours: our
// clients classify the answer (the AdCP data, or an AdCP error and its recovery) and hold it to
// their bounds, and A2AClient holds it to the AdCP A2A profile; the SDK clients return the
// message as parsed (MCP: validated by its zod schema). The tools have no `outputSchema`, so that
// the MCP SDK compiles no validator for them.
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import {
  StreamableHTTPClientTransport,
} from "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js";
import { AgentCard, Role, type SendMessageRequest, type Task } from "npm:@a2a-js/sdk@1.3.0";
import { type Client as A2ASdkClient, ClientFactory } from "npm:@a2a-js/sdk@1.3.0/client";
import { A2AClient, ADCP_A2A_PROFILE } from "./a2a/mod.ts";
import { McpClient } from "./mcp/mod.ts";
import { BENCH_TOOLS, benchProductCount, type BenchSize } from "./testdata/bench_server.ts";

/** Calls in one iteration of a "16 concurrent" benchmark. */
const CONCURRENCY = 16;
/** How long the agent may take to print its port. */
const START_TIMEOUT_MS = 30_000;
const SERVER = new URL("./testdata/bench_server.ts", import.meta.url);
const INPUT = { brief: "Premium CTV sports inventory for Q3, household targeting" };

/** The running agent's base URL, or why it could not be started. */
type Agent = { readonly base: string } | { readonly error: string };

/**
 * Starts the agent in another process. The child is killed on `unload` and on a failed start, and
 * ends by itself when its stdin (held by this process) closes. A failure is kept, not thrown: the
 * listing of the benchmarks (scripts/bench.ts imports every bench file) still works, and each
 * benchmark of this file fails with the reason when it is run.
 */
async function startAgent(): Promise<Agent> {
  const run = await Deno.permissions.query({ name: "run", command: Deno.execPath() });
  if (run.state !== "granted") {
    return {
      error: "Cannot start the bench agent in another process as 'the run permission' must be " +
        `granted (--allow-run; scripts/bench.ts, GROUP_PERMISSIONS): current value is ${run.state}`,
    };
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--allow-net=127.0.0.1", SERVER.href],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
  } catch (error) {
    return { error: `Cannot start the bench agent: ${error}` };
  }
  const stop = () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
  };
  globalThis.addEventListener("unload", stop);
  const timer = setTimeout(stop, START_TIMEOUT_MS);
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (!text.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
  } catch {
    // the agent's stdout failed: judged by what it printed, below
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  let ready: { port?: unknown; pid?: unknown } | undefined;
  try {
    ready = JSON.parse(text);
  } catch {
    ready = undefined;
  }
  // The agent must be the child, not this process: otherwise its work would be counted.
  if (typeof ready?.port !== "number" || ready.pid !== child.pid || ready.pid === Deno.pid) {
    stop();
    return { error: `Cannot start the bench agent: it printed ${JSON.stringify(text)}` };
  }
  child.unref(); // the child does not keep this process alive (`deno bench` ends, then unload)
  return { base: `http://127.0.0.1:${ready.port}` };
}

const agent = await startAgent();

/**
 * The agent's base URL; throws when it could not be started, with no stack frames, so that the
 * few last lines of stderr that scripts/bench.ts prints for a failed group show the reason.
 */
function base(): string {
  if ("error" in agent) {
    const error = new Error(agent.error);
    error.stack = `Error: ${agent.error}`;
    throw error;
  }
  return agent.base;
}

/** A client made on first use: the first, unmeasured call of a benchmark connects it. */
function lazy<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => made ??= make();
}

function fail(what: string, value: unknown): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)?.slice(0, 200)}`);
}

// MCP -------------------------------------------------------------------------------------------

type McpMode = "json" | "sse";

function mcpUrl(mode: McpMode, size: BenchSize): string {
  return `${base()}/mcp/${mode}/${size}`;
}

/** Our MCP client, connected, its first call checked. */
async function ourMcp(mode: McpMode, size: BenchSize): Promise<McpClient> {
  const client = new McpClient(mcpUrl(mode, size));
  await client.connect();
  const result = await client.callTool("get_products", INPUT);
  const products = result.kind === "success" ? (result.data as { products?: unknown[] }) : {};
  if (products.products?.length !== benchProductCount(size)) fail("McpClient result", result);
  return client;
}

/** The SDK's MCP client, connected, its first call checked. */
async function sdkMcp(mode: McpMode, size: BenchSize): Promise<Client> {
  const client = new Client({ name: "adcp-wire-bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl(mode, size))));
  const result = await client.callTool({ name: "get_products", arguments: INPUT });
  const data = result.structuredContent as { products?: unknown[] } | undefined;
  if (data?.products?.length !== benchProductCount(size)) fail("SDK Client result", result);
  return client;
}

async function ourCall(client: McpClient): Promise<void> {
  const result = await client.callTool("get_products", INPUT);
  if (result.kind !== "success") fail("McpClient result", result);
}

async function sdkCall(client: Client): Promise<void> {
  const result = await client.callTool({ name: "get_products", arguments: INPUT });
  if (result.isError === true || result.structuredContent === undefined) {
    fail("SDK Client result", result);
  }
}

/** One call, or `count` calls under one Promise.all. */
async function concurrently(count: number, call: () => Promise<unknown>): Promise<void> {
  if (count === 1) {
    await call();
    return;
  }
  const calls: Promise<unknown>[] = [];
  for (let index = 0; index < count; index++) calls.push(call());
  await Promise.all(calls);
}

/** What `deno task bench` (scripts/bench.ts) holds each benchmark to, against its baseline. */
export const BENCH_TARGETS: Record<string, string> = {};

/** Registers one row: the SDK's benchmark (the baseline), then ours, in group `group`. */
function row(
  group: string,
  label: string,
  theirs: () => Promise<void>,
  ours: () => Promise<void>,
  sdkName: string,
  ourName: string,
): void {
  Deno.bench(`${sdkName}, ${label}`, { group, baseline: true }, theirs);
  Deno.bench(`${ourName}, ${label}`, { group }, ours);
  BENCH_TARGETS[`${ourName}, ${label}`] = "time <= 1.00x";
}

for (const size of ["small", "large"] as const) {
  for (const mode of ["json", "sse"] as const) {
    const ours = lazy(() => ourMcp(mode, size));
    const theirs = lazy(() => sdkMcp(mode, size));
    const sizeLabel = size === "small" ? "small" : "~1 MiB";
    for (const concurrent of [false, true]) {
      const label = `${sizeLabel}, ${mode.toUpperCase()}` +
        (concurrent ? `, ${CONCURRENCY} concurrent` : "");
      const count = concurrent ? CONCURRENCY : 1;
      row(
        `mcp tools/call ${label}`,
        label,
        async () => {
          const client = await theirs();
          await concurrently(count, () => sdkCall(client));
        },
        async () => {
          const client = await ours();
          await concurrently(count, () => ourCall(client));
        },
        "MCP SDK callTool()",
        "McpClient.callTool()",
      );
    }
  }
}

for (const mode of ["json", "sse"] as const) {
  const ours = lazy(async () => {
    const client = new McpClient(mcpUrl(mode, "small"));
    await client.connect();
    if ((await client.listTools()).length !== BENCH_TOOLS.length) fail("tools", "");
    return client;
  });
  const theirs = lazy(async () => {
    const client = new Client({ name: "adcp-wire-bench", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl(mode, "small"))));
    if ((await client.listTools()).tools.length !== BENCH_TOOLS.length) fail("tools", "");
    return client;
  });
  const label = `${BENCH_TOOLS.length} tools, ${mode.toUpperCase()}`;
  row(
    `mcp tools/list ${mode.toUpperCase()}`,
    label,
    async () => {
      const { tools } = await (await theirs()).listTools();
      if (tools.length !== BENCH_TOOLS.length) fail("tools", tools.length);
    },
    async () => {
      const tools = await (await ours()).listTools();
      if (tools.length !== BENCH_TOOLS.length) fail("tools", tools.length);
    },
    "MCP SDK listTools()",
    "McpClient.listTools()",
  );
}

// A2A -------------------------------------------------------------------------------------------

/** The agent card of the A2A endpoint for `size` (both clients read the same one). */
function a2aCard(size: BenchSize): Record<string, unknown> {
  return {
    name: "adcp-wire bench seller",
    description: "An AdCP seller answering from precomputed bytes",
    version: "1.0.0",
    supportedInterfaces: [
      { url: `${base()}/a2a/${size}`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    ],
    capabilities: { streaming: true, extensions: [{ uri: ADCP_A2A_PROFILE, required: false }] },
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: [{ id: "get_products", name: "Products", description: "Products", tags: ["adcp"] }],
  };
}

/** The SDK's `SendMessage` params for the same invocation ours builds: one DataPart. */
function sdkInvocation(): SendMessageRequest {
  return {
    tenant: "",
    message: {
      messageId: crypto.randomUUID(),
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [{
        content: { $case: "data", value: { skill: "get_products", input: INPUT } },
        metadata: undefined,
        filename: "",
        mediaType: "application/json",
      }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

async function ourSend(client: A2AClient): Promise<unknown> {
  const result = await client.sendMessage(client.invocation("get_products", INPUT));
  if (result.kind !== "success") fail("A2AClient result", result);
  return result.data;
}

async function sdkSend(client: A2ASdkClient): Promise<Task> {
  const result = await client.sendMessage(sdkInvocation());
  if (!("artifacts" in result) || result.artifacts.length !== 1) fail("SDK result", result);
  return result;
}

async function ourStream(client: A2AClient): Promise<void> {
  const result = await client.sendStreamingMessage(client.invocation("get_products", INPUT));
  if (result.kind !== "success") fail("A2AClient stream result", result);
}

async function sdkStream(client: A2ASdkClient): Promise<void> {
  let frames = 0;
  let last: unknown;
  for await (const event of client.sendMessageStream(sdkInvocation())) {
    frames++;
    last = event.payload?.$case;
  }
  if (frames !== 5 || last !== "statusUpdate") fail("SDK stream", { frames, last });
}

function ourA2A(size: BenchSize): () => Promise<A2AClient> {
  return lazy(async () => {
    const client = new A2AClient(a2aCard(size), {
      cardUrl: `${base()}/.well-known/agent-card.json`,
    });
    const data = await ourSend(client) as { products?: unknown[] };
    if (data.products?.length !== benchProductCount(size)) fail("A2AClient data", data);
    await ourStream(client);
    return client;
  });
}

function sdkA2A(size: BenchSize): () => Promise<A2ASdkClient> {
  return lazy(async () => {
    const client = await new ClientFactory().createFromAgentCard(AgentCard.fromJSON(a2aCard(size)));
    const task = await sdkSend(client);
    const part = task.artifacts[0]?.parts[0]?.content;
    const data = part?.$case === "data" ? part.value as { products?: unknown[] } : {};
    if (data.products?.length !== benchProductCount(size)) fail("SDK data", data);
    await sdkStream(client);
    return client;
  });
}

for (const size of ["small", "large"] as const) {
  const ours = ourA2A(size);
  const theirs = sdkA2A(size);
  const sizeLabel = size === "small" ? "small" : "~1 MiB";
  for (const concurrent of size === "small" ? [false, true] : [false]) {
    const label = sizeLabel + (concurrent ? `, ${CONCURRENCY} concurrent` : "");
    const count = concurrent ? CONCURRENCY : 1;
    row(
      `a2a SendMessage ${label}`,
      label,
      async () => {
        const client = await theirs();
        await concurrently(count, () => sdkSend(client));
      },
      async () => {
        const client = await ours();
        await concurrently(count, () => ourSend(client));
      },
      "A2A SDK sendMessage()",
      "A2AClient.sendMessage()",
    );
  }
}

{
  const ours = ourA2A("small");
  const theirs = sdkA2A("small");
  row(
    "a2a SendStreamingMessage",
    "5 frames, small",
    async () => await sdkStream(await theirs()),
    async () => await ourStream(await ours()),
    "A2A SDK sendMessageStream()",
    "A2AClient.sendStreamingMessage()",
  );
}
