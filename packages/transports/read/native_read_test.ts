// The whole-body read by the runtime (`bytes()`), which a client call uses for a body that
// declares a `Content-Length` within its caps: every bound still holds when the seller's framing
// lies, stalls or breaks off. The servers here write raw HTTP/1.1 on 127.0.0.1, so that they can
// send what no HTTP library would.
import { ok, strictEqual } from "node:assert/strict";
import { encoder, netTest, rejection, within } from "../_test_utils.ts";
import { A2AClient } from "../a2a/mod.ts";
import {
  DeadlineExceededError,
  MalformedJsonError,
  NetworkError,
  ResponseTooLargeError,
} from "../errors.ts";
import { McpClient } from "../mcp/mod.ts";
import { Call } from "../client/_rpc.ts";
import { callLimits } from "../client/_limits.ts";
import { readBody } from "./_read_body.ts";
import type { ClientLimits } from "../client/limits.ts";
import type { FetchLike } from "./bounded_fetch.ts";

const BOUND_MS = 20_000;

/** What the raw server does with one connection, once it has read the request. */
type Script = (conn: Deno.Conn) => Promise<void>;

/**
 * A raw HTTP/1.1 server on 127.0.0.1: for each connection it reads one request (headers and a
 * `Content-Length` body), then runs `script`. Every connection is closed when `fn` ends.
 */
async function withRawServer(script: Script, fn: (base: string) => Promise<void>): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const handled: Promise<void>[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        conns.add(conn);
        handled.push(
          (async () => {
            try {
              await readRequest(conn);
              await script(conn);
            } catch {
              // the client went away: nothing to do
            }
          })(),
        );
      }
    } catch {
      // the listener was closed
    }
  })();
  try {
    await fn(`http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`);
  } finally {
    listener.close();
    for (const conn of conns) {
      try {
        conn.close();
      } catch {
        // already closed by its script
      }
    }
    await accepting;
    await Promise.all(handled);
  }
}

/** Reads one request: its head, then as many body bytes as its `Content-Length` says. */
async function readRequest(conn: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(65_536);
  let text = "";
  for (;;) {
    const read = await conn.read(buffer);
    if (read === null) return;
    text += new TextDecoder().decode(buffer.subarray(0, read));
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) continue;
    const length = Number(/content-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
    if (encoder.encode(text.slice(end + 4)).length >= length) return;
  }
}

/** Writes all of `text`. */
async function write(conn: Deno.Conn, text: string | Uint8Array): Promise<void> {
  const bytes = typeof text === "string" ? encoder.encode(text) : text;
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}

/** A response head with the given extra header lines. */
function head(lines: readonly string[]): string {
  return ["HTTP/1.1 200 OK", "Content-Type: application/json", ...lines, "", ""].join("\r\n");
}

/** An A2A 1.0 answer to request `id`: a completed task with one DataPart. */
function a2aAnswer(id: number): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    result: {
      task: {
        id: "task-1",
        contextId: "ctx-1",
        status: { state: "TASK_STATE_COMPLETED" },
        artifacts: [{ artifactId: "a1", parts: [{ data: { products: [] } }] }],
      },
    },
  });
}

/**
 * An A2A client of the agent at `base`, without the AdCP profile (the raw answers do not follow
 * it), with `defaultLimits` and, when given, a `fetch` of its own.
 */
function a2aClient(
  base: string,
  defaultLimits: ClientLimits = { timeoutMs: 5_000 },
  fetch?: FetchLike,
): A2AClient {
  return new A2AClient({
    supportedInterfaces: [{
      url: `${base}/a2a`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  }, { cardUrl: `${base}/a2a`, defaultLimits, ...(fetch === undefined ? {} : { fetch }) });
}

/**
 * Counts the calls of `Response.prototype.bytes` (the native read) while `fn` runs, then puts the
 * method back.
 */
async function countingNativeReads(fn: () => Promise<void>): Promise<number> {
  const original = Response.prototype.bytes;
  let calls = 0;
  Response.prototype.bytes = function (this: Response) {
    calls++;
    return original.call(this);
  };
  try {
    await fn();
  } finally {
    Response.prototype.bytes = original;
  }
  return calls;
}

netTest(
  "a call reads a body within its Content-Length natively, a Response built by its fetch in chunks",
  async () => {
    const body = a2aAnswer(1);
    await withRawServer(async (conn) => {
      await write(conn, head([`Content-Length: ${encoder.encode(body).length}`]) + body);
    }, async (base) => {
      const native = await countingNativeReads(async () => {
        const result = await within(BOUND_MS, a2aClient(base).sendMessage(message()));
        strictEqual(result.kind, "success");
      });
      strictEqual(native, 1);
    });
    // A fetch of the caller's own that builds its Response: `type` "default", so the bounded reader
    // reads it, and holds a Content-Length that lies to the cap.
    const lying = new Response("x".repeat(200_000), {
      headers: { "content-type": "application/json", "content-length": "10" },
    });
    const client = a2aClient(
      "https://seller.example",
      { maxResponseBytes: 100_000 },
      () => Promise.resolve(lying),
    );
    const native = await countingNativeReads(async () => {
      const error = await within(BOUND_MS, rejection(client.sendMessage(message())));
      ok(error instanceof ResponseTooLargeError, String(error));
      strictEqual(error.limit, 100_000);
    });
    strictEqual(native, 0);
  },
);

netTest(
  "a seller that sends more than its Content-Length: the runtime cuts the body there",
  async () => {
    // The answer is followed by 3 MB more on the connection, past the client's 1 MB cap: the call
    // sees the declared bytes only (a valid answer), never the rest.
    const body = a2aAnswer(1);
    await withRawServer(async (conn) => {
      await write(conn, head([`Content-Length: ${encoder.encode(body).length}`]) + body);
      await write(conn, "y".repeat(3_000_000)).catch(() => {});
    }, async (base) => {
      const client = a2aClient(base, { maxResponseBytes: 1_000_000 });
      const result = await within(BOUND_MS, client.sendMessage(message()));
      strictEqual(result.kind, "success");
    });
  },
);

netTest(
  "a seller that declares more than it sends and stalls: the call ends at its deadline",
  async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => release = resolve);
    await withRawServer(async (conn) => {
      await write(conn, head(["Content-Length: 10000"]) + '{"jsonrpc":"2.0",');
      await stalled;
    }, async (base) => {
      const start = performance.now();
      const error = await within(
        BOUND_MS,
        rejection(a2aClient(base, { timeoutMs: 300 }).sendMessage(message())),
      );
      const elapsed = performance.now() - start;
      release();
      ok(error instanceof DeadlineExceededError, String(error));
      strictEqual(error.timeoutMs, 300);
      ok(elapsed < 5_000, `the call took ${elapsed} ms`);
    });
  },
);

netTest(
  "a seller that declares more than it sends and closes: a NetworkError, no partial body",
  async () => {
    await withRawServer(async (conn) => {
      await write(conn, head(["Content-Length: 10000"]) + '{"jsonrpc":"2.0","id":1}');
      conn.close();
    }, async (base) => {
      const error = await within(BOUND_MS, rejection(a2aClient(base).sendMessage(message())));
      ok(error instanceof NetworkError, String(error));
    });
  },
);

netTest(
  "Transfer-Encoding with a small Content-Length is read in chunks and held to the cap",
  async () => {
    // `Content-Length: 10` and a chunked body of 3 MB: the framing is the chunked one, so the
    // declared length says nothing. The bounded reader reads it (no native read), and the call
    // fails (the runtime refuses the framing, or the cap stops the read) without reading it all.
    await withRawServer(async (conn) => {
      await write(conn, head(["Content-Length: 10", "Transfer-Encoding: chunked"]));
      const chunk = "z".repeat(65_536);
      for (let index = 0; index < 48; index++) {
        const ok = await write(conn, `${chunk.length.toString(16)}\r\n${chunk}\r\n`).then(
          () => true,
          () => false,
        );
        if (!ok) return;
      }
      await write(conn, "0\r\n\r\n").catch(() => {});
    }, async (base) => {
      const client = new McpClient(`${base}/mcp`, {
        defaultLimits: { maxResponseBytes: 1_000_000 },
      });
      const native = await countingNativeReads(async () => {
        const error = await within(BOUND_MS, rejection(client.listTools()));
        ok(
          error instanceof ResponseTooLargeError || error instanceof NetworkError ||
            error instanceof MalformedJsonError,
          String(error),
        );
      });
      strictEqual(native, 0);
    });
  },
);

netTest(
  "a native read is charged to the operation's budget, refused unread when it would pass it",
  async () => {
    const body = "[" + "1,".repeat(2_600) + "1]"; // 5,203 bytes: two take 10,000 bytes over
    await withRawServer(async (conn) => {
      await write(conn, head([`Content-Length: ${body.length}`, "Connection: close"]) + body);
      conn.close(); // one request per connection: the second fetch opens another
    }, async (base) => {
      const limits = callLimits(undefined, undefined, { maxResponseBytes: 10_000 }, "read");
      // Within the budget: read natively, all of it charged.
      const call = new Call(limits);
      try {
        const response = await fetch(`${base}/`, { method: "POST", signal: call.deadline.signal });
        let bytes: Uint8Array = new Uint8Array(0);
        const native = await countingNativeReads(async () => {
          bytes = await readBody(
            response,
            { limits, contentDecoding: "runtime", onProgress: undefined },
            call.startedAt,
            call.budget,
            call.deadline,
          );
        });
        strictEqual(native, 1);
        strictEqual(bytes.length, body.length);
        strictEqual(call.budget.used, body.length);
        // A second body of the same operation would take it past 10,000 bytes: refused unread.
        const again = await fetch(`${base}/`, { method: "POST", signal: call.deadline.signal });
        const error = await rejection(
          readBody(
            again,
            { limits, contentDecoding: "runtime", onProgress: undefined },
            call.startedAt,
            call.budget,
            call.deadline,
          ),
        );
        ok(error instanceof ResponseTooLargeError, String(error));
        strictEqual(error.phase, "cumulative");
        strictEqual(call.budget.used, body.length);
      } finally {
        call.dispose();
      }
    });
  },
);

/** A plain invocation (no AdCP profile): one DataPart. */
function message(): Record<string, unknown> {
  return {
    messageId: crypto.randomUUID(),
    role: "ROLE_USER",
    parts: [{ data: { skill: "get_products", input: { brief: "CTV" } } }],
  };
}
