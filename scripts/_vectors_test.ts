import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { ADCP_VERSION } from "@adcp-wire/schemas";
import {
  backoffBounds,
  checkReply,
  compareVersions,
  diffValues,
  ERROR_CODES_BY_VECTOR_TYPE,
  type FileReport,
  formatReport,
  type Implementation,
  ImplementationStoppedError,
  jsonEqual,
  jsonReport,
  runFile,
  suiteOf,
  totals,
  UPSTREAM_APPLICABILITY,
  versionInRange,
} from "./_vectors.ts";

const echo = (value: unknown): Implementation => () => Promise.resolve({ result: value });

Deno.test("suiteOf() picks the suite by the file name's prefix", () => {
  strictEqual(suiteOf("vectors/upstream/mcp-response-extraction.json"), "mcp-response-extraction");
  strictEqual(suiteOf("a2a-response-extraction-envelopes.json"), "a2a-response-extraction");
  strictEqual(suiteOf("seller-urls.json"), "seller-urls");
  strictEqual(suiteOf("webhook-payload-extraction.json"), "webhook-payload-extraction");
  strictEqual(suiteOf("adagents-discovery-redirects.json"), "adagents-discovery");
  strictEqual(suiteOf("webhook-hmac-sha256.json"), "webhook-hmac");
  strictEqual(suiteOf("a2a-profile-extension-v3.json"), "a2a-profile-extension");
  strictEqual(suiteOf("webhook-receiver-envelope.json"), "webhook-receiver-envelope");
  strictEqual(suiteOf("canonical-format-classification.json"), null);
  strictEqual(suiteOf("seller-stringsx.json"), null);
  strictEqual(suiteOf("mcp-response-extraction.txt"), null);
});

Deno.test("jsonEqual() compares own __proto__ keys and never reads inherited ones", () => {
  const a = JSON.parse('{"__proto__": {"x": 1}, "b": 2}');
  const b = JSON.parse('{"b": 2, "__proto__": {"x": 1}}');
  const c = JSON.parse('{"b": 2, "__proto__": {"x": 2}}');
  ok(jsonEqual(a, b));
  ok(!jsonEqual(a, c));
  ok(!jsonEqual(a, { b: 2 }), "a missing own __proto__ key is a difference");
  ok(!jsonEqual({ toString: 1 }, {}));
  ok(!jsonEqual([1, 2], { 0: 1, 1: 2 }));
  ok(!jsonEqual(null, {}));
  ok(!jsonEqual(0, "0"));
  ok(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] }));
});

Deno.test("runFile() fails a vector whose result differs, with a readable diff", async () => {
  const doc = {
    vectors: [
      { id: "ok", description: "passes", response: {}, expected_data: { a: 1 } },
      { id: "bad", description: "fails", response: {}, expected_data: { a: 2 } },
    ],
  };
  const report = await runFile("mcp-response-extraction-x.json", doc, echo({ a: 1 }));
  strictEqual(report.passed, 1);
  strictEqual(report.failed, 1);
  const text = formatReport([report], { adcpVersion: "9.9.9" });
  ok(text.includes("\n  mcp-response-extraction-x.json#bad: result differs"), text);
  ok(text.includes("✗ mcp-response-extraction-x.json › bad"), text);
  ok(text.includes('-   "a": 2'), text);
  ok(text.includes('+   "a": 1'), text);
  ok(text.endsWith("1 passed, 1 failed, 0 skipped, 0 not applicable (AdCP 9.9.9)"), text);
});

Deno.test(
  "runFile() fails a vector that lacks its expected value instead of comparing undefined",
  async () => {
    const doc = { vectors: [{ id: "no-expected", description: "d", response: {} }] };
    const report = await runFile("mcp-response-extraction.json", doc, echo(undefined));
    strictEqual(report.failed, 1);
    ok(report.outcomes[0]!.reason!.includes("missing expected_data"));
  },
);

Deno.test(
  "runFile() reports a file of an unimplemented suite as skipped, never passed",
  async () => {
    const doc = { vectors: [{ id: "a", description: "d" }, { id: "b", description: "e" }] };
    const report = await runFile("catalog-macro-substitution.json", doc, echo(null));
    deepStrictEqual([report.total, report.passed, report.failed, report.skipped], [2, 0, 0, 2]);
    ok(
      formatReport([report]).includes(
        "\n  catalog-macro-substitution.json: no runner for this suite yet (2 vectors)",
      ),
    );
  },
);

Deno.test("runFile() checks the thrown code for a2a expected_error_type", async () => {
  const doc = {
    vectors: [{
      id: "w",
      description: "d",
      response: {},
      expected_data: null,
      expected_error_type: "wrapper_detected",
    }],
  };
  const threw: Implementation = () => Promise.resolve({ error: { code: "wrapper_detected" } });
  strictEqual((await runFile("a2a-response-extraction.json", doc, threw)).passed, 1);
  strictEqual((await runFile("a2a-response-extraction.json", doc, echo(null))).failed, 1);
  const other: Implementation = () => Promise.resolve({ error: { code: "exception" } });
  strictEqual((await runFile("a2a-response-extraction.json", doc, other)).failed, 1);
});

Deno.test(
  "runFile() accepts the library's upper-case code for a vector's lower-case error type",
  async () => {
    const doc = (type: string) => ({
      vectors: [{
        id: "w",
        description: "d",
        response: {},
        expected_data: null,
        expected_error_type: type,
      }],
    });
    const threw = (code: string): Implementation => () => Promise.resolve({ error: { code } });
    strictEqual(ERROR_CODES_BY_VECTOR_TYPE.get("wrapper_detected"), "WRAPPER_DETECTED");
    for (const file of ["a2a-response-extraction.json", "webhook-payload-extraction.json"]) {
      const wrapper = doc("wrapper_detected");
      if (file.startsWith("webhook")) Object.assign(wrapper.vectors[0]!, { payload: {} });
      strictEqual((await runFile(file, wrapper, threw("WRAPPER_DETECTED"))).passed, 1, file);
      strictEqual((await runFile(file, wrapper, threw("wrapper_detected"))).passed, 1, file);
      for (
        const code of ["Wrapper_Detected", "WRAPPER-DETECTED", "DATA_PART_TOO_LARGE", "exception"]
      ) {
        const report = await runFile(file, wrapper, threw(code));
        strictEqual(report.failed, 1, `${file} ${code}`);
        deepStrictEqual(report.outcomes[0]!.actual, code);
      }
    }
    // A type without an entry is matched exactly, and never through an inherited key.
    strictEqual(
      (await runFile("a2a-response-extraction.json", doc("other"), threw("OTHER"))).failed,
      1,
    );
    const proto = doc("__proto__");
    strictEqual(
      (await runFile("a2a-response-extraction.json", proto, threw("[object Object]"))).failed,
      1,
    );
  },
);

Deno.test("runFile() checks transport-error-mapping error, action and delay", async () => {
  const v = {
    id: "t",
    description: "d",
    transport: "mcp",
    response: {},
    expected_error: { code: "RATE_LIMITED" },
    expected_action: "retry",
    expected_delay_seconds: 5,
  };
  const good = echo({
    error: { code: "RATE_LIMITED" },
    action: "retry",
    delay_seconds: 5,
    delay_source: "retry_after",
  });
  strictEqual((await runFile("transport-error-mapping.json", { vectors: [v] }, good)).passed, 1);
  const wrongDelay = echo({
    error: { code: "RATE_LIMITED" },
    action: "retry",
    delay_seconds: 6,
    delay_source: "retry_after",
  });
  strictEqual(
    (await runFile("transport-error-mapping.json", { vectors: [v] }, wrongDelay)).failed,
    1,
  );
  const backoffVector = { ...v, expected_delay_seconds: null };
  const backoff = echo({
    error: { code: "RATE_LIMITED" },
    action: "retry",
    delay_seconds: 2,
    delay_source: "backoff",
  });
  strictEqual(
    (await runFile("transport-error-mapping.json", { vectors: [backoffVector] }, backoff)).passed,
    1,
  );
  const tooLong = echo({
    error: { code: "RATE_LIMITED" },
    action: "retry",
    delay_seconds: 9,
    delay_source: "backoff",
  });
  strictEqual(
    (await runFile("transport-error-mapping.json", { vectors: [backoffVector] }, tooLong)).failed,
    1,
  );
});

Deno.test("backoffBounds() follows the documented formula and options", () => {
  deepStrictEqual(backoffBounds(1, null), { min: 1.5, max: 2.5 });
  deepStrictEqual(backoffBounds(3, null), { min: 6, max: 10 });
  deepStrictEqual(backoffBounds(10, null), { min: 45, max: 60 });
  deepStrictEqual(backoffBounds(2, { initialDelaySeconds: 1, jitter: 0 }), { min: 2, max: 2 });
});

Deno.test("runFile() rejects duplicate ids and non-object options", async () => {
  const doc = {
    vectors: [
      { id: "x", description: "d", response: {}, expected_data: null },
      { id: "x", description: "d", response: {}, expected_data: null },
      { id: "y", description: "d", response: {}, expected_data: null, options: 3 },
    ],
  };
  const report = await runFile("mcp-response-extraction.json", doc, echo(null));
  deepStrictEqual([report.passed, report.failed], [1, 2]);
});

Deno.test("checkReply() accepts only {result}, {error: {code}} or {skip: reason}", () => {
  deepStrictEqual(checkReply({ result: null }), { result: null });
  deepStrictEqual(checkReply({ error: { code: "x", extra: 1 } }), { error: { code: "x" } });
  deepStrictEqual(checkReply({ skip: "only seller-strings" }), { skip: "only seller-strings" });
  deepStrictEqual(checkReply({ skip: " " }), { skip: "(no reason given)" });
  throws(() => checkReply({}));
  throws(() => checkReply({ result: 1, error: { code: "x" } }));
  throws(() => checkReply({ error: { code: 3 } }));
  throws(() => checkReply({ skip: true }));
  throws(() => checkReply({ skip: "x", result: 1 }));
  throws(() => checkReply("nope"));
});

Deno.test("diffValues() marks removed and added lines", () => {
  strictEqual(diffValues([1, 2], [1, 3]), "  [\n    1,\n-   2\n+   3\n  ]");
});

Deno.test("runFile() holds a seller-urls rejection to the vector's reason", async () => {
  const vector = {
    id: "u1",
    description: "http is refused",
    purpose: "webhook",
    url: "http://a.example/",
    allowed_hosts: ["a.example"],
    expected: { valid: false },
    reason: "not_https",
  };
  const doc = { vectors: [vector] };
  const file = "seller-urls.json";
  strictEqual((await runFile(file, doc, echo({ valid: false, reason: "not_https" }))).passed, 1);
  strictEqual((await runFile(file, doc, echo({ valid: false, reason: "userinfo" }))).failed, 1);
  strictEqual((await runFile(file, doc, echo({ valid: false }))).failed, 1);
  strictEqual((await runFile(file, doc, echo({ valid: true, url: vector.url }))).failed, 1);
  // Without a reason in the vector, a reply with or without one passes on `expected` alone.
  const { reason: _reason, ...plain } = vector;
  strictEqual((await runFile(file, { vectors: [plain] }, echo({ valid: false }))).passed, 1);
  strictEqual(
    (await runFile(file, { vectors: [plain] }, echo({ valid: false, reason: "x" }))).passed,
    1,
  );
});

Deno.test("diffValues() shows invisible and non-ASCII characters as escapes", () => {
  strictEqual(diffValues("a\u202eb", "ab"), '- "a\\u202eb"\n+ "ab"');
  strictEqual(diffValues("é", "e"), '- "\\u00e9"\n+ "e"');
});

Deno.test("compareVersions() orders AdCP versions by SemVer precedence", () => {
  const ordered = [
    "3.1.9",
    "3.1.19",
    "3.2.0-alpha.9",
    "3.2.0-beta",
    "3.2.0-beta.5",
    "3.2.0-beta.10",
    "3.2.0-beta.x",
    "3.2.0-rc.1",
    "3.2.0",
    "3.2.1",
    "10.0.0",
  ];
  for (let i = 0; i < ordered.length; i++) {
    for (let j = 0; j < ordered.length; j++) {
      const order = Math.sign(compareVersions(ordered[i]!, ordered[j]!));
      strictEqual(order, Math.sign(i - j), `${ordered[i]} vs ${ordered[j]}`);
    }
  }
  strictEqual(compareVersions("3.2.0+build.1", "3.2.0"), 0, "build metadata has no precedence");
  for (const bad of ["3.2", "v3.2.0", "3.2.0-", "03.2.0", "3.2.0-beta.05", "", "latest"]) {
    throws(() => compareVersions(bad, "3.2.0"), RangeError, bad);
  }
});

Deno.test("versionInRange() ands its comparators and gives pre-releases no special case", () => {
  const cases: [string, string, boolean][] = [
    ["3.2.0-beta.5", ">=3.2.0-beta.5", true],
    ["3.2.0-beta.6", ">=3.2.0-beta.5", true],
    ["3.2.0", ">=3.2.0-beta.5", true],
    ["3.3.0-rc.1", ">=3.2.0-beta.5", true],
    ["3.2.0-beta.4", ">=3.2.0-beta.5", false],
    ["3.1.19", ">=3.2.0-beta.5", false],
    ["3.2.0-beta.5", "<3.2.0", true],
    ["3.1.19", ">=3.1.0 <3.2.0-beta.1", true],
    ["3.2.0-beta.1", ">=3.1.0 <3.2.0-beta.1", false],
    ["3.1.19", "3.1.19", true],
    ["3.1.19", "=3.1.19", true],
    ["3.1.18", "<=3.1.19", true],
    ["3.1.19", ">3.1.19", false],
  ];
  for (const [version, range, inside] of cases) {
    strictEqual(versionInRange(version, range), inside, `${version} in ${range}`);
  }
  for (const bad of ["", " ", ">=3.2", "=>3.2.0", ">=3.2.0 || <3.0.0", "~3.2.0", "^3.1.0"]) {
    throws(() => versionInRange("3.2.0", bad), RangeError, bad);
  }
});

/** One transport-error-mapping vector, with extra fields. */
const mappingVector = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  description: id,
  transport: "mcp",
  response: {},
  expected_error: null,
  expected_action: "generic_error",
  ...extra,
});

Deno.test(
  "runFile() reports a vector outside its adcp_versions as not applicable, never sent",
  async () => {
    const sent: string[] = [];
    const impl: Implementation = (request) => {
      sent.push(request.id);
      return Promise.resolve({ result: { error: null, action: "generic_error" } });
    };
    const doc = {
      vectors: [
        mappingVector("always"),
        mappingVector("new", { adcp_versions: ">=3.2.0-beta.5" }),
        mappingVector("old", { adcp_versions: "<3.2.0-beta.1" }),
      ],
    };
    const old = await runFile("transport-error-mapping-x.json", doc, impl, {
      adcpVersion: "3.1.19",
    });
    deepStrictEqual([old.passed, old.failed, old.skipped, old.notApplicable], [2, 0, 0, 1]);
    deepStrictEqual(sent, ["always", "old"]);
    const outcome = old.outcomes.find((o) => o.id === "new")!;
    strictEqual(outcome.status, "not_applicable");
    strictEqual(outcome.reason, "applies to AdCP >=3.2.0-beta.5, not 3.1.19");
    const text = formatReport([old], { adcpVersion: "3.1.19" });
    ok(text.includes("\nNot applicable to AdCP 3.1.19 (1):\n"), text);
    ok(text.includes("  transport-error-mapping-x.json#new: applies to AdCP >=3.2.0-beta.5"), text);
    ok(text.endsWith("2 passed, 0 failed, 0 skipped, 1 not applicable (AdCP 3.1.19)"), text);
    ok(/ n\/a\n/.test(text.split("\n")[0] + "\n"), "the table has an n/a column");
    strictEqual(
      (jsonReport([old], "3.1.19") as { adcp_version: string }).adcp_version,
      "3.1.19",
    );

    sent.length = 0;
    const current = await runFile("transport-error-mapping-x.json", doc, impl, {
      adcpVersion: "3.2.0-beta.5",
    });
    deepStrictEqual([current.passed, current.notApplicable], [2, 1]);
    deepStrictEqual(sent, ["always", "new"]);
  },
);

Deno.test("runFile() fails a vector whose adcp_versions is not a valid range", async () => {
  for (const range of [3, ">=3.2", "", "latest", ["3.1.19"]]) {
    const doc = { vectors: [mappingVector("v", { adcp_versions: range })] };
    const report = await runFile("transport-error-mapping.json", doc, echo(null));
    deepStrictEqual([report.failed, report.notApplicable], [1, 0], String(range));
    ok(report.outcomes[0]!.reason!.startsWith("malformed vector: "), report.outcomes[0]!.reason);
  }
});

Deno.test("runFile() applies the project's table to vectors that cannot say it", async () => {
  const table = new Map([
    ["up/transport-error-mapping.json#a", { adcpVersions: ">=3.2.0", reason: "new in 3.2" }],
  ]);
  const doc = { vectors: [mappingVector("a"), mappingVector("b")] };
  const impl = echo({ error: null, action: "generic_error" });
  const report = await runFile("up/transport-error-mapping.json", doc, impl, {
    adcpVersion: "3.1.19",
    applicability: table,
  });
  deepStrictEqual([report.passed, report.notApplicable], [1, 1]);
  strictEqual(
    report.outcomes[0]!.reason,
    "applies to AdCP >=3.2.0, not 3.1.19 (project table: new in 3.2)",
  );
  // Another file with the same id is not matched.
  const other = await runFile("local/transport-error-mapping.json", doc, impl, {
    adcpVersion: "3.1.19",
    applicability: table,
  });
  strictEqual(other.notApplicable, 0);
});

Deno.test("UPSTREAM_APPLICABILITY ranges parse and the default run uses the pinned version", () => {
  for (const [key, { adcpVersions, reason }] of UPSTREAM_APPLICABILITY) {
    ok(key.startsWith("vectors/upstream/") && key.includes(".json#"), key);
    ok(reason.length > 0, key);
    versionInRange(ADCP_VERSION, adcpVersions); // throws on a malformed range
  }
});

Deno.test("runFile() counts a {skip} reply as skipped, with its reason", async () => {
  const impl: Implementation = (request) =>
    Promise.resolve(
      request.id === "a" ? { skip: "not implemented in this port" } : { result: "ab" },
    );
  const doc = {
    vectors: [
      { id: "a", description: "d", input: "a\u0000b", max_bytes: 9, expected: "ab" },
      { id: "b", description: "d", input: "a\u0000b", max_bytes: 9, expected: "ab" },
    ],
  };
  const report = await runFile("seller-strings.json", doc, impl);
  deepStrictEqual([report.passed, report.failed, report.skipped], [1, 0, 1]);
  deepStrictEqual(report.outcomes[0], {
    id: "a",
    description: "d",
    status: "skipped",
    reason: "not implemented in this port",
  });
  const text = formatReport([report]);
  ok(text.includes("\nSkipped (1):\n  seller-strings.json#a: not implemented in this port"), text);
});

/** A file report of `n` failing seller-strings vectors, as `reply` answers them. */
async function failingFile(file: string, n: number, reply: Implementation): Promise<FileReport> {
  const vectors = Array.from({ length: n }, (_, i) => ({
    id: `v${i}`,
    description: `vector ${i}`,
    input: "x",
    max_bytes: 9,
    expected: "x",
  }));
  return await runFile(file, { vectors }, reply);
}

Deno.test("formatReport() lists failures in one line each, capped, a few in full", async () => {
  const report = await failingFile("seller-strings-many.json", 321, echo("y"));
  const text = formatReport([report], { maxLines: 50, maxDetails: 5 });
  const lines = text.split("\n");
  const oneLiners = lines.filter((l) => /^ {2}seller-strings-many\.json#v\d+: /.test(l));
  strictEqual(oneLiners.length, 50);
  strictEqual(
    oneLiners[0],
    '  seller-strings-many.json#v0: result differs (expected "x", got "y")',
  );
  ok(lines.includes("  … and 271 more failures; --json FILE has them all"), text);
  ok(lines.includes("The first 5 in full (--json FILE has every one):"), text);
  strictEqual(lines.filter((l) => l.startsWith("✗ ")).length, 5);
  ok(
    text.endsWith("0 passed, 321 failed, 0 skipped, 0 not applicable (AdCP " + ADCP_VERSION + ")"),
  );
  // Every failure, unabridged, in the JSON report.
  strictEqual(
    (jsonReport([report]) as { files: FileReport[] }).files[0]!.outcomes.length,
    321,
  );
});

Deno.test("formatReport() reports an implementation that stopped once", async () => {
  let calls = 0;
  const stopped = new ImplementationStoppedError(
    "the port closed its output after answering 2 requests and exited with status 3",
  );
  const impl: Implementation = () => {
    calls++;
    return calls <= 2 ? Promise.resolve({ result: "x" }) : Promise.reject(stopped);
  };
  const first = await failingFile("seller-strings-a.json", 3, impl);
  const second = await failingFile("seller-strings-b.json", 4, impl);
  deepStrictEqual([first.passed, first.failed, second.failed], [2, 1, 4]);
  ok(second.outcomes.every((o) => o.unanswered && o.reason === stopped.message));
  const text = formatReport([first, second]);
  const mentions = text.split("\n").filter((l) => l.includes("status 3"));
  deepStrictEqual(mentions, [
    "  The port closed its output after answering 2 requests and exited with status 3: the 5 " +
    "vectors from seller-strings-a.json#v2 on were never answered and count as failed",
  ]);
  ok(!text.includes("✗"), "nothing to show in full");
  deepStrictEqual(totals([first, second]), {
    total: 7,
    passed: 2,
    failed: 5,
    skipped: 0,
    notApplicable: 0,
  });
});

Deno.test("formatReport() folds NOT_IMPLEMENTED replies into one line", async () => {
  const notImplemented: Implementation = () =>
    Promise.resolve({ error: { code: "NOT_IMPLEMENTED" } });
  const reports = [
    await failingFile("seller-strings-a.json", 30, notImplemented),
    await failingFile("seller-strings-b.json", 40, notImplemented),
    await failingFile("seller-strings-c.json", 1, echo("y")),
  ];
  strictEqual(totals(reports).failed, 71);
  const text = formatReport(reports);
  ok(
    text.includes(
      "\nFailures (71):\n  70 vectors in 2 files answered NOT_IMPLEMENTED and count as failed (a " +
        'port replies {"skip": "why"} to a vector it does not implement, which counts as skipped)' +
        "\n  seller-strings-c.json#v0: result differs",
    ),
    text,
  );
  strictEqual(text.split("\n").filter((l) => l.startsWith("✗ ")).length, 1);
});

Deno.test("the sectioned suites fail an implementation that answers nothing useful", async () => {
  const files = [
    "a2a-profile-extension-v3.json",
    "webhook-receiver-envelope.json",
    "webhook-hmac-sha256.json",
    "adagents-discovery-redirects.json",
  ];
  const refuse: Implementation = () => Promise.resolve({ error: { code: "nope" } });
  for (const name of files) {
    const path = new URL(`../vectors/upstream/${name}`, import.meta.url);
    const doc = JSON.parse(await Deno.readTextFile(path));
    const nothing = await runFile(name, doc, echo(null));
    ok(nothing.total > 0, `${name} has vectors`);
    deepStrictEqual([nothing.passed, nothing.failed], [0, nothing.total], `${name}: null results`);
    const errors = await runFile(name, doc, refuse);
    // Only the weak secrets of webhook-hmac pass with any error: they must be refused.
    const mayPass = name === "webhook-hmac-sha256.json" ? 4 : 0;
    strictEqual(errors.passed, mayPass, `${name}: error replies`);
  }
});

Deno.test(
  "vectors/README.md names, under retry-decisions, every generic_error vector of the suite",
  async () => {
    const root = new URL("..", import.meta.url);
    const readme = await Deno.readTextFile(new URL("vectors/README.md", root));
    const start = readme.indexOf("### `retry-decisions`");
    ok(start >= 0, "vectors/README.md has a retry-decisions section");
    const next = readme.indexOf("\n#", start + 1);
    const section = readme.slice(start, next < 0 ? undefined : next);
    const file = JSON.parse(
      await Deno.readTextFile(new URL("vectors/local/retry-decisions.json", root)),
    ) as { vectors: { id: string; error: unknown; expected: { action: string } }[] };
    const generic = file.vectors.filter((v) => v.expected.action === "generic_error");
    ok(generic.length > 0);
    for (const vector of generic) {
      ok(section.includes(`\`${vector.id}\``), `the section does not name ${vector.id}`);
    }
    // The cases the section spells out, each with a vector of the suite.
    for (const phrase of ["`null`", "not a string", "empty string", "64 UTF-16 code units"]) {
      ok(section.includes(phrase), phrase);
    }
    ok(section.includes('`{"action": "generic_error"}`'));
  },
);
