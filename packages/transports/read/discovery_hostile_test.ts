// Hostile servers against adagents.json discovery, over real sockets on 127.0.0.1. Each virtual
// host (`pub.test`, `evil.test` ...) is its own Deno.serve server on its own port; the `fetch`
// given to the library plays DNS and TLS: it dials the named host's port on 127.0.0.1 over plain
// HTTP, as a fetch pinned to a validated address would (Security, "Webhook URL validation
// (SSRF)", step 3). Every host counts the requests it receives, so "the off-domain hop MUST NOT be
// dialed" is checked on the server side. Tests on the 127.0.0.1 URLs themselves use the allowHttp
// and allowReservedAddresses opt-ins. Every test is bounded in time and shuts its servers down.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { gzipZeros, lazyBody, netTest, rejection, within } from "../_test_utils.ts";
import {
  AdagentsDiscoveryError,
  type AdagentsDiscoveryReason,
  DeadlineExceededError,
  ResponseTooLargeError,
} from "../errors.ts";
import type { FetchLike } from "./bounded_fetch.ts";
import { discoverAdagents, fetchAdagentsJson } from "./fetch_adagents_json.ts";

const WK = "/.well-known/adagents.json";
const BOUND_MS = 20_000;
const FILE = { authorized_agents: [] };

type Handler = (request: Request) => Response | Promise<Response>;

interface Net {
  /** Resolves virtual host names to their local servers. */
  readonly fetch: FetchLike;
  /** Requests each host received (paths). */
  readonly hits: Record<string, string[]>;
  /** The local port of a host. */
  port(name: string): number;
}

/** Runs `fn` against one local server per named host, and always shuts them all down. */
async function withHosts(
  handlers: Record<string, Handler>,
  fn: (net: Net) => Promise<void>,
): Promise<void> {
  const hits: Record<string, string[]> = {};
  const servers = new Map<string, Deno.HttpServer<Deno.NetAddr>>();
  for (const [name, handler] of Object.entries(handlers)) {
    hits[name] = [];
    servers.set(
      name,
      Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
        const url = new URL(request.url);
        hits[name]!.push(url.pathname + url.search);
        return handler(request);
      }),
    );
  }
  const fetch: FetchLike = (input, init) => {
    const url = new URL(String(input));
    const server = servers.get(url.hostname);
    if (server === undefined) return Promise.reject(new TypeError("name does not resolve"));
    return globalThis.fetch(
      `http://127.0.0.1:${server.addr.port}${url.pathname}${url.search}`,
      init,
    );
  };
  const port = (name: string) => servers.get(name)!.addr.port;
  try {
    await fn({ fetch, hits, port });
  } finally {
    await Promise.all([...servers.values()].map((server) => server.shutdown()));
  }
}

const to = (location: string, status = 302) => (): Response =>
  new Response(null, { status, headers: { location } });
const file = (): Response => Response.json(FILE);

async function refusedWith(
  promise: Promise<unknown>,
  reason: AdagentsDiscoveryReason,
): Promise<AdagentsDiscoveryError> {
  const error = await rejection(promise);
  ok(error instanceof AdagentsDiscoveryError, `expected AdagentsDiscoveryError, got ${error}`);
  strictEqual(error.reason, reason);
  return error;
}

netTest("hostile: apex to www over real sockets is followed to the file", async () => {
  await within(
    BOUND_MS,
    withHosts(
      { "pub.test": to(`https://www.pub.test${WK}`, 301), "www.pub.test": file },
      async (net) => {
        const fetched = await fetchAdagentsJson("pub.test", { fetch: net.fetch });
        strictEqual(fetched.url, `https://www.pub.test${WK}`);
        deepStrictEqual(fetched.document, FILE);
        deepStrictEqual(net.hits, { "pub.test": [WK], "www.pub.test": [WK] });
      },
    ),
  );
});

netTest(
  "hostile: a cross-domain redirect is refused and the other domain gets no request",
  async () => {
    await within(
      BOUND_MS,
      withHosts({ "pub.test": to(`https://evil.test${WK}`), "evil.test": file }, async (net) => {
        await refusedWith(
          fetchAdagentsJson("pub.test", { fetch: net.fetch }),
          "cross_registrable_domain",
        );
        deepStrictEqual(net.hits["evil.test"], []);
      }),
    );
  },
);

netTest(
  "hostile: same then cross is refused at the second hop, anchored on the origin",
  async () => {
    await within(
      BOUND_MS,
      withHosts({
        "pub.test": to(`https://www.pub.test${WK}`, 301),
        "www.pub.test": to(`https://evil.test${WK}`),
        "evil.test": file,
      }, async (net) => {
        const error = await refusedWith(
          fetchAdagentsJson("pub.test", { fetch: net.fetch }),
          "cross_registrable_domain",
        );
        strictEqual(error.redirects, 1);
        deepStrictEqual(net.hits["www.pub.test"], [WK]);
        deepStrictEqual(net.hits["evil.test"], []);
      }),
    );
  },
);

netTest(
  "hostile: https to http is refused even with allowHttp, the http URL never dialed",
  async () => {
    await within(
      BOUND_MS,
      withHosts(
        { "pub.test": to(`http://www.pub.test${WK}`), "www.pub.test": file },
        async (net) => {
          await refusedWith(
            fetchAdagentsJson("pub.test", { fetch: net.fetch, allowHttp: true }),
            "scheme_downgrade",
          );
          deepStrictEqual(net.hits["www.pub.test"], []);
        },
      ),
    );
  },
);

netTest("hostile: a fourth redirect is refused and its target never dialed", async () => {
  await within(
    BOUND_MS,
    withHosts({
      "a.pub.test": to(`https://b.pub.test${WK}`, 301),
      "b.pub.test": to(`https://c.pub.test${WK}`, 302),
      "c.pub.test": to(`https://d.pub.test${WK}`, 307),
      "d.pub.test": to(`https://e.pub.test${WK}`, 308),
      "e.pub.test": file,
    }, async (net) => {
      const error = await refusedWith(
        fetchAdagentsJson("a.pub.test", { fetch: net.fetch }),
        "too_many_redirects",
      );
      deepStrictEqual([error.status, error.redirects], [308, 3]);
      deepStrictEqual(net.hits["d.pub.test"], [WK]);
      deepStrictEqual(net.hits["e.pub.test"], []);
    }),
  );
});

netTest("hostile: exactly three redirects resolve", async () => {
  await within(
    BOUND_MS,
    withHosts({
      "a.pub.test": to(`https://b.pub.test${WK}`, 301),
      "b.pub.test": to(`https://c.pub.test${WK}`, 302),
      "c.pub.test": to(`https://d.pub.test${WK}`, 303),
      "d.pub.test": file,
    }, async (net) => {
      const fetched = await fetchAdagentsJson("a.pub.test", { fetch: net.fetch });
      strictEqual(fetched.url, `https://d.pub.test${WK}`);
      deepStrictEqual(fetched.redirects.map((hop) => hop.status), [301, 302, 303]);
    }),
  );
});

netTest("hostile: a redirect loop is stopped by the cap after four requests", async () => {
  await within(
    BOUND_MS,
    withHosts({
      "pub.test": to(`https://www.pub.test${WK}`),
      "www.pub.test": to(`https://pub.test${WK}`),
    }, async (net) => {
      const started = performance.now();
      await refusedWith(fetchAdagentsJson("pub.test", { fetch: net.fetch }), "too_many_redirects");
      strictEqual(net.hits["pub.test"]!.length + net.hits["www.pub.test"]!.length, 4);
      ok(performance.now() - started < 5_000);
    }),
  );
});

netTest("hostile: a redirect to a reserved address is never dialed, opted in or not", async () => {
  // "127.0.0.1" is a live server: the resolver would reach it if the library asked.
  let secret = 0;
  await within(
    BOUND_MS,
    withHosts({
      "127.0.0.1": file,
      "pub.test": () => to(`https://127.0.0.1:${secret}/admin`)(),
      "www.pub.test": to("https://[::ffff:127.0.0.1]/admin"),
      "cdn.pub.test": to("https://0x7f.1/admin"),
    }, async (net) => {
      secret = net.port("127.0.0.1");
      for (const origin of ["pub.test", "www.pub.test", "cdn.pub.test"]) {
        await refusedWith(fetchAdagentsJson(origin, { fetch: net.fetch }), "reserved_address");
      }
      // Allowed as an address, 127.0.0.1 still has no registrable domain: still refused.
      await refusedWith(
        fetchAdagentsJson("pub.test", { fetch: net.fetch, allowReservedAddresses: true }),
        "cross_registrable_domain",
      );
      deepStrictEqual(net.hits["127.0.0.1"], []);
    }),
  );
});

netTest(
  "hostile: on 127.0.0.1 with the opt-ins, a file is read but no redirect followed",
  async () => {
    await within(
      BOUND_MS,
      withHosts({ here: file, there: file }, async (net) => {
        const options = { allowHttp: true, allowReservedAddresses: true };
        const direct = `http://127.0.0.1:${net.port("here")}${WK}`;
        deepStrictEqual((await fetchAdagentsJson(direct, options)).document, FILE);
        await withHosts({ hop: to(`http://127.0.0.1:${net.port("there")}${WK}`) }, async (hop) => {
          const origin = `http://127.0.0.1:${hop.port("hop")}${WK}`;
          await refusedWith(fetchAdagentsJson(origin, options), "no_registrable_domain");
        });
        deepStrictEqual(net.hits.there, []);
      }),
    );
  },
);

netTest("hostile: a fetch that follows redirects itself is caught by `redirected`", async () => {
  await within(
    BOUND_MS,
    withHosts({
      here: (request) => new URL(request.url).pathname === "/final" ? file() : to("/final")(),
    }, async (net) => {
      const following: FetchLike = (input, init) =>
        globalThis.fetch(input, { ...init, redirect: "follow" });
      const options = { fetch: following, allowHttp: true, allowReservedAddresses: true };
      await refusedWith(
        fetchAdagentsJson(`http://127.0.0.1:${net.port("here")}/start`, options),
        "followed_by_fetch",
      );
      deepStrictEqual(net.hits.here, ["/start", "/final"]);
    }),
  );
});

netTest("hostile: garbage, huge, relative and protocol-relative Locations", async () => {
  const cases: [string, AdagentsDiscoveryReason | "followed"][] = [
    ["/moved/adagents.json", "followed"],
    ["moved/adagents.json", "followed"],
    ["//www.pub.test/moved", "followed"],
    ["//evil.test/x", "cross_registrable_domain"],
    ["\\\\evil.test\\x", "cross_registrable_domain"],
    ["https://evil.test%2fx.pub.test/", "invalid_location"],
    ["https://exa mple.test/", "invalid_location"],
    ["https://[::1", "invalid_location"],
    ["https://www.pub.test/" + "a".repeat(16_000), "invalid_location"],
    ["https://www.pub.test/\u00e9", "invalid_location"],
    ["https://pub.test@evil.test/", "userinfo"],
  ];
  for (const [location, expected] of cases) {
    await within(
      BOUND_MS,
      withHosts({
        "pub.test": (request) => new URL(request.url).pathname === WK ? to(location)() : file(),
        "www.pub.test": file,
        "evil.test": file,
      }, async (net) => {
        const outcome = fetchAdagentsJson("pub.test", { fetch: net.fetch });
        if (expected === "followed") deepStrictEqual((await outcome).document, FILE);
        else await refusedWith(outcome, expected);
        deepStrictEqual(net.hits["evil.test"], [], location.slice(0, 40));
        if (expected !== "followed") deepStrictEqual(net.hits["www.pub.test"], []);
      }),
    );
  }
});

netTest("hostile: 300, 304, 305 and 306 are not followed", async () => {
  for (const status of [300, 304, 305, 306]) {
    await within(
      BOUND_MS,
      withHosts(
        { "pub.test": to(`https://www.pub.test${WK}`, status), "www.pub.test": file },
        async (net) => {
          const error = await refusedWith(
            fetchAdagentsJson("pub.test", { fetch: net.fetch }),
            "unsupported_redirect_status",
          );
          strictEqual(error.status, status);
          deepStrictEqual(net.hits["www.pub.test"], []);
        },
      ),
    );
  }
});

netTest("hostile: a 5 MB + 1 body is refused at the cap, and 5 MB exactly is read", async () => {
  const exact = "{}" + " ".repeat(4_999_998);
  const server = lazyBody(5_000_001, 65_536, (chunk) => chunk.fill(0x20));
  await within(
    BOUND_MS,
    withHosts({
      "over.test": () => new Response(server.body),
      "declared.test": () => new Response(exact + " "),
      "exact.test": () => new Response(exact),
    }, async (net) => {
      const over = await rejection(fetchAdagentsJson("over.test", { fetch: net.fetch }));
      ok(over instanceof ResponseTooLargeError, String(over));
      deepStrictEqual([over.limit, over.phase], [5_000_000, "raw"]);
      await server.cancelled;
      const declared = await rejection(fetchAdagentsJson("declared.test", { fetch: net.fetch }));
      ok(declared instanceof ResponseTooLargeError);
      deepStrictEqual([declared.phase, declared.observed], ["content-length", 5_000_001]);
      deepStrictEqual((await fetchAdagentsJson("exact.test", { fetch: net.fetch })).document, {});
    }),
  );
});

netTest("hostile: a pointer to a 6 MB authoritative file is read under the 20 MB cap", async () => {
  await within(
    BOUND_MS,
    withHosts({
      "pub.test": () => Response.json({ authoritative_location: "https://net.test/a.json" }),
      "net.test": () => new Response('{"authorized_agents":[]}' + " ".repeat(6_000_000)),
    }, async (net) => {
      const found = await discoverAdagents("pub.test", { fetch: net.fetch });
      deepStrictEqual(found.document, FILE);
      strictEqual(found.url, "https://net.test/a.json");
    }),
  );
});

netTest("hostile: a gzip bomb is cut at 5,000,000 decoded bytes", async () => {
  const bomb = await gzipZeros(64 * 1_048_576);
  await within(
    BOUND_MS,
    withHosts({
      "pub.test": () => new Response(bomb, { headers: { "content-encoding": "gzip" } }),
    }, async (net) => {
      const error = await rejection(fetchAdagentsJson("pub.test", { fetch: net.fetch }));
      ok(error instanceof ResponseTooLargeError, String(error));
      deepStrictEqual([error.phase, error.limit], ["decoded", 5_000_000]);
    }),
  );
});

/** A body that sends `{"a":"` and then one byte every `everyMs` until cancelled. */
function drip(everyMs: number): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let first = true;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (first) {
        first = false;
        controller.enqueue(new TextEncoder().encode('{"a":"'));
        return;
      }
      return new Promise((resolve) => {
        timer = setTimeout(() => {
          controller.enqueue(new Uint8Array([0x61]));
          resolve();
        }, everyMs);
      });
    },
    cancel() {
      clearTimeout(timer);
    },
  }, { highWaterMark: 0 });
}

netTest("hostile: a slow-drip body is cut by the operation's deadline", async () => {
  await within(
    BOUND_MS,
    withHosts({ "pub.test": () => new Response(drip(50)) }, async (net) => {
      const started = performance.now();
      const error = await rejection(
        fetchAdagentsJson("pub.test", { fetch: net.fetch, limits: { timeoutMs: 500 } }),
      );
      const elapsed = performance.now() - started;
      ok(error instanceof DeadlineExceededError, String(error));
      ok(elapsed >= 450 && elapsed < 3_000, `elapsed ${elapsed} ms`);
    }),
  );
});

netTest("hostile: the deadline covers every hop together, not each hop", async () => {
  const slow = (handler: Handler): Handler => async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return handler(request);
  };
  await within(
    BOUND_MS,
    withHosts({
      "a.pub.test": slow(to(`https://b.pub.test${WK}`)),
      "b.pub.test": slow(to(`https://c.pub.test${WK}`)),
      "c.pub.test": slow(to(`https://d.pub.test${WK}`)),
      "d.pub.test": slow(file),
    }, async (net) => {
      // Each answer takes 300 ms, well under 800: only a deadline over the whole chain fires.
      const started = performance.now();
      const error = await rejection(
        fetchAdagentsJson("a.pub.test", { fetch: net.fetch, limits: { timeoutMs: 800 } }),
      );
      const elapsed = performance.now() - started;
      ok(error instanceof DeadlineExceededError, String(error));
      ok(elapsed < 1_150, `elapsed ${elapsed} ms: the chain needed 1200 ms`);
      const fetched = await fetchAdagentsJson("a.pub.test", {
        fetch: net.fetch,
        limits: { timeoutMs: 3_000 },
      });
      strictEqual(fetched.redirects.length, 3);
    }),
  );
});
