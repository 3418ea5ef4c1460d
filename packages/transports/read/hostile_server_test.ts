// The hostile-server suite: real HTTP on 127.0.0.1 against servers that misbehave on purpose. Every
// test is bounded in time (`within`), shuts its server down, and leaves no body unread or
// uncancelled, so the resource and op sanitizers stay on.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  drain,
  encoder,
  gzipZeros,
  lazyBody,
  netTest,
  progressTracker,
  rejection,
  within,
  withServer,
} from "../_test_utils.ts";
import { DeadlineExceededError, JsonDepthLimitError, ResponseTooLargeError } from "../errors.ts";
import { readJsonResponse, readTextResponse } from "./read_response.ts";
import { createSseBudget, readSseEvents } from "./sse.ts";

const MiB = 1_048_576;
const GiB = 1_073_741_824;
const CAP = 4 * MiB;
const BOUND_MS = 30_000;

/** Asserts a streamed-phase size error that stopped within the cap plus one chunk. */
function assertStoppedAtCap(
  error: unknown,
  phase: ResponseTooLargeError["phase"],
  limit: number,
  largestChunk: number,
): asserts error is ResponseTooLargeError {
  ok(error instanceof ResponseTooLargeError, `expected ResponseTooLargeError, got ${error}`);
  strictEqual(error.code, "RESPONSE_TOO_LARGE");
  strictEqual(error.phase, phase);
  strictEqual(error.limit, limit);
  ok(error.observed > limit, `observed ${error.observed} <= limit`);
  ok(largestChunk > 0);
  ok(
    error.observed <= limit + largestChunk,
    `observed ${error.observed} > ${limit} + ${largestChunk}`,
  );
}

netTest(
  "hostile: a lazily generated 1 GiB body stops at the cap and the server stops sending",
  async () => {
    const server = lazyBody(GiB, 65_536);
    await within(
      BOUND_MS,
      withServer(() => new Response(server.body), async (base) => {
        const progress = progressTracker();
        const response = await fetch(base);
        strictEqual(response.headers.get("content-length"), null);
        const error = await rejection(
          readTextResponse(response, { onProgress: progress.onProgress }),
        );
        assertStoppedAtCap(error, "raw", CAP, progress.stats.maxChunk);
        await server.cancelled;
        ok(server.stats.sent < 64 * MiB, `server sent ${server.stats.sent} bytes`);
      }),
    );
  },
);

netTest(
  "hostile: a small Content-Length in front of a huge body yields only the declared bytes",
  async () => {
    const server = lazyBody(GiB, 65_536);
    await within(
      BOUND_MS,
      withServer(
        () => new Response(server.body, { headers: { "content-length": "1000" } }),
        async (base) => {
          const progress = progressTracker();
          const text = await readTextResponse(await fetch(base), {
            onProgress: progress.onProgress,
          });
          strictEqual(text, "a".repeat(1_000));
          strictEqual(progress.stats.last!.decodedBytes, 1_000);
          await server.cancelled;
          ok(server.stats.sent < 64 * MiB);
        },
      ),
    );
  },
);

netTest("hostile: a huge Content-Length is rejected before a body byte is read", async () => {
  const server = lazyBody(GiB, 65_536);
  await within(
    BOUND_MS,
    withServer(
      () => new Response(server.body, { headers: { "content-length": String(1024 * GiB) } }),
      async (base) => {
        const progress = progressTracker();
        const error = await rejection(
          readJsonResponse(await fetch(base), { onProgress: progress.onProgress }),
        );
        ok(error instanceof ResponseTooLargeError);
        strictEqual(error.code, "RESPONSE_TOO_LARGE");
        strictEqual(error.phase, "content-length");
        strictEqual(error.limit, CAP);
        strictEqual(error.observed, 1024 * GiB);
        strictEqual(progress.stats.calls, 0);
        await server.cancelled;
      },
    ),
  );
});

netTest(
  "hostile: a chunked JSON body with no length fails on bytes, before any parsing",
  async () => {
    // An endless JSON array: [0,0,0,... in 16 KiB chunks, sent with chunked transfer coding.
    const server = lazyBody(GiB, 16_384, (chunk, offset) => {
      chunk.fill(0x30);
      for (let i = offset === 0 ? 1 : 0; i < chunk.length; i += 2) chunk[i] = 0x2c;
      if (offset === 0) chunk[0] = 0x5b;
    });
    await within(
      BOUND_MS,
      withServer(
        () => new Response(server.body, { headers: { "content-type": "application/json" } }),
        async (base) => {
          const progress = progressTracker();
          const response = await fetch(base);
          strictEqual(response.headers.get("content-length"), null);
          const error = await rejection(
            readJsonResponse(response, { maxResponseBytes: MiB, onProgress: progress.onProgress }),
          );
          assertStoppedAtCap(error, "raw", MiB, progress.stats.maxChunk);
          await server.cancelled;
        },
      ),
    );
  },
);

netTest("hostile: a slow drip that never ends fails at the deadline", async () => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sent = 0;
  let cancelled!: () => void;
  const serverCancelled = new Promise<void>((resolve) => cancelled = resolve);
  const drip = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          sent++;
          controller.enqueue(encoder.encode(" "));
          resolve();
        }, 20);
      });
    },
    cancel() {
      clearTimeout(timer);
      cancelled();
    },
  }, { highWaterMark: 0 });
  await within(
    BOUND_MS,
    withServer(() => new Response(drip), async (base) => {
      const progress = progressTracker();
      const started = performance.now();
      const error = await rejection(
        readTextResponse(await fetch(base), { timeoutMs: 300, onProgress: progress.onProgress }),
      );
      const elapsed = performance.now() - started;
      ok(error instanceof DeadlineExceededError);
      strictEqual(error.code, "DEADLINE_EXCEEDED");
      strictEqual(error.timeoutMs, 300);
      ok(error.elapsedMs >= 299 && elapsed < 3_000, `elapsed ${error.elapsedMs} / ${elapsed}`);
      ok(progress.stats.calls >= 2, "the drip did deliver bytes before the deadline");
      ok(progress.stats.last!.decodedBytes < 100);
      await serverCancelled;
      ok(sent < 200);
    }),
  );
});

netTest("hostile: a gzip bomb stops at the decoded cap when fetch decodes it", async () => {
  const bomb = await gzipZeros(256 * MiB);
  ok(bomb.length < 300_000, `bomb of ${bomb.length} bytes`);
  await within(
    BOUND_MS,
    withServer(
      () => new Response(bomb, { headers: { "content-encoding": "gzip" } }),
      async (base) => {
        const progress = progressTracker();
        const response = await fetch(base);
        strictEqual(response.headers.get("content-length"), String(bomb.length));
        const error = await rejection(
          readTextResponse(response, { onProgress: progress.onProgress }),
        );
        assertStoppedAtCap(error, "decoded", CAP, progress.stats.maxChunk);
        strictEqual(progress.stats.last!.rawBytes, undefined);
      },
    ),
  );
});

netTest("hostile: a gzip bomb stops at the decoded cap when the reader decodes it", async () => {
  const bomb = await gzipZeros(256 * MiB);
  await within(
    BOUND_MS,
    withServer(
      () => new Response(bomb, { headers: { "content-encoding": "gzip" } }),
      async (base) => {
        const progress = progressTracker();
        // Deno's fetch leaves the body encoded when the request asks for identity.
        const response = await fetch(base, { headers: { "accept-encoding": "identity" } });
        const error = await rejection(
          readTextResponse(response, {
            contentDecoding: "manual",
            onProgress: progress.onProgress,
          }),
        );
        assertStoppedAtCap(error, "decoded", CAP, progress.stats.maxChunk);
        ok(progress.stats.maxChunk <= 1_100_000, `decoded chunk of ${progress.stats.maxChunk}`);
        ok(progress.stats.last!.rawBytes! <= bomb.length);
      },
    ),
  );
});

/** A text/event-stream body of `count` events made by `event(i)`, generated lazily. */
function eventStream(count: number, event: (i: number) => string, eventsPerChunk = 20): {
  body: ReadableStream<Uint8Array>;
  cancelled: Promise<void>;
} {
  let next = 0;
  let done!: () => void;
  const cancelled = new Promise<void>((resolve) => done = resolve);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next >= count) {
        controller.close();
        done();
        return;
      }
      let text = "";
      for (let i = 0; i < eventsPerChunk && next < count; i++) text += event(next++);
      controller.enqueue(encoder.encode(text));
    },
    cancel() {
      done();
    },
  }, { highWaterMark: 0 });
  return { body, cancelled };
}

const SSE_HEADERS = { "content-type": "text/event-stream" };

netTest(
  "hostile: 10,000 small SSE events whose sum passes the cap fail on the cumulative bound",
  async () => {
    const payload = "x".repeat(480);
    const event = (i: number) => `id: ${i}\ndata: ${String(i).padStart(5, "0")}${payload}\n\n`;
    const stream = eventStream(10_000, event);
    ok(10_000 * encoder.encode(event(0)).length > CAP); // 499 to 502 bytes each
    await within(
      BOUND_MS,
      withServer(() => new Response(stream.body, { headers: SSE_HEADERS }), async (base) => {
        const progress = progressTracker();
        const budget = createSseBudget();
        const { items, error } = await drain(
          readSseEvents(await fetch(base, { method: "POST" }), {
            budget,
            onProgress: progress.onProgress,
          }),
        );
        assertStoppedAtCap(error, "cumulative", CAP, progress.stats.maxChunk);
        strictEqual(budget.used, error.observed);
        // Every event that arrived complete before the failing chunk was yielded, and no other.
        const yieldedBytes = items.reduce((sum, _, i) => sum + encoder.encode(event(i)).length, 0);
        ok(items.length < 10_000);
        ok(yieldedBytes <= CAP, `yielded ${yieldedBytes}`);
        ok(
          yieldedBytes > error.observed - progress.stats.maxChunk - 502,
          `yielded ${yieldedBytes}`,
        );
        items.forEach((item, i) => strictEqual(item.id, String(i)));
        strictEqual(budget.lastEventId, String(items.length - 1));
        await stream.cancelled;
      }),
    );
  },
);

netTest(
  "hostile: SSE split across a Last-Event-ID reconnect is bounded by one cumulative budget",
  async () => {
    const payload = "y".repeat(1_000);
    const event = (i: number) => `id: ${i}\ndata: ${payload}\n\n`;
    // About 3 MiB per stream: each fits the cap alone, together they do not.
    const perStream = 3_000;
    let resumedFrom: string | null = null;
    let resumed: { body: ReadableStream<Uint8Array>; cancelled: Promise<void> } | undefined;
    const handler = (request: Request): Response => {
      if (request.method === "POST") {
        // The first stream ends in the middle of an event, as a dropped connection would.
        const first = eventStream(perStream, event);
        const cut = first.body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            flush(controller) {
              controller.enqueue(encoder.encode(`id: ${perStream}\ndata: cut off`));
            },
          }),
        );
        return new Response(cut, { headers: SSE_HEADERS });
      }
      resumedFrom = request.headers.get("last-event-id");
      const start = Number(resumedFrom) + 1;
      resumed = eventStream(perStream, (i) => event(start + i));
      return new Response(resumed.body, { headers: SSE_HEADERS });
    };
    await within(
      BOUND_MS,
      withServer(handler, async (base) => {
        const budget = createSseBudget();
        const first = await drain(readSseEvents(await fetch(base, { method: "POST" }), { budget }));
        strictEqual(first.failed, false);
        strictEqual(first.items.length, perStream);
        strictEqual(budget.lastEventId, String(perStream - 1));
        const usedByFirst = budget.used;
        ok(usedByFirst < CAP);

        const progress = progressTracker();
        const reconnect = await fetch(base, { headers: { "last-event-id": budget.lastEventId! } });
        const second = await drain(
          readSseEvents(reconnect, { budget, onProgress: progress.onProgress }),
        );
        strictEqual(resumedFrom, String(perStream - 1));
        strictEqual(second.items[0]?.id, String(perStream));
        assertStoppedAtCap(second.error, "cumulative", CAP, progress.stats.maxChunk);
        strictEqual(budget.used, second.error.observed);
        ok(second.items.length < perStream, "the second stream alone would have fit");
        await resumed!.cancelled;
      }),
    );
  },
);

netTest("hostile: one endless SSE event fails on the per-event bound as it arrives", async () => {
  const server = lazyBody(GiB, 65_536, (chunk, offset) => {
    chunk.fill(0x78);
    if (offset === 0) chunk.set(encoder.encode("data: "));
  });
  await within(
    BOUND_MS,
    withServer(() => new Response(server.body, { headers: SSE_HEADERS }), async (base) => {
      const progress = progressTracker();
      const { items, error } = await drain(
        readSseEvents(await fetch(base, { method: "POST" }), { onProgress: progress.onProgress }),
      );
      deepStrictEqual(items, []);
      assertStoppedAtCap(error, "event", CAP, progress.stats.maxChunk);
      await server.cancelled;
      ok(server.stats.sent < 64 * MiB);
    }),
  );
});

netTest(
  "hostile: JSON nested 100,000 deep inside the byte cap fails on depth before parsing",
  async () => {
    const body = "[".repeat(100_000) + "]".repeat(100_000);
    await within(
      BOUND_MS,
      withServer(() => new Response(body), async (base) => {
        const error = await rejection(readJsonResponse(await fetch(base)));
        ok(error instanceof JsonDepthLimitError);
        strictEqual(error.code, "JSON_DEPTH_LIMIT");
        strictEqual(error.limit, 64);
        strictEqual(error.observed, 65);
      }),
    );
  },
);
