// The agent of client_bench.ts: what it answers (in process), and, run as client_bench.ts runs it,
// that it is another process and that it ends when its stdin closes or on SIGTERM, so that a
// benchmark run cannot leave it behind.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { within } from "../_test_utils.ts";
import {
  BENCH_TOOLS,
  benchData,
  benchHandler,
  benchProductCount,
  LARGE_DATA_BYTES,
} from "./bench_server.ts";

const ORIGIN = "https://agent.example";
const BOUND_MS = 20_000;

function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC messages of an SSE body (`data:` lines). */
function sseMessages(text: string): unknown[] {
  return text.split("\n").filter((line) => line.startsWith("data: ")).map((line) =>
    JSON.parse(line.slice("data: ".length))
  );
}

Deno.test("benchData() sizes: 2 products, and as many as fit in 1,000,000 bytes", () => {
  strictEqual(benchProductCount("small"), 2);
  const large = JSON.stringify(benchData("large")).length;
  ok(large <= LARGE_DATA_BYTES && large > LARGE_DATA_BYTES - 1_000, `large data is ${large} bytes`);
  ok(large < 1_048_576, "within the A2A client's 1 MiB DataPart cap");
  deepStrictEqual(benchData("large"), benchData("large"));
});

Deno.test("benchHandler() serves MCP sessions in JSON and SSE, echoing request ids", async () => {
  for (const mode of ["json", "sse"]) {
    const handler = benchHandler();
    const path = `/mcp/${mode}/small`;
    const init = await handler(
      post(path, { jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "x" } }),
    );
    const sessionId = init.headers.get("mcp-session-id");
    ok(sessionId !== null);
    const initText = await init.text();
    const initMessage = mode === "json" ? JSON.parse(initText) : sseMessages(initText)[0];
    deepStrictEqual(initMessage.id, 7);
    strictEqual(initMessage.result.protocolVersion, "2025-11-25");

    const session = { "mcp-session-id": sessionId };
    const note = await handler(
      post(path, { jsonrpc: "2.0", method: "notifications/initialized" }, session),
    );
    strictEqual(note.status, 202);
    await note.body?.cancel();

    const call = await handler(
      post(
        path,
        { jsonrpc: "2.0", id: "c-1", method: "tools/call", params: { name: "any" } },
        session,
      ),
    );
    strictEqual(
      call.headers.get("content-type"),
      mode === "json" ? "application/json" : "text/event-stream",
    );
    const callText = await call.text();
    const callMessage = mode === "json" ? JSON.parse(callText) : sseMessages(callText)[0];
    strictEqual(callMessage.id, "c-1");
    deepStrictEqual(callMessage.result.structuredContent, benchData("small"));

    const list = await handler(
      post(path, { jsonrpc: "2.0", id: 9, method: "tools/list" }, session),
    );
    const listText = await list.text();
    const listMessage = mode === "json" ? JSON.parse(listText) : sseMessages(listText)[0];
    deepStrictEqual(
      listMessage.result.tools.map((tool: { name: string }) => tool.name),
      BENCH_TOOLS,
    );

    const stranger = await handler(
      post(path, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": "nope" }),
    );
    strictEqual(stranger.status, 404);
    await stranger.body?.cancel();
    const get = await handler(new Request(`${ORIGIN}${path}`));
    strictEqual(get.status, 405);
  }
});

Deno.test("benchHandler() answers A2A SendMessage with a task, streams five frames", async () => {
  const handler = benchHandler();
  const send = await handler(post("/a2a/large", { jsonrpc: "2.0", id: 3, method: "SendMessage" }));
  const message = await send.json();
  strictEqual(message.id, 3);
  strictEqual(message.result.task.status.state, "TASK_STATE_COMPLETED");
  deepStrictEqual(message.result.task.artifacts[0].parts[0].data, benchData("large"));

  const stream = await handler(
    post("/a2a/small", { jsonrpc: "2.0", id: 4, method: "SendStreamingMessage" }),
  );
  strictEqual(stream.headers.get("content-type"), "text/event-stream");
  const frames = sseMessages(await stream.text()) as { id: number; result: object }[];
  deepStrictEqual(frames.map((frame) => frame.id), [4, 4, 4, 4, 4]);
  deepStrictEqual(frames.map((frame) => Object.keys(frame.result)[0]), [
    "task",
    "statusUpdate",
    "artifactUpdate",
    "artifactUpdate",
    "statusUpdate",
  ]);

  const unknown = await handler(post("/a2a/small", { jsonrpc: "2.0", id: 5, method: "GetTask" }));
  strictEqual((await unknown.json()).error.code, -32601);
  const garbage = await handler(
    new Request(`${ORIGIN}/a2a/small`, { method: "POST", body: "{" }),
  );
  strictEqual(garbage.status, 400);
  await garbage.body?.cancel();
  const elsewhere = await handler(new Request(`${ORIGIN}/other`));
  strictEqual(elsewhere.status, 404);
});

/** Starts the agent as client_bench.ts does; its port and pid as printed. */
async function spawnAgent(): Promise<{ child: Deno.ChildProcess; port: number; pid: number }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      "--allow-net=127.0.0.1",
      new URL("./bench_server.ts", import.meta.url).href,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  const { port, pid } = JSON.parse(text);
  return { child, port, pid };
}

Deno.test("the agent runs in another process and ends when its stdin closes", async () => {
  const { child, port, pid } = await within(BOUND_MS, spawnAgent());
  try {
    strictEqual(pid, child.pid);
    ok(pid !== Deno.pid);
    const response = await fetch(`http://127.0.0.1:${port}/a2a/small`, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage" }),
    });
    strictEqual((await response.json()).id, 1);
    await child.stdin.close();
    const status = await within(BOUND_MS, child.status);
    deepStrictEqual([status.success, status.signal], [true, null]);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // ended, as it should
    }
  }
});

Deno.test("the agent ends on SIGTERM", async () => {
  const { child } = await within(BOUND_MS, spawnAgent());
  child.kill("SIGTERM");
  const status = await within(BOUND_MS, child.status);
  strictEqual(status.signal, "SIGTERM");
  await child.stdin.close().catch(() => {});
});
