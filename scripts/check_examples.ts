/**
 * `deno task doc-lint` runs this after `deno doc --lint`. It reads `deno doc --json` of the entry
 * points and holds their public API to the rules of `denoland/std`'s `_tools/check_docs.ts`:
 *
 * - Every exported symbol, and every public member of an exported class (constructor, method,
 *   getter, setter, property), has a doc comment. (`deno doc --lint` checks this too; repeating it
 *   keeps this check whole for any entry point it is given.)
 * - Every function and class, and every public method, getter and setter of a class, has an
 *   `@example`, titled or not, holding a fenced code block (which `deno test --doc` runs). A
 *   getter and setter of one name, and the signatures of an overloaded function or method, need
 *   one example between them. As in std, constructors need none (the class's example constructs
 *   it); unlike std, which also asks it of documented class properties, properties need none:
 *   like interfaces, type aliases, enums, variables and constants, they are data, not behavior.
 *   A `@deprecated` symbol or member needs no example (its replacement shows one; `deno doc` also
 *   lists an alias `export const old: typeof fn = fn` as a function). Private and protected
 *   members are not checked.
 * - Every entry point has a module doc (`@module`), which `deno doc --lint` does not check.
 * - With `--forbid-linkcode`, no doc comment uses `{@linkcode …}`. Off by default: `deno doc
 *   --html` (and so JSR) renders `{@linkcode X}` as a link in code font, as `{@link X}` renders a
 *   plain link, and the terminal `deno doc` shows both as written.
 *
 * Usage: `deno run --allow-read --allow-run scripts/check_examples.ts [--forbid-linkcode]
 * [entry…]`. An entry is a module path (`packages/transports/mcp/mod.ts`), a workspace member's
 * directory (`packages/transports`: each of its `exports`) or a workspace specifier
 * (`@adcp-wire/transports`, `@adcp-wire/transports/mcp`); with none, every export of every
 * workspace member is checked. A symbol re-exported by several entry points is reported once,
 * where it is declared. `--help` prints {@link CHECK_EXAMPLES_USAGE}; an unknown flag exits 2.
 *
 * @module
 */

import { posix } from "node:path";
import { runMain, ScriptError, unknownArgument } from "./_cli.ts";
import { type Member, readWorkspace } from "./check_shape.ts";

/** A JSDoc comment as `deno doc --json` gives it. */
export interface JsDoc {
  /** The description. */
  doc?: string;
  /** The tags: `@example`, `@param`, `@deprecated`… */
  tags?: { kind: string; doc?: string; value?: string }[];
}

/** A source location as `deno doc --json` gives it. */
export interface DocLocation {
  /** The file's URL. */
  filename: string;
  /** The line, from 0. */
  line: number;
}

/** A class member as `deno doc --json` gives it. */
export interface DocMember {
  /** Its name. */
  name: string;
  /** `method`, `getter` or `setter`; none for constructors and properties. */
  kind?: string;
  /** Whether it is static. */
  isStatic?: boolean;
  /** Its TypeScript accessibility, if written. */
  accessibility?: "public" | "protected" | "private";
  /** Its doc comment. */
  jsDoc?: JsDoc;
  /** Where it is declared. */
  location: DocLocation;
}

/** One declaration of an exported symbol as `deno doc --json` gives it. */
export interface DocDeclaration {
  /** `function`, `class`, `interface`, `typeAlias`, `reference`… */
  kind: string;
  /** Its doc comment. */
  jsDoc?: JsDoc;
  /** Where it is declared. */
  location: DocLocation;
  /** The parts of its definition read here: class members and namespace elements. */
  def?: {
    constructors?: DocMember[];
    properties?: DocMember[];
    methods?: DocMember[];
    elements?: DocSymbol[];
  };
}

/** An exported symbol as `deno doc --json` gives it. */
export interface DocSymbol {
  /** The exported name. */
  name: string;
  /** Its declarations: overloads, merged declarations, or one. */
  declarations: DocDeclaration[];
}

/** The output of `deno doc --json` (format version 2). */
export interface DocJson {
  /** Each entry point's module doc and exported symbols. */
  nodes: Record<string, { module_doc?: JsDoc; symbols?: DocSymbol[] }>;
}

/** Options of {@link docProblems}. */
export interface DocProblemsOptions {
  /**
   * Whether `{@linkcode …}` is a problem.
   * @default {false}
   */
  forbidLinkcode?: boolean;
  /**
   * Turns a location's file URL into the path printed.
   * @default {(url) => url}
   */
  displayPath?: (url: string) => string;
}

/** The symbol kinds that must show an example. */
const NEEDS_EXAMPLE = new Set(["function", "class"]);
/** The class member kinds that must show an example. */
const MEMBER_NEEDS_EXAMPLE = new Set(["method", "getter", "setter"]);

/** Whether a doc comment has a description or any tag: whether it exists at all. */
export function hasDoc(jsDoc: JsDoc | undefined): boolean {
  return jsDoc !== undefined && ((jsDoc.doc ?? "").trim() !== "" || (jsDoc.tags ?? []).length > 0);
}

/**
 * What is wrong with the examples of a doc comment: `"none"` (no `@example`), `"no code"` (an
 * `@example` without a fenced code block) or undefined (an `@example` with a code block).
 */
export function exampleProblem(jsDoc: JsDoc | undefined): "none" | "no code" | undefined {
  const examples = (jsDoc?.tags ?? []).filter((tag) => tag.kind === "example");
  if (examples.length === 0) return "none";
  return examples.some((tag) => /^[ \t]*(```|~~~)/m.test(tag.doc ?? "")) ? undefined : "no code";
}

/** The `{@linkcode …}` references in a doc comment's text and tags. */
export function linkcodes(jsDoc: JsDoc | undefined): string[] {
  const texts = [jsDoc?.doc ?? "", ...(jsDoc?.tags ?? []).map((tag) => tag.doc ?? "")];
  return texts.flatMap((text) => text.match(/\{@linkcode\s[^}]*\}/g) ?? []);
}

/**
 * The `{@linkcode …}` references in every doc comment inside a `deno doc --json` value (a
 * declaration with its members, properties and parameters), each with the nearest location.
 */
export function linkcodesWithin(
  value: unknown,
  location?: DocLocation,
): { location: DocLocation | undefined; found: string }[] {
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => linkcodesWithin(item, location));
  const record = value as Record<string, unknown>;
  const here = (record.location as DocLocation | undefined) ?? location;
  return Object.entries(record).flatMap(([key, inner]) =>
    key === "jsDoc"
      ? linkcodes(inner as JsDoc).map((found) => ({ location: here, found }))
      : linkcodesWithin(inner, here)
  );
}

/** The problems of a group of declarations of one thing (overloads, an accessor pair). */
function groupProblems(
  what: string,
  docs: (JsDoc | undefined)[],
  needsExample: boolean,
): string[] {
  if (!docs.some(hasDoc)) return [`Expected a doc comment on ${what}, found none`];
  const deprecated = docs.some((doc) => (doc?.tags ?? []).some((t) => t.kind === "deprecated"));
  if (!needsExample || deprecated) return [];
  const problems = docs.map(exampleProblem);
  if (problems.includes(undefined)) return [];
  return problems.includes("no code")
    ? [`Expected an @example with a fenced code block on ${what}, found one without code`]
    : [`Expected an @example with a fenced code block on ${what}, found none`];
}

/** Groups items by a key, keeping first-seen order. */
function groupBy<T>(items: T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...groups.get(k) ?? [], item]);
  }
  return [...groups.values()];
}

/**
 * Lists the doc problems of `deno doc --json` output, one `path:line: message` per problem,
 * sorted and without repeats (a symbol several entry points export is reported once).
 */
export function docProblems(doc: DocJson, options: DocProblemsOptions = {}): string[] {
  const display = options.displayPath ?? ((url: string) => url);
  const at = (location: DocLocation) => `${display(location.filename)}:${location.line + 1}`;
  const problems = new Set<string>();
  const linkcode = (value: unknown, location: DocLocation | undefined, fallback: string) => {
    if (!options.forbidLinkcode) return;
    for (const { location: where, found } of linkcodesWithin(value, location)) {
      problems.add(`${where ? at(where) : fallback}: Expected {@link …}, found ${found}`);
    }
  };

  const checkMembers = (className: string, def: DocDeclaration["def"]) => {
    const members = [
      ...(def?.constructors ?? []).map((m) => ({ ...m, kind: "constructor" })),
      ...(def?.properties ?? []).map((m) => ({ ...m, kind: "property" })),
      ...(def?.methods ?? []),
    ].filter((m) => m.accessibility !== "private" && m.accessibility !== "protected");
    // A getter and a setter, or the signatures of an overload, are one member.
    const key = (m: DocMember) => {
      const accessor = m.kind === "getter" || m.kind === "setter";
      return `${m.isStatic ? "static " : ""}${accessor ? "accessor" : m.kind} ${m.name}`;
    };
    for (const group of groupBy(members, key)) {
      const first = group[0]!;
      const kind = group.map((m) => m.kind).filter((k, i, all) => all.indexOf(k) === i).join("/");
      const what = first.kind === "constructor"
        ? `the constructor of ${className}`
        : `${first.isStatic ? "static " : ""}${kind} ${className}.${first.name}`;
      const needsExample = MEMBER_NEEDS_EXAMPLE.has(first.kind ?? "");
      for (const problem of groupProblems(what, group.map((m) => m.jsDoc), needsExample)) {
        problems.add(`${at(first.location)}: ${problem}`);
      }
    }
  };

  const checkSymbols = (symbols: DocSymbol[], prefix: string) => {
    for (const symbol of symbols) {
      // A re-export of a symbol another entry point of the same run documents is a
      // "reference" to it, checked there.
      const declarations = symbol.declarations.filter((d) =>
        d.kind !== "import" && d.kind !== "reference"
      );
      for (const group of groupBy(declarations, (d) => d.kind)) {
        const first = group[0]!;
        const what = `${first.kind === "typeAlias" ? "type alias" : first.kind} ` +
          `${prefix}${symbol.name}`;
        const docs = group.map((d) => d.jsDoc);
        for (const problem of groupProblems(what, docs, NEEDS_EXAMPLE.has(first.kind))) {
          problems.add(`${at(first.location)}: ${problem}`);
        }
        for (const d of group) {
          if (d.kind === "class") checkMembers(`${prefix}${symbol.name}`, d.def);
          if (d.kind === "namespace") {
            checkSymbols(d.def?.elements ?? [], `${prefix}${symbol.name}.`);
          } else {
            linkcode(d, d.location, "");
          }
        }
      }
    }
  };

  for (const [module, node] of Object.entries(doc.nodes)) {
    if (!hasDoc(node.module_doc)) {
      problems.add(
        `${display(module)}: Expected a module doc (@module) on the entry point, ` +
          "found none",
      );
    }
    linkcode({ jsDoc: node.module_doc }, undefined, display(module));
    checkSymbols(node.symbols ?? [], "");
  }
  return [...problems].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/**
 * Turns command-line entries into module paths: a path stays as it is, a workspace member's
 * directory becomes its entry points and `@scope/name[/subpath]` the entry point it exports.
 * Throws a `TypeError` for a specifier no member exports.
 */
export function resolveEntryPoints(
  entries: string[],
  members: Member[],
  root: string,
): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    const member = members.find((m) => entry === m.name || entry.startsWith(`${m.name}/`));
    if (member) {
      const key = entry === member.name ? "." : `.${entry.slice(member.name.length)}`;
      const path = member.exports[key];
      if (path === undefined) {
        throw new ScriptError(
          `Cannot resolve ${entry}: expected one of the exports of ${member.name} ` +
            `(${Object.keys(member.exports).join(", ")}), found ${key}`,
        );
      }
      out.push(posix.join(root, path));
      continue;
    }
    const dir = posix.relative(root, posix.resolve(entry));
    const owner = members.find((m) => m.dir === dir);
    if (owner) out.push(...owner.entryPoints.map((path) => posix.join(root, path)));
    else out.push(entry);
  }
  return [...new Set(out)];
}

/** Runs `deno doc --json` on the entry points. */
export async function readDocJson(entryPoints: string[]): Promise<DocJson> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...entryPoints],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) {
    throw new ScriptError(`deno doc --json failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The path of a file URL relative to the working directory, for messages. */
function relativePath(url: string): string {
  if (!url.startsWith("file://")) return url;
  return posix.relative(Deno.cwd(), decodeURIComponent(new URL(url).pathname));
}

/** Reads the docs of the entry points and lists their problems (see {@link docProblems}). */
export async function checkExamples(
  entryPoints: string[],
  options: Omit<DocProblemsOptions, "displayPath"> = {},
): Promise<string[]> {
  if (entryPoints.length === 0) return [];
  return docProblems(await readDocJson(entryPoints), { ...options, displayPath: relativePath });
}

/** The usage text of `check_examples.ts --help`. */
export const CHECK_EXAMPLES_USAGE: string = [
  "Usage: deno run --allow-read --allow-run scripts/check_examples.ts [--forbid-linkcode] " +
  "[ENTRY]...",
  "Checks that every exported function and class, and every public method, getter and setter,",
  "has an @example, and every entry point a module doc. An ENTRY is a module path, a workspace",
  "member's directory or a workspace specifier; with none, every export of every member.",
  "  --forbid-linkcode   also refuse {@linkcode ...} in doc comments",
  "  --help              print this and exit",
  "Exit status: 0 when the docs are complete, 1 when not, 2 for a mistaken command line.",
].join("\n");

/** The flags of `check_examples.ts`, for the nearest-flag hint. */
const CHECK_EXAMPLES_FLAGS = ["--forbid-linkcode", "--help"] as const;

/**
 * Parses the command line of `check_examples.ts`.
 *
 * @param args The arguments.
 * @returns Whether `{@linkcode}` is refused and the entries, or `"help"` for `--help` (or `-h`).
 * @throws {UsageError} On an unknown flag, naming it and the nearest one.
 */
export function parseCheckExamplesArgs(
  args: readonly string[],
): { forbidLinkcode: boolean; entries: string[] } | "help" {
  let forbidLinkcode = false;
  const entries: string[] = [];
  for (const arg of args) {
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--forbid-linkcode") forbidLinkcode = true;
    else if (arg.startsWith("-")) throw unknownArgument(arg, CHECK_EXAMPLES_FLAGS);
    else entries.push(arg);
  }
  return { forbidLinkcode, entries };
}

/** The CLI: prints each problem, then a count; exits 1 when there is any. */
async function main(): Promise<number> {
  const args = parseCheckExamplesArgs(Deno.args);
  if (args === "help") {
    console.log(CHECK_EXAMPLES_USAGE);
    return 0;
  }
  const { forbidLinkcode, entries } = args;
  const root = posix.relative(Deno.cwd(), new URL("..", import.meta.url).pathname) || ".";
  const members = await readWorkspace(root);
  const entryPoints = entries.length > 0
    ? resolveEntryPoints(entries, members, root)
    : members.flatMap((m) => m.entryPoints.map((path) => posix.join(root, path)));
  const problems = await checkExamples(entryPoints, { forbidLinkcode });
  if (problems.length > 0) {
    console.error(`${problems.join("\n")}\ncheck_examples: ${problems.length} doc problems`);
    return 1;
  }
  console.log(`check_examples: the docs of ${entryPoints.length} entry points are complete`);
  return 0;
}

if (import.meta.main) await runMain(main);
