import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { LOCAL_VECTORS_DIR } from "../_sources.ts";
import { totals } from "../_vectors.ts";
import { runVectorTexts } from "./_page.ts";

Deno.test("runVectorTexts() judges a vector file as test-vectors does", async () => {
  const text = await Deno.readTextFile(`${LOCAL_VECTORS_DIR}/seller-strings.json`);
  const [report] = await runVectorTexts([{ file: "vectors/local/seller-strings.json", text }]);
  strictEqual(report?.suite, "seller-strings");
  strictEqual(report?.failed, 0);
  strictEqual(report?.passed, report?.total);
});

Deno.test("runVectorTexts() counts an unreadable or non-JSON file as one failure", async () => {
  const reports = await runVectorTexts([
    { file: "a.json", text: "{" },
    { file: "b.json", text: null, error: "denied" },
  ]);
  const { total, passed, failed } = totals(reports);
  deepStrictEqual([total, passed, failed], [2, 0, 2]);
  strictEqual(reports[0]?.note?.startsWith("cannot read: "), true);
  deepStrictEqual(reports[1]?.outcomes, [
    { id: "(file)", description: "b.json", status: "failed", reason: "cannot read: denied" },
  ]);
});

Deno.test("runVectorTexts() runs an assembled bundle under its explicit suite", async () => {
  const [ok, broken] = await runVectorTexts([
    {
      file: "vectors/upstream/compliance/9.9.9/request-signing/canonicalization.json",
      suite: "target-uri-canonicalization",
      text: JSON.stringify({
        cases: [{
          name: "host-lowercase",
          rule: "lower-case host",
          input_url: "https://A.example/p",
          expected_target_uri: "https://a.example/p",
          expected_authority: "a.example",
        }],
      }),
    },
    {
      file: "vectors/upstream/compliance/9.9.9/webhook-signing/",
      suite: "webhook-signing",
      text: null,
      error: "webhook-signing/keys.json does not exist",
    },
  ]);
  deepStrictEqual([ok?.suite, ok?.passed, ok?.total], ["target-uri-canonicalization", 1, 1]);
  deepStrictEqual([broken?.suite, broken?.failed, broken?.outcomes[0]?.reason], [
    "webhook-signing",
    1,
    "cannot read: webhook-signing/keys.json does not exist",
  ]);
});
