import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import type { Lock, Sources } from "./_sources.ts";
import { ScriptError } from "./_cli.ts";
import { directorySource, fetchBounded, httpSource, sync } from "./sync.ts";

const VERSION = "1.0.0";
const SITE = "https://adcontextprotocol.org";

function sources(): Sources {
  return {
    schema_version: VERSION,
    base_url: SITE,
    test_vectors: {
      commit: "0".repeat(40),
      url_template: "unused",
      files: ["mcp-response-extraction.json"],
    },
    schemas: {
      roots: ["index.json", "manifest.json"],
      optional_roots: ["error-details/not-in-this-version.json"],
      path_keys: ["response_schema"],
      mention_patterns: ["error-details/[a-z0-9-]+\\.json"],
    },
    limits: { max_file_bytes: 4096, timeout_ms: 5000, max_redirects: 2, concurrency: 3 },
  };
}

function emptyLock(): Lock {
  return { lockfile_version: 1, test_vectors: { commit: "", files: {} }, schemas: {} };
}

/** A tiny site mirror: absolute, root-relative and local refs, a manifest path, prose mentions. */
async function makeMirror(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const files: Record<string, unknown> = {
    [`schemas/${VERSION}/index.json`]: {
      schemas: { a: { $ref: `${SITE}/schemas/${VERSION}/core/a.json` } },
    },
    [`schemas/${VERSION}/manifest.json`]: {
      tools: { t: { response_schema: "tasks/t-response.json" } },
    },
    [`schemas/${VERSION}/core/a.json`]: {
      properties: {
        b: { $ref: `/schemas/${VERSION}/enums/b.json` },
        x: { $ref: "#/definitions/x" },
      },
      definitions: { x: { type: "string" } },
    },
    [`schemas/${VERSION}/enums/b.json`]: {
      description: "See error-details/c.json; error-details/gone.json is only named in prose",
    },
    [`schemas/${VERSION}/error-details/c.json`]: { type: "object" },
    [`schemas/${VERSION}/tasks/t-response.json`]: { $ref: "../core/a.json" },
    [`schemas/${VERSION}/unreferenced.json`]: {},
    "test-vectors/mcp-response-extraction.json": { version: 1, vectors: [] },
  };
  for (const [path, doc] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, JSON.stringify(doc));
  }
  return dir;
}

const CLOSURE = [
  "core/a.json",
  "enums/b.json",
  "error-details/c.json",
  "index.json",
  "manifest.json",
  "tasks/t-response.json",
];

Deno.test(
  "sync() --update follows $ref, manifest paths and prose mentions, and records the lock",
  async () => {
    const mirror = await makeMirror();
    const out = await Deno.makeTempDir();
    const lock = emptyLock();
    const report = await sync(sources(), lock, {
      version: VERSION,
      source: directorySource(mirror, 4096),
      update: true,
      check: false,
      root: out,
    });
    deepStrictEqual(Object.keys(lock.schemas[VERSION]!).sort(), CLOSURE);
    strictEqual(report.fetched, CLOSURE.length + 1);
    deepStrictEqual(Object.keys(lock.test_vectors.files), ["mcp-response-extraction.json"]);
    strictEqual(
      await Deno.readTextFile(`${out}/spec/schemas/${VERSION}/core/a.json`),
      await Deno.readTextFile(`${mirror}/schemas/${VERSION}/core/a.json`),
    );
    // A second run fetches nothing.
    const again = await sync(sources(), lock, {
      version: VERSION,
      source: directorySource(mirror, 4096),
      update: false,
      check: false,
      root: out,
    });
    deepStrictEqual([again.fetched, again.verified], [0, CLOSURE.length + 1]);
    await Deno.remove(mirror, { recursive: true });
    await Deno.remove(out, { recursive: true });
  },
);

async function synced(): Promise<{ mirror: string; out: string; lock: Lock }> {
  const mirror = await makeMirror();
  const out = await Deno.makeTempDir();
  const lock = emptyLock();
  await sync(sources(), lock, {
    version: VERSION,
    source: directorySource(mirror, 4096),
    update: true,
    check: false,
    root: out,
  });
  return { mirror, out, lock };
}

Deno.test(
  "sync() refuses a tampered synced file, names both digests and overwrites nothing",
  async () => {
    const { mirror, out, lock } = await synced();
    const path = `${out}/spec/schemas/${VERSION}/enums/b.json`;
    await Deno.writeTextFile(path, '{"tampered":true}');
    const error = await sync(sources(), lock, {
      version: VERSION,
      source: directorySource(mirror, 4096),
      update: false,
      check: false,
      root: out,
    }).then(() => undefined, (error) => error);
    ok(error instanceof ScriptError);
    ok(error.message.includes(`spec/schemas/${VERSION}/enums/b.json`), error.message);
    ok(error.message.includes(lock.schemas[VERSION]!["enums/b.json"]!), "names the lock's digest");
    ok(/sha256 [0-9a-f]{64}/.test(error.message), "names the actual digest");
    strictEqual(await Deno.readTextFile(path), '{"tampered":true}');
    await Deno.remove(mirror, { recursive: true });
    await Deno.remove(out, { recursive: true });
  },
);

Deno.test("sync() refuses a source whose bytes differ from the lock", async () => {
  const { mirror, out, lock } = await synced();
  await Deno.remove(`${out}/spec/schemas/${VERSION}/core/a.json`);
  await Deno.writeTextFile(`${mirror}/schemas/${VERSION}/core/a.json`, "{}");
  await rejects(
    sync(sources(), lock, {
      version: VERSION,
      source: directorySource(mirror, 4096),
      update: false,
      check: false,
      root: out,
    }),
    (error: unknown) =>
      error instanceof ScriptError && error.message.includes("does not match the lock"),
  );
  await Deno.remove(mirror, { recursive: true });
  await Deno.remove(out, { recursive: true });
});

Deno.test(
  "sync() refuses a version the lock does not know, and --check writes nothing",
  async () => {
    const { mirror, out, lock } = await synced();
    await rejects(
      sync(sources(), lock, {
        version: "9.9.9",
        source: directorySource(mirror, 4096),
        update: false,
        check: false,
        root: out,
      }),
      (error: unknown) => error instanceof ScriptError && error.message.includes("--update"),
    );
    await Deno.remove(`${out}/spec/schemas/${VERSION}/index.json`);
    await rejects(
      sync(sources(), lock, {
        version: VERSION,
        source: directorySource(mirror, 4096),
        update: false,
        check: true,
        root: out,
      }),
      (error: unknown) => error instanceof ScriptError && error.message.includes("is missing"),
    );
    await rejects(Deno.stat(`${out}/spec/schemas/${VERSION}/index.json`), Deno.errors.NotFound);
    await Deno.remove(mirror, { recursive: true });
    await Deno.remove(out, { recursive: true });
  },
);

Deno.test("sync() refuses a $ref that leaves the version's tree", async () => {
  const mirror = await makeMirror();
  const out = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${mirror}/schemas/${VERSION}/core/a.json`,
    JSON.stringify({ $ref: `${SITE}/schemas/0.9.0/core/a.json` }),
  );
  await rejects(
    sync(sources(), emptyLock(), {
      version: VERSION,
      source: directorySource(mirror, 4096),
      update: true,
      check: false,
      root: out,
    }),
    (error: unknown) =>
      error instanceof ScriptError && error.message.includes("outside the 1.0.0 tree"),
  );
  await Deno.remove(mirror, { recursive: true });
  await Deno.remove(out, { recursive: true });
});

Deno.test("sync() refuses a file over the size cap", async () => {
  const mirror = await makeMirror();
  const out = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${mirror}/schemas/${VERSION}/enums/b.json`,
    JSON.stringify({ pad: "x".repeat(5000) }),
  );
  await rejects(
    sync(sources(), emptyLock(), {
      version: VERSION,
      source: directorySource(mirror, 4096),
      update: true,
      check: false,
      root: out,
    }),
    (error: unknown) => error instanceof ScriptError && error.message.includes("4096-byte cap"),
  );
  await Deno.remove(mirror, { recursive: true });
  await Deno.remove(out, { recursive: true });
});

/** Serves a mirror over loopback HTTP, with a few hostile routes. */
function serveMirror(dir: string) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/elsewhere") return Response.redirect("http://127.0.0.2:1/x", 302);
    if (pathname === "/same") {
      return new Response(null, {
        status: 302,
        headers: { location: "/test-vectors/mcp-response-extraction.json" },
      });
    }
    if (pathname === "/loop") {
      return new Response(null, { status: 302, headers: { location: "/loop" } });
    }
    if (pathname === "/huge-length") {
      return new Response("x", { headers: { "content-length": "1" } });
    }
    if (pathname === "/huge-body") {
      const chunk = new Uint8Array(1024);
      let sent = 0;
      return new Response(
        new ReadableStream({
          pull(controller) {
            if (sent++ < 100) controller.enqueue(chunk);
            else controller.close();
          },
        }),
      );
    }
    try {
      return new Response(await Deno.readFile(`${dir}${decodeURIComponent(pathname)}`));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { server, base };
}

Deno.test(
  "sync() over HTTP gives byte-identical files and digests to a directory mirror",
  async () => {
    const mirror = await makeMirror();
    const { server, base } = serveMirror(mirror);
    try {
      const fromDir = await Deno.makeTempDir();
      const fromHttp = await Deno.makeTempDir();
      const lockDir = emptyLock();
      const lockHttp = emptyLock();
      const testSources = sources();
      await sync(testSources, lockDir, {
        version: VERSION,
        source: directorySource(mirror, 4096),
        update: true,
        check: false,
        root: fromDir,
      });
      const http = httpSource(base, (name) => `${base}/test-vectors/${name}`, testSources.limits);
      await sync(testSources, lockHttp, {
        version: VERSION,
        source: http,
        update: true,
        check: false,
        root: fromHttp,
      });
      deepStrictEqual(lockHttp, lockDir);
      for (const path of CLOSURE) {
        deepStrictEqual(
          await Deno.readFile(`${fromHttp}/spec/schemas/${VERSION}/${path}`),
          await Deno.readFile(`${fromDir}/spec/schemas/${VERSION}/${path}`),
        );
      }
      await Deno.remove(fromDir, { recursive: true });
      await Deno.remove(fromHttp, { recursive: true });
    } finally {
      await server.shutdown();
      await Deno.remove(mirror, { recursive: true });
    }
  },
);

Deno.test(
  "fetchBounded() follows same-origin redirects only, and caps length and body",
  async () => {
    const mirror = await makeMirror();
    const { server, base } = serveMirror(mirror);
    const limits = { ...sources().limits, max_file_bytes: 4096 };
    try {
      ok((await fetchBounded(`${base}/same`, limits)).byteLength > 0);
      await rejects(fetchBounded(`${base}/elsewhere`, limits), /another origin/);
      await rejects(fetchBounded(`${base}/loop`, limits), /more than 2 redirects/);
      await rejects(fetchBounded(`${base}/huge-body`, limits), /body exceeds the 4096-byte cap/);
      await rejects(
        fetchBounded(`${base}/huge-length`, { ...limits, max_file_bytes: 0 }),
        /Content-Length 1 exceeds the 0-byte cap/,
      );
    } finally {
      await server.shutdown();
      await Deno.remove(mirror, { recursive: true });
    }
  },
);

Deno.test("fetchBounded() refuses plain http beyond loopback before any request", async () => {
  await rejects(fetchBounded("http://example.com/x.json", sources().limits), /only https URLs/);
  await rejects(fetchBounded("file:///etc/passwd", sources().limits), /only https URLs/);
});

/** Runs a sync of the test site into `out` and returns its error, or `undefined`. */
function syncError(
  mirror: string,
  out: string,
  lock: Lock,
  mode: { update?: boolean; check?: boolean },
): Promise<unknown> {
  return sync(sources(), lock, {
    version: VERSION,
    source: directorySource(mirror, 4096),
    update: mode.update ?? false,
    check: mode.check ?? false,
    root: out,
  }).then(() => undefined, (error) => error);
}

Deno.test(
  "sync() refuses a twice-encoded $ref, which a server would decode into '..'",
  async () => {
    const mirror = await makeMirror();
    const out = await Deno.makeTempDir();
    await Deno.writeTextFile(
      `${mirror}/schemas/${VERSION}/core/a.json`,
      JSON.stringify({ $ref: "%252e%252e/%252e%252e/%252e%252e/outside.json" }),
    );
    const error = await syncError(mirror, out, emptyLock(), { update: true });
    ok(error instanceof Error && error.message.includes("unsafe relative path"), String(error));
    const malformed = await Deno.makeTempDir();
    await Deno.writeTextFile(
      `${mirror}/schemas/${VERSION}/core/a.json`,
      JSON.stringify({ $ref: "%zz.json" }),
    );
    const malformedError = await syncError(mirror, malformed, emptyLock(), { update: true });
    ok(
      malformedError instanceof ScriptError && malformedError.message.includes("malformed $ref"),
      String(malformedError),
    );
    for (const dir of [mirror, out, malformed]) await Deno.remove(dir, { recursive: true });
  },
);

Deno.test("sync() refuses a mirror folder that links outside the mirror", async () => {
  const mirror = await makeMirror();
  const elsewhere = await Deno.makeTempDir();
  const out = await Deno.makeTempDir();
  await Deno.mkdir(`${elsewhere}/enums`);
  await Deno.rename(`${mirror}/schemas/${VERSION}/enums/b.json`, `${elsewhere}/enums/b.json`);
  await Deno.remove(`${mirror}/schemas/${VERSION}/enums`, { recursive: true });
  await Deno.symlink(`${elsewhere}/enums`, `${mirror}/schemas/${VERSION}/enums`);
  const error = await syncError(mirror, out, emptyLock(), { update: true });
  ok(error instanceof ScriptError && error.message.includes("leads outside"), String(error));
  for (const dir of [mirror, elsewhere, out]) await Deno.remove(dir, { recursive: true });
});

Deno.test("sync() --update refused half-way writes nothing", async () => {
  const { mirror, out, lock } = await synced();
  const vector = `${out}/vectors/upstream/mcp-response-extraction.json`;
  const before = await Deno.readTextFile(vector);
  await Deno.writeTextFile(`${mirror}/test-vectors/mcp-response-extraction.json`, '{"changed":1}');
  await Deno.remove(`${mirror}/schemas/${VERSION}/enums/b.json`); // the closure now fails
  const error = await syncError(mirror, out, structuredClone(lock), { update: true });
  ok(error instanceof ScriptError && error.message.includes("enums/b.json"), String(error));
  strictEqual(await Deno.readTextFile(vector), before);
  strictEqual(await syncError(mirror, out, lock, {}), undefined); // the tree still matches the lock
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});

Deno.test(
  "sync() --check refuses a synced file the lock does not know; a sync removes it",
  async () => {
    const { mirror, out, lock } = await synced();
    await Deno.writeTextFile(`${out}/spec/schemas/${VERSION}/error-details/zz-extra.json`, "{}");
    const error = await syncError(mirror, out, lock, { check: true });
    ok(
      error instanceof ScriptError && error.message.includes("zz-extra.json is not in the lock"),
      String(error),
    );
    strictEqual(await syncError(mirror, out, lock, {}), undefined);
    await rejects(
      Deno.stat(`${out}/spec/schemas/${VERSION}/error-details/zz-extra.json`),
      Deno.errors.NotFound,
    );
    for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
  },
);

Deno.test("sync() refuses a lock whose keys would lead outside the project", async () => {
  const { mirror, out, lock } = await synced();
  const digest = Object.values(lock.schemas[VERSION]!)[0]!;
  for (
    const tamper of [
      (copy: Lock) => copy.schemas[VERSION]!["../../../../escaped.json"] = digest,
      (copy: Lock) => copy.test_vectors.files["../escaped.json"] = digest,
      (copy: Lock) => copy.schemas[VERSION]!["/etc/passwd"] = digest,
      (copy: Lock) => copy.schemas[VERSION]!["core/%2e%2e/x.json"] = digest,
    ]
  ) {
    const tampered = structuredClone(lock);
    tamper(tampered);
    const error = await syncError(mirror, out, tampered, {});
    ok(error instanceof Error && error.message.includes("unsafe relative path"), String(error));
  }
  const bad = structuredClone(lock) as unknown as { schemas: unknown };
  bad.schemas = null;
  const error = await syncError(mirror, out, bad as unknown as Lock, {});
  ok(error instanceof Error && error.message.includes("expected test_vectors"), String(error));
  await rejects(Deno.stat(`${out}/../../../escaped.json`), Deno.errors.NotFound);
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});
