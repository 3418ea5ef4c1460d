// Helpers for this package's tests: local servers, time bounds, byte streams, progress tracking.
import { ok } from "node:assert/strict";
import { AdcpTransportError, JsonDepthLimitError, JsonNodeLimitError } from "./errors.ts";
import type { ReadProgress } from "./read/read_response.ts";

/** The time bound, in milliseconds, of a test against local servers. */
export const BOUND_MS = 20_000;

/**
 * Registers a test that needs a local server on 127.0.0.1. It is never skipped: without
 * `--allow-net` it fails, so a run that forgot the permission cannot look green.
 */
export function netTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, fn });
}

/** Runs `fn` against a server on 127.0.0.1 (random port) and always shuts the server down. */
export async function withServer(
  handler: Deno.ServeHandler,
  fn: (base: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** Resolves as `promise` does, or rejects after `ms` milliseconds; the timer is always cleared. */
export async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Test exceeded its ${ms} ms bound`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Awaits `promise`, which must reject, and returns the reason. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  ok(false, "expected a rejection");
}

/** Collects an async iterable, returning the items and the error that ended it (if any). */
export async function drain<T>(
  iterable: AsyncIterable<T>,
): Promise<{ items: T[]; error: unknown; failed: boolean }> {
  const items: T[] = [];
  try {
    for await (const item of iterable) items.push(item);
  } catch (error) {
    return { items, error, failed: true };
  }
  return { items, error: undefined, failed: false };
}

/** A stream that yields `chunks` and closes; `cancelled` records a cancel. */
export function streamOf(chunks: readonly Uint8Array[]): {
  stream: ReadableStream<Uint8Array>;
  state: { cancelled: boolean; reason: unknown; pulled: number };
} {
  const state = { cancelled: false, reason: undefined as unknown, pulled: 0 };
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) {
        controller.close();
        return;
      }
      state.pulled++;
      controller.enqueue(chunk);
    },
    cancel(reason) {
      state.cancelled = true;
      state.reason = reason;
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

/**
 * A server-side body that generates `total` bytes lazily in chunks of `chunkSize`, filled by
 * `fill` (never allocating more than one chunk at a time); `sent` counts what was handed to the
 * server and `cancelled` resolves when the client side went away.
 */
export function lazyBody(
  total: number,
  chunkSize: number,
  fill: (chunk: Uint8Array, offset: number) => void = (chunk) => chunk.fill(0x61),
): { body: ReadableStream<Uint8Array>; stats: { sent: number }; cancelled: Promise<void> } {
  const stats = { sent: 0 };
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => onCancel = resolve);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stats.sent >= total) {
        controller.close();
        onCancel();
        return;
      }
      const size = Math.min(chunkSize, total - stats.sent);
      const chunk = new Uint8Array(size);
      fill(chunk, stats.sent);
      stats.sent += size;
      controller.enqueue(chunk);
    },
    cancel() {
      onCancel();
    },
  }, { highWaterMark: 0 });
  return { body, stats, cancelled };
}

/** Tracks reader progress: the largest chunk, the number of calls, the last report. */
export function progressTracker(): {
  onProgress: (progress: ReadProgress) => void;
  stats: { calls: number; maxChunk: number; last: ReadProgress | undefined };
} {
  const stats = { calls: 0, maxChunk: 0, last: undefined as ReadProgress | undefined };
  return {
    onProgress(progress) {
      stats.calls++;
      stats.last = progress;
      if (progress.chunkBytes > stats.maxChunk) stats.maxChunk = progress.chunkBytes;
    },
    stats,
  };
}

/** gzip-compresses `size` bytes of zeros, produced in 1 MiB pieces, with CompressionStream. */
export async function gzipZeros(size: number): Promise<Uint8Array<ArrayBuffer>> {
  const piece = new Uint8Array(1_048_576);
  let left = size;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) {
        controller.close();
        return;
      }
      const n = Math.min(left, piece.length);
      left -= n;
      controller.enqueue(piece.slice(0, n));
    },
  });
  const compressed = source.pipeThrough(
    new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}

/** gzip-compresses `bytes`. */
export async function gzip(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Splits `bytes` at the given cut points (sorted, deduplicated, clamped). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => Math.max(0, Math.min(bytes.length, cut))))].sort(
    (a, b) => a - b,
  );
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    if (point > start) chunks.push(bytes.subarray(start, point));
    start = Math.max(start, point);
  }
  if (start < bytes.length) chunks.push(bytes.subarray(start));
  return chunks;
}

export const encoder: TextEncoder = new TextEncoder();

/** The `kind`s an `McpClient` call may return. */
export const MCP_KINDS: ReadonlySet<string> = new Set([
  "success",
  "error",
  "text",
  "jsonrpc_error",
]);

/** The `kind`s an `A2AClient` call may return. */
export const A2A_KINDS: ReadonlySet<string> = new Set([
  "success",
  "error",
  "text",
  "malformed",
  "auth_required",
  "message",
  "jsonrpc_error",
]);

/** Whether `error` is a member of `AnyTransportError` (the transport family or a JSON bound). */
export function isAnyTransportError(error: unknown): boolean {
  return error instanceof AdcpTransportError || error instanceof JsonDepthLimitError ||
    error instanceof JsonNodeLimitError;
}
