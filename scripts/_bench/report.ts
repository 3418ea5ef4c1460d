// What `deno task bench` prints: one row per benchmark (its ratio to the group's baseline, its
// target, whether it was met) and the closing count. Pure; scripts/bench_test.ts tests it.
import type { GroupResult } from "./run_group.ts";
import {
  formatTarget,
  meets,
  parseTarget,
  type RatioSummary,
  summarizeRounds,
  type Target,
} from "./stats.ts";

/** One benchmark compared with its group's baseline. */
export interface Row {
  /** The benchmark's name. */
  readonly name: string;
  /** The baseline's name. */
  readonly baseline: string;
  /** The per-round ratios, in the target's terms (time when there is no target). */
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
    const summary = summarizeRounds(bench.times, baseline.times, target?.measure ?? "time");
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
 * The heading of a group: where it is, its baseline and how many rounds were measured.
 *
 * @param file The bench file, relative to the repository root.
 * @param result What the group's run printed.
 * @returns One line.
 */
export function formatGroupHeading(file: string, result: GroupResult): string {
  const baseline = result.benches.find((bench) => bench.baseline);
  const rounds = baseline?.times.length ?? 0;
  const group = result.group === "" ? "(no group)" : result.group;
  return `${file} › ${group}: against ${baseline?.name ?? "nothing"}, ${rounds} rounds`;
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
