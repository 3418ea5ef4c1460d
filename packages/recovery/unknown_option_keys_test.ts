// Every public options object of @adcp-wire/recovery, its retry policy options and the context of
// decideRecovery refuse an own key they do not know (a misspelled or misplaced option would
// otherwise pass silently, its budget left at the default), in the one option-error style with
// the nearest known option, before the operation runs.
import { assertRefused, everyKey, exportedOptionTypes, outcome } from "adcp-testkit";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  backoffBounds,
  backoffDelay,
  classifyRecovery,
  type ClassifyRecoveryOptions,
  createRetryPolicy,
  decideRecovery,
  type RecoveryContext,
  type RetryPolicyOptions,
  withRetry,
  type WithRetryOptions,
} from "./mod.ts";

const RATE_LIMITED = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient" };

/** The side effects a refused call must not have: the operation, the clock, the sleep. */
class Probe {
  calls = 0;
  readonly operation = (): Promise<string> => {
    this.calls++;
    return Promise.resolve("done");
  };
  readonly now = (): number => {
    this.calls++;
    return 0;
  };
  readonly random = (): number => {
    this.calls++;
    return 0.5;
  };
}

/** A call that must be refused, and its exact message. */
type Case = readonly [call: (probe: Probe) => unknown, message: string];

interface Row {
  /** Calls with a misspelled or misplaced key, one per function that reads the options. */
  readonly refused: readonly Case[];
  /** Calls passing every known key of the interface as `undefined`. */
  readonly everyKey: readonly (() => unknown)[];
}

const ALL_POLICY = everyKey<RetryPolicyOptions>({
  maxRetries: undefined,
  maxElapsedSeconds: undefined,
  initialDelaySeconds: undefined,
  maxDelaySeconds: undefined,
  jitter: undefined,
  unknownCodeRecovery: undefined,
  random: undefined,
  now: undefined,
  sleep: undefined,
});

/** One row per public options interface of the entry point, and the context of decideRecovery. */
const ROWS: Readonly<Record<string, Row>> = {
  ClassifyRecoveryOptions: {
    refused: [[
      () => classifyRecovery(RATE_LIMITED, { unknownRecovery: "transient" } as never),
      "Cannot classify recovery as 'options.unknownRecovery' must be a known option (the " +
      `nearest is 'options.unknownCodeRecovery'): current value is "transient"`,
    ]],
    everyKey: [
      () =>
        classifyRecovery(
          RATE_LIMITED,
          everyKey<ClassifyRecoveryOptions>({ unknownCodeRecovery: undefined }),
        ),
    ],
  },
  // A policy is read by five functions, each naming it as its caller does.
  RetryPolicyOptions: {
    refused: [
      [
        (p) => createRetryPolicy({ maxRetry: 1, now: p.now } as RetryPolicyOptions),
        "Cannot create a retry policy as 'options.maxRetry' must be a known option (the nearest " +
        "is 'options.maxRetries'): current value is 1",
      ],
      [
        (p) => backoffDelay(1, { jiter: 0, random: p.random } as RetryPolicyOptions),
        "Cannot compute a backoff delay as 'policy.jiter' must be a known option (the nearest " +
        "is 'policy.jitter'): current value is 0",
      ],
      [
        (p) => backoffBounds(1, { maxDelay: 5, random: p.random } as RetryPolicyOptions),
        "Cannot compute backoff bounds as 'policy.maxDelay' must be a known option (the nearest " +
        "is 'policy.maxDelaySeconds'): current value is 5",
      ],
      [
        (p) =>
          decideRecovery(RATE_LIMITED, {
            attempt: 1,
            elapsedSeconds: 0,
            policy: { maxElapsed: 5, random: p.random } as RetryPolicyOptions,
          }),
        "Cannot decide recovery as 'context.policy.maxElapsed' must be a known option (the " +
        "nearest is 'context.policy.maxElapsedSeconds'): current value is 5",
      ],
      [
        (p) =>
          withRetry(p.operation, {
            policy: { initialDelay: 1, now: p.now } as RetryPolicyOptions,
          }),
        "Cannot retry the operation as 'options.policy.initialDelay' must be a known option " +
        "(the nearest is 'options.policy.initialDelaySeconds'): current value is 1",
      ],
    ],
    everyKey: [
      () => createRetryPolicy(ALL_POLICY),
      () => backoffDelay(1, ALL_POLICY),
      () => backoffBounds(1, ALL_POLICY),
      () => decideRecovery(RATE_LIMITED, { attempt: 1, elapsedSeconds: 0, policy: ALL_POLICY }),
      () => withRetry(() => Promise.resolve(1), { policy: ALL_POLICY }),
    ],
  },
  WithRetryOptions: {
    refused: [[
      (p) => withRetry(p.operation, { onDecisions: () => {} } as WithRetryOptions),
      "Cannot retry the operation as 'options.onDecisions' must be a known option (the nearest " +
      "is 'options.onDecision'): current value is a function",
    ]],
    everyKey: [
      () =>
        withRetry(
          () => Promise.resolve(1),
          everyKey<WithRetryOptions>({
            policy: undefined,
            signal: undefined,
            extractError: undefined,
            onDecision: undefined,
          }),
        ),
    ],
  },
  // Not an `*Options` interface, but an options object all the same.
  RecoveryContext: {
    refused: [[
      (p) =>
        decideRecovery(RATE_LIMITED, {
          attempt: 1,
          elapsedSecond: 0,
          policy: { random: p.random },
        } as never),
      "Cannot decide recovery as 'context.elapsedSecond' must be a known option (the nearest " +
      "is 'context.elapsedSeconds'): current value is 0",
    ]],
    everyKey: [
      () =>
        decideRecovery(
          RATE_LIMITED,
          // attempt and elapsedSeconds are required: given, the others undefined.
          {
            ...everyKey<RecoveryContext>({
              attempt: undefined,
              elapsedSeconds: undefined,
              policy: undefined,
            }),
            attempt: 1,
            elapsedSeconds: 0,
          },
        ),
    ],
  },
};

for (const [name, row] of Object.entries(ROWS)) {
  Deno.test(`${name}: an unknown key is refused, the nearest named, before any call`, async () => {
    for (const [call, message] of row.refused) {
      const probe = new Probe();
      await assertRefused(() => call(probe), message);
      strictEqual(probe.calls, 0, message);
    }
  });

  Deno.test(`${name}: every known key is accepted`, async () => {
    for (const call of row.everyKey) strictEqual(await outcome(call), undefined);
  });
}

Deno.test("the table has a row for every exported Options and Limits type", async () => {
  // Nothing skipped: this entry point exports no `Resolved*` options or limits.
  const exported = await exportedOptionTypes(new URL("./mod.ts", import.meta.url));
  ok(exported.length >= 3, `too few found: ${exported}`);
  deepStrictEqual(exported.filter((name) => !Object.hasOwn(ROWS, name)), []);
});

Deno.test("a policy option given beside `policy` is refused with where it belongs", async () => {
  const probe = new Probe();
  await assertRefused(
    () => withRetry(probe.operation, { maxRetries: 0 } as WithRetryOptions),
    "Cannot retry the operation as 'options.maxRetries' must be a known option (the nearest " +
      "is 'options.policy.maxRetries'): current value is 0",
  );
  await assertRefused(
    () => decideRecovery(RATE_LIMITED, { attempt: 1, elapsedSeconds: 0, maxRetries: 0 } as never),
    "Cannot decide recovery as 'context.maxRetries' must be a known option (the nearest is " +
      "'context.policy.maxRetries'): current value is 0",
  );
  strictEqual(probe.calls, 0);
});

Deno.test("a policy built by createRetryPolicy() is taken as it is, at every layer", async () => {
  const policy = createRetryPolicy({ maxRetries: 0, random: () => 0.5 });
  strictEqual(backoffDelay(1, policy), 2);
  deepStrictEqual(
    decideRecovery(RATE_LIMITED, { attempt: 1, elapsedSeconds: 0, policy }),
    { action: "escalate_to_human", reason: "retry_budget_exhausted", limit: "max_retries" },
  );
  strictEqual(await withRetry(() => Promise.resolve(7), { policy }), 7);
  // A copy of a built policy has only known keys too.
  strictEqual(backoffDelay(1, { ...policy }), 2);
});

Deno.test("the unknown key is named by its first 64 characters", async () => {
  const key = "r".repeat(1000);
  await assertRefused(
    () => withRetry(() => Promise.resolve(1), { policy: { [key]: "x".repeat(40) } } as never),
    `Cannot retry the operation as 'options.policy.${"r".repeat(64)}' must be a known option ` +
      `(the nearest is 'options.policy.maxRetries'): current value is "${"x".repeat(32)}…"`,
  );
});

Deno.test("inherited and symbol keys are not options", async () => {
  const inherited = <T extends object>(own: T): T =>
    Object.assign(Object.create({ bogus: 1, maxRetry: 2 }), own, { [Symbol("tag")]: 3 });
  strictEqual(backoffDelay(2, inherited({ random: () => 0.5 })), 4);
  strictEqual(
    classifyRecovery({ code: "X_ACME" }, inherited({ unknownCodeRecovery: "transient" as const })),
    "transient",
  );
  const context = inherited({ attempt: 5, elapsedSeconds: 0 });
  deepStrictEqual(decideRecovery(RATE_LIMITED, context), {
    action: "escalate_to_human",
    reason: "retry_budget_exhausted",
    limit: "max_retries",
  });
  strictEqual(await withRetry(() => Promise.resolve(3), inherited({})), 3);
});
