/**
 * `deno run --allow-read --allow-write --allow-env --allow-run scripts/gen_validators.ts [--check]`
 * (also chained into `deno task gen`)
 *
 * Precompiles the JSON Schema validators of the pinned AdCP version (`spec/sources.jsonc` `schema_version`) into
 * `packages/schemas/validators/`: Ajv standalone code (draft-07, formats from ajv-formats), bundled by esbuild into
 * self-contained ES modules. At run time nothing compiles and nothing calls `new Function` or `eval`, so the
 * validators work under a strict Content Security Policy. Ajv, ajv-formats and esbuild are used here only.
 *
 * What is generated (paths relative to `packages/schemas/validators/`):
 *
 * - `tasks/<task>.js`, one per task: `response` checks the task's terminal result (`manifest.json`
 *   `tools.<task>.response_schema`, or the `task_result_resolution.terminal_schema_overrides` entry of a task type
 *   that is no tool, such as `media_buy_delivery`), and `interim[status]` its interim payloads
 *   (`async_response_schemas`, named `*-async-response-<status>.json`).
 * - `core/error.js` (`core/error.json`), `core/mcp_webhook_payload.js` (`core/mcp-webhook-payload.json`, as
 *   published: its `result` union reaches most task schemas, which it shares with the task modules) and
 *   `error_details/<name>.js` for every `error-details/*` schema (see {@link advisoryDetailsVariant}); each exports
 *   `validate`.
 * - `chunks/<hash>.js`: code shared by several of the modules above. All schemas are compiled by one Ajv, its
 *   standalone output is cut into one module per validation function, and esbuild's code splitting groups those by
 *   the set of entry modules that reach them. Each validation function thus exists once in the output, and loading
 *   one task's module loads only the functions that task needs.
 * - `mod.ts` (the typed index: task → loader, standard error code → details schema), `types.ts`, and the `.d.ts`
 *   files that the `.js` entry modules point at with `// @ts-self-types`, so the JS is never type-checked.
 *
 * Output is byte-identical on rerun: inputs are sorted, chunk names are content hashes, and esbuild sees npm files
 * by paths relative to the npm cache. `mod.ts`, `types.ts` and the `.d.ts` files are formatted by `deno fmt`; the
 * `.js` files are esbuild's minified output (the folder is gitignored, so `deno fmt` and `deno lint` skip it).
 * `--check` writes nothing and fails when the folder differs from what would be generated.
 *
 * @module
 */
import { _, Ajv, type AnySchemaObject, type KeywordCxt } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import ajvFormatsModule, { type FormatsPlugin } from "ajv-formats";
import * as esbuild from "esbuild";
import { createRequire } from "node:module";
import {
  denoFmt,
  listFiles,
  readSources,
  ROOT,
  schemaDir as defaultSchemaDir,
  writeChanged,
} from "./_sources.ts";

/** Where the generated validators live. */
export const VALIDATORS_DIR = `${ROOT}/packages/schemas/validators`;

const SITE = "https://adcontextprotocol.org";

/** A generation failure reported in one line. */
export class GenValidatorsError extends Error {
  override name = "GenValidatorsError";
}

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

// Both packages are CommonJS whose `module.exports` is also their `default`; Deno's default import is `module.exports`.
const standaloneCode = (standaloneModule as unknown as { default: typeof standaloneModule.default })
  .default;
const addFormats = (ajvFormatsModule as unknown as { default: FormatsPlugin }).default;

const require = createRequire(import.meta.url);

function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new GenValidatorsError(`Missing ${path}; run \`deno task sync\` first`);
    }
    throw e;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function byString<T>(key: (t: T) => string): (a: T, b: T) => number {
  return (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

const TASK_RE = /^[a-z][a-z0-9_]*$/;
const SCHEMA_PATH_RE = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*\.json$/;
const CODE_RE = /^[A-Z][A-Z0-9_]*$/;

function checkSchemaPath(p: unknown, where: string): string {
  if (typeof p !== "string" || !SCHEMA_PATH_RE.test(p)) {
    throw new GenValidatorsError(`${where}: expected a schema path, got ${JSON.stringify(p)}`);
  }
  return p;
}

/**
 * Reads the task table of `manifest.json`: every tool's response schema and interim schemas, plus the task types
 * that only `task_result_resolution.terminal_schema_overrides` names (`media_buy_delivery` in 3.2).
 *
 * @param schemaDir The synced folder of one version.
 * @returns The tasks, sorted by name.
 */
export async function planTasks(schemaDir: string): Promise<TaskPlan[]> {
  const manifest = await readJson(`${schemaDir}/manifest.json`);
  if (!isRecord(manifest) || !isRecord(manifest.tools)) {
    throw new GenValidatorsError(`${schemaDir}/manifest.json has no tools table`);
  }
  const plans = new Map<string, TaskPlan>();
  for (const [task, tool] of Object.entries(manifest.tools)) {
    if (!TASK_RE.test(task) || !isRecord(tool)) {
      throw new GenValidatorsError(`manifest.json: unexpected tool entry ${JSON.stringify(task)}`);
    }
    const response = checkSchemaPath(tool.response_schema, `tools.${task}.response_schema`);
    const interim: TaskPlan["interim"] = {};
    const asyncSchemas = tool.async_response_schemas ?? [];
    if (!Array.isArray(asyncSchemas)) {
      throw new GenValidatorsError(
        `manifest.json: tools.${task}.async_response_schemas is no list`,
      );
    }
    for (const a of asyncSchemas) {
      const path = checkSchemaPath(a, `tools.${task}.async_response_schemas`);
      const status = /-async-response-([a-z-]+)\.json$/.exec(path)?.[1];
      if (status === undefined || !(INTERIM_STATUSES as readonly string[]).includes(status)) {
        throw new GenValidatorsError(
          `manifest.json: tools.${task}: ${path} names no interim status (${
            INTERIM_STATUSES.join(", ")
          })`,
        );
      }
      if (interim[status as InterimStatus] !== undefined) {
        throw new GenValidatorsError(`manifest.json: tools.${task}: two ${status} schemas`);
      }
      interim[status as InterimStatus] = path;
    }
    plans.set(task, { task, response, interim });
  }
  const resolution = manifest.task_result_resolution;
  const overrides = isRecord(resolution) ? resolution.terminal_schema_overrides ?? {} : {};
  if (!isRecord(overrides)) {
    throw new GenValidatorsError("manifest.json: terminal_schema_overrides is no object");
  }
  for (const [task, path] of Object.entries(overrides)) {
    if (!TASK_RE.test(task)) {
      throw new GenValidatorsError(`manifest.json: unexpected task type ${JSON.stringify(task)}`);
    }
    if (plans.has(task)) {
      // A tool whose polled terminal result differs from its direct result would need two validators.
      throw new GenValidatorsError(
        `manifest.json: terminal_schema_overrides names the tool ${task}, which gen_validators does not support`,
      );
    }
    plans.set(task, {
      task,
      response: checkSchemaPath(path, `terminal_schema_overrides.${task}`),
      interim: {},
    });
  }
  return [...plans.values()].sort(byString((p) => p.task));
}

/** Every `$ref` of a schema document. */
function collectRefs(doc: unknown): string[] {
  const refs: string[] = [];
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (isRecord(v)) {
      if (typeof v.$ref === "string") refs.push(v.$ref);
      stack.push(...Object.values(v));
    }
  }
  return refs;
}

/**
 * Every schema of the version folder, keyed by path relative to it. Each `$id` must match the file's path (it is
 * made absolute), and every
 * `$ref` must be absolute, root-relative or local, so that a copy of a schema under another path of the same origin
 * (the variants below) resolves its references exactly as the original does.
 */
async function loadSchemas(
  version: string,
  schemaDir: string,
): Promise<Map<string, AnySchemaObject>> {
  const prefix = `${SITE}/schemas/${version}/`;
  const out = new Map<string, AnySchemaObject>();
  for (const rel of await listFiles(schemaDir)) {
    if (!rel.endsWith(".json")) continue;
    const doc = await readJson(`${schemaDir}/${rel}`);
    if (!isRecord(doc) || typeof doc.$id !== "string") continue; // index.json, manifest.json
    // Some 3.1 schemas have a root-relative $id; Ajv needs absolute ones to match the absolute $refs of others.
    if (new URL(doc.$id, SITE).href !== `${prefix}${rel}`) {
      throw new GenValidatorsError(
        `${rel}: $id ${JSON.stringify(doc.$id)} does not match its path`,
      );
    }
    doc.$id = `${prefix}${rel}`;
    for (const ref of collectRefs(doc)) {
      if (!/^(?:https:\/\/|\/|#)/.test(ref)) {
        throw new GenValidatorsError(
          `${rel}: relative $ref ${JSON.stringify(ref)} is not supported`,
        );
      }
    }
    out.set(rel, doc as AnySchemaObject);
  }
  return out;
}

/** Where generated variants of upstream schemas live (an origin-relative path no upstream schema uses). */
function variantId(version: string, kind: string, rel: string): string {
  return `${SITE}/schemas/${version}/_adcp-wire/${kind}/${rel}`;
}

/**
 * An `error-details/*` schema as validated by the advisory check: the copy accepts keys of `details` it does not
 * name (its root `additionalProperties` is dropped). Nested objects keep upstream's rules.
 *
 * @param doc The upstream schema.
 * @param id The `$id` of the variant.
 * @returns A modified copy.
 */
export function advisoryDetailsVariant(doc: AnySchemaObject, id: string): AnySchemaObject {
  const copy = structuredClone(doc);
  delete copy.additionalProperties;
  copy.$id = id;
  return copy;
}

/**
 * The first pair of equal items of an array, as `[earlier, later]` indices, or `undefined`. Items are equal when their
 * canonical JSON (object keys sorted; `-0` is `0`) is, which is JSON Schema's equality for JSON data. One pass with a
 * map: O(total size), where Ajv's own `uniqueItems` compares every pair of object or array items (O(n²): 32,000
 * distinct small objects, 500 KB of JSON, took 20 s), a denial of service on untrusted input.
 *
 * Runs inside the generated validators: its source is copied there (`Function.prototype.toString`), so it must
 * reference nothing outside itself.
 *
 * @param items The array.
 * @returns The indices of the first duplicate found.
 */
export function findDuplicateItem(items: readonly unknown[]): [number, number] | undefined {
  // Iterative, with an explicit stack: callers may raise the depth limit far past what recursion survives
  // (a recursive version overflowed the call stack between 1,000 and 3,000 levels).
  const canonical = (root: unknown): string => {
    const parts: string[] = [];
    const stack: unknown[] = [root];
    const isText: boolean[] = [false]; // whether the stack entry at the same index is text to emit as is
    while (stack.length > 0) {
      const v = stack.pop();
      if (isText.pop() === true) {
        parts.push(v as string);
      } else if (typeof v === "number") {
        parts.push(v === 0 ? "0" : String(v));
      } else if (v === null || typeof v !== "object") {
        parts.push(JSON.stringify(v) ?? "undefined");
      } else if (Array.isArray(v)) {
        // Pushed in reverse, popped as "[", item 0, ",", item 1, ..., "]".
        stack.push("]"), isText.push(true);
        for (let i = v.length - 1; i >= 0; i--) {
          stack.push(v[i]), isText.push(false);
          if (i > 0) stack.push(","), isText.push(true);
        }
        stack.push("["), isText.push(true);
      } else {
        const o = v as Record<string, unknown>;
        const keys = Object.keys(o).sort();
        stack.push("}"), isText.push(true);
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i] as string;
          stack.push(o[k]), isText.push(false);
          stack.push(`${JSON.stringify(k)}:`), isText.push(true);
          if (i > 0) stack.push(","), isText.push(true);
        }
        stack.push("{"), isText.push(true);
      }
    }
    return parts.join("");
  };
  // Scalars are their own keys (a Map compares them by SameValueZero, so "1" is not 1 and -0 is 0); containers are
  // keyed by their canonical text in a second map, so the string "{}" is not the object {}.
  const scalars = new Map<unknown, number>();
  const containers = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    const isContainer = v !== null && typeof v === "object";
    const key = isContainer ? canonical(v) : v;
    const seen = isContainer ? containers.get(key as string) : scalars.get(key);
    if (seen !== undefined) return [seen, i];
    if (isContainer) containers.set(key as string, i);
    else scalars.set(key, i);
  }
  return undefined;
}

/** The virtual module that carries {@link findDuplicateItem} into the output. */
const UNIQUE_ITEMS_MODULE = `export const findDuplicateItem = ${findDuplicateItem.toString()};\n`;

/**
 * Replaces Ajv's `uniqueItems` by one that calls {@link findDuplicateItem}: same keyword, same `{ i, j }` params
 * (`j` the earlier index, `i` the later), linear time.
 */
function linearUniqueItems(ajv: Ajv): void {
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    error: {
      message: "must NOT have duplicate items",
      params: ({ params }) => _`{i: ${params.i}, j: ${params.j}}`,
    },
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      const { gen, data } = cxt;
      const find = gen.scopeValue("func", {
        ref: findDuplicateItem,
        code: _`require("adcp:runtime/unique_items").findDuplicateItem`,
      });
      const dup = gen.const("dup", _`${find}(${data})`);
      cxt.setParams({ i: _`${dup}[1]`, j: _`${dup}[0]` });
      cxt.fail(_`${dup} !== undefined`);
    },
  });
}

/**
 * One Ajv holding every schema of the version and the variants. `strict: false` because upstream uses vocabulary Ajv
 * does not know (`enumDescriptions`, `enumMetadata`, `x-status`, `x-entity`…). `allErrors` stays off: on untrusted
 * input validation stops at the first failure (Ajv's security advice), which also keeps the code smaller.
 * `messages: false`: `@adcp-wire/validation` writes its own messages from `keyword` and `params`. `uniqueItems` runs
 * in linear time (see {@link findDuplicateItem}).
 */
function makeAjv(schemas: Iterable<AnySchemaObject>, warnings: string[]): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    messages: false,
    inlineRefs: false,
    code: {
      source: true,
      esm: true,
      lines: true,
      formats: _`require("ajv-formats/dist/formats").fullFormats`,
    },
    logger: {
      log: () => {},
      warn: (...args: unknown[]) => void warnings.push(args.map(String).join(" ")),
      error: (...args: unknown[]) => {
        throw new GenValidatorsError(`Ajv: ${args.map(String).join(" ")}`);
      },
    },
  });
  addFormats(ajv);
  linearUniqueItems(ajv);
  for (const doc of schemas) ajv.addSchema(doc);
  return ajv;
}

/** A top-level statement of Ajv's standalone output. */
interface Statement {
  kind: "export" | "function" | "const";
  /** The name it declares (`validate12`, `schema3`…) or exports. */
  name: string;
  /** For an export, the function exported. */
  target?: string;
  text: string;
}

const NAME_RE = /(?<![\w$.])((?:validate|schema|func|formats|pattern|wrapper)\d+)\b/g;

/**
 * Cuts Ajv's standalone output into its top-level statements. The code is first printed by esbuild, after which
 * every top-level statement starts in column 0 and its continuation lines are indented or close a bracket.
 */
async function splitStandalone(code: string): Promise<Statement[]> {
  const printed = (await esbuild.transform(code, { loader: "js", charset: "utf8" })).code;
  const chunks: string[][] = [];
  for (const line of printed.split("\n")) {
    if (line === "") continue;
    if (/^[\s})\]]/.test(line)) {
      const last = chunks.at(-1);
      if (last === undefined) {
        throw new GenValidatorsError(`Unexpected line in Ajv output: ${line}`);
      }
      last.push(line);
    } else chunks.push([line]);
  }
  const out: Statement[] = [];
  for (const lines of chunks) {
    const text = lines.join("\n");
    let m: RegExpExecArray | null;
    if (text === '"use strict";') continue;
    if ((m = /^export const (\w+) = (validate\d+);$/.exec(text))) {
      out.push({ kind: "export", name: m[1]!, target: m[2]!, text });
    } else if ((m = /^function (validate\d+)\(/.exec(text))) {
      out.push({ kind: "function", name: m[1]!, text });
    } else if ((m = /^(validate\d+)\.evaluated = /.exec(text))) {
      const fn = out.findLast((s) => s.kind === "function" && s.name === m![1]);
      if (fn === undefined) {
        throw new GenValidatorsError(`Ajv output: ${m[1]}.evaluated before ${m[1]}`);
      }
      fn.text += `\n${text}`;
    } else if ((m = /^const ((?:schema|func|formats|pattern|wrapper)\d+) = /.exec(text))) {
      out.push({ kind: "const", name: m[1]!, text });
    } else {
      throw new GenValidatorsError(`Unexpected statement in Ajv output: ${text.slice(0, 120)}`);
    }
  }
  return out;
}

/**
 * Turns the statements into one virtual ES module per validation function (`fn/validateN`), each with private
 * copies of the constants it uses and imports of the functions it calls.
 */
function functionModules(statements: Statement[]): Map<string, string> {
  const consts = new Map(
    statements.filter((s) => s.kind === "const").map((s) => [s.name, s.text] as const),
  );
  const functions = new Map(
    statements.filter((s) => s.kind === "function").map((s) => [s.name, s.text] as const),
  );
  const modules = new Map<string, string>();
  for (const [name, text] of functions) {
    const imports = new Set<string>();
    const usedConsts = new Set<string>();
    const visit = (t: string) => {
      for (const [, ref] of t.matchAll(NAME_RE)) {
        if (ref === name || imports.has(ref!) || usedConsts.has(ref!)) continue;
        if (functions.has(ref!)) imports.add(ref!);
        else if (consts.has(ref!)) {
          usedConsts.add(ref!);
          visit(consts.get(ref!)!); // a wrapper names a function
        }
      }
    };
    visit(text);
    const head = [...imports].sort().map((f) => `import { ${f} } from "adcp:fn/${f}";`);
    // Constants in their order in Ajv's output, which declares each before its first use.
    const body = [...consts.keys()].filter((c) => usedConsts.has(c)).map((c) => consts.get(c)!);
    modules.set(name, [...head, ...body, text, `export { ${name} };`, ""].join("\n"));
  }
  return modules;
}

/** Display path of a file of the npm cache (or a node_modules folder), free of machine-specific prefixes. */
function stablePath(abs: string): string {
  const nm = abs.lastIndexOf("/node_modules/");
  if (nm >= 0) return abs.slice(nm + "/node_modules/".length);
  const reg = abs.indexOf("/registry.npmjs.org/");
  if (reg >= 0) return abs.slice(reg + "/registry.npmjs.org/".length);
  throw new GenValidatorsError(`Cannot place ${abs} in the npm cache`);
}

/** One generated entry module: its output path (no extension) and virtual source. */
interface Entry {
  out: string;
  source: string;
}

/**
 * Bundles the entries with code splitting. `adcp:` modules are virtual; every other import (Ajv's runtime helpers,
 * ajv-formats, their dependencies) is resolved by Node's algorithm from the npm cache Deno filled.
 */
async function bundle(entries: Entry[], fns: Map<string, string>): Promise<Map<string, string>> {
  const byStable = new Map<string, string>();
  const entrySource = new Map(entries.map((e) => [e.out, e.source]));
  const plugin: esbuild.Plugin = {
    name: "adcp-wire-validators",
    setup(build) {
      build.onResolve({ filter: /^adcp:/ }, (args) => ({
        path: args.path.slice("adcp:".length),
        namespace: "adcp",
      }));
      build.onResolve({ filter: /.*/ }, (args) => {
        const from = args.namespace === "npm"
          ? byStable.get(args.importer)!
          : import.meta.filename!;
        const abs = createRequire(from).resolve(args.path);
        const path = stablePath(abs);
        byStable.set(path, abs);
        return { path, namespace: "npm" };
      });
      build.onLoad({ filter: /.*/, namespace: "adcp" }, (args) => {
        const contents = args.path === "runtime/unique_items"
          ? UNIQUE_ITEMS_MODULE
          : args.path.startsWith("fn/")
          ? fns.get(args.path.slice(3))
          : entrySource.get(args.path.slice("entry/".length));
        if (contents === undefined) throw new GenValidatorsError(`No virtual module ${args.path}`);
        return { contents, loader: "js" };
      });
      build.onLoad({ filter: /.*/, namespace: "npm" }, async (args) => ({
        contents: await Deno.readTextFile(byStable.get(args.path)!),
        loader: args.path.endsWith(".json") ? "json" : "js",
      }));
    },
  };
  const outdir = "/adcp-wire-validators";
  const result = await esbuild.build({
    entryPoints: entries.map((e) => ({ in: `adcp:entry/${e.out}`, out: e.out })),
    bundle: true,
    splitting: true,
    write: false,
    outdir,
    chunkNames: "chunks/[hash]",
    format: "esm",
    platform: "neutral",
    target: "es2022",
    charset: "utf8",
    legalComments: "inline",
    minify: true,
    logLevel: "silent",
    plugins: [plugin],
  });
  if (result.errors.length > 0) {
    throw new GenValidatorsError(`esbuild: ${result.errors.map((e) => e.text).join("; ")}`);
  }
  const out = new Map<string, string>();
  for (const f of result.outputFiles) {
    if (!f.path.startsWith(`${outdir}/`)) throw new GenValidatorsError(`esbuild wrote ${f.path}`);
    out.set(f.path.slice(outdir.length + 1), f.text);
  }
  return out;
}

function header(version: string, what: string): string {
  return [
    `// Generated by \`deno task gen\` from the AdCP ${version} schemas (spec/schemas/${version}): ${what}`,
    `// Ajv ${packageVersion("ajv")} standalone code with ajv-formats ${
      packageVersion("ajv-formats")
    }, bundled by esbuild ${esbuild.version}.`,
    "// Do not edit: change scripts/gen_validators.ts or pin another version, then run `deno task gen`.",
  ].join("\n");
}

const kebabToSnake = (s: string) => s.replace(/-/g, "_");

/** An error-details schema, and the standard code whose name it carries, if any. */
interface DetailsPlan {
  schema: string;
  module: string;
  code: string | undefined;
}

async function planDetails(
  schemas: Map<string, AnySchemaObject>,
  schemaDir: string,
): Promise<DetailsPlan[]> {
  const enumDoc = await readJson(`${schemaDir}/enums/error-code.json`);
  const codes = new Set(
    isRecord(enumDoc) && Array.isArray(enumDoc.enum) ? enumDoc.enum.map(String) : [],
  );
  const out: DetailsPlan[] = [];
  for (const rel of schemas.keys()) {
    const m = /^error-details\/([a-z0-9-]+)\.json$/.exec(rel);
    if (!m) continue;
    const code = m[1]!.toUpperCase().replace(/-/g, "_");
    out.push({
      schema: rel,
      module: `error_details/${kebabToSnake(m[1]!)}`,
      code: codes.has(code) && CODE_RE.test(code) ? code : undefined,
    });
  }
  return out.sort(byString((d) => d.schema));
}

function tsString(s: string): string {
  return JSON.stringify(s);
}

const TYPES_TS = `
/**
 * One failure, as a precompiled validator reports it (the error object of Ajv's standalone code; its \`message\` is
 * not generated).
 */
export interface CompiledValidatorError {
  /** RFC 6901 pointer to the failing value, \`""\` for the root. */
  readonly instancePath: string;
  /** Path of the failing keyword inside its schema, such as \`#/properties/products/type\`. */
  readonly schemaPath: string;
  /** The JSON Schema keyword that failed (\`required\`, \`type\`, \`enum\`…). */
  readonly keyword: string;
  /** Keyword-specific details, such as \`missingProperty\` for \`required\`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * A precompiled validator. It returns whether \`data\` conforms; after \`false\`, \`errors\` holds the failures of that
 * call (validation stops at the first failure, so usually one, plus the failures of the branches of a failed
 * \`anyOf\` or \`oneOf\`).
 */
export interface CompiledValidator {
  /** Validates \`data\`. */
  (data: unknown): boolean;
  /** The failures of the last call, \`null\` after a success. */
  readonly errors?: readonly CompiledValidatorError[] | null;
}

/** The interim task statuses that can have their own payload schema (\`*-async-response-<status>.json\`). */
export type InterimStatus = "submitted" | "working" | "input-required" | "auth-required";

/** The module of one task's validators. */
export interface TaskValidatorModule {
  /** Checks a terminal result (\`completed\`, \`failed\`, \`canceled\`, \`rejected\`). */
  readonly response: CompiledValidator;
  /** Checks an interim payload, by status; a status without a schema has no entry. */
  readonly interim: Readonly<Partial<Record<InterimStatus, CompiledValidator>>>;
}

/** The module of one standalone schema's validator. */
export interface SchemaValidatorModule {
  /** Checks a value against the schema. */
  readonly validate: CompiledValidator;
}

/** One task of the index: its schemas and a loader of its module. */
export interface TaskValidatorEntry {
  /** The task name, such as \`get_products\`. */
  readonly task: string;
  /** The terminal result schema, relative to the version's schema folder. */
  readonly responseSchema: string;
  /** Interim payload schemas by status, relative to the version's schema folder. */
  readonly interimSchemas: Readonly<Partial<Record<InterimStatus, string>>>;
  /** Loads the task's module (a dynamic import; the module is cached after the first call). */
  load(): Promise<TaskValidatorModule>;
}

/** One standalone schema of the index and a loader of its module. */
export interface SchemaValidatorEntry {
  /** The schema, relative to the version's schema folder. */
  readonly schema: string;
  /** Loads the module (a dynamic import; the module is cached after the first call). */
  load(): Promise<SchemaValidatorModule>;
}
`;

const TASK_DTS = `import type { CompiledValidator, InterimStatus } from "./types.ts";

/** Checks a terminal result of the task. */
export declare const response: CompiledValidator;
/** Checks an interim payload of the task, by status. */
export declare const interim: Readonly<Partial<Record<InterimStatus, CompiledValidator>>>;
`;

const SCHEMA_DTS = `import type { CompiledValidator } from "./types.ts";

/** Checks a value against the schema. */
export declare const validate: CompiledValidator;
`;

function modTs(
  version: string,
  plans: TaskPlan[],
  details: DetailsPlan[],
): string {
  const taskRows = plans.map((p) => {
    const interim = INTERIM_STATUSES.filter((s) => p.interim[s] !== undefined)
      .map((s) => `${tsString(s)}: ${tsString(p.interim[s]!)}`).join(", ");
    return `  [${tsString(p.task)}, {
    task: ${tsString(p.task)},
    responseSchema: ${tsString(p.response)},
    interimSchemas: Object.freeze({ ${interim} }),
    load: () => import(${tsString(`./tasks/${p.task}.js`)}),
  }],`;
  });
  const detailRows = details.map((d) =>
    `  [${tsString(d.schema)}, { schema: ${tsString(d.schema)}, load: () => import(${
      tsString(`./${d.module}.js`)
    }) }],`
  );
  const codeRows = details.filter((d) => d.code !== undefined).map((d) =>
    `  [${tsString(d.code!)}, ${tsString(d.schema)}],`
  );
  return `// Generated by \`deno task gen\` from the AdCP ${version} schemas (spec/schemas/${version}).
// Do not edit: change scripts/gen_validators.ts or pin another version, then run \`deno task gen\`.

/**
 * Precompiled validators of the AdCP ${version} schemas: every task's response and interim payload schemas,
 * \`core/error.json\`, \`core/mcp-webhook-payload.json\` and \`error-details/*\`. Each module is loaded by dynamic
 * import when first needed; none compiles code or calls \`eval\` at run time. Most callers want
 * \`@adcp-wire/validation\`, which wraps these with issue reporting and pollution-safe copies.
 *
 * @example Loading one task's validator
 * \`\`\`ts
 * import { TASK_VALIDATORS } from "@adcp-wire/schemas/validators";
 * import { ok } from "node:assert/strict";
 *
 * const entry = TASK_VALIDATORS.get("get_products");
 * ok(entry !== undefined);
 * const { response } = await entry.load();
 * ok(!response({ products: "none" }));
 * \`\`\`
 *
 * @module
 */
import type { SchemaValidatorEntry, TaskValidatorEntry } from "./types.ts";

export type * from "./types.ts";

/** The AdCP version the validators were compiled from. */
export const VALIDATORS_ADCP_VERSION = ${tsString(version)};

/**
 * Every task's validators by task name: the tools of \`manifest.json\` and the task types that only
 * \`task_result_resolution.terminal_schema_overrides\` names.
 */
export const TASK_VALIDATORS: ReadonlyMap<string, TaskValidatorEntry> = new Map<
  string,
  TaskValidatorEntry
>([
${taskRows.join("\n")}
]);

/** The validator of \`core/error.json\`, as published. */
export const ERROR_SCHEMA_VALIDATOR: SchemaValidatorEntry = {
  schema: "core/error.json",
  load: () => import("./core/error.js"),
};

/**
 * The validator of \`core/mcp-webhook-payload.json\`, as published. Its \`result\` is the untagged union
 * \`core/async-response-data.json\`; check \`result\` also with the task's own validator, chosen by \`task_type\` and
 * \`status\`, as that union's description requires. Loading it loads the validators of most tasks.
 */
export const WEBHOOK_PAYLOAD_VALIDATOR: SchemaValidatorEntry = {
  schema: "core/mcp-webhook-payload.json",
  load: () => import("./core/mcp_webhook_payload.js"),
};

/**
 * The validators of every \`error-details/*\` schema, by schema path. Each accepts keys of \`details\` that its schema
 * does not name (advisory check); nested objects follow the schema.
 */
export const ERROR_DETAILS_VALIDATORS: ReadonlyMap<string, SchemaValidatorEntry> = new Map<
  string,
  SchemaValidatorEntry
>([
${detailRows.join("\n")}
]);

/**
 * The \`details\` schema of each standard error code that has one named after it (\`RATE_LIMITED\` →
 * \`error-details/rate-limited.json\`), as transport-errors.mdx "\`details\` Schemas" lists them.
 */
export const ERROR_DETAILS_SCHEMA_BY_CODE: ReadonlyMap<string, string> = new Map<string, string>([
${codeRows.join("\n")}
]);
`;
}

/**
 * Generates every file of `packages/schemas/validators/`.
 *
 * @param version The AdCP version, such as `3.2.0-beta.5`.
 * @param schemaDir The synced schema folder of that version.
 * @returns Path relative to `packages/schemas/validators/` → contents, in a stable order.
 */
export async function generateValidators(
  version: string,
  schemaDir: string = defaultSchemaDir(version),
): Promise<Map<string, string>> {
  try {
    return await generate(version, schemaDir);
  } finally {
    await esbuild.stop();
  }
}

async function generate(version: string, schemaDir: string): Promise<Map<string, string>> {
  const schemas = await loadSchemas(version, schemaDir);
  const plans = await planTasks(schemaDir);
  const details = await planDetails(schemas, schemaDir);
  const prefix = `${SITE}/schemas/${version}/`;
  for (const rel of [...plans.flatMap((p) => [p.response, ...Object.values(p.interim)])]) {
    if (!schemas.has(rel)) {
      throw new GenValidatorsError(`manifest.json names ${rel}, which is not synced`);
    }
  }
  for (const rel of ["core/error.json", "core/mcp-webhook-payload.json"]) {
    if (!schemas.has(rel)) {
      throw new GenValidatorsError(`Missing ${rel}; run \`deno task sync\` first`);
    }
  }

  const variants = details.map((d) =>
    advisoryDetailsVariant(schemas.get(d.schema)!, variantId(version, "advisory", d.schema))
  );
  const warnings: string[] = [];
  const ajv = makeAjv([...schemas.values(), ...variants], warnings);

  // Every exported validator of every entry, compiled once by one Ajv.
  const refs: Record<string, string> = {};
  const entries: Entry[] = [];
  const exportName = (i: number) => `e${i}`;
  let n = 0;
  const add = (id: string): string => {
    const name = exportName(n++);
    refs[name] = id;
    return name;
  };
  const fnOf = new Map<string, string>(); // export name → function, filled after compiling
  const entryPlans: { out: string; make: () => string }[] = [];
  for (const p of plans) {
    const response = add(`${prefix}${p.response}`);
    const interim = INTERIM_STATUSES.filter((s) => p.interim[s] !== undefined)
      .map((s) => [s, add(`${prefix}${p.interim[s]}`)] as const);
    entryPlans.push({
      out: `tasks/${p.task}`,
      make: () => {
        const fns = [response, ...interim.map(([, e]) => e)].map((e) => fnOf.get(e)!);
        const imports = [...new Set(fns)].map((f) => `import { ${f} } from "adcp:fn/${f}";`);
        const map = interim.map(([s, e]) => `${tsString(s)}: ${fnOf.get(e)}`).join(", ");
        return [
          ...imports,
          `export const response = ${fnOf.get(response)};`,
          `export const interim = Object.freeze({ __proto__: null, ${map} });`,
          "",
        ].join("\n");
      },
    });
  }
  const schemaEntry = (out: string, id: string) => {
    const e = add(id);
    entryPlans.push({
      out,
      make: () => `export { ${fnOf.get(e)} as validate } from "adcp:fn/${fnOf.get(e)}";\n`,
    });
  };
  schemaEntry("core/error", `${prefix}core/error.json`);
  schemaEntry("core/mcp_webhook_payload", `${prefix}core/mcp-webhook-payload.json`);
  for (const d of details) schemaEntry(d.module, variantId(version, "advisory", d.schema));

  const statements = await splitStandalone(standaloneCode(ajv, refs));
  for (const s of statements) if (s.kind === "export") fnOf.set(s.name, s.target!);
  for (const name of Object.keys(refs)) {
    if (!fnOf.has(name)) throw new GenValidatorsError(`Ajv output exports no ${name}`);
  }
  for (const e of entryPlans) entries.push({ out: e.out, source: e.make() });
  const bundled = await bundle(entries, functionModules(statements));

  const files = new Map<string, string>();
  const entryOuts = new Set(entries.map((e) => `${e.out}.js`));
  for (const [path, text] of [...bundled].sort(byString(([p]) => p))) {
    const depth = path.split("/").length - 1;
    const up = depth === 0 ? "./" : "../".repeat(depth);
    const what = path.startsWith("tasks/")
      ? `validators of task ${path.slice(6, -3)}.`
      : path.startsWith("chunks/")
      ? "code shared by several validator modules."
      : `validator of ${path.slice(0, -3)}.`;
    const lines = [header(version, what), "// deno-lint-ignore-file"];
    if (entryOuts.has(path)) {
      const dts = path.startsWith("tasks/") ? "_task_module.d.ts" : "_schema_module.d.ts";
      lines.push(`// @ts-self-types="${up}${dts}"`);
    }
    files.set(path, `${lines.join("\n")}\n${text}`);
  }
  for (const e of entries) {
    if (!files.has(`${e.out}.js`)) throw new GenValidatorsError(`esbuild wrote no ${e.out}.js`);
  }
  const tsHeader =
    `// Generated by \`deno task gen\` from the AdCP ${version} schemas (spec/schemas/${version}).
// Do not edit: change scripts/gen_validators.ts or pin another version, then run \`deno task gen\`.
`;
  files.set("_schema_module.d.ts", await denoFmt(`${tsHeader}\n${SCHEMA_DTS}`, "ts"));
  files.set("_task_module.d.ts", await denoFmt(`${tsHeader}\n${TASK_DTS}`, "ts"));
  files.set("mod.ts", await denoFmt(modTs(version, plans, details), "ts"));
  files.set("types.ts", await denoFmt(`${tsHeader}${TYPES_TS}`, "ts"));
  if (warnings.length > 0) {
    throw new GenValidatorsError(`Ajv warned: ${[...new Set(warnings)].slice(0, 5).join("; ")}`);
  }
  return new Map([...files].sort(byString(([p]) => p)));
}

/**
 * Writes generated files into `packages/schemas/validators/` and deletes the files there that are no longer
 * generated (chunk names change with their contents). With `check`, writes nothing.
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
  const removed = (await listFiles(dir)).filter((rel) => !files.has(rel));
  if (!check) { for (const rel of removed) await Deno.remove(`${dir}/${rel}`); }
  return { changed, removed };
}

async function main(): Promise<void> {
  const check = Deno.args.includes("--check");
  for (const a of Deno.args) {
    if (a !== "--check") throw new GenValidatorsError(`Unknown argument ${JSON.stringify(a)}`);
  }
  const { schema_version: version } = await readSources();
  const files = await generateValidators(version);
  const { changed, removed } = await writeValidators(files, check);
  let bytes = 0;
  for (const text of files.values()) bytes += new TextEncoder().encode(text).length;
  const summary = `${files.size} files, ${bytes} bytes`;
  if (check) {
    if (changed.length + removed.length > 0) {
      throw new GenValidatorsError(
        `Stale validators (run \`deno task gen\`): ${
          [...changed, ...removed].slice(0, 5).join(", ")
        }`,
      );
    }
    console.log(`gen_validators --check: packages/schemas/validators is up to date (${summary})`);
    return;
  }
  console.log(
    `gen_validators: AdCP ${version}: ${summary}; ${changed.length} written, ${removed.length} removed`,
  );
}

if (import.meta.main) {
  try {
    await main();
  } catch (e) {
    if (e instanceof GenValidatorsError) {
      console.error(`gen_validators: ${e.message}`);
      Deno.exit(1);
    }
    throw e;
  }
}
