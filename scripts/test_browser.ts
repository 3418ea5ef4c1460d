/**
 * `deno task test-browser [--serve] [--adcp-version V]`
 *
 * Runs the vector suites, the checks of `@adcp-wire/validation` and the clients in headless
 * Chromium, to show that the packages run in a browser. The vectors are checked against the pinned
 * AdCP version, or `--adcp-version V` (whose compliance bundles are then the ones served):
 *
 * 1. `scripts/browser/runner.ts` is bundled by esbuild for `platform: "browser"` (the workspace
 *    packages, `scripts/_impl.ts` and the judging code of `scripts/_vectors.ts` inlined).
 * 2. A local server (`Deno.serve` on 127.0.0.1) serves the page under a strict Content Security
 *    Policy, the vector files of `vectors/upstream/` (with the compliance bundles of
 *    `vectors/upstream/compliance/<version>/`, assembled by `scripts/_compliance.ts` as
 *    `test-vectors` assembles them) and `vectors/local/`, and the agents the in-page clients call
 *    (`scripts/browser/_server.ts`). The page's URL carries the version (`?adcp-version=V`).
 * 3. Chromium opens the page headless (`--headless=new`); the page runs everything and posts its
 *    report back; this script prints it: the vector report, as `deno task test-vectors` prints it,
 *    then the checks.
 *
 * `--serve` starts no browser: it prints the page's URL and waits for a report, for a run in any
 * browser. Chromium is looked for as `$CHROMIUM`, then `chromium`, `chromium-browser`,
 * `google-chrome-stable` and `google-chrome` on `PATH`.
 *
 * Exit status 1 when a vector or a check fails, or with one `error:` line when Chromium is missing,
 * exits early or reports nothing in time; 2, with one `error:` line, for a mistaken command line.
 *
 * @module
 */
import { bundleFile, stopBundler } from "./_bundle.ts";
import { quoteArgument, runMain, ScriptError, unknownArgument, UsageError } from "./_cli.ts";
import { assembleCompliance } from "./_compliance.ts";
import { displayPath, LOCAL_VECTORS_DIR, ROOT, UPSTREAM_VECTORS_DIR } from "./_sources.ts";
import { ADCP_VERSION } from "@adcp-wire/schemas";
import { compareVersions, formatReport, totals } from "./_vectors.ts";
import { formatChecks } from "./browser/_checks.ts";
import { findOnPath, isExecutable } from "./test_node.ts";
import type { PageReport, VectorText } from "./browser/_page.ts";
import { pageServer } from "./browser/_server.ts";

/** The names Chromium is looked for under on `PATH`, in order. */
export const CHROMIUM_NAMES = [
  "chromium",
  "chromium-browser",
  "google-chrome-stable",
  "google-chrome",
] as const;

/** How long the page may take to report, in milliseconds. */
export const REPORT_TIMEOUT_MS = 180_000;

/**
 * Where Chromium is: `$CHROMIUM` when set, else the first of {@link CHROMIUM_NAMES} found in a
 * `PATH` folder.
 *
 * @param env `CHROMIUM` and `PATH`.
 * @param isExecutable Whether a path is an executable file.
 * @returns The path, or `undefined`.
 */
export function findChromium(
  env: { CHROMIUM?: string | undefined; PATH?: string | undefined },
  isExecutable: (path: string) => boolean,
): string | undefined {
  if (env.CHROMIUM) return env.CHROMIUM;
  for (const name of CHROMIUM_NAMES) {
    const path = findOnPath(name, env.PATH, isExecutable);
    if (path !== undefined) return path;
  }
  return undefined;
}

/**
 * Chromium's command line: headless, no sandbox (it runs as root in CI containers), no GPU, a
 * throwaway profile, nothing fetched in the background.
 *
 * @param url The page.
 * @param profileDir The profile folder.
 * @returns The arguments.
 */
export function chromiumArgs(url: string, profileDir: string): string[] {
  return [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--user-data-dir=${profileDir}`,
    url,
  ];
}

/**
 * The message when Chromium is missing.
 *
 * @returns The message.
 */
export function missingChromiumMessage(): string {
  return `Chromium not found (looked for $CHROMIUM, then ${CHROMIUM_NAMES.join(", ")} on PATH): ` +
    "install it (Debian: `apt-get install chromium`) or set CHROMIUM to its path";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Checks what the page posted.
 *
 * @param value The posted JSON.
 * @param adcpVersion The AdCP version the page was asked to check against; a report of another
 * version (or of none) is refused.
 * @returns The report.
 * @throws {ScriptError} When the page reported an error, or posted something else.
 */
export function checkPageReport(value: unknown, adcpVersion: string = ADCP_VERSION): PageReport {
  if (isObject(value) && typeof value.error === "string") {
    throw new ScriptError(`The page failed: ${value.error}`);
  }
  if (
    !isObject(value) || typeof value.userAgent !== "string" || !Array.isArray(value.files) ||
    !Array.isArray(value.validation) || !Array.isArray(value.clients)
  ) {
    throw new ScriptError(
      `The page posted an unexpected report: ${JSON.stringify(value)?.slice(0, 200)}`,
    );
  }
  if (value.adcpVersion !== adcpVersion) {
    throw new ScriptError(
      `The page checked AdCP ${JSON.stringify(value.adcpVersion)}, not ${adcpVersion}`,
    );
  }
  return value as unknown as PageReport;
}

/**
 * The text printed for a report: the vector report as `test-vectors` prints it, then the checks.
 *
 * @param report The page's report.
 * @param acceptEncodings The `Accept-Encoding` headers the MCP endpoints received.
 * @returns The text.
 */
export function formatPageReport(report: PageReport, acceptEncodings: string[]): string {
  const seen = [...new Set(acceptEncodings)].map((value) => JSON.stringify(value)).join(", ");
  return [
    formatReport(
      report.files,
      report.adcpVersion === undefined ? {} : {
        adcpVersion: report.adcpVersion,
      },
    ),
    "",
    formatChecks("@adcp-wire/validation in the page:", report.validation),
    "",
    formatChecks(
      "Clients in the page (McpClient, A2AClient; agents on the page's server):",
      report.clients,
    ),
    `  Accept-Encoding the MCP agent received from the page: ${seen || "(no request)"}`,
  ].join("\n");
}

/**
 * Whether everything passed: at least one vector, none failed, every check passed.
 *
 * @param report The page's report.
 * @returns Whether the run passed.
 */
export function browserRunPassed(report: PageReport): boolean {
  const { total, failed } = totals(report.files);
  return total > 0 && failed === 0 &&
    [...report.validation, ...report.clients].every((outcome) => outcome.passed);
}

/**
 * The vector files the page runs, as `test-vectors` runs them: each folder's `*.json` files, then
 * the compliance bundles of `vectors/upstream/compliance/<adcpVersion>/`, assembled (their text is
 * the assembled document; one that cannot be assembled is sent with its reason).
 *
 * @param adcpVersion The AdCP version of the run.
 * @param dirs The vectors folders.
 * @returns The files, in order.
 * @throws {ScriptError} When a folder is missing, or there are no files at all.
 */
export async function readVectors(
  adcpVersion: string,
  dirs: readonly string[] = [UPSTREAM_VECTORS_DIR, LOCAL_VECTORS_DIR],
): Promise<VectorText[]> {
  const out: VectorText[] = [];
  for (const dir of dirs) {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.name.endsWith(".json") && (entry.isFile || entry.isSymlink)) {
          names.push(entry.name);
        }
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new ScriptError(`No such vectors folder: ${dir} (run \`deno task sync\`)`);
      }
      throw error;
    }
    for (const name of names.sort()) {
      const path = `${dir}/${name}`;
      try {
        out.push({ file: displayPath(path), text: await Deno.readTextFile(path) });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        out.push({ file: displayPath(path), text: null, error: message });
      }
    }
    for (const bundle of await assembleCompliance(dir, adcpVersion)) {
      out.push(
        bundle.ok
          ? { file: bundle.file, suite: bundle.suite, text: JSON.stringify(bundle.doc) }
          : { file: bundle.file, suite: bundle.suite, text: null, error: bundle.reason },
      );
    }
  }
  if (out.length === 0) throw new ScriptError("No vectors found (run `deno task sync`)");
  return out;
}

/** Keeps the last `max` characters of a stream's text (Chromium's stderr, for a failure). */
async function tail(stream: ReadableStream<Uint8Array>, max: number): Promise<string> {
  let kept = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    kept = (kept + chunk).slice(-max);
  }
  return kept;
}

/** Starts Chromium on `url`; `stop()` ends it and removes its profile. */
async function launchChromium(path: string, url: string) {
  const profile = await Deno.makeTempDir({ prefix: "adcp-wire-chromium-" });
  const child = new Deno.Command(path, {
    args: chromiumArgs(url, profile),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    detached: true,
  }).spawn();
  const stderr = tail(child.stderr, 4000);
  let exited = false;
  const status = child.status.then((status) => {
    exited = true;
    return status;
  });
  return {
    status,
    stderr,
    async stop(): Promise<void> {
      if (!exited) {
        try {
          Deno.kill(-child.pid, "SIGTERM"); // the browser and the processes it started
        } catch { /* already gone */ }
        const grace = setTimeout(() => {
          try {
            Deno.kill(-child.pid, "SIGKILL");
          } catch { /* already gone */ }
        }, 5_000);
        await status;
        clearTimeout(grace);
      }
      await stderr.catch(() => "");
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** The usage of `deno task test-browser`. */
export const TEST_BROWSER_USAGE: string =
  "Usage: deno task test-browser [--serve] [--adcp-version V]\n" +
  "  --serve            start no browser: print the page's URL and wait for its report\n" +
  "  --adcp-version V   the AdCP version the vectors are checked against (default: the pinned " +
  `${ADCP_VERSION})\n` +
  "  --help             print this and exit";

/** The flags of `deno task test-browser`, for the nearest-flag hint. */
const TEST_BROWSER_FLAGS = ["--serve", "--adcp-version", "--help"] as const;

/**
 * Parses the command line of `deno task test-browser`.
 *
 * @param args The arguments.
 * @returns The options, or `"help"` for `--help` (or `-h`).
 * @throws {UsageError} On an unknown argument (naming it and the nearest flag), a missing value
 * or a version that is not SemVer.
 */
export function parseTestBrowserArgs(
  args: readonly string[],
): { serve: boolean; adcpVersion: string } | "help" {
  let serve = false;
  let adcpVersion = ADCP_VERSION;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--serve") serve = true;
    else if (arg === "--help" || arg === "-h") return "help";
    else if (arg === "--adcp-version" || arg.startsWith("--adcp-version=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++index];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      try {
        compareVersions(value, value);
      } catch {
        throw new UsageError(
          `--adcp-version must be a SemVer version such as 3.1.19, got ${quoteArgument(value)}`,
        );
      }
      adcpVersion = value;
    } else throw unknownArgument(arg, TEST_BROWSER_FLAGS);
  }
  return { serve, adcpVersion };
}

async function main(): Promise<number> {
  const started = performance.now();
  const args = parseTestBrowserArgs(Deno.args);
  if (args === "help") {
    console.log(TEST_BROWSER_USAGE);
    return 0;
  }
  const { serve, adcpVersion } = args;
  const chromium = serve ? undefined : findChromium(
    { CHROMIUM: Deno.env.get("CHROMIUM"), PATH: Deno.env.get("PATH") },
    isExecutable,
  );
  if (!serve && chromium === undefined) throw new ScriptError(missingChromiumMessage());

  let runner: string;
  try {
    runner = await bundleFile("scripts/browser/runner.ts", "browser");
  } finally {
    await stopBundler();
  }
  const boot = await Deno.readTextFile(`${ROOT}/scripts/browser/boot.js`);
  const page = pageServer({ boot, runner, vectors: await readVectors(adcpVersion) });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    page.handler,
  );
  const url = `http://127.0.0.1:${server.addr.port}/` +
    (adcpVersion === ADCP_VERSION ? "" : `?adcp-version=${encodeURIComponent(adcpVersion)}`);
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const waits: Promise<unknown>[] = [page.report];
    if (serve) {
      console.log(`test-browser: open ${url} in a browser; waiting for its report`);
    } else {
      const version = new TextDecoder().decode(
        (await new Deno.Command(chromium!, { args: ["--version"], stderr: "null" }).output())
          .stdout,
      ).trim().split("\n")[0];
      console.log(`test-browser: ${version || chromium} (headless), page ${url}\n`);
      browser = await launchChromium(chromium!, url);
      const launched = browser;
      waits.push(launched.status.then(async (status) => {
        const said = (await launched.stderr).trim().split("\n").slice(-5).join(" | ");
        throw new ScriptError(
          `Chromium exited (status ${status.code}) before the page reported` +
            (said === "" ? " and printed nothing" : `: ${said}`),
        );
      }));
      waits.push(
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new ScriptError(`The page reported nothing in ${REPORT_TIMEOUT_MS} ms`)),
            REPORT_TIMEOUT_MS,
          );
        }),
      );
    }
    const report = checkPageReport(await Promise.race(waits), adcpVersion);
    console.log(formatPageReport(report, page.acceptEncodings));
    const passed = browserRunPassed(report);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `\ntest-browser: ${passed ? "passed" : "FAILED"} in ${report.userAgent} (${seconds} s)`,
    );
    return passed ? 0 : 1;
  } finally {
    clearTimeout(timer);
    await browser?.stop();
    await server.shutdown();
  }
}

if (import.meta.main) await runMain(main);
