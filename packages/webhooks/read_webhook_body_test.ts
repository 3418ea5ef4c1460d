import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { readWebhookBody } from "./read_webhook_body.ts";

const post = (body: BodyInit, headers: HeadersInit = {}) =>
  new Request("https://buyer.example/webhooks", { method: "POST", body, headers });

Deno.test("readWebhookBody() keeps the exact bytes beside the strict value", async () => {
  const bytes = new TextEncoder().encode('{ "a" : "caf\\u00e9" }\n');
  const read = await readWebhookBody(post(bytes));
  ok(read.valid);
  deepStrictEqual(read.rawBody, bytes);
  deepStrictEqual(read.value, { a: "café" });
});

Deno.test("readWebhookBody() stops a 10 MB stream at 1 MiB without reading the rest", async () => {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 65_536;
      controller.enqueue(new Uint8Array(65_536).fill(0x20));
      if (pulled >= 10_000_000) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  const read = await readWebhookBody(post(stream));
  strictEqual(!read.valid && read.code, "body_too_large");
  strictEqual(!read.valid && read.status, 413);
  ok(pulled <= 1_048_576 + 2 * 65_536, `read ${pulled} bytes`);
  ok(cancelled, "the rest of the stream is cancelled");
});

Deno.test("readWebhookBody() refuses by Content-Length before reading", async () => {
  const read = await readWebhookBody(post("{}", { "content-length": "2000000" }));
  strictEqual(!read.valid && read.code, "body_too_large");
});

Deno.test("readWebhookBody() ends a drip-fed body at its deadline", async () => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise((resolve) => {
        timer = setTimeout(() => {
          controller.enqueue(new Uint8Array([0x20]));
          resolve();
        }, 20);
      });
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  const started = Date.now();
  const read = await readWebhookBody(post(stream), { timeoutMs: 200 });
  strictEqual(!read.valid && read.code, "body_timeout");
  strictEqual(!read.valid && read.status, 408);
  ok(Date.now() - started < 2_000);
  await new Promise((resolve) => setTimeout(resolve, 30));
});

Deno.test("readWebhookBody() gives each malformed body its code", async () => {
  const cases: [Uint8Array | string, string][] = [
    ['{"a":1,"a":2}', "duplicate_key_input"],
    ['{"a":[{"b":1,"b":1}]}', "duplicate_key_input"],
    ["{", "body_malformed"],
    ["", "body_malformed"],
    ["\uFEFF{}", "body_not_utf8"],
    [new Uint8Array([0x7b, 0xff, 0x7d]), "body_not_utf8"],
    ["[".repeat(100) + "]".repeat(100), "body_json_limits"],
  ];
  for (const [body, code] of cases) {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    const read = await readWebhookBody(bytes);
    strictEqual(!read.valid && read.code, code, String(body).slice(0, 20));
  }
});

Deno.test("readWebhookBody() refuses bad input and options with TypeError/RangeError", async () => {
  await readWebhookBody("{}" as never).then(() => ok(false), (e) => ok(e instanceof TypeError));
  await readWebhookBody(new Uint8Array(), { maxBodyBytes: 0 }).then(
    () => ok(false),
    (e) => ok(e instanceof RangeError),
  );
});

Deno.test("readWebhookBody() never rejects for any byte sequence", async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
      const read = await readWebhookBody(bytes);
      return read.valid || typeof read.code === "string";
    }),
    { numRuns: 300 },
  );
});
