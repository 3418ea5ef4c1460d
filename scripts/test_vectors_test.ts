import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LOCAL_VECTORS_DIR, ROOT, UPSTREAM_VECTORS_DIR } from "./_sources.ts";
import { formatReport, jsonReport, totals } from "./_vectors.ts";
import { childImplementation, directImplementation, runVectors } from "./test_vectors.ts";

const DIRS = [UPSTREAM_VECTORS_DIR, LOCAL_VECTORS_DIR];

Deno.test(
  "every upstream and local vector passes against the project's implementation",
  async () => {
    const reports = await runVectors(DIRS, await directImplementation());
    const t = totals(reports);
    strictEqual(t.failed, 0, formatReport(reports));
    // Upstream's three extraction/mapping files are all there and all run.
    const byFile = new Map(reports.map((r) => [r.file, r]));
    for (
      const [file, count] of [
        ["vectors/upstream/mcp-response-extraction.json", 16],
        ["vectors/upstream/a2a-response-extraction.json", 31],
        ["vectors/upstream/transport-error-mapping.json", 32],
      ] as const
    ) {
      const r = byFile.get(file);
      ok(r, `${file} was run`);
      deepStrictEqual([r.total, r.passed], [count, count], file);
    }
    const webhook = byFile.get("vectors/upstream/webhook-payload-extraction.json");
    ok(
      webhook && webhook.total === 12 && webhook.passed === 12,
      "all upstream webhook vectors pass",
    );
    strictEqual(t.skipped, 0);
    // Every suite has local vectors.
    for (
      const suite of [
        "seller-strings",
        "seller-urls",
        "retry-decisions",
        "webhook-payload-extraction",
      ]
    ) {
      ok(reports.some((r) => r.suite === suite && r.passed > 0), `local ${suite} vectors ran`);
    }
  },
);

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
    ok(text.includes("› broken-structured-content"), text);
    ok(text.includes("expects the wrong product id"), text);
    ok(text.includes('-       "product_id": "p2"'), text);
    ok(text.includes('+       "product_id": "p1"'), text);
    ok(/\n\d+ passed, 1 failed, \d+ skipped$/.test(text.trimEnd()), text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs one small vector file through a child implementation; returns the report and the time. */
async function runWithChild(
  command: string,
  timeoutMs: number,
): Promise<{ failed: number; passed: number; ms: number }> {
  const dir = await Deno.makeTempDir();
  const started = performance.now();
  try {
    await Deno.writeTextFile(
      `${dir}/mcp-response-extraction-two.json`,
      JSON.stringify({
        version: 1,
        vectors: ["a", "b"].map((id) => ({
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
    return { failed: t.failed, passed: t.passed, ms: performance.now() - started };
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
