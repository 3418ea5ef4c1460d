import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { ADCP_VERSION } from "@adcp-wire/schemas";
import { LOCAL_VECTORS_DIR, ROOT, UPSTREAM_VECTORS_DIR } from "./_sources.ts";
import {
  type FileReport,
  formatReport,
  jsonReport,
  SUITE_NAMES,
  totals,
  UPSTREAM_APPLICABILITY,
  versionInRange,
} from "./_vectors.ts";
import {
  childImplementation,
  describeExit,
  directImplementation,
  parseTestVectorsArgs,
  runVectors,
} from "./test_vectors.ts";

const DIRS = [UPSTREAM_VECTORS_DIR, LOCAL_VECTORS_DIR];

/** The vectors of the project's table that do not apply to the pinned version, per file. */
function notApplicableByTable(file: string): number {
  return [...UPSTREAM_APPLICABILITY].filter(([key, { adcpVersions }]) =>
    key.startsWith(`${file}#`) && !versionInRange(ADCP_VERSION, adcpVersions)
  ).length;
}

/** Local vectors (objects with an `adcp_versions`) whose range leaves the pinned version out. */
async function localNotApplicable(): Promise<number> {
  let count = 0;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      if (
        typeof record.adcp_versions === "string" &&
        !versionInRange(ADCP_VERSION, record.adcp_versions)
      ) count++;
      Object.values(record).forEach(walk);
    }
  };
  for await (const entry of Deno.readDir("vectors/local")) {
    if (entry.name.endsWith(".json")) {
      walk(JSON.parse(await Deno.readTextFile(`vectors/local/${entry.name}`)));
    }
  }
  return count;
}

Deno.test(
  "every upstream and local vector passes against the project's implementation, or does not " +
    `apply to the pinned AdCP version (${ADCP_VERSION})`,
  async () => {
    const reports = await runVectors(DIRS, await directImplementation());
    const t = totals(reports);
    strictEqual(t.failed, 0, formatReport(reports));
    // Upstream's files are all there and all run; on AdCP 3.1.19 the two vectors of the codes
    // ACCOUNT_MOVED and ACCOUNT_IDENTITY_CONFLICT (from 3.2.0-beta.5 on) do not apply, nor do the
    // local vectors whose `adcp_versions` leaves the pinned version out.
    strictEqual(
      t.notApplicable,
      (versionInRange(ADCP_VERSION, ">=3.2.0-beta.5") ? 0 : 2) + await localNotApplicable(),
    );
    const byFile = new Map(reports.map((r) => [r.file, r]));
    for (
      const [file, count] of [
        ["vectors/upstream/mcp-response-extraction.json", 16],
        ["vectors/upstream/a2a-response-extraction.json", 31],
        ["vectors/upstream/transport-error-mapping.json", 32],
        ["vectors/upstream/webhook-payload-extraction.json", 12],
      ] as const
    ) {
      const r = byFile.get(file);
      ok(r, `${file} was run`);
      const notApplicable = notApplicableByTable(file);
      deepStrictEqual(
        [r.total, r.passed, r.notApplicable],
        [count, count - notApplicable, notApplicable],
        file,
      );
    }
    strictEqual(t.skipped, 0);
    // Upstream's compliance bundles of the pinned version ran, one vector per upstream file.
    const compliance = `vectors/upstream/compliance/${ADCP_VERSION}`;
    for (const folder of ["request-signing", "webhook-signing"]) {
      const r = byFile.get(`${compliance}/${folder}/`);
      ok(r, `${compliance}/${folder}/ was run`);
      let files = 0;
      for (const section of ["positive", "negative"]) {
        for await (const entry of Deno.readDir(`${ROOT}/${compliance}/${folder}/${section}`)) {
          if (entry.name.endsWith(".json")) files++;
        }
      }
      deepStrictEqual([r.total, r.passed], [files, files], folder);
    }
    const canonicalization = byFile.get(`${compliance}/request-signing/canonicalization.json`);
    strictEqual(canonicalization?.suite, "target-uri-canonicalization");
    ok(canonicalization.passed > 0 && canonicalization.passed === canonicalization.total);
    // Every suite has local vectors.
    for (const suite of SUITE_NAMES) {
      ok(
        reports.some((r) => r.file.startsWith("vectors/local/") && r.suite === suite && r.passed),
        `local ${suite} vectors ran`,
      );
    }
  },
);

Deno.test("UPSTREAM_APPLICABILITY names vectors of the synced upstream files", async () => {
  for (const key of UPSTREAM_APPLICABILITY.keys()) {
    const [file, id] = key.split("#") as [string, string];
    const doc = JSON.parse(await Deno.readTextFile(`${ROOT}/${file}`));
    ok(doc.vectors.some((v: { id: string }) => v.id === id), `${key} is not in ${file}`);
  }
});

Deno.test("on AdCP 3.1.19 the table's vectors are not applicable, never passed", async () => {
  const reports = await runVectors([UPSTREAM_VECTORS_DIR], await directImplementation(), {
    adcpVersion: "3.1.19",
  });
  const mapping = reports.find((r) => r.file === "vectors/upstream/transport-error-mapping.json")!;
  deepStrictEqual(
    mapping.outcomes.filter((o) => o.status === "not_applicable").map((o) => o.id),
    ["mcp-account-moved-missing-recovery", "mcp-account-identity-conflict-missing-recovery"],
  );
  // The signing suites run 3.1.19's own compliance bundles (no profile-3.2, no body-integrity).
  deepStrictEqual(
    reports.filter((r) => r.file.includes("/compliance/")).map((r) => [r.file, r.suite]),
    [
      ["vectors/upstream/compliance/3.1.19/request-signing/", "request-signing"],
      [
        "vectors/upstream/compliance/3.1.19/request-signing/canonicalization.json",
        "target-uri-canonicalization",
      ],
      ["vectors/upstream/compliance/3.1.19/webhook-signing/", "webhook-signing"],
    ],
  );
  strictEqual(totals(reports).failed, 0, formatReport(reports, { adcpVersion: "3.1.19" }));
  const text = formatReport(reports, { adcpVersion: "3.1.19" });
  ok(text.includes("\nNot applicable to AdCP 3.1.19 (2):\n"), text);
  ok(
    text.includes(
      "  vectors/upstream/transport-error-mapping.json#mcp-account-moved-missing-recovery: " +
        "applies to AdCP >=3.2.0-beta.5, not 3.1.19 (project table: ACCOUNT_MOVED is a standard",
    ),
    text,
  );
});

Deno.test(
  "the wrapper vectors pass with the library's upper-case WRAPPER_DETECTED code",
  async () => {
    const impl = await directImplementation();
    const wrapped = {
      status: { state: "completed" },
      artifacts: [{ parts: [{ data: { response: { products: [] } } }] }],
    };
    const reply = await impl({
      suite: "a2a-response-extraction",
      id: "wrapper",
      input: wrapped,
      options: null,
    });
    deepStrictEqual(reply, { error: { code: "WRAPPER_DETECTED" } });
    const reports = await runVectors([UPSTREAM_VECTORS_DIR], impl);
    const a2a = reports.find((r) => r.file === "vectors/upstream/a2a-response-extraction.json");
    ok(a2a && a2a.failed === 0 && a2a.passed === a2a.total, formatReport(reports));
  },
);

Deno.test(
  "--impl through the JSON-lines adapter reproduces the direct report exactly",
  async () => {
    const direct = await runVectors(DIRS, await directImplementation());
    const child = childImplementation(
      `"${Deno.execPath()}" run --quiet --allow-read scripts/impl_adapter.ts`,
    );
    let viaImpl;
    try {
      viaImpl = await runVectors(DIRS, child.impl);
    } finally {
      await child.close();
    }
    deepStrictEqual(jsonReport(viaImpl), jsonReport(direct));
    strictEqual(formatReport(viaImpl), formatReport(direct));
  },
);

Deno.test("a deliberately broken vector gives a readable failure and a non-zero exit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/mcp-response-extraction-broken.json`,
      JSON.stringify({
        version: 1,
        description: "broken on purpose",
        vectors: [{
          id: "broken-structured-content",
          description: "expects the wrong product id",
          path: "structuredContent",
          response: { structuredContent: { products: [{ product_id: "p1" }] } },
          expected_data: { products: [{ product_id: "p2" }] },
        }],
      }),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--allow-read",
        "--allow-write",
        "--allow-run",
        "--allow-env",
        "scripts/test_vectors.ts",
        "--vectors",
        dir,
      ],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    strictEqual(out.code, 1, text + new TextDecoder().decode(out.stderr));
    ok(text.includes("/mcp-response-extraction-broken.json#broken-structured-content: "), text);
    ok(text.includes("› broken-structured-content"), text);
    ok(text.includes("expects the wrong product id"), text);
    ok(text.includes('-       "product_id": "p2"'), text);
    ok(text.includes('+       "product_id": "p1"'), text);
    ok(
      /\n\d+ passed, 1 failed, \d+ skipped, \d+ not applicable \(AdCP [^)]+\)$/.test(
        text.trimEnd(),
      ),
      text,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs one small vector file of `count` vectors through a child implementation. */
async function runWithChild(
  command: string,
  timeoutMs: number,
  count = 2,
): Promise<{ failed: number; passed: number; ms: number; reports: FileReport[] }> {
  const dir = await Deno.makeTempDir();
  const started = performance.now();
  try {
    await Deno.writeTextFile(
      `${dir}/mcp-response-extraction-two.json`,
      JSON.stringify({
        version: 1,
        vectors: Array.from({ length: count }, (_, i) => "abcdefghij"[i] ?? `v${i}`).map((id) => ({
          id,
          description: id,
          path: "structuredContent",
          response: { structuredContent: { id } },
          expected_data: { id },
        })),
      }),
    );
    const child = childImplementation(command, timeoutMs, 500);
    let reports;
    try {
      reports = await runVectors([dir], child.impl);
    } finally {
      await child.close();
    }
    const t = totals(reports);
    return { failed: t.failed, passed: t.passed, ms: performance.now() - started, reports };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const ADAPTER = `"${Deno.execPath()}" run --quiet --allow-read scripts/impl_adapter.ts`;

Deno.test("--impl: a port that answers but never exits is ended after a grace period", async () => {
  const run = await runWithChild(`${ADAPTER}; sleep 60`, 5_000);
  deepStrictEqual([run.passed, run.failed], [2, 0]);
  ok(run.ms < 20_000, `${run.ms} ms`);
});

Deno.test(
  "--impl: a silent port fails its vectors and is killed with what it started",
  async () => {
    const run = await runWithChild("sleep 60", 300);
    deepStrictEqual([run.passed, run.failed], [0, 2]);
    ok(run.ms < 10_000, `${run.ms} ms`);
  },
);

Deno.test("--impl: a port that floods output without reading its input is bounded", async () => {
  const run = await runWithChild(`exec yes '{"result": null}'`, 300);
  strictEqual(run.passed, 0);
  strictEqual(run.failed, 2);
  ok(run.ms < 10_000, `${run.ms} ms`);
});

Deno.test("test-vectors refuses a vectors folder that does not exist", async () => {
  let error: unknown;
  try {
    await runVectors([`${ROOT}/vectors/no-such-folder`], await directImplementation());
  } catch (e) {
    error = e;
  }
  ok(error instanceof Error && error.message.includes("No such vectors folder"), String(error));
});

Deno.test("test-vectors follows a symlinked vector file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const target = `${dir}/target.txt`;
    await Deno.writeTextFile(
      target,
      JSON.stringify({
        version: 1,
        vectors: [{
          id: "linked",
          description: "a failing vector behind a link",
          path: "structuredContent",
          response: { structuredContent: { a: 1 } },
          expected_data: { a: 2 },
        }],
      }),
    );
    await Deno.mkdir(`${dir}/v`);
    await Deno.symlink(target, `${dir}/v/mcp-response-extraction-linked.json`);
    const reports = await runVectors([`${dir}/v`], await directImplementation());
    deepStrictEqual(reports.map((r) => [r.file.endsWith("linked.json"), r.failed]), [[true, 1]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--impl: a port that exits early is reported once, with its exit status", async () => {
  const run = await runWithChild(`read line; echo '{"result": {"id": "a"}}'; exit 3`, 5_000, 6);
  deepStrictEqual([run.passed, run.failed], [1, 5]);
  const outcomes = run.reports[0]!.outcomes;
  ok(outcomes.slice(1).every((o) => o.unanswered), JSON.stringify(outcomes));
  ok(/after answering 1 request and exited with status 3$/.test(outcomes[1]!.reason!));
  const text = formatReport(run.reports);
  const mentions = text.split("\n").filter((l) => l.includes("status 3"));
  strictEqual(mentions.length, 1, text);
  ok(
    mentions[0]!.endsWith(
      "the 5 vectors from " + run.reports[0]!.file + "#b on were never " +
        "answered and count as failed",
    ),
    text,
  );
});

Deno.test("--impl: a port killed by a signal is reported once, with the signal", async () => {
  const run = await runWithChild("kill -TERM $$", 5_000, 3);
  deepStrictEqual([run.passed, run.failed], [0, 3]);
  const reason = run.reports[0]!.outcomes[0]!.reason!;
  ok(reason.includes("was killed by SIGTERM"), reason);
  strictEqual(formatReport(run.reports).split("\n").filter((l) => l.includes("SIGTERM")).length, 1);
});

Deno.test("describeExit() says how a process ended", () => {
  strictEqual(describeExit({ success: false, code: 3, signal: null }), "exited with status 3");
  strictEqual(
    describeExit({ success: false, code: 143, signal: "SIGTERM" }),
    "was killed by SIGTERM (status 143)",
  );
  strictEqual(describeExit(undefined), "is still running");
});

Deno.test("test-vectors --suite runs only the named suites, refusing unknown ones", async () => {
  const args = parseTestVectorsArgs(["--suite", "seller-strings", "--suite=retry-decisions"]);
  ok(args !== "help");
  deepStrictEqual([...args.suites!], ["seller-strings", "retry-decisions"]);
  strictEqual(args.adcpVersion, ADCP_VERSION);
  // A mistyped suite names the nearest one, then lists them all.
  throws(
    () => parseTestVectorsArgs(["--suite", "seller-string"]),
    {
      name: "UsageError",
      message: 'Unknown suite "seller-string" (did you mean seller-strings?); the known suites ' +
        `are ${SUITE_NAMES.join(", ")}`,
    },
  );
  throws(() => parseTestVectorsArgs(["--suite=retry-decision"]), {
    message: /^Unknown suite "retry-decision" \(did you mean retry-decisions\?\); /,
  });
  throws(() => parseTestVectorsArgs(["--suite", "Webhook-Signing"]), {
    message: /^Unknown suite "Webhook-Signing" \(did you mean webhook-signing\?\); /,
  });
  throws(() => parseTestVectorsArgs(["--suite", "nope"]), {
    message: /^Unknown suite "nope" \(did you mean [a-z0-9-]+\?\); the known suites are /,
  });
  throws(() => parseTestVectorsArgs(["--suite"]), {
    name: "UsageError",
    message: "--suite needs a value",
  });
  throws(() => parseTestVectorsArgs(["--sutie", "seller-strings"]), {
    name: "UsageError",
    message: 'Unknown argument "--sutie"; did you mean --suite? (see --help)',
  });
  strictEqual(parseTestVectorsArgs(["--json", "x.json", "-h"]), "help");
  strictEqual(
    (parseTestVectorsArgs(["--adcp-version", "3.1.19"]) as { adcpVersion: string }).adcpVersion,
    "3.1.19",
  );
  throws(() => parseTestVectorsArgs(["--adcp-version", "3.1"]), /--adcp-version must be/);

  const reports = await runVectors(DIRS, await directImplementation(), {
    suites: new Set(["seller-strings", "retry-decisions"]),
  });
  deepStrictEqual(reports.map((r) => r.file), [
    "vectors/local/retry-decisions.json",
    "vectors/local/seller-strings-lone-surrogates.json",
    "vectors/local/seller-strings.json",
  ]);
  // The assembled compliance bundles are filtered by their own suite.
  const signing = await runVectors(DIRS, await directImplementation(), {
    suites: new Set(["request-signing"]),
  });
  deepStrictEqual(signing.map((r) => r.file), [
    `vectors/upstream/compliance/${ADCP_VERSION}/request-signing/`,
    ...(versionInRange(ADCP_VERSION, ">=3.2.0-beta.5")
      ? [`vectors/upstream/compliance/${ADCP_VERSION}/request-signing/profile-3.2/`]
      : []),
    "vectors/local/request-signing.json",
  ]);
  ok(signing.every((r) => r.suite === "request-signing" && r.failed === 0));

  // A mistaken command line is exit status 2, before any vector runs.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "-A", "scripts/test_vectors.ts", "--suite", "seller-string"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  strictEqual(out.code, 2);
  strictEqual(new TextDecoder().decode(out.stdout), "");
  strictEqual(
    new TextDecoder().decode(out.stderr),
    'error: Unknown suite "seller-string" (did you mean seller-strings?); the known suites are ' +
      `${SUITE_NAMES.join(", ")}\n`,
  );
});

const PYTHON = await new Deno.Command("python3", { args: ["--version"], stdout: "null" })
  .output().then((out) => out.success, () => false);

Deno.test({
  name: "the Python example port passes seller-strings and skips every other suite" +
    (PYTHON ? "" : " (ignored: no python3 on this machine)"),
  ignore: !PYTHON,
  fn: async () => {
    const direct = await runVectors(DIRS, await directImplementation());
    const child = childImplementation("python3 vectors/examples/seller_strings_port.py");
    let reports;
    try {
      reports = await runVectors(DIRS, child.impl);
    } finally {
      await child.close();
    }
    const t = totals(reports);
    const seller = totals(direct.filter((r) => r.suite === "seller-strings"));
    const others = totals(direct.filter((r) => r.suite !== "seller-strings"));
    ok(seller.passed >= 84, `${seller.passed} seller-strings vectors`);
    deepStrictEqual(
      [t.passed, t.failed, t.skipped, t.notApplicable],
      [seller.passed, 0, others.total - others.notApplicable, others.notApplicable],
      formatReport(reports),
    );
    for (const r of reports) {
      deepStrictEqual(
        r.suite === "seller-strings" ? [r.passed, r.skipped] : [0, r.skipped],
        r.suite === "seller-strings" ? [r.total, 0] : [0, r.total - (r.notApplicable ?? 0)],
        r.file,
      );
    }
    ok(
      formatReport(reports).includes(
        `\nSkipped (${t.skipped}):\n  this port implements only seller-strings (${t.skipped} ` +
          `vectors in ${
            direct.filter((r) =>
              r.suite !== "seller-strings" && r.total - (r.notApplicable ?? 0) > 0
            ).length
          } files)\n`,
      ),
    );
  },
});
