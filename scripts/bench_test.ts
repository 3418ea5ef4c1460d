import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  batchSize,
  BENCH_LOCK,
  BENCH_USAGE,
  closingLine,
  compareRuns,
  cycleRatios,
  cyclesFor,
  formatChanges,
  formatGroupHeading,
  formatMarkdownTable,
  formatRow,
  formatTarget,
  groupProcessArgs,
  MEASURING,
  median,
  meets,
  parseBenchArgs,
  parseTarget,
  poolRuns,
  quantile,
  ratio,
  rowsOf,
  shuffled,
  spread,
  summarize,
  unknownTargets,
} from "./bench.ts";
import { ScriptError } from "./_cli.ts";
import { type GroupJob, type GroupResult, runGroup } from "./_bench/run_group.ts";
import { ROOT } from "./_sources.ts";

// ---------------------------------------------------------------------------------------------
// Targets

Deno.test("parseTarget() reads time and throughput targets, ASCII or not", () => {
  deepStrictEqual(parseTarget("time <= 1.10x"), { measure: "time", bound: 1.1 });
  deepStrictEqual(parseTarget(" time<=1.5x "), { measure: "time", bound: 1.5 });
  deepStrictEqual(parseTarget("throughput >= 0.9x"), { measure: "throughput", bound: 0.9 });
  deepStrictEqual(parseTarget("time ≤ 2×"), { measure: "time", bound: 2 });
  deepStrictEqual(parseTarget("throughput ≥ 0.95×"), { measure: "throughput", bound: 0.95 });
});

Deno.test("parseTarget() refuses malformed targets and bounds on the wrong side", () => {
  for (const text of ["", "1.10x", "time < 1.1x", "time <= 1.1", "speed >= 1x", "time <= -1x"]) {
    throws(() => parseTarget(text), ScriptError, text);
  }
  throws(() => parseTarget("time >= 1.1x"), /a time is bounded from above/);
  throws(() => parseTarget("throughput <= 0.9x"), /a throughput from below/);
  throws(() => parseTarget("time <= 0x"), /expected a positive ratio/);
});

Deno.test("meets() bounds time from above and throughput from below, inclusively", () => {
  const time = parseTarget("time <= 1.10x");
  strictEqual(meets(1.1, time), true);
  strictEqual(meets(1.1001, time), false);
  strictEqual(meets(0.5, time), true);
  const throughput = parseTarget("throughput >= 0.9x");
  strictEqual(meets(0.9, throughput), true);
  strictEqual(meets(0.8999, throughput), false);
  strictEqual(meets(1.3, throughput), true);
});

Deno.test("formatTarget() prints the bound with two decimals and the measure", () => {
  strictEqual(formatTarget(parseTarget("time <= 1.1x")), "≤ 1.10× time");
  strictEqual(formatTarget(parseTarget("throughput >= 0.9x")), "≥ 0.90× throughput");
});

// ---------------------------------------------------------------------------------------------
// Statistics

Deno.test("median() takes the middle value, or the mean of the two middle values", () => {
  strictEqual(median([3]), 3);
  strictEqual(median([5, 1, 3]), 3);
  strictEqual(median([4, 1, 3, 2]), 2.5);
  strictEqual(median([1, 1, 100]), 1);
  throws(() => median([]), RangeError);
});

Deno.test("median() leaves its input unsorted", () => {
  const values = [3, 1, 2];
  median(values);
  deepStrictEqual(values, [3, 1, 2]);
});

Deno.test("quantile() interpolates linearly between the closest ranks", () => {
  const values = [10, 20, 30, 40, 50];
  strictEqual(quantile(values, 0), 10);
  strictEqual(quantile(values, 0.25), 20);
  strictEqual(quantile(values, 1), 50);
  strictEqual(quantile([1, 2], 0.25), 1.25);
  throws(() => quantile(values, 1.5), RangeError);
  throws(() => quantile(values, Number.NaN), RangeError);
});

Deno.test("ratio() divides candidate by baseline for time, the inverse for throughput", () => {
  strictEqual(ratio(3, 2, "time"), 1.5);
  strictEqual(ratio(2, 4, "throughput"), 2);
  throws(() => ratio(0, 1, "time"), RangeError);
  throws(() => ratio(1, Number.POSITIVE_INFINITY, "time"), RangeError);
  throws(() => ratio(1, -1, "throughput"), RangeError);
});

Deno.test("cycleRatios() sums each whole cycle before dividing, dropping a partial cycle", () => {
  // Two benchmarks: the one that runs second in a round pays 2 extra, whichever it is.
  const baseline = [10, 12, 10, 12, 10];
  const candidate = [22, 20, 22, 20, 99];
  deepStrictEqual(cycleRatios(candidate, baseline, 2, "time"), [42 / 22, 42 / 22]);
  deepStrictEqual(cycleRatios(candidate, baseline, 2, "throughput"), [22 / 42, 22 / 42]);
  deepStrictEqual(cycleRatios([2, 4, 6], [1, 2, 3], 1, "time"), [2, 2, 2]);
});

Deno.test("cycleRatios() refuses unpaired rounds, no whole cycle and bad cycles", () => {
  throws(() => cycleRatios([1, 2], [1], 1, "time"), RangeError);
  throws(() => cycleRatios([1], [1], 2, "time"), RangeError);
  throws(() => cycleRatios([1], [1], 0, "time"), RangeError);
  throws(() => cycleRatios([1], [1], 1.5, "time"), RangeError);
});

Deno.test("summarize() gives the median, quartiles and count of the ratios", () => {
  deepStrictEqual(summarize([1.2, 1, 1.1, 5, 0.9]), {
    median: 1.1,
    low: 1,
    high: 1.2,
    cycles: 5,
  });
});

Deno.test("spread() is the largest value over the smallest, less one", () => {
  strictEqual(spread([1]), 0);
  ok(Math.abs(spread([1.0, 1.05, 1.02]) - 0.05) < 1e-12);
  throws(() => spread([]), RangeError);
});

Deno.test("cyclesFor() fits the budget within the bounds", () => {
  strictEqual(cyclesFor(100, 1_000, 1, 8), 8);
  strictEqual(cyclesFor(300, 1_000, 1, 8), 3);
  strictEqual(cyclesFor(5_000, 1_000, 1, 8), 1);
  strictEqual(cyclesFor(0, 1_000, 1, 8), 8);
});

Deno.test("batchSize() rounds to a power of two times the unit, at least 1", () => {
  strictEqual(batchSize(30, 1), 32);
  strictEqual(batchSize(30, 0.5), 64);
  strictEqual(batchSize(30, 40), 1);
  strictEqual(batchSize(30, 10), 4); // 3 = 2^1.58
  strictEqual(batchSize(30, 12), 2); // 2.5 = 2^1.32
  strictEqual(batchSize(30, 0), 1);
  strictEqual(batchSize(30, Number.NaN), 1);
});

Deno.test("batchSize() gives the unit to anything within a factor of 2 of its speed", () => {
  // A baseline batch of 4 iterations of 10 ms: 40 ms.
  for (const time of [5.1, 7, 10, 14, 19.9]) strictEqual(batchSize(40, time, 4), 4, `${time}`);
  strictEqual(batchSize(40, 5, 4), 8);
  strictEqual(batchSize(40, 2.5, 4), 16);
  strictEqual(batchSize(40, 20, 4), 2);
  strictEqual(batchSize(40, 100, 4), 1); // 0.4 iterations: at least one
});

// ---------------------------------------------------------------------------------------------
// Arguments

Deno.test("parseBenchArgs() reads --check, --filter, --json, --compare and --help", () => {
  deepStrictEqual(parseBenchArgs([]), {
    check: false,
    filter: undefined,
    json: undefined,
    compare: undefined,
    markdown: false,
  });
  deepStrictEqual(
    parseBenchArgs(["--check", "--filter=sse", "--json=out.json", "--compare=old.json"]),
    { check: true, filter: "sse", json: "out.json", compare: "old.json", markdown: false },
  );
  const args = parseBenchArgs(["--filter=a=b"]);
  strictEqual(args !== "help" && args.filter, "a=b");
  strictEqual(parseBenchArgs(["--check", "--help"]), "help");
  strictEqual(parseBenchArgs(["-h"]), "help");
  const markdown = parseBenchArgs(["--markdown"]);
  strictEqual(markdown !== "help" && markdown.markdown, true);
  ok(BENCH_USAGE.includes("--compare=PATH") && BENCH_USAGE.includes("--check"));
});

Deno.test("parseBenchArgs() refuses unknown arguments, values and empty values", () => {
  const bad: [string[], string][] = [
    [["--chek"], 'Unknown argument "--chek"; did you mean --check? (see --help)'],
    [["--filer=sse"], 'Unknown argument "--filer=sse"; did you mean --filter? (see --help)'],
    [["bench"], 'Unknown argument "bench" (see --help)'],
    [["--check=yes"], "--check takes no value (see --help)"],
    [["--markdown=yes"], "--markdown takes no value (see --help)"],
    [["--help=x"], "--help takes no value (see --help)"],
    [["--filter"], "--filter needs a value: --filter=TEXT (see --help)"],
    [["--filter="], "--filter needs a value: --filter=TEXT (see --help)"],
    [["--compare"], "--compare needs a value: --compare=PATH (see --help)"],
  ];
  for (const [args, message] of bad) {
    throws(() => parseBenchArgs(args), { name: "UsageError", message });
  }
});

// ---------------------------------------------------------------------------------------------
// Report

const result = (over: Partial<GroupResult> = {}): GroupResult => ({
  groups: ["g"],
  group: "g",
  benches: [
    { name: "fast", baseline: false, batch: 4, times: [1, 1, 1, 1] },
    { name: "base", baseline: true, batch: 2, times: [2, 2, 2, 2] },
    { name: "slow", baseline: false, batch: 1, times: [6, 6, 6, 6] },
  ],
  targets: { fast: "throughput >= 1.5x", slow: "time <= 2x" },
  ...over,
});

Deno.test("rowsOf() compares every benchmark but the baseline with it, in target terms", () => {
  const rows = rowsOf(result());
  deepStrictEqual(rows.map((row) => [row.name, row.baseline, row.summary.median, row.met]), [
    ["fast", "base", 2, true],
    ["slow", "base", 3, false],
  ]);
  strictEqual(rows[0]!.summary.cycles, 1); // 4 rounds, cycles of 3
});

Deno.test("rowsOf() reports a time ratio and no verdict without a target", () => {
  const [row] = rowsOf(result({ targets: {} }));
  strictEqual(row!.summary.median, 0.5);
  strictEqual(row!.target, undefined);
  strictEqual(row!.met, undefined);
});

Deno.test("rowsOf() ignores inherited target names and throws on a malformed target", () => {
  const benches = [
    { name: "base", baseline: true, batch: 1, times: [1, 1] },
    { name: "toString", baseline: false, batch: 1, times: [1, 1] },
  ];
  strictEqual(rowsOf(result({ benches, targets: {} }))[0]!.target, undefined);
  throws(() => rowsOf(result({ targets: { slow: "fast please" } })), ScriptError);
});

Deno.test("poolRuns() appends each benchmark's rounds run after run", () => {
  const pooled = poolRuns([result(), result()]);
  deepStrictEqual(pooled.benches.map((bench) => bench.times.length), [8, 8, 8]);
  strictEqual(rowsOf(pooled)[1]!.summary.cycles, 2);
  throws(() => poolRuns([]), RangeError);
  throws(() => poolRuns([result(), result({ group: "h" })]), RangeError);
  throws(() => poolRuns([result(), result({ benches: [] })]), RangeError);
});

Deno.test("unknownTargets() lists target names that are no candidate", () => {
  deepStrictEqual(unknownTargets({ fast: "", base: "", typo: "" }, [result()]), ["base", "typo"]);
});

Deno.test("formatRow() aligns the ratio, target and verdict before the name", () => {
  const [fast, slow] = rowsOf(result());
  strictEqual(
    formatRow(fast!),
    "  2.00× throughput (2.00–2.00) ≥ 1.50× throughput   met   fast",
  );
  strictEqual(
    formatRow(slow!),
    "  3.00× time (3.00–3.00)     ≤ 2.00× time         MISS  slow",
  );
  strictEqual(
    formatRow(rowsOf(result({ targets: {} }))[0]!),
    "  0.50× time (0.50–0.50)     no target                  fast",
  );
});

Deno.test("formatGroupHeading() names the file, group, baseline and cycles", () => {
  strictEqual(
    formatGroupHeading("packages/x_bench.ts", result()),
    "packages/x_bench.ts › g: against base, 1 cycles",
  );
  strictEqual(
    formatGroupHeading("x", result({ group: "" })),
    "x › (no group): against base, 1 cycles",
  );
});

Deno.test("closingLine() counts the targets met among the rows with one", () => {
  strictEqual(closingLine(rowsOf(result())), "1 of 2 targets met");
  strictEqual(closingLine(rowsOf(result({ targets: {} }))), "0 of 0 targets met");
  strictEqual(closingLine([]), "0 of 0 targets met");
});

Deno.test("compareRuns() pairs the rows of both runs; formatChanges() names the largest", () => {
  const run = (fast: number[]) => [{
    file: "a_bench.ts",
    result: {
      groups: ["g"],
      group: "g",
      targets: {},
      benches: [
        { name: "base", baseline: true, batch: 1, times: [2, 2] },
        { name: "fast", baseline: false, batch: 1, times: fast },
      ],
    },
  }];
  const changes = compareRuns(run([1, 1]), [...run([1.1, 1.1]), {
    file: "b_bench.ts",
    result: { groups: ["h"], group: "h", targets: {}, benches: [] },
  }]);
  strictEqual(changes.length, 1);
  strictEqual(changes[0]!.name, "fast");
  strictEqual(changes[0]!.before, 0.5);
  ok(Math.abs(changes[0]!.change - 0.1) < 1e-9);
  const lines = formatChanges(changes, 0.05);
  strictEqual(lines.length, 2);
  ok(lines[0]!.includes("+10.0%") && lines[0]!.includes("0.500 → 0.550"), lines[0]);
  strictEqual(
    lines[1],
    "0 of 1 ratios within 5.0% of the earlier run; largest change +10.0% (fast)",
  );
  strictEqual(
    formatChanges(compareRuns(run([1, 1]), run([1, 1])), 0.05).at(-1)!.startsWith("1 of 1"),
    true,
  );
  deepStrictEqual(formatChanges([], 0.05), [
    "compared with the earlier run: no benchmark in common",
  ]);
});

Deno.test("formatMarkdownTable() writes one escaped row per benchmark with its verdict", () => {
  const summary = { median: 1.234, low: 1.2, high: 1.3, cycles: 4 };
  const lines = formatMarkdownTable([
    { name: "a|b", baseline: "base", summary, target: parseTarget("time <= 1.1x"), met: false },
    { name: "c", baseline: "base", summary, target: undefined, met: undefined },
  ]);
  strictEqual(lines.length, 4);
  strictEqual(lines[2], "| a\\|b | base | 1.23× time (1.20–1.30) | ≤ 1.10× time | **no** |");
  strictEqual(lines[3], "| c | base | 1.23× time (1.20–1.30) | — |  |");
});

Deno.test("shuffled() permutes 0 to n - 1, in every order over many draws", () => {
  const seen = new Set<string>();
  for (let draw = 0; draw < 200; draw++) {
    const order = shuffled(3);
    deepStrictEqual([...order].sort(), [0, 1, 2]);
    seen.add(order.join(""));
  }
  strictEqual(seen.size, 6);
  deepStrictEqual(shuffled(4, () => 0), [1, 2, 3, 0]);
  deepStrictEqual(shuffled(4, () => 0.999999), [0, 1, 2, 3]);
  deepStrictEqual(shuffled(0), []);
});

// ---------------------------------------------------------------------------------------------
// runGroup(), on a small bench file

const GROUPS_FILE = new URL("./testdata/bench/groups.ts", import.meta.url).href;

/** Short measuring settings for the test bench file, with `over` replacing some. */
function testJob(over: Partial<GroupJob> = {}): Omit<GroupJob, "group"> {
  return {
    file: GROUPS_FILE,
    warmupMs: 5,
    budgetMs: 20,
    minGroupMs: 20,
    cycles: 2,
    minBatchMs: 1,
    minIterations: 1,
    ...over,
  };
}

Deno.test("runGroup() lists a file's groups, then measures one in whole cycles", async () => {
  const settings = testJob();
  const listing = await runGroup({ group: -1, ...settings });
  deepStrictEqual(listing.groups, ["sync", "async", ""]);
  deepStrictEqual(listing.targets, { slower: "time <= 1.5x" });
  deepStrictEqual(unknownTargets(listing.targets, [listing]), []);

  const sync = await runGroup({ group: 0, ...settings });
  deepStrictEqual(sync.benches.map((b) => [b.name, b.baseline]), [["base", true], [
    "slower",
    false,
  ]]);
  for (const bench of sync.benches) {
    ok(bench.times.length > 0 && bench.times.length % 2 === 0, `${bench.times.length} rounds`);
    ok(bench.times.every((time) => time >= 0 && Number.isFinite(time)));
  }
  // The first benchmark is the baseline of a group that names none.
  const async = await runGroup({ group: 1, ...settings });
  deepStrictEqual(async.benches.map((b) => [b.name, b.baseline]), [["async base", true]]);
  const unnamed = await runGroup({ group: 2, ...settings });
  deepStrictEqual(unnamed.benches.map((b) => b.name), ["asyncNamed"]);
  await throwsAsync(() => runGroup({ group: 3, ...settings }), /Cannot find group 3/);
});

Deno.test("runGroup() keeps the batches of an earlier pass and the fewest iterations", async () => {
  const settings = testJob({
    warmupMs: 1,
    budgetMs: 5,
    minGroupMs: 5,
    cycles: 1,
    minBatchMs: 0,
    minIterations: 3,
  });
  const fresh = await runGroup({ group: 0, ...settings });
  ok(fresh.benches.every((bench) => bench.batch >= 3), JSON.stringify(fresh.benches));
  const kept = await runGroup({ group: 0, ...settings, batches: [5, 7] });
  deepStrictEqual(kept.benches.map((bench) => bench.batch), [5, 7]);
});

async function throwsAsync(fn: () => Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await fn();
  } catch (error) {
    ok(error instanceof ScriptError && message.test(error.message), String(error));
    return;
  }
  throw new Error("Expected a rejection");
}

// ---------------------------------------------------------------------------------------------
// Locks: what users' commands download

/** A Deno lock (version 5), as far as these tests read it. */
interface DenoLock {
  specifiers: Record<string, string>;
  npm: Record<string, { dependencies?: string[]; optionalDependencies?: string[] }>;
}

async function readDenoLock(name: string): Promise<DenoLock> {
  return JSON.parse(await Deno.readTextFile(`${ROOT}/${name}`)) as DenoLock;
}

/** The package name of a lock's `npm` key or dependency (`@a2a-js/sdk@1.3.0_express@5.3.0`). */
function packageName(key: string): string {
  const at = key.indexOf("@", 1);
  return at < 0 ? key : key.slice(0, at);
}

/** Every `npm:name@version` specifier the `.ts` files under `dir` import (or export), by file. */
async function npmImports(dir: string, out = new Map<string, Set<string>>()) {
  for await (const entry of Deno.readDir(`${ROOT}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && entry.name !== "node_modules") await npmImports(path, out);
    if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(`${ROOT}/${path}`);
    const found = new Set<string>();
    const imports = /\b(?:from|import)\s*\(?\s*["']npm:((?:@[^/"'@]+\/)?[^/"'@]+)@([^/"']+)/g;
    for (const match of text.matchAll(imports)) {
      found.add(`npm:${match[1]}@${match[2]}`);
    }
    if (found.size > 0) out.set(path, found);
  }
  return out;
}

/** The npm packages a lock's specifiers reach, by `npm` key; throws on a dangling reference. */
function reachable(lock: DenoLock): Set<string> {
  const byName = new Map<string, string[]>();
  for (const key of Object.keys(lock.npm)) {
    byName.set(packageName(key), [...(byName.get(packageName(key)) ?? []), key]);
  }
  const resolve = (dependency: string): string => {
    if (Object.hasOwn(lock.npm, dependency)) return dependency;
    const keys = byName.get(dependency) ?? [];
    if (keys.length !== 1) throw new Error(`dangling dependency ${dependency}`);
    return keys[0]!;
  };
  const seen = new Set<string>();
  const stack = Object.entries(lock.specifiers).map(([specifier, version]) =>
    `${packageName(specifier.slice("npm:".length))}@${version}`
  );
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    if (!Object.hasOwn(lock.npm, key)) throw new Error(`dangling package ${key}`);
    seen.add(key);
    const entry = lock.npm[key]!;
    for (const dependency of [...entry.dependencies ?? [], ...entry.optionalDependencies ?? []]) {
      stack.push(resolve(dependency));
    }
  }
  return seen;
}

Deno.test(
  "deno.lock locks only the root imports, so sync, gen and test-vectors download no SDK",
  async () => {
    const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)) as {
      imports: Record<string, string>;
      lock: { path: string; frozen: boolean };
    };
    deepStrictEqual(config.lock, { path: "./deno.lock", frozen: true });
    const lock = await readDenoLock("deno.lock");
    const roots = Object.values(config.imports).filter((target) => target.startsWith("npm:"));
    deepStrictEqual(Object.keys(lock.specifiers).sort(), roots.sort());
    // Every package of the lock is one of theirs, or one they depend on: Deno installs the whole
    // lock on the first npm import, so a leftover would still be downloaded.
    deepStrictEqual([...reachable(lock)].sort(), Object.keys(lock.npm).sort());
    for (const name of ["@adcp/sdk", "@modelcontextprotocol/sdk", "@a2a-js/sdk"]) {
      ok(Object.keys(lock.npm).every((key) => packageName(key) !== name), `deno.lock has ${name}`);
    }
  },
);

Deno.test(
  "the bench-only SDKs are locked in deno.bench.lock only, the test SDKs in deno.test.lock",
  async () => {
    const byFile = await npmImports("packages");
    for (const [path, found] of await npmImports("scripts")) byFile.set(path, found);
    for (const [path, found] of await npmImports("examples")) byFile.set(path, found);
    const benchOnly = new Set<string>();
    const elsewhere = new Set<string>();
    for (const [path, found] of byFile) {
      for (const specifier of found) {
        (path.endsWith("_bench.ts") ? benchOnly : elsewhere).add(specifier);
      }
    }
    for (const specifier of elsewhere) benchOnly.delete(specifier);
    // The case this guards: @adcp/sdk, which only a benchmark compares against.
    ok(benchOnly.has("npm:@adcp/sdk@6.11.0"), [...benchOnly].join(", "));

    const test = await readDenoLock("deno.test.lock");
    const bench = await readDenoLock(BENCH_LOCK);
    const main = await readDenoLock("deno.lock");
    for (const lock of [test, bench]) {
      deepStrictEqual([...reachable(lock)].sort(), Object.keys(lock.npm).sort());
      // What every command reads is locked alike in each lock.
      for (const [specifier, version] of Object.entries(main.specifiers)) {
        strictEqual(lock.specifiers[specifier], version, specifier);
      }
    }
    // Tests (and every file but a benchmark) run and type-check against deno.test.lock.
    for (const specifier of elsewhere) ok(Object.hasOwn(test.specifiers, specifier), specifier);
    // Benchmarks run (scripts/bench.ts) and type-check (deno task check) against deno.bench.lock.
    for (const [path, found] of byFile) {
      if (!path.endsWith("_bench.ts")) continue;
      for (const specifier of found) {
        ok(Object.hasOwn(bench.specifiers, specifier), `${path}: ${specifier}`);
      }
    }
    // No bench-only package in the locks users' and tests' commands read, not even as a
    // dependency: @adcp/sdk's peer range would also make Deno warn about the test lock's A2A SDK.
    for (const specifier of benchOnly) {
      const name = packageName(specifier.slice("npm:".length));
      for (const [file, lock] of [["deno.lock", main], ["deno.test.lock", test]] as const) {
        ok(!Object.hasOwn(lock.specifiers, specifier), `${file} locks ${specifier}`);
        ok(Object.keys(lock.npm).every((key) => packageName(key) !== name), `${file}: ${name}`);
      }
    }
  },
);

Deno.test("a bench file that imports a bench-only SDK loads in a group process", async () => {
  // The listing run scripts/bench.ts starts for each file, as it starts it: against
  // deno.bench.lock, which is frozen like deno.lock (a missing entry would fail here).
  const { passes: _, ...settings } = MEASURING;
  const job: GroupJob = {
    file: new URL("../packages/core/extract_sdk_bench.ts", import.meta.url).href,
    group: -1,
    ...settings,
  };
  const args = groupProcessArgs(job);
  ok(args.includes(`--lock=${BENCH_LOCK}`));
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  strictEqual(output.code, 0, stderr);
  // Nothing but downloads, on a cold cache: no peer-dependency warning.
  deepStrictEqual(stderr.split("\n").filter((l) => l !== "" && !l.startsWith("Download ")), []);
  const line = new TextDecoder().decode(output.stdout).split("\n").find((text) =>
    text.startsWith("RESULT ")
  );
  const listing = JSON.parse(line!.slice("RESULT ".length)) as GroupResult;
  ok(listing.groups.length > 0);
});

Deno.test("deno task check type-checks the benchmarks against deno.bench.lock", async () => {
  strictEqual(BENCH_LOCK, "deno.bench.lock");
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)) as {
    tasks: Record<string, { command: string }>;
  };
  ok(config.tasks.check!.command.includes(`--lock=${BENCH_LOCK} 'packages/**/*_bench.ts'`));
  ok(config.tasks.check!.command.includes("'!packages/**/*_bench.ts'"));
});
