import { rejects, strictEqual } from "node:assert/strict";
import { sleep } from "./_sleep.ts";
import { trackTimers } from "./testdata/track_timers.ts";

Deno.test("sleep() resolves after its timer and removes its abort listener", async () => {
  using timers = trackTimers();
  const signal = new AbortController().signal;
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners++;
    add(...args);
  }) as typeof add;
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listeners--;
    remove(...args);
  }) as typeof remove;
  const pending = sleep(0, signal);
  strictEqual(listeners, 1);
  strictEqual(await pending, undefined);
  strictEqual(listeners, 0);
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
