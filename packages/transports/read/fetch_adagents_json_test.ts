import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { AdcpWireError } from "@adcp-wire/internal";
import { DuplicateKeyError, isReservedAddress } from "@adcp-wire/security";
import {
  AdagentsDiscoveryError,
  type AdagentsDiscoveryReason,
  DeadlineExceededError,
  HttpStatusError,
  JsonDepthLimitError,
  MalformedJsonError,
  MalformedUtf8Error,
  NetworkError,
  ResponseTooLargeError,
} from "../errors.ts";
import { authorityHasAt, nextHop } from "./_adagents_fetch.ts";
import { registrableDomain } from "./_registrable_domain.ts";
import type { FetchLike } from "./bounded_fetch.ts";
import {
  ADAGENTS_AUTHORITATIVE_MAX_BYTES,
  ADAGENTS_MAX_REDIRECTS,
  ADAGENTS_POINTER_MAX_BYTES,
  ADAGENTS_TIMEOUT_MS,
  discoverAdagents,
  fetchAdagentsJson,
  type FetchAdagentsJsonOptions,
  fetchAuthoritativeAdagentsJson,
} from "./fetch_adagents_json.ts";

const WK = "/.well-known/adagents.json";
const FILE = { authorized_agents: [] };

/** A response per URL; every request is recorded with its init. */
function sites(routes: Record<string, () => Response>): {
  fetch: FetchLike;
  calls: { url: string; init: RequestInit | undefined }[];
} {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetch: FetchLike = (input, init) => {
    const url = String(input);
    calls.push({ url, init });
    const route = Object.hasOwn(routes, url) ? routes[url] : undefined;
    return Promise.resolve(route === undefined ? new Response(null, { status: 404 }) : route());
  };
  return { fetch, calls };
}

const redirect = (status: number, location?: string) => () =>
  new Response(null, { status, headers: location === undefined ? {} : { location } });
const json = (value: unknown) => () => Response.json(value);

async function refusal(promise: Promise<unknown>): Promise<AdagentsDiscoveryError> {
  const error = await promise.then(() => undefined, (thrown: unknown) => thrown);
  ok(error instanceof AdagentsDiscoveryError, `expected AdagentsDiscoveryError, got ${error}`);
  strictEqual(error.code, "ADAGENTS_DISCOVERY");
  return error;
}

Deno.test("the limits are the spec's figures", () => {
  strictEqual(ADAGENTS_POINTER_MAX_BYTES, 5_000_000);
  strictEqual(ADAGENTS_AUTHORITATIVE_MAX_BYTES, 20_000_000);
  strictEqual(ADAGENTS_MAX_REDIRECTS, 3);
  strictEqual(ADAGENTS_TIMEOUT_MS, 10_000);
});

Deno.test("fetchAdagentsJson() requests https://<domain>/.well-known/adagents.json", async () => {
  const { fetch, calls } = sites({ [`https://pub.example${WK}`]: json(FILE) });
  const fetched = await fetchAdagentsJson("pub.example", { fetch });
  deepStrictEqual(fetched, {
    url: `https://pub.example${WK}`,
    requestedUrl: `https://pub.example${WK}`,
    document: FILE,
    redirects: [],
  });
  strictEqual(calls.length, 1);
  const init = calls[0]!.init!;
  strictEqual(init.method, "GET");
  strictEqual(init.redirect, "manual");
  strictEqual(init.credentials, "omit");
  ok(init.signal instanceof AbortSignal);
});

Deno.test("fetchAdagentsJson() takes a URL, drops its fragment and one root dot", async () => {
  const { fetch, calls } = sites({ [`https://pub.example${WK}`]: json(FILE) });
  await fetchAdagentsJson(new URL(`https://PUB.example.${WK}#x`), { fetch });
  await fetchAdagentsJson("pub.example.", { fetch });
  deepStrictEqual(calls.map((call) => call.url), [
    `https://pub.example${WK}`,
    `https://pub.example${WK}`,
  ]);
});

Deno.test("fetchAdagentsJson() records each redirect it follows", async () => {
  const { fetch } = sites({
    [`https://pub.example${WK}`]: redirect(301, `https://www.pub.example${WK}`),
    [`https://www.pub.example${WK}`]: redirect(308, "/v2/adagents.json#frag"),
    "https://www.pub.example/v2/adagents.json": json(FILE),
  });
  const fetched = await fetchAdagentsJson("pub.example", { fetch });
  strictEqual(fetched.url, "https://www.pub.example/v2/adagents.json");
  deepStrictEqual(fetched.redirects, [
    { status: 301, from: `https://pub.example${WK}`, to: `https://www.pub.example${WK}` },
    {
      status: 308,
      from: `https://www.pub.example${WK}`,
      to: "https://www.pub.example/v2/adagents.json",
    },
  ]);
});

Deno.test("fetchAdagentsJson() refuses a malformed or unsafe domain unrequested", async () => {
  const cases: [string, AdagentsDiscoveryReason][] = [
    ["", "invalid_url"],
    ["pub.example/path", "invalid_url"],
    ["pub.example?q", "invalid_url"],
    ["user@pub.example", "invalid_url"],
    ["pub example", "invalid_url"],
    ["pub.example\n", "invalid_url"],
    ["a..pub.example", "invalid_url"],
    ["pub.example..", "invalid_url"],
    ["x".repeat(3_000), "invalid_url"],
    ["https://user:pass@pub.example/", "userinfo"],
    ["https://@pub.example/", "userinfo"],
    ["http://pub.example/", "not_https"],
    ["ftp://pub.example/", "not_https"],
    ["localhost", "reserved_address"],
    ["127.0.0.1", "reserved_address"],
    ["[::1]", "reserved_address"],
    ["169.254.169.254", "reserved_address"],
    ["https://10.0.0.1/x", "reserved_address"],
  ];
  for (const [input, reason] of cases) {
    const { fetch, calls } = sites({});
    const error = await refusal(fetchAdagentsJson(input, { fetch }));
    strictEqual(error.reason, reason, JSON.stringify(input));
    strictEqual(error.status, undefined);
    strictEqual(calls.length, 0, JSON.stringify(input));
    // The message depends on the reason only: it never echoes the input.
    strictEqual(error.message, new AdagentsDiscoveryError(reason).message);
  }
});

Deno.test("fetchAdagentsJson() allows http and reserved hosts only when opted in", async () => {
  const { fetch } = sites({ "http://127.0.0.1:8080/x": json(FILE) });
  strictEqual(
    (await refusal(fetchAdagentsJson("http://127.0.0.1:8080/x", { fetch }))).reason,
    "not_https",
  );
  strictEqual(
    (await refusal(fetchAdagentsJson("http://127.0.0.1:8080/x", { fetch, allowHttp: true })))
      .reason,
    "reserved_address",
  );
  const options = { fetch, allowHttp: true, allowReservedAddresses: true };
  deepStrictEqual((await fetchAdagentsJson("http://127.0.0.1:8080/x", options)).document, FILE);
});

Deno.test("fetchAdagentsJson() checks its options before any request", async () => {
  const { fetch, calls } = sites({});
  await rejects(fetchAdagentsJson(42 as unknown as string, { fetch }), {
    name: "TypeError",
    message: "Cannot fetch adagents.json as 'domainOrUrl' must be a domain or URL string, or a " +
      "URL: current value is 42",
  });
  const expectations: [unknown, string, string][] = [
    [null, "TypeError", "options"],
    [{ fetch: "fetch" }, "TypeError", "options.fetch"],
    [{ allowHttp: 1 }, "TypeError", "options.allowHttp"],
    [{ allowReservedAddresses: "yes" }, "TypeError", "options.allowReservedAddresses"],
    [{ maxRedirects: "3" }, "TypeError", "options.maxRedirects"],
    [{ maxRedirects: 4 }, "RangeError", "options.maxRedirects"],
    [{ maxRedirects: -1 }, "RangeError", "options.maxRedirects"],
    [{ maxRedirects: 1.5 }, "RangeError", "options.maxRedirects"],
    [{ limits: 5 }, "TypeError", "options.limits"],
    [{ limits: { maxResponseBytes: 5_000_001 } }, "RangeError", "options.limits.maxResponseBytes"],
    [{ limits: { maxDecodedBytes: 5_000_001 } }, "RangeError", "options.limits.maxDecodedBytes"],
    [{ limits: { timeoutMs: 10_001 } }, "RangeError", "options.limits.timeoutMs"],
    [{ limits: { timeoutMs: 0 } }, "RangeError", "options.limits.timeoutMs"],
    [{ limits: { signal: {} } }, "TypeError", "options.limits.signal"],
  ];
  for (const [options, name, option] of expectations) {
    const settings = options === null ? null : { fetch, ...options as object };
    await rejects(
      fetchAdagentsJson("pub.example", settings as FetchAdagentsJsonOptions),
      (error: Error) => {
        strictEqual(error.name, name, option);
        ok(error.message.includes(`'${option}'`), error.message);
        return true;
      },
    );
  }
  strictEqual(calls.length, 0);
});

Deno.test("fetchAdagentsJson() names the spec's cap in its RangeErrors", async () => {
  await rejects(fetchAdagentsJson("pub.example", { maxRedirects: 4 }), {
    name: "RangeError",
    message: "Cannot fetch adagents.json as 'options.maxRedirects' must be at most 3 (the spec " +
      "caps the chain at 3 hops): current value is 4",
  });
  await rejects(fetchAdagentsJson("pub.example", { limits: { timeoutMs: 30_000 } }), {
    name: "RangeError",
    message:
      "Cannot fetch adagents.json as 'options.limits.timeoutMs' must be at most 10000 (the " +
      "spec's 10 s connect and read timeouts): current value is 30000",
  });
});

Deno.test("fetchAdagentsJson() names the rule that refused a hop, and never dials it", async () => {
  const cases: [string, number, string | undefined, AdagentsDiscoveryReason][] = [
    ["pub.example", 302, "https://169.254.169.254/latest/meta-data/", "reserved_address"],
    ["pub.example", 302, "https://[::ffff:7f00:1]/", "reserved_address"],
    ["pub.example", 302, "https://www.localhost/", "reserved_address"],
    ["pub.example", 302, "//user@www.pub.example/", "userinfo"],
    ["pub.example", 302, "https://pub.example@evil.example/", "userinfo"],
    ["pub.example", 302, "http://www.pub.example/", "scheme_downgrade"],
    ["pub.example", 302, "data:application/json,{}", "scheme_downgrade"],
    ["pub.example", 302, undefined, "invalid_location"],
    ["pub.example", 302, "https://www.pub.example./", "invalid_location"],
    ["pub.example", 302, `https://www.pub.example/${"a".repeat(2_100)}`, "invalid_location"],
    ["pub.example", 302, "https://www.pub.example/a, https://evil.example/", "invalid_location"],
    ["pub.example", 302, "//evil.example/x", "cross_registrable_domain"],
    ["pub.example", 302, "https://93.184.216.34/", "cross_registrable_domain"],
    ["victim.github.io", 302, "https://attacker.github.io/", "cross_registrable_domain"],
    ["victim.github.io", 302, "https://github.io/", "cross_registrable_domain"],
    ["co.uk", 301, "https://www.co.uk/", "no_registrable_domain"],
    ["93.184.216.34", 301, "/other", "no_registrable_domain"],
    ["pub.example", 300, "https://www.pub.example/", "unsupported_redirect_status"],
    ["pub.example", 305, "https://www.pub.example/", "unsupported_redirect_status"],
  ];
  for (const [origin, status, location, reason] of cases) {
    const { fetch, calls } = sites({ [`https://${origin}${WK}`]: redirect(status, location) });
    const error = await refusal(fetchAdagentsJson(origin, { fetch }));
    deepStrictEqual([error.reason, error.status, error.redirects], [reason, status, 0], location);
    strictEqual(calls.length, 1, location);
  }
});

Deno.test("fetchAdagentsJson() follows at most maxRedirects redirects", async () => {
  const { fetch, calls } = sites({
    [`https://a.pub.example${WK}`]: redirect(302, `https://b.pub.example${WK}`),
    [`https://b.pub.example${WK}`]: redirect(302, `https://c.pub.example${WK}`),
    [`https://c.pub.example${WK}`]: json(FILE),
  });
  const zero = await refusal(fetchAdagentsJson("a.pub.example", { fetch, maxRedirects: 0 }));
  deepStrictEqual([zero.reason, zero.status, zero.redirects], ["too_many_redirects", 302, 0]);
  const one = await refusal(fetchAdagentsJson("a.pub.example", { fetch, maxRedirects: 1 }));
  deepStrictEqual([one.reason, one.redirects], ["too_many_redirects", 1]);
  strictEqual(
    (await fetchAdagentsJson("a.pub.example", { fetch, maxRedirects: 2 })).redirects.length,
    2,
  );
  ok(!calls.some((call) => call.url === `https://c.pub.example${WK}` && calls.indexOf(call) < 3));
});

Deno.test("fetchAdagentsJson() cancels the body of every redirect it sees", async () => {
  const cancelled: string[] = [];
  const body = (name: string) =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        cancelled.push(name);
      },
    });
  const { fetch } = sites({
    [`https://pub.example${WK}`]: () =>
      new Response(body("followed"), {
        status: 301,
        headers: { location: `https://www.pub.example${WK}` },
      }),
    [`https://www.pub.example${WK}`]: () =>
      new Response(body("refused"), {
        status: 302,
        headers: { location: "https://evil.example/" },
      }),
  });
  await refusal(fetchAdagentsJson("pub.example", { fetch }));
  deepStrictEqual(cancelled, ["followed", "refused"]);
});

Deno.test("fetchAdagentsJson() refuses a browser's opaque redirect", async () => {
  const opaque = () => {
    const response = new Response(null, { status: 200 });
    Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 } });
    return response;
  };
  const { fetch } = sites({
    [`https://pub.example${WK}`]: opaque,
    "https://net.example/a": opaque,
  });
  strictEqual(
    (await refusal(fetchAdagentsJson("pub.example", { fetch }))).reason,
    "opaque_redirect",
  );
  strictEqual(
    (await refusal(fetchAuthoritativeAdagentsJson("https://net.example/a", { fetch }))).reason,
    "redirect_on_authoritative_location",
  );
});

Deno.test("fetchAdagentsJson() refuses an answer its fetch got by redirecting", async () => {
  const followed = () => {
    const response = Response.json(FILE);
    Object.defineProperty(response, "redirected", { value: true });
    return response;
  };
  const { fetch } = sites({ [`https://pub.example${WK}`]: followed });
  const error = await refusal(fetchAdagentsJson("pub.example", { fetch }));
  deepStrictEqual([error.reason, error.status], ["followed_by_fetch", 200]);
});

Deno.test("fetchAdagentsJson() maps statuses: 2xx read, 5xx and 4xx HttpStatusError", async () => {
  const { fetch } = sites({
    "https://a.example/x": () => new Response("busy", { status: 503 }),
    "https://b.example/x": () => new Response(null, { status: 404 }),
    "https://c.example/x": () => new Response(JSON.stringify(FILE), { status: 203 }),
  });
  await rejects(fetchAdagentsJson("https://a.example/x", { fetch }), (error) => {
    ok(error instanceof HttpStatusError);
    strictEqual(error.status, 503);
    strictEqual(error.adcpError?.recovery, "transient");
    return true;
  });
  await rejects(fetchAdagentsJson("https://b.example/x", { fetch }), { status: 404 });
  deepStrictEqual((await fetchAdagentsJson("https://c.example/x", { fetch })).document, FILE);
});

Deno.test("fetchAdagentsJson() parses the body strictly and requires an object", async () => {
  const bodies: [BodyInit | null, (error: unknown) => boolean][] = [
    ["[]", (e) => e instanceof AdagentsDiscoveryError && e.reason === "not_an_object"],
    ['"x"', (e) => e instanceof AdagentsDiscoveryError && e.reason === "not_an_object"],
    ["null", (e) => e instanceof AdagentsDiscoveryError && e.reason === "not_an_object"],
    ['{"a":1,"a":2}', (e) => e instanceof DuplicateKeyError && e.code === "duplicate_key_input"],
    ['{"a":[{"b":1,"\\u0062":2}]}', (e) => e instanceof DuplicateKeyError],
    ["{", (e) => e instanceof MalformedJsonError && e.reason === "syntax"],
    ["", (e) => e instanceof MalformedJsonError],
    [null, (e) => e instanceof MalformedJsonError],
    [new Uint8Array([0x7b, 0xff, 0x7d]), (e) => e instanceof MalformedUtf8Error],
    ["[".repeat(100) + "]".repeat(100), (e) => e instanceof JsonDepthLimitError],
  ];
  for (const [body, check] of bodies) {
    const { fetch } = sites({ [`https://pub.example${WK}`]: () => new Response(body) });
    const error = await fetchAdagentsJson("pub.example", { fetch }).catch((e: unknown) => e);
    ok(check(error), `${String(body).slice(0, 20)}: ${error}`);
  }
  const { fetch } = sites({
    [`https://pub.example${WK}`]: () => new Response('\ufeff{"__proto__":1}'),
  });
  const { document } = await fetchAdagentsJson("pub.example", { fetch });
  ok(Object.hasOwn(document, "__proto__"), "a __proto__ key is data");
});

Deno.test("fetchAdagentsJson() caps the pointer file at 5,000,000 bytes", async () => {
  const padded = (size: number) => "{}" + " ".repeat(size - 2);
  const { fetch } = sites({
    "https://exact.example/x": () => new Response(padded(5_000_000)),
    "https://over.example/x": () => new Response(padded(5_000_001)),
    "https://declared.example/x": () =>
      new Response("{}", { headers: { "content-length": "5000001" } }),
  });
  deepStrictEqual((await fetchAdagentsJson("https://exact.example/x", { fetch })).document, {});
  await rejects(fetchAdagentsJson("https://over.example/x", { fetch }), (error) => {
    ok(error instanceof ResponseTooLargeError);
    strictEqual(error.limit, 5_000_000);
    ok(error.phase === "raw" || error.phase === "decoded");
    return true;
  });
  await rejects(fetchAdagentsJson("https://declared.example/x", { fetch }), {
    phase: "content-length",
    limit: 5_000_000,
  });
  await rejects(
    fetchAdagentsJson("https://exact.example/x", { fetch, limits: { maxResponseBytes: 1_000 } }),
    { code: "RESPONSE_TOO_LARGE", limit: 1_000 },
  );
});

Deno.test("fetchAuthoritativeAdagentsJson() caps at 20,000,000 bytes, or more", async () => {
  const { fetch } = sites({
    "https://net.example/big": () => new Response("{}" + " ".repeat(6_000_000)),
    "https://net.example/declared": () =>
      new Response("{}", { headers: { "content-length": "20000001" } }),
  });
  deepStrictEqual(
    (await fetchAuthoritativeAdagentsJson("https://net.example/big", { fetch })).document,
    {},
  );
  await rejects(fetchAuthoritativeAdagentsJson("https://net.example/declared", { fetch }), {
    phase: "content-length",
    limit: 20_000_000,
  });
  // Raised per call: the same declared length now passes the pre-check.
  const raised = { fetch, limits: { maxResponseBytes: 30_000_000 } };
  deepStrictEqual(
    (await fetchAuthoritativeAdagentsJson("https://net.example/declared", raised)).document,
    {},
  );
  await rejects(fetchAdagentsJson("https://net.example/big", { fetch }), ResponseTooLargeError);
});

Deno.test("fetchAuthoritativeAdagentsJson() refuses any redirect, a nested pointer", async () => {
  for (const status of [301, 302, 303, 307, 308]) {
    const { fetch, calls } = sites({
      "https://net.example/a": redirect(status, "https://net.example/b"),
      "https://net.example/b": json(FILE),
    });
    const error = await refusal(fetchAuthoritativeAdagentsJson("https://net.example/a", { fetch }));
    deepStrictEqual([error.reason, error.status], ["redirect_on_authoritative_location", status]);
    strictEqual(calls.length, 1);
  }
  const { fetch } = sites({
    "https://net.example/a": json({ authoritative_location: "https://net.example/b" }),
    "https://net.example/c": redirect(300, "https://net.example/b"),
  });
  const nested = await refusal(fetchAuthoritativeAdagentsJson("https://net.example/a", { fetch }));
  strictEqual(nested.reason, "nested_authoritative_location");
  const other = await refusal(fetchAuthoritativeAdagentsJson("https://net.example/c", { fetch }));
  strictEqual(other.reason, "unsupported_redirect_status");
  await rejects(fetchAuthoritativeAdagentsJson({} as unknown as string, { fetch }), TypeError);
  strictEqual(
    (await refusal(fetchAuthoritativeAdagentsJson("net.example/a", { fetch }))).reason,
    "invalid_url",
  );
});

Deno.test("fetchAdagentsJson() reports a failed request as a causeless NetworkError", async () => {
  const secret = "connect ECONNREFUSED 10.1.2.3:443 (internal-db.corp)";
  const rejecting: FetchLike = () => Promise.reject(new TypeError(secret));
  const throwing: FetchLike = () => {
    throw new TypeError(secret);
  };
  for (const fetch of [rejecting, throwing]) {
    await rejects(fetchAdagentsJson("pub.example", { fetch }), (error) => {
      ok(error instanceof NetworkError);
      ok(!error.message.includes("internal"));
      return true;
    });
  }
  const notResponse = (() => Promise.resolve({ status: 200 })) as unknown as FetchLike;
  await rejects(fetchAdagentsJson("pub.example", { fetch: notResponse }), TypeError);
});

Deno.test("fetchAdagentsJson() bounds a fetch that never answers by the deadline", async () => {
  let signal: AbortSignal | undefined;
  const hang: FetchLike = (_input, init) => {
    signal = init?.signal ?? undefined;
    return new Promise(() => {});
  };
  const started = performance.now();
  await rejects(
    fetchAdagentsJson("pub.example", { fetch: hang, limits: { timeoutMs: 50 } }),
    (error) => {
      ok(error instanceof DeadlineExceededError);
      strictEqual(error.timeoutMs, 50);
      return true;
    },
  );
  ok(performance.now() - started < 2_000);
  strictEqual(signal?.aborted, true, "the fetch's signal was aborted");
});

Deno.test("fetchAdagentsJson() passes the caller's abort reason through", async () => {
  const controller = new AbortController();
  const reason = new Error("caller stopped");
  const hang: FetchLike = () => new Promise(() => {});
  const pending = fetchAdagentsJson("pub.example", {
    fetch: hang,
    limits: { signal: controller.signal },
  });
  controller.abort(reason);
  await rejects(pending, (error) => error === reason);
});

Deno.test("discoverAdagents() returns an inline file as it is", async () => {
  const { fetch, calls } = sites({ [`https://pub.example${WK}`]: json(FILE) });
  const found = await discoverAdagents("pub.example", { fetch });
  strictEqual(found.authoritative, undefined);
  strictEqual(found.document, found.wellKnown.document);
  strictEqual(found.url, `https://pub.example${WK}`);
  strictEqual(calls.length, 1);
});

Deno.test("discoverAdagents() follows a pointer once, under the authoritative policy", async () => {
  const big = { authorized_agents: [], pad: "x".repeat(5_000) };
  const { fetch, calls } = sites({
    [`https://pub.example${WK}`]: redirect(301, `https://www.pub.example${WK}`),
    [`https://www.pub.example${WK}`]: json({
      authoritative_location: "https://net.example/a.json",
    }),
    "https://net.example/a.json": json(big),
  });
  // The pointer's byte cap does not carry over to the authoritative file.
  const found = await discoverAdagents("pub.example", {
    fetch,
    limits: { maxResponseBytes: 1_000 },
  });
  strictEqual(found.url, "https://net.example/a.json");
  deepStrictEqual(found.document, big);
  strictEqual(found.wellKnown.redirects.length, 1);
  deepStrictEqual(found.authoritative?.redirects, []);
  strictEqual(calls.length, 3);
  await rejects(
    discoverAdagents("pub.example", { fetch, authoritativeLimits: { maxResponseBytes: 1_000 } }),
    { code: "RESPONSE_TOO_LARGE", limit: 1_000 },
  );
});

Deno.test("discoverAdagents() refuses a bad authoritative_location unrequested", async () => {
  const cases: [unknown, AdagentsDiscoveryReason][] = [
    [42, "invalid_url"],
    [null, "invalid_url"],
    ["not a url", "invalid_url"],
    ["http://net.example/a", "not_https"],
    ["https://169.254.169.254/a", "reserved_address"],
    ["https://user@net.example/a", "userinfo"],
    ["https://net.example/redirects", "redirect_on_authoritative_location"],
    ["https://net.example/nested", "nested_authoritative_location"],
  ];
  for (const [location, reason] of cases) {
    const { fetch, calls } = sites({
      [`https://pub.example${WK}`]: json({ authoritative_location: location }),
      "https://net.example/redirects": redirect(302, "https://net.example/b"),
      "https://net.example/nested": json({ authoritative_location: "https://net.example/b" }),
    });
    const error = await refusal(discoverAdagents("pub.example", { fetch }));
    strictEqual(error.reason, reason, String(location));
    ok(calls.every((call) => call.url !== "https://net.example/b"));
    ok(calls.length <= 2);
  }
});

Deno.test("discoverAdagents() checks both sets of limits before any request", async () => {
  const { fetch, calls } = sites({});
  await rejects(
    discoverAdagents("pub.example", { fetch, authoritativeLimits: { timeoutMs: 20_000 } }),
    { name: "RangeError" },
  );
  await rejects(
    discoverAdagents("pub.example", {
      fetch,
      authoritativeLimits: "big" as unknown as Record<string, never>,
    }),
    { name: "TypeError" },
  );
  strictEqual(calls.length, 0);
});

Deno.test("nextHop() anchors on the origin's registrable domain, not the previous hop", () => {
  const policy = { allowHttp: false, allowReservedAddresses: false };
  const anchor = registrableDomain("pub.example");
  const current = new URL(`https://www.pub.example${WK}`);
  deepStrictEqual(nextHop("https://attacker.example/", current, anchor, policy), {
    ok: false,
    reason: "cross_registrable_domain",
  });
  const hop = nextHop("https://cdn.pub.example/x#f", current, anchor, policy);
  ok(hop.ok);
  strictEqual(hop.url.href, "https://cdn.pub.example/x");
  // allowHttp tolerates http to http, never https to http.
  const lax = { allowHttp: true, allowReservedAddresses: false };
  strictEqual(nextHop("http://www.pub.example/", current, anchor, lax).ok, false);
  strictEqual(
    nextHop("http://www.pub.example/", new URL("http://pub.example/"), anchor, lax).ok,
    true,
  );
  strictEqual(
    nextHop("https://www.pub.example/", new URL("http://pub.example/"), anchor, lax).ok,
    true,
  );
});

Deno.test("authorityHasAt() finds userinfo however the authority is spelled", () => {
  for (const text of ["https://u@h/", "//u@h", "\\\\u@h", "https:@h", "https:/\\u:p@h/x"]) {
    strictEqual(authorityHasAt(text), true, text);
  }
  for (const text of ["https://h/@x", "/@x", "@x", "https://h?@", "https://h#@", "a/@b"]) {
    strictEqual(authorityHasAt(text), false, text);
  }
});

/** Locations a hostile server might send, from the origin https://pub.example. */
const LOCATIONS = fc.oneof(
  fc.constantFrom(
    `https://www.pub.example${WK}`,
    `https://pub.example${WK}`,
    "/relative",
    "relative",
    "//evil.example/x",
    "\\\\evil.example\\x",
    "https://pub.example@evil.example/",
    "http://www.pub.example/",
    "https://169.254.169.254/",
    "https://[::ffff:127.0.0.1]/",
    "https://0x7f.1/",
    "https://www.localhost/",
    "https://www.pub.example./",
    "https://pub.example:8443/",
    "https://PUB.EXAMPLE/x",
    "https://evil.example/",
    "https://93.184.216.34/",
    "https://example/",
    "javascript:alert(1)",
    "data:text/plain,x",
    "https://[::1",
    "",
  ),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.string({ maxLength: 40 }),
);
const STATUSES = fc.constantFrom(200, 300, 301, 302, 303, 304, 305, 306, 307, 308, 399, 404, 500);

Deno.test("property: a chain dials at most 4 https URLs, all on the origin's domain", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ status: STATUSES, location: fc.option(LOCATIONS) }), { maxLength: 6 }),
      async (chain) => {
        const dialed: string[] = [];
        let index = 0;
        const fetch: FetchLike = (input) => {
          dialed.push(String(input));
          const hop = chain[index++];
          if (hop === undefined || hop.status === 200) return Promise.resolve(Response.json(FILE));
          const headers = new Headers();
          try {
            if (hop.location !== null) headers.set("location", hop.location);
          } catch {
            // A value Headers refuses (a control character) is a missing Location.
          }
          return Promise.resolve(new Response(null, { status: hop.status, headers }));
        };
        const outcome = await fetchAdagentsJson("pub.example", { fetch }).catch((e: unknown) => e);
        ok(dialed.length <= 4, `${dialed.length} requests`);
        for (const url of dialed) {
          const parsed = new URL(url);
          strictEqual(parsed.protocol, "https:");
          strictEqual(registrableDomain(parsed.hostname), "pub.example", url);
          ok(!isReservedAddress(parsed.hostname));
          strictEqual(parsed.username + parsed.password, "");
        }
        if (outcome instanceof Error) {
          ok(
            outcome instanceof AdagentsDiscoveryError || outcome instanceof HttpStatusError,
            String(outcome),
          );
        } else {
          strictEqual((outcome as { url: string }).url, dialed.at(-1));
        }
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("property: any body gives an object or a family error, never a crash", async () => {
  const bodies = fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify(value) ?? "null"),
    fc.anything().map((value) => {
      try {
        return JSON.stringify(value) ?? "";
      } catch {
        return "";
      }
    }),
    fc.string(),
    fc.uint8Array({ maxLength: 64 }),
  );
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => {
      const fetch: FetchLike = () => Promise.resolve(new Response(body as BodyInit));
      const outcome = await fetchAdagentsJson("pub.example", { fetch }).catch((e: unknown) => e);
      if (outcome instanceof Error) ok(outcome instanceof AdcpWireError, String(outcome));
      else {
        const { document } = outcome as { document: unknown };
        ok(typeof document === "object" && document !== null && !Array.isArray(document));
      }
    }),
    { numRuns: 300 },
  );
});
