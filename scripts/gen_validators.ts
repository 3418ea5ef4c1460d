/**
 * Generation of the precompiled validators, which `deno task gen` (`scripts/gen.ts`, the one entry
 * point) runs after the types. Compiles the JSON Schema validators of the pinned AdCP version
 * (`spec/sources.jsonc` `schema_version`) into `packages/schemas/validators/`: Ajv standalone code
 * (draft-07, formats from ajv-formats), bundled by esbuild into self-contained ES modules. At run
 * time nothing compiles and nothing calls `new Function` or `eval`, so the validators work under a
 * strict Content Security Policy. Ajv, ajv-formats and esbuild are used here only.
 *
 * The steps, one module each under `scripts/_gen_validators/`:
 *
 * 1. `plan.ts`: which validators to build, from which schemas (`manifest.json`, `error-details/*`).
 * 2. `ajv.ts`: one Ajv compiles every exported validator to standalone code.
 * 3. `bundle.ts`: that code is cut into one module per validation function and bundled by esbuild.
 * 4. `templates.ts`: the headers, entry modules, `mod.ts`, `types.ts` and `.d.ts` files.
 *
 * What is generated (paths relative to `packages/schemas/validators/`):
 *
 * - `tasks/<task>.js`, one per task: `response` checks the task's terminal result (`manifest.json`
 *   `tools.<task>.response_schema`, or the `task_result_resolution.terminal_schema_overrides` entry
 *   of a task type that is no tool, such as `media_buy_delivery`), and `interim[status]` its
 *   interim payloads (`async_response_schemas`, named `*-async-response-<status>.json`).
 * - `core/error.js` (`core/error.json`), `core/mcp_webhook_payload.js`
 *   (`core/mcp-webhook-payload.json`, as published: its `result` union reaches most task schemas,
 *   which it shares with the task modules) and `error_details/<name>.js` for every
 *   `error-details/*` schema (see `advisoryDetailsVariant` in `plan.ts`); each exports `validate`.
 * - `chunks/<hash>.js`: code shared by several of the modules above. All schemas are compiled by
 *   one Ajv, its standalone output is cut into one module per validation function, and esbuild's
 *   code splitting groups those by the set of entry modules that reach them. Each validation
 *   function thus exists once in the output, and loading one task's module loads only the
 *   functions that task needs.
 * - `mod.ts` (the typed index: task → loader, standard error code → details schema), `types.ts`,
 *   and the `.d.ts` files that the `.js` entry modules point at with `// @ts-self-types`, so the JS
 *   is never type-checked.
 *
 * Output is byte-identical on rerun: inputs are sorted, chunk names are content hashes, and esbuild
 * sees npm files by paths relative to the npm cache. `mod.ts`, `types.ts` and the `.d.ts` files are
 * formatted by `deno fmt`; the `.js` files are esbuild's minified output (the folder is gitignored,
 * so `deno fmt` and `deno lint` skip it).
 *
 * @module
 */
import { ScriptError } from "./_cli.ts";
import { AJV_VERSIONS, compileStandalone, makeAjv } from "./_gen_validators/ajv.ts";
import {
  bundle,
  type Entry,
  ESBUILD_VERSION,
  functionModules,
  splitStandalone,
  stopEsbuild,
} from "./_gen_validators/bundle.ts";
import {
  INTERIM_STATUSES,
  type InterimStatus,
  planValidators,
  schemaId,
  variantId,
} from "./_gen_validators/plan.ts";
import {
  jsHeader,
  modTs,
  SCHEMA_DTS,
  SCHEMA_DTS_PATH,
  schemaEntrySource,
  selfTypesLine,
  TASK_DTS,
  TASK_DTS_PATH,
  taskEntrySource,
  tsHeader,
  TYPES_TS,
} from "./_gen_validators/templates.ts";
import {
  byString,
  denoFmt,
  listFiles,
  ROOT,
  schemaDir as defaultSchemaDir,
  writeChanged,
} from "./_sources.ts";

/** Where the generated validators live. */
export const VALIDATORS_DIR = `${ROOT}/packages/schemas/validators`;

/** One entry module to generate, with the export names of Ajv's output that it uses. */
type EntryPlan =
  | { out: string; kind: "task"; response: string; interim: [InterimStatus, string][] }
  | { out: string; kind: "schema"; validate: string };

/**
 * Generates every file of `packages/schemas/validators/`.
 *
 * @param version The AdCP version, such as `3.2.0-beta.5`.
 * @param schemaDir The synced schema folder of that version.
 * @returns Path relative to `packages/schemas/validators/` → contents, in a stable order.
 * @throws {ScriptError} When a schema is missing or unexpected, or a tool misbehaves.
 */
export async function generateValidators(
  version: string,
  schemaDir: string = defaultSchemaDir(version),
): Promise<Map<string, string>> {
  try {
    return await generate(version, schemaDir);
  } finally {
    await stopEsbuild();
  }
}

async function generate(version: string, schemaDir: string): Promise<Map<string, string>> {
  const { schemas, tasks, details, variants } = await planValidators(version, schemaDir);
  const warnings: string[] = [];
  const ajv = makeAjv([...schemas.values(), ...variants], warnings);

  // Every exported validator of every entry, compiled once by one Ajv: export name → `$id`.
  const exports: Record<string, string> = {};
  const addExport = (id: string): string => {
    const name = `e${Object.keys(exports).length}`;
    exports[name] = id;
    return name;
  };
  const entryPlans: EntryPlan[] = [];
  for (const plan of tasks) {
    const response = addExport(schemaId(version, plan.response));
    const interim = INTERIM_STATUSES.filter((status) => plan.interim[status] !== undefined)
      .map((status): [InterimStatus, string] => [
        status,
        addExport(schemaId(version, plan.interim[status]!)),
      ]);
    entryPlans.push({ out: `tasks/${plan.task}`, kind: "task", response, interim });
  }
  const addSchemaEntry = (out: string, id: string) =>
    entryPlans.push({ out, kind: "schema", validate: addExport(id) });
  addSchemaEntry("core/error", schemaId(version, "core/error.json"));
  addSchemaEntry("core/mcp_webhook_payload", schemaId(version, "core/mcp-webhook-payload.json"));
  for (const plan of details) {
    addSchemaEntry(plan.module, variantId(version, "advisory", plan.schema));
  }

  const statements = await splitStandalone(compileStandalone(ajv, exports));
  // Export name → the validation function Ajv exports under it.
  const functionOf = new Map<string, string>();
  for (const statement of statements) {
    if (statement.kind === "export") functionOf.set(statement.name, statement.target!);
  }
  for (const name of Object.keys(exports)) {
    if (!functionOf.has(name)) throw new ScriptError(`Ajv output exports no ${name}`);
  }
  const entries: Entry[] = entryPlans.map((plan) => ({
    out: plan.out,
    source: plan.kind === "task"
      ? taskEntrySource(
        functionOf.get(plan.response)!,
        plan.interim.map(([status, name]) => [status, functionOf.get(name)!] as const),
      )
      : schemaEntrySource(functionOf.get(plan.validate)!),
  }));
  const bundled = await bundle(entries, functionModules(statements));

  const files = new Map<string, string>();
  const entryPaths = new Set(entries.map((entry) => `${entry.out}.js`));
  const tools = { ...AJV_VERSIONS, esbuild: ESBUILD_VERSION };
  for (const [path, text] of [...bundled].sort(byString(([path]) => path))) {
    const lines = [jsHeader(version, path, tools), "// deno-lint-ignore-file"];
    if (entryPaths.has(path)) lines.push(selfTypesLine(path));
    files.set(path, `${lines.join("\n")}\n${text}`);
  }
  for (const path of entryPaths) {
    if (!files.has(path)) throw new ScriptError(`esbuild wrote no ${path}`);
  }
  const header = tsHeader(version);
  files.set(SCHEMA_DTS_PATH, await denoFmt(`${header}\n${SCHEMA_DTS}`, "ts"));
  files.set(TASK_DTS_PATH, await denoFmt(`${header}\n${TASK_DTS}`, "ts"));
  files.set("mod.ts", await denoFmt(modTs(version, tasks, details), "ts"));
  files.set("types.ts", await denoFmt(`${header}${TYPES_TS}`, "ts"));
  if (warnings.length > 0) {
    throw new ScriptError(`Ajv warned: ${[...new Set(warnings)].slice(0, 5).join("; ")}`);
  }
  return new Map([...files].sort(byString(([path]) => path)));
}

/**
 * Writes generated files into `packages/schemas/validators/` and deletes the files there that are
 * no longer generated (chunk names change with their contents). With `check`, writes nothing.
 *
 * @param files The output of {@link generateValidators}.
 * @param check Only compare.
 * @param dir The folder (tests use a temporary one).
 * @returns The paths that differed (written, or to write), and those deleted (or to delete).
 */
export async function writeValidators(
  files: Map<string, string>,
  check: boolean,
  dir: string = VALIDATORS_DIR,
): Promise<{ changed: string[]; removed: string[] }> {
  const changed = await writeChanged(files, dir, check);
  const removed = (await listFiles(dir)).filter((path) => !files.has(path));
  if (!check) {
    for (const path of removed) await Deno.remove(`${dir}/${path}`);
  }
  return { changed, removed };
}
