// Every public function of @adcp-wire/validation that validates its arguments reports a bad one in
// the one option-error style of issue #14: `Cannot <action> as '<name>' must be <requirement>:
// current value is <value>`, a TypeError for a wrong type and a RangeError for a value out of
// range.
import fc from "fast-check";
import { rejects, throws } from "node:assert/strict";
import { ERROR_DETAILS_VALIDATORS, VALIDATORS_ADCP_VERSION } from "@adcp-wire/schemas/validators";
import {
  knownTasks,
  loadTaskValidator,
  validateAdcpErrorSchema,
  validateErrorDetails,
  type ValidateOptions,
  validateTaskResponse,
  validateWebhookPayload,
} from "./mod.ts";

const STATUSES = "submitted, working, input-required, auth-required, completed, failed, " +
  "canceled, rejected, unknown";
const ERROR = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient" };
const TASK = "get_products";

/** The checks every validation function makes of the shared options. */
async function assertSharedOptionErrors(
  action: string,
  run: (options: ValidateOptions) => Promise<unknown>,
): Promise<void> {
  const cannot = `Cannot ${action} as `;
  await rejects(run("strict" as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is "strict"`,
  });
  await rejects(run(null as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is null`,
  });
  await rejects(run([] as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is an array`,
  });
  await rejects(run({ maxIssues: 0 }), {
    name: "RangeError",
    message: `${cannot}'options.maxIssues' must be a positive safe integer: current value is 0`,
  });
  await rejects(run({ maxIssues: 2.5 }), {
    name: "RangeError",
    message: `${cannot}'options.maxIssues' must be a positive safe integer: current value is 2.5`,
  });
  // A value of the wrong type, null included, is a TypeError.
  await rejects(run({ maxIssues: "20" as never }), {
    name: "TypeError",
    message: `${cannot}'options.maxIssues' must be a number: current value is "20"`,
  });
  await rejects(run({ maxIssues: null as never }), {
    name: "TypeError",
    message: `${cannot}'options.maxIssues' must be a number: current value is null`,
  });
  // NOT THE ACTION AND NAME OF THE CALL (reported): bad limits are reported by the copy of
  // @adcp-wire/security, as 'limits' of "copy JSON", not as 'options.limits' of this function.
  await rejects(run({ limits: "tight" as never }), {
    name: "TypeError",
    message: `Cannot copy JSON as 'limits' must be an object: current value is "tight"`,
  });
  await rejects(run({ limits: { maxJsonDepth: -1 } }), {
    name: "RangeError",
    message: "Cannot copy JSON as 'limits.maxJsonDepth' must be a non-negative safe integer: " +
      "current value is -1",
  });
}

Deno.test("validateAdcpErrorSchema() rejects bad options in the one style", async () => {
  await assertSharedOptionErrors(
    "validate an AdCP error",
    (options) => validateAdcpErrorSchema(ERROR, options),
  );
  // Data JSON cannot hold is named by the copy, as 'value'.
  await rejects(validateAdcpErrorSchema({ ...ERROR, retry_after: NaN }), {
    name: "TypeError",
    message:
      "Cannot copy JSON as 'value/retry_after' must be a finite number: current value is NaN",
  });
});

Deno.test("validateErrorDetails() rejects a bad code or options in the one style", async () => {
  const cannot = "Cannot validate error details as ";
  await rejects(validateErrorDetails(429 as never, {}), {
    name: "TypeError",
    message: `${cannot}'code' must be a string: current value is 429`,
  });
  await rejects(validateErrorDetails(undefined as never, {}), {
    name: "TypeError",
    message: `${cannot}'code' must be a string: current value is undefined`,
  });
  await assertSharedOptionErrors(
    "validate error details",
    (options) => validateErrorDetails("RATE_LIMITED", { retry_after: 5 }, options),
  );
  const schemas = [...ERROR_DETAILS_VALIDATORS.keys()].join(", ");
  const requirement = `an error-details schema of AdCP ${VALIDATORS_ADCP_VERSION} (${schemas})`;
  await rejects(validateErrorDetails("RATE_LIMITED", {}, { schema: "nope.json" }), {
    name: "TypeError",
    message: `${cannot}'options.schema' must be ${requirement}: current value is "nope.json"`,
  });
  await rejects(validateErrorDetails("RATE_LIMITED", {}, { schema: 1 as never }), {
    name: "TypeError",
    message: `${cannot}'options.schema' must be ${requirement}: current value is 1`,
  });
});

Deno.test("validateTaskResponse() rejects a bad task, status or options in the style", async () => {
  const cannot = "Cannot validate a task response as ";
  await rejects(validateTaskResponse(42 as never, {}), {
    name: "TypeError",
    message: `${cannot}'task' must be a string: current value is 42`,
  });
  const tasks = `a task of AdCP ${VALIDATORS_ADCP_VERSION} (${knownTasks().join(", ")})`;
  await rejects(validateTaskResponse("get_product", {}), {
    name: "TypeError",
    message: `${cannot}'task' must be ${tasks}: current value is "get_product"`,
  });
  await rejects(validateTaskResponse("__proto__", {}), {
    name: "TypeError",
    message: `${cannot}'task' must be ${tasks}: current value is "__proto__"`,
  });
  await assertSharedOptionErrors(
    "validate a task response",
    (options) => validateTaskResponse(TASK, { products: [] }, options),
  );
  await rejects(validateTaskResponse(TASK, {}, { status: "done" as never }), {
    name: "TypeError",
    message: `${cannot}'options.status' must be a task status (${STATUSES}): ` +
      'current value is "done"',
  });
  await rejects(validateTaskResponse(TASK, {}, { status: null as never }), {
    name: "TypeError",
    message: `${cannot}'options.status' must be a task status (${STATUSES}): ` +
      "current value is null",
  });
});

Deno.test("loadTaskValidator() rejects a bad task in the one option-error style", async () => {
  const cannot = "Cannot load a task validator as ";
  await rejects(loadTaskValidator(["get_products"] as never), {
    name: "TypeError",
    message: `${cannot}'task' must be a string: current value is an array`,
  });
  const tasks = `a task of AdCP ${VALIDATORS_ADCP_VERSION} (${knownTasks().join(", ")})`;
  await rejects(loadTaskValidator("toString"), {
    name: "TypeError",
    message: `${cannot}'task' must be ${tasks}: current value is "toString"`,
  });
  await rejects(loadTaskValidator(""), {
    name: "TypeError",
    message: `${cannot}'task' must be ${tasks}: current value is ""`,
  });
});

Deno.test("TaskValidator.validate() reports bad options in the one style", async () => {
  const validator = await loadTaskValidator(TASK);
  const cannot = "Cannot validate with a loaded task validator as ";
  await assertSharedOptionErrors(
    "validate with a loaded task validator",
    (options) => Promise.resolve().then(() => validator.validate({ products: [] }, options)),
  );
  // validate() is synchronous: it throws.
  throws(() => validator.validate({}, { maxIssues: -1 }), {
    name: "RangeError",
    message: `${cannot}'options.maxIssues' must be a positive safe integer: current value is -1`,
  });
  throws(() => validator.validate({}, { status: "Completed" as never }), {
    name: "TypeError",
    message: `${cannot}'options.status' must be a task status (${STATUSES}): ` +
      'current value is "Completed"',
  });
});

Deno.test("validateWebhookPayload() rejects bad options in the one style", async () => {
  await assertSharedOptionErrors(
    "validate a webhook payload",
    (options) => validateWebhookPayload({}, options),
  );
});

Deno.test("the validation functions show any bad maxIssues as describe() renders it", async () => {
  const bad = fc.oneof(
    fc.integer({ max: 0 }),
    fc.double().filter((n) => !Number.isSafeInteger(n)),
    fc.constantFrom(-0, NaN, -Infinity, 2 ** 53),
  );
  await fc.assert(
    fc.asyncProperty(bad, async (maxIssues) => {
      const shown = Object.is(maxIssues, -0) ? "-0" : String(maxIssues);
      await rejects(validateAdcpErrorSchema(ERROR, { maxIssues }), {
        name: "RangeError",
        message: "Cannot validate an AdCP error as 'options.maxIssues' must be a positive safe " +
          `integer: current value is ${shown}`,
      });
    }),
    { numRuns: 100 },
  );
});
