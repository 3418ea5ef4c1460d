// Private to scripts/bench.ts, which runs this module once per benchmark group, each in a fresh
// `deno run` process so that no group inherits another's heap, garbage or type feedback:
//
//   deno run --v8-flags=--expose-gc <permissions> scripts/_bench/run_group.ts <options as JSON>
//
// It replaces `Deno.bench` with a recorder, imports the bench file (which registers its benchmarks
// as usual, `deno bench` still runs it unchanged), and measures the benchmarks of one group in
// interleaved rounds: each round times one batch of every benchmark, in an order rotated from
// round to round, after a full garbage collection, so that garbage one benchmark leaves behind is
// never collected on another's clock. It prints one line, `RESULT <json>` (a GroupResult), last.
import process from "node:process";
import { ScriptError } from "../_cli.ts";
import { batchSize, median, roundsFor } from "./stats.ts";

/** What scripts/bench.ts asks of one run. */
export interface GroupJob {
  /** The bench file, as a file URL. */
  readonly file: string;
  /** Which group of the file, by its index in registration order; -1 lists the groups only. */
  readonly group: number;
  /**
   * Shortest batch of one benchmark, in milliseconds. Batches take the measuring budget spread
   * evenly over `maxRounds` rounds of every benchmark of the group, or this if that is less; a
   * batch is at least one iteration.
   */
  readonly minBatchMs: number;
  /** Warm-up time of each benchmark before measuring, in milliseconds. */
  readonly warmupMs: number;
  /** Time the rounds of the group should take, in milliseconds. */
  readonly budgetMs: number;
  /** Fewest rounds. */
  readonly minRounds: number;
  /** Most rounds. */
  readonly maxRounds: number;
}

/** One benchmark's measurements. */
export interface BenchTimes {
  /** The benchmark's name. */
  readonly name: string;
  /** Whether it is the group's baseline. */
  readonly baseline: boolean;
  /** Iterations per batch. */
  readonly batch: number;
  /** Time per iteration in each round, in milliseconds. */
  readonly times: readonly number[];
}

/** What one run prints. */
export interface GroupResult {
  /** Every group of the file, in registration order. */
  readonly groups: readonly string[];
  /** The group measured. */
  readonly group: string;
  /** Its benchmarks, in registration order. */
  readonly benches: readonly BenchTimes[];
  /** The file's `BENCH_TARGETS`: benchmark name → target. */
  readonly targets: Readonly<Record<string, string>>;
}

interface Registered {
  readonly name: string;
  readonly group: string;
  readonly baseline: boolean;
  readonly fn: () => unknown;
  readonly warmup: number;
}

type Definition = Partial<Deno.BenchDefinition>;

const registered: Registered[] = [];

/** Records a `Deno.bench` call in any of its forms: (definition), (name, fn), (name, opts, fn). */
function record(first: unknown, second?: unknown, third?: unknown): void {
  let definition: Definition;
  if (typeof first === "string") {
    definition = typeof second === "function"
      ? { name: first, fn: second as Deno.BenchDefinition["fn"] }
      : { ...(second as Definition), name: first, fn: third as Deno.BenchDefinition["fn"] };
  } else if (typeof first === "function") {
    definition = { name: first.name, fn: first as Deno.BenchDefinition["fn"] };
  } else {
    definition = typeof second === "function"
      ? { ...(first as Definition), fn: second as Deno.BenchDefinition["fn"] }
      : first as Definition;
  }
  const { name, fn } = definition;
  if (typeof name !== "string" || name === "" || typeof fn !== "function") {
    throw new ScriptError("Cannot record a benchmark without a name and a function");
  }
  if (fn.length > 0) {
    throw new ScriptError(
      `Cannot run "${name}": benchmarks using the BenchContext are unsupported`,
    );
  }
  if (definition.ignore === true) return;
  registered.push({
    name,
    group: definition.group ?? "",
    baseline: definition.baseline === true,
    fn: fn as () => unknown,
    warmup: definition.warmup ?? 0,
  });
}

/**
 * The process's CPU time (user and system, all threads, V8's garbage collection and compiler
 * threads included) in milliseconds: unlike the wall clock, it does not count the time other
 * processes hold the (shared) cores.
 */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (Deno.env.get("BENCH_CLOCK") === "user" ? user : user + system) / 1000;
}

/** Runs `fn` `count` times; the CPU time per iteration in milliseconds. */
async function timeBatch(fn: () => unknown, count: number, isAsync: boolean): Promise<number> {
  const start = cpuNow();
  if (isAsync) {
    for (let i = 0; i < count; i++) await fn();
  } else {
    for (let i = 0; i < count; i++) fn();
  }
  return (cpuNow() - start) / count;
}

/** Measures the group `job.group` of the file: the result to print. */
export async function runGroup(job: GroupJob): Promise<GroupResult> {
  (Deno as { bench: unknown }).bench = record;
  const module: { BENCH_TARGETS?: Record<string, string> } = await import(job.file);
  const groups = [...new Set(registered.map((bench) => bench.group))];
  const targets = module.BENCH_TARGETS ?? {};
  if (job.group === -1) return { groups, group: "", benches: [], targets };
  const group = groups[job.group];
  if (group === undefined) {
    throw new ScriptError(`Cannot find group ${job.group} of ${job.file}: it has ${groups.length}`);
  }
  const benches = registered.filter((bench) => bench.group === group);
  if (!benches.some((bench) => bench.baseline)) {
    benches[0] = { ...benches[0]!, baseline: true };
  }
  // The garbage of the file's set-up (all of its payloads were built), collected before any
  // measurement rather than during the first one. Only here: a full collection before every batch
  // made the SSE benchmarks 2-5 times slower (it discards what the next batch needs warm).
  (globalThis as { gc?: () => void }).gc?.();
  const isAsync = await Promise.all(benches.map(async (bench) => {
    const value = bench.fn();
    if (value instanceof Promise) {
      await value;
      return true;
    }
    return false;
  }));

  // Warm-up, interleaved like the rounds: batches doubling in size until each takes a batch's
  // time, until every benchmark has run for `warmupMs` and its own requested warm-up iterations.
  const batchMs = Math.max(job.minBatchMs, job.budgetMs / (job.maxRounds * benches.length));
  const estimates: number[][] = benches.map(() => []);
  const size = benches.map(() => 1);
  const warmed = benches.map(() => ({ ms: 0, iterations: 0 }));
  const done = (index: number) =>
    warmed[index]!.ms >= job.warmupMs && warmed[index]!.iterations >= benches[index]!.warmup &&
    estimates[index]!.length >= 3;
  while (!benches.every((_, index) => done(index))) {
    for (let index = 0; index < benches.length; index++) {
      if (done(index)) continue;
      const count = size[index]!;
      const time = await timeBatch(benches[index]!.fn, count, isAsync[index]!);
      estimates[index]!.push(time);
      warmed[index]!.ms += time * count;
      warmed[index]!.iterations += count;
      if (time * count < batchMs) size[index] = count * 2;
    }
  }

  const perIteration = estimates.map((list) => median(list.slice(-3)));
  const batch = perIteration.map((time) => batchSize(batchMs, time));
  const roundMs = batch.reduce((sum, count, index) => sum + count * perIteration[index]!, 0);
  const rounds = roundsFor(roundMs, job.budgetMs, job.minRounds, job.maxRounds);
  const times: number[][] = benches.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < benches.length; step++) {
      const index = (round + step) % benches.length;
      times[index]!.push(await timeBatch(benches[index]!.fn, batch[index]!, isAsync[index]!));
    }
  }
  return {
    groups,
    group,
    benches: benches.map((bench, index) => ({
      name: bench.name,
      baseline: bench.baseline,
      batch: batch[index]!,
      times: times[index]!,
    })),
    targets,
  };
}

if (import.meta.main) {
  const job = JSON.parse(Deno.args[0] ?? "null") as GroupJob;
  const result = await runGroup(job);
  console.log(`RESULT ${JSON.stringify(result)}`);
  // Bench files may leave timers or workers behind; the result is out.
  Deno.exit(0);
}
