import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { drain, encoder, progressTracker, splitAt, streamOf, within } from "../_test_utils.ts";
import { DeadlineExceededError, MalformedUtf8Error, ResponseTooLargeError } from "../errors.ts";
import {
  createSseBudget,
  readSseEventBatches,
  readSseEvents,
  type ReadSseEventsOptions,
  SseBudget,
  type SseEvent,
} from "./sse.ts";

function sse(text: string, init?: ResponseInit): Response {
  return new Response(text, init);
}

Deno.test("readSseEvents() yields data, event, id and the last event id", async () => {
  const text = ": keep-alive\n" +
    'id: 1\nevent: progress\ndata: {"p":1}\n\n' +
    "data: line one\ndata: line two\n\n" +
    'id: 2\r\nunknown: ignored\r\nretry: 1500\r\ndata:{"p":2}\r\n\r\n' +
    "id:\ndata: cleared\n\n";
  const budget = createSseBudget();
  const { items, failed } = await drain(readSseEvents(sse(text), { budget }));
  strictEqual(failed, false);
  deepStrictEqual(items, [
    { data: '{"p":1}', event: "progress", id: "1", lastEventId: "1" },
    { data: "line one\nline two", event: undefined, id: undefined, lastEventId: "1" },
    { data: '{"p":2}', event: undefined, id: "2", lastEventId: "2" },
    { data: "cleared", event: undefined, id: "", lastEventId: undefined },
  ]);
  strictEqual(budget.retryMs, 1500);
  strictEqual(budget.used, encoder.encode(text).length);
  strictEqual(budget.lastEventId, undefined);
});

Deno.test("readSseEvents() fails an endless event as it arrives and cancels the body", async () => {
  const line = encoder.encode("data: " + "x".repeat(994));
  const chunks = Array.from(
    { length: 50 },
    (_, i) => i === 0 ? line : new Uint8Array(1_000).fill(0x78),
  );
  const { stream, state } = streamOf(chunks);
  const progress = progressTracker();
  const { items, error } = await drain(
    readSseEvents(new Response(stream), {
      limits: { maxResponseBytes: 4_500 },
      onProgress: progress.onProgress,
    }),
  );
  strictEqual(items.length, 0);
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "event");
  strictEqual(error.limit, 4_500);
  strictEqual(error.observed, 5_000);
  strictEqual(state.pulled, 5);
  strictEqual(state.cancelled, true);
  strictEqual(progress.stats.last!.decodedBytes, 5_000);
});

Deno.test(
  "readSseEvents() fails when small events add up past the cap, " +
    "after yielding the earlier ones",
  async () => {
    const event = "data: 0123456789\n\n"; // 18 bytes
    const { stream, state } = streamOf(Array.from({ length: 100 }, () => encoder.encode(event)));
    const { items, error } = await drain(
      readSseEvents(new Response(stream), { limits: { maxResponseBytes: 900 } }),
    );
    strictEqual(items.length, 50);
    ok(error instanceof ResponseTooLargeError);
    strictEqual(error.phase, "cumulative");
    strictEqual(error.observed, 918);
    strictEqual(state.cancelled, true);
  },
);

Deno.test("readSseEvents() carries the budget across a reconnect", async () => {
  const budget = createSseBudget({ maxResponseBytes: 100 });
  const first = await drain(
    readSseEvents(sse("id: a\ndata: " + "1".repeat(40) + "\n\n"), { budget }),
  );
  strictEqual(first.items.length, 1);
  strictEqual(budget.used, 54);
  strictEqual(budget.lastEventId, "a");
  const second = await drain(
    readSseEvents(sse("id: b\ndata: " + "2".repeat(40) + "\n\n"), { budget }),
  );
  ok(second.error instanceof ResponseTooLargeError);
  strictEqual(second.error.phase, "cumulative");
  strictEqual(second.error.observed, 108);
  // The same second stream alone fits a fresh budget.
  const fresh = await drain(
    readSseEvents(sse("id: b\ndata: " + "2".repeat(40) + "\n\n"), {
      limits: { maxResponseBytes: 100 },
    }),
  );
  strictEqual(fresh.items.length, 1);
});

Deno.test("readSseEvents() pre-rejects a Content-Length over the budget's remainder", async () => {
  const budget = createSseBudget({ maxResponseBytes: 100 });
  budget.charge(80);
  const { stream, state } = streamOf([encoder.encode("data: x\n\n")]);
  const response = new Response(stream, { headers: { "content-length": "30" } });
  const { error } = await drain(readSseEvents(response, { budget }));
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "cumulative");
  strictEqual(error.observed, 110);
  strictEqual(state.pulled, 0);
  strictEqual(state.cancelled, true);
  strictEqual(budget.used, 80);
});

Deno.test("readSseEvents() keeps the budget's deadline across reconnects", async () => {
  const budget = createSseBudget({ timeoutMs: 30 });
  await new Promise((resolve) => setTimeout(resolve, 40));
  const { stream, state } = streamOf([encoder.encode("data: late\n\n")]);
  const { items, error } = await drain(readSseEvents(new Response(stream), { budget }));
  strictEqual(items.length, 0);
  ok(error instanceof DeadlineExceededError);
  strictEqual(error.timeoutMs, 30);
  ok(error.elapsedMs >= 30);
  strictEqual(state.cancelled, true);
});

Deno.test("readSseEvents() fails a stalled stream at the deadline", async () => {
  let cancelled = false;
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("data: first\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  const { items, error } = await within(
    5_000,
    drain(readSseEvents(new Response(stalled), { limits: { timeoutMs: 50 } })),
  );
  deepStrictEqual(items.map((event) => event.data), ["first"]);
  ok(error instanceof DeadlineExceededError);
  strictEqual(cancelled, true);
});

Deno.test("readSseEvents() cancels the body when the consumer stops early", async () => {
  const { stream, state } = streamOf(
    Array.from({ length: 10 }, (_, i) => encoder.encode(`data: ${i}\n\n`)),
  );
  for await (const event of readSseEvents(new Response(stream))) {
    strictEqual(event.data, "0");
    break;
  }
  strictEqual(state.cancelled, true);
});

Deno.test("readSseEvents() answers calls made without waiting in order, then done", async () => {
  const { stream } = streamOf([
    encoder.encode("data: 0\n\ndata: 1\n\n"),
    encoder.encode("data: 2\n\n"),
  ]);
  const events = readSseEvents(new Response(stream));
  const results = await Promise.all(Array.from({ length: 5 }, () => events.next()));
  deepStrictEqual(results.map((result) => result.done ? "done" : result.value.data), [
    "0",
    "1",
    "2",
    "done",
    "done",
  ]);
});

Deno.test("readSseEvents() reports an error once, then done, and cancels the body", async () => {
  const { stream, state } = streamOf([
    encoder.encode("data: 0\n\n"),
    encoder.encode(`data: ${"x".repeat(64)}\n\n`),
    encoder.encode("data: 2\n\n"),
  ]);
  const events = readSseEvents(new Response(stream), { limits: { maxResponseBytes: 32 } });
  deepStrictEqual(await events.next(), {
    value: { data: "0", event: undefined, id: undefined, lastEventId: undefined },
    done: false,
  });
  const error = await events.next().then(() => undefined, (reason: unknown) => reason);
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "event");
  deepStrictEqual(await events.next(), { value: undefined, done: true });
  strictEqual(state.cancelled, true);
});

Deno.test("readSseEvents() closes on throw() and on disposal, cancelling the body", async () => {
  const chunks = () => Array.from({ length: 4 }, (_, i) => encoder.encode(`data: ${i}\n\n`));
  const thrown = streamOf(chunks());
  const events = readSseEvents(new Response(thrown.stream));
  strictEqual((await events.next()).value?.data, "0");
  const reason = new Error("consumer gave up");
  strictEqual(await events.throw(reason).catch((error: unknown) => error), reason);
  strictEqual(thrown.state.cancelled, true);
  deepStrictEqual(await events.next(), { value: undefined, done: true });

  const disposed = streamOf(chunks());
  {
    await using scoped = readSseEvents(new Response(disposed.stream));
    strictEqual((await scoped.next()).value?.data, "0");
  }
  strictEqual(disposed.state.cancelled, true);
});

Deno.test("readSseEvents() reads nothing before the first call", async () => {
  const { stream, state } = streamOf([encoder.encode("data: 0\n\n")]);
  const events = readSseEvents(new Response(stream));
  await new Promise((resolve) => setTimeout(resolve, 0));
  strictEqual(state.pulled, 0);
  strictEqual((await events.next()).value?.data, "0");
});

Deno.test("readSseEvents() is fatal on malformed UTF-8", async () => {
  const bytes = new Uint8Array([...encoder.encode("data: "), 0xff, 0x0a, 0x0a]);
  const { error } = await drain(readSseEvents(new Response(bytes)));
  ok(error instanceof MalformedUtf8Error);
});

Deno.test("readSseEvents() dispatches an event ended by a CR at the end of a chunk", async () => {
  // eventsource-parser alone waits for the byte after a trailing CR; the WHATWG rules end the line
  // there, and so does this reader (also at the very end of the stream).
  const { stream } = streamOf([encoder.encode("data: a\n\r"), encoder.encode("data: b\r\r")]);
  const { items, failed } = await drain(readSseEvents(new Response(stream)));
  strictEqual(failed, false);
  deepStrictEqual(items.map((event) => event.data), ["a", "b"]);
});

Deno.test(
  "readSseEventBatches() yields the events each chunk completes, " +
    "with the same bounds",
  async () => {
    const { stream } = streamOf([
      encoder.encode("data: a\n\ndata: b\n\ndata: c"),
      encoder.encode("\n\n: only a comment\n"),
      encoder.encode("\ndata: d\n\n"),
    ]);
    const { items, failed } = await drain(readSseEventBatches(new Response(stream)));
    strictEqual(failed, false);
    deepStrictEqual(items.map((batch) => batch.map((event) => event.data)), [["a", "b"], ["c"], [
      "d",
    ]]);

    const over = streamOf(Array.from({ length: 10 }, () => encoder.encode("data: 0123456789\n\n")));
    const bounded = await drain(
      readSseEventBatches(new Response(over.stream), { limits: { maxResponseBytes: 50 } }),
    );
    deepStrictEqual(bounded.items.map((batch) => batch.length), [1, 1]);
    ok(bounded.error instanceof ResponseTooLargeError);
    strictEqual(bounded.error.phase, "cumulative");
    strictEqual(over.state.cancelled, true);
    throws(
      () => readSseEventBatches(sse(""), { budget: createSseBudget(), limits: {} }),
      TypeError,
    );
  },
);

Deno.test("readSseEvents() validates its arguments at once", () => {
  throws(() => readSseEvents({} as Response), {
    name: "TypeError",
    message:
      "Cannot read the response as 'response' must be a Response: current value is an object",
  });
  throws(() => readSseEvents(sse(""), null as unknown as ReadSseEventsOptions), {
    name: "TypeError",
    message: "Cannot read the response as 'options' must be an object: current value is null",
  });
  throws(
    () => readSseEvents(sse(""), { budget: createSseBudget(), limits: {} }),
    {
      name: "TypeError",
      message: "Cannot read the response as 'options.limits' must be undefined when " +
        "'options.budget' is set (pass the limits to createSseBudget): current value is an object",
    },
  );
  throws(() => readSseEvents(sse(""), { budget: {} as SseBudget }), {
    name: "TypeError",
    message:
      "Cannot read the response as 'options.budget' must be an SseBudget: current value is " +
      "an object",
  });
  throws(() => readSseEvents(sse(""), { limits: { maxResponseBytes: -1 } }), RangeError);
});

Deno.test("SseBudget validates charges and records ids", () => {
  const budget = new SseBudget({ maxResponseBytes: 10 });
  throws(() => budget.charge(-1), {
    name: "RangeError",
    message:
      "Cannot charge the SSE budget as 'bytes' must be a non-negative safe integer: current " +
      "value is -1",
  });
  throws(() => budget.charge(1.5), {
    name: "RangeError",
    message:
      "Cannot charge the SSE budget as 'bytes' must be a non-negative safe integer: current " +
      "value is 1.5",
  });
  budget.charge(10);
  strictEqual(budget.remaining, 0);
  throws(() => budget.charge(1), { code: "RESPONSE_TOO_LARGE", phase: "cumulative", observed: 11 });
  strictEqual(budget.remaining, 0);
  budget.recordEventId("42");
  strictEqual(budget.lastEventId, "42");
  budget.recordEventId("");
  strictEqual(budget.lastEventId, undefined);
});

// Arbitrary SSE streams: events made of fields, comments and mixed line terminators.
const field = fc.oneof(
  fc.string({ unit: "grapheme-ascii", maxLength: 12 }).filter((s) => !/[\r\n]/.test(s)).map((s) =>
    `data: ${s}`
  ),
  fc.constantFrom("data:", "event: update", "id: 9", "id:", ": ping", "retry: 10", "bogus: 1"),
  fc.string({ unit: "grapheme", maxLength: 4 }).filter((s) => !/[\r\n]/.test(s)).map((s) =>
    `data:${s}`
  ),
);
const terminator = fc.constantFrom("\n", "\r", "\r\n");
const stream = fc.array(
  fc.tuple(fc.array(fc.tuple(field, terminator), { maxLength: 4 }), terminator),
  { maxLength: 8 },
).map((events) =>
  events.map(([fields, end]) => fields.map(([text, eol]) => text + eol).join("") + end).join("")
);

/** eventsource-parser on the whole text, with a final CR read as the line end it is. */
function referenceEvents(text: string): Omit<SseEvent, "lastEventId">[] {
  const out: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => out.push(event) });
  parser.feed(text.endsWith("\r") ? text + "\n" : text);
  return out.map(({ data, event, id }) => ({ data, event, id }));
}

Deno.test("readSseEvents() yields the same events whatever the chunk boundaries", async () => {
  await fc.assert(
    fc.asyncProperty(
      stream,
      fc.array(fc.nat({ max: 400 }), { maxLength: 12 }),
      async (text, cuts) => {
        const bytes = encoder.encode(text);
        const { stream } = streamOf(splitAt(bytes, cuts));
        const { items, failed } = await drain(readSseEvents(new Response(stream)));
        strictEqual(failed, false);
        deepStrictEqual(
          items.map(({ data, event, id }) => ({ data, event, id })),
          referenceEvents(text),
        );
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("readSseEvents() never holds more than the cap plus one chunk", async () => {
  await fc.assert(
    fc.asyncProperty(
      stream,
      fc.array(fc.nat({ max: 400 }), { maxLength: 12 }),
      fc.integer({ min: 1, max: 200 }),
      async (text, cuts, cap) => {
        const bytes = encoder.encode(text);
        const chunks = splitAt(bytes, cuts);
        const largest = Math.max(0, ...chunks.map((chunk) => chunk.length));
        const budget = createSseBudget({ maxResponseBytes: cap });
        const { items, error, failed } = await drain(
          readSseEvents(new Response(streamOf(chunks).stream), { budget }),
        );
        if (!failed) {
          ok(bytes.length <= cap);
          strictEqual(items.length, referenceEvents(text).length);
          return;
        }
        ok(error instanceof ResponseTooLargeError);
        ok(error.phase === "event" || error.phase === "cumulative");
        ok(
          error.observed > cap && error.observed <= cap + largest,
          `${error.observed} vs ${cap}+${largest}`,
        );
        ok(budget.used <= cap + largest);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("readSseEvents() keeps Latin-1 look-alikes of a BOM, stripping U+FEFF only", async () => {
  // "ï»¿data: x" is a line whose field name is "ï»¿data": unknown, so ignored.
  deepStrictEqual(
    await Array.fromAsync(readSseEvents(sse("\u00EF\u00BB\u00BFdata: x\n\ndata: y\n\n"))),
    [
      { data: "y", event: undefined, id: undefined, lastEventId: undefined },
    ],
  );
  deepStrictEqual(await Array.fromAsync(readSseEvents(sse("\uFEFFdata: x\n\n"))), [
    { data: "x", event: undefined, id: undefined, lastEventId: undefined },
  ]);
});

/** Spins for `ms` milliseconds without yielding: a stand-in for a slow machine. */
function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* spin */ }
}

/** The body as 64 KiB chunks, all available at once (each read resolves without a macrotask). */
function chunksOf(text: string): Uint8Array[] {
  const bytes = encoder.encode(text);
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += 65_536) {
    chunks.push(bytes.subarray(start, start + 65_536));
  }
  return chunks;
}

Deno.test(
  "readSseEvents() reads 4 MiB of unknown-field " +
    "and bad-retry lines within 10x of JSON.parse",
  async () => {
    // eventsource-parser 3.1.1 built an Error per such line: 23 s of CPU for 4 MiB of "x\n".
    const size = 4 * 1_048_576;
    const json = "[" + '"x",'.repeat(size / 4 - 1) + '"x"]';
    let jsonMs = Infinity;
    for (let round = 0; round < 5; round++) {
      const start = performance.now();
      JSON.parse(json);
      jsonMs = Math.min(jsonMs, performance.now() - start);
    }
    for (const line of ["x\n", "a:b\n", "retry:x\n"]) {
      const filler = line.repeat(Math.floor((size - 4_096) / line.length));
      const chunks = chunksOf(filler + '\ndata: {"ok":true}\n\n');
      let sseMs = Infinity;
      for (let round = 0; round < 5; round++) {
        const budget = createSseBudget();
        const start = performance.now();
        const { items, failed } = await drain(
          readSseEvents(new Response(streamOf(chunks).stream), { budget }),
        );
        sseMs = Math.min(sseMs, performance.now() - start);
        strictEqual(failed, false);
        deepStrictEqual(items, [
          { data: '{"ok":true}', event: undefined, id: undefined, lastEventId: undefined },
        ]);
        strictEqual(budget.retryMs, undefined);
      }
      ok(sseMs < 10 * jsonMs, `${JSON.stringify(line)}: ${sseMs} ms vs JSON.parse ${jsonMs} ms`);
    }
  },
);

Deno.test("readSseEvents() does not block the event loop on buffered garbage lines", async () => {
  // Nearly 4 MiB of garbage lines, all buffered, then a stall: the timer must still fire at 200 ms.
  const line = "x\na:b\nretry:x\n";
  const chunks = chunksOf(line.repeat(Math.floor(4_100_000 / line.length)));
  let cancelled = false;
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  const start = performance.now();
  const { error } = await within(
    5_000,
    drain(readSseEvents(new Response(stalled), { limits: { timeoutMs: 200 } })),
  );
  const elapsed = performance.now() - start;
  ok(error instanceof DeadlineExceededError);
  strictEqual(error.timeoutMs, 200);
  ok(elapsed < 1_000, `failed after ${elapsed} ms`);
  strictEqual(cancelled, true);
});

Deno.test("readSseEvents() fails at the deadline while parsing buffered chunks", async () => {
  // 8 MiB of garbage lines in 128 chunks, all available at once: no read waits for a macrotask, so
  // the deadline's timer cannot fire until the body ends. Each chunk takes 10 ms more here (a slow
  // machine), so the deadline passes after about 20 chunks: the per-chunk clock check fails the
  // read there, within 200 ms plus one chunk, long before the 4 MiB cumulative cap.
  const line = "x\na:b\nretry:x\n";
  const { stream, state } = streamOf(chunksOf(line.repeat(Math.floor(8_388_608 / line.length))));
  const start = performance.now();
  const { error } = await within(
    5_000,
    drain(readSseEventBatches(new Response(stream), {
      limits: { timeoutMs: 200 },
      onProgress: () => busyWait(10),
    })),
  );
  const elapsed = performance.now() - start;
  ok(error instanceof DeadlineExceededError, String(error));
  strictEqual(error.timeoutMs, 200);
  ok(error.elapsedMs >= 200);
  ok(elapsed < 1_000, `failed after ${elapsed} ms`);
  ok(state.pulled < 64, `read ${state.pulled} chunks`);
  strictEqual(state.cancelled, true);
});

Deno.test("readSseEvents() checks the deadline after parsing each chunk", async () => {
  // The chunk's own parsing outlasts the deadline: its events are not delivered.
  let calls = 0;
  const { stream, state } = streamOf([
    encoder.encode("data: 1\n\n"),
    encoder.encode("data: 2\n\n"),
  ]);
  const budget = createSseBudget({ timeoutMs: 50 });
  const { items, error } = await drain(readSseEvents(new Response(stream), {
    budget,
    onProgress: () => {
      if (++calls === 2) busyWait(60);
    },
  }));
  deepStrictEqual(items.map((event) => event.data), ["1"]);
  ok(error instanceof DeadlineExceededError);
  strictEqual(state.cancelled, true);
});
