/**
 * `deno task bench`: every benchmark of the `*_bench.ts` files under `packages/` as a ratio to its
 * group's baseline in the same run (never an absolute time), its target and whether it was met,
 * then `N of M targets met`.
 *
 * Usage: `deno run --allow-read --allow-run scripts/bench.ts [--check] [--filter=TEXT]
 * [--json=PATH]`. `--check` exits 1 when a target is missed (otherwise the exit status is 0
 * whatever was measured); `--filter` runs the groups whose file path or group name contains
 * `TEXT`; `--json` also writes every measured time there.
 *
 * The bench files stay ordinary `deno bench` files (`Deno.bench` with `group` and `baseline`);
 * each may export `BENCH_TARGETS`, benchmark name → target (`time <= 1.10x`, `throughput >=
 * 0.9x`). Each group is measured in its own process (`scripts/_bench/run_group.ts`): warm-up,
 * then rounds that time one batch of every benchmark of the group, in an order rotated from
 * round to round, each batch after a full garbage collection. A benchmark's ratio is the median
 * of its per-round ratios to the baseline of the same round, printed with the quartiles.
 *
 * @module
 */
import { relative } from "node:path";
import { runMain, ScriptError } from "./_cli.ts";
import {
  closingLine,
  formatGroupHeading,
  formatRow,
  poolRuns,
  type Row,
  rowsOf,
  unknownTargets,
} from "./_bench/report.ts";
import type { GroupJob, GroupResult } from "./_bench/run_group.ts";

export * from "./_bench/stats.ts";
export * from "./_bench/report.ts";

/** What the command line asks for. */
export interface BenchArgs {
  /** Exit 1 when a target is missed. */
  readonly check: boolean;
  /** Run only the groups whose file path or group name contains this. */
  readonly filter?: string | undefined;
  /** Where to write every measured time, as JSON. */
  readonly json?: string | undefined;
}

/**
 * Parses the arguments of `scripts/bench.ts`.
 *
 * @param args The command-line arguments.
 * @returns What they ask for.
 * @throws {ScriptError} On an unknown argument or an empty value.
 */
export function parseBenchArgs(args: readonly string[]): BenchArgs {
  let check = false;
  let filter: string | undefined;
  let json: string | undefined;
  for (const arg of args) {
    const [flag, value] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    if (flag === "--check" && value === undefined) check = true;
    else if ((flag === "--filter" || flag === "--json") && value !== undefined && value !== "") {
      if (flag === "--filter") filter = value;
      else json = value;
    } else {
      throw new ScriptError(
        `Unknown argument "${arg}": expected --check, --filter=TEXT or --json=PATH`,
      );
    }
  }
  return { check, filter, json };
}

/** The measuring settings (see {@link GroupJob}): about three minutes for the workspace. */
export const MEASURING = {
  /** Each group is measured in this many processes, one after another over the whole run. */
  passes: 3,
  minBatchMs: 10,
  warmupMs: 200,
  budgetMs: 2_000,
  minRounds: 3,
  maxRounds: 21,
} as const;

/** The permissions of a group's process: what the bench files need. */
const GROUP_PERMISSIONS = ["--allow-read", "--allow-net", "--allow-env"];

const ROOT = new URL("../", import.meta.url);
const RUNNER = new URL("./_bench/run_group.ts", import.meta.url);

/** Every `*_bench.ts` file under `dir`, sorted. */
async function benchFiles(dir: URL): Promise<URL[]> {
  const out: URL[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, dir);
    if (entry.isDirectory && entry.name !== "testdata" && !entry.name.startsWith(".")) {
      out.push(...await benchFiles(url));
    } else if (entry.isFile && entry.name.endsWith("_bench.ts")) {
      out.push(url);
    }
  }
  return out.sort((a, b) => a.href < b.href ? -1 : a.href > b.href ? 1 : 0);
}

/** Runs one group (or, with -1, lists the groups) in a fresh process: what it printed. */
async function runGroupProcess(file: URL, group: number): Promise<GroupResult> {
  const { passes: _, ...settings } = MEASURING;
  const job: GroupJob = { file: file.href, group, ...settings };
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--v8-flags=--expose-gc", ...GROUP_PERMISSIONS, RUNNER.href, JSON.stringify(job)],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const line = stdout.split("\n").find((text) => text.startsWith("RESULT "));
  if (!output.success || line === undefined) {
    const stderr = new TextDecoder().decode(output.stderr).trim().split("\n").slice(-5);
    throw new ScriptError(
      `Cannot measure group ${group} of ${file.pathname}: exit code ${output.code}` +
        (stderr.length > 0 ? `\n${stderr.join("\n")}` : ""),
    );
  }
  return JSON.parse(line.slice("RESULT ".length)) as GroupResult;
}

/** One group to measure. */
interface GroupRef {
  readonly file: URL;
  readonly path: string;
  readonly index: number;
  readonly targets: Readonly<Record<string, string>>;
  readonly runs: GroupResult[];
}

/** Runs the benchmarks; the exit status. */
async function main(): Promise<number> {
  const args = parseBenchArgs(Deno.args);
  const groups: GroupRef[] = [];
  for (const file of await benchFiles(new URL("packages/", ROOT))) {
    const path = relative(ROOT.pathname, file.pathname);
    const listing = await runGroupProcess(file, -1);
    listing.groups.forEach((name, index) => {
      const wanted = args.filter === undefined || path.includes(args.filter) ||
        name.includes(args.filter);
      if (wanted) groups.push({ file, path, index, targets: listing.targets, runs: [] });
    });
  }
  // Pass after pass over every group, so that each group's rounds spread over the whole run and a
  // few busy seconds on the shared cores weigh on no group more than on another.
  for (let pass = 1; pass <= MEASURING.passes; pass++) {
    console.log(`pass ${pass} of ${MEASURING.passes}: ${groups.length} groups`);
    for (const group of groups) group.runs.push(await runGroupProcess(group.file, group.index));
  }
  const rows: Row[] = [];
  const pooled: { file: string; result: GroupResult }[] = [];
  for (const group of groups) {
    const result = poolRuns(group.runs);
    pooled.push({ file: group.path, result });
    const groupRows = rowsOf(result);
    rows.push(...groupRows);
    console.log(formatGroupHeading(group.path, result));
    for (const row of groupRows) console.log(formatRow(row));
  }
  if (args.filter === undefined) {
    for (const path of new Set(groups.map((group) => group.path))) {
      const results = pooled.filter((entry) => entry.file === path).map((entry) => entry.result);
      const unknown = unknownTargets(results[0]!.targets, results);
      if (unknown.length > 0) {
        throw new ScriptError(
          `${path}: BENCH_TARGETS names no benchmark other than a baseline: ${unknown.join(", ")}`,
        );
      }
    }
  }
  if (args.json !== undefined) {
    await Deno.writeTextFile(args.json, JSON.stringify(pooled, null, 2) + "\n");
  }
  console.log(closingLine(rows));
  return args.check && rows.some((row) => row.met === false) ? 1 : 0;
}

if (import.meta.main) await runMain(main);
