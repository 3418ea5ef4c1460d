import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { drain, encoder, splitAt, streamOf, within } from "../_test_utils.ts";
import {
  DeadlineExceededError,
  JsonDepthLimitError,
  MalformedJsonError,
  MalformedUtf8Error,
  ResponseTooLargeError,
} from "../errors.ts";
import { readStdioMessages, type StdioProgress } from "./stdio.ts";

Deno.test(
  "readStdioMessages() parses newline-delimited messages, " +
    "skipping empty lines and CRs",
  async () => {
    const text = '{"id":1}\r\n\n{"id":2}\n\r\n[3]\n';
    const { items, failed } = await drain(
      readStdioMessages(streamOf([encoder.encode(text)]).stream),
    );
    strictEqual(failed, false);
    deepStrictEqual(items, [{ id: 1 }, { id: 2 }, [3]]);
  },
);

Deno.test(
  "readStdioMessages() fails an oversized " +
    "message as it arrives and cancels the stream",
  async () => {
    const chunks = [
      encoder.encode('{"id":1}\n{"big":"'),
      ...Array.from({ length: 20 }, () => new Uint8Array(100).fill(0x61)),
    ];
    const { stream, state } = streamOf(chunks);
    const { items, error } = await drain(readStdioMessages(stream, { maxResponseBytes: 250 }));
    deepStrictEqual(items, [{ id: 1 }]);
    ok(error instanceof ResponseTooLargeError);
    strictEqual(error.phase, "message");
    strictEqual(error.limit, 250);
    strictEqual(error.observed, 308);
    strictEqual(state.pulled, 4);
    strictEqual(state.cancelled, true);
  },
);

Deno.test(
  "readStdioMessages() accepts a message " +
    "of exactly the cap, newline excluded",
  async () => {
    const message = '{"a":"' + "x".repeat(92) + '"}'; // 100 bytes
    const { items, failed } = await drain(
      readStdioMessages(streamOf([encoder.encode(message + "\n")]).stream, {
        maxResponseBytes: 100,
      }),
    );
    strictEqual(failed, false);
    strictEqual(items.length, 1);
    const over = await drain(
      readStdioMessages(streamOf([encoder.encode(message + " \n")]).stream, {
        maxResponseBytes: 100,
      }),
    );
    ok(over.error instanceof ResponseTooLargeError);
    strictEqual(over.error.observed, 101);
  },
);

Deno.test("readStdioMessages() rejects an unterminated last message, never drops it", async () => {
  const { items, error } = await drain(
    readStdioMessages(streamOf([encoder.encode('{"id":1}\n{"id":')]).stream),
  );
  deepStrictEqual(items, [{ id: 1 }]);
  ok(error instanceof MalformedJsonError);
  strictEqual(error.reason, "unterminated");
  strictEqual(error.length, 6);
});

Deno.test("readStdioMessages() ends on bad UTF-8, bad JSON and deep JSON", async () => {
  const bad = await drain(
    readStdioMessages(streamOf([new Uint8Array([0x22, 0xff, 0x22, 0x0a])]).stream),
  );
  ok(bad.error instanceof MalformedUtf8Error);
  const { stream, state } = streamOf([encoder.encode("not json\n{}\n")]);
  const notJson = await drain(readStdioMessages(stream));
  ok(notJson.error instanceof MalformedJsonError);
  strictEqual(notJson.error.reason, "syntax");
  strictEqual(state.cancelled, true);
  const deep = await drain(
    readStdioMessages(streamOf([encoder.encode("[".repeat(70) + "]".repeat(70) + "\n")]).stream),
  );
  ok(deep.error instanceof JsonDepthLimitError);
});

Deno.test(
  "readStdioMessages() bounds the time one " +
    "message takes to arrive, not the idle time",
  async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let cancelled: unknown;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const iterator = readStdioMessages(stream, { timeoutMs: 60 });
    // Idle for longer than the deadline between messages: fine.
    const first = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.enqueue(encoder.encode('{"id":1}\n{"id":'));
    deepStrictEqual(await first, { value: { id: 1 }, done: false });
    // The second message started and never finishes: the deadline fires.
    const error = await within(
      5_000,
      iterator.next().then(() => undefined, (error: unknown) => error),
    );
    ok(error instanceof DeadlineExceededError);
    strictEqual(error.timeoutMs, 60);
    strictEqual(cancelled, error);
  },
);

Deno.test("readStdioMessages() stops when the signal aborts", async () => {
  const abort = new AbortController();
  const stream = new ReadableStream<Uint8Array>({});
  const pending = drain(readStdioMessages(stream, { signal: abort.signal }));
  const reason = new Error("shutting down");
  abort.abort(reason);
  const { error } = await within(5_000, pending);
  strictEqual(error, reason);
});

Deno.test("readStdioMessages() validates its arguments at once", () => {
  throws(() => readStdioMessages("x" as unknown as ReadableStream<Uint8Array>), {
    name: "TypeError",
    message: "Cannot read the stdio messages as 'stream' must be a ReadableStream: current value " +
      'is "(1 character, not shown)"',
  });
  const locked = new ReadableStream<Uint8Array>();
  const reader = locked.getReader();
  throws(() => readStdioMessages(locked), {
    name: "TypeError",
    message:
      "Cannot read the stdio messages as 'stream.locked' must be false (a locked stream is " +
      "another reader's): current value is true",
  });
  reader.releaseLock();
  throws(() => readStdioMessages(locked, { maxResponseBytes: 0.5 }), RangeError);
  throws(() => readStdioMessages(locked, { onProgress: "log" as unknown as () => void }), {
    name: "TypeError",
    message: "Cannot read the stdio messages as 'options.onProgress' must be a function: current " +
      'value is "log"',
  });
});

Deno.test("readStdioMessages() refuses a chunk that is not bytes, without showing it", async () => {
  const stream = new ReadableStream<string>({
    start(controller) {
      controller.enqueue('{"jsonrpc":"2.0"}\n');
      controller.close();
    },
  }) as unknown as ReadableStream<Uint8Array>;
  const { items, error } = await drain(readStdioMessages(stream));
  deepStrictEqual(items, []);
  ok(error instanceof TypeError);
  strictEqual(
    error.message,
    "Cannot read the stdio messages as 'stream chunk' must be a Uint8Array: current value is " +
      '"(18 characters, not shown)"',
  );
});

const message = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value));

Deno.test("readStdioMessages() yields the same messages whatever the chunking", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(message, { maxLength: 8 }),
      fc.array(fc.nat({ max: 600 }), { maxLength: 16 }),
      async (messages, cuts) => {
        const bytes = encoder.encode(messages.map((text) => text + "\n").join(""));
        const { items, failed } = await drain(
          readStdioMessages(streamOf(splitAt(bytes, cuts)).stream),
        );
        strictEqual(failed, false);
        deepStrictEqual(items, messages.map((text) => JSON.parse(text)));
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("readStdioMessages() never holds more than the cap plus one chunk", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(message, { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat({ max: 600 }), { maxLength: 16 }),
      fc.integer({ min: 1, max: 120 }),
      async (messages, cuts, cap) => {
        const bytes = encoder.encode(messages.map((text) => text + "\n").join(""));
        const chunks = splitAt(bytes, cuts);
        const largest = Math.max(...chunks.map((chunk) => chunk.length));
        let held = 0;
        const { items, error, failed } = await drain(
          readStdioMessages(streamOf(chunks).stream, {
            maxResponseBytes: cap,
            onProgress: (progress: StdioProgress) => held = Math.max(held, progress.bufferedBytes),
          }),
        );
        const longest = Math.max(...messages.map((text) => encoder.encode(text).length));
        ok(held <= cap + largest, `held ${held} vs ${cap}+${largest}`);
        if (!failed) {
          ok(longest <= cap);
          strictEqual(items.length, messages.length);
        } else {
          ok(error instanceof ResponseTooLargeError);
          ok(longest > cap);
          ok(error.observed > cap && error.observed <= cap + largest);
        }
      },
    ),
    { numRuns: 300 },
  );
});
