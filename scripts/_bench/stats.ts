// The pure part of `deno task bench` (scripts/bench.ts): targets, ratios, medians and batch sizes.
// No I/O here; scripts/bench_test.ts tests all of it.
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

/**
 * The ratio of each cycle of rounds: in a cycle, as many rounds as the group has benchmarks, each
 * benchmark ran once at each position of the round order, so what one batch leaves behind for
 * the next (garbage to collect, colder caches) weighs on the candidate and the baseline alike. A
 * cycle's ratio is that of the candidate's and the baseline's times summed over the cycle; rounds
 * past the last whole cycle are left out.
 *
 * @param candidate The candidate's time per iteration, one per round.
 * @param baseline The baseline's time per iteration, one per round, in the same order.
 * @param cycle Rounds per cycle: the number of benchmarks of the group.
 * @param measure What the ratios compare.
 * @returns One ratio per whole cycle.
 * @throws {RangeError} When the rounds differ in number, there is no whole cycle, or a time is
 * not positive and finite.
 */
export function cycleRatios(
  candidate: readonly number[],
  baseline: readonly number[],
  cycle: number,
  measure: TargetMeasure,
): number[] {
  if (!Number.isSafeInteger(cycle) || cycle < 1) {
    throw new RangeError(`Expected a positive integer cycle, found ${cycle}`);
  }
  if (candidate.length !== baseline.length || candidate.length < cycle) {
    throw new RangeError(
      `Expected as many candidate as baseline rounds, at least one cycle of ${cycle}, found ` +
        `${candidate.length} and ${baseline.length}`,
    );
  }
  const out: number[] = [];
  for (let start = 0; start + cycle <= candidate.length; start += cycle) {
    let sumCandidate = 0;
    let sumBaseline = 0;
    for (let index = start; index < start + cycle; index++) {
      sumCandidate += candidate[index]!;
      sumBaseline += baseline[index]!;
    }
    out.push(ratio(sumCandidate, sumBaseline, measure));
  }
  return out;
}

/** A summary of the per-cycle ratios of one candidate. */
export interface RatioSummary {
  /** The median of the per-cycle ratios: the figure reported and held to the target. */
  readonly median: number;
  /** The first quartile of the per-cycle ratios. */
  readonly low: number;
  /** The third quartile of the per-cycle ratios. */
  readonly high: number;
  /** How many cycles. */
  readonly cycles: number;
}

/**
 * The median and quartiles of `ratios`.
 *
 * @param ratios At least one ratio (one per cycle).
 * @returns The summary.
 * @throws {RangeError} When `ratios` is empty.
 */
export function summarize(ratios: readonly number[]): RatioSummary {
  return {
    median: median(ratios),
    low: quantile(ratios, 0.25),
    high: quantile(ratios, 0.75),
    cycles: ratios.length,
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
 * How many cycles of rounds a group runs: as many as fit in `budgetMs` at `cycleMs` each, within
 * [`min`, `max`].
 *
 * @param cycleMs The estimated time of one cycle.
 * @param budgetMs The time the group should take.
 * @param min The fewest cycles.
 * @param max The most cycles.
 * @returns The number of cycles.
 */
export function cyclesFor(cycleMs: number, budgetMs: number, min: number, max: number): number {
  const fit = cycleMs > 0 ? Math.floor(budgetMs / cycleMs) : max;
  return Math.max(min, Math.min(max, fit));
}

/**
 * Iterations per batch: `batchMs / perIterationMs` as a power of two times `unit`, at least 1.
 * The power is that of the nearest power of two, except that a ratio within a factor of 2 of
 * `unit` gives `unit` itself: with `unit` the baseline's batch and `batchMs` that batch's time,
 * every benchmark within a factor of 2 of the baseline's speed runs as many iterations per batch
 * as the baseline (and so leaves about as much garbage per batch), whatever the noise in the
 * estimates; and powers of two keep a benchmark's batch the same from run to run.
 *
 * @param batchMs The time a batch should take.
 * @param perIterationMs The estimated time of one iteration.
 * @param unit The batch that the powers of two multiply or divide.
 * @returns The number of iterations.
 */
export function batchSize(batchMs: number, perIterationMs: number, unit = 1): number {
  if (!(perIterationMs > 0) || !Number.isFinite(perIterationMs)) return 1;
  const power = Math.log2(batchMs / perIterationMs / unit);
  const exponent = Math.abs(power) < 1 ? 0 : Math.round(power);
  return Math.max(1, Math.round(unit * 2 ** exponent));
}

/**
 * 0 to n − 1 in a random order (Fisher-Yates): the order of a cycle's rotations. A fixed order
 * makes the schedule periodic, and a garbage collector whose period matches it (every fourth 4
 * MiB parse, say, against cycles of four batches) then lands on the same benchmark every time:
 * with single-iteration batches, the 4 MiB extraction read 1.35-1.85x JSON.parse that way, and
 * 1.02x once the order was random.
 *
 * @param n How many numbers.
 * @param random A source of numbers in [0, 1).
 * @returns A permutation of 0 to n − 1.
 */
export function shuffled(n: number, random: () => number = Math.random): number[] {
  const out = Array.from({ length: n }, (_, index) => index);
  for (let index = n - 1; index > 0; index--) {
    const other = Math.min(index, Math.floor(random() * (index + 1)));
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  return out;
}
