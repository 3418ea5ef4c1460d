/**
 * Bundling of the validators generator: cuts Ajv's standalone output into one virtual ES module
 * per validation function, then bundles the entry modules with esbuild's code splitting, so that
 * each function exists once in the output and an entry module loads only the functions it needs.
 * npm files (Ajv's runtime helpers, ajv-formats) are read from the npm cache Deno filled, under
 * paths relative to it, so the output does not depend on the machine.
 *
 * @module
 */
import * as esbuild from "esbuild";
import { createRequire } from "node:module";
import { ScriptError } from "../_cli.ts";
import { UNIQUE_ITEMS_MODULE, UNIQUE_ITEMS_SPECIFIER } from "./ajv.ts";

/** The version of esbuild that bundles the validators, for the generated headers. */
export const ESBUILD_VERSION: string = esbuild.version;

/** Stops esbuild's service process; the next call starts it again. */
export function stopEsbuild(): Promise<void> {
  return esbuild.stop();
}

/** A top-level statement of Ajv's standalone output. */
export interface Statement {
  /** What the statement is. */
  kind: "export" | "function" | "const";
  /** The name it declares (`validate12`, `schema3`…) or exports. */
  name: string;
  /** For an export, the function exported. */
  target?: string;
  /** The statement's source. */
  text: string;
}

/** A name Ajv's standalone output declares at the top level. */
const NAME_RE = /(?<![\w$.])((?:validate|schema|func|formats|pattern|wrapper)\d+)\b/g;

/**
 * Cuts Ajv's standalone output into its top-level statements. The code is first printed by
 * esbuild, after which every top-level statement starts in column 0 and its continuation lines are
 * indented or close a bracket.
 *
 * @param code Ajv's standalone module.
 * @returns Its statements, in order (`"use strict"` dropped, `validateN.evaluated = …` joined to
 * the function it belongs to).
 */
export async function splitStandalone(code: string): Promise<Statement[]> {
  const printed = (await esbuild.transform(code, { loader: "js", charset: "utf8" })).code;
  const chunks: string[][] = [];
  for (const line of printed.split("\n")) {
    if (line === "") continue;
    if (/^[\s})\]]/.test(line)) {
      const last = chunks.at(-1);
      if (last === undefined) throw new ScriptError(`Unexpected line in Ajv output: ${line}`);
      last.push(line);
    } else chunks.push([line]);
  }
  const out: Statement[] = [];
  for (const lines of chunks) {
    const text = lines.join("\n");
    let match: RegExpExecArray | null;
    if (text === '"use strict";') continue;
    if ((match = /^export const (\w+) = (validate\d+);$/.exec(text))) {
      out.push({ kind: "export", name: match[1]!, target: match[2]!, text });
    } else if ((match = /^function (validate\d+)\(/.exec(text))) {
      out.push({ kind: "function", name: match[1]!, text });
    } else if ((match = /^(validate\d+)\.evaluated = /.exec(text))) {
      const name = match[1]!;
      const owner = out.findLast((statement) =>
        statement.kind === "function" && statement.name === name
      );
      if (owner === undefined) {
        throw new ScriptError(`Ajv output: ${name}.evaluated before ${name}`);
      }
      owner.text += `\n${text}`;
    } else if ((match = /^const ((?:schema|func|formats|pattern|wrapper)\d+) = /.exec(text))) {
      out.push({ kind: "const", name: match[1]!, text });
    } else {
      throw new ScriptError(`Unexpected statement in Ajv output: ${text.slice(0, 120)}`);
    }
  }
  return out;
}

/** The specifier of the virtual module of one validation function. */
export function functionSpecifier(name: string): string {
  return `adcp:fn/${name}`;
}

/**
 * Turns the statements into one virtual ES module per validation function (`fn/validateN`), each
 * with private copies of the constants it uses and imports of the functions it calls.
 *
 * @param statements The output of {@link splitStandalone}.
 * @returns Function name → module source.
 */
export function functionModules(statements: Statement[]): Map<string, string> {
  const constants = new Map(
    statements.filter((statement) => statement.kind === "const")
      .map((statement) => [statement.name, statement.text] as const),
  );
  const functions = new Map(
    statements.filter((statement) => statement.kind === "function")
      .map((statement) => [statement.name, statement.text] as const),
  );
  const modules = new Map<string, string>();
  for (const [name, text] of functions) {
    const imports = new Set<string>();
    const usedConstants = new Set<string>();
    const visit = (source: string) => {
      for (const [, reference] of source.matchAll(NAME_RE)) {
        if (reference === name || imports.has(reference!) || usedConstants.has(reference!)) {
          continue;
        }
        if (functions.has(reference!)) imports.add(reference!);
        else if (constants.has(reference!)) {
          usedConstants.add(reference!);
          visit(constants.get(reference!)!); // a wrapper names a function
        }
      }
    };
    visit(text);
    const head = [...imports].sort().map((imported) =>
      `import { ${imported} } from "${functionSpecifier(imported)}";`
    );
    // Constants in their order in Ajv's output, which declares each before its first use.
    const body = [...constants.keys()].filter((constant) => usedConstants.has(constant))
      .map((constant) => constants.get(constant)!);
    modules.set(name, [...head, ...body, text, `export { ${name} };`, ""].join("\n"));
  }
  return modules;
}

/**
 * Display path of a file of the npm cache (or a node_modules folder), free of machine-specific
 * prefixes.
 */
function stablePath(absolutePath: string): string {
  const nodeModules = absolutePath.lastIndexOf("/node_modules/");
  if (nodeModules >= 0) return absolutePath.slice(nodeModules + "/node_modules/".length);
  const registry = absolutePath.indexOf("/registry.npmjs.org/");
  if (registry >= 0) return absolutePath.slice(registry + "/registry.npmjs.org/".length);
  throw new ScriptError(`Cannot place ${absolutePath} in the npm cache`);
}

/** One generated entry module: its output path (no extension) and virtual source. */
export interface Entry {
  /** The output path, relative to the validators folder, without `.js`. */
  out: string;
  /** The module's source, which imports {@link functionSpecifier} modules. */
  source: string;
}

/**
 * Bundles the entries with code splitting. `adcp:` modules are virtual; every other import (Ajv's
 * runtime helpers, ajv-formats, their dependencies) is resolved by Node's algorithm from the npm
 * cache Deno filled.
 *
 * @param entries The entry modules.
 * @param functions The output of {@link functionModules}.
 * @returns Output path relative to the validators folder → minified source: one file per entry
 * and `chunks/<hash>.js` for shared code.
 */
export async function bundle(
  entries: Entry[],
  functions: Map<string, string>,
): Promise<Map<string, string>> {
  const absoluteByStable = new Map<string, string>();
  const entrySource = new Map(entries.map((entry) => [entry.out, entry.source]));
  const plugin: esbuild.Plugin = {
    name: "adcp-wire-validators",
    setup(build) {
      build.onResolve({ filter: /^adcp:/ }, (args) => ({
        path: args.path.slice("adcp:".length),
        namespace: "adcp",
      }));
      build.onResolve({ filter: /.*/ }, (args) => {
        const from = args.namespace === "npm"
          ? absoluteByStable.get(args.importer)!
          : import.meta.filename!;
        const absolutePath = createRequire(from).resolve(args.path);
        const path = stablePath(absolutePath);
        absoluteByStable.set(path, absolutePath);
        return { path, namespace: "npm" };
      });
      build.onLoad({ filter: /.*/, namespace: "adcp" }, (args) => {
        const contents = `adcp:${args.path}` === UNIQUE_ITEMS_SPECIFIER
          ? UNIQUE_ITEMS_MODULE
          : args.path.startsWith("fn/")
          ? functions.get(args.path.slice("fn/".length))
          : entrySource.get(args.path.slice("entry/".length));
        if (contents === undefined) throw new ScriptError(`No virtual module ${args.path}`);
        return { contents, loader: "js" };
      });
      build.onLoad({ filter: /.*/, namespace: "npm" }, async (args) => ({
        contents: await Deno.readTextFile(absoluteByStable.get(args.path)!),
        loader: args.path.endsWith(".json") ? "json" : "js",
      }));
    },
  };
  const outdir = "/adcp-wire-validators";
  const result = await esbuild.build({
    entryPoints: entries.map((entry) => ({ in: `adcp:entry/${entry.out}`, out: entry.out })),
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
    throw new ScriptError(
      `esbuild: ${result.errors.map((message) => message.text).join("; ")}`,
    );
  }
  const out = new Map<string, string>();
  for (const file of result.outputFiles) {
    if (!file.path.startsWith(`${outdir}/`)) throw new ScriptError(`esbuild wrote ${file.path}`);
    out.set(file.path.slice(outdir.length + 1), file.text);
  }
  return out;
}
