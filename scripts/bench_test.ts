import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  batchSize,
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

Deno.test("parseBenchArgs() refuses unknown arguments and empty values", () => {
  const bad = [
    ["--chek"],
    ["--check=yes"],
    ["--filter"],
    ["--filter="],
    ["--compare"],
    ["--markdown=yes"],
    ["bench"],
  ];
  for (const args of bad) {
    throws(() => parseBenchArgs(args), /Unknown argument/);
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
