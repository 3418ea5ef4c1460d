import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import {
  encoder,
  gzip,
  gzipZeros,
  progressTracker,
  rejection,
  splitAt,
  streamOf,
  within,
} from "../_test_utils.ts";
import {
  ContentEncodingError,
  DeadlineExceededError,
  JsonNodeLimitError,
  MalformedJsonError,
  MalformedUtf8Error,
  ResponseTooLargeError,
} from "../errors.ts";
import { readJsonResponse, readTextResponse } from "./read_response.ts";

Deno.test("readTextResponse() rejects an over-limit Content-Length before reading", async () => {
  const { stream, state } = streamOf([encoder.encode("x".repeat(100))]);
  const response = new Response(stream, { headers: { "content-length": "100" } });
  const progress = progressTracker();
  const error = await rejection(
    readTextResponse(response, { maxResponseBytes: 99, onProgress: progress.onProgress }),
  );
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "content-length");
  strictEqual(error.limit, 99);
  strictEqual(error.observed, 100);
  strictEqual(state.pulled, 0);
  strictEqual(state.cancelled, true);
  strictEqual(state.reason, error);
  strictEqual(progress.stats.calls, 0);
});

Deno.test("readTextResponse() ignores a malformed Content-Length and counts bytes", async () => {
  for (const value of ["abc", "-5", "1, x"]) {
    const response = new Response(new Response("y".repeat(50)).body, {
      headers: { "content-length": value },
    });
    const error = await rejection(readTextResponse(response, { maxResponseBytes: 10 }));
    ok(error instanceof ResponseTooLargeError);
    strictEqual(error.phase, "raw");
  }
  // A list of equal values is valid (RFC 9110) and is checked.
  const listed = new Response(streamOf([]).stream, { headers: { "content-length": "20, 20" } });
  const error = await rejection(readTextResponse(listed, { maxResponseBytes: 10 }));
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "content-length");
  strictEqual(error.observed, 20);
});

Deno.test("readTextResponse() stops at the chunk over the cap and cancels the body", async () => {
  const chunks = Array.from({ length: 10 }, () => encoder.encode("a".repeat(30)));
  const { stream, state } = streamOf(chunks);
  const progress = progressTracker();
  const error = await rejection(
    readTextResponse(new Response(stream), {
      maxResponseBytes: 100,
      onProgress: progress.onProgress,
    }),
  );
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "raw");
  strictEqual(error.limit, 100);
  strictEqual(error.observed, 120);
  strictEqual(state.pulled, 4);
  strictEqual(state.cancelled, true);
  strictEqual(state.reason, error);
  deepStrictEqual(progress.stats.last, { rawBytes: 120, decodedBytes: 120, chunkBytes: 30 });
});

Deno.test("readTextResponse() accepts a body of exactly the cap", async () => {
  strictEqual(
    await readTextResponse(new Response("z".repeat(64)), { maxResponseBytes: 64 }),
    "z".repeat(64),
  );
  strictEqual(await readTextResponse(new Response("")), "");
  strictEqual(await readTextResponse(new Response(null, { status: 204 })), "");
});

Deno.test("readTextResponse() applies the smaller maxDecodedBytes to an uncoded body", async () => {
  const error = await rejection(
    readTextResponse(new Response("q".repeat(50)), { maxResponseBytes: 100, maxDecodedBytes: 40 }),
  );
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "decoded");
  strictEqual(error.limit, 40);
});

Deno.test("readTextResponse() is fatal on malformed UTF-8", async () => {
  const error = await rejection(readTextResponse(new Response(new Uint8Array([0x61, 0xc0, 0x80]))));
  ok(error instanceof MalformedUtf8Error);
  strictEqual(await readTextResponse(new Response("caf\u00e9 \uFFFD")), "caf\u00e9 \uFFFD");
});

Deno.test("readTextResponse() refuses a used body and bad options", async () => {
  const used = new Response("x");
  await used.text();
  const error = await rejection(readTextResponse(used));
  ok(error instanceof TypeError);
  strictEqual(
    (error as Error).message,
    "Cannot read the response as 'response.bodyUsed' must be false (a body can be read once): " +
      "current value is true",
  );
  const notResponse = await rejection(readTextResponse("x" as unknown as Response));
  ok(notResponse instanceof TypeError);
  strictEqual(
    notResponse.message,
    "Cannot read the response as 'response' must be a Response: current value is " +
      '"(1 character, not shown)"',
  );
  const bad = await rejection(
    readTextResponse(new Response("x"), { contentDecoding: "auto" as unknown as "manual" }),
  );
  strictEqual(
    (bad as Error).message,
    'Cannot read the response as \'options.contentDecoding\' must be "runtime" or "manual": ' +
      'current value is "auto"',
  );
  const range = await rejection(readTextResponse(new Response("x"), { maxResponseBytes: -2 }));
  strictEqual(
    (range as Error).message,
    "Cannot resolve limits as 'options.maxResponseBytes' must be a non-negative safe integer: " +
      "current value is -2",
  );
  const onProgress = await rejection(
    readTextResponse(new Response("x"), { onProgress: 1 as unknown as () => void }),
  );
  strictEqual(
    (onProgress as Error).message,
    "Cannot read the response as 'options.onProgress' must be a function: current value is 1",
  );
});

Deno.test(
  "readTextResponse() refuses a body chunk " +
    "that is not bytes, without showing it",
  async () => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue("seller text");
        controller.close();
      },
    });
    const error = await rejection(readTextResponse(new Response(body)));
    ok(error instanceof TypeError);
    strictEqual(
      error.message,
      "Cannot read the response as 'response.body chunk' must be a Uint8Array: current value is " +
        '"(11 characters, not shown)"',
    );
  },
);

Deno.test("readTextResponse() fails a stalled body at the deadline and cancels it", async () => {
  let cancelled: unknown;
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("partial"));
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  const started = performance.now();
  const error = await within(
    5_000,
    rejection(readTextResponse(new Response(stalled), { timeoutMs: 50 })),
  );
  ok(error instanceof DeadlineExceededError);
  strictEqual(error.timeoutMs, 50);
  ok(error.elapsedMs >= 49, `elapsed ${error.elapsedMs}`);
  ok(performance.now() - started < 2_000);
  strictEqual(cancelled, error);
});

Deno.test(
  "readTextResponse() maps a timeout signal to " +
    "DeadlineExceededError and passes other aborts",
  async () => {
    const never = () => new Response(new ReadableStream<Uint8Array>({}));
    const timedOut = await within(
      5_000,
      rejection(readTextResponse(never(), { signal: AbortSignal.timeout(20) })),
    );
    ok(timedOut instanceof DeadlineExceededError);
    strictEqual(timedOut.timeoutMs, undefined);
    ok(timedOut.cause instanceof DOMException);

    const controller = new AbortController();
    const reason = new Error("user cancelled");
    const pending = readTextResponse(never(), { signal: controller.signal });
    controller.abort(reason);
    strictEqual(await within(5_000, rejection(pending)), reason);

    const already = await rejection(
      readTextResponse(never(), { signal: AbortSignal.abort(reason) }),
    );
    strictEqual(already, reason);
  },
);

Deno.test(
  "readTextResponse() decodes gzip itself in " +
    "manual mode and bounds raw and decoded bytes",
  async () => {
    const text = JSON.stringify({ products: Array.from({ length: 200 }, (_, i) => ({ id: i })) });
    const compressed = await gzip(encoder.encode(text));
    const headers = { "content-encoding": "gzip" };
    strictEqual(
      await readTextResponse(new Response(compressed, { headers }), { contentDecoding: "manual" }),
      text,
    );

    const decodedOver = await rejection(
      readTextResponse(new Response(compressed, { headers }), {
        contentDecoding: "manual",
        maxDecodedBytes: 1_000,
      }),
    );
    ok(decodedOver instanceof ResponseTooLargeError);
    strictEqual(decodedOver.phase, "decoded");

    const rawOver = await rejection(
      readTextResponse(new Response(compressed, { headers }), {
        contentDecoding: "manual",
        maxResponseBytes: 10,
        maxDecodedBytes: 1_000_000,
      }),
    );
    ok(rawOver instanceof ResponseTooLargeError);
    strictEqual(rawOver.phase, "raw");
    strictEqual(rawOver.observed, compressed.length);
  },
);

Deno.test("readTextResponse() stops a gzip bomb at the decoded cap in manual mode", async () => {
  const bomb = await gzipZeros(64 * 1_048_576);
  ok(bomb.length < 100_000, `bomb is ${bomb.length} bytes`);
  const progress = progressTracker();
  const cuts = Array.from({ length: Math.ceil(bomb.length / 4_096) }, (_, i) => i * 4_096);
  const { stream, state } = streamOf(splitAt(bomb, cuts));
  const error = await rejection(
    readTextResponse(new Response(stream, { headers: { "content-encoding": "gzip" } }), {
      contentDecoding: "manual",
      onProgress: progress.onProgress,
    }),
  );
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "decoded");
  strictEqual(error.limit, 4_194_304);
  ok(error.observed > 4_194_304 && error.observed <= 4_194_304 + progress.stats.maxChunk);
  // One raw slice of 1 KiB inflates to at most about 1 MiB.
  ok(progress.stats.maxChunk <= 1_100_000, `largest decoded chunk ${progress.stats.maxChunk}`);
  ok(progress.stats.last!.rawBytes! < bomb.length / 2, "stopped well before the end of the bomb");
  strictEqual(state.cancelled, true);
});

Deno.test("readTextResponse() reports unsupported and corrupt codings in manual mode", async () => {
  const { stream, state } = streamOf([encoder.encode("data")]);
  const unsupported = await rejection(
    readTextResponse(new Response(stream, { headers: { "content-encoding": "zstd" } }), {
      contentDecoding: "manual",
    }),
  );
  ok(unsupported instanceof ContentEncodingError);
  strictEqual(unsupported.reason, "unsupported");
  strictEqual(unsupported.encoding, "zstd");
  strictEqual(state.cancelled, true);

  const corrupt = await rejection(
    readTextResponse(new Response("not gzip at all", { headers: { "content-encoding": "gzip" } }), {
      contentDecoding: "manual",
    }),
  );
  ok(corrupt instanceof ContentEncodingError);
  strictEqual(corrupt.reason, "corrupt");

  // Two stacked codings are refused rather than inflated twice.
  const stacked = await rejection(
    readTextResponse(new Response("x", { headers: { "content-encoding": "gzip, gzip" } }), {
      contentDecoding: "manual",
    }),
  );
  ok(stacked instanceof ContentEncodingError);
  strictEqual(stacked.encoding, "gzip, gzip");
});

Deno.test("readTextResponse() counts decoded bytes when the runtime decoded the body", async () => {
  // A Response built by hand is not decoded, but the header says it was: bytes count as decoded.
  const progress = progressTracker();
  const error = await rejection(
    readTextResponse(new Response("d".repeat(100), { headers: { "content-encoding": "gzip" } }), {
      maxDecodedBytes: 50,
      onProgress: progress.onProgress,
    }),
  );
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "decoded");
  strictEqual(progress.stats.last!.rawBytes, undefined);
});

Deno.test("readJsonResponse() parses JSON and bounds depth and nodes", async () => {
  deepStrictEqual(await readJsonResponse(new Response('{"a":[1,2]}')), { a: [1, 2] });
  const nodes = await rejection(readJsonResponse(new Response("[1,2,3,4]"), { maxJsonNodes: 4 }));
  ok(nodes instanceof JsonNodeLimitError);
  strictEqual(nodes.observed, 5);
  const empty = await rejection(readJsonResponse(new Response("")));
  ok(empty instanceof MalformedJsonError);
  strictEqual(empty.reason, "syntax");
  deepStrictEqual(await readJsonResponse(new Response("\uFEFF[true]")), [true]);
});

Deno.test("readTextResponse() returns the same text however the body is chunked", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: "grapheme", maxLength: 200 }),
      fc.array(fc.nat({ max: 800 }), { maxLength: 20 }),
      async (text, cuts) => {
        const bytes = encoder.encode(text);
        const { stream } = streamOf(splitAt(bytes, cuts));
        const expected = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
        strictEqual(await readTextResponse(new Response(stream)), expected);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("readTextResponse() never buffers more than the cap plus one chunk", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 30 }),
      fc.integer({ min: 0, max: 2_000 }),
      async (sizes, cap) => {
        const chunks = sizes.map((size) => new Uint8Array(size).fill(0x41));
        const total = sizes.reduce((a, b) => a + b, 0);
        const { stream } = streamOf(chunks);
        const progress = progressTracker();
        try {
          const text = await readTextResponse(new Response(stream), {
            maxResponseBytes: cap,
            onProgress: progress.onProgress,
          });
          ok(total <= cap);
          strictEqual(text.length, total);
        } catch (error) {
          ok(error instanceof ResponseTooLargeError);
          ok(total > cap);
          ok(error.observed > cap && error.observed <= cap + progress.stats.maxChunk);
        }
      },
    ),
    { numRuns: 200 },
  );
});
