import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { ADCP_VERSION } from "@adcp-wire/schemas";
import { ScriptError } from "./_cli.ts";
import { LOCAL_VECTORS_DIR, UPSTREAM_VECTORS_DIR } from "./_sources.ts";
import { totals } from "./_vectors.ts";
import { type PageReport, runVectorTexts } from "./browser/_page.ts";
import {
  browserRunPassed,
  checkPageReport,
  chromiumArgs,
  findChromium,
  formatPageReport,
  missingChromiumMessage,
  parseTestBrowserArgs,
  readVectors,
} from "./test_browser.ts";
import { directImplementation, runVectors } from "./test_vectors.ts";

Deno.test("findChromium() prefers $CHROMIUM, then the first name found on PATH", () => {
  const present = new Set(["/usr/bin/google-chrome", "/opt/bin/chromium"]);
  const exists = (path: string) => present.has(path);
  strictEqual(findChromium({ CHROMIUM: "/x/chrome", PATH: "/usr/bin" }, exists), "/x/chrome");
  strictEqual(findChromium({ PATH: "/usr/bin:/opt/bin/" }, exists), "/opt/bin/chromium");
  strictEqual(findChromium({ PATH: "/usr/bin" }, exists), "/usr/bin/google-chrome");
  strictEqual(findChromium({ PATH: "/nowhere" }, exists), undefined);
  strictEqual(findChromium({}, exists), undefined);
  ok(missingChromiumMessage().includes("apt-get install chromium"));
});

Deno.test("chromiumArgs() runs headless, without sandbox or GPU, in a throwaway profile", () => {
  const args = chromiumArgs("http://127.0.0.1:1/", "/tmp/profile");
  for (const flag of ["--headless=new", "--no-sandbox", "--disable-gpu"]) ok(args.includes(flag));
  ok(args.includes("--user-data-dir=/tmp/profile"));
  strictEqual(args.at(-1), "http://127.0.0.1:1/");
});

const REPORT: PageReport = {
  userAgent: "HeadlessChrome",
  adcpVersion: ADCP_VERSION,
  files: [{
    file: "vectors/local/x.json",
    suite: "seller-strings",
    total: 1,
    passed: 1,
    failed: 0,
    skipped: 0,
    notApplicable: 0,
    outcomes: [{ id: "a", description: "", status: "passed" }],
  }],
  validation: [{ name: "v", passed: true }],
  clients: [{ name: "c", passed: true }],
};

Deno.test("checkPageReport() takes a report and turns the page's error into one line", () => {
  deepStrictEqual(checkPageReport(REPORT), REPORT);
  throws(() => checkPageReport({ error: "boom" }), new ScriptError("The page failed: boom"));
  throws(() => checkPageReport({ files: [] }), /unexpected report/);
  // A page that checked another version (or none) than the one asked is refused.
  throws(
    () => checkPageReport(REPORT, "9.9.9"),
    { message: `The page checked AdCP "${ADCP_VERSION}", not 9.9.9` },
  );
  const { adcpVersion: _, ...unversioned } = REPORT;
  throws(() => checkPageReport(unversioned), /checked AdCP undefined/);
  deepStrictEqual(
    checkPageReport({ ...REPORT, adcpVersion: "3.1.19" }, "3.1.19").adcpVersion,
    "3.1.19",
  );
});

Deno.test("parseTestBrowserArgs() takes --serve and --adcp-version, refusing bad ones", () => {
  deepStrictEqual(parseTestBrowserArgs([]), { serve: false, adcpVersion: ADCP_VERSION });
  deepStrictEqual(parseTestBrowserArgs(["--serve", "--adcp-version", "3.1.19"]), {
    serve: true,
    adcpVersion: "3.1.19",
  });
  deepStrictEqual(parseTestBrowserArgs(["--adcp-version=3.1.19"]), {
    serve: false,
    adcpVersion: "3.1.19",
  });
  strictEqual(parseTestBrowserArgs(["--help"]), "help");
  throws(() => parseTestBrowserArgs(["--adcp-version"]), /needs a value/);
  throws(() => parseTestBrowserArgs(["--adcp-version", "3.1"]), /must be a SemVer version/);
  throws(() => parseTestBrowserArgs(["--nope"]), /Unknown argument "--nope"/);
  strictEqual(parseTestBrowserArgs(["-h"]), "help");
  throws(() => parseTestBrowserArgs(["--adcp-versoin=3.1.19"]), {
    name: "UsageError",
    message: 'Unknown argument "--adcp-versoin=3.1.19"; did you mean --adcp-version? (see --help)',
  });
});

for (const version of [ADCP_VERSION, "3.1.19"]) {
  Deno.test(`the page runs the files test-vectors runs, compliance too (${version})`, async () => {
    const texts = await readVectors(version);
    const impl = await directImplementation();
    const page = await runVectorTexts(texts, impl, { adcpVersion: version });
    const direct = await runVectors([UPSTREAM_VECTORS_DIR, LOCAL_VECTORS_DIR], impl, {
      adcpVersion: version,
    });
    deepStrictEqual(page, direct);
    ok(texts.some((t) => t.file === `vectors/upstream/compliance/${version}/webhook-signing/`));
    strictEqual(totals(page).failed, 0);
  });
}

Deno.test("browserRunPassed() needs a vector, no failure and every check passed", () => {
  strictEqual(browserRunPassed(REPORT), true);
  strictEqual(browserRunPassed({ ...REPORT, files: [] }), false);
  strictEqual(
    browserRunPassed({ ...REPORT, clients: [{ name: "c", passed: false, reason: "r" }] }),
    false,
  );
});

Deno.test("formatPageReport() prints the vector report, then the checks", () => {
  const text = formatPageReport(REPORT, ["gzip, br", "gzip, br"]);
  ok(text.startsWith("file "), text);
  ok(text.includes("1 passed, 0 failed, 0 skipped"), text);
  ok(text.includes("  ✓ v") && text.includes("  ✓ c"));
  ok(text.endsWith('received from the page: "gzip, br"'), text);
});
