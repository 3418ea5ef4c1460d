// Every public function of @adcp-wire/recovery that validates its arguments reports a bad one in
// the one option-error style of issue #14: `Cannot <action> as '<name>' must be <requirement>:
// current value is <value>`, a TypeError for a wrong type and a RangeError for a value out of
// range.
import fc from "fast-check";
import { rejects, throws } from "node:assert/strict";
import {
  backoffBounds,
  backoffDelay,
  classifyRecovery,
  createRetryPolicy,
  decideRecovery,
  type RetryPolicyOptions,
  withRetry,
} from "./mod.ts";

const ATTEMPT = "a safe integer >= 1 (the 1-based number of the attempt that failed)";
const CLASSES = '"transient", "correctable" or "terminal"';
const RATE_LIMITED = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient" };

/** The checks of a policy's fields; `action` says what could not be done. */
function assertPolicyErrors(action: string, run: (policy: RetryPolicyOptions) => unknown): void {
  const cannot = `Cannot ${action} as `;
  throws(() => run({ maxRetries: "3" as never }), {
    name: "TypeError",
    message: `${cannot}'maxRetries' must be a non-negative safe integer: current value is "3"`,
  });
  throws(() => run({ maxRetries: -1 }), {
    name: "RangeError",
    message: `${cannot}'maxRetries' must be a non-negative safe integer: current value is -1`,
  });
  throws(() => run({ maxRetries: 1.5 }), {
    name: "RangeError",
    message: `${cannot}'maxRetries' must be a non-negative safe integer: current value is 1.5`,
  });
  throws(() => run({ maxElapsedSeconds: null as never }), {
    name: "TypeError",
    message: `${cannot}'maxElapsedSeconds' must be a finite number of seconds >= 0: ` +
      "current value is null",
  });
  throws(() => run({ maxElapsedSeconds: Infinity }), {
    name: "RangeError",
    message: `${cannot}'maxElapsedSeconds' must be a finite number of seconds >= 0: ` +
      "current value is Infinity",
  });
  throws(() => run({ initialDelaySeconds: 0 }), {
    name: "RangeError",
    message: `${cannot}'initialDelaySeconds' must be a number of seconds >= 0.001 and <= 3600: ` +
      "current value is 0",
  });
  throws(() => run({ initialDelaySeconds: NaN }), {
    name: "RangeError",
    message: `${cannot}'initialDelaySeconds' must be a number of seconds >= 0.001 and <= 3600: ` +
      "current value is NaN",
  });
  throws(() => run({ maxDelaySeconds: 1 }), {
    name: "RangeError",
    message: `${cannot}'maxDelaySeconds' must be a number of seconds >= initialDelaySeconds (2) ` +
      "and <= 3600: current value is 1",
  });
  throws(() => run({ initialDelaySeconds: 5, maxDelaySeconds: 3601 }), {
    name: "RangeError",
    message: `${cannot}'maxDelaySeconds' must be a number of seconds >= initialDelaySeconds (5) ` +
      "and <= 3600: current value is 3601",
  });
  throws(() => run({ jitter: 1 }), {
    name: "RangeError",
    message: `${cannot}'jitter' must be a number >= 0 and < 1: current value is 1`,
  });
  throws(() => run({ jitter: true as never }), {
    name: "TypeError",
    message: `${cannot}'jitter' must be a number >= 0 and < 1: current value is true`,
  });
  throws(() => run({ unknownCodeRecovery: "retry" as never }), {
    name: "TypeError",
    message: `${cannot}'unknownCodeRecovery' must be ${CLASSES}: current value is "retry"`,
  });
  throws(() => run({ random: 0.5 as never }), {
    name: "TypeError",
    message: `${cannot}'random' must be a function: current value is 0.5`,
  });
  throws(() => run({ now: {} as never }), {
    name: "TypeError",
    message: `${cannot}'now' must be a function: current value is an object`,
  });
  throws(() => run({ sleep: "later" as never }), {
    name: "TypeError",
    message: `${cannot}'sleep' must be a function: current value is "later"`,
  });
}

Deno.test("createRetryPolicy() reports every bad option in the one option-error style", () => {
  const cannot = "Cannot create a retry policy as ";
  throws(() => createRetryPolicy("fast" as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is "fast"`,
  });
  throws(() => createRetryPolicy([] as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is an array`,
  });
  throws(() => createRetryPolicy(null as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is null`,
  });
  assertPolicyErrors("create a retry policy", createRetryPolicy);
});

Deno.test("backoffDelay() reports a bad attempt, policy or random() in the one style", () => {
  const cannot = "Cannot compute a backoff delay as ";
  throws(() => backoffDelay("1" as never), {
    name: "TypeError",
    message: `${cannot}'attempt' must be ${ATTEMPT}: current value is "1"`,
  });
  throws(() => backoffDelay(0), {
    name: "RangeError",
    message: `${cannot}'attempt' must be ${ATTEMPT}: current value is 0`,
  });
  throws(() => backoffDelay(2.5), {
    name: "RangeError",
    message: `${cannot}'attempt' must be ${ATTEMPT}: current value is 2.5`,
  });
  throws(() => backoffDelay(1, 3 as never), {
    name: "TypeError",
    message: `${cannot}'policy' must be an object: current value is 3`,
  });
  // The fields of a policy passed as options are named without a 'policy.' prefix.
  assertPolicyErrors("compute a backoff delay", (policy) => backoffDelay(1, policy));
  throws(() => backoffDelay(1, { random: () => 1 }), {
    name: "RangeError",
    message: `${cannot}'random()' must be a number >= 0 and < 1: current value is 1`,
  });
  throws(() => backoffDelay(1, { random: () => -0.5 }), {
    name: "RangeError",
    message: `${cannot}'random()' must be a number >= 0 and < 1: current value is -0.5`,
  });
  throws(() => backoffDelay(1, { random: () => "0.5" as never }), {
    name: "RangeError",
    message: `${cannot}'random()' must be a number >= 0 and < 1: current value is "0.5"`,
  });
});

Deno.test("backoffBounds() reports a bad attempt or policy in the one option-error style", () => {
  const cannot = "Cannot compute backoff bounds as ";
  throws(() => backoffBounds(undefined as never), {
    name: "TypeError",
    message: `${cannot}'attempt' must be ${ATTEMPT}: current value is undefined`,
  });
  throws(() => backoffBounds(-3), {
    name: "RangeError",
    message: `${cannot}'attempt' must be ${ATTEMPT}: current value is -3`,
  });
  throws(() => backoffBounds(Number.MAX_SAFE_INTEGER + 1), {
    name: "RangeError",
    message: `${cannot}'attempt' must be ${ATTEMPT}: current value is 9007199254740992`,
  });
  throws(() => backoffBounds(1, "policy" as never), {
    name: "TypeError",
    message: `${cannot}'policy' must be an object: current value is "policy"`,
  });
  assertPolicyErrors("compute backoff bounds", (policy) => backoffBounds(1, policy));
});

Deno.test("classifyRecovery() reports a bad error or options in the one option-error style", () => {
  const cannot = "Cannot classify recovery as ";
  throws(() => classifyRecovery(RATE_LIMITED, "terminal" as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is "terminal"`,
  });
  throws(() => classifyRecovery(RATE_LIMITED, [] as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is an array`,
  });
  throws(() => classifyRecovery(RATE_LIMITED, { unknownCodeRecovery: "Transient" as never }), {
    name: "TypeError",
    message: `${cannot}'unknownCodeRecovery' must be ${CLASSES}: current value is "Transient"`,
  });
  throws(() => classifyRecovery(RATE_LIMITED, { unknownCodeRecovery: null as never }), {
    name: "TypeError",
    message: `${cannot}'unknownCodeRecovery' must be ${CLASSES}: current value is null`,
  });
  throws(() => classifyRecovery(null as never), {
    name: "TypeError",
    message: `${cannot}'error' must be an object: current value is null`,
  });
  throws(() => classifyRecovery("RATE_LIMITED" as never), {
    name: "TypeError",
    message: `${cannot}'error' must be an object: current value is "RATE_LIMITED"`,
  });
  throws(() => classifyRecovery([RATE_LIMITED] as never), {
    name: "TypeError",
    message: `${cannot}'error' must be an object: current value is an array`,
  });
});

Deno.test("decideRecovery() reports a bad context or policy in the one option-error style", () => {
  const cannot = "Cannot decide recovery as ";
  throws(() => decideRecovery(RATE_LIMITED, 2 as never), {
    name: "TypeError",
    message: `${cannot}'context' must be an object with attempt and elapsedSeconds: ` +
      "current value is 2",
  });
  throws(() => decideRecovery(RATE_LIMITED, { elapsedSeconds: 0 } as never), {
    name: "TypeError",
    message: `${cannot}'attempt' must be ${ATTEMPT}: current value is undefined`,
  });
  throws(() => decideRecovery(RATE_LIMITED, { attempt: 0, elapsedSeconds: 0 }), {
    name: "RangeError",
    message: `${cannot}'attempt' must be ${ATTEMPT}: current value is 0`,
  });
  throws(() => decideRecovery(RATE_LIMITED, { attempt: 1, elapsedSeconds: "0" as never }), {
    name: "TypeError",
    message: `${cannot}'elapsedSeconds' must be a finite number of seconds >= 0: ` +
      'current value is "0"',
  });
  throws(() => decideRecovery(RATE_LIMITED, { attempt: 1, elapsedSeconds: -1 }), {
    name: "RangeError",
    message: `${cannot}'elapsedSeconds' must be a finite number of seconds >= 0: ` +
      "current value is -1",
  });
  throws(() => decideRecovery(RATE_LIMITED, { attempt: 1, elapsedSeconds: NaN }), {
    name: "RangeError",
    message: `${cannot}'elapsedSeconds' must be a finite number of seconds >= 0: ` +
      "current value is NaN",
  });
  throws(
    () => decideRecovery(RATE_LIMITED, { attempt: 1, elapsedSeconds: 0, policy: 1 as never }),
    {
      name: "TypeError",
      message: `${cannot}'policy' must be an object: current value is 1`,
    },
  );
  assertPolicyErrors(
    "decide recovery",
    (policy) => decideRecovery(RATE_LIMITED, { attempt: 1, elapsedSeconds: 0, policy }),
  );
});

Deno.test("withRetry() rejects bad arguments and options in the one style", async () => {
  const cannot = "Cannot retry the operation as ";
  const operation = () => Promise.resolve("done");
  await rejects(withRetry("operation" as never), {
    name: "TypeError",
    message: `${cannot}'operation' must be a function: current value is "operation"`,
  });
  await rejects(withRetry(operation, 5 as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is 5`,
  });
  await rejects(withRetry(operation, { policy: "fast" as never }), {
    name: "TypeError",
    message: `${cannot}'policy' must be an object: current value is "fast"`,
  });
  await rejects(withRetry(operation, { policy: { maxRetries: -1 } }), {
    name: "RangeError",
    message: `${cannot}'maxRetries' must be a non-negative safe integer: current value is -1`,
  });
  await rejects(withRetry(operation, { signal: "abort" as never }), {
    name: "TypeError",
    message: `${cannot}'signal' must be an AbortSignal: current value is "abort"`,
  });
  await rejects(withRetry(operation, { signal: new AbortController() as never }), {
    name: "TypeError",
    message: `${cannot}'signal' must be an AbortSignal: current value is an object`,
  });
  await rejects(withRetry(operation, { extractError: "adcpError" as never }), {
    name: "TypeError",
    message: `${cannot}'extractError' must be a function: current value is "adcpError"`,
  });
  await rejects(withRetry(operation, { onDecision: true as never }), {
    name: "TypeError",
    message: `${cannot}'onDecision' must be a function: current value is true`,
  });
  await rejects(withRetry(operation, { policy: { now: () => "now" as never } }), {
    name: "TypeError",
    message: `${cannot}'now()' must be a finite number of milliseconds: current value is "now"`,
  });
  // A clock reading of NaN or Infinity is a number out of range.
  await rejects(withRetry(operation, { policy: { now: () => NaN } }), {
    name: "RangeError",
    message: `${cannot}'now()' must be a finite number of milliseconds: current value is NaN`,
  });
  await rejects(withRetry(operation, { policy: { now: () => -Infinity } }), {
    name: "RangeError",
    message: `${cannot}'now()' must be a finite number of milliseconds: ` +
      "current value is -Infinity",
  });
});

Deno.test("createRetryPolicy() shows any out-of-range jitter as describe() renders it", () => {
  const bad = fc.oneof(
    fc.double({ min: 1, noNaN: true }),
    fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
    fc.constant(NaN),
  );
  fc.assert(
    fc.property(bad, (jitter) => {
      throws(() => createRetryPolicy({ jitter }), {
        name: "RangeError",
        message: "Cannot create a retry policy as 'jitter' must be a number >= 0 and < 1: " +
          `current value is ${String(jitter)}`,
      });
    }),
    { numRuns: 200 },
  );
});
