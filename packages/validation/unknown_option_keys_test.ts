// Every public options object of @adcp-wire/validation, and its `limits`, refuses an own key it
// does not know (a misspelled or misplaced option would otherwise pass silently, its limit left at
// the default), in the one option-error style with the nearest known option, before the data is
// looked at.
import { everyKey, exportedOptionTypes, outcome } from "adcp-testkit";
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import {
  type JsonLimits,
  loadTaskValidator,
  validateAdcpErrorSchema,
  validateErrorDetails,
  type ValidateErrorDetailsOptions,
  type ValidateOptions,
  validateTaskResponse,
  type ValidateTaskResponseOptions,
  validateWebhookPayload,
} from "./mod.ts";

const ERROR = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient" };
const PUSH = {
  task_id: "t1",
  task_type: "get_products",
  status: "working",
  timestamp: "2026-01-22T10:15:00Z",
  result: { percentage: 40 },
};
const TASK = "get_products";
const VALIDATOR = await loadTaskValidator(TASK);

/**
 * Data whose every property read is counted: a refused call must not look at it (options are
 * checked before the data is copied).
 */
class Probe {
  reads = 0;
  readonly data: object = new Proxy({}, {
    get: () => {
      this.reads++;
      return undefined;
    },
    getOwnPropertyDescriptor: () => {
      this.reads++;
      return undefined;
    },
    ownKeys: () => {
      this.reads++;
      return [];
    },
  });
}

/** Every validation function, by name, under the options of `validateTaskResponse`. */
const FUNCTIONS: Readonly<Record<string, (data: unknown, options: never) => Promise<unknown>>> = {
  validateAdcpErrorSchema,
  validateWebhookPayload,
  validateErrorDetails: (data, options) => validateErrorDetails("RATE_LIMITED", data, options),
  validateTaskResponse: (data, options) => validateTaskResponse(TASK, data, options),
  // Synchronous: wrapped so that a throw is a rejection as for the others.
  "TaskValidator.validate": (data, options) =>
    Promise.resolve().then(() => VALIDATOR.validate(data, options)),
};

/** What each function is called, in its option errors. */
const ACTIONS: Readonly<Record<string, string>> = {
  validateAdcpErrorSchema: "validate an AdCP error",
  validateWebhookPayload: "validate a webhook payload",
  validateErrorDetails: "validate error details",
  validateTaskResponse: "validate a task response",
  "TaskValidator.validate": "validate with a loaded task validator",
};

/** A call that must be refused, and its exact message. */
type Case = readonly [call: (probe: Probe) => Promise<unknown>, message: string];

interface Row {
  /** Calls with a misspelled or misplaced key, one per function that reads the options. */
  readonly refused: readonly Case[];
  /** Calls passing every known key of the interface as `undefined`. */
  readonly everyKey: readonly (() => Promise<unknown>)[];
}

/** The cases of `names`, each refusing `options` with the message of `message(action)`. */
function cases(
  names: readonly string[],
  options: unknown,
  message: (cannot: string) => string,
): Case[] {
  return names.map((name) => [
    (probe) => FUNCTIONS[name]!(probe.data, options as never),
    message(`Cannot ${ACTIONS[name]} as `),
  ]);
}

const ALL_VALIDATE = everyKey<ValidateOptions>({ limits: undefined, maxIssues: undefined });
const ALL_LIMITS = everyKey<JsonLimits>({ maxJsonDepth: undefined, maxJsonNodes: undefined });
const ALL_TASK = everyKey<ValidateTaskResponseOptions>({
  limits: undefined,
  maxIssues: undefined,
  status: undefined,
});
const TASK_FUNCTIONS = ["validateTaskResponse", "TaskValidator.validate"];

/** One row per public options or limits interface of the entry point. */
const ROWS: Readonly<Record<string, Row>> = {
  ValidateOptions: {
    refused: cases(
      ["validateAdcpErrorSchema", "validateWebhookPayload"],
      { maxIssue: 3 },
      (cannot) =>
        `${cannot}'options.maxIssue' must be a known option (the nearest is ` +
        "'options.maxIssues'): current value is 3",
    ),
    everyKey: [
      () => validateAdcpErrorSchema(ERROR, ALL_VALIDATE),
      () => validateWebhookPayload(PUSH, ALL_VALIDATE),
    ],
  },
  ValidateTaskResponseOptions: {
    refused: cases(
      TASK_FUNCTIONS,
      { stauts: "working" },
      (cannot) =>
        `${cannot}'options.stauts' must be a known option (the nearest is ` +
        `'options.status'): current value is "working"`,
    ),
    everyKey: [
      () => validateTaskResponse(TASK, { products: [] }, ALL_TASK),
      () => Promise.resolve(VALIDATOR.validate({ products: [] }, ALL_TASK)),
    ],
  },
  ValidateErrorDetailsOptions: {
    refused: cases(
      ["validateErrorDetails"],
      { schemas: "error-details/rate-limited.json" },
      (cannot) =>
        `${cannot}'options.schemas' must be a known option (the nearest is ` +
        `'options.schema'): current value is "error-details/rate-limited.json"`,
    ),
    everyKey: [
      () =>
        validateErrorDetails(
          "RATE_LIMITED",
          { retry_after: 5 },
          everyKey<ValidateErrorDetailsOptions>({
            limits: undefined,
            maxIssues: undefined,
            schema: undefined,
          }),
        ),
    ],
  },
  // `options.limits` of every function, re-exported from @adcp-wire/security.
  JsonLimits: {
    refused: cases(
      Object.keys(FUNCTIONS),
      { limits: { maxJsonDept: 5 } },
      (cannot) =>
        `${cannot}'options.limits.maxJsonDept' must be a known option (the nearest is ` +
        "'options.limits.maxJsonDepth'): current value is 5",
    ),
    everyKey: [
      () => validateAdcpErrorSchema(ERROR, { limits: ALL_LIMITS }),
      () => validateWebhookPayload(PUSH, { limits: ALL_LIMITS }),
      () => validateErrorDetails("RATE_LIMITED", {}, { limits: ALL_LIMITS }),
      () => validateTaskResponse(TASK, { products: [] }, { limits: ALL_LIMITS }),
      () => Promise.resolve(VALIDATOR.validate({ products: [] }, { limits: ALL_LIMITS })),
    ],
  },
};

for (const [name, row] of Object.entries(ROWS)) {
  Deno.test(`${name}: an unknown key is refused, the nearest named, before any read`, async () => {
    for (const [call, message] of row.refused) {
      const probe = new Probe();
      await rejects(() => call(probe), { name: "TypeError", message });
      strictEqual(probe.reads, 0, message);
    }
  });

  Deno.test(`${name}: every known key is accepted`, async () => {
    for (const call of row.everyKey) strictEqual(await outcome(call), undefined);
  });
}

Deno.test("the table has a row for every exported Options and Limits type", async () => {
  // Nothing skipped: `ResolvedOptions` of _run.ts is private (not exported by mod.ts).
  const exported = await exportedOptionTypes(new URL("./mod.ts", import.meta.url));
  ok(exported.length >= 4, `too few found: ${exported}`);
  deepStrictEqual(exported.filter((name) => !Object.hasOwn(ROWS, name)), []);
});

Deno.test("a limit given beside `limits` is refused with where it belongs", async () => {
  for (const [name, run] of Object.entries(FUNCTIONS)) {
    await rejects(() => run(ERROR, { maxJsonNodes: 10 } as never), {
      name: "TypeError",
      message: `Cannot ${ACTIONS[name]} as 'options.maxJsonNodes' must be a known option (the ` +
        "nearest is 'options.limits.maxJsonNodes'): current value is 10",
    });
  }
  // The status of a task response means nothing to the other functions.
  await rejects(() => validateAdcpErrorSchema(ERROR, { status: "working" } as never), {
    name: "TypeError",
    message: "Cannot validate an AdCP error as 'options.status' must be a known option (the " +
      `nearest is 'options.limits'): current value is "working"`,
  });
});

Deno.test("the unknown key is named by its first 64 characters", async () => {
  const key = "k".repeat(300);
  await rejects(() => validateTaskResponse(TASK, {}, { limits: { [key]: 1 } } as never), {
    name: "TypeError",
    message: `Cannot validate a task response as 'options.limits.${"k".repeat(64)}' must be a ` +
      "known option (the nearest is 'options.limits.maxJsonDepth'): current value is 1",
  });
});

Deno.test("inherited and symbol keys are not options", async () => {
  const inherited = <T extends object>(own: T): T =>
    Object.assign(Object.create({ bogus: 1, maxIssue: 2 }), own, { [Symbol("tag")]: 3 });
  const limits = inherited({ maxJsonDepth: 1 });
  await rejects(
    () => validateTaskResponse(TASK, { a: [1] }, inherited({ limits, status: "working" as const })),
    { name: "JsonDepthLimitError" },
  );
  const result = await validateAdcpErrorSchema({ code: 1 }, inherited({ maxIssues: 1 }));
  strictEqual(!result.valid && result.issues.length, 1);
});
