// resolveAgentJwksUri against local servers: the brand.json shapes, the one redirect, and what a
// hostile operator can send.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { resolveAgentJwksUri } from "./agent_keys.ts";
import { AgentKeyDiscoveryError } from "./errors.ts";
import { JwksError } from "./errors.ts";

const LOCAL = { allowHttp: true, allowReservedAddresses: true } as const;

/** A server answering `routes[path]` (JSON or a Response), recording the paths requested. */
function serve(routes: Record<string, (origin: string) => unknown>) {
  const seen: string[] = [];
  let origin = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    seen.push(path);
    const route = routes[path];
    if (route === undefined) return new Response(null, { status: 404 });
    const answer = route(origin);
    return answer instanceof Response ? answer : Response.json(answer);
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, seen, close: () => server.shutdown() };
}

/** What `promise` rejects with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

function reason(expected: string) {
  return (error: unknown) => error instanceof AgentKeyDiscoveryError && error.reason === expected;
}

Deno.test("resolveAgentJwksUri reads /.well-known/brand.json at the agent's origin", async () => {
  const site = await serve({
    "/.well-known/brand.json": (o) => ({
      agents: [
        { type: "buying", url: `${o}/other` },
        { type: "sales", url: `${o}/mcp`, jwks_uri: `${o}/keys.json` },
      ],
    }),
  });
  try {
    const location = await resolveAgentJwksUri(`${site.origin}/mcp`, LOCAL);
    strictEqual(location.jwksUri, `${site.origin}/keys.json`);
    strictEqual(location.brandJsonUrl, `${site.origin}/.well-known/brand.json`);
    strictEqual(location.entry.type, "sales");
    deepStrictEqual(site.seen, ["/.well-known/brand.json"]);
  } finally {
    await site.close();
  }
});

Deno.test("without jwks_uri: /.well-known/jwks.json at the agent's origin", async () => {
  const site = await serve({
    "/.well-known/brand.json": (o) => ({
      house: { domain: "x.example", agents: [{ url: `${o}/a2a` }] },
    }),
  });
  try {
    const location = await resolveAgentJwksUri(`${site.origin}/a2a`, LOCAL);
    strictEqual(location.jwksUri, `${site.origin}/.well-known/jwks.json`);
  } finally {
    await site.close();
  }
});

Deno.test("entries match the agent URL byte for byte, not after canonicalization", async () => {
  const site = await serve({
    "/.well-known/brand.json": (o) => ({
      brands: [{
        agents: [
          { url: `${o.replace("http", "HTTP")}/a/./mcp`, jwks_uri: `${o}/wrong` },
          { url: `${o}/a/mcp`, jwks_uri: `${o}/k` },
        ],
      }],
    }),
  });
  try {
    strictEqual(
      (await resolveAgentJwksUri(`${site.origin}/a/mcp`, LOCAL)).jwksUri,
      `${site.origin}/k`,
    );
    await rejects(
      resolveAgentJwksUri(`${site.origin}/a/./mcp`, LOCAL),
      reason("agent_not_in_brand_json"),
    );
  } finally {
    await site.close();
  }
});

Deno.test("a given brandJsonUrl is read with no brand.json redirect", async () => {
  const site = await serve({
    "/operator/brand.json": (o) => ({ authoritative_location: `${o}/hosted/brand.json` }),
    "/hosted/brand.json": (o) => ({ agents: [{ url: `${o}/mcp` }] }),
  });
  try {
    await rejects(
      resolveAgentJwksUri(`${site.origin}/mcp`, {
        ...LOCAL,
        brandJsonUrl: `${site.origin}/operator/brand.json`,
      }),
      reason("brand_json_malformed"),
    );
    deepStrictEqual(site.seen, ["/operator/brand.json"]);
  } finally {
    await site.close();
  }
});

Deno.test("one authoritative_location redirect is followed", async () => {
  const site = await serve({
    "/.well-known/brand.json": (o) => ({ authoritative_location: `${o}/hosted/brand.json` }),
    "/hosted/brand.json": (o) => ({ agents: [{ url: `${o}/mcp`, jwks_uri: `${o}/k` }] }),
  });
  try {
    const location = await resolveAgentJwksUri(`${site.origin}/mcp`, LOCAL);
    strictEqual(location.brandJsonUrl, `${site.origin}/hosted/brand.json`);
    strictEqual(location.jwksUri, `${site.origin}/k`);
    deepStrictEqual(site.seen, ["/.well-known/brand.json", "/hosted/brand.json"]);
  } finally {
    await site.close();
  }
});

Deno.test("a redirect chain (two brand.json redirects) is brand_json_malformed", async () => {
  const site = await serve({
    "/.well-known/brand.json": (o) => ({ authoritative_location: `${o}/second/brand.json` }),
    "/second/brand.json": (o) => ({ authoritative_location: `${o}/third/brand.json` }),
    "/third/brand.json": (o) => ({ agents: [{ url: `${o}/mcp` }] }),
  });
  try {
    await rejects(resolveAgentJwksUri(`${site.origin}/mcp`, LOCAL), reason("brand_json_malformed"));
    deepStrictEqual(site.seen, ["/.well-known/brand.json", "/second/brand.json"]);
  } finally {
    await site.close();
  }
});

Deno.test("a house redirect goes to https://<house>/.well-known/brand.json", async () => {
  const site = await serve({ "/.well-known/brand.json": () => ({ house: "127.0.0.1" }) });
  try {
    // The house URL is https: the local http test server cannot answer it, but without
    // allowReservedAddresses it is refused before any request.
    await rejects(
      resolveAgentJwksUri(`${site.origin}/mcp`, { allowHttp: true, allowReservedAddresses: false }),
      (e) => e instanceof JwksError && e.reason === "untrusted",
    );
    deepStrictEqual(site.seen, []);
    await rejects(
      resolveAgentJwksUri(`${site.origin}/mcp`, LOCAL),
      (e) => e instanceof JwksError && e.reason === "unavailable", // https to a plain http port
    );
  } finally {
    await site.close();
  }
});

Deno.test("no entry, two entries, and malformed documents: each its reason", async () => {
  const docs: Record<string, unknown> = {
    none: { agents: [{ url: "https://elsewhere.example/mcp" }] },
    two: null,
    array: [],
    badAgents: { agents: "x" },
    badEntry: { agents: [1] },
    badJwks: null,
    badHouse: { house: "a/b" },
  };
  let current = "none";
  const site = await serve({
    "/.well-known/brand.json": (o) => {
      if (current === "two") {
        return { agents: [{ url: `${o}/mcp` }, { url: `${o}/mcp/`.slice(0, -1) }] };
      }
      if (current === "badJwks") return { agents: [{ url: `${o}/mcp`, jwks_uri: 7 }] };
      return docs[current];
    },
  });
  try {
    const expect: Record<string, string> = {
      none: "agent_not_in_brand_json",
      two: "brand_json_ambiguous",
      array: "brand_json_malformed",
      badAgents: "brand_json_malformed",
      badEntry: "brand_json_malformed",
      badJwks: "brand_json_malformed",
      badHouse: "brand_json_malformed",
    };
    for (const [name, want] of Object.entries(expect)) {
      current = name;
      await rejects(resolveAgentJwksUri(`${site.origin}/mcp`, LOCAL), reason(want), name);
    }
  } finally {
    await site.close();
  }
});

Deno.test("a jwks_uri that is not https, or names a reserved address, is untrusted", async () => {
  for (const jwks of ["https://169.254.169.254/keys", "http://keys.seller.example/jwks.json"]) {
    const fetch = () =>
      Promise.resolve(
        Response.json({ agents: [{ url: "https://seller.example/mcp", jwks_uri: jwks }] }),
      );
    await rejects(
      resolveAgentJwksUri("https://seller.example/mcp", { fetch }),
      (e) => e instanceof JwksError && e.reason === "untrusted",
      jwks,
    );
  }
  // The agent URL itself, before anything is fetched.
  let fetched = 0;
  const counting = () => {
    fetched++;
    return Promise.resolve(Response.json({}));
  };
  for (
    const agent of [
      "https://10.0.0.1/mcp",
      "http://seller.example/mcp",
      "https://u@seller.example/",
    ]
  ) {
    await rejects(
      resolveAgentJwksUri(agent, { fetch: counting }),
      (e) => e instanceof JwksError && e.reason === "untrusted",
      agent,
    );
  }
  strictEqual(fetched, 0);
});

Deno.test("an HTTP redirect of the brand.json is refused, never followed", async () => {
  const site = await serve({
    "/.well-known/brand.json": (o) => Response.redirect(`${o}/moved`, 302),
    "/moved": (o) => ({ agents: [{ url: `${o}/mcp` }] }),
  });
  try {
    await rejects(
      resolveAgentJwksUri(`${site.origin}/mcp`, LOCAL),
      (e) => e instanceof JwksError && e.reason === "untrusted",
    );
    deepStrictEqual(site.seen, ["/.well-known/brand.json"]);
  } finally {
    await site.close();
  }
});

Deno.test("a brand.json over 256 KiB is brand_json_malformed; the cap stays", async () => {
  const site = await serve({
    "/.well-known/brand.json": (o) => ({
      agents: [{ url: `${o}/mcp` }],
      note: "x".repeat(262_144),
    }),
  });
  try {
    await rejects(resolveAgentJwksUri(`${site.origin}/mcp`, LOCAL), reason("brand_json_malformed"));
    await rejects(
      resolveAgentJwksUri(`${site.origin}/mcp`, { ...LOCAL, maxBytes: 262_145 }),
      RangeError,
    );
  } finally {
    await site.close();
  }
});

/** A `fetch` answering every request with `make()`, counting the requests. */
function answering(make: () => Response | Promise<Response>) {
  const counter = { calls: 0 };
  const fetch = () => {
    counter.calls++;
    return Promise.resolve(make());
  };
  return { fetch, counter };
}

const AGENT = "https://seller.example/mcp";
const GOOD = `{"agents":[{"url":"${AGENT}"}]}`;

Deno.test("a brand.json failing the strict parse is brand_json_malformed", async () => {
  const bodies: Record<string, BodyInit> = {
    "duplicate key": `{"agents":[{"url":"${AGENT}"}],"agents":[]}`,
    "duplicate key in an entry": `{"agents":[{"url":"${AGENT}","url":"${AGENT}"}]}`,
    "not JSON": "<html>brand</html>",
    "empty body": "",
    "byte order mark": `\ufeff${GOOD}`,
    "not UTF-8": new Uint8Array([0x7b, 0xff, 0x7d]),
    "trailing garbage": `${GOOD} x`,
    "too deep": "[".repeat(10_000) + "]".repeat(10_000),
  };
  for (const [name, body] of Object.entries(bodies)) {
    const { fetch, counter } = answering(() =>
      new Response(body, { headers: { "content-type": "application/json" } })
    );
    const error = await rejection(resolveAgentJwksUri(AGENT, { fetch }));
    ok(error instanceof AgentKeyDiscoveryError, `${name}: ${error}`);
    strictEqual(error.reason, "brand_json_malformed", name);
    strictEqual(error.code, "agent_key_discovery", name);
    strictEqual(error.specCode, "request_signature_brand_json_malformed", name);
    strictEqual(error.webhookSpecCode, "webhook_signature_brand_json_malformed", name);
    ok(!(error instanceof JwksError), name);
    strictEqual(counter.calls, 1, name);
  }
  // The parser's error is kept as the cause, and the message names the body by kind only.
  const { fetch } = answering(() => new Response(`{"a":1,"a":2}`));
  const error = await rejection(resolveAgentJwksUri(AGENT, { fetch }));
  ok(error instanceof AgentKeyDiscoveryError && error.cause instanceof Error);
  strictEqual(
    error.message,
    "Cannot resolve the agent's keys: brand json malformed (the body repeats a key in an object)",
  );
});

Deno.test("a brand.json over the cap is brand_json_malformed, declared or counted", async () => {
  const big = `{"agents":[{"url":"${AGENT}"}],"note":"${"x".repeat(262_144)}"}`;
  // Counted: no Content-Length, a streamed body.
  const streamed = answering(() =>
    new Response(new Blob([big]).stream(), { headers: { "content-type": "application/json" } })
  );
  await rejects(
    resolveAgentJwksUri(AGENT, { fetch: streamed.fetch }),
    reason("brand_json_malformed"),
  );
  // Declared: refused before the body is read.
  const declared = answering(() => new Response(GOOD, { headers: { "content-length": "262145" } }));
  await rejects(
    resolveAgentJwksUri(AGENT, { fetch: declared.fetch }),
    reason("brand_json_malformed"),
  );
  // A lower cap of the caller's own counts the same way.
  const small = answering(() => new Response(GOOD));
  await rejects(
    resolveAgentJwksUri(AGENT, { fetch: small.fetch, maxBytes: 10 }),
    reason("brand_json_malformed"),
  );
  // The redirect target is held to the same rules.
  let first = true;
  const redirected = answering(() => {
    if (first) {
      first = false;
      return Response.json({ authoritative_location: "https://hosted.example/brand.json" });
    }
    return new Response(`{"agents":[],"agents":[]}`);
  });
  await rejects(
    resolveAgentJwksUri(AGENT, { fetch: redirected.fetch }),
    reason("brand_json_malformed"),
  );
  strictEqual(redirected.counter.calls, 2);
});

Deno.test("a brand.json that cannot be fetched is JwksError unavailable (transient)", async () => {
  for (const status of [404, 500, 503]) {
    const { fetch } = answering(() => new Response("oops", { status }));
    await rejects(
      resolveAgentJwksUri(AGENT, { fetch }),
      (e) => e instanceof JwksError && e.reason === "unavailable" && e.code === "jwks_unavailable",
      String(status),
    );
  }
  const network = () => Promise.reject(new TypeError("connection refused"));
  await rejects(
    resolveAgentJwksUri(AGENT, { fetch: network }),
    (e) => e instanceof JwksError && e.reason === "unavailable",
  );
  // A body that breaks off is the network's failure too, not the document's.
  const broken = answering(() =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("{"));
          controller.error(new Error("reset"));
        },
      }),
    )
  );
  await rejects(
    resolveAgentJwksUri(AGENT, { fetch: broken.fetch }),
    (e) => e instanceof JwksError && e.reason === "unavailable",
  );
  // The deadline.
  const silent = () => new Promise<Response>(() => {});
  await rejects(
    resolveAgentJwksUri(AGENT, { fetch: silent, timeoutMs: 20 }),
    (e) => e instanceof JwksError && e.reason === "unavailable",
  );
});
