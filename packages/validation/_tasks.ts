// Private: task lookup and the choice of schema by task status.
import type { TaskStatus } from "@adcp-wire/schemas";
import {
  type CompiledValidator,
  type InterimStatus,
  TASK_VALIDATORS,
  type TaskValidatorEntry,
  type TaskValidatorModule,
  VALIDATORS_ADCP_VERSION,
} from "@adcp-wire/schemas/validators";
import { optionError } from "@adcp-wire/internal";

/**
 * How each task status chooses its schema. Terminal results use the task's response schema, interim
 * payloads the status-specific schema (mcp-guide.mdx and a2a-guide.mdx, "Data Schema Validation";
 * a2a-response-format.mdx, "Rule 3: Schema Validation"; `manifest.json` `task_result_resolution`).
 * `unknown` has no payload schema. Typed by the generated `TaskStatus`, so a version that adds a
 * status fails to compile here until it is classified.
 */
export const STATUS_KIND: Readonly<Record<TaskStatus, "terminal" | "interim" | "none">> = Object
  .freeze({
    submitted: "interim",
    working: "interim",
    "input-required": "interim",
    "auth-required": "interim",
    completed: "terminal",
    failed: "terminal",
    canceled: "terminal",
    rejected: "terminal",
    unknown: "none",
  });

/** Whether `v` is a task status. */
export function isTaskStatus(v: unknown): v is TaskStatus {
  return typeof v === "string" && Object.hasOwn(STATUS_KIND, v);
}

/**
 * Chooses the validator of a status from a task's module; `undefined` when the status has no
 * schema.
 */
export function chooseValidator(
  entry: TaskValidatorEntry,
  module: TaskValidatorModule,
  status: TaskStatus,
): { validate: CompiledValidator; schema: string } | undefined {
  const kind = STATUS_KIND[status];
  if (kind === "terminal") return { validate: module.response, schema: entry.responseSchema };
  if (kind === "none") return undefined;
  const s = status as InterimStatus;
  const validate = module.interim[s];
  const schema = entry.interimSchemas[s];
  return validate === undefined || schema === undefined ? undefined : { validate, schema };
}

/** The task names, sorted. */
export function taskNames(): string[] {
  return [...TASK_VALIDATORS.keys()];
}

/**
 * Looks up a task's index entry; `action` names the call in messages.
 *
 * @throws {TypeError} When the task is not a string or has no validators.
 */
export function taskEntry(task: unknown, action: string): TaskValidatorEntry {
  const entry = typeof task === "string" ? TASK_VALIDATORS.get(task) : undefined;
  if (entry === undefined) {
    const requirement = typeof task === "string"
      ? `a task of AdCP ${VALIDATORS_ADCP_VERSION} (${taskNames().join(", ")})`
      : "a string";
    throw optionError(TypeError, action, "task", requirement, task);
  }
  return entry;
}
