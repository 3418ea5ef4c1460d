/**
 * `deno task bench`: every benchmark of the `*_bench.ts` files under `packages/` as a ratio to its
 * group's baseline in the same run (never an absolute time), its target and whether it was met,
 * then `N of M targets met`.
 *
 * Usage: `deno task bench [--check] [--filter=TEXT] [--json=PATH] [--compare=PATH]` (see
 * {@link BENCH_USAGE}). `--check` exits 1 when a target is missed (otherwise the exit status is 0
 * whatever was measured); `--filter` runs the groups whose file path or group name contains
 * `TEXT`; `--json` also writes every measured time there; `--compare` prints how each ratio moved
 * since the run whose `--json` output it names, and how many moved by at most
 * {@link AGREEMENT}.
 *
 * The group processes read {@link BENCH_LOCK}, `deno.bench.lock`, the only lock that holds the
 * bench-only SDKs (run a bench file by hand with `deno bench --lock=deno.bench.lock FILE`).
 *
 * The bench files stay ordinary `deno bench` files (`Deno.bench` with `group` and `baseline`);
 * each may export `BENCH_TARGETS`, benchmark name → target (`time <= 1.10x`, `throughput >=
 * 0.9x`), which {@link parseTarget} reads. How the ratios are measured, so that consecutive runs
 * on two shared, noisy cores agree:
 *
 * - Isolation: each group runs in a fresh process (`scripts/_bench/run_group.ts`), so that no
 *   group inherits another's heap, garbage or type feedback; the set-up garbage of its file is
 *   collected before it is warmed up.
 * - Passes: every group is measured in {@link MEASURING}`.passes` processes, pass after pass over
 *   all groups, so that each group's samples spread over the whole run.
 * - Interleaving: after a warm-up, rounds time one batch of each benchmark of the group, in
 *   whole cycles of as many rounds as benchmarks: each round rotates the order by a different
 *   amount, so that within a cycle each benchmark runs once at each position and what a batch
 *   leaves behind (garbage, cold caches) weighs on all alike. The rotations come in a random order
 *   in each cycle: a fixed order made the schedule periodic, and a garbage collector with the same
 *   period charged one benchmark every time.
 * - Batches: at least {@link MEASURING}`.minIterations` iterations, so that the garbage of a
 *   benchmark that allocates much is collected within its own batches about as often as not;
 *   chosen by the first pass and kept by the others, so that every pass collects at the same
 *   points.
 * - CPU time: batches are timed by the process's CPU time, which other processes holding the
 *   cores do not inflate as they do the wall clock.
 * - Robust statistics: a cycle's ratio is the candidate's summed time over the baseline's; the
 *   figure printed is the median over all cycles of all passes, with the quartiles.
 *
 * @module
 */
import { relative } from "node:path";
import { runMain, ScriptError, unknownArgument, UsageError } from "./_cli.ts";
import {
  closingLine,
  compareRuns,
  formatChanges,
  formatGroupHeading,
  formatMarkdownTable,
  formatRow,
  poolRuns,
  type Row,
  rowsOf,
  type SavedGroup,
  unknownTargets,
} from "./_bench/report.ts";
import type { GroupJob, GroupResult } from "./_bench/run_group.ts";

export * from "./_bench/stats.ts";
export * from "./_bench/report.ts";
export type { BenchTimes, GroupJob, GroupResult } from "./_bench/run_group.ts";

/** What the command line asks for. */
export interface BenchArgs {
  /** Exit 1 when a target is missed. */
  readonly check: boolean;
  /** Run only the groups whose file path or group name contains this. */
  readonly filter?: string | undefined;
  /** Where to write every measured time, as JSON. */
  readonly json?: string | undefined;
  /** An earlier run's `--json` output, to print how each ratio moved since. */
  readonly compare?: string | undefined;
  /** Also print the rows as a Markdown table (the table of docs/performance.md). */
  readonly markdown?: boolean | undefined;
}

/** The usage text of `deno task bench --help`. */
export const BENCH_USAGE: string = [
  "Usage: deno task bench [--check] [--filter=TEXT] [--json=PATH] [--compare=PATH] [--markdown]",
  "",
  "Measures every benchmark of the packages' *_bench.ts files as a ratio to its group's",
  "baseline in the same run (CPU time, interleaved rounds, one process per group and pass),",
  'prints the ratio, its target and whether it was met, then "N of M targets met".',
  "The benchmarks run against deno.bench.lock, the only lock with the SDKs they compare against.",
  "",
  "  --check          exit 1 when a target is missed (otherwise 0 whatever was measured)",
  "  --filter=TEXT    only the groups whose file path or group name contains TEXT",
  "  --json=PATH      also write every measured time to PATH",
  "  --compare=PATH   print how each ratio moved since the run whose --json output is PATH",
  "  --markdown       also print the rows as a Markdown table (the table of docs/performance.md)",
  "  --help           print this and exit",
  "",
  "Exit status: 0, or 1 with --check when a target is missed; 2 for a mistaken command line.",
].join("\n");

/** The flags of `deno task bench`, for the nearest-flag hint. */
const BENCH_FLAGS = ["--check", "--filter", "--json", "--compare", "--markdown", "--help"] as const;

/**
 * Parses the arguments of `scripts/bench.ts`.
 *
 * @param args The command-line arguments.
 * @returns What they ask for, or `"help"` for `--help` (or `-h`).
 * @throws {UsageError} On an unknown argument (naming it and the nearest flag), a value given to
 * a flag that takes none, or a missing or empty value.
 */
export function parseBenchArgs(args: readonly string[]): BenchArgs | "help" {
  let check = false;
  let filter: string | undefined;
  let json: string | undefined;
  let compare: string | undefined;
  let markdown = false;
  for (const arg of args) {
    const [flag, value] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    if (flag === "--help" || flag === "-h" || flag === "--check" || flag === "--markdown") {
      if (value !== undefined) throw new UsageError(`${flag} takes no value (see --help)`);
      if (flag === "--check") check = true;
      else if (flag === "--markdown") markdown = true;
      else return "help";
    } else if (flag === "--filter" || flag === "--json" || flag === "--compare") {
      if (value === undefined || value === "") {
        const name = flag === "--filter" ? "TEXT" : "PATH";
        throw new UsageError(`${flag} needs a value: ${flag}=${name} (see --help)`);
      }
      if (flag === "--filter") filter = value;
      else if (flag === "--json") json = value;
      else compare = value;
    } else {
      throw unknownArgument(arg, BENCH_FLAGS);
    }
  }
  return { check, filter, json, compare, markdown };
}

/**
 * The measuring settings (see {@link GroupJob}): about three minutes for the workspace on two
 * shared cores.
 */
export const MEASURING = {
  /** Each group is measured in this many processes, one after another over the whole run. */
  passes: 4,
  warmupMs: 150,
  budgetMs: 375,
  minGroupMs: 1_500,
  cycles: 12,
  minBatchMs: 5,
  minIterations: 2,
} as const;

/** How closely two consecutive runs should agree, as a fraction: what `--compare` reports. */
export const AGREEMENT = 0.05;

/** An earlier run's `--json` output. */
async function readSavedRun(path: string): Promise<SavedGroup[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new ScriptError(`Cannot read ${path} for --compare: ${(error as Error).message}`);
  }
  let saved: unknown;
  try {
    saved = JSON.parse(text);
  } catch {
    saved = undefined;
  }
  if (!Array.isArray(saved) || !saved.every((group) => isSavedGroup(group))) {
    throw new ScriptError(`Cannot compare with ${path}: it is not the --json output of a run`);
  }
  return saved;
}

function isSavedGroup(value: unknown): value is SavedGroup {
  const group = value as Partial<SavedGroup> | null;
  return typeof group === "object" && group !== null && typeof group.file === "string" &&
    typeof group.result === "object" && group.result !== null &&
    Array.isArray(group.result.benches) && typeof group.result.targets === "object" &&
    group.result.benches.every((bench) =>
      typeof bench?.name === "string" && Array.isArray(bench.times) &&
      (bench.times as unknown[]).every((time) => typeof time === "number")
    );
}

/**
 * glibc's allocator settings for the group processes. By default it serves a 4 MiB block from
 * fresh pages (mmap, page faults) or from its heap depending on what was freed before, a
 * threshold it moves as the process runs: in one run `arrayBuffer()` of 4 MiB took 0.35 ms per
 * iteration in two passes and 3-5 ms in the other two. Fixed thresholds keep such blocks on the
 * heap in every process. Other allocators ignore these variables.
 */
const ALLOCATOR_ENV = {
  MALLOC_MMAP_THRESHOLD_: String(256 * 1_048_576),
  MALLOC_TRIM_THRESHOLD_: String(1_024 * 1_048_576),
};

/**
 * The permissions of a group's process: what the bench files need. Running the Deno executable
 * itself lets a bench file start the agent it measures against in a process of its own
 * (packages/transports/client_bench.ts), so that the agent's CPU is not counted as the client's.
 */
const GROUP_PERMISSIONS = [
  "--allow-read",
  "--allow-net",
  "--allow-env",
  `--allow-run=${Deno.execPath()}`,
];

/**
 * The lock of the group processes, relative to the repository root: the benchmarks measure against
 * SDKs (`@adcp/sdk`, and the MCP and A2A SDKs) that nothing else runs, locked there and not in
 * `deno.lock`, so that `sync`, `gen` and `test-vectors` never download them.
 */
export const BENCH_LOCK = "deno.bench.lock";

const ROOT = new URL("../", import.meta.url);
const RUNNER = new URL("./_bench/run_group.ts", import.meta.url);

/**
 * The `deno` arguments of the process that runs one group (or lists a file's groups), from the
 * repository root: `run` with {@link BENCH_LOCK}, the garbage collector exposed, the permissions
 * the bench files need, `scripts/_bench/run_group.ts` and the job.
 *
 * @param job What the process measures.
 * @returns The arguments.
 *
 * @example The lock comes first
 * ```ts
 * import { groupProcessArgs } from "./bench.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const job = {
 *   file: "file:///x_bench.ts",
 *   group: -1,
 *   warmupMs: 1,
 *   budgetMs: 1,
 *   minGroupMs: 1,
 *   cycles: 1,
 *   minBatchMs: 1,
 *   minIterations: 1,
 * };
 * deepStrictEqual(groupProcessArgs(job).slice(0, 3), [
 *   "run",
 *   "--lock=deno.bench.lock",
 *   "--v8-flags=--expose-gc",
 * ]);
 * ```
 */
export function groupProcessArgs(job: GroupJob): string[] {
  return [
    "run",
    `--lock=${BENCH_LOCK}`,
    "--v8-flags=--expose-gc",
    ...GROUP_PERMISSIONS,
    RUNNER.href,
    JSON.stringify(job),
  ];
}

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

/**
 * Runs one group (or, with -1, lists the groups) in a fresh process, with the batch sizes of its
 * first pass if there was one: what it printed.
 */
async function runGroupProcess(
  file: URL,
  group: number,
  batches?: readonly number[],
): Promise<GroupResult> {
  const { passes: _, ...settings } = MEASURING;
  const job: GroupJob = { file: file.href, group, ...settings, batches };
  const output = await new Deno.Command(Deno.execPath(), {
    args: groupProcessArgs(job),
    cwd: ROOT,
    env: ALLOCATOR_ENV,
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

/** One group to measure, and its runs so far. */
interface GroupRef {
  readonly file: URL;
  readonly path: string;
  readonly index: number;
  readonly runs: GroupResult[];
}

/** Runs the benchmarks; the exit status. */
async function main(): Promise<number> {
  const args = parseBenchArgs(Deno.args);
  if (args === "help") {
    console.log(BENCH_USAGE);
    return 0;
  }
  // Read before measuring, so that a wrong path fails in a second, not after minutes.
  const previous = args.compare === undefined ? undefined : await readSavedRun(args.compare);
  const groups: GroupRef[] = [];
  for (const file of await benchFiles(new URL("packages/", ROOT))) {
    const path = relative(ROOT.pathname, file.pathname);
    const listing = await runGroupProcess(file, -1);
    const unknown = unknownTargets(listing.targets, [listing]);
    if (unknown.length > 0) {
      throw new ScriptError(
        `${path}: BENCH_TARGETS names no benchmark other than a baseline: ${unknown.join(", ")}`,
      );
    }
    listing.groups.forEach((name, index) => {
      const wanted = args.filter === undefined || path.includes(args.filter) ||
        name.includes(args.filter);
      if (wanted) groups.push({ file, path, index, runs: [] });
    });
  }
  console.log(
    `bench: ${groups.length} groups, ${MEASURING.passes} passes of one process per group; ` +
      "ratio = median over cycles of CPU time against the baseline (quartiles)",
  );
  // Pass after pass over every group, so that each group's rounds spread over the whole run and a
  // few busy seconds on the shared cores weigh on no group more than on another.
  for (let pass = 1; pass <= MEASURING.passes; pass++) {
    console.log(`pass ${pass} of ${MEASURING.passes}: ${groups.length} groups`);
    for (const group of groups) {
      const batches = group.runs[0]?.benches.map((bench) => bench.batch);
      group.runs.push(await runGroupProcess(group.file, group.index, batches));
    }
  }
  const rows: Row[] = [];
  const pooled: SavedGroup[] = [];
  for (const group of groups) {
    const result = poolRuns(group.runs);
    pooled.push({ file: group.path, result });
    const groupRows = rowsOf(result);
    rows.push(...groupRows);
    console.log(formatGroupHeading(group.path, result));
    for (const row of groupRows) console.log(formatRow(row));
  }
  if (args.json !== undefined) {
    await Deno.writeTextFile(args.json, JSON.stringify(pooled, null, 2) + "\n");
  }
  if (args.markdown === true) { for (const line of formatMarkdownTable(rows)) console.log(line); }
  if (previous !== undefined) {
    for (const line of formatChanges(compareRuns(previous, pooled), AGREEMENT)) console.log(line);
  }
  console.log(closingLine(rows));
  return args.check && rows.some((row) => row.met === false) ? 1 : 0;
}

if (import.meta.main) await runMain(main);
