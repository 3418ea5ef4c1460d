// A bench file for scripts/bench_test.ts: two groups, a target, and every form of Deno.bench.
export const BENCH_TARGETS: Record<string, string> = { "slower": "time <= 1.5x" };

let sink = 0;
const work = (size: number) => {
  for (let i = 0; i < size; i++) sink += i % 7;
};

Deno.bench("base", { group: "sync", baseline: true }, () => work(1_000));
Deno.bench({ name: "slower", group: "sync", fn: () => work(2_000) });
Deno.bench({ name: "ignored", group: "sync", ignore: true, fn: () => work(1) });
Deno.bench({ name: "async base", group: "async" }, async () => {
  await Promise.resolve(work(500));
});
Deno.bench(function asyncNamed() {
  return Promise.resolve(work(500));
});

globalThis.addEventListener("unload", () => {
  if (sink < 0) console.log(sink);
});
