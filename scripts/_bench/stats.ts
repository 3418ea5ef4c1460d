// The pure part of `deno task bench` (scripts/bench.ts): targets, per-round ratios, medians and
// the lines printed. No I/O here; scripts/bench_test.ts tests all of it.
import { ScriptError } from "../_cli.ts";

/**
 * What a target bounds: the candidate's time per iteration over the baseline's (at most the
 * bound), or its throughput over the baseline's, the inverse ratio (at least the bound).
 */
export type TargetMeasure = "time" | "throughput";

/** A parsed target, such as `time <= 1.10x` or `throughput >= 0.9x`. */
export interface Target {
  /** What the ratio compares. */
  readonly measure: TargetMeasure;
  /** The bound on the ratio: an upper bound for time, a lower bound for throughput. */
  readonly bound: number;
}

const TARGET = /^(time|throughput)\s*(<=|≤|>=|≥)\s*(\d+(?:\.\d+)?)\s*[x×]$/;

/**
 * Parses a target as the bench files write it: `time <= 1.10x` (the candidate takes at most 1.10
 * times the baseline's time) or `throughput >= 0.9x` (it processes at least 0.9 times as much per
 * second). `≤`, `≥` and `×` may stand for `<=`, `>=` and `x`.
 *
 * @param text The target as written.
 * @returns The target.
 * @throws {ScriptError} When `text` is not of that form, compares time with `>=` or throughput
 * with `<=`, or has a bound that is not positive.
 */
export function parseTarget(text: string): Target {
  const match = TARGET.exec(text.trim());
  if (match === null) {
    throw new ScriptError(
      `Cannot parse the target "${text}": expected "time <= <ratio>x" or ` +
        `"throughput >= <ratio>x"`,
    );
  }
  const measure = match[1] as TargetMeasure;
  const atMost = match[2] === "<=" || match[2] === "≤";
  if (atMost !== (measure === "time")) {
    throw new ScriptError(
      `Cannot parse the target "${text}": a time is bounded from above (<=), a throughput from ` +
        `below (>=)`,
    );
  }
  const bound = Number(match[3]);
  if (!(bound > 0)) {
    throw new ScriptError(`Cannot parse the target "${text}": expected a positive ratio`);
  }
  return { measure, bound };
}

/**
 * The median of `values`: the middle value, or the mean of the two middle values.
 *
 * @param values At least one number.
 * @returns The median.
 * @throws {RangeError} When `values` is empty.
 */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/**
 * The `q`-quantile of `values`, linearly interpolated between the closest ranks (the definition
 * of R's default and NumPy's `linear`).
 *
 * @param values At least one number.
 * @param q Between 0 and 1.
 * @returns The quantile.
 * @throws {RangeError} When `values` is empty or `q` is outside [0, 1].
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError("Cannot take a quantile of no values");
  if (!(q >= 0 && q <= 1)) throw new RangeError(`Expected a quantile in [0, 1], found ${q}`);
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/**
 * The ratio of one round in a target's terms: candidate time over baseline time for `time`,
 * baseline time over candidate time (relative throughput) for `throughput`.
 *
 * @param candidate The candidate's time per iteration in the round.
 * @param baseline The baseline's time per iteration in the same round.
 * @param measure What the ratio compares.
 * @returns The ratio.
 * @throws {RangeError} When a time is not positive and finite.
 */
export function ratio(candidate: number, baseline: number, measure: TargetMeasure): number {
  for (const time of [candidate, baseline]) {
    if (!(time > 0 && Number.isFinite(time))) {
      throw new RangeError(`Expected a positive finite time, found ${time}`);
    }
  }
  return measure === "time" ? candidate / baseline : baseline / candidate;
}

/** A summary of the per-round ratios of one candidate. */
export interface RatioSummary {
  /** The median of the per-round ratios: the figure reported and held to the target. */
  readonly median: number;
  /** The first quartile of the per-round ratios. */
  readonly low: number;
  /** The third quartile of the per-round ratios. */
  readonly high: number;
  /** How many rounds. */
  readonly rounds: number;
}

/**
 * Pairs the candidate's and the baseline's times round by round and summarizes the ratios.
 *
 * @param candidate The candidate's time per iteration, one per round.
 * @param baseline The baseline's time per iteration, one per round, in the same order.
 * @param measure What the ratios compare.
 * @returns The median and quartiles of the per-round ratios.
 * @throws {RangeError} When the rounds differ in number or there are none.
 */
export function summarizeRounds(
  candidate: readonly number[],
  baseline: readonly number[],
  measure: TargetMeasure,
): RatioSummary {
  if (candidate.length !== baseline.length || candidate.length === 0) {
    throw new RangeError(
      `Expected as many candidate as baseline rounds, at least one, found ${candidate.length} ` +
        `and ${baseline.length}`,
    );
  }
  const ratios = candidate.map((time, index) => ratio(time, baseline[index]!, measure));
  return {
    median: median(ratios),
    low: quantile(ratios, 0.25),
    high: quantile(ratios, 0.75),
    rounds: ratios.length,
  };
}

/**
 * Whether `value`, a ratio in the target's terms, meets it: at most the bound for time, at least
 * the bound for throughput.
 *
 * @param value The measured ratio.
 * @param target The target.
 * @returns `true` when the target is met.
 */
export function meets(value: number, target: Target): boolean {
  return target.measure === "time" ? value <= target.bound : value >= target.bound;
}

/**
 * The target as printed: `≤ 1.10× time`, `≥ 0.90× throughput`.
 *
 * @param target The target.
 * @returns One short phrase.
 */
export function formatTarget(target: Target): string {
  return `${target.measure === "time" ? "≤" : "≥"} ${target.bound.toFixed(2)}× ${target.measure}`;
}

/**
 * The relative spread of a set of measurements of one ratio: (largest − smallest) / smallest.
 *
 * @param values At least one positive ratio.
 * @returns The spread, 0 for a single value.
 * @throws {RangeError} When `values` is empty.
 */
export function spread(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("Cannot take the spread of no values");
  return Math.max(...values) / Math.min(...values) - 1;
}

/**
 * How many rounds a group runs: as many as fit in `budgetMs` at `roundMs` each, within
 * [`min`, `max`], and odd, so that the median is one measured round.
 *
 * @param roundMs The estimated time of one round (every contender's batch).
 * @param budgetMs The time the group may take.
 * @param min The fewest rounds.
 * @param max The most rounds.
 * @returns The number of rounds.
 */
export function roundsFor(roundMs: number, budgetMs: number, min: number, max: number): number {
  const fit = roundMs > 0 ? Math.floor(budgetMs / roundMs) : max;
  const rounds = Math.max(min, Math.min(max, fit));
  return rounds % 2 === 1 ? rounds : rounds - 1 >= min ? rounds - 1 : rounds + 1;
}

/**
 * Iterations per batch: the power of two nearest (in ratio) to `batchMs / perIterationMs`, at
 * least 1. Powers of two keep the batch size of a benchmark the same from run to run despite
 * noise in the estimate, and so the garbage collections per batch.
 *
 * @param batchMs The time a batch should take.
 * @param perIterationMs The estimated time of one iteration.
 * @returns The number of iterations.
 */
export function batchSize(batchMs: number, perIterationMs: number): number {
  if (!(perIterationMs > 0) || !Number.isFinite(perIterationMs)) return 1;
  const exact = batchMs / perIterationMs;
  return exact <= 1 ? 1 : 2 ** Math.round(Math.log2(exact));
}
