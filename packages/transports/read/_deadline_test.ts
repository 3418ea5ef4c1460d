import { ok, strictEqual } from "node:assert/strict";
import { streamOf, within } from "../_test_utils.ts";
import { DeadlineExceededError } from "../errors.ts";
import { Deadline } from "./_deadline.ts";
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
