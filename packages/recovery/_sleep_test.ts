import { rejects, strictEqual } from "node:assert/strict";
import { sleep } from "./_sleep.ts";
import { countListeners, trackTimers } from "./testdata/track_timers.ts";

Deno.test("sleep() resolves after its timer and removes its abort listener", async () => {
  using timers = trackTimers();
  const signal = new AbortController().signal;
  const listeners = countListeners(signal);
  const pending = sleep(0, signal);
  strictEqual(listeners.count, 1);
  strictEqual(await pending, undefined);
  strictEqual(listeners.count, 0);
  strictEqual(timers.pending, 0);
});

Deno.test("sleep() rejects at once with the reason of an already aborted signal", async () => {
  const reason = new Error("already");
  await rejects(sleep(60_000, AbortSignal.abort(reason)), (e: unknown) => e === reason);
});

Deno.test("sleep() rejects on abort and clears its timer", async () => {
  using timers = trackTimers();
  const controller = new AbortController();
  const pending = sleep(60_000, controller.signal);
  strictEqual(timers.pending, 1);
  controller.abort("stop");
  await rejects(pending, (e: unknown) => e === "stop");
  strictEqual(timers.pending, 0);
});
