import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { readWebhookBody } from "./read_webhook_body.ts";

const JSON_TYPE = { "content-type": "application/json" };

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("https://buyer.example/webhooks", {
    method: "POST",
    body,
    headers: { ...JSON_TYPE, ...headers },
  });

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
    ['{"a":1,"a":2}', "webhook_body_malformed"],
    ['{"a":[{"b":1,"b":1}]}', "webhook_body_malformed"],
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

Deno.test("readWebhookBody() refuses a non-JSON Content-Type before reading", async () => {
  for (
    const type of [
      "application/json",
      "Application/JSON; charset=UTF-8",
      'application/json;charset="utf-8"',
      "application/json ; foo=bar",
    ]
  ) {
    const read = await readWebhookBody(post("{}", { "content-type": type }));
    strictEqual(read.valid, true, type);
  }
  let pulled = false;
  for (
    const type of [
      "text/plain",
      "application/json-seq",
      "application/jsonx",
      "application/x-www-form-urlencoded",
      "application/json; charset=latin1",
      "application/json; charset",
      "text/json",
      "",
    ]
  ) {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled = true;
        controller.enqueue(new TextEncoder().encode("{}"));
        controller.close();
      },
    }, { highWaterMark: 0 });
    const read = await readWebhookBody(post(stream, { "content-type": type }));
    deepStrictEqual(
      read.valid ? "valid" : [read.code, read.status],
      ["body_content_type", 415],
      JSON.stringify(type),
    );
  }
  strictEqual(pulled, false, "no byte is read from a refused body");
  const missing = new Request("https://buyer.example/webhooks", {
    method: "POST",
    body: new Uint8Array([0x7b, 0x7d]), // a byte body gets no Content-Type
  });
  strictEqual((await readWebhookBody(missing)).valid, false);
  const opted = new Request("https://buyer.example/webhooks", { method: "POST", body: "{}" });
  strictEqual((await readWebhookBody(opted, { requireJsonContentType: false })).valid, true);
  await readWebhookBody(new Uint8Array(), { requireJsonContentType: 1 as never }).then(
    () => ok(false),
    (e) => ok(e instanceof TypeError),
  );
});

Deno.test("readWebhookBody() reads a real local POST and refuses a 10 MB one", async () => {
  const controller = new AbortController();
  const results: unknown[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (request) => {
      const read = await readWebhookBody(request);
      results.push(read.valid ? { valid: true, value: read.value } : { code: read.code });
      return new Response(null, { status: read.valid ? 204 : read.status });
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}/webhooks`;
  try {
    const small = await fetch(url, { method: "POST", headers: JSON_TYPE, body: '{"a":1}' });
    await small.body?.cancel();
    strictEqual(small.status, 204);
    let sent = 0;
    const big = new ReadableStream<Uint8Array>({
      pull(stream) {
        if (sent >= 10_000_000) return stream.close();
        sent += 65_536;
        stream.enqueue(new Uint8Array(65_536).fill(0x20));
      },
    });
    const refused = await fetch(url, { method: "POST", headers: JSON_TYPE, body: big }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      () => "connection closed",
    );
    ok(refused === 413 || refused === "connection closed", String(refused));
    deepStrictEqual(results, [{ valid: true, value: { a: 1 } }, { code: "body_too_large" }]);
    ok(sent < 10_000_000, `the client sent ${sent} bytes before the refusal`);
  } finally {
    controller.abort();
    await server.finished;
  }
});
