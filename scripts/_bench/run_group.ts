// Private to scripts/bench.ts, which runs this module once per benchmark group and pass, each in
// a fresh `deno run` process, so that no group inherits another's heap, garbage or type feedback:
//
//   deno run --v8-flags=--expose-gc <permissions> scripts/_bench/run_group.ts <GroupJob as JSON>
//
// It replaces `Deno.bench` with a recorder, imports the bench file (which registers its benchmarks
// as usual: `deno bench` still runs it unchanged), collects the garbage of the file's set-up, warms
// every benchmark of the group up, and measures them in interleaved rounds: each round times one
// batch of every benchmark, in an order rotated by one from round to round, and the rounds come in
// whole cycles (as many rounds as benchmarks), so that within a cycle each benchmark runs once at
// each position. Times are the process's CPU time, which the other processes on the shared cores
// do not inflate. It prints one line, `RESULT <json>` (a GroupResult), last.
import process from "node:process";
import { ScriptError } from "../_cli.ts";
import { batchSize, cyclesFor, shuffled } from "./stats.ts";

/** What scripts/bench.ts asks of one run. */
export interface GroupJob {
  /** The bench file, as a file URL. */
  readonly file: string;
  /**
   * Which group of the file, by its index in registration order; -1 lists the groups and every
   * benchmark of the file instead (with no times).
   */
  readonly group: number;
  /** Warm-up time of each benchmark before measuring, in milliseconds. */
  readonly warmupMs: number;
  /**
   * Measuring time per benchmark of the group, in milliseconds: a group of n benchmarks measures
   * for about n times this (at least `minGroupMs`), so that each benchmark gets about as many
   * cycles as in any group.
   */
  readonly budgetMs: number;
  /** Least measuring time of a group, in milliseconds. */
  readonly minGroupMs: number;
  /**
   * Cycles to measure: fewer (at least one) when batches of `minBatchMs`, or single iterations,
   * would overrun the budget.
   */
  readonly cycles: number;
  /** Shortest batch, in milliseconds (a batch is also at least `minIterations` iterations). */
  readonly minBatchMs: number;
  /**
   * Fewest iterations per batch. Single-iteration batches of a benchmark that allocates much (a 4
   * MiB parse) pay for the previous batch's garbage or not by chance: at 2 the ratios of the 4 MiB
   * extraction cases agreed within 3% across processes, at 1 they ranged over 0.53-1.20.
   */
  readonly minIterations: number;
  /**
   * Iterations per batch of each benchmark of the group, in registration order, when an earlier
   * run of the same group chose them: the same batches in every pass, so that garbage collections
   * fall at the same points of every pass's rounds. Left out, the warm-up estimates choose them.
   */
  readonly batches?: readonly number[] | undefined;
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
  /** Wall-clock milliseconds spent importing the file, warming up and measuring. */
  readonly wallMs?: { readonly setup: number; readonly warmup: number; readonly measure: number };
}

interface Registered {
  readonly name: string;
  readonly group: string;
  readonly baseline: boolean;
  readonly fn: () => unknown;
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
  });
}

/**
 * The process's CPU time (user and system, all threads, V8's garbage collection and compiler
 * threads included) in milliseconds: unlike the wall clock, it does not count the time other
 * processes hold the (shared) cores.
 */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
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
  const started = performance.now();
  const module: { BENCH_TARGETS?: Record<string, string> } = await import(job.file);
  const groups = [...new Set(registered.map((bench) => bench.group))];
  const targets = module.BENCH_TARGETS ?? {};
  if (job.group === -1) {
    const benches = registered.map(({ name, baseline }) => ({
      name,
      baseline,
      batch: 0,
      times: [],
    }));
    return { groups, group: "", benches, targets };
  }
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
  const setUp = performance.now();
  const isAsync = await Promise.all(benches.map(async (bench) => {
    const value = bench.fn();
    if (value instanceof Promise) {
      await value;
      return true;
    }
    return false;
  }));

  // A batch takes the group's budget spread over `cycles` cycles of n rounds of n batches.
  const n = benches.length;
  const budgetMs = Math.max(job.minGroupMs, job.budgetMs * n);
  const batchMs = Math.max(job.minBatchMs, budgetMs / (job.cycles * n * n));

  // Warm-up, interleaved like the rounds: batches doubling in size until one takes `batchMs`,
  // until each benchmark has run for `warmupMs` and the last three batches (or one, when a single
  // iteration fills a batch) estimate an iteration. The `n` and `warmup` options of `Deno.bench`
  // are for `deno bench` and ignored here.
  const estimates: number[][] = benches.map(() => []);
  const size = benches.map(() => 1);
  const warmed = benches.map(() => ({ ms: 0 }));
  const done = (index: number) => {
    const { ms } = warmed[index]!;
    const list = estimates[index]!;
    const settled = list.length >= 3 || (size[index] === 1 && list.at(-1)! >= batchMs);
    return ms >= job.warmupMs && settled;
  };
  while (!benches.every((_, index) => done(index))) {
    for (let index = 0; index < n; index++) {
      if (done(index)) continue;
      const count = size[index]!;
      const time = await timeBatch(benches[index]!.fn, count, isAsync[index]!);
      estimates[index]!.push(time);
      warmed[index]!.ms += time * count;
      if (time * count < batchMs) size[index] = count * 2;
    }
  }
  const warmedUp = performance.now();

  // Batch sizes relative to the baseline's (see batchSize), from the fastest of the last three
  // warm-up batches: a garbage collection in one of them made a benchmark as fast as its baseline
  // look 8 times slower, so that it got batches of 4 against the baseline's 32 in every pass.
  const perIteration = estimates.map((list) => Math.min(...list.slice(-3)));
  const base = benches.findIndex((bench) => bench.baseline);
  const baseBatch = batchSize(batchMs, perIteration[base]!);
  const batch = job.batches?.length === n
    ? [...job.batches]
    : perIteration.map((time) =>
      Math.max(job.minIterations, batchSize(baseBatch * perIteration[base]!, time, baseBatch))
    );
  const roundMs = batch.reduce((sum, count, index) => sum + count * perIteration[index]!, 0);
  const rounds = cyclesFor(roundMs * n, budgetMs, 1, job.cycles) * n;
  const times: number[][] = benches.map(() => []);
  for (let cycle = 0; cycle < rounds / n; cycle++) {
    for (const rotation of shuffled(n)) {
      for (let step = 0; step < n; step++) {
        const index = (rotation + step) % n;
        times[index]!.push(await timeBatch(benches[index]!.fn, batch[index]!, isAsync[index]!));
      }
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
    wallMs: {
      setup: Math.round(setUp - started),
      warmup: Math.round(warmedUp - setUp),
      measure: Math.round(performance.now() - warmedUp),
    },
  };
}

if (import.meta.main) {
  const job = JSON.parse(Deno.args[0] ?? "null") as GroupJob;
  const result = await runGroup(job);
  console.log(`RESULT ${JSON.stringify(result)}`);
  // Bench files may leave timers or workers behind; the result is out.
  Deno.exit(0);
}
