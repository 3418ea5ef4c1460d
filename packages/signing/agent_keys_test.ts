// resolveAgentJwksUri against local servers: the brand.json shapes, the one redirect, and what a
// hostile operator can send.
import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { AgentKeyDiscoveryError, resolveAgentJwksUri } from "./agent_keys.ts";
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

Deno.test("a brand.json over 256 KiB is refused; the cap cannot be raised", async () => {
  const site = await serve({
    "/.well-known/brand.json": (o) => ({
      agents: [{ url: `${o}/mcp` }],
      note: "x".repeat(262_144),
    }),
  });
  try {
    await rejects(
      resolveAgentJwksUri(`${site.origin}/mcp`, LOCAL),
      (e) => e instanceof JwksError && e.reason === "unavailable",
    );
    await rejects(
      resolveAgentJwksUri(`${site.origin}/mcp`, { ...LOCAL, maxBytes: 262_145 }),
      RangeError,
    );
  } finally {
    await site.close();
  }
});
