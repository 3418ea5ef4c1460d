// The whole-body read of byte-stream bodies (fetch bodies are byte streams): a BYOB reader into a
// buffer of the reader's own, under the same bounds as the chunk reader.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { DeadlineExceededError, ResponseTooLargeError } from "../errors.ts";
import { readBody, readerSettings } from "./_read_body.ts";
import { byteStream, responseOf } from "./_test_byte_stream.ts";

function bytes(length: number, seed = 1): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);
}

Deno.test("property: byte-stream bodies read whole, in any chunking and length", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 70_000 }), { maxLength: 6 }),
      fc.boolean(),
      async (sizes, declared) => {
        const chunks = sizes.map((size, i) => bytes(size, i));
        const expected = new Uint8Array(sizes.reduce((a, b) => a + b, 0));
        let at = 0;
        for (const chunk of chunks) expected.set(chunk, (at += chunk.length) - chunk.length);
        const { stream } = byteStream(chunks);
        const got = await readBody(
          responseOf(stream, declared ? expected.length : undefined),
          readerSettings(undefined),
        );
        deepStrictEqual(got, expected);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("a byte-stream body longer than its Content-Length is read on, and capped", async () => {
  const body = bytes(50_000);
  const { stream } = byteStream([body.subarray(0, 30_000), body.subarray(30_000)]);
  deepStrictEqual(await readBody(responseOf(stream, 100), readerSettings(undefined)), body);
  const capped = byteStream([body]);
  await rejects(
    readBody(responseOf(capped.stream, 100), readerSettings({ maxResponseBytes: 40_000 })),
    (e) => e instanceof ResponseTooLargeError && e.limit === 40_000,
  );
  ok(capped.cancelled());
});

Deno.test("a byte-stream body of exactly the cap is accepted, one more byte is not", async () => {
  const cap = 65_537;
  deepStrictEqual(
    (await readBody(
      responseOf(byteStream([bytes(cap)]).stream),
      readerSettings({ maxResponseBytes: cap }),
    )).length,
    cap,
  );
  await rejects(
    readBody(
      responseOf(byteStream([bytes(cap + 1)]).stream),
      readerSettings({ maxResponseBytes: cap }),
    ),
    ResponseTooLargeError,
  );
});

Deno.test("a stalled byte-stream body ends at the deadline, its stream cancelled", async () => {
  const stalled = byteStream([bytes(10), bytes(10)], 1);
  const started = performance.now();
  await rejects(
    readBody(responseOf(stalled.stream, 20), readerSettings({ timeoutMs: 100 })),
    DeadlineExceededError,
  );
  ok(performance.now() - started < 2_000);
  ok(stalled.cancelled());
});

Deno.test("an empty byte-stream body is an empty array", async () => {
  const { stream } = byteStream([]);
  strictEqual((await readBody(responseOf(stream, 0), readerSettings(undefined))).length, 0);
});
