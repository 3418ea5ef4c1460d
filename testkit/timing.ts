// Complexity guards that hold on a loaded machine: a ratio of two timings taken in the same run,
// never an absolute time.

/**
 * The median of `runs` timings of `run`, in milliseconds.
 *
 * @param run The work to time.
 * @param runs How many timings to take.
 * @returns Their median.
 */
export function medianMs(run: () => unknown, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

/** How the time of some work may grow with the size of its input. */
export type Growth = "constant" | "linear";

/** The largest ratio of the time at `size` to the time at `size / 10` each growth allows. */
const BOUND: Readonly<Record<Growth, number>> = { constant: 4, linear: 40 };

/** Options of {@link assertTimeGrowth}. */
export interface TimeGrowthOptions {
  /** How the time may grow: at most 4 times for `constant`, 40 times for `linear`. */
  readonly growth?: Growth;
  /** The least the small timing counts for, so that timer resolution stays out of the ratio. */
  readonly floorMs?: number;
  /** What the failure message calls the work. */
  readonly label?: string;
}

/**
 * Asserts that `run` grows no faster than `growth` allows: the median time of `run` on
 * `input(size)` over the median time on `input(size / 10)`, both measured in this run. Ten times
 * the input takes about 10 times as long for linear work, 100 times for quadratic work, and the
 * same time for constant work; the bounds (40 and 4) leave room for noise and still catch the
 * next class up. Inputs are built before timing. Choose `size` so that the work at `size` takes
 * clearly more than `floorMs` (0.5 ms by default) when it is of the class refused.
 *
 * @throws {Error} When the ratio is over the bound.
 */
export function assertTimeGrowth<T>(
  input: (size: number) => T,
  run: (input: T) => unknown,
  size: number,
  options: TimeGrowthOptions = {},
): void {
  const { growth = "linear", floorMs = 0.5, label = "the work" } = options;
  const smallInput = input(Math.round(size / 10));
  const largeInput = input(size);
  run(smallInput); // warm-up: compile before timing
  const small = Math.max(medianMs(() => run(smallInput)), floorMs);
  const large = medianMs(() => run(largeInput));
  const bound = BOUND[growth];
  if (large > bound * small) {
    throw new Error(
      `${label} is not ${growth}: ${large.toFixed(2)} ms at size ${size} against ` +
        `${small.toFixed(2)} ms at size ${Math.round(size / 10)} (at most ${bound} times)`,
    );
  }
}
