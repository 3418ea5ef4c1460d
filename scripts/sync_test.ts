import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import {
  formatLock,
  type Lock,
  LOCK_PATH,
  parseLock,
  parseSources,
  readLock,
  readSources,
  repinGitignore,
  ROOT,
  sha256Hex,
  type Sources,
  SOURCES_PATH,
} from "./_sources.ts";
import { ScriptError } from "./_cli.ts";
import {
  directorySource,
  fetchBounded,
  formatSummary,
  httpSource,
  networkReason,
  parseSyncArgs,
  SourceUnreachableError,
  sync,
  SYNC_USAGE,
} from "./sync.ts";

Deno.test("parseSyncArgs() reads the flags and --help, and names an unknown one, nearest", () => {
  deepStrictEqual(parseSyncArgs([]), { update: false, check: false, quiet: false });
  deepStrictEqual(parseSyncArgs(["--version", "3.1.19", "--from=/m", "--quiet"]), {
    update: false,
    check: false,
    quiet: true,
    version: "3.1.19",
    from: "/m",
  });
  strictEqual(parseSyncArgs(["--check", "--help"]), "help");
  strictEqual(parseSyncArgs(["-h"]), "help");
  ok(SYNC_USAGE.startsWith("Usage: deno task sync") && SYNC_USAGE.includes("--help"));
  throws(() => parseSyncArgs(["--updat"]), {
    name: "UsageError",
    message: 'Unknown argument "--updat"; did you mean --update? (see --help)',
  });
  throws(() => parseSyncArgs(["--form=/m"]), {
    message: 'Unknown argument "--form=/m"; did you mean --from? (see --help)',
  });
  throws(() => parseSyncArgs(["--from"]), { name: "UsageError", message: "--from needs a value" });
  throws(() => parseSyncArgs(["--update", "--check"]), { name: "UsageError" });
  throws(() => parseSyncArgs(["--version=3.1"]), {
    name: "UsageError",
    message: '--version must look like 3.2.0-beta.5 (got "3.1")',
  });
});

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
    compliance: {
      files: [
        "request-signing/keys.json",
        "request-signing/positive/001-basic-post.json",
        "webhook-signing/keys.json",
      ],
      optional_files: [
        "request-signing/profile-3.2/positive/001-post-with-content-digest.json",
        // Not in the test site's 1.0.0 bundle.
        "request-signing/body-integrity-policy.json",
      ],
    },
    limits: { max_file_bytes: 4096, timeout_ms: 5000, max_redirects: 2, concurrency: 3 },
  };
}

function emptyLock(): Lock {
  return {
    lockfile_version: 1,
    test_vectors: { commit: "", files: {} },
    schemas: {},
    compliance: {},
  };
}

/** Where the test site's compliance bundle of {@link VERSION} lives, below the mirror. */
const COMPLIANCE_SITE = `compliance/${VERSION}/test-vectors`;
/** Where sync writes it, below the root. */
const COMPLIANCE_OUT = `vectors/upstream/compliance/${VERSION}`;

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
    [`${COMPLIANCE_SITE}/request-signing/keys.json`]: { keys: [{ kid: "test-ed25519" }] },
    [`${COMPLIANCE_SITE}/request-signing/positive/001-basic-post.json`]: { name: "basic" },
    [`${COMPLIANCE_SITE}/request-signing/profile-3.2/positive/001-post-with-content-digest.json`]: {
      name: "profile",
    },
    [`${COMPLIANCE_SITE}/webhook-signing/keys.json`]: { keys: [] },
    // In the bundle but not listed: never synced.
    [`${COMPLIANCE_SITE}/webhook-receiver-envelope.json`]: { vectors: [] },
  };
  for (const [path, doc] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, JSON.stringify(doc));
  }
  await Deno.writeTextFile(`${dir}/${COMPLIANCE_SITE}/request-signing/README.md`, "# prose\n");
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

/** The compliance files the test site's 1.0.0 bundle has of those listed (one optional absent). */
const COMPLIANCE = [
  "request-signing/keys.json",
  "request-signing/positive/001-basic-post.json",
  "request-signing/profile-3.2/positive/001-post-with-content-digest.json",
  "webhook-signing/keys.json",
];

/** Every file one sync of the test site handles: the closure, the vector file, compliance. */
const SYNCED = CLOSURE.length + 1 + COMPLIANCE.length;

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
    strictEqual(report.fetched, SYNCED);
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
    deepStrictEqual([again.fetched, again.verified], [0, SYNCED]);
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
    // The pinned version is the committed snapshot: the way back is git, or a sync from a mirror.
    ok(!error.message.includes("\n"), "one line");
    ok(
      error.message.includes(`\`git checkout -- spec/schemas/${VERSION}/enums/b.json\``),
      error.message,
    );
    ok(error.message.includes("`deno task sync --from DIR`"), error.message);
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
      (copy: Lock) => copy.compliance[VERSION]!["../../../escaped.json"] = digest,
      (copy: Lock) => copy.compliance[VERSION]!["request-signing/../../x.json"] = digest,
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
  for (const compliance of [null, [], { [VERSION]: { "x.json": "not a digest" } }]) {
    const badCompliance = structuredClone(lock) as unknown as { compliance: unknown };
    badCompliance.compliance = compliance;
    const error = await syncError(mirror, out, badCompliance as unknown as Lock, {});
    ok(error instanceof ScriptError && error.message.includes("compliance"), String(error));
  }
  const badVersion = structuredClone(lock);
  badVersion.compliance["../1.0.0"] = badVersion.compliance[VERSION]!;
  const versionError = await syncError(mirror, out, badVersion, {});
  ok(
    versionError instanceof ScriptError &&
      versionError.message.includes('bad compliance version "../1.0.0"'),
    String(versionError),
  );
  await rejects(Deno.stat(`${out}/../../../escaped.json`), Deno.errors.NotFound);
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});

/** A fetch that serves `mirror` (laid out like the site) and records every URL asked for. */
function mirrorFetch(mirror: string, requested: string[]): typeof fetch {
  return async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : input);
    requested.push(url.href);
    try {
      return new Response(await Deno.readFile(`${mirror}${decodeURIComponent(url.pathname)}`));
    } catch {
      return new Response("not found", { status: 404 });
    }
  };
}

/** A fetch that fails the way Deno's does when DNS cannot resolve the host, and counts calls. */
function offlineFetch(calls: string[]): typeof fetch {
  return (input: RequestInfo | URL) => {
    const href = String(input instanceof Request ? input.url : input);
    calls.push(href);
    return Promise.reject(
      new TypeError("fetch failed", {
        cause: new Error(
          `error sending request for url (${href}): client error (Connect): dns error: ` +
            "failed to lookup address information: Name or service not known",
        ),
      }),
    );
  };
}

/** The site as sync sees it by default, over `fetchImpl`. */
function siteSource(fetchImpl: typeof fetch) {
  return httpSource(SITE, (name) => `${SITE}/test-vectors/${name}`, sources().limits, fetchImpl);
}

Deno.test("sync() of a complete committed snapshot verifies it and fetches nothing", async () => {
  const { mirror, out, lock } = await synced();
  const calls: string[] = [];
  const report = await sync(sources(), lock, {
    version: VERSION,
    source: siteSource(offlineFetch(calls)),
    update: false,
    check: false,
    root: out,
  });
  deepStrictEqual(calls, []);
  deepStrictEqual([report.fetched, report.verified, report.removed], [0, SYNCED, []]);
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});

Deno.test("sync() fetches a file missing from the snapshot, and only that file", async () => {
  const { mirror, out, lock } = await synced();
  await Deno.remove(`${out}/spec/schemas/${VERSION}/enums/b.json`);
  await Deno.remove(`${out}/vectors/upstream/mcp-response-extraction.json`);
  await Deno.remove(`${out}/${COMPLIANCE_OUT}/request-signing/keys.json`);
  const requested: string[] = [];
  const report = await sync(sources(), lock, {
    version: VERSION,
    source: siteSource(mirrorFetch(mirror, requested)),
    update: false,
    check: false,
    root: out,
  });
  deepStrictEqual(requested.sort(), [
    `${SITE}/${COMPLIANCE_SITE}/request-signing/keys.json`,
    `${SITE}/schemas/${VERSION}/enums/b.json`,
    `${SITE}/test-vectors/mcp-response-extraction.json`,
  ]);
  deepStrictEqual([report.fetched, report.verified], [3, SYNCED - 3]);
  deepStrictEqual(
    await Deno.readFile(`${out}/${COMPLIANCE_OUT}/request-signing/keys.json`),
    await Deno.readFile(`${mirror}/${COMPLIANCE_SITE}/request-signing/keys.json`),
  );
  deepStrictEqual(
    await Deno.readFile(`${out}/spec/schemas/${VERSION}/enums/b.json`),
    await Deno.readFile(`${mirror}/schemas/${VERSION}/enums/b.json`),
  );
  // A missing file whose source bytes differ from the lock is refused, and not written.
  await Deno.remove(`${out}/spec/schemas/${VERSION}/enums/b.json`);
  await Deno.writeTextFile(`${mirror}/schemas/${VERSION}/enums/b.json`, "{}");
  const error = await sync(sources(), lock, {
    version: VERSION,
    source: siteSource(mirrorFetch(mirror, [])),
    update: false,
    check: false,
    root: out,
  }).then(() => undefined, (error) => error);
  ok(error instanceof ScriptError && error.message.includes("does not match the lock"), error);
  await rejects(Deno.stat(`${out}/spec/schemas/${VERSION}/enums/b.json`), Deno.errors.NotFound);
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});

Deno.test("sync() refuses a hand-edited vector file with the way to restore it", async () => {
  const { mirror, out, lock } = await synced();
  const path = `${out}/vectors/upstream/mcp-response-extraction.json`;
  await Deno.writeTextFile(path, '{"edited":true}');
  const error = await syncError(mirror, out, lock, {});
  ok(error instanceof ScriptError, String(error));
  ok(!error.message.includes("\n"), "one line");
  ok(
    error.message.startsWith("Refusing vectors/upstream/mcp-response-extraction.json: sha256 "),
    error.message,
  );
  ok(
    error.message.includes("`git checkout -- vectors/upstream/mcp-response-extraction.json`"),
    error.message,
  );
  strictEqual(await Deno.readTextFile(path), '{"edited":true}');
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});

Deno.test("sync() names no git restore for a version other than the pinned one", async () => {
  const { mirror, out, lock } = await synced();
  await Deno.writeTextFile(`${out}/spec/schemas/${VERSION}/enums/b.json`, "{}");
  const error = await sync({ ...sources(), schema_version: "2.0.0" }, lock, {
    version: VERSION,
    source: directorySource(mirror, 4096),
    update: false,
    check: false,
    root: out,
  }).then(() => undefined, (error) => error);
  ok(error instanceof ScriptError && error.message.includes("Delete the file to re-fetch it"));
  ok(!error.message.includes("git checkout"), error.message);
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});

Deno.test(
  "sync() that cannot reach its source says so in one line: URL, reason, --from DIR",
  async () => {
    const { mirror, out, lock } = await synced();
    await Deno.remove(`${out}/spec/schemas/${VERSION}/core/a.json`);
    const calls: string[] = [];
    const error = await sync(sources(), lock, {
      version: VERSION,
      source: siteSource(offlineFetch(calls)),
      update: false,
      check: false,
      root: out,
    }).then(() => undefined, (error) => error);
    deepStrictEqual(calls, [`${SITE}/schemas/${VERSION}/core/a.json`]);
    ok(error instanceof SourceUnreachableError, String(error));
    strictEqual(
      error.message,
      `Cannot reach ${SITE}/schemas/${VERSION}/core/a.json: dns error: failed to lookup ` +
        "address information: Name or service not known; to sync offline, use a folder laid " +
        "out like the AdCP site: `deno task sync --from DIR` or `ADCP_UPSTREAM=DIR`",
    );
    strictEqual(error.url, `${SITE}/schemas/${VERSION}/core/a.json`);
    for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
  },
);

Deno.test("fetchBounded() reports a refused connection, a timeout, an HTTP error", async () => {
  // A port that was just listening and is now closed: the runtime's own "connection refused".
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  const limits = sources().limits;
  const refused = await fetchBounded(`http://127.0.0.1:${port}/x.json`, limits).then(
    () => undefined,
    (error) => error,
  );
  ok(refused instanceof SourceUnreachableError, String(refused));
  ok(!refused.message.includes("\n"), "one line");
  ok(refused.message.startsWith(`Cannot reach http://127.0.0.1:${port}/x.json: `));
  ok(/connect|refused/i.test(refused.reason), refused.reason);
  ok(refused.message.endsWith("`deno task sync --from DIR` or `ADCP_UPSTREAM=DIR`"));
  const hanging: typeof fetch = (_input, init) =>
    new Promise((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });
  const timedOut = await fetchBounded(
    `${SITE}/x.json`,
    { ...limits, timeout_ms: 20 },
    hanging,
  ).then(() => undefined, (error) => error);
  ok(timedOut instanceof SourceUnreachableError, String(timedOut));
  strictEqual(timedOut.reason, "no complete answer within 20 ms");
  const status = await fetchBounded(
    `${SITE}/x.json`,
    limits,
    () => Promise.resolve(new Response("busy", { status: 503 })),
  ).then(() => undefined, (error) => error);
  ok(status instanceof SourceUnreachableError && status.reason === "HTTP 503", String(status));
});

Deno.test("networkReason() keeps the runtime's reason and drops the wrapper", () => {
  const url = "https://adcontextprotocol.org/x.json";
  strictEqual(
    networkReason(
      new TypeError("fetch failed", {
        cause: new Error(
          `error sending request for url (${url}): client error (Connect): tcp connect error: ` +
            "Connection refused (os error 111)",
        ),
      }),
      1000,
    ),
    "tcp connect error: Connection refused (os error 111)",
  );
  strictEqual(
    networkReason(new Error("getaddrinfo ENOTFOUND example.org"), 1),
    "getaddrinfo ENOTFOUND example.org",
  );
  strictEqual(
    networkReason(new DOMException("Signal timed out.", "TimeoutError"), 5),
    "no complete answer within 5 ms",
  );
  strictEqual(networkReason("plain", 1), "plain");
});

Deno.test("sync() from a mirror folder that does not exist names the folder", async () => {
  const { mirror, out, lock } = await synced();
  await Deno.remove(`${out}/spec/schemas/${VERSION}/core/a.json`);
  const error = await syncError(`${mirror}/nowhere`, out, lock, {});
  ok(error instanceof ScriptError, String(error));
  ok(error.message.startsWith(`Cannot read the mirror ${mirror}/nowhere: `), error.message);
  ok(error.message.includes("laid out like the AdCP site"), error.message);
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});

Deno.test("formatSummary() says what came from where, and names no source for nothing", () => {
  const report = { version: "3.2.0-beta.5", fetched: 0, verified: 815, removed: [] };
  const options = { committed: true, sourceLabel: SITE, elapsedMs: 62 };
  strictEqual(
    formatSummary(report, { ...options, mode: "sync" }),
    "sync: AdCP 3.2.0-beta.5: 815 files verified from the committed snapshot, 0 fetched (62 ms)",
  );
  strictEqual(
    formatSummary({ ...report, fetched: 4, verified: 811 }, {
      ...options,
      mode: "sync",
      sourceLabel: "/srv/adcp-upstream",
    }),
    "sync: AdCP 3.2.0-beta.5: 811 files verified from the committed snapshot, 4 fetched from " +
      "/srv/adcp-upstream (62 ms)",
  );
  strictEqual(
    formatSummary({ ...report, version: "3.1.19", fetched: 630, verified: 4 }, {
      ...options,
      committed: false,
      mode: "sync",
    }),
    `sync: AdCP 3.1.19: 4 files verified on disk, 630 fetched from ${SITE} (62 ms)`,
  );
  strictEqual(
    formatSummary(report, { ...options, mode: "check" }),
    "sync --check: AdCP 3.2.0-beta.5: 815 files verified from the committed snapshot, nothing " +
      "fetched or written (62 ms)",
  );
  strictEqual(
    formatSummary({ ...report, fetched: 815, verified: 0 }, { ...options, mode: "update" }),
    `sync --update: AdCP 3.2.0-beta.5: 815 files fetched from ${SITE} and recorded in ` +
      "spec/sources.lock.json (62 ms)",
  );
  for (const mode of ["sync", "check", "update"] as const) {
    ok(!formatSummary(report, { ...options, mode }).includes("nowhere"));
  }
});

Deno.test("repinGitignore() moves the committed snapshot's line to the new version", () => {
  const text = "# upstream\n/spec/schemas/*\n!/spec/schemas/3.2.0-beta.5/\n/.reports/\n";
  strictEqual(
    repinGitignore(text, "3.2.0-beta.5", "3.3.0"),
    "# upstream\n/spec/schemas/*\n!/spec/schemas/3.3.0/\n/.reports/\n",
  );
  strictEqual(repinGitignore(text, "3.1.19", "3.3.0"), undefined);
  strictEqual(
    repinGitignore("!/spec/schemas/3.2.0-beta.50/\n", "3.2.0-beta.5", "3.3.0"),
    undefined,
  );
});

Deno.test(
  "the pinned snapshot is complete and verifies offline: every locked file is on disk",
  async () => {
    const sourcesFile = await readSources();
    const lock = await readLock();
    const calls: string[] = [];
    // --check writes nothing; the failing fetch proves that nothing is fetched either.
    const report = await sync(sourcesFile, lock, {
      version: sourcesFile.schema_version,
      source: httpSource(SITE, (name) => name, sourcesFile.limits, offlineFetch(calls)),
      update: false,
      check: true,
    });
    deepStrictEqual(calls, []);
    strictEqual(
      report.verified,
      Object.keys(lock.schemas[sourcesFile.schema_version]!).length +
        sourcesFile.test_vectors.files.length +
        Object.keys(lock.compliance[sourcesFile.schema_version]!).length,
    );
  },
);

Deno.test(
  "the committed snapshot is what git tracks: spec/schemas/<each locked version>/ and " +
    "vectors/upstream/ with compliance/<each locked version>/",
  async () => {
    const git = await new Deno.Command("git", {
      args: ["ls-files", "--", "spec/schemas", "vectors/upstream"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "null",
    }).output().catch(() => undefined);
    if (git === undefined || !git.success) return; // not a git checkout (a source archive)
    const sourcesFile = await readSources();
    const lock = await readLock();
    const expected = [
      ...Object.entries(lock.schemas).flatMap(([version, files]) =>
        Object.keys(files).map((path) => `spec/schemas/${version}/${path}`)
      ),
      ...sourcesFile.test_vectors.files.map((name) => `vectors/upstream/${name}`),
      ...Object.entries(lock.compliance).flatMap(([version, files]) =>
        Object.keys(files).map((path) => `vectors/upstream/compliance/${version}/${path}`)
      ),
    ].sort();
    const tracked = new TextDecoder().decode(git.stdout).split("\n").filter((line) => line !== "")
      .sort();
    deepStrictEqual(tracked, expected);
  },
);

Deno.test(
  "sync() --update from a --from dir syncs the listed compliance files byte for byte, and " +
    "nothing else of the bundle",
  async () => {
    const { mirror, out, lock } = await synced();
    deepStrictEqual(Object.keys(lock.compliance[VERSION]!).sort(), COMPLIANCE);
    for (const path of COMPLIANCE) {
      deepStrictEqual(
        await Deno.readFile(`${out}/${COMPLIANCE_OUT}/${path}`),
        await Deno.readFile(`${mirror}/${COMPLIANCE_SITE}/${path}`),
      );
    }
    // Neither the README nor the unlisted webhook-receiver-envelope.json, and no other folder.
    const written = [];
    for await (const entry of Deno.readDir(`${out}/vectors/upstream/compliance`)) {
      written.push(entry.name);
    }
    deepStrictEqual(written, [VERSION]);
    await rejects(
      Deno.stat(`${out}/${COMPLIANCE_OUT}/request-signing/README.md`),
      Deno.errors.NotFound,
    );
    await rejects(
      Deno.stat(`${out}/${COMPLIANCE_OUT}/webhook-receiver-envelope.json`),
      Deno.errors.NotFound,
    );
    // The digests are the files' sha256.
    strictEqual(
      lock.compliance[VERSION]!["request-signing/keys.json"],
      await sha256Hex(
        await Deno.readFile(`${mirror}/${COMPLIANCE_SITE}/request-signing/keys.json`),
      ),
    );
    for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
  },
);

Deno.test(
  "sync() --update skips an optional compliance file the version lacks and fails on a missing " +
    "required one, writing nothing",
  async () => {
    const { mirror, out, lock } = await synced();
    // body-integrity-policy.json (optional) is absent from the site: not an error, not locked.
    strictEqual(lock.compliance[VERSION]!["request-signing/body-integrity-policy.json"], undefined);
    // Once the version has it, an update records it.
    await Deno.writeTextFile(
      `${mirror}/${COMPLIANCE_SITE}/request-signing/body-integrity-policy.json`,
      '{"policy":1}',
    );
    const updated = structuredClone(lock);
    strictEqual(await syncError(mirror, out, updated, { update: true }), undefined);
    ok(Object.hasOwn(updated.compliance[VERSION]!, "request-signing/body-integrity-policy.json"));
    strictEqual(
      await Deno.readTextFile(
        `${out}/${COMPLIANCE_OUT}/request-signing/body-integrity-policy.json`,
      ),
      '{"policy":1}',
    );
    // A required file missing from the source fails the update, which writes nothing.
    await Deno.remove(`${mirror}/${COMPLIANCE_SITE}/webhook-signing/keys.json`);
    await Deno.writeTextFile(`${mirror}/${COMPLIANCE_SITE}/request-signing/keys.json`, '{"new":1}');
    const refused = structuredClone(updated);
    const error = await syncError(mirror, out, refused, { update: true });
    ok(error instanceof ScriptError, String(error));
    ok(error.message.includes(`${COMPLIANCE_SITE}/webhook-signing/keys.json`), error.message);
    ok(error.message.includes("required by spec/sources.jsonc compliance.files"), error.message);
    deepStrictEqual(refused, updated, "the lock is not changed");
    strictEqual(
      await Deno.readTextFile(`${out}/${COMPLIANCE_OUT}/request-signing/keys.json`),
      JSON.stringify({ keys: [{ kid: "test-ed25519" }] }),
      "nothing written",
    );
    ok(await Deno.stat(`${out}/${COMPLIANCE_OUT}/webhook-signing/keys.json`));
    for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
  },
);

Deno.test("sync() --update refuses a compliance file that is not JSON", async () => {
  const mirror = await makeMirror();
  const out = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${mirror}/${COMPLIANCE_SITE}/request-signing/positive/001-basic-post.json`,
    "<html>not found</html>",
  );
  const error = await syncError(mirror, out, emptyLock(), { update: true });
  ok(error instanceof ScriptError && error.message.includes("is not JSON"), String(error));
  ok(error.message.includes("request-signing/positive/001-basic-post.json"), error.message);
  await rejects(Deno.stat(`${out}/vectors`), Deno.errors.NotFound);
  for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
});

Deno.test(
  "sync() refuses a tampered compliance file with both digests and the way to restore it, " +
    "and a source whose copy differs from the lock",
  async () => {
    const { mirror, out, lock } = await synced();
    const file = `${COMPLIANCE_OUT}/request-signing/positive/001-basic-post.json`;
    await Deno.writeTextFile(`${out}/${file}`, '{"name":"tampered"}');
    for (const check of [false, true]) {
      const error = await syncError(mirror, out, lock, { check });
      ok(error instanceof ScriptError, String(error));
      ok(!error.message.includes("\n"), "one line");
      ok(error.message.startsWith(`Refusing ${file}: sha256 `), error.message);
      ok(
        error.message.includes(
          lock.compliance[VERSION]!["request-signing/positive/001-basic-post.json"]!,
        ),
        "names the lock's digest",
      );
      ok(error.message.includes(`\`git checkout -- ${file}\``), error.message);
      strictEqual(await Deno.readTextFile(`${out}/${file}`), '{"name":"tampered"}');
    }
    // Deleted locally, and the source's copy differs: refused, not written.
    await Deno.remove(`${out}/${file}`);
    const checkError = await syncError(mirror, out, lock, { check: true });
    ok(
      checkError instanceof ScriptError && checkError.message.includes(`${file} is missing`),
      String(checkError),
    );
    await Deno.writeTextFile(
      `${mirror}/${COMPLIANCE_SITE}/request-signing/positive/001-basic-post.json`,
      '{"name":"changed upstream"}',
    );
    const sourceError = await syncError(mirror, out, lock, {});
    ok(
      sourceError instanceof ScriptError && sourceError.message.includes("does not match the lock"),
      String(sourceError),
    );
    await rejects(Deno.stat(`${out}/${file}`), Deno.errors.NotFound);
    for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
  },
);

Deno.test(
  "sync() refuses a lock that disagrees with the compliance lists of spec/sources.jsonc",
  async () => {
    const { mirror, out, lock } = await synced();
    const missing = structuredClone(lock);
    delete missing.compliance[VERSION]!["webhook-signing/keys.json"];
    const missingError = await syncError(mirror, out, missing, {});
    ok(
      missingError instanceof ScriptError &&
        missingError.message.includes(
          `${COMPLIANCE_OUT}/webhook-signing/keys.json is not in the lock`,
        ) && missingError.message.includes("--update"),
      String(missingError),
    );
    const extra = structuredClone(lock);
    extra.compliance[VERSION]!["request-signing/unlisted.json"] = "0".repeat(64);
    const extraError = await syncError(mirror, out, extra, {});
    ok(
      extraError instanceof ScriptError &&
        extraError.message.includes("is in the lock but not in spec/sources.jsonc compliance"),
      String(extraError),
    );
    const none = structuredClone(lock);
    delete none.compliance[VERSION];
    const noneError = await syncError(mirror, out, none, {});
    ok(
      noneError instanceof ScriptError &&
        noneError.message.includes(`The lock has no compliance files of version ${VERSION}`),
      String(noneError),
    );
    for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
  },
);

Deno.test(
  "sync() keeps other locked versions' compliance files, and --check refuses (a sync removes) " +
    "one the lock does not know",
  async () => {
    const { mirror, out, lock } = await synced();
    // Another locked version's folder: kept, not verified by a run of VERSION.
    const other = "0.9.0";
    lock.compliance[other] = { "request-signing/keys.json": "0".repeat(64) };
    const otherFile = `${out}/vectors/upstream/compliance/${other}/request-signing/keys.json`;
    await Deno.mkdir(otherFile.slice(0, otherFile.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(otherFile, "{}");
    for (
      const stale of [
        `${COMPLIANCE_OUT}/request-signing/README.md`,
        "vectors/upstream/compliance/7.7.7/request-signing/keys.json",
      ]
    ) {
      const path = `${out}/${stale}`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, "{}");
      const error = await syncError(mirror, out, lock, { check: true });
      ok(
        error instanceof ScriptError && error.message.includes(`${stale} is not in the lock`),
        String(error),
      );
      strictEqual(await syncError(mirror, out, lock, {}), undefined);
      await rejects(Deno.stat(path), Deno.errors.NotFound);
    }
    strictEqual(await Deno.readTextFile(otherFile), "{}");
    for (const dir of [mirror, out]) await Deno.remove(dir, { recursive: true });
  },
);

Deno.test("formatLock() and parseLock() round-trip a lock with compliance, keys sorted", () => {
  const digest = (n: number) => n.toString(16).padStart(64, "0");
  const lock: Lock = {
    lockfile_version: 1,
    test_vectors: { commit: "a".repeat(40), files: { "b.json": digest(1), "a.json": digest(2) } },
    schemas: { "3.1.19": { "z.json": digest(3), "a.json": digest(4) } },
    compliance: {
      "3.2.0-beta.5": {
        "webhook-signing/keys.json": digest(5),
        "request-signing/keys.json": digest(6),
      },
      "3.1.19": { "request-signing/keys.json": digest(7) },
    },
  };
  const text = formatLock(lock);
  deepStrictEqual(parseLock(text), lock);
  strictEqual(formatLock(parseLock(text)), text, "equal content gives equal bytes");
  ok(text.endsWith("}\n"));
  ok(
    text.indexOf('"3.1.19"', text.indexOf('"compliance"')) <
      text.indexOf('"3.2.0-beta.5"', text.indexOf('"compliance"')),
  );
  ok(text.indexOf('"request-signing/keys.json"') < text.indexOf('"webhook-signing/keys.json"'));
  // A lock from before compliance files were synced reads as having none.
  const { compliance: _, ...older } = lock;
  deepStrictEqual(parseLock(JSON.stringify(older)).compliance, {});
});

Deno.test("the committed lock is in formatLock()'s canonical form", async () => {
  const text = await Deno.readTextFile(LOCK_PATH);
  strictEqual(formatLock(parseLock(text)), text);
});

Deno.test("parseSources() refuses compliance lists that are unsafe or not JSON files", async () => {
  const text = await Deno.readTextFile(SOURCES_PATH);
  const real = parseSources(text);
  ok(real.compliance.files.includes("request-signing/keys.json"));
  const withCompliance = (compliance: unknown) => JSON.stringify({ ...real, compliance }, null, 2);
  for (
    const [compliance, message] of [
      [undefined, "compliance needs files and optional_files lists"],
      [{ files: ["a.json"] }, "compliance needs files and optional_files lists"],
      [{ files: [1], optional_files: [] }, "compliance needs files and optional_files lists"],
      [{ files: ["../escaped.json"], optional_files: [] }, "unsafe relative path"],
      [{ files: ["a/%2e%2e/b.json"], optional_files: [] }, "unsafe relative path"],
      [{ files: [], optional_files: ["/etc/passwd.json"] }, "unsafe relative path"],
      [{ files: ["request-signing/README.md"], optional_files: [] }, "not a .json path"],
      [{ files: ["a.json"], optional_files: ["a.json"] }, "listed twice"],
    ] as const
  ) {
    let error: unknown;
    try {
      parseSources(withCompliance(compliance));
    } catch (caught) {
      error = caught;
    }
    ok(error instanceof ScriptError && error.message.includes(message), `${message}: ${error}`);
  }
});

Deno.test(
  "every locked version's snapshot (schemas, vectors, compliance) verifies offline",
  async () => {
    const sourcesFile = await readSources();
    const lock = await readLock();
    deepStrictEqual(Object.keys(lock.compliance).sort(), Object.keys(lock.schemas).sort());
    for (const version of Object.keys(lock.schemas)) {
      const calls: string[] = [];
      const report = await sync(sourcesFile, lock, {
        version,
        source: httpSource(SITE, (name) => name, sourcesFile.limits, offlineFetch(calls)),
        update: false,
        check: true,
      });
      deepStrictEqual(calls, []);
      strictEqual(
        report.verified,
        Object.keys(lock.schemas[version]!).length + sourcesFile.test_vectors.files.length +
          Object.keys(lock.compliance[version]!).length,
      );
    }
  },
);
