import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { streamOf, within } from "../_test_utils.ts";
import { DeadlineExceededError } from "../errors.ts";
import { AlarmClock, Deadline } from "./_deadline.ts";
import { readTextResponse } from "./read_response.ts";

/** Spins for `ms` milliseconds without yielding: the deadline's timer cannot fire meanwhile. */
function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* spin */ }
}

Deno.test("Deadline.checkClock() expires a deadline whose timer has not fired yet", () => {
  const deadline = new Deadline(20, undefined);
  let fired = 0;
  deadline.onExpire(() => fired++);
  try {
    strictEqual(deadline.checkClock(), false);
    busyWait(30);
    strictEqual(deadline.expired, false); // the timer is still waiting for the event loop
    strictEqual(deadline.checkClock(), true);
    strictEqual(fired, 1);
    const error = deadline.error;
    ok(error instanceof DeadlineExceededError);
    strictEqual(error.timeoutMs, 20);
    ok(error.elapsedMs >= 20);
    strictEqual(deadline.checkClock(), true);
    strictEqual(deadline.error, error);
    strictEqual(fired, 1);
  } finally {
    deadline.dispose();
  }
});

Deno.test("Deadline.checkClock() leaves a disposed deadline alone", () => {
  const deadline = new Deadline(10, undefined);
  deadline.dispose();
  busyWait(15);
  strictEqual(deadline.checkClock(), false);
  strictEqual(deadline.expired, false);
});

Deno.test("Deadline.checkClock() reports a deadline the caller's signal ended", () => {
  const controller = new AbortController();
  const deadline = new Deadline(60_000, controller.signal);
  try {
    const reason = new Error("caller gave up");
    controller.abort(reason);
    strictEqual(deadline.checkClock(), true);
    strictEqual(deadline.error, reason);
  } finally {
    deadline.dispose();
  }
});

Deno.test(
  "a bounded read fails at the deadline " +
    "while buffered chunks arrive back to back",
  async () => {
    // 128 chunks of 32 KiB, all available at once: no read waits for a macrotask, so the timer
    // cannot fire before the body ends. Each chunk takes 10 ms more here (a slow consumer or
    // machine): the per-chunk clock check fails the read after about 20 chunks, not after all 128
    // (1.3 s).
    const { stream, state } = streamOf(
      Array.from({ length: 128 }, () => new Uint8Array(32_768).fill(0x61)),
    );
    const start = performance.now();
    const error = await within(
      5_000,
      readTextResponse(new Response(stream), {
        timeoutMs: 200,
        onProgress: () => busyWait(10),
      }).then(() => undefined, (reason: unknown) => reason),
    );
    const elapsed = performance.now() - start;
    ok(error instanceof DeadlineExceededError, String(error));
    strictEqual(error.timeoutMs, 200);
    ok(elapsed < 1_000, `failed after ${elapsed} ms`);
    ok(state.pulled < 64, `read ${state.pulled} chunks`);
    strictEqual(state.cancelled, true);
  },
);

Deno.test("AlarmClock rings alarms in the order they are due, not in the order set", async () => {
  const clock = new AlarmClock();
  const rung: number[] = [];
  const start = performance.now();
  const delays = [40, 5, 25, 5, 60, 15, 0, 35];
  const alarms = delays.map((delay, index) => clock.add(start + delay, () => rung.push(index)));
  clock.remove(alarms[2]!); // taken back: never rings
  clock.remove(alarms[2]!); // a second time: a no-op
  strictEqual(clock.size, 7);
  await within(2_000, new Promise((resolve) => setTimeout(resolve, 90)));
  strictEqual(clock.size, 0);
  // In the order of their delays (the two of 5 ms in either order); index 2 missing.
  deepStrictEqual(rung.map((index) => delays[index]), [0, 5, 5, 15, 35, 40, 60]);
  deepStrictEqual([...rung].sort(), [0, 1, 3, 4, 5, 6, 7]);
});

Deno.test("AlarmClock keeps ringing the other alarms when one throws", async () => {
  const clock = new AlarmClock();
  const rung: string[] = [];
  const now = performance.now();
  clock.add(now + 5, () => rung.push("first"));
  clock.add(now + 5, () => {
    rung.push("thrower");
    throw new Error("listener failed");
  });
  clock.add(now + 5, () => rung.push("third"));
  clock.add(now + 30, () => rung.push("later"));
  const uncaught = new Promise<unknown>((resolve) => {
    const onError = (event: ErrorEvent) => {
      event.preventDefault();
      globalThis.removeEventListener("error", onError);
      resolve(event.error);
    };
    globalThis.addEventListener("error", onError);
  });
  const error = await within(2_000, uncaught);
  ok(error instanceof Error && error.message === "listener failed");
  await within(2_000, new Promise((resolve) => setTimeout(resolve, 50)));
  deepStrictEqual(rung, ["first", "thrower", "third", "later"]);
});

Deno.test("Deadline: 1,000 deadlines of random timeouts fire once, none early", async () => {
  const deadlines: { deadline: Deadline; end: number; firedAt?: number }[] = [];
  const random = mulberry32(7);
  for (let index = 0; index < 1_000; index++) {
    const timeoutMs = 1 + Math.floor(random() * 60);
    // The clock is read before the deadline starts, so that `end` is never after its true end (a
    // pause between the two reads would otherwise look like a deadline firing early).
    const before = performance.now();
    const deadline = new Deadline(timeoutMs, undefined);
    const entry: { deadline: Deadline; end: number; firedAt?: number } = {
      deadline,
      end: before + timeoutMs,
    };
    deadline.onExpire(() => {
      ok(entry.firedAt === undefined, "fired twice");
      entry.firedAt = performance.now();
    });
    deadlines.push(entry);
  }
  // A third are disposed before they end: they never fire.
  for (let index = 0; index < deadlines.length; index += 3) deadlines[index]!.deadline.dispose();
  // Every live deadline ends within 61 ms; a loaded machine may run the timers late, so wait until
  // each has fired (or 5 s have passed), then wait as long again for a disposed one to misfire.
  const live = deadlines.filter((_, index) => index % 3 !== 0);
  const started = performance.now();
  while (live.some((entry) => entry.firedAt === undefined) && performance.now() - started < 5_000) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await within(5_000, new Promise((resolve) => setTimeout(resolve, 70)));
  for (const [index, entry] of deadlines.entries()) {
    if (index % 3 === 0) {
      strictEqual(entry.firedAt, undefined);
      strictEqual(entry.deadline.expired, false);
    } else {
      ok(entry.firedAt !== undefined, `deadline ${index} never fired`);
      // A timer may fire up to a millisecond before performance.now() reaches its end.
      ok(entry.firedAt >= entry.end - 1, `deadline ${index} fired early`);
      ok(entry.deadline.error instanceof DeadlineExceededError);
    }
    entry.deadline.dispose();
  }
});

Deno.test("Deadline: a disposed deadline keeps no process alive", async () => {
  // The clock's one timer stays set for the next deadline, unref'd: a process whose last deadline
  // was disposed exits at once, not when the 60 s timeout would have ended.
  const code = [
    `import { Deadline } from ${JSON.stringify(new URL("./_deadline.ts", import.meta.url).href)};`,
    "new Deadline(60_000, undefined).dispose();",
    "const kept = new Deadline(60_000, undefined);",
    "new Deadline(50, undefined).onExpire(() => { kept.dispose(); console.log('expired'); });",
  ].join("\n");
  const start = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-lock", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - start;
  strictEqual(new TextDecoder().decode(output.stderr), "");
  strictEqual(new TextDecoder().decode(output.stdout), "expired\n");
  strictEqual(output.code, 0);
  ok(elapsed < 30_000, `the process ran ${elapsed} ms`);
});

/** A small seeded generator, so that a failure can be replayed. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
