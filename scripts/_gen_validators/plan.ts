/**
 * Plan of the validators generator: which validators to build, from which schemas. Reads the task
 * table of `manifest.json` (each task's response and interim schemas), lists the `error-details/*`
 * schemas with the standard codes named after them, loads every schema of the version folder with
 * absolute `$id`s, and derives the advisory variants of the details schemas.
 *
 * @module
 */
import type { AnySchemaObject } from "ajv";
import { ScriptError } from "../_cli.ts";
import { byString, isRecord, listFiles, readSyncedJson, SCHEMA_ORIGIN } from "../_sources.ts";

/** The interim task statuses that can have an `*-async-response-<status>.json` schema. */
export const INTERIM_STATUSES = [
  "submitted",
  "working",
  "input-required",
  "auth-required",
] as const;
/** One of {@link INTERIM_STATUSES}. */
export type InterimStatus = typeof INTERIM_STATUSES[number];

/** What the generator knows of one task. */
export interface TaskPlan {
  /** The task name (`get_products`), also the module's file stem. */
  task: string;
  /** The schema checked for terminal results, relative to the version folder. */
  response: string;
  /** Interim status → schema, relative to the version folder. */
  interim: Partial<Record<InterimStatus, string>>;
}

/** An `error-details/*` schema, its module, and the standard code whose name it carries, if any. */
export interface DetailsPlan {
  /** The schema, relative to the version folder (`error-details/rate-limited.json`). */
  schema: string;
  /** The module's output path, without extension (`error_details/rate_limited`). */
  module: string;
  /** The standard error code named after the schema (`RATE_LIMITED`), if there is one. */
  code: string | undefined;
}

/** Everything one run generates validators for. */
export interface ValidatorsPlan {
  /** Every schema of the version folder by path relative to it, with its absolute `$id`. */
  schemas: Map<string, AnySchemaObject>;
  /** The tasks, sorted by name. */
  tasks: TaskPlan[];
  /** The `error-details/*` schemas, sorted by path. */
  details: DetailsPlan[];
  /** The advisory variant of each details schema (see {@link advisoryDetailsVariant}). */
  variants: AnySchemaObject[];
}

const TASK_RE = /^[a-z][a-z0-9_]*$/;
const SCHEMA_PATH_RE = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*\.json$/;
const CODE_RE = /^[A-Z][A-Z0-9_]*$/;

/** The absolute `$id` of a schema of the version folder. */
export function schemaId(version: string, path: string): string {
  return `${SCHEMA_ORIGIN}/schemas/${version}/${path}`;
}

/**
 * Where generated variants of upstream schemas live (an origin-relative path no upstream schema
 * uses).
 */
export function variantId(version: string, kind: string, path: string): string {
  return `${SCHEMA_ORIGIN}/schemas/${version}/_adcp-wire/${kind}/${path}`;
}

function checkSchemaPath(path: unknown, where: string): string {
  if (typeof path !== "string" || !SCHEMA_PATH_RE.test(path)) {
    throw new ScriptError(`${where}: expected a schema path, got ${JSON.stringify(path)}`);
  }
  return path;
}

/**
 * Reads the task table of `manifest.json`: every tool's response schema and interim schemas, plus
 * the task types that only `task_result_resolution.terminal_schema_overrides` names
 * (`media_buy_delivery` in 3.2).
 *
 * @param schemaDir The synced folder of one version.
 * @returns The tasks, sorted by name.
 */
export async function planTasks(schemaDir: string): Promise<TaskPlan[]> {
  const manifest = await readSyncedJson(`${schemaDir}/manifest.json`);
  if (!isRecord(manifest) || !isRecord(manifest.tools)) {
    throw new ScriptError(`${schemaDir}/manifest.json has no tools table`);
  }
  const plans = new Map<string, TaskPlan>();
  for (const [task, tool] of Object.entries(manifest.tools)) {
    if (!TASK_RE.test(task) || !isRecord(tool)) {
      throw new ScriptError(`manifest.json: unexpected tool entry ${JSON.stringify(task)}`);
    }
    const response = checkSchemaPath(tool.response_schema, `tools.${task}.response_schema`);
    const interim: TaskPlan["interim"] = {};
    const asyncSchemas = tool.async_response_schemas ?? [];
    if (!Array.isArray(asyncSchemas)) {
      throw new ScriptError(`manifest.json: tools.${task}.async_response_schemas is no list`);
    }
    for (const asyncSchema of asyncSchemas) {
      const path = checkSchemaPath(asyncSchema, `tools.${task}.async_response_schemas`);
      const status = /-async-response-([a-z-]+)\.json$/.exec(path)?.[1];
      if (status === undefined || !(INTERIM_STATUSES as readonly string[]).includes(status)) {
        throw new ScriptError(
          `manifest.json: tools.${task}: ${path} names no interim status (${
            INTERIM_STATUSES.join(", ")
          })`,
        );
      }
      if (interim[status as InterimStatus] !== undefined) {
        throw new ScriptError(`manifest.json: tools.${task}: two ${status} schemas`);
      }
      interim[status as InterimStatus] = path;
    }
    plans.set(task, { task, response, interim });
  }
  const resolution = manifest.task_result_resolution;
  const overrides = isRecord(resolution) ? resolution.terminal_schema_overrides ?? {} : {};
  if (!isRecord(overrides)) {
    throw new ScriptError("manifest.json: terminal_schema_overrides is no object");
  }
  for (const [task, path] of Object.entries(overrides)) {
    if (!TASK_RE.test(task)) {
      throw new ScriptError(`manifest.json: unexpected task type ${JSON.stringify(task)}`);
    }
    if (plans.has(task)) {
      // A tool whose polled terminal result differs from its direct result would need two
      // validators.
      throw new ScriptError(
        `manifest.json: terminal_schema_overrides names the tool ${task}, ` +
          "which the validators generator does not support",
      );
    }
    plans.set(task, {
      task,
      response: checkSchemaPath(path, `terminal_schema_overrides.${task}`),
      interim: {},
    });
  }
  return [...plans.values()].sort(byString((plan) => plan.task));
}

/** Every `$ref` of a schema document. */
function collectRefs(document: unknown): string[] {
  const refs: string[] = [];
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    else if (isRecord(value)) {
      if (typeof value.$ref === "string") refs.push(value.$ref);
      stack.push(...Object.values(value));
    }
  }
  return refs;
}

/**
 * Every schema of the version folder, keyed by path relative to it. Each `$id` must match the
 * file's path (it is made absolute), and every `$ref` must be absolute, root-relative or local, so
 * that a copy of a schema under another path of the same origin (the variants) resolves its
 * references exactly as the original does.
 *
 * @param version The AdCP version.
 * @param schemaDir The synced folder of that version.
 * @returns The schemas by relative path, in path order.
 */
export async function loadSchemas(
  version: string,
  schemaDir: string,
): Promise<Map<string, AnySchemaObject>> {
  const out = new Map<string, AnySchemaObject>();
  for (const path of await listFiles(schemaDir)) {
    if (!path.endsWith(".json")) continue;
    const document = await readSyncedJson(`${schemaDir}/${path}`);
    // index.json and manifest.json are no schemas.
    if (!isRecord(document) || typeof document.$id !== "string") continue;
    // Some 3.1 schemas have a root-relative $id; Ajv needs absolute ones to match the absolute
    // $refs of others.
    const id = schemaId(version, path);
    if (new URL(document.$id, SCHEMA_ORIGIN).href !== id) {
      throw new ScriptError(
        `${path}: $id ${JSON.stringify(document.$id)} does not match its path`,
      );
    }
    document.$id = id;
    for (const ref of collectRefs(document)) {
      if (!/^(?:https:\/\/|\/|#)/.test(ref)) {
        throw new ScriptError(`${path}: relative $ref ${JSON.stringify(ref)} is not supported`);
      }
    }
    out.set(path, document as AnySchemaObject);
  }
  return out;
}

/**
 * An `error-details/*` schema as validated by the advisory check: the copy accepts keys of
 * `details` it does not name (its root `additionalProperties` is dropped). Nested objects keep
 * upstream's rules.
 *
 * @param schema The upstream schema.
 * @param id The `$id` of the variant.
 * @returns A modified copy.
 */
export function advisoryDetailsVariant(schema: AnySchemaObject, id: string): AnySchemaObject {
  const copy = structuredClone(schema);
  delete copy.additionalProperties;
  copy.$id = id;
  return copy;
}

/**
 * The `error-details/*` schemas among `schemas`, each with its module path and the standard code of
 * `enums/error-code.json` named after it (`rate-limited.json` → `RATE_LIMITED`), if any.
 */
async function planDetails(
  schemas: Map<string, AnySchemaObject>,
  schemaDir: string,
): Promise<DetailsPlan[]> {
  const enumSchema = await readSyncedJson(`${schemaDir}/enums/error-code.json`);
  const codes = new Set(
    isRecord(enumSchema) && Array.isArray(enumSchema.enum) ? enumSchema.enum.map(String) : [],
  );
  const out: DetailsPlan[] = [];
  for (const path of schemas.keys()) {
    const stem = /^error-details\/([a-z0-9-]+)\.json$/.exec(path)?.[1];
    if (stem === undefined) continue;
    const code = stem.toUpperCase().replace(/-/g, "_");
    out.push({
      schema: path,
      module: `error_details/${stem.replace(/-/g, "_")}`,
      code: codes.has(code) && CODE_RE.test(code) ? code : undefined,
    });
  }
  return out.sort(byString((details) => details.schema));
}

/**
 * Plans one run: loads the schemas, reads the tasks and the details schemas, checks that every
 * schema the manifest names is synced, and derives the advisory variants.
 *
 * @param version The AdCP version.
 * @param schemaDir The synced folder of that version.
 * @returns The plan.
 * @throws {ScriptError} When the synced folder lacks a schema or has one of an unexpected shape.
 */
export async function planValidators(
  version: string,
  schemaDir: string,
): Promise<ValidatorsPlan> {
  const schemas = await loadSchemas(version, schemaDir);
  const tasks = await planTasks(schemaDir);
  const details = await planDetails(schemas, schemaDir);
  for (const path of tasks.flatMap((plan) => [plan.response, ...Object.values(plan.interim)])) {
    if (!schemas.has(path)) {
      throw new ScriptError(`manifest.json names ${path}, which is not synced`);
    }
  }
  for (const path of ["core/error.json", "core/mcp-webhook-payload.json"]) {
    if (!schemas.has(path)) {
      throw new ScriptError(`Missing ${path}; run \`deno task sync\` first`);
    }
  }
  const variants = details.map((plan) =>
    advisoryDetailsVariant(schemas.get(plan.schema)!, variantId(version, "advisory", plan.schema))
  );
  return { schemas, tasks, details, variants };
}
