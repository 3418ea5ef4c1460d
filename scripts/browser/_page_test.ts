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
