import type { TaskStatus } from "@adcp-wire/schemas";
import type {
  InterimStatus,
  TaskValidatorEntry,
  TaskValidatorModule,
} from "@adcp-wire/schemas/validators";
import type { JsonValue } from "@adcp-wire/security";
import { optionError, optionKeys } from "@adcp-wire/internal";
import {
  check,
  type ResolvedOptions,
  resolveOptions,
  safeCopy,
  VALIDATE_OPTION_FLAGS,
} from "./_run.ts";
import { chooseValidator, isTaskStatus, STATUS_KIND, taskEntry, taskNames } from "./_tasks.ts";
import type { ValidateOptions, ValidationResult } from "./validation_result.ts";

export type { TaskStatus } from "@adcp-wire/schemas";
export type { InterimStatus } from "@adcp-wire/schemas/validators";

/** Options of {@link validateTaskResponse} and {@link TaskValidator.validate}. */
export interface ValidateTaskResponseOptions extends ValidateOptions {
  /**
   * The task status the payload was delivered with, as the transport reported it (the MCP or
   * webhook `status`, the A2A task state). It chooses the schema: the task's response schema for a
   * terminal status (`completed`, `failed`, `canceled`, `rejected`), the task's
   * `*-async-response-<status>.json` schema for an interim one (`submitted`, `working`,
   * `input-required`, `auth-required`), none for `unknown`. Pass the status your code acts on; the
   * payload's own `status` field is never used to choose, so a seller cannot pick a looser schema.
   * @default {"completed"}
   */
  readonly status?: TaskStatus;
}

/** A task's validators, loaded: {@link TaskValidator.validate} is synchronous. */
export interface TaskValidator {
  /** The task name. */
  readonly task: string;
  /** The schema of terminal results, relative to the version's schema folder. */
  readonly responseSchema: string;
  /** The schemas of interim payloads by status; a status without one passes unchecked. */
  readonly interimSchemas: Readonly<Partial<Record<InterimStatus, string>>>;
  /**
   * Validates a payload of the task; see {@link validateTaskResponse}.
   *
   * @param data The payload.
   * @param options The status and limits.
   * @returns The safe copy, or the issues.
   */
  validate(data: unknown, options?: ValidateTaskResponseOptions): ValidationResult<JsonValue>;
}

const VALIDATE_TASK_RESPONSE = "validate a task response";

/** The keys of {@link ValidateTaskResponseOptions}: any other is refused. */
const VALIDATE_TASK_RESPONSE_KEYS = optionKeys<ValidateTaskResponseOptions>({
  ...VALIDATE_OPTION_FLAGS,
  status: true,
});

function resolveTaskOptions(
  options: ValidateTaskResponseOptions | undefined,
  action: string,
): ResolvedOptions & { status: TaskStatus } {
  const base = resolveOptions(options, action, VALIDATE_TASK_RESPONSE_KEYS);
  // `undefined` only: `null` is a malformed status, not an omitted one.
  const status = options?.status === undefined ? "completed" : options.status;
  if (!isTaskStatus(status)) {
    const statuses = Object.keys(STATUS_KIND).join(", ");
    throw optionError(TypeError, action, "options.status", `a task status (${statuses})`, status);
  }
  return { ...base, status };
}

function runTask(
  entry: TaskValidatorEntry,
  module: TaskValidatorModule,
  data: unknown,
  options: ResolvedOptions & { status: TaskStatus },
): ValidationResult<JsonValue> {
  const value = safeCopy(data, options);
  const chosen = chooseValidator(entry, module, options.status);
  if (chosen === undefined) return { valid: true, value, schemas: [] };
  const issues = check(chosen.validate, value, options);
  return issues === undefined
    ? { valid: true, value, schemas: [chosen.schema] }
    : { valid: false, issues, schemas: [chosen.schema] };
}

/**
 * The task names that have validators: the tools of the pinned version's `manifest.json` and the
 * task types that only its `task_result_resolution.terminal_schema_overrides` names (such as
 * `media_buy_delivery`).
 *
 * @returns The names, sorted.
 *
 * @example Listing tasks
 * ```ts
 * import { knownTasks } from "@adcp-wire/validation";
 * import { ok } from "node:assert/strict";
 *
 * ok(knownTasks().includes("get_products"));
 * ```
 */
export function knownTasks(): string[] {
  return taskNames();
}

/**
 * Loads a task's validators (a dynamic import of its precompiled module), so that the payloads of
 * that task can then be validated synchronously.
 *
 * @param task The task name, such as `get_products` (see {@link knownTasks}).
 * @returns The loaded validator.
 * @throws {TypeError} When the task is unknown; the message lists the known ones.
 *
 * @example Loading once, validating many
 * ```ts
 * import { loadTaskValidator } from "@adcp-wire/validation";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const validator = await loadTaskValidator("get_signals");
 * const result = validator.validate({ status: "completed", signals: 3 });
 * strictEqual(result.valid, false);
 * deepStrictEqual(result.schemas, ["signals/get-signals-response.json"]);
 * ```
 */
export async function loadTaskValidator(task: string): Promise<TaskValidator> {
  const entry = taskEntry(task, "load a task validator");
  const module = await entry.load();
  return Object.freeze({
    task: entry.task,
    responseSchema: entry.responseSchema,
    interimSchemas: entry.interimSchemas,
    validate: (data: unknown, options?: ValidateTaskResponseOptions) =>
      runTask(
        entry,
        module,
        data,
        resolveTaskOptions(options, "validate with a loaded task validator"),
      ),
  });
}

/**
 * Validates a task payload against the pinned AdCP version's schema for that task and status, on a
 * pollution-safe copy (`toSafeJson` of `@adcp-wire/security`: dangerous keys dropped, depth and
 * size bounded), and returns that copy when it conforms, so the value returned is exactly the value
 * checked. `options.status` chooses the schema; an interim status without a schema passes with
 * `schemas: []`. How schemas are chosen and what the validators guarantee (first failure only,
 * linear `uniqueItems`, nothing compiled at run time) is in
 * [docs/validation.md](../../docs/validation.md#task-responses).
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0 and A2A Response Extraction, Security
 * Considerations, Prototype Pollution.
 *
 * @param task The task name, such as `get_products` (see {@link knownTasks}).
 * @param data The extracted payload (the AdCP data, not the transport envelope).
 * @param options The status and limits.
 * @returns `{ valid: true, value, schemas }` or `{ valid: false, issues, schemas }`.
 * @throws {TypeError} When the task is unknown (the message lists the known ones), an option is
 * malformed or unknown, or the data is not JSON data.
 * @throws {RangeError} When `maxIssues` or a limit is out of range.
 * @throws {JsonDepthLimitError} When the data nests deeper than the limit.
 * @throws {JsonNodeLimitError} When the data holds more values than the limit.
 *
 * @example Accepting a payload and rejecting another
 * ```ts
 * import { validateTaskResponse } from "@adcp-wire/validation";
 * import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
 *
 * const working = { status: "working" } as const;
 * const good = await validateTaskResponse("get_products", { percentage: 50 }, working);
 * ok(good.valid);
 * deepStrictEqual(good.value, { percentage: 50 });
 *
 * const bad = await validateTaskResponse("get_products", { percentage: 150 }, working);
 * ok(!bad.valid);
 * deepStrictEqual(bad.issues, [
 *   { pointer: "/percentage", message: "Expected a number <= 100", keyword: "maximum" },
 * ]);
 * strictEqual(bad.schemas[0], "media-buy/get-products-async-response-working.json");
 * ```
 */
export async function validateTaskResponse(
  task: string,
  data: unknown,
  options?: ValidateTaskResponseOptions,
): Promise<ValidationResult<JsonValue>> {
  const entry = taskEntry(task, VALIDATE_TASK_RESPONSE);
  const resolved = resolveTaskOptions(options, VALIDATE_TASK_RESPONSE);
  return runTask(entry, await entry.load(), data, resolved);
}
