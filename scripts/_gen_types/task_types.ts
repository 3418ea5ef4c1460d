/**
 * The per-task TypeScript types of `@adcp-wire/schemas/tasks`, generated from the pinned schemas
 * by a small emitter of our own. json-schema-to-typescript inlines every `$ref` where it is used,
 * which turns `get_products` alone into about a million lines; here every schema file is one
 * module with one named type, and a `$ref` to a whole file is an import of that module, so each
 * type is declared once and a task's module is a few lines.
 *
 * Layout (below `packages/schemas/tasks/`):
 *
 * - `schema/<dir>/<name>.ts`: the type of `<dir>/<name>.json`, named from the file
 *   ({@link typeNames}), importing the types of the files it refers to.
 * - `<task>.ts`: the task's `TaskRequest` and `TaskResponse` (from `manifest.json` `tools`), also
 *   under their own names.
 * - `mod.ts`: `AdcpTasks`, the map from task name to request and response types, and the named
 *   request and response types.
 *
 * What the emitter reads of JSON Schema: `$ref` (whole files become imports; fragments such as
 * `#/$defs/x` or `#/properties/y` are expanded in place, a fragment met again inside itself
 * becomes `unknown`), `type` (one or a list), `properties` with `required`,
 * `additionalProperties` (`false` closes the object; anything else, `patternProperties`
 * included, is an index signature of `unknown`), `items`, `enum`, `const`, `allOf`
 * (intersection), `anyOf` and `oneOf` (union), `description` and `title` (doc comments). It
 * ignores what TypeScript cannot say (`if`/`then`/`else`, `not`, formats, bounds, patterns): the
 * types describe the shape; `@adcp-wire/validation` checks the rest.
 *
 * @module
 */

/** A schema file's JSON, by its path below the version's root (`core/product.json`). */
export type SchemaReader = (path: string) => Promise<unknown>;

/** What `manifest.json` says of one task. */
export interface TaskSchemas {
  /** The request schema's path. */
  readonly request: string;
  /** The response schema's path. */
  readonly response: string;
  /** The manifest's summary of the task. */
  readonly summary: string | undefined;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Global names a generated type must not shadow (a type named `Error` would hide the class). */
const RESERVED = new Set([
  "Array",
  "Boolean",
  "Date",
  "Error",
  "Function",
  "Headers",
  "Map",
  "Number",
  "Object",
  "Partial",
  "Promise",
  "Record",
  "Request",
  "Response",
  "Set",
  "String",
  "Symbol",
  "URL",
]);

/**
 * Names other `@adcp-wire` packages declare that a schema file's name would produce: a type of that
 * name is prefixed with its directory's (one public name, one package; `deno task check-shape`).
 */
const TAKEN = new Set(["ValidationResult"]);

/** `get-products-request` → `GetProductsRequest`. */
function pascal(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).filter((word) => word !== "").map((word) =>
    word[0]!.toUpperCase() + word.slice(1)
  ).join("");
}

/**
 * The type name of every schema path: its file name in PascalCase, prefixed with its directory's
 * when two directories have a file of that name, and with `Adcp` when the name is a global's (or
 * starts with a digit).
 */
export function typeNames(paths: Iterable<string>): Map<string, string> {
  const byStem = new Map<string, string[]>();
  for (const path of paths) {
    const stem = pascal(path.slice(path.lastIndexOf("/") + 1).replace(/\.json$/, ""));
    byStem.set(stem, [...(byStem.get(stem) ?? []), path]);
  }
  const names = new Map<string, string>();
  for (const [stem, group] of byStem) {
    for (const path of group) {
      let name = group.length === 1 && !TAKEN.has(stem)
        ? stem
        : pascal(path.replace(/\.json$/, ""));
      if (RESERVED.has(name) || /^[0-9]/.test(name)) name = `Adcp${name}`;
      names.set(path, name);
    }
  }
  return names;
}

/** A doc comment of `text`, indented, or `""`. */
function doc(text: unknown, indent: string): string {
  if (typeof text !== "string" || text.trim() === "") return "";
  const lines = text.trim().replace(/\*\//g, "*\\/").split("\n");
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join("\n")}\n` +
    `${indent} */\n`;
}

/** A JSON Pointer fragment (`#/a/b`) resolved in `root`, or `undefined`. */
function resolvePointer(root: unknown, fragment: string): unknown {
  let value = root;
  for (const raw of fragment.replace(/^#\/?/, "").split("/")) {
    if (raw === "") continue;
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value)) value = value[Number(key)];
    else if (isRecord(value) && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

/** Where a subschema sits: its file, for resolving its `$ref`s. */
interface Place {
  readonly path: string;
}

/** Where the emitter is: the subschema's file, the module written, depth, fragments, indent. */
interface At {
  readonly place: Place;
  readonly module: Module;
  readonly depth: number;
  /** The fragments being expanded (a fragment met again inside itself is `unknown`). */
  readonly seen: ReadonlySet<string>;
  readonly indent: string;
}

/** The module being written: its schema path and the files it imports. */
interface Module {
  readonly path: string;
  readonly imports: Set<string>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MAX_DEPTH = 48;
const STRUCTURAL = [
  "type",
  "properties",
  "additionalProperties",
  "patternProperties",
  "items",
  "enum",
  "const",
  "allOf",
  "anyOf",
  "oneOf",
];

/** The emitter of one version's schemas. */
class Emitter {
  readonly #prefix: string;
  readonly #files = new Map<string, unknown>();
  readonly #read: SchemaReader;
  /** Every whole file some type refers to: each one becomes a module. */
  readonly referenced = new Set<string>();
  names = new Map<string, string>();

  constructor(prefix: string, read: SchemaReader) {
    this.#prefix = prefix;
    this.#read = read;
  }

  /** Reads (once) every file reachable from `roots`, so that emitting is synchronous. */
  async load(roots: readonly string[]): Promise<void> {
    const queue = [...roots];
    while (queue.length > 0) {
      const path = queue.pop()!;
      if (this.#files.has(path)) continue;
      const schema = await this.#read(path);
      this.#files.set(path, schema);
      const stack: unknown[] = [schema];
      while (stack.length > 0) {
        const value = stack.pop();
        if (Array.isArray(value)) stack.push(...value);
        else if (isRecord(value)) {
          const target = typeof value.$ref === "string" ? this.#target(value.$ref, path) : null;
          if (target !== null && !this.#files.has(target.path)) queue.push(target.path);
          stack.push(...Object.values(value));
        }
      }
    }
  }

  /** The paths of every file loaded: all possible `$ref` targets of the roots. */
  loadedPaths(): string[] {
    return [...this.#files.keys()];
  }

  /** A `$ref`'s file and fragment, or `null` when it points outside this version's schemas. */
  #target(ref: string, from: string): { path: string; fragment: string } | null {
    const url = new URL(ref, `${this.#prefix}${from}`);
    const fragment = url.hash;
    url.hash = "";
    return url.href.startsWith(this.#prefix)
      ? { path: url.href.slice(this.#prefix.length), fragment }
      : null;
  }

  /** The module of the schema file at `path`. */
  module(path: string): string {
    const module: Module = { path, imports: new Set() };
    const schema = this.#files.get(path);
    const body = this.#emit(schema, {
      place: { path },
      module,
      depth: 0,
      seen: new Set(),
      indent: "",
    });
    const name = this.names.get(path)!;
    const depth = path.split("/").length - 1;
    const up = "../".repeat(depth + 1);
    const imports = [...module.imports].filter((target) => target !== path).sort().map(
      (target) =>
        `import type { ${this.names.get(target)} } from "${up}schema/${
          target.replace(/\.json$/, ".ts")
        }";`,
    );
    const title = isRecord(schema) && typeof schema.title === "string" ? schema.title : name;
    const description = isRecord(schema) && typeof schema.description === "string"
      ? `${title}: ${schema.description}`
      : title;
    return [
      ...imports,
      imports.length > 0 ? "" : undefined,
      `${doc(`${description}\n\nSchema: \`${path}\`.`, "")}export type ${name} = ${body};`,
      "",
    ].filter((line) => line !== undefined).join("\n");
  }

  #emit(
    schema: unknown,
    at: At,
  ): string {
    const { depth } = at;
    if (schema === true || (isRecord(schema) && Object.keys(schema).length === 0)) {
      return "unknown";
    }
    if (schema === false) return "never";
    if (!isRecord(schema) || depth > MAX_DEPTH) return "unknown";
    const next = (value: unknown): string => this.#emit(value, { ...at, depth: depth + 1 });
    const parts: string[] = [];
    if (typeof schema.$ref === "string") {
      parts.push(this.#ref(schema.$ref, at));
      if (!STRUCTURAL.some((key) => Object.hasOwn(schema, key))) return parts[0]!;
    }
    if (Object.hasOwn(schema, "const")) {
      parts.push(literal(schema.const));
    } else if (Array.isArray(schema.enum)) {
      parts.push(union(schema.enum.map(literal)));
    } else {
      const own = this.#typed(schema, at);
      if (own !== undefined) parts.push(own);
    }
    if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((part) => next(part)));
    for (const key of ["anyOf", "oneOf"] as const) {
      const list = schema[key];
      if (Array.isArray(list)) parts.push(union(list.map((part) => next(part))));
    }
    return intersection(parts);
  }

  /** The type of `type`, `properties` and `items`, or `undefined` when the schema has none. */
  #typed(
    schema: Json,
    at: At,
  ): string | undefined {
    const { depth } = at;
    const declared = schema.type;
    const types = typeof declared === "string"
      ? [declared]
      : Array.isArray(declared)
      ? declared.filter((type): type is string => typeof type === "string")
      : [];
    const looksObject = isRecord(schema.properties) ||
      Object.hasOwn(schema, "additionalProperties");
    if (types.length === 0) {
      if (looksObject) types.push("object");
      else if (Object.hasOwn(schema, "items")) types.push("array");
      else return undefined;
    }
    return union(types.map((type) => {
      switch (type) {
        case "string":
          return "string";
        case "number":
        case "integer":
          return "number";
        case "boolean":
          return "boolean";
        case "null":
          return "null";
        case "array": {
          const items = schema.items;
          const item = isRecord(items) || typeof items === "boolean"
            ? this.#emit(items, { ...at, depth: depth + 1 })
            : "unknown";
          return /^[\w$.]+$/.test(item) ? `${item}[]` : `(${item})[]`;
        }
        case "object":
          return this.#object(schema, at);
        default:
          return "unknown";
      }
    }));
  }

  #object(
    schema: Json,
    at: At,
  ): string {
    const { depth, indent } = at;
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(
      Array.isArray(schema.required)
        ? schema.required.filter((key) => typeof key === "string")
        : [],
    );
    const inner = `${indent}  `;
    const members: string[] = [];
    for (const [key, value] of Object.entries(properties)) {
      const type = this.#emit(value, { ...at, depth: depth + 1, indent: inner });
      const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
      const description = isRecord(value) ? value.description : undefined;
      members.push(
        `${doc(description, inner)}${inner}${name}${required.has(key) ? "" : "?"}: ${type};`,
      );
    }
    if (schema.additionalProperties !== false) members.push(`${inner}[k: string]: unknown;`);
    if (members.length === 0) return "Record<string, never>";
    return `{\n${members.join("\n")}\n${indent}}`;
  }

  #ref(
    ref: string,
    at: At,
  ): string {
    const { place, module, depth, seen } = at;
    const target = this.#target(ref, place.path);
    if (target === null) return "unknown";
    if (target.fragment === "" || target.fragment === "#") {
      this.referenced.add(target.path);
      if (target.path !== module.path) module.imports.add(target.path);
      return this.names.get(target.path) ?? "unknown";
    }
    const key = `${target.path}${target.fragment}`;
    if (seen.has(key)) return "unknown"; // a fragment met inside itself
    const sub = resolvePointer(this.#files.get(target.path), target.fragment);
    return this.#emit(
      sub,
      { ...at, place: { path: target.path }, depth: depth + 1, seen: new Set([...seen, key]) },
    );
  }
}

/** A JSON value as a TypeScript literal type (objects and arrays as `unknown`). */
function literal(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return JSON.stringify(value);
  }
  return "unknown";
}

function union(types: readonly string[]): string {
  const unique = [...new Set(types)];
  if (unique.length === 0) return "never";
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 1 ? unique[0]! : unique.map(parenthesized).join(" | ");
}

function intersection(types: readonly string[]): string {
  const useful = [...new Set(types)].filter((type) => type !== "unknown");
  if (useful.length === 0) return "unknown";
  return useful.length === 1 ? useful[0]! : useful.map(parenthesized).join(" & ");
}

function parenthesized(type: string): string {
  return /^[\w$."\-[\]]+$/.test(type) || type.startsWith("{") ? type : `(${type})`;
}

/** A task name as a module file name: `get_products` → `get_products.ts`. */
function taskFile(task: string): string {
  return `${task.replace(/[^A-Za-z0-9_]/g, "_")}.ts`;
}

/**
 * Every module of `packages/schemas/tasks/` (unformatted), by path below it.
 *
 * @param version The AdCP version, for the headers and `$ref` resolution.
 * @param origin The schemas' origin (`https://adcontextprotocol.org`).
 * @param tasks The tasks, by name.
 * @param read Reads a schema file of the version.
 * @param header The generated-file header.
 */
export async function generateTaskTypes(
  version: string,
  origin: string,
  tasks: ReadonlyMap<string, TaskSchemas>,
  read: SchemaReader,
  header: string,
): Promise<Map<string, string>> {
  const emitter = new Emitter(`${origin}/schemas/${version}/`, read);
  const roots = [...tasks.values()].flatMap((task) => [task.request, task.response]);
  await emitter.load(roots);
  // Names first (every file a type can refer to is loaded), then modules until no new file is
  // referenced.
  const files = new Map<string, string>();
  const all = new Set<string>(roots);
  let pending = [...new Set(roots)];
  const emitted = new Set<string>();
  // The set of referenced files only grows; names are computed over the loaded files, which
  // include every possible target, so they are stable across rounds.
  emitter.names = typeNames(emitter.loadedPaths());
  while (pending.length > 0) {
    for (const path of pending) {
      files.set(`schema/${path.replace(/\.json$/, ".ts")}`, header + emitter.module(path));
      emitted.add(path);
    }
    for (const path of emitter.referenced) all.add(path);
    pending = [...all].filter((path) => !emitted.has(path));
  }
  const names = emitter.names;
  const sorted = [...tasks.keys()].sort();
  for (const task of sorted) {
    const { request, response, summary } = tasks.get(task)!;
    const requestName = names.get(request)!;
    const responseName = names.get(response)!;
    files.set(
      taskFile(task),
      header + [
        doc(
          `The types of the \`${task}\` task${summary === undefined ? "" : `: ${summary}`}\n\n` +
            `Request \`${request}\`, response \`${response}\`.\n\n@module`,
          "",
        ),
        `import type { ${requestName} } from "./schema/${request.replace(/\.json$/, ".ts")}";`,
        requestName === responseName
          ? ""
          : `import type { ${responseName} } from "./schema/${
            response.replace(/\.json$/, ".ts")
          }";`,
        "",
        `export type { ${[...new Set([requestName, responseName])].join(", ")} };`,
        "",
        `/** The request of \`${task}\`. */`,
        `export type TaskRequest = ${requestName};`,
        "",
        `/** The response of \`${task}\`. */`,
        `export type TaskResponse = ${responseName};`,
        "",
      ].join("\n"),
    );
  }
  files.set(
    "mod.ts",
    header + [
      doc(
        `The request and response types of every AdCP ${version} task, one module per task:\n` +
          "`AdcpTasks` maps a task name to them, and each is exported under its own name\n" +
          "too (`GetProductsRequest`, `GetProductsResponse`, ...), with every type they refer\n" +
          "to (one per schema file, named from the file). The types give the schemas' shape;\n" +
          "validate what a seller sends with `@adcp-wire/validation`.\n\n" +
          "@example Typing a request\n" +
          "```ts\n" +
          'import type { AdcpTaskRequest } from "@adcp-wire/schemas/tasks";\n' +
          'import { strictEqual } from "node:assert/strict";\n\n' +
          'const request: AdcpTaskRequest<"get_products"> = {\n' +
          '  buying_mode: "brief",\n' +
          '  brief: "Premium CTV inventory",\n' +
          "};\n" +
          'strictEqual(request.buying_mode, "brief");\n' +
          "```\n\n@module",
        "",
      ),
      "",
      // Every type a request or response refers to, so that each public type's parts are public.
      ...[...emitted].sort().map((path) =>
        `import type { ${names.get(path)} } from "./schema/${path.replace(/\.json$/, ".ts")}";`
      ),
      "",
      `export type { ${[...emitted].map((path) => names.get(path)!).sort().join(", ")} };`,
      "",
      "/** Every task's request and response types, by task name. */",
      "export interface AdcpTasks {",
      ...sorted.flatMap((task) => [
        `  /** \`${task}\`. */`,
        `  ${IDENTIFIER.test(task) ? task : JSON.stringify(task)}: {`,
        `    /** The request. */`,
        `    request: ${names.get(tasks.get(task)!.request)};`,
        `    /** The response. */`,
        `    response: ${names.get(tasks.get(task)!.response)};`,
        "  };",
      ]),
      "}",
      "",
      "/** The name of an AdCP task with generated types. */",
      "export type AdcpTaskName = keyof AdcpTasks;",
      "",
      "/** The request type of task `K`. */",
      'export type AdcpTaskRequest<K extends AdcpTaskName> = AdcpTasks[K]["request"];',
      "",
      "/** The response type of task `K`. */",
      'export type AdcpTaskResponse<K extends AdcpTaskName> = AdcpTasks[K]["response"];',
      "",
    ].join("\n"),
  );
  return files;
}
