import { ok, strictEqual, throws } from "node:assert/strict";
import { createRetryPolicy } from "./retry_policy.ts";

function rejects(options: unknown, Ctor: typeof TypeError | typeof RangeError, message: string) {
  throws(
    () => createRetryPolicy(options as never),
    (e: unknown) => {
      ok(e instanceof Ctor, `expected ${Ctor.name}, got ${String(e)}`);
      strictEqual(e.constructor, Ctor);
      strictEqual(e.message, message);
      return true;
    },
  );
}

Deno.test("createRetryPolicy() fills in the spec's defaults and freezes the policy", () => {
  const p = createRetryPolicy();
  strictEqual(p.maxRetries, 3);
  strictEqual(p.maxElapsedSeconds, 300);
  strictEqual(p.initialDelaySeconds, 2);
  strictEqual(p.maxDelaySeconds, 60);
  strictEqual(p.jitter, 0.25);
  strictEqual(p.unknownCodeRecovery, "terminal");
  // The default random source reads Math.random at each call, so a replacement is seen later.
  const original = Math.random;
  try {
    Math.random = () => 0.125;
    strictEqual(p.random(), 0.125);
  } finally {
    Math.random = original;
  }
  strictEqual(typeof p.now(), "number");
  strictEqual(typeof p.sleep, "function");
  ok(Object.isFrozen(p));
  strictEqual(createRetryPolicy({}).maxRetries, 3);
});

Deno.test("createRetryPolicy() keeps every given option", () => {
  const random = () => 0.1;
  const now = () => 42;
  const sleep = () => Promise.resolve();
  const p = createRetryPolicy({
    maxRetries: 0,
    maxElapsedSeconds: 0,
    initialDelaySeconds: 0.5,
    maxDelaySeconds: 3600,
    jitter: 0,
    unknownCodeRecovery: "transient",
    random,
    now,
    sleep,
  });
  strictEqual(p.maxRetries, 0);
  strictEqual(p.maxElapsedSeconds, 0);
  strictEqual(p.initialDelaySeconds, 0.5);
  strictEqual(p.maxDelaySeconds, 3600);
  strictEqual(p.jitter, 0);
  strictEqual(p.unknownCodeRecovery, "transient");
  strictEqual(p.random, random);
  strictEqual(p.now, now);
  strictEqual(p.sleep, sleep);
});

Deno.test("createRetryPolicy() treats undefined fields as omitted", () => {
  const p = createRetryPolicy({ maxRetries: undefined, jitter: undefined } as never);
  strictEqual(p.maxRetries, 3);
  strictEqual(p.jitter, 0.25);
});

Deno.test("createRetryPolicy() defaults maxDelaySeconds to initialDelaySeconds when larger", () => {
  strictEqual(createRetryPolicy({ initialDelaySeconds: 90 }).maxDelaySeconds, 90);
});

Deno.test("createRetryPolicy() rejects out-of-range numbers with a RangeError naming them", () => {
  rejects(
    { maxRetries: -1 },
    RangeError,
    "Invalid maxRetries: expected a non-negative safe integer, received -1",
  );
  rejects(
    { maxRetries: 1.5 },
    RangeError,
    "Invalid maxRetries: expected a non-negative safe integer, received 1.5",
  );
  rejects(
    { maxRetries: Infinity },
    RangeError,
    "Invalid maxRetries: expected a non-negative safe integer, received Infinity",
  );
  rejects(
    { maxElapsedSeconds: Infinity },
    RangeError,
    "Invalid maxElapsedSeconds: expected a finite number of seconds >= 0, received Infinity",
  );
  rejects(
    { maxElapsedSeconds: -0.1 },
    RangeError,
    "Invalid maxElapsedSeconds: expected a finite number of seconds >= 0, received -0.1",
  );
  rejects(
    { initialDelaySeconds: 0 },
    RangeError,
    "Invalid initialDelaySeconds: expected a number of seconds >= 0.001 and <= 3600, received 0",
  );
  rejects(
    { initialDelaySeconds: Number.MIN_VALUE }, // a jittered delay could underflow to 0
    RangeError,
    "Invalid initialDelaySeconds: expected a number of seconds >= 0.001 and <= 3600, received 5e-324",
  );
  rejects(
    { initialDelaySeconds: Number.NaN },
    RangeError,
    "Invalid initialDelaySeconds: expected a number of seconds >= 0.001 and <= 3600, received NaN",
  );
  rejects(
    { initialDelaySeconds: 10, maxDelaySeconds: 5 },
    RangeError,
    "Invalid maxDelaySeconds: expected a number of seconds >= initialDelaySeconds (10) and <= 3600, received 5",
  );
  rejects(
    { maxDelaySeconds: 3601 },
    RangeError,
    "Invalid maxDelaySeconds: expected a number of seconds >= initialDelaySeconds (2) and <= 3600, received 3601",
  );
  rejects({ jitter: 1 }, RangeError, "Invalid jitter: expected a number >= 0 and < 1, received 1");
  rejects(
    { jitter: -0.1 },
    RangeError,
    "Invalid jitter: expected a number >= 0 and < 1, received -0.1",
  );
  rejects(
    { jitter: Number.NaN },
    RangeError,
    "Invalid jitter: expected a number >= 0 and < 1, received NaN",
  );
});

Deno.test("createRetryPolicy() rejects values of the wrong type with a TypeError naming them", () => {
  rejects(
    { maxRetries: "3" },
    TypeError,
    'Invalid maxRetries: expected a non-negative safe integer, received "3"',
  );
  rejects(
    { jitter: null },
    TypeError,
    "Invalid jitter: expected a number >= 0 and < 1, received null",
  );
  rejects({ random: 0.5 }, TypeError, "Invalid random: expected a function, received 0.5");
  rejects({ now: "now" }, TypeError, 'Invalid now: expected a function, received "now"');
  rejects({ sleep: {} }, TypeError, "Invalid sleep: expected a function, received an object");
  rejects(
    { unknownCodeRecovery: "retry" },
    TypeError,
    'Invalid unknownCodeRecovery: expected "transient", "correctable" or "terminal", received "retry"',
  );
  rejects(null, TypeError, "Invalid options: expected an object, received null");
  rejects([], TypeError, "Invalid options: expected an object, received an array");
});

Deno.test("createRetryPolicy() ignores inherited option values", () => {
  const options = Object.create({ maxRetries: 99 });
  strictEqual(createRetryPolicy(options).maxRetries, 3);
});
