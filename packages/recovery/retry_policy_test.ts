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
    "Cannot create a retry policy as 'maxRetries' must be a non-negative safe integer: current " +
      "value is -1",
  );
  rejects(
    { maxRetries: 1.5 },
    RangeError,
    "Cannot create a retry policy as 'maxRetries' must be a non-negative safe integer: current " +
      "value is 1.5",
  );
  rejects(
    { maxRetries: Infinity },
    RangeError,
    "Cannot create a retry policy as 'maxRetries' must be a non-negative safe integer: current " +
      "value is Infinity",
  );
  rejects(
    { maxElapsedSeconds: Infinity },
    RangeError,
    "Cannot create a retry policy as 'maxElapsedSeconds' must be a finite number of seconds >= " +
      "0: current value is Infinity",
  );
  rejects(
    { maxElapsedSeconds: -0.1 },
    RangeError,
    "Cannot create a retry policy as 'maxElapsedSeconds' must be a finite number of seconds >= " +
      "0: current value is -0.1",
  );
  rejects(
    { initialDelaySeconds: 0 },
    RangeError,
    "Cannot create a retry policy as 'initialDelaySeconds' must be a number of seconds >= 0.001 " +
      "and <= 3600: current value is 0",
  );
  rejects(
    { initialDelaySeconds: Number.MIN_VALUE }, // a jittered delay could underflow to 0
    RangeError,
    "Cannot create a retry policy as 'initialDelaySeconds' must be a number of seconds >= 0.001 " +
      "and <= 3600: current value is 5e-324",
  );
  rejects(
    { initialDelaySeconds: Number.NaN },
    RangeError,
    "Cannot create a retry policy as 'initialDelaySeconds' must be a number of seconds >= 0.001 " +
      "and <= 3600: current value is NaN",
  );
  rejects(
    { initialDelaySeconds: 10, maxDelaySeconds: 5 },
    RangeError,
    "Cannot create a retry policy as 'maxDelaySeconds' must be a number of seconds >= " +
      "initialDelaySeconds (10) and <= 3600: current value is 5",
  );
  rejects(
    { maxDelaySeconds: 3601 },
    RangeError,
    "Cannot create a retry policy as 'maxDelaySeconds' must be a number of seconds >= " +
      "initialDelaySeconds (2) and <= 3600: current value is 3601",
  );
  rejects(
    { jitter: 1 },
    RangeError,
    "Cannot create a retry policy as 'jitter' must be a number >= 0 and < 1: current value is 1",
  );
  rejects(
    { jitter: -0.1 },
    RangeError,
    "Cannot create a retry policy as 'jitter' must be a number >= 0 and < 1: current value is -0.1",
  );
  rejects(
    { jitter: Number.NaN },
    RangeError,
    "Cannot create a retry policy as 'jitter' must be a number >= 0 and < 1: current value is NaN",
  );
});

Deno.test(
  "createRetryPolicy() rejects values of the wrong type with a TypeError naming them",
  () => {
    rejects(
      { maxRetries: "3" },
      TypeError,
      `Cannot create a retry policy as 'maxRetries' must be a non-negative safe integer: current ` +
        `value is "3"`,
    );
    rejects(
      { jitter: null },
      TypeError,
      "Cannot create a retry policy as 'jitter' must be a number >= 0 and < 1: current value is " +
        "null",
    );
    rejects(
      { random: 0.5 },
      TypeError,
      "Cannot create a retry policy as 'random' must be a function: current value is 0.5",
    );
    rejects(
      { now: "now" },
      TypeError,
      `Cannot create a retry policy as 'now' must be a function: current value is "now"`,
    );
    rejects(
      { sleep: {} },
      TypeError,
      "Cannot create a retry policy as 'sleep' must be a function: current value is an object",
    );
    rejects(
      { unknownCodeRecovery: "retry" },
      TypeError,
      `Cannot create a retry policy as 'unknownCodeRecovery' must be "transient", ` +
        `"correctable" or "terminal": current value is "retry"`,
    );
    rejects(
      null,
      TypeError,
      "Cannot create a retry policy as 'options' must be an object: current value is null",
    );
    rejects(
      [],
      TypeError,
      "Cannot create a retry policy as 'options' must be an object: current value is an array",
    );
  },
);

Deno.test("createRetryPolicy() ignores inherited option values", () => {
  const options = Object.create({ maxRetries: 99 });
  strictEqual(createRetryPolicy(options).maxRetries, 3);
});
