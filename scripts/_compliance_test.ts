import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { assembleCompliance, type AssembledFile } from "./_compliance.ts";
import { UPSTREAM_VECTORS_DIR } from "./_sources.ts";
import { totals } from "./_vectors.ts";
import { directImplementation, runVectors } from "./test_vectors.ts";

const PINNED = "3.2.0-beta.5";
const KEYS = { keys: [{ kid: "k1", kty: "OKP", crv: "Ed25519", x: "AA" }] };

/** A vectors folder with one version's compliance tree, from `files` (path → JSON or raw text). */
async function tree(files: Record<string, unknown>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "adcp-wire-compliance-" });
  for (const [path, content] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, typeof content === "string" ? content : JSON.stringify(content));
  }
  return dir;
}

/** A complete, well-formed tree of version `v` (both bundles, canonicalization, optional parts). */
function complete(v = "9.9.9", optional = true): Record<string, unknown> {
  const rs = `compliance/${v}/request-signing`;
  const ws = `compliance/${v}/webhook-signing`;
  return {
    [`${rs}/keys.json`]: KEYS,
    [`${rs}/positive/002-b.json`]: { name: "second positive" },
    [`${rs}/positive/001-a.json`]: { name: "first positive", reference_now: 1 },
    [`${rs}/positive/README.md`]: "not a vector",
    [`${rs}/negative/001-c.json`]: { name: "a negative", id: "spoofed", description: "spoofed" },
    [`${rs}/canonicalization.json`]: { cases: [] },
    [`${ws}/keys.json`]: KEYS,
    [`${ws}/positive/001-w.json`]: { name: "webhook" },
    [`${ws}/negative/001-x.json`]: { name: "webhook negative" },
    ...(optional
      ? {
        [`${rs}/body-integrity-policy.json`]: { cases: [] },
        [`${rs}/profile-3.2/positive/001-p.json`]: { name: "profile positive" },
        [`${rs}/profile-3.2/negative/001-q.json`]: { name: "profile negative" },
      }
      : {}),
  };
}

function summary(files: AssembledFile[]): [string, string, boolean][] {
  return files.map((f) => [f.file.slice(f.file.indexOf("compliance/")), f.suite, f.ok]);
}

function failure(files: AssembledFile[], suffix: string): string {
  const file = files.find((f) => f.file.endsWith(suffix));
  ok(file && !file.ok, `${suffix} failed: ${JSON.stringify(files)}`);
  return (file as { reason: string }).reason;
}

Deno.test("assembleCompliance() assembles every bundle of the pinned version, sorted", async () => {
  const files = await assembleCompliance(UPSTREAM_VECTORS_DIR, PINNED);
  deepStrictEqual(summary(files), [
    [`compliance/${PINNED}/request-signing/`, "request-signing", true],
    [
      `compliance/${PINNED}/request-signing/body-integrity-policy.json`,
      "body-integrity-policy",
      true,
    ],
    [
      `compliance/${PINNED}/request-signing/canonicalization.json`,
      "target-uri-canonicalization",
      true,
    ],
    [`compliance/${PINNED}/request-signing/profile-3.2/`, "request-signing", true],
    [`compliance/${PINNED}/webhook-signing/`, "webhook-signing", true],
  ]);
  strictEqual(files[0]!.file, `vectors/upstream/compliance/${PINNED}/request-signing/`);
  const bundle = (files[0] as { doc: { keys: unknown[]; vectors: Record<string, unknown>[] } }).doc;
  const ids = bundle.vectors.map((v) => v.id as string);
  strictEqual(ids.length, 40);
  strictEqual(ids[0], "positive/001-basic-post");
  strictEqual(ids[12], "negative/001-no-signature-header");
  deepStrictEqual(ids.slice(0, 12), ids.slice(0, 12).toSorted());
  ok(ids.slice(12).every((id) => id.startsWith("negative/")));
  const keys = JSON.parse(
    await Deno.readTextFile(
      `${UPSTREAM_VECTORS_DIR}/compliance/${PINNED}/request-signing/keys.json`,
    ),
  );
  deepStrictEqual(bundle.keys, keys.keys);
  const first = JSON.parse(
    await Deno.readTextFile(
      `${UPSTREAM_VECTORS_DIR}/compliance/${PINNED}/request-signing/positive/001-basic-post.json`,
    ),
  );
  deepStrictEqual(bundle.vectors[0], {
    ...first,
    id: "positive/001-basic-post",
    description: first.name,
  });
  // profile-3.2 takes its keys from request-signing/keys.json.
  const profile = (files[3] as { doc: { keys: unknown[]; vectors: unknown[] } }).doc;
  deepStrictEqual(profile.keys, keys.keys);
  strictEqual(profile.vectors.length, 3);
});

Deno.test("assembleCompliance() on 3.1.19 has no profile-3.2 and no body-integrity", async () => {
  const files = await assembleCompliance(UPSTREAM_VECTORS_DIR, "3.1.19");
  deepStrictEqual(summary(files), [
    ["compliance/3.1.19/request-signing/", "request-signing", true],
    [
      "compliance/3.1.19/request-signing/canonicalization.json",
      "target-uri-canonicalization",
      true,
    ],
    ["compliance/3.1.19/webhook-signing/", "webhook-signing", true],
  ]);
});

Deno.test("assembleCompliance() ids are the file paths, positive then negative", async () => {
  const dir = await tree(complete());
  try {
    const files = await assembleCompliance(dir, "9.9.9");
    strictEqual(files.length, 5);
    ok(files.every((f) => f.ok), JSON.stringify(files));
    const doc = (files[0] as { doc: { keys: unknown; vectors: unknown[] } }).doc;
    deepStrictEqual(doc, {
      keys: KEYS.keys,
      vectors: [
        {
          name: "first positive",
          reference_now: 1,
          id: "positive/001-a",
          description: "first positive",
        },
        { name: "second positive", id: "positive/002-b", description: "second positive" },
        // A vector's own id and description never replace the path and name.
        { name: "a negative", id: "negative/001-c", description: "a negative" },
      ],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assembleCompliance() finds nothing without a compliance folder", async () => {
  const dir = await tree({ "mcp-response-extraction.json": { vectors: [] } });
  try {
    deepStrictEqual(await assembleCompliance(dir, PINNED), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assembleCompliance() fails each required entry of a version it lacks", async () => {
  const dir = await tree(complete("1.0.0"));
  try {
    const files = await assembleCompliance(dir, "9.9.9");
    deepStrictEqual(summary(files), [
      ["compliance/9.9.9/request-signing/", "request-signing", false],
      [
        "compliance/9.9.9/request-signing/canonicalization.json",
        "target-uri-canonicalization",
        false,
      ],
      ["compliance/9.9.9/webhook-signing/", "webhook-signing", false],
    ]);
    ok(failure(files, "webhook-signing/").startsWith("no compliance bundle for AdCP 9.9.9 in "));
    ok(
      failure(files, "webhook-signing/").includes("(it has 1.0.0; "),
      failure(files, "webhook-signing/"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assembleCompliance() never reads outside compliance/ for a version", async () => {
  const dir = await tree(complete("9.9.9"));
  try {
    for (const version of ["../compliance/9.9.9", "9.9.9/..", ".", "", "a/b"]) {
      const files = await assembleCompliance(dir, version);
      strictEqual(files.length, 3, version);
      ok(files.every((f) => !f.ok && f.reason.startsWith("not an AdCP version: ")), version);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assembleCompliance() leaves out missing optional entries only", async () => {
  const dir = await tree(complete("9.9.9", false));
  try {
    const files = await assembleCompliance(dir, "9.9.9");
    strictEqual(files.length, 3);
    ok(files.every((f) => f.ok));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("assembleCompliance() fails a malformed part's entry, the others intact", async () => {
  const rs = "compliance/9.9.9/request-signing";
  const cases: [string, Record<string, unknown>, string, RegExp, number][] = [
    [
      "a vector that is not JSON",
      { [`${rs}/negative/001-c.json`]: "{" },
      "request-signing/",
      /negative\/001-c\.json is not JSON/,
      1,
    ],
    [
      "a vector that is an array",
      { [`${rs}/positive/001-a.json`]: [1] },
      "request-signing/",
      /001-a\.json: expected a JSON object/,
      1,
    ],
    [
      "keys.json without keys",
      { [`${rs}/keys.json`]: { keys: "k" } },
      "request-signing/",
      /keys\.json: expected an object with a `keys` array/,
      2, // profile-3.2 reads the same keys.json
    ],
    [
      "canonicalization.json not JSON",
      { [`${rs}/canonicalization.json`]: "nope" },
      "canonicalization.json",
      /is not JSON/,
      1,
    ],
    [
      "a broken optional file",
      { [`${rs}/body-integrity-policy.json`]: "[" },
      "body-integrity-policy.json",
      /is not JSON/,
      1,
    ],
  ];
  for (const [what, patch, suffix, reason, failed] of cases) {
    const dir = await tree({ ...complete(), ...patch });
    try {
      const files = await assembleCompliance(dir, "9.9.9");
      strictEqual(files.length, 5, what);
      ok(reason.test(failure(files, suffix)), `${what}: ${failure(files, suffix)}`);
      strictEqual(files.filter((f) => !f.ok).length, failed, what);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("assembleCompliance() fails a bundle that lacks its keys or a section", async () => {
  const full = complete();
  const rs = "compliance/9.9.9/request-signing";
  const withoutKeys = Object.fromEntries(
    Object.entries(full).filter(([path]) => path !== `${rs}/keys.json`),
  );
  const withoutNegative = Object.fromEntries(
    Object.entries(full).filter(([path]) => !path.startsWith(`${rs}/profile-3.2/negative/`)),
  );
  let dir = await tree(withoutKeys);
  try {
    const files = await assembleCompliance(dir, "9.9.9");
    // Both request-signing bundles read request-signing/keys.json.
    strictEqual(failure(files, "request-signing/"), "request-signing/keys.json does not exist");
    strictEqual(failure(files, "profile-3.2/"), "request-signing/keys.json does not exist");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  dir = await tree(withoutNegative);
  try {
    const files = await assembleCompliance(dir, "9.9.9");
    strictEqual(
      failure(files, "profile-3.2/"),
      "request-signing/profile-3.2/negative/ does not exist",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runVectors() fails a broken bundle as one (file) and filters by suite", async () => {
  const rs = "compliance/9.9.9/request-signing";
  const dir = await tree({ ...complete(), [`${rs}/negative/001-c.json`]: "{" });
  try {
    const impl = await directImplementation();
    const reports = await runVectors([dir], impl, {
      adcpVersion: "9.9.9",
      suites: new Set(["request-signing"]),
    });
    deepStrictEqual(reports.map((r) => [r.file.slice(dir.length), r.suite]), [
      [`/${rs}/`, "request-signing"],
      [`/${rs}/profile-3.2/`, "request-signing"],
    ]);
    const broken = reports[0]!;
    deepStrictEqual([broken.total, broken.failed], [1, 1]);
    strictEqual(broken.outcomes[0]!.id, "(file)");
    ok(broken.outcomes[0]!.reason!.startsWith("cannot read: "), broken.outcomes[0]!.reason);
    // The profile bundle's vectors ran (and fail: they are not real vectors).
    strictEqual(reports[1]!.total, 2);
    strictEqual(totals(reports).passed, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
