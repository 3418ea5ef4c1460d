import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  backoffBounds,
  checkReply,
  diffValues,
  ERROR_CODES_BY_VECTOR_TYPE,
  formatReport,
  type Implementation,
  jsonEqual,
  runFile,
  suiteOf,
} from "./_vectors.ts";

const echo = (value: unknown): Implementation => () => Promise.resolve({ result: value });

Deno.test("suiteOf() picks the suite by the file name's prefix", () => {
  strictEqual(suiteOf("vectors/upstream/mcp-response-extraction.json"), "mcp-response-extraction");
  strictEqual(suiteOf("a2a-response-extraction-envelopes.json"), "a2a-response-extraction");
  strictEqual(suiteOf("seller-urls.json"), "seller-urls");
  strictEqual(suiteOf("webhook-payload-extraction.json"), "webhook-payload-extraction");
  strictEqual(suiteOf("adagents-discovery-redirects.json"), null);
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
  const text = formatReport([report]);
  ok(text.includes("✗ mcp-response-extraction-x.json › bad"), text);
  ok(text.includes('-   "a": 2'), text);
  ok(text.includes('+   "a": 1'), text);
  ok(text.endsWith("1 passed, 1 failed, 0 skipped"), text);
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
    const report = await runFile("adagents-discovery-redirects.json", doc, echo(null));
    deepStrictEqual([report.total, report.passed, report.failed, report.skipped], [2, 0, 0, 2]);
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

Deno.test("checkReply() accepts only {result} or {error: {code}}", () => {
  deepStrictEqual(checkReply({ result: null }), { result: null });
  deepStrictEqual(checkReply({ error: { code: "x", extra: 1 } }), { error: { code: "x" } });
  throws(() => checkReply({}));
  throws(() => checkReply({ result: 1, error: { code: "x" } }));
  throws(() => checkReply({ error: { code: 3 } }));
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
