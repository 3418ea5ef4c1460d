// Tests of JWKS discovery: the URL rules (nothing requested when refused), hostile servers on
// 127.0.0.1 (oversized, lying, stalling, silent, redirecting, malformed), the caching resolver
// (kid-miss refetch, cooldown, TTL, coalescing, negative cache), the static resolver, the default
// jwks_uri, and property tests over arbitrary bodies and URLs. Every server is shut down, every
// body read or cancelled, every timer cleared: the sanitizers stay on.
import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { isReservedAddress } from "@adcp-wire/security";
import { resolveAgentJwksUri } from "./agent_keys.ts";
import { JwksError } from "./errors.ts";
import type { AdcpJwk } from "./keys.ts";
import {
  DEFAULT_JWKS_CACHE_TTL_MS,
  DEFAULT_JWKS_NEGATIVE_CACHE_MS,
  DEFAULT_JWKS_TIMEOUT_MS,
  DEFAULT_MAX_JWKS_BYTES,
  defaultJwksUri,
  fetchJwks,
  type FetchJwksOptions,
  JWKS_REFETCH_COOLDOWN_MS,
  JwksResolver,
  MAX_JWKS_CACHE_TTL_MS,
  MAX_JWKS_KEYS,
  MAX_JWKS_NEGATIVE_CACHE_MS,
  MIN_JWKS_CACHE_TTL_MS,
  StaticKeyResolver,
} from "./jwks.ts";

const encoder = new TextEncoder();
/** Switches for a local server: tests only. */
const LOCAL = { allowHttp: true, allowReservedAddresses: true } as const;
/** Upper bound of any single test's network wait. */
const BOUND_MS = 15_000;
/** What a deadline may overrun by, on a loaded CI machine. */
const SLACK_MS = 1_000;

// ---------------------------------------------------------------------------------------------
// Helpers

interface LocalServer {
  readonly base: string;
  /** Paths requested, in order. */
  readonly requests: string[];
  /** Request headers, in order. */
  readonly headers: Headers[];
  readonly methods: string[];
}

/** Runs `fn` against a server on 127.0.0.1 (random port); always shuts it down. */
async function withServer(
  handler: (request: Request, server: LocalServer) => Response | Promise<Response>,
  fn: (server: LocalServer) => Promise<void>,
): Promise<void> {
  const state = { base: "", requests: [] as string[], headers: [] as Headers[], methods: [] };
  const local: LocalServer = state as LocalServer;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    local.requests.push(new URL(request.url).pathname);
    local.headers.push(request.headers);
    local.methods.push(request.method);
    return handler(request, local);
  });
  state.base = `http://127.0.0.1:${server.addr.port}`;
  try {
    await within(BOUND_MS, fn(local));
  } finally {
    await server.shutdown();
  }
}

/** Resolves as `promise` does, or rejects after `ms`; the timer is always cleared. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
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
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Asserts a JwksError of `reason` whose message matches `detail`, and returns it. */
function assertJwksError(
  error: unknown,
  reason: JwksError["reason"],
  detail?: RegExp,
): JwksError {
  ok(error instanceof JwksError, `expected a JwksError, got ${error}`);
  strictEqual(error.reason, reason, error.message);
  strictEqual(error.code, reason === "unavailable" ? "jwks_unavailable" : "jwks_untrusted");
  strictEqual(error.name, "JwksError");
  ok(error.message.startsWith("Cannot use the JWKS: "), error.message);
  if (detail !== undefined) ok(detail.test(error.message), error.message);
  return error;
}

/** A `fetch` stub that counts calls and answers with `respond()`. */
function stubFetch(respond: (url: string, init?: RequestInit) => Response | Promise<Response>): {
  fetch: NonNullable<FetchJwksOptions["fetch"]>;
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    fetch: (input, init) => {
      calls.push(String(input));
      return Promise.resolve(respond(String(input), init));
    },
  };
}

/** A stub answering with `body` (a string, bytes or a JSON value) and status 200. */
function answering(body: unknown, init?: ResponseInit): ReturnType<typeof stubFetch> {
  return stubFetch(() =>
    typeof body === "string" || body instanceof Uint8Array || body instanceof ReadableStream
      ? new Response(body as BodyInit, init)
      : Response.json(body, init)
  );
}

const URL_OK = "https://keys.example/.well-known/jwks.json";

/** A JWK with `kid`. */
function jwk(kid: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kid,
    kty: "OKP",
    crv: "Ed25519",
    x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
    ...extra,
  };
}

/** A JSON JWKS of exactly `size` bytes (padded with spaces before the closing brace). */
function jwksOfSize(size: number): Uint8Array<ArrayBuffer> {
  const text = JSON.stringify({ keys: [jwk("padded")] });
  ok(size >= text.length);
  return encoder.encode(`${text.slice(0, -1)}${" ".repeat(size - text.length)}}`);
}

/** A server body: `prefix`, then nothing until the client goes away. */
function stallingBody(
  prefix: string,
): { body: ReadableStream<Uint8Array>; cancelled: Promise<void> } {
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => onCancel = resolve);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(prefix));
    },
    pull() {
      return cancelled; // nothing more, ever
    },
    cancel() {
      onCancel();
    },
  }, { highWaterMark: 0 });
  return { body, cancelled };
}

/** A server body of `total` bytes generated lazily; `sent` counts what was handed over. */
function lazyBody(total: number, chunkSize: number): {
  body: ReadableStream<Uint8Array>;
  stats: { sent: number };
  done: Promise<void>;
} {
  const stats = { sent: 0 };
  let onDone!: () => void;
  const done = new Promise<void>((resolve) => onDone = resolve);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stats.sent >= total) {
        controller.close();
        onDone();
        return;
      }
      const size = Math.min(chunkSize, total - stats.sent);
      stats.sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x20)); // spaces: valid JSON whitespace
    },
    cancel() {
      onDone();
    },
  }, { highWaterMark: 0 });
  return { body, stats, done };
}

/** A manual clock for the resolver. */
function testClock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

// ---------------------------------------------------------------------------------------------
// Constants

Deno.test("the JWKS constants hold the spec's values", () => {
  strictEqual(DEFAULT_MAX_JWKS_BYTES, 65_536);
  strictEqual(DEFAULT_JWKS_TIMEOUT_MS, 10_000);
  strictEqual(DEFAULT_JWKS_CACHE_TTL_MS, 300_000);
  strictEqual(MIN_JWKS_CACHE_TTL_MS, 60_000);
  strictEqual(MAX_JWKS_CACHE_TTL_MS, 1_800_000);
  strictEqual(JWKS_REFETCH_COOLDOWN_MS, 30_000);
  strictEqual(DEFAULT_JWKS_NEGATIVE_CACHE_MS, 30_000);
  strictEqual(MAX_JWKS_NEGATIVE_CACHE_MS, 60_000);
  strictEqual(MAX_JWKS_KEYS, 1_000);
});

// ---------------------------------------------------------------------------------------------
// fetchJwks(): URL rules, nothing requested

Deno.test(
  "fetchJwks() refuses http and 127.0.0.1 as untrusted without the test switches, unrequested",
  async () => {
    await withServer(() => Response.json({ keys: [jwk("k1")] }), async (server) => {
      const url = `${server.base}/jwks.json`;
      const spy = stubFetch(() => Response.json({ keys: [] }));
      assertJwksError(await rejection(fetchJwks(url)), "untrusted", /not an https URL/);
      assertJwksError(await rejection(fetchJwks(url, { fetch: spy.fetch })), "untrusted");
      assertJwksError(
        await rejection(fetchJwks(url, { allowHttp: true, fetch: spy.fetch })),
        "untrusted",
        /reserved address/,
      );
      assertJwksError(
        await rejection(fetchJwks(url, { allowReservedAddresses: true, fetch: spy.fetch })),
        "untrusted",
        /not an https URL/,
      );
      throws(() => new JwksResolver(url), (error) => !!assertJwksError(error, "untrusted"));
      throws(
        () => new JwksResolver(url, { allowHttp: true }),
        (error) => !!assertJwksError(error, "untrusted", /reserved address/),
      );
      deepStrictEqual(spy.calls, []);
      deepStrictEqual(server.requests, []);
      // With both switches the same URL is fetched: the refusals were the rules, not the network.
      const jwks = await fetchJwks(url, LOCAL);
      deepStrictEqual(jwks.keys.map((key) => key.kid), ["k1"]);
      deepStrictEqual(server.requests, ["/jwks.json"]);
    });
  },
);

Deno.test(
  "fetchJwks() refuses reserved address literals as untrusted, requesting nothing",
  async () => {
    const spy = stubFetch(() => Response.json({ keys: [] }));
    const hosts = [
      "10.0.0.1",
      "[::1]",
      "169.254.169.254",
      "127.0.0.1",
      "0x7f.1", // 127.0.0.1 in hex
      "2130706433", // 127.0.0.1 as one number
      "localhost",
      "api.localhost",
      "192.168.1.20",
      "172.16.0.1",
      "100.64.0.1",
      "0.0.0.0",
      "[::ffff:127.0.0.1]",
      "[::ffff:a9fe:a9fe]", // 169.254.169.254, IPv4-mapped
      "[fd00:ec2::254]",
      "[fe80::1]",
      "[fc00::1]",
      "[ff02::1]",
      "224.0.0.1",
      "255.255.255.255",
    ];
    for (const host of hosts) {
      const url = `https://${host}/.well-known/jwks.json`;
      assertJwksError(
        await rejection(fetchJwks(url, { fetch: spy.fetch })),
        "untrusted",
        /reserved address/,
      );
      assertJwksError(
        await rejection(fetchJwks(new URL(url), { fetch: spy.fetch, allowHttp: true })),
        "untrusted",
      );
    }
    deepStrictEqual(spy.calls, []);
    // A public literal passes the check (and is requested).
    await fetchJwks("https://93.184.216.34/jwks.json", { fetch: spy.fetch });
    deepStrictEqual(spy.calls, ["https://93.184.216.34/jwks.json"]);
  },
);

Deno.test("fetchJwks() refuses URLs with userinfo, even an empty or backslashed one", async () => {
  const spy = stubFetch(() => Response.json({ keys: [] }));
  for (
    const url of [
      "https://user:pass@keys.example/jwks.json",
      "https://user@keys.example/jwks.json",
      "https://:pass@keys.example/jwks.json",
      "https://@keys.example/jwks.json",
      "https://keys.example@169.254.169.254/jwks.json",
      "https://keys.example%40evil.example@evil.example/",
      "https:\\\\user@keys.example/jwks.json",
      "https:///@keys.example/jwks.json",
    ]
  ) {
    assertJwksError(await rejection(fetchJwks(url, { fetch: spy.fetch })), "untrusted", /userinfo/);
  }
  deepStrictEqual(spy.calls, []);
  // An `@` after the authority is path data, not userinfo.
  await fetchJwks("https://keys.example/keys@v1/jwks.json?by=a@b#x@y", { fetch: spy.fetch });
  deepStrictEqual(spy.calls, ["https://keys.example/keys@v1/jwks.json?by=a@b"]);
});

Deno.test(
  "fetchJwks() refuses malformed and non-http URLs as untrusted and wrong types as TypeError",
  async () => {
    const spy = stubFetch(() => Response.json({ keys: [] }));
    for (
      const url of [
        "",
        "not a url",
        "/.well-known/jwks.json",
        "ftp://keys.example/jwks.json",
        "javascript:alert(1)",
        'data:application/json,{"keys":[]}',
        "file:///etc/passwd",
        "ws://keys.example/",
        " https://keys.example/jwks.json",
        "https://keys.example/jwks.json\n",
        "https://keys.example/a b",
        "https://keys.example/\u0000",
        `https://keys.example/${"a".repeat(2_048)}`,
        "https://[::1/",
      ]
    ) {
      assertJwksError(await rejection(fetchJwks(url, { fetch: spy.fetch })), "untrusted");
    }
    for (const url of [42, null, undefined, {}, ["https://keys.example/"]]) {
      const error = await rejection(fetchJwks(url as string, { fetch: spy.fetch }));
      ok(error instanceof TypeError);
      ok(error.message.startsWith("Cannot fetch the JWKS as 'url' must be a URL string or a URL"));
    }
    deepStrictEqual(spy.calls, []);
  },
);

Deno.test(
  "fetchJwks() refuses bad options with TypeError or RangeError in the house style",
  async () => {
    const spy = stubFetch(() => Response.json({ keys: [] }));
    const cases: [FetchJwksOptions | unknown, ErrorConstructor, string][] = [
      [
        { timeoutMs: 10_001 },
        RangeError,
        "Cannot fetch the JWKS as 'options.timeoutMs' must be an integer from 1 to 10000: " +
        "current value is 10001",
      ],
      [{ timeoutMs: 0 }, RangeError, "'options.timeoutMs'"],
      [{ timeoutMs: 1.5 }, RangeError, "'options.timeoutMs'"],
      [{ timeoutMs: Number.NaN }, RangeError, "'options.timeoutMs'"],
      [{ timeoutMs: "300" }, TypeError, "'options.timeoutMs'"],
      [
        { maxBytes: 65_537 },
        RangeError,
        "Cannot fetch the JWKS as 'options.maxBytes' must be an integer from 1 to 65536: " +
        "current value is 65537",
      ],
      [{ maxBytes: 0 }, RangeError, "'options.maxBytes'"],
      [{ fetch: "fetch" }, TypeError, "'options.fetch' must be a function or undefined"],
      [{ signal: {} }, TypeError, "'options.signal' must be an AbortSignal or undefined"],
      [{ allowHttp: "yes" }, TypeError, "'options.allowHttp' must be a boolean"],
      [{ allowReservedAddresses: 1 }, TypeError, "'options.allowReservedAddresses'"],
      ["options", TypeError, "'options' must be an object or undefined"],
      [null, TypeError, "'options' must be an object or undefined"],
    ];
    for (const [options, kind, text] of cases) {
      // With the spy merged in, nothing may be fetched even when the option check is wrong.
      const passed = typeof options === "object" && options !== null
        ? { fetch: spy.fetch, ...options }
        : options;
      const error = await rejection(fetchJwks(URL_OK, passed as FetchJwksOptions));
      ok(error instanceof kind, `${JSON.stringify(options)}: ${error}`);
      ok(error.message.includes(text), error.message);
    }
    deepStrictEqual(spy.calls, []);
    // Explicit undefined is the default.
    await fetchJwks(URL_OK, { fetch: spy.fetch, timeoutMs: undefined, maxBytes: undefined });
    strictEqual(spy.calls.length, 1);
  },
);

// ---------------------------------------------------------------------------------------------
// fetchJwks(): real servers

Deno.test(
  "fetchJwks() GETs the URL with JSON accept and returns the usable keys, frozen",
  async () => {
    await withServer(
      () =>
        Response.json({
          keys: [
            jwk("k1", { key_ops: ["verify"], adcp_use: "request-signing" }),
            jwk("k2"),
          ],
          extra: "dropped",
        }),
      async (server) => {
        const jwks = await fetchJwks(`${server.base}/.well-known/jwks.json#fragment`, LOCAL);
        deepStrictEqual(server.requests, ["/.well-known/jwks.json"]);
        deepStrictEqual(server.methods, ["GET"]);
        ok(server.headers[0]!.get("accept")!.includes("application/json"));
        strictEqual(server.headers[0]!.get("cookie"), null);
        deepStrictEqual(Object.keys(jwks), ["keys"]);
        deepStrictEqual(jwks.keys.map((key) => key.kid), ["k1", "k2"]);
        deepStrictEqual(jwks.keys[0]!.key_ops, ["verify"]);
        strictEqual(jwks.keys[0]!.adcp_use, "request-signing");
        ok(Object.isFrozen(jwks) && Object.isFrozen(jwks.keys));
        ok(Object.isFrozen(jwks.keys[0]) && Object.isFrozen(jwks.keys[0]!.key_ops));
        throws(() => (jwks.keys as AdcpJwk[]).push(jwk("k3")), TypeError);
      },
    );
  },
);

Deno.test(
  "fetchJwks() accepts a chunked body of exactly 64 KiB and refuses 64 KiB + 1",
  async () => {
    await withServer((request) => {
      const size = new URL(request.url).pathname === "/exact" ? 65_536 : 65_537;
      const bytes = jwksOfSize(size);
      // A stream body is sent chunked, without Content-Length.
      const chunks = [
        bytes.subarray(0, 30_000),
        bytes.subarray(30_000, 60_000),
        bytes.subarray(60_000),
      ];
      let index = 0;
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            const chunk = chunks[index++];
            if (chunk === undefined) controller.close();
            else controller.enqueue(chunk);
          },
        }),
      );
    }, async (server) => {
      const lengths: (string | null)[] = [];
      const options: FetchJwksOptions = {
        ...LOCAL,
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          lengths.push(response.headers.get("content-length"));
          return response;
        },
      };
      const exact = await fetchJwks(`${server.base}/exact`, options);
      deepStrictEqual(exact.keys.map((key) => key.kid), ["padded"]);
      assertJwksError(
        await rejection(fetchJwks(`${server.base}/over`, options)),
        "unavailable",
        /body exceeded 65536 bytes/,
      );
      deepStrictEqual(lengths, [null, null]);
      // A lower maxBytes is a lower cap.
      assertJwksError(
        await rejection(fetchJwks(`${server.base}/exact`, { ...options, maxBytes: 65_535 })),
        "unavailable",
        /body exceeded 65535 bytes/,
      );
    });
  },
);

Deno.test(
  "fetchJwks() stops reading a huge streamed body at the cap; the server stops sending",
  async () => {
    const lazy = lazyBody(256 * 1_048_576, 16_384);
    await withServer(() => new Response(lazy.body), async (server) => {
      assertJwksError(
        await rejection(fetchJwks(server.base, LOCAL)),
        "unavailable",
        /body exceeded 65536 bytes/,
      );
      await lazy.done;
      ok(lazy.stats.sent < 8 * 1_048_576, `server sent ${lazy.stats.sent} bytes`);
    });
  },
);

Deno.test("fetchJwks() refuses a Content-Length over the cap before reading the body", async () => {
  const stalled = stallingBody('{"keys":[');
  await withServer(
    () => new Response(stalled.body, { headers: { "content-length": "1000000" } }),
    async (server) => {
      const started = performance.now();
      assertJwksError(
        await rejection(fetchJwks(server.base, { ...LOCAL, timeoutMs: 5_000 })),
        "unavailable",
        /declared Content-Length is over 65536 bytes/,
      );
      // Refused at the headers: long before the 5 s deadline a read would have run into.
      ok(performance.now() - started < 2_000, `took ${performance.now() - started} ms`);
      await stalled.cancelled;
    },
  );
});

Deno.test("fetchJwks() counts bytes received whatever a lying Content-Length says", async () => {
  // Under a fetch that hands over a body longer than its header (a proxy, a test double), the
  // cap is on bytes counted.
  const big = jwksOfSize(70_000);
  const lying = stubFetch(() => new Response(big, { headers: { "content-length": "10" } }));
  assertJwksError(
    await rejection(fetchJwks(URL_OK, { fetch: lying.fetch })),
    "unavailable",
    /body exceeded 65536 bytes/,
  );
  // A header that is not a number is ignored, and the body still counted.
  const garbage = stubFetch(() => new Response(big, { headers: { "content-length": "-5, 9" } }));
  assertJwksError(
    await rejection(fetchJwks(URL_OK, { fetch: garbage.fetch })),
    "unavailable",
    /body exceeded/,
  );
  // Over real HTTP, the framing holds the client to the declared length: a short Content-Length
  // in front of a longer body yields only the declared bytes, which are no JWKS.
  await withServer(
    () => new Response(lazyBody(1_048_576, 16_384).body, { headers: { "content-length": "100" } }),
    async (server) => {
      assertJwksError(await rejection(fetchJwks(server.base, LOCAL)), "unavailable");
    },
  );
});

Deno.test("fetchJwks() fails a body that stalls after the headers at the deadline", async () => {
  const stalled = stallingBody('{"keys":[{"kid":"k1"');
  await withServer(() => new Response(stalled.body), async (server) => {
    const started = performance.now();
    assertJwksError(
      await rejection(fetchJwks(server.base, { ...LOCAL, timeoutMs: 300 })),
      "unavailable",
      /no complete answer within 300 ms/,
    );
    const elapsed = performance.now() - started;
    ok(elapsed >= 290 && elapsed < 300 + SLACK_MS, `took ${elapsed} ms`);
    await stalled.cancelled;
  });
});

Deno.test("fetchJwks() fails a server that never answers at the deadline", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  await withServer(async () => {
    await released;
    return new Response("late");
  }, async (server) => {
    try {
      const started = performance.now();
      assertJwksError(
        await rejection(fetchJwks(server.base, { ...LOCAL, timeoutMs: 300 })),
        "unavailable",
        /no complete answer within 300 ms/,
      );
      const elapsed = performance.now() - started;
      ok(elapsed >= 290 && elapsed < 300 + SLACK_MS, `took ${elapsed} ms`);
      deepStrictEqual(server.requests, ["/"]);
    } finally {
      release();
    }
  });
});

Deno.test(
  "fetchJwks() refuses every 3xx as untrusted and never requests the Location",
  async () => {
    await withServer((request) => {
      const path = new URL(request.url).pathname;
      if (path === "/target") return Response.json({ keys: [jwk("k1")] });
      const status = Number(path.slice(1));
      return new Response(null, { status, headers: { location: "/target" } });
    }, async (server) => {
      for (const status of [301, 302, 303, 307, 308, 300, 304]) {
        assertJwksError(
          await rejection(fetchJwks(`${server.base}/${status}`, LOCAL)),
          "untrusted",
          new RegExp(`redirect refused \\(HTTP ${status}\\)`),
        );
      }
      deepStrictEqual(server.requests, ["/301", "/302", "/303", "/307", "/308", "/300", "/304"]);
      // A redirect to a reserved address is refused the same way, its Location never dialed.
      const spy = stubFetch(() =>
        new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } })
      );
      assertJwksError(await rejection(fetchJwks(URL_OK, { fetch: spy.fetch })), "untrusted");
      deepStrictEqual(spy.calls, [URL_OK]);
    });
  },
);

Deno.test("fetchJwks() refuses an answer its fetch reached by following a redirect", async () => {
  const followed = stubFetch(() => {
    const response = Response.json({ keys: [jwk("k1")] });
    Object.defineProperty(response, "redirected", { value: true });
    return response;
  });
  assertJwksError(
    await rejection(fetchJwks(URL_OK, { fetch: followed.fetch })),
    "untrusted",
    /followed a redirect/,
  );
  const opaque = stubFetch(() => {
    const response = new Response(null, { status: 200 });
    Object.defineProperty(response, "type", { value: "opaqueredirect" });
    Object.defineProperty(response, "status", { value: 0 });
    return response;
  });
  assertJwksError(await rejection(fetchJwks(URL_OK, { fetch: opaque.fetch })), "untrusted");
});

Deno.test("fetchJwks() answers other non-2xx statuses as unavailable", async () => {
  await withServer((request) => {
    const status = Number(new URL(request.url).pathname.slice(1));
    return new Response(JSON.stringify({ keys: [jwk("k1")] }), { status });
  }, async (server) => {
    for (const status of [500, 502, 503, 404, 401, 429]) {
      assertJwksError(
        await rejection(fetchJwks(`${server.base}/${status}`, LOCAL)),
        "unavailable",
        new RegExp(`HTTP ${status}$`),
      );
    }
  });
});

Deno.test("fetchJwks() refuses bodies that are not a strict JWK Set as unavailable", async () => {
  const bodies: Record<string, string> = {
    "/not-json": "<html>keys</html>",
    "/empty": "",
    "/array": JSON.stringify([jwk("k1")]),
    "/null": "null",
    "/string": '"keys"',
    "/duplicate-top": '{"keys":[],"keys":[{"kid":"evil"}]}',
    "/duplicate-in-key": '{"keys":[{"kid":"good","kid":"evil"}]}',
    "/duplicate-escaped": '{"keys":[{"kid":"a","k\\u0069d":"b"}]}',
    "/keys-object": '{"keys":{"kid":"k1"}}',
    "/keys-string": '{"keys":"k1"}',
    "/keys-missing": '{"key":[]}',
    "/keys-null": '{"keys":null}',
    "/entry-number": '{"keys":[1]}',
    "/entry-null": '{"keys":[{"kid":"k1"},null]}',
    "/entry-array": '{"keys":[[]]}',
    "/trailing": '{"keys":[]} x',
    "/two-documents": '{"keys":[]}{"keys":[]}',
    "/nan": '{"keys":[],"n":NaN}',
    "/deep": `{"keys":[],"x":${"[".repeat(100)}${"]".repeat(100)}}`,
    "/too-many": JSON.stringify({
      keys: Array.from({ length: 2_000 }, (_, i) => ({ kid: `k${i}` })),
    }),
    "/one-too-many": JSON.stringify({ keys: Array.from({ length: 1_001 }, () => ({})) }),
  };
  const details: Record<string, RegExp> = {
    "/not-json": /not JSON/,
    "/array": /not a JSON object/,
    "/duplicate-top": /repeats a key/,
    "/duplicate-in-key": /repeats a key/,
    "/duplicate-escaped": /repeats a key/,
    "/keys-object": /no 'keys' array/,
    "/entry-null": /keys\[1\] is not a JSON object/,
    "/deep": /JSON bounds/,
    "/too-many": /2000 entries, more than 1000/,
    "/one-too-many": /1001 entries/,
  };
  await withServer(
    (request) => new Response(bodies[new URL(request.url).pathname] ?? "missing"),
    async (server) => {
      for (const path of Object.keys(bodies)) {
        const error = assertJwksError(
          await rejection(fetchJwks(`${server.base}${path}`, LOCAL)),
          "unavailable",
          details[path],
        );
        // The message describes the body by kind, never by its bytes.
        ok(!error.message.includes("evil"), error.message);
      }
    },
  );
});

Deno.test("fetchJwks() refuses invalid UTF-8 and a byte order mark", async () => {
  const json = encoder.encode(JSON.stringify({ keys: [jwk("k1")] }));
  const invalid = new Uint8Array([...json.subarray(0, 10), 0xff, ...json.subarray(10)]);
  assertJwksError(
    await rejection(fetchJwks(URL_OK, { fetch: answering(invalid).fetch })),
    "unavailable",
    /not UTF-8/,
  );
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...json]);
  assertJwksError(
    await rejection(fetchJwks(URL_OK, { fetch: answering(bom).fetch })),
    "unavailable",
    /not JSON/,
  );
  const surrogate = encoder.encode('{"keys":[{"kid":"\\ud800"}]}'); // escaped: valid JSON text
  deepStrictEqual((await fetchJwks(URL_OK, { fetch: answering(surrogate).fetch })).keys.length, 1);
});

Deno.test("fetchJwks() accepts 1,000 keys", async () => {
  const keys = Array.from({ length: 1_000 }, (_, i) => ({ kid: `k${i}` }));
  const jwks = await fetchJwks(URL_OK, { fetch: answering({ keys }).fetch });
  strictEqual(jwks.keys.length, 1_000);
  strictEqual(jwks.keys[999]!.kid, "k999");
});

Deno.test(
  "fetchJwks() drops kid-less entries and every entry of a kid published twice",
  async () => {
    const jwks = await fetchJwks(URL_OK, {
      fetch: answering({
        keys: [
          jwk("a"),
          { kty: "OKP" },
          { kid: "", kty: "OKP" },
          { kid: 7, kty: "OKP" },
          { kid: null },
          jwk("twice", { x: "first" }),
          jwk("b"),
          jwk("twice", { x: "second" }),
          jwk("thrice"),
          jwk("thrice"),
          jwk("thrice"),
          jwk("__proto__"),
          {},
        ],
      }).fetch,
    });
    deepStrictEqual(jwks.keys.map((key) => key.kid), ["a", "b", "__proto__"]);
    const empty = await fetchJwks(URL_OK, { fetch: answering({ keys: [] }).fetch });
    deepStrictEqual(empty, { keys: [] });
  },
);

Deno.test(
  "fetchJwks() rejects with the caller's abort reason, before or during the fetch",
  async () => {
    const spy = stubFetch(() => Response.json({ keys: [] }));
    const reason = new Error("shutting down");
    await rejects(
      fetchJwks(URL_OK, { fetch: spy.fetch, signal: AbortSignal.abort(reason) }),
      (e) => e === reason,
    );
    deepStrictEqual(spy.calls, []);
    let release!: () => void;
    const released = new Promise<void>((resolve) => release = resolve);
    await withServer(async () => {
      await released;
      return new Response("late");
    }, async (server) => {
      try {
        const controller = new AbortController();
        const pending = fetchJwks(server.base, { ...LOCAL, signal: controller.signal });
        setTimeout(() => controller.abort(reason), 50);
        await rejects(pending, (e) => e === reason);
      } finally {
        release();
      }
    });
  },
);

Deno.test(
  "fetchJwks() holds the deadline over a fetch and a body that ignore the signal",
  async () => {
    let signalSeen: AbortSignal | undefined;
    const never = (_input: string | URL | Request, init?: RequestInit) => {
      signalSeen = init?.signal ?? undefined;
      return new Promise<Response>(() => {});
    };
    const started = performance.now();
    assertJwksError(
      await rejection(fetchJwks(URL_OK, { fetch: never, timeoutMs: 200 })),
      "unavailable",
      /within 200 ms/,
    );
    ok(performance.now() - started < 200 + SLACK_MS);
    ok(signalSeen?.aborted, "the signal handed to fetch was aborted at the deadline");
    let cancelled = false;
    const stalling = stubFetch(() =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode('{"keys":'));
          },
          pull: () => new Promise(() => {}),
          cancel: () => void (cancelled = true),
        }, { highWaterMark: 0 }),
      )
    );
    assertJwksError(
      await rejection(fetchJwks(URL_OK, { fetch: stalling.fetch, timeoutMs: 200 })),
      "unavailable",
      /within 200 ms/,
    );
    ok(cancelled, "the body was cancelled");
  },
);

Deno.test(
  "fetchJwks() holds the deadline over chunks that arrive without yielding to timers",
  async () => {
    // Each pull blocks for 1 ms and answers at once: the reads chain through microtasks, where no
    // timer can fire, so the reader checks the clock per chunk.
    const chunks = 2_000;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const until = performance.now() + 1;
        while (performance.now() < until) { /* busy */ }
        pulled++;
        if (pulled === 1) controller.enqueue(encoder.encode('{"keys":[]'));
        else if (pulled < chunks) controller.enqueue(encoder.encode(" "));
        else {
          controller.enqueue(encoder.encode("}"));
          controller.close();
        }
      },
    }, { highWaterMark: 0 });
    const started = performance.now();
    assertJwksError(
      await rejection(fetchJwks(URL_OK, { fetch: answering(body).fetch, timeoutMs: 50 })),
      "unavailable",
      /within 50 ms/,
    );
    ok(performance.now() - started < 50 + SLACK_MS, `took ${performance.now() - started} ms`);
    ok(pulled < chunks, `read all ${pulled} chunks`);
  },
);

Deno.test(
  "fetchJwks() reports fetch failures as unavailable, the runtime's words only as cause",
  async () => {
    const boom = new TypeError("connection refused by 10.1.2.3");
    const rejecting = () => Promise.reject(boom);
    const error = assertJwksError(
      await rejection(fetchJwks(URL_OK, { fetch: rejecting })),
      "unavailable",
      /^Cannot use the JWKS: network failure$/,
    );
    strictEqual(error.cause, boom);
    const throwing = () => {
      throw boom;
    };
    strictEqual(
      assertJwksError(await rejection(fetchJwks(URL_OK, { fetch: throwing })), "unavailable").cause,
      boom,
    );
    // A body that breaks off mid-way.
    const breaking = stubFetch(() =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode('{"keys":['));
            controller.error(new Error("reset"));
          },
        }),
      )
    );
    assertJwksError(await rejection(fetchJwks(URL_OK, { fetch: breaking.fetch })), "unavailable");
    // A real connection that is refused (nothing listens on the port any more).
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    listener.close();
    assertJwksError(
      await rejection(fetchJwks(`http://127.0.0.1:${port}/`, LOCAL)),
      "unavailable",
      /network failure$/,
    );
  },
);

Deno.test(
  "fetchJwks() refuses a fetch option that answers something other than a Response",
  async () => {
    for (const answer of [undefined, {}, "body", { status: 200, body: "{}" }]) {
      const error = await rejection(
        fetchJwks(URL_OK, { fetch: () => Promise.resolve(answer as unknown as Response) }),
      );
      ok(error instanceof TypeError, String(error));
      ok(error.message.startsWith("Cannot fetch the JWKS as 'options.fetch(input, init)' must be"));
    }
  },
);

// ---------------------------------------------------------------------------------------------
// JwksResolver

Deno.test("JwksResolver refuses bad options and untrusted URLs at construction", () => {
  const cases: [unknown, ErrorConstructor, string][] = [
    [
      { cacheTtlMs: 59_999 },
      RangeError,
      "Cannot create a JwksResolver as 'options.cacheTtlMs' must be an integer from 60000 to " +
      "1800000: current value is 59999",
    ],
    [{ cacheTtlMs: 1_800_001 }, RangeError, "'options.cacheTtlMs'"],
    [{ cacheTtlMs: Infinity }, RangeError, "'options.cacheTtlMs'"],
    [{ refetchCooldownMs: 29_999 }, RangeError, "'options.refetchCooldownMs'"],
    [{ refetchCooldownMs: 1_800_001 }, RangeError, "'options.refetchCooldownMs'"],
    [{ negativeCacheMs: 60_001 }, RangeError, "'options.negativeCacheMs'"],
    [{ negativeCacheMs: -1 }, RangeError, "'options.negativeCacheMs'"],
    [{ now: 5 }, TypeError, "'options.now' must be a function or undefined"],
    [{ timeoutMs: 20_000 }, RangeError, "'options.timeoutMs'"],
    [{ fetch: {} }, TypeError, "'options.fetch'"],
    [[], TypeError, "'options' must be an object"],
  ];
  for (const [options, kind, text] of cases) {
    throws(() => new JwksResolver(URL_OK, options as never), (error) => {
      ok(error instanceof kind, String(error));
      ok(error.message.includes(text), error.message);
      return true;
    });
  }
  throws(() => new JwksResolver(42 as never), TypeError);
  for (
    const url of [
      "https://10.0.0.1/",
      "https://[::1]/",
      "https://169.254.169.254/",
      "https://u@k.example/",
      "nope",
    ]
  ) {
    throws(() => new JwksResolver(url), (error) => !!assertJwksError(error, "untrusted"));
  }
  new JwksResolver(URL_OK, {
    cacheTtlMs: MIN_JWKS_CACHE_TTL_MS,
    refetchCooldownMs: MAX_JWKS_CACHE_TTL_MS,
    negativeCacheMs: 0,
  });
});

Deno.test(
  "JwksResolver refetches once on a kid miss and then holds the 30 s cooldown",
  async () => {
    let published = [jwk("k1")];
    await withServer(() => Response.json({ keys: published }), async (server) => {
      const clock = testClock();
      const resolver = new JwksResolver(`${server.base}/jwks.json`, { ...LOCAL, now: clock.now });
      strictEqual((await resolver.resolve("k1"))?.kid, "k1");
      strictEqual(server.requests.length, 1);
      // A kid missing from a set an earlier call fetched: refetch at once (the cooldown is between
      // refetches, not before the first).
      published = [jwk("k1"), jwk("k2")];
      clock.advance(1_000);
      strictEqual((await resolver.resolve("k2"))?.kid, "k2");
      strictEqual(server.requests.length, 2);
      // Another miss within 30 s of that refetch: undefined, nothing fetched.
      published = [jwk("k1"), jwk("k2"), jwk("k3")];
      clock.advance(29_999);
      strictEqual(await resolver.resolve("k3"), undefined);
      strictEqual(await resolver.resolve("nope"), undefined);
      strictEqual(server.requests.length, 2);
      // Hits are still served from the cache.
      strictEqual((await resolver.resolve("k1"))?.kid, "k1");
      strictEqual(server.requests.length, 2);
      // At 30 s, one refetch.
      clock.advance(1);
      strictEqual((await resolver.resolve("k3"))?.kid, "k3");
      strictEqual(server.requests.length, 3);
      strictEqual(await resolver.resolve("nope"), undefined);
      strictEqual(server.requests.length, 3);
      deepStrictEqual(new Set(server.requests), new Set(["/jwks.json"]));
    });
  },
);

Deno.test(
  "JwksResolver does not refetch for a kid missing from the set it just fetched",
  async () => {
    const spy = answering({ keys: [jwk("k1")] });
    const clock = testClock();
    const resolver = new JwksResolver(URL_OK, { fetch: spy.fetch, now: clock.now });
    strictEqual(await resolver.resolve("missing"), undefined);
    strictEqual(spy.calls.length, 1);
    // A later miss refetches once (the first fetch may be stale by now), then the cooldown holds.
    strictEqual(await resolver.resolve("missing"), undefined);
    strictEqual(await resolver.resolve("missing"), undefined);
    strictEqual(spy.calls.length, 2);
  },
);

Deno.test("JwksResolver coalesces concurrent resolves into one fetch", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  await withServer(async () => {
    await released;
    return Response.json({ keys: [jwk("k1"), jwk("k2")] });
  }, async (server) => {
    const resolver = new JwksResolver(server.base, LOCAL);
    const kids = ["k1", "k2", "k1", "missing", "k2", "k1", "other", "k1"];
    const pending = Promise.all(kids.map((kid) => resolver.resolve(kid)));
    setTimeout(release, 50);
    const keys = await pending;
    deepStrictEqual(keys.map((key) => key?.kid), [
      "k1",
      "k2",
      "k1",
      undefined,
      "k2",
      "k1",
      undefined,
      "k1",
    ]);
    strictEqual(server.requests.length, 1);
    // Every caller gets the same frozen object.
    strictEqual(keys[0], keys[2]);
    ok(Object.isFrozen(keys[0]));
  });
});

Deno.test("JwksResolver coalesces concurrent kid misses into one refetch", async () => {
  let calls = 0;
  const resolver = new JwksResolver(URL_OK, {
    now: testClock().now,
    fetch: async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return Response.json({ keys: calls === 1 ? [jwk("k1")] : [jwk("k1"), jwk("k2")] });
    },
  });
  await resolver.resolve("k1");
  const results = await Promise.all(["k2", "k2", "x", "k2"].map((kid) => resolver.resolve(kid)));
  deepStrictEqual(results.map((key) => key?.kid), ["k2", "k2", undefined, "k2"]);
  strictEqual(calls, 2);
});

Deno.test("JwksResolver refetches after the TTL and never serves an expired set", async () => {
  let status = 200;
  await withServer(
    () => status === 200 ? Response.json({ keys: [jwk("k1")] }) : new Response("down", { status }),
    async (server) => {
      const clock = testClock();
      const resolver = new JwksResolver(server.base, {
        ...LOCAL,
        now: clock.now,
        cacheTtlMs: 60_000,
        negativeCacheMs: 0,
      });
      await resolver.resolve("k1");
      clock.advance(59_999);
      await resolver.resolve("k1");
      strictEqual(server.requests.length, 1);
      clock.advance(1);
      strictEqual((await resolver.resolve("k1"))?.kid, "k1");
      strictEqual(server.requests.length, 2);
      // Expired again, and the origin is down: the known kid is not served from the old set.
      clock.advance(60_000);
      status = 503;
      assertJwksError(await rejection(resolver.resolve("k1")), "unavailable", /HTTP 503/);
      strictEqual(server.requests.length, 3);
      status = 200;
      strictEqual((await resolver.resolve("k1"))?.kid, "k1");
      strictEqual(server.requests.length, 4);
    },
  );
});

Deno.test("JwksResolver uses the default TTL of 5 minutes", async () => {
  const spy = answering({ keys: [jwk("k1")] });
  const clock = testClock();
  const resolver = new JwksResolver(URL_OK, { fetch: spy.fetch, now: clock.now });
  await resolver.resolve("k1");
  clock.advance(DEFAULT_JWKS_CACHE_TTL_MS - 1);
  await resolver.resolve("k1");
  strictEqual(spy.calls.length, 1);
  clock.advance(1);
  await resolver.resolve("k1");
  strictEqual(spy.calls.length, 2);
});

Deno.test("JwksResolver treats a clock that went back as an expired set", async () => {
  const spy = answering({ keys: [jwk("k1")] });
  const clock = testClock();
  const resolver = new JwksResolver(URL_OK, { fetch: spy.fetch, now: clock.now });
  await resolver.resolve("k1");
  clock.advance(-1);
  await resolver.resolve("k1");
  strictEqual(spy.calls.length, 2);
});

Deno.test(
  "JwksResolver remembers a failure for negativeCacheMs and throws the same error",
  async () => {
    let status = 500;
    await withServer(
      () => status === 200 ? Response.json({ keys: [jwk("k1")] }) : new Response("x", { status }),
      async (server) => {
        const clock = testClock();
        const resolver = new JwksResolver(server.base, {
          ...LOCAL,
          now: clock.now,
          negativeCacheMs: 10_000,
        });
        const first = assertJwksError(await rejection(resolver.resolve("k1")), "unavailable");
        status = 200;
        clock.advance(9_999);
        strictEqual(await rejection(resolver.resolve("k1")), first);
        strictEqual(await rejection(resolver.resolve("other")), first);
        strictEqual(server.requests.length, 1);
        clock.advance(1);
        strictEqual((await resolver.resolve("k1"))?.kid, "k1");
        strictEqual(server.requests.length, 2);
      },
    );
  },
);

Deno.test(
  "JwksResolver with negativeCacheMs 0 fetches again on every call while failing",
  async () => {
    const spy = stubFetch(() => new Response("x", { status: 502 }));
    const resolver = new JwksResolver(URL_OK, { fetch: spy.fetch, negativeCacheMs: 0 });
    for (let i = 0; i < 3; i++) {
      assertJwksError(await rejection(resolver.resolve("k1")), "unavailable");
    }
    strictEqual(spy.calls.length, 3);
  },
);

Deno.test("JwksResolver remembers an untrusted redirect and never follows it", async () => {
  await withServer((request) => {
    if (new URL(request.url).pathname === "/target") return Response.json({ keys: [jwk("k1")] });
    return new Response(null, { status: 302, headers: { location: "/target" } });
  }, async (server) => {
    const resolver = new JwksResolver(`${server.base}/jwks.json`, {
      ...LOCAL,
      now: testClock().now,
    });
    const first = assertJwksError(await rejection(resolver.resolve("k1")), "untrusted");
    strictEqual(await rejection(resolver.resolve("k1")), first);
    deepStrictEqual(server.requests, ["/jwks.json"]);
  });
});

Deno.test("JwksResolver keeps its set when a refetch after a miss fails", async () => {
  let status = 200;
  const spy = stubFetch(() =>
    status === 200 ? Response.json({ keys: [jwk("k1")] }) : new Response("x", { status })
  );
  const clock = testClock();
  const resolver = new JwksResolver(URL_OK, { fetch: spy.fetch, now: clock.now });
  await resolver.resolve("k1");
  status = 503;
  clock.advance(1_000);
  assertJwksError(await rejection(resolver.resolve("k2")), "unavailable");
  strictEqual(spy.calls.length, 2);
  // The set is within its TTL: its keys still resolve, without fetching.
  strictEqual((await resolver.resolve("k1"))?.kid, "k1");
  // A miss inside the cooldown answers undefined; after it, the remembered failure (30 s default)
  // has run out too, and the refetch is made.
  strictEqual(await resolver.resolve("k2"), undefined);
  strictEqual(spy.calls.length, 2);
  clock.advance(JWKS_REFETCH_COOLDOWN_MS);
  assertJwksError(await rejection(resolver.resolve("k2")), "unavailable");
  strictEqual(spy.calls.length, 3);
});

Deno.test(
  "JwksResolver lets one caller stop waiting without failing the shared fetch",
  async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => release = resolve);
    await withServer(async () => {
      await released;
      return Response.json({ keys: [jwk("k1")] });
    }, async (server) => {
      const resolver = new JwksResolver(server.base, LOCAL);
      const controller = new AbortController();
      const reason = new Error("client went away");
      const impatient = resolver.resolve("k1", { signal: controller.signal });
      const patient = resolver.resolve("k1");
      controller.abort(reason);
      await rejects(impatient, (error) => error === reason);
      release();
      strictEqual((await patient)?.kid, "k1");
      strictEqual(server.requests.length, 1);
      // An already aborted signal rejects at once, even for a cached key.
      await rejects(
        resolver.resolve("k1", { signal: AbortSignal.abort(reason) }),
        (e) => e === reason,
      );
    });
  },
);

Deno.test(
  "JwksResolver's own signal aborts its fetch, and the abort is not remembered",
  async () => {
    const controller = new AbortController();
    const reason = new Error("resolver closed");
    const never = (_: unknown, init?: RequestInit) =>
      new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal!.reason), { once: true });
      });
    let calls = 0;
    const counting = (input: string | URL | Request, init?: RequestInit) => {
      calls++;
      return calls === 1
        ? never(input, init)
        : Promise.resolve(Response.json({ keys: [jwk("k1")] }));
    };
    const resolver = new JwksResolver(URL_OK, { fetch: counting, signal: controller.signal });
    const pending = resolver.resolve("k1");
    controller.abort(reason);
    await rejects(pending, (error) => error === reason);
    // Every later fetch is aborted too (the signal is the resolver's lifetime), but not remembered.
    await rejects(resolver.resolve("k1"), (error) => error === reason);
    strictEqual(calls, 1);
  },
);

Deno.test("JwksResolver does not remember a programmer error of its fetch option", async () => {
  let calls = 0;
  const resolver = new JwksResolver(URL_OK, {
    now: testClock().now,
    fetch: () => {
      calls++;
      return Promise.resolve(
        (calls === 1 ? "not a Response" : Response.json({ keys: [jwk("k1")] })) as Response,
      );
    },
  });
  await rejects(resolver.resolve("k1"), TypeError);
  strictEqual((await resolver.resolve("k1"))?.kid, "k1");
  strictEqual(calls, 2);
});

Deno.test(
  "JwksResolver refuses a non-string keyid and a clock that is not a finite number",
  async () => {
    const spy = answering({ keys: [jwk("k1")] });
    const resolver = new JwksResolver(URL_OK, { fetch: spy.fetch });
    await rejects(resolver.resolve(1 as never), TypeError);
    await rejects(resolver.resolve("k1", "signal" as never), TypeError);
    await rejects(resolver.resolve("k1", { signal: {} as AbortSignal }), TypeError);
    const bad = new JwksResolver(URL_OK, { fetch: spy.fetch, now: () => Number.NaN });
    await rejects(bad.resolve("k1"), (error) => {
      ok(error instanceof TypeError);
      ok(error.message.includes("'options.now()' must be a function returning a finite number"));
      return true;
    });
    deepStrictEqual(spy.calls, []);
  },
);

Deno.test("JwksResolver resolves kids byte for byte and never from the prototype", async () => {
  const spy = answering({ keys: [jwk("K1"), jwk("__proto__")] });
  const resolver = new JwksResolver(URL_OK, { fetch: spy.fetch, now: testClock().now });
  strictEqual(await resolver.resolve("k1"), undefined);
  strictEqual((await resolver.resolve("__proto__"))?.kid, "__proto__");
  strictEqual(await resolver.resolve("constructor"), undefined);
  strictEqual(await resolver.resolve("toString"), undefined);
  strictEqual(resolver.jwksUri, URL_OK);
});

// ---------------------------------------------------------------------------------------------
// StaticKeyResolver

Deno.test(
  "StaticKeyResolver resolves a fixed set by the fetchJwks rules, from a copy",
  async () => {
    const input = [jwk("a"), jwk("dup"), { kty: "OKP" }, jwk("dup"), { kid: "" }, jwk("b")];
    const resolver = new StaticKeyResolver(input);
    strictEqual((await resolver.resolve("a"))?.kid, "a");
    strictEqual((await resolver.resolve("b"))?.kid, "b");
    strictEqual(await resolver.resolve("dup"), undefined);
    strictEqual(await resolver.resolve(""), undefined);
    strictEqual(await resolver.resolve("__proto__"), undefined);
    // Changes to the input after construction change nothing.
    input[0]!.x = "changed";
    input.push(jwk("late"));
    strictEqual((await resolver.resolve("a"))?.x, jwk("a").x);
    strictEqual(await resolver.resolve("late"), undefined);
    const key = await resolver.resolve("a");
    ok(Object.isFrozen(key));
    const set = new StaticKeyResolver({ keys: [jwk("c", { key_ops: ["verify"] })] });
    ok(Object.isFrozen((await set.resolve("c"))!.key_ops));
    deepStrictEqual(await new StaticKeyResolver([]).resolve("a"), undefined);
  },
);

Deno.test("StaticKeyResolver refuses what is not a set of JWK objects", async () => {
  for (
    const input of ["keys", null, 1, {}, { keys: "x" }, [1], [null], [[]], { keys: [jwk("a"), 2] }]
  ) {
    throws(() => new StaticKeyResolver(input as never), (error) => {
      ok(error instanceof TypeError, String(error));
      ok(error.message.startsWith("Cannot create a StaticKeyResolver as 'jwks"), error.message);
      return true;
    });
  }
  throws(() => new StaticKeyResolver([{ kid: "f", f: () => 1 }]), TypeError);
  await rejects(new StaticKeyResolver([jwk("a")]).resolve(undefined as never), TypeError);
  // A cyclic object is copied, not walked forever.
  const cyclic: Record<string, unknown> = { kid: "cyclic" };
  cyclic.self = cyclic;
  const key = await new StaticKeyResolver([cyclic]).resolve("cyclic");
  strictEqual(key?.self, key);
});

// ---------------------------------------------------------------------------------------------
// defaultJwksUri()

Deno.test("defaultJwksUri() is /.well-known/jwks.json at the agent URL's origin", () => {
  const cases: [string | URL, string][] = [
    ["https://agent.example/mcp", "https://agent.example/.well-known/jwks.json"],
    ["https://Agent.EXAMPLE:443/a/b/?q=1#f", "https://agent.example/.well-known/jwks.json"],
    ["https://agent.example:8443/mcp", "https://agent.example:8443/.well-known/jwks.json"],
    ["https://bücher.example/mcp", "https://xn--bcher-kva.example/.well-known/jwks.json"],
    ["https://[2001:db8::1]/mcp", "https://[2001:db8::1]/.well-known/jwks.json"],
    ["http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/.well-known/jwks.json"],
    ["http://agent.example:80/", "http://agent.example/.well-known/jwks.json"],
    [new URL("https://agent.example/x"), "https://agent.example/.well-known/jwks.json"],
  ];
  for (const [input, expected] of cases) strictEqual(defaultJwksUri(input), expected);
});

Deno.test(
  "defaultJwksUri() refuses unusable agent URLs as untrusted and wrong types as TypeError",
  () => {
    for (
      const input of [
        "",
        "agent.example",
        "ftp://agent.example/",
        "data:text/plain,x",
        "https://user:pw@agent.example/",
        "https://agent.example@169.254.169.254/",
        " https://agent.example/",
        `https://agent.example/${"x".repeat(2_100)}`,
      ]
    ) {
      throws(() => defaultJwksUri(input), (error) => !!assertJwksError(error, "untrusted"));
    }
    for (const input of [undefined, 1, {}, null]) {
      throws(() => defaultJwksUri(input as never), (error) => {
        ok(error instanceof TypeError);
        ok(error.message.startsWith("Cannot derive the default JWKS URL as 'agentUrl'"));
        return true;
      });
    }
  },
);

// ---------------------------------------------------------------------------------------------
// Property tests over untrusted input

Deno.test(
  "property: fetchJwks() turns any JSON body into a valid set or an unavailable JwksError",
  async () => {
    const jwkArb = fc.record(
      { kid: fc.oneof(fc.constantFrom("a", "b", "c", "", "__proto__"), fc.string(), fc.integer()) },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ keys: fc.array(fc.oneof(jwkArb, fc.jsonValue()), { maxLength: 12 }) }),
      fc.record({ keys: fc.array(jwkArb, { maxLength: 12 }) }),
    );
    const outcomes = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const text = JSON.stringify(value) ?? "";
        let jwks;
        try {
          jwks = await fetchJwks(URL_OK, { fetch: answering(text).fetch });
        } catch (error) {
          assertJwksError(error, "unavailable");
          outcomes.refused++;
          return;
        }
        outcomes.accepted++;
        const entries = (value as { keys: unknown[] }).keys;
        ok(Array.isArray(entries));
        const kids = jwks.keys.map((key) => key.kid);
        strictEqual(new Set(kids).size, kids.length);
        for (const kid of kids) {
          ok(typeof kid === "string" && kid !== "");
          const holders = entries.filter((entry) =>
            typeof entry === "object" && entry !== null && (entry as { kid?: unknown }).kid === kid
          );
          strictEqual(holders.length, 1);
        }
        ok(Object.isFrozen(jwks.keys));
      }),
      { numRuns: 300 },
    );
    // Both branches ran: the property is not vacuous.
    ok(outcomes.accepted > 30 && outcomes.refused > 30, JSON.stringify(outcomes));
  },
);

Deno.test(
  "property: fetchJwks() answers arbitrary bytes with keys or an unavailable JwksError",
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 256 }), async (bytes) => {
        try {
          const jwks = await fetchJwks(URL_OK, { fetch: answering(bytes).fetch });
          ok(Array.isArray(jwks.keys));
        } catch (error) {
          assertJwksError(error, "unavailable");
        }
      }),
      { numRuns: 300 },
    );
  },
);

Deno.test(
  "property: fetchJwks() only ever requests https URLs with a non-reserved literal host",
  async () => {
    const hosts = fc.oneof(
      fc.domain(),
      fc.ipV4().map((ip) => ip),
      fc.ipV6().map((ip) => `[${ip}]`),
      fc.constantFrom("localhost", "0x7f.1", "[::ffff:10.0.0.1]", "u@x.example", "x.example:99999"),
    );
    const urls = fc.oneof(
      fc.tuple(
        fc.constantFrom("https://", "http://", "https:\\\\", "ftp://", "HTTPS://"),
        hosts,
        fc.webPath(),
      )
        .map(([scheme, host, path]) => `${scheme}${host}${path}`),
      fc.string({ maxLength: 40 }),
      fc.webUrl(),
    );
    const outcomes = { requested: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(urls, async (url) => {
        const spy = answering({ keys: [] });
        try {
          await fetchJwks(url, { fetch: spy.fetch });
        } catch (error) {
          assertJwksError(error, "untrusted");
          deepStrictEqual(spy.calls, []);
          outcomes.refused++;
          return;
        }
        outcomes.requested++;
        strictEqual(spy.calls.length, 1);
        const requested = new URL(spy.calls[0]!);
        strictEqual(requested.protocol, "https:");
        strictEqual(requested.username + requested.password, "");
        strictEqual(isReservedAddress(requested.hostname), false);
        strictEqual(requested.hash, "");
      }),
      { numRuns: 500 },
    );
    ok(outcomes.requested > 50 && outcomes.refused > 50, JSON.stringify(outcomes));
  },
);

Deno.test(
  "property: defaultJwksUri() answers any string with a well-known URL or an untrusted JwksError",
  () => {
    const outcomes = { derived: 0, refused: 0 };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
        ),
        (input) => {
          let uri: string;
          try {
            uri = defaultJwksUri(input);
          } catch (error) {
            assertJwksError(error, "untrusted");
            outcomes.refused++;
            return;
          }
          outcomes.derived++;
          const url = new URL(uri);
          strictEqual(url.pathname, "/.well-known/jwks.json");
          strictEqual(url.search + url.hash, "");
          strictEqual(url.origin, new URL(input).origin);
        },
      ),
      { numRuns: 500 },
    );
    ok(outcomes.derived > 50 && outcomes.refused > 50, JSON.stringify(outcomes));
  },
);

Deno.test("JwksResolver.forAgent() binds the resolver to the agents[] entry's url", async () => {
  const brand = {
    agents: [{ type: "sales", url: "https://Seller.example/mcp", jwks_uri: "https://k.example/j" }],
  };
  const fetch = () => Promise.resolve(Response.json(brand));
  // The entry's url as written (matched byte for byte), not the parsed agent URL.
  const location = await resolveAgentJwksUri("https://Seller.example/mcp", { fetch });
  strictEqual(location.agentUrl, "https://seller.example/mcp");
  const resolver = JwksResolver.forAgent(location, { fetch });
  strictEqual(resolver.agentUrl, "https://Seller.example/mcp");
  strictEqual(resolver.jwksUri, "https://k.example/j");
  throws(() => JwksResolver.forAgent(null as never), TypeError);
  throws(() => JwksResolver.forAgent({ agentUrl: "https://a.example" } as never), TypeError);
});

Deno.test("JwksResolver and StaticKeyResolver check their agentUrl option", () => {
  const jwksUri = "https://keys.example/jwks.json";
  strictEqual(
    new JwksResolver(jwksUri, { agentUrl: "http://a.example/x" }).agentUrl,
    "http://a.example/x",
  );
  strictEqual(new StaticKeyResolver([]).agentUrl, undefined);
  for (
    const bad of [
      "",
      "not a url",
      "mailto:a@example.com",
      42,
      "https://a.example/".padEnd(2049, "x"),
    ]
  ) {
    throws(() => new JwksResolver(jwksUri, { agentUrl: bad as never }), TypeError);
    throws(() => new StaticKeyResolver([], { agentUrl: bad as never }), TypeError);
  }
  throws(() => new StaticKeyResolver([], "x" as never), TypeError);
});
