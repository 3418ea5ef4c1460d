// What `deno task bench` prints: one row per benchmark (its ratio to the group's baseline, its
// target, whether it was met) and the closing count. Pure; scripts/bench_test.ts tests it.
import type { GroupResult } from "./run_group.ts";
import {
  cycleRatios,
  formatTarget,
  meets,
  parseTarget,
  type RatioSummary,
  summarize,
  type Target,
} from "./stats.ts";

/** One benchmark compared with its group's baseline. */
export interface Row {
  /** The benchmark's name. */
  readonly name: string;
  /** The baseline's name. */
  readonly baseline: string;
  /** The per-cycle ratios, in the target's terms (time when there is no target). */
  readonly summary: RatioSummary;
  /** The target, if the bench file sets one. */
  readonly target?: Target | undefined;
  /** Whether the target is met; `undefined` without a target. */
  readonly met?: boolean | undefined;
}

/**
 * The rows of one measured group: every benchmark but the baseline, with its target from the
 * file's `BENCH_TARGETS` (parsed).
 *
 * @param result What the group's run printed.
 * @returns One row per benchmark other than the baseline, in registration order.
 * @throws {ScriptError} When a target of the group cannot be parsed.
 */
export function rowsOf(result: GroupResult): Row[] {
  const baseline = result.benches.find((bench) => bench.baseline);
  if (baseline === undefined) return [];
  return result.benches.filter((bench) => bench !== baseline).map((bench) => {
    const text = Object.hasOwn(result.targets, bench.name) ? result.targets[bench.name] : undefined;
    const target = text === undefined ? undefined : parseTarget(text);
    const measure = target?.measure ?? "time";
    const cycle = result.benches.length;
    const summary = summarize(cycleRatios(bench.times, baseline.times, cycle, measure));
    return {
      name: bench.name,
      baseline: baseline.name,
      summary,
      target,
      met: target === undefined ? undefined : meets(summary.median, target),
    };
  });
}

/**
 * One group's runs (one per process) as one: each benchmark's rounds, run after run, so that the
 * rounds of the candidates and the baseline stay paired.
 *
 * @param runs The group's runs, at least one, each with the same benchmarks in the same order.
 * @returns The pooled result.
 * @throws {RangeError} When there is no run or the runs measured different benchmarks.
 */
export function poolRuns(runs: readonly GroupResult[]): GroupResult {
  const [first] = runs;
  if (first === undefined) throw new RangeError("Cannot pool no runs");
  const names = (run: GroupResult) => run.benches.map((bench) => bench.name).join("\0");
  if (runs.some((run) => run.group !== first.group || names(run) !== names(first))) {
    throw new RangeError(`Cannot pool runs of group "${first.group}" that differ in benchmarks`);
  }
  return {
    ...first,
    benches: first.benches.map((bench, index) => ({
      ...bench,
      times: runs.flatMap((run) => run.benches[index]!.times),
    })),
  };
}

/** The names in `targets` that no benchmark of `results` other than a baseline carries. */
export function unknownTargets(
  targets: Readonly<Record<string, string>>,
  results: readonly GroupResult[],
): string[] {
  const candidates = new Set(
    results.flatMap((result) => result.benches.filter((b) => !b.baseline).map((b) => b.name)),
  );
  return Object.keys(targets).filter((name) => !candidates.has(name));
}

const RATIO_COLUMN = 26;
const TARGET_COLUMN = 20;

/**
 * One row as printed: the median ratio with its quartiles, the target and the verdict, then the
 * name (last, so that the columns line up whatever its length).
 *
 * @param row The row.
 * @returns One line, indented by two spaces.
 */
export function formatRow(row: Row): string {
  const { median, low, high } = row.summary;
  const measure = row.target?.measure ?? "time";
  const ratio = `${median.toFixed(2)}× ${measure} (${low.toFixed(2)}–${high.toFixed(2)})`;
  const target = row.target === undefined ? "no target" : formatTarget(row.target);
  const verdict = row.met === undefined ? "    " : row.met ? "met " : "MISS";
  return `  ${ratio.padEnd(RATIO_COLUMN)} ${target.padEnd(TARGET_COLUMN)} ${verdict}  ${row.name}`;
}

/**
 * The heading of a group: where it is, its baseline and how many cycles of rounds were measured.
 *
 * @param file The bench file, relative to the repository root.
 * @param result What the group's run printed.
 * @returns One line.
 */
export function formatGroupHeading(file: string, result: GroupResult): string {
  const baseline = result.benches.find((bench) => bench.baseline);
  const cycles = Math.floor((baseline?.times.length ?? 0) / result.benches.length);
  const group = result.group === "" ? "(no group)" : result.group;
  return `${file} › ${group}: against ${baseline?.name ?? "nothing"}, ${cycles} cycles`;
}

/**
 * The closing line: how many of the targets were met.
 *
 * @param rows Every row printed.
 * @returns `N of M targets met`.
 */
export function closingLine(rows: readonly Row[]): string {
  const targeted = rows.filter((row) => row.target !== undefined);
  const met = targeted.filter((row) => row.met === true).length;
  return `${met} of ${targeted.length} targets met`;
}

/** One group as `--json` writes it: its bench file and its pooled result. */
export interface SavedGroup {
  /** The bench file, relative to the repository root. */
  readonly file: string;
  /** The group's runs, pooled. */
  readonly result: GroupResult;
}

/** How one row moved between two runs. */
export interface RowChange {
  /** The benchmark's name. */
  readonly name: string;
  /** Its ratio in the earlier run. */
  readonly before: number;
  /** Its ratio in this run. */
  readonly after: number;
  /** after / before − 1. */
  readonly change: number;
}

/**
 * How each row of `current` moved since `previous` (an earlier run's `--json` output): the rows
 * that both runs measured, in the order of `current`.
 *
 * @param previous The earlier run's groups.
 * @param current This run's groups.
 * @returns One change per row found in both.
 * @throws {ScriptError} When a target of either run cannot be parsed.
 */
export function compareRuns(
  previous: readonly SavedGroup[],
  current: readonly SavedGroup[],
): RowChange[] {
  const before = new Map(
    previous.flatMap((group) => rowsOf(group.result).map((row) => [row.name, row] as const)),
  );
  return current.flatMap((group) =>
    rowsOf(group.result).flatMap((row) => {
      const earlier = before.get(row.name);
      if (earlier === undefined) return [];
      const change = row.summary.median / earlier.summary.median - 1;
      return [{
        name: row.name,
        before: earlier.summary.median,
        after: row.summary.median,
        change,
      }];
    })
  );
}

/**
 * The comparison as printed: every row's change, then the largest.
 *
 * @param changes What {@link compareRuns} found.
 * @param bound The agreement to report against, as a fraction (0.05 for 5%).
 * @returns The lines to print.
 */
export function formatChanges(changes: readonly RowChange[], bound: number): string[] {
  if (changes.length === 0) return ["compared with the earlier run: no benchmark in common"];
  const lines = changes.map(({ name, before, after, change }) =>
    `  ${formatPercent(change).padStart(7)}  ${before.toFixed(3)} → ${after.toFixed(3)}  ${name}`
  );
  const largest = changes.reduce((a, b) => Math.abs(b.change) > Math.abs(a.change) ? b : a);
  const within = changes.filter((row) => Math.abs(row.change) <= bound).length;
  lines.push(
    `${within} of ${changes.length} ratios within ${formatPercent(bound).slice(1)} of the ` +
      `earlier run; largest change ${formatPercent(largest.change)} (${largest.name})`,
  );
  return lines;
}

function formatPercent(fraction: number): string {
  const percent = (fraction * 100).toFixed(1);
  return fraction >= 0 ? `+${percent}%` : `${percent}%`;
}

/**
 * The rows as a Markdown table, for docs/performance.md: the benchmark, its baseline, the median
 * ratio with its quartiles, the target and the verdict.
 *
 * @param rows The rows, in the order printed.
 * @returns The table's lines (header, separator, one line per row).
 */
export function formatMarkdownTable(rows: readonly Row[]): string[] {
  const escape = (text: string) => text.replaceAll("|", "\\|");
  const lines = [
    "| benchmark | baseline | ratio (quartiles) | target | met |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const row of rows) {
    const { median, low, high } = row.summary;
    const measure = row.target?.measure ?? "time";
    const ratio = `${median.toFixed(2)}× ${measure} (${low.toFixed(2)}–${high.toFixed(2)})`;
    const target = row.target === undefined ? "—" : formatTarget(row.target);
    const met = row.met === undefined ? "" : row.met ? "yes" : "**no**";
    lines.push(
      `| ${escape(row.name)} | ${escape(row.baseline)} | ${ratio} | ${target} | ${met} |`,
    );
  }
  return lines;
}
