import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  BOUND_MS,
  encoder,
  lazyBody,
  netTest,
  progressTracker,
  rejection,
  streamOf,
  within,
  withServer,
} from "../_test_utils.ts";
import {
  API_KEY,
  LIMITS,
  recording,
  REDIRECT_TARGETS,
  STATUSES,
  withTwoServers,
} from "../_test_sellers.ts";
import { DeadlineExceededError, ResponseTooLargeError } from "../errors.ts";
import { boundedFetch, type FetchLike } from "./bounded_fetch.ts";

const GiB = 1_073_741_824;

Deno.test("boundedFetch() returns responses whose bodies stop at the cap", async () => {
  const { stream, state } = streamOf(Array.from({ length: 10 }, () => new Uint8Array(100)));
  const progress = progressTracker();
  const fetch = boundedFetch(
    { maxResponseBytes: 250, onProgress: progress.onProgress },
    () =>
      Promise.resolve(
        new Response(stream, { status: 201, statusText: "Made", headers: { "x-a": "1" } }),
      ),
  );
  const response = await fetch("https://agent.example/");
  strictEqual(response.status, 201);
  strictEqual(response.statusText, "Made");
  strictEqual(response.headers.get("x-a"), "1");
  const error = await rejection(response.arrayBuffer());
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "raw");
  strictEqual(error.observed, 300);
  strictEqual(state.cancelled, true);
  strictEqual(state.pulled, 3);
});

Deno.test("boundedFetch() passes small bodies through unchanged", async () => {
  const fetch = boundedFetch({}, () => Promise.resolve(new Response('{"ok":true}')));
  deepStrictEqual(await (await fetch("https://agent.example/")).json(), { ok: true });
  const empty = await boundedFetch({}, () => Promise.resolve(new Response(null, { status: 204 })))(
    "x",
  );
  strictEqual(empty.status, 204);
  strictEqual(empty.body, null);
});

Deno.test("boundedFetch() rejects the call itself for an over-limit Content-Length", async () => {
  const { stream, state } = streamOf([new Uint8Array(10)]);
  const fetch = boundedFetch(
    { maxResponseBytes: 5 },
    () => Promise.resolve(new Response(stream, { headers: { "content-length": "10" } })),
  );
  const error = await rejection(fetch("https://agent.example/"));
  ok(error instanceof ResponseTooLargeError);
  strictEqual(error.phase, "content-length");
  strictEqual(state.cancelled, true);
  strictEqual(state.pulled, 0);
});

Deno.test("boundedFetch() bounds the wait for headers with the deadline", async () => {
  const hang: FetchLike = (_input, init) =>
    new Promise((_, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal!.reason), { once: true });
    });
  const error = await within(
    5_000,
    rejection(boundedFetch({ timeoutMs: 40 }, hang)("https://agent.example/")),
  );
  ok(error instanceof DeadlineExceededError);
  strictEqual(error.timeoutMs, 40);
});

Deno.test("boundedFetch() combines the request's own signal with the deadline", async () => {
  let seen: AbortSignal | undefined;
  const hang: FetchLike = (_input, init) =>
    new Promise((_, reject) => {
      seen = init?.signal ?? undefined;
      init?.signal?.addEventListener("abort", () => reject(init.signal!.reason), { once: true });
    });
  const controller = new AbortController();
  const pending = boundedFetch({}, hang)("https://agent.example/", { signal: controller.signal });
  const reason = new Error("caller gave up");
  controller.abort(reason);
  strictEqual(await within(5_000, rejection(pending)), reason);
  ok(seen !== undefined && seen !== controller.signal);
});

netTest("boundedFetch() keeps url, redirected and type of the original response", async () => {
  await within(
    10_000,
    withServer(() => new Response("hello"), async (base) => {
      const response = await boundedFetch()(`${base}/path?q=1`);
      strictEqual(response.url, `${base}/path?q=1`);
      strictEqual(response.redirected, false);
      strictEqual(response.type, "basic");
      strictEqual(await response.text(), "hello");
    }),
  );
});

Deno.test("boundedFetch() validates its arguments at once", () => {
  throws(() => boundedFetch({ maxResponseBytes: -1 }), {
    name: "RangeError",
    message: "Cannot resolve limits as 'limits.maxResponseBytes' must be a non-negative safe " +
      "integer: current value is -1",
  });
  throws(() => boundedFetch({}, "fetch" as unknown as FetchLike), {
    name: "TypeError",
    message: "Cannot create a bounded fetch as 'fetchImpl' must be a function: current value is " +
      '"fetch"',
  });
  throws(() => boundedFetch({ onProgress: true as unknown as () => void }), {
    name: "TypeError",
    message: "Cannot create a bounded fetch as 'limits.onProgress' must be a function: current " +
      "value is true",
  });
});

Deno.test("boundedFetch() refuses a fetchImpl that resolves to a non-Response", async () => {
  // What it resolved to may be seller text: its size is shown, never the text.
  const fetch = boundedFetch({}, (() => Promise.resolve("secret body")) as unknown as FetchLike);
  const error = await rejection(fetch("https://agent.example/mcp"));
  ok(error instanceof TypeError);
  strictEqual(
    error.message,
    "Cannot fetch the response as 'fetchImpl(input, init)' must be a Response or a promise of " +
      'one: current value is "(11 characters, not shown)"',
  );
});

netTest("boundedFetch() stops a 1 GiB body from a real server at the cap", async () => {
  const server = lazyBody(GiB, 65_536);
  await within(
    30_000,
    withServer(() => new Response(server.body), async (base) => {
      const progress = progressTracker();
      const response = await boundedFetch({ onProgress: progress.onProgress })(base);
      const error = await rejection(response.arrayBuffer());
      ok(error instanceof ResponseTooLargeError);
      strictEqual(error.phase, "raw");
      ok(error.observed > 4_194_304 && error.observed <= 4_194_304 + progress.stats.maxChunk);
      await server.cancelled;
    }),
  );
});

netTest("boundedFetch() bounds each event of a text/event-stream body", async () => {
  const server = lazyBody(GiB, 65_536, (chunk, offset) => {
    chunk.fill(0x78);
    if (offset === 0) chunk.set(encoder.encode("data: "));
  });
  await within(
    30_000,
    withServer(
      () =>
        new Response(server.body, {
          headers: { "content-type": "text/event-stream; charset=utf-8" },
        }),
      async (base) => {
        // The event and the body pass the cap on one chunk: the event is the more precise cause.
        const response = await boundedFetch({ maxResponseBytes: 100_000 })(base);
        const error = await rejection(response.text());
        ok(error instanceof ResponseTooLargeError);
        strictEqual(error.phase, "event");
        strictEqual(error.limit, 100_000);
        await server.cancelled;
      },
    ),
  );
});

netTest("boundedFetch() fails a dripping body at the deadline counted from the call", async () => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done!: () => void;
  const cancelled = new Promise<void>((resolve) => done = resolve);
  const drip = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          controller.enqueue(encoder.encode("."));
          resolve();
        }, 20);
      });
    },
    cancel() {
      clearTimeout(timer);
      done();
    },
  }, { highWaterMark: 0 });
  await within(
    30_000,
    withServer(() => new Response(drip), async (base) => {
      const response = await boundedFetch({ timeoutMs: 250 })(base);
      const error = await rejection(response.text());
      ok(error instanceof DeadlineExceededError);
      strictEqual(error.timeoutMs, 250);
      await cancelled;
    }),
  );
});

netTest(
  'boundedFetch with redirect: "manual" hands back every 3xx untouched and follows none',
  async () => {
    const witness = recording(() => new Response("witness reached"));
    let status = 0;
    let location: string | undefined;
    const seller = recording(() =>
      new Response("Moved", {
        status,
        headers: { "x-seller": "kept", ...(location === undefined ? {} : { location }) },
      })
    );
    await within(
      BOUND_MS,
      withTwoServers(seller.serve, witness.serve, async (sellerBase, witnessBase) => {
        const fetch = boundedFetch(LIMITS);
        const targets = REDIRECT_TARGETS.flatMap((target) =>
          target.locations(sellerBase, witnessBase)
        );
        for (status of STATUSES) {
          for (location of targets) {
            const label = `${status} to ${location ?? "(no Location)"}`;
            seller.seen.length = 0;
            const response = await fetch(`${sellerBase}/mcp`, {
              method: "POST",
              redirect: "manual",
              headers: { "x-api-key": API_KEY },
              body: "{}",
            });
            strictEqual(response.status, status, label);
            strictEqual(response.headers.get("location"), location ?? null, label);
            strictEqual(response.redirected, false, label);
            strictEqual(response.headers.get("x-seller"), "kept", label);
            strictEqual(await response.text(), "Moved", label);
            strictEqual(seller.seen.length, 1, label);
            deepStrictEqual(witness.seen, [], label);
          }
        }
      }),
    );
  },
);

netTest(
  "boundedFetch ends at its deadline even when the fetch it wraps ignores the signal",
  async () => {
    const slow = () =>
      new Promise<Response>((resolve) =>
        setTimeout(() => resolve(new Response("late", { status: 200 })), 2_000)
      );
    const started = performance.now();
    const error = await rejection(
      boundedFetch({ timeoutMs: 300 }, slow)("https://seller.example/"),
    );
    ok(error instanceof DeadlineExceededError);
    ok(performance.now() - started < 1_000, `took ${(performance.now() - started).toFixed(0)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2_050)); // let the late answer be cancelled
  },
);
