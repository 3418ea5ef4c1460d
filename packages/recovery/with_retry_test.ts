import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { RetryBudgetExhaustedError } from "./errors.ts";
import { countListeners, trackTimers } from "./testdata/track_timers.ts";
import type { RetryPolicyOptions } from "./retry_policy.ts";
import { type RetryEvent, withRetry } from "./with_retry.ts";

/** A fake clock whose sleep advances time at once and records each wait in milliseconds. */
function fakeClock(extra: RetryPolicyOptions = {}) {
  const state = { now: 0, waits: [] as number[] };
  const policy: RetryPolicyOptions = {
    random: () => 0.5,
    now: () => state.now,
    sleep: (ms: number, signal: AbortSignal) => {
      signal.throwIfAborted();
      state.waits.push(ms);
      state.now += ms;
      return Promise.resolve();
    },
    ...extra,
  };
  return { state, policy };
}

/** A thrown value carrying an AdCP error the default way. */
function failure(adcpError: Record<string, unknown>): Error & { adcpError: unknown } {
  return Object.assign(new Error(`AdCP error ${String(adcpError.code)}`), { adcpError });
}

const RATE_LIMITED = { code: "RATE_LIMITED", recovery: "transient", retry_after: 5 };
const UNAVAILABLE = { code: "SERVICE_UNAVAILABLE", recovery: "transient" };

Deno.test("withRetry() returns the first success without waiting", async () => {
  const { state, policy } = fakeClock();
  const events: RetryEvent[] = [];
  strictEqual(
    await withRetry(() => Promise.resolve(7), { policy, onDecision: (e) => events.push(e) }),
    7,
  );
  deepStrictEqual(state.waits, []);
  strictEqual(events.length, 0);
});

Deno.test(
  "withRetry() succeeds after transient failures, waiting retry_after then backoff",
  async () => {
    const { state, policy } = fakeClock();
    const attempts: number[] = [];
    const result = await withRetry((attempt) => {
      attempts.push(attempt);
      if (attempt === 1) return Promise.reject(failure(RATE_LIMITED));
      if (attempt === 2) return Promise.reject(failure(UNAVAILABLE)); // backoff, attempt 2 → 4 s
      return Promise.resolve("ok");
    }, { policy });
    strictEqual(result, "ok");
    deepStrictEqual(attempts, [1, 2, 3]);
    deepStrictEqual(state.waits, [5000, 4000]);
  },
);

Deno.test("withRetry() passes the signal to every attempt", async () => {
  const { policy } = fakeClock();
  const controller = new AbortController();
  const seen: AbortSignal[] = [];
  await withRetry((attempt, signal) => {
    seen.push(signal);
    return attempt < 2 ? Promise.reject(failure(RATE_LIMITED)) : Promise.resolve();
  }, { policy, signal: controller.signal });
  deepStrictEqual(seen, [controller.signal, controller.signal]);
  // Without a signal, attempts still get one, never aborted.
  await withRetry((_attempt, signal) => {
    ok(signal instanceof AbortSignal);
    strictEqual(signal.aborted, false);
    return Promise.resolve();
  });
});

Deno.test("withRetry() stops after maxRetries retries with RetryBudgetExhaustedError", async () => {
  const { state, policy } = fakeClock();
  const thrown: unknown[] = [];
  const events: RetryEvent[] = [];
  const error = await withRetry(() => {
    const f = failure({ code: "RATE_LIMITED", recovery: "transient", retry_after: 1 });
    thrown.push(f);
    return Promise.reject(f);
  }, { policy, onDecision: (e) => events.push(e) }).then(
    () => ok(false, "expected a rejection"),
    (e: unknown) => e,
  );
  ok(error instanceof RetryBudgetExhaustedError);
  strictEqual(error.code, "RETRY_BUDGET_EXHAUSTED");
  strictEqual(error.name, "RetryBudgetExhaustedError");
  strictEqual(error.limit, "max_retries");
  strictEqual(error.attempts, 4);
  strictEqual(error.elapsedSeconds, 3);
  strictEqual(error.cause, thrown[3]);
  strictEqual(error.adcpError.code, "RATE_LIMITED");
  strictEqual(
    error.message,
    "Retry budget exhausted: expected at most 3 retries, observed attempt 4 failing with a " +
      "transient error",
  );
  strictEqual(thrown.length, 4);
  deepStrictEqual(state.waits, [1000, 1000, 1000]);
  deepStrictEqual(events.map((e) => [e.attempt, e.elapsedSeconds, e.decision.action]), [
    [1, 0, "retry"],
    [2, 1, "retry"],
    [3, 2, "retry"],
    [4, 3, "escalate_to_human"],
  ]);
  deepStrictEqual(events[3]!.decision, error.decision);
});

Deno.test("withRetry() never waits past maxElapsedSeconds", async () => {
  const { state, policy } = fakeClock();
  const error = await withRetry(
    () =>
      Promise.reject(failure({ code: "RATE_LIMITED", recovery: "transient", retry_after: 120 })),
    { policy },
  ).then(() => undefined, (e: unknown) => e);
  ok(error instanceof RetryBudgetExhaustedError);
  strictEqual(error.limit, "max_elapsed_seconds");
  strictEqual(error.attempts, 3);
  strictEqual(error.elapsedSeconds, 240);
  deepStrictEqual(state.waits, [120_000, 120_000]); // a third wait would end at 360 s
  ok(state.now <= 300_000);
  strictEqual(
    error.message,
    "Retry budget exhausted: expected the next wait to end within 300 s, observed 240 s elapsed " +
      "plus a 120 s retry_after delay",
  );
});

Deno.test("withRetry() counts the attempts' own duration in the time budget", async () => {
  const { state, policy } = fakeClock();
  const error = await withRetry(() => {
    state.now += 200_000; // each attempt takes 200 s
    return Promise.reject(failure(RATE_LIMITED));
  }, { policy }).then(() => undefined, (e: unknown) => e);
  ok(error instanceof RetryBudgetExhaustedError);
  strictEqual(error.attempts, 2); // 200 + 5 fits, 405 + 5 does not
  deepStrictEqual(state.waits, [5000]);
});

Deno.test("withRetry() never retries a correctable error and rethrows it unchanged", async () => {
  const { state, policy } = fakeClock();
  const f = failure({ code: "BUDGET_TOO_LOW", field: "budget.total", suggestion: "raise it" });
  const events: RetryEvent[] = [];
  let calls = 0;
  await rejects(
    withRetry(() => {
      calls++;
      return Promise.reject(f);
    }, { policy, onDecision: (e) => events.push(e) }),
    (e: unknown) => e === f,
  );
  strictEqual(calls, 1);
  deepStrictEqual(state.waits, []);
  deepStrictEqual(events, [{
    attempt: 1,
    elapsedSeconds: 0,
    decision: {
      action: "surface_to_caller",
      field: "budget.total",
      suggestion: "raise it",
    },
    error: f.adcpError,
    thrown: f,
  }]);
});

Deno.test("withRetry() never retries a terminal error and rethrows it unchanged", async () => {
  const { policy } = fakeClock();
  const f = failure({ code: "ACCOUNT_SUSPENDED", recovery: "terminal", retry_after: 1 });
  let calls = 0;
  await rejects(
    withRetry(() => {
      calls++;
      return Promise.reject(f);
    }, { policy }),
    (e: unknown) => e === f,
  );
  strictEqual(calls, 1);
});

Deno.test(
  "withRetry() rethrows a failure without an AdCP error at once (generic_error)",
  async () => {
    const { policy } = fakeClock();
    for (
      const thrown of [
        new TypeError("network down"),
        "text",
        null,
        undefined,
        Object.assign(new Error("x"), { adcpError: { code: "" } }),
        Object.assign(new Error("x"), { adcpError: null }),
      ]
    ) {
      const events: RetryEvent[] = [];
      let calls = 0;
      await rejects(
        withRetry(() => {
          calls++;
          return Promise.reject(thrown);
        }, { policy, onDecision: (e) => events.push(e) }),
        (e: unknown) => e === thrown,
      );
      strictEqual(calls, 1);
      deepStrictEqual(events.map((e) => [e.decision, e.error]), [[
        { action: "generic_error" },
        null,
      ]]);
    }
  },
);

Deno.test(
  "withRetry() rethrows at once an error over 4096 bytes of JSON, as core's " +
    "validateAdcpError discards it",
  async () => {
    // Transport Error Mapping, "Client Library Requirements" 3: oversized errors are no structured
    // error, so a transient code cannot buy retries with a 4 KiB payload.
    const { state, policy } = fakeClock();
    const big = { ...RATE_LIMITED, message: "\u20ac".repeat(1400) }; // over 4,200 UTF-8 bytes
    for (const extractError of [undefined, () => big]) {
      const thrown = failure(big);
      const events: RetryEvent[] = [];
      let calls = 0;
      await rejects(
        withRetry(() => {
          calls++;
          return Promise.reject(thrown);
        }, {
          policy,
          onDecision: (e) => events.push(e),
          ...(extractError ? { extractError } : {}),
        }),
        (e: unknown) => e === thrown,
      );
      strictEqual(calls, 1);
      deepStrictEqual(events.map((e) => [e.decision, e.error]), [[
        { action: "generic_error" },
        null,
      ]]);
    }
    deepStrictEqual(state.waits, []);
  },
);

Deno.test("withRetry() treats a synchronous throw like a rejection", async () => {
  const { state, policy } = fakeClock();
  let calls = 0;
  const result = await withRetry(() => {
    calls++;
    if (calls === 1) throw failure(RATE_LIMITED);
    return Promise.resolve("ok");
  }, { policy });
  strictEqual(result, "ok");
  deepStrictEqual(state.waits, [5000]);
});

Deno.test("withRetry() uses extractError instead of the adcpError property", async () => {
  const { state, policy } = fakeClock();
  const seen: unknown[] = [];
  const result = await withRetry(
    (attempt) => attempt === 1 ? Promise.reject({ body: RATE_LIMITED }) : Promise.resolve(attempt),
    {
      policy,
      extractError: (thrown) => {
        seen.push(thrown);
        return (thrown as { body: typeof RATE_LIMITED }).body;
      },
    },
  );
  strictEqual(result, 2);
  deepStrictEqual(seen, [{ body: RATE_LIMITED }]);
  deepStrictEqual(state.waits, [5000]);
  // An extractError result that is not a structured error counts as none.
  const f = failure(RATE_LIMITED);
  await rejects(
    withRetry(() => Promise.reject(f), { policy, extractError: () => ({ code: 5 }) as never }),
    (e: unknown) => e === f,
  );
});

Deno.test(
  "withRetry() applies the policy's unknownCodeRecovery and budget to unknown codes",
  async () => {
    const { state, policy } = fakeClock({ unknownCodeRecovery: "transient", maxRetries: 2 });
    const error = await withRetry(() => Promise.reject(failure({ code: "X_ACME_GO_FOREVER" })), {
      policy,
    }).then(() => undefined, (e: unknown) => e);
    ok(error instanceof RetryBudgetExhaustedError);
    strictEqual(error.attempts, 3);
    deepStrictEqual(state.waits, [2000, 4000]);
  },
);

Deno.test("withRetry() rejects with the abort reason when aborted before the start", async () => {
  const controller = new AbortController();
  const reason = new Error("cancelled");
  controller.abort(reason);
  let calls = 0;
  await rejects(
    withRetry(() => {
      calls++;
      return Promise.resolve();
    }, { signal: controller.signal }),
    (e: unknown) => e === reason,
  );
  strictEqual(calls, 0);
});

Deno.test(
  "withRetry() rejects at once when aborted during a wait, clearing the timer",
  async () => {
    // The default sleep with a real 5 s timer: the abort must cancel it.
    using timers = trackTimers();
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    let calls = 0;
    let pendingDuringWait = -1;
    const started = performance.now();
    await rejects(
      withRetry(() => {
        calls++;
        return Promise.reject(failure(RATE_LIMITED));
      }, {
        signal: controller.signal,
        onDecision: () =>
          queueMicrotask(() => {
            pendingDuringWait = timers.pending;
            controller.abort(reason);
          }),
      }),
      (e: unknown) => e === reason,
    );
    strictEqual(calls, 1);
    strictEqual(pendingDuringWait, 1); // the wait had started its timer
    strictEqual(timers.pending, 0); // and the abort cleared it
    ok(performance.now() - started < 4000, "the wait was cut short");
  },
);

Deno.test("withRetry() rejects at once on abort even when a custom sleep ignores it", async () => {
  const controller = new AbortController();
  const reason = new DOMException("stop", "AbortError");
  let sleeping = 0;
  const pending = withRetry(() => Promise.reject(failure(RATE_LIMITED)), {
    signal: controller.signal,
    policy: {
      sleep: () => {
        sleeping++;
        return new Promise<void>(() => {}); // never settles, ignores the signal
      },
    },
  });
  await Promise.resolve();
  await Promise.resolve();
  strictEqual(sleeping, 1);
  controller.abort(reason);
  await rejects(pending, (e: unknown) => e === reason);
});

Deno.test("withRetry() prefers the abort reason when aborted during an attempt", async () => {
  const controller = new AbortController();
  const events: RetryEvent[] = [];
  await rejects(
    withRetry(() => {
      controller.abort("gone");
      return Promise.reject(failure(RATE_LIMITED));
    }, { signal: controller.signal, onDecision: (e) => events.push(e) }),
    (e: unknown) => e === "gone",
  );
  strictEqual(events.length, 0);
});

Deno.test("withRetry() propagates an exception thrown by onDecision", async () => {
  const { state, policy } = fakeClock();
  const boom = new Error("boom");
  await rejects(
    withRetry(() => Promise.reject(failure(RATE_LIMITED)), {
      policy,
      onDecision: () => {
        throw boom;
      },
    }),
    (e: unknown) => e === boom,
  );
  deepStrictEqual(state.waits, []);
});

Deno.test("withRetry() propagates a failing sleep", async () => {
  const boom = new Error("timer failure");
  await rejects(
    withRetry(() => Promise.reject(failure(RATE_LIMITED)), {
      policy: { sleep: () => Promise.reject(boom) },
    }),
    (e: unknown) => e === boom,
  );
});

Deno.test("withRetry() rejects bad arguments with TypeError or RangeError", async () => {
  await rejects(withRetry(null as never), TypeError);
  await rejects(withRetry(() => Promise.resolve(), null as never), TypeError);
  await rejects(withRetry(() => Promise.resolve(), { signal: {} as never }), TypeError);
  await rejects(withRetry(() => Promise.resolve(), { extractError: 1 as never }), TypeError);
  await rejects(withRetry(() => Promise.resolve(), { onDecision: "x" as never }), TypeError);
  await rejects(withRetry(() => Promise.resolve(), { policy: { maxRetries: -1 } }), RangeError);
  await rejects(
    withRetry(() => Promise.resolve(), { policy: { now: () => Number.NaN } }),
    (e: unknown) =>
      e instanceof RangeError &&
      e.message ===
        "Cannot retry the operation as 'now()' must be a finite number of milliseconds: " +
          "current value is NaN",
  );
});

Deno.test("withRetry() treats a clock going backwards as no time elapsed", async () => {
  let t = 1_000_000;
  const events: RetryEvent[] = [];
  await withRetry(
    (attempt) => attempt < 2 ? Promise.reject(failure(RATE_LIMITED)) : Promise.resolve(),
    {
      policy: {
        now: () => (t -= 1000),
        sleep: () => Promise.resolve(),
      },
      onDecision: (e) => events.push(e),
    },
  );
  strictEqual(events[0]!.elapsedSeconds, 0);
});

Deno.test("withRetry() leaves no abort listener on the caller's signal", async () => {
  const { policy } = fakeClock();
  const signal = new AbortController().signal;
  const listeners = countListeners(signal);
  const result = await withRetry(
    (attempt) => attempt < 4 ? Promise.reject(failure(RATE_LIMITED)) : Promise.resolve(attempt),
    { policy, signal },
  );
  strictEqual(result, 4);
  strictEqual(listeners.count, 0);
});

Deno.test(
  "withRetry() rejects at once when aborted during an attempt that ignores the signal",
  async () => {
    const controller = new AbortController();
    let settle: (value: string) => void = () => {};
    const attempt = new Promise<string>((resolve) => settle = resolve);
    const running = withRetry(() => attempt, { signal: controller.signal });
    controller.abort("gone");
    await rejects(running, (e: unknown) => e === "gone");
    settle("late"); // what the attempt settles with after the abort is ignored
    const listeners = countListeners(controller.signal);
    strictEqual(listeners.count, 0);
  },
);

Deno.test("withRetry() escalates when onDecision takes the wait past the budget", async () => {
  const { state, policy } = fakeClock();
  const events: RetryEvent[] = [];
  let calls = 0;
  const error = await withRetry(() => {
    calls++;
    state.now += 290_000; // the attempt takes 290 s
    return Promise.reject(failure(RATE_LIMITED));
  }, {
    policy,
    onDecision: (event) => {
      events.push(event);
      state.now += 10_000; // a slow observer: 290 + 10 + 5 > 300
    },
  }).then(() => undefined, (e: unknown) => e);
  ok(error instanceof RetryBudgetExhaustedError);
  strictEqual(error.limit, "max_elapsed_seconds");
  strictEqual(error.elapsedSeconds, 300);
  deepStrictEqual(error.decision, {
    action: "escalate_to_human",
    reason: "retry_budget_exhausted",
    limit: "max_elapsed_seconds",
    delaySeconds: 5,
    delaySource: "retry_after",
  });
  strictEqual(calls, 1);
  deepStrictEqual(state.waits, []);
  strictEqual(events[0]?.decision.action, "retry");
});

Deno.test(
  "withRetry() rethrows an inner RetryBudgetExhaustedError at once: nested budgets do " +
    "not multiply",
  async () => {
    const { policy } = fakeClock();
    const events: RetryEvent[] = [];
    let calls = 0;
    const error = await withRetry(
      () =>
        withRetry(() => {
          calls++;
          return Promise.reject(failure(UNAVAILABLE));
        }, { policy }),
      { policy, onDecision: (event) => events.push(event) },
    ).then(() => undefined, (e: unknown) => e);
    ok(error instanceof RetryBudgetExhaustedError);
    strictEqual(calls, 4); // the inner budget: 1 attempt + 3 retries, once
    strictEqual(events.length, 1);
    deepStrictEqual(events[0]?.decision, {
      action: "escalate_to_human",
      reason: "retry_budget_exhausted",
      limit: "max_retries",
    });
    strictEqual(events[0]?.thrown, error);
  },
);
