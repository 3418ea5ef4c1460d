// Helpers for the tests of operation bounds and of the cost of seller data: servers that flood,
// hang or page forever (each released when its test is done), timing against JSON.parse of the
// same bytes in the same run, and heap sampling. Set ADCP_HOSTILE_REPORT=1 to print the timings,
// ratios and heap multiples observed.
import { ok, strictEqual } from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { encoder, withServer } from "./_test_utils.ts";
import { A2AClient } from "./a2a/mod.ts";
import { ItemLimitError, ResponseTooLargeError } from "./errors.ts";

/** One mebibyte. */
export const MiB = 1_048_576;
/** The default byte budget of one operation (`maxResponseBytes`). */
export const CAP = 4 * MiB;
/** The headers of an SSE answer. */
export const SSE_HEADERS = { "content-type": "text/event-stream" };
/** The headers of a JSON answer. */
export const JSON_HEADERS = { "content-type": "application/json" };
/** 1 MiB of padding, built once so that servers do not allocate it per answer. */
export const PAD = "x".repeat(MiB);
/** {@link PAD} as bytes. */
export const PAD_BYTES = encoder.encode(PAD);

/** Prints a measurement when ADCP_HOSTILE_REPORT=1 (silent without env permission). */
export function report(line: string): void {
  let enabled = false;
  try {
    enabled = Deno.env.get("ADCP_HOSTILE_REPORT") === "1";
  } catch {
    // no env permission: stay silent
  }
  if (enabled) console.log(`  [hostile] ${line}`);
}

/** V8's `gc()`, exposed through node:v8 flags when `--v8-flags=--expose-gc` was not given. */
export const gc: (() => void) | undefined = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  try {
    setFlagsFromString("--expose-gc");
    const fn = runInNewContext("gc");
    return typeof fn === "function" ? fn as () => void : undefined;
  } catch {
    return undefined;
  }
})();

/** Resolves when `signal` aborts. */
export function until(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener("abort", () => resolve(), { once: true })
  );
}

/**
 * Runs `fn` against a server on 127.0.0.1. The handler gets a `stop` signal that aborts when `fn`
 * is done, so a handler or body that hangs "forever" is released before the server shuts down.
 */
export async function withHostileServer(
  handler: (request: Request, stop: AbortSignal) => Response | Promise<Response>,
  fn: (base: string) => Promise<void>,
): Promise<void> {
  const stop = new AbortController();
  await withServer((request) => handler(request, stop.signal), async (base) => {
    try {
      await fn(base);
    } finally {
      stop.abort();
    }
  });
}

/** A lazily produced body and what the server handed out of it. */
export interface Flood {
  readonly body: ReadableStream<Uint8Array>;
  readonly stats: { chunks: number; bytes: number; cancelled: boolean };
  /** Resolves when the client cancelled the body (or the test stopped a hanging one). */
  readonly cancelled: Promise<void>;
}

/**
 * A body yielding `chunkAt(0)`, `chunkAt(1)`, ... one chunk per pull (never more than one chunk
 * buffered). At `undefined` it ends, or, with `hang`, stays open until the client cancels or the
 * test stops.
 */
export function flood(
  chunkAt: (index: number) => string | Uint8Array | undefined,
  stop: AbortSignal,
  hang = false,
): Flood {
  const stats = { chunks: 0, bytes: 0, cancelled: false };
  const gone = new AbortController();
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => onCancel = resolve);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunkAt(stats.chunks);
      if (next === undefined) {
        if (hang) await until(AbortSignal.any([stop, gone.signal]));
        try {
          controller.close();
        } catch {
          // cancelled meanwhile
        }
        onCancel();
        return;
      }
      const chunk = typeof next === "string" ? encoder.encode(next) : next;
      stats.chunks++;
      stats.bytes += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      stats.cancelled = true;
      gone.abort();
      onCancel();
    },
  }, { highWaterMark: 0 });
  return { body, stats, cancelled };
}

/** A JSON-RPC message as an MCP or A2A client sends it. */
export interface RpcMessage {
  readonly id?: number;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * An MCP Streamable HTTP agent: answers `initialize` and notifications itself, requests with
 * `answer`, and `Last-Event-ID` GETs with `resume` (405 without one).
 */
export function mcpAgent(
  answer: (message: RpcMessage & { readonly id: number }, stop: AbortSignal) =>
    | Response
    | Promise<Response>,
  resume?: (request: Request, stop: AbortSignal) => Response | Promise<Response>,
): (request: Request, stop: AbortSignal) => Promise<Response> {
  return async (request, stop) => {
    if (request.method === "GET") {
      return resume === undefined ? new Response(null, { status: 405 }) : resume(request, stop);
    }
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const message = await request.json() as RpcMessage;
    if (message.id === undefined) return new Response(null, { status: 202 });
    if (message.method === "initialize") {
      const result = { protocolVersion: "2025-11-25", capabilities: { tools: {} } };
      return Response.json({ jsonrpc: "2.0", id: message.id, result });
    }
    return answer(message as RpcMessage & { readonly id: number }, stop);
  };
}

/**
 * An A2A 1.0 JSON-RPC agent at `/a2a`: `stream` answers each POST with the request's JSON-RPC id.
 */
export function a2aAgent(
  stream: (id: number, stop: AbortSignal) => Response | Promise<Response>,
): (request: Request, stop: AbortSignal) => Promise<Response> {
  return async (request, stop) => {
    if (request.method !== "POST" || new URL(request.url).pathname !== "/a2a") {
      await request.body?.cancel();
      return new Response(null, { status: 404 });
    }
    const message = await request.json() as RpcMessage;
    return stream(message.id ?? 0, stop);
  };
}

/** A client for the agent at `base`, whose card was fetched from the same origin. */
export function a2aClientAt(base: string): A2AClient {
  const card = {
    supportedInterfaces: [{
      url: `${base}/a2a`,
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  };
  return new A2AClient(card, { cardUrl: `${base}/.well-known/agent-card.json` });
}

/** The ids of the task the A2A agents stream. */
export const IDS = { taskId: "t1", contextId: "c1" };

/** Asserts a cumulative-budget failure that stopped within the budget plus `slack` bytes. */
export function assertCumulative(
  error: unknown,
  limit: number,
  slack: number,
): asserts error is ResponseTooLargeError {
  ok(error instanceof ResponseTooLargeError, `expected ResponseTooLargeError, got ${error}`);
  strictEqual(error.code, "RESPONSE_TOO_LARGE");
  strictEqual(error.phase, "cumulative");
  strictEqual(error.limit, limit);
  ok(error.observed > limit, `observed ${error.observed} <= limit ${limit}`);
  ok(error.observed <= limit + slack, `observed ${error.observed} > ${limit} + ${slack}`);
}

/** Asserts an item cap failure. */
export function assertItemLimit(
  error: unknown,
  item: ItemLimitError["item"],
  limit: number,
  observed: number,
): asserts error is ItemLimitError {
  ok(error instanceof ItemLimitError, `expected ItemLimitError, got ${error}`);
  strictEqual(error.code, "ITEM_LIMIT");
  strictEqual(error.item, item);
  strictEqual(error.limit, limit);
  strictEqual(error.observed, observed);
}

/**
 * The fastest of `runs` runs of `fn`, in milliseconds, each after a GC when available. It yields to
 * the event loop before each run, so a `within` bound can fire between runs of synchronous work
 * (never inside one).
 */
export async function fastest(runs: number, fn: () => unknown): Promise<number> {
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc?.();
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Heap plus external memory now. */
function memoryNow(): number {
  const usage = Deno.memoryUsage();
  return usage.heapUsed + usage.external;
}

/**
 * Runs `run` while sampling heap + external memory every millisecond; returns how it settled and
 * the peak growth over the baseline taken (after a GC when available) just before it started.
 */
export async function peakGrowth(
  run: () => Promise<unknown>,
): Promise<{ error: unknown; growth: number }> {
  gc?.();
  const baseline = memoryNow();
  let peak = baseline;
  const timer = setInterval(() => peak = Math.max(peak, memoryNow()), 1);
  let error: unknown;
  try {
    await run();
  } catch (caught) {
    error = caught;
  } finally {
    clearInterval(timer);
    peak = Math.max(peak, memoryNow());
  }
  return { error, growth: peak - baseline };
}

/** The heap growth allowed to one call: this many times its byte budget. */
export const MEMORY_MULTIPLE = 16;

/** Milliseconds `JSON.parse(text)` takes here (best of three), the yardstick for CPU bounds. */
export function jsonParseMs(text: string): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    JSON.parse(text);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}
