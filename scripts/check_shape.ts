/**
 * A CI guard for the shape of the workspace. It reads the root `deno.json` (`workspace`) and each
 * member's `deno.json` (`name`, `exports`), prints one line per violation of the rules below and
 * exits 1 when there is any.
 *
 * Usage: `deno run --allow-read --allow-run scripts/check_shape.ts [--only=cycle,layer,name,width]
 * [root]` (`root` defaults to the repository root; `--only` picks rules, all by default).
 *
 * 1. Cycles: no import cycle among the source files of one package. Test files (`*_test.ts`,
 *    `*_bench.ts`, `_test_*.ts`, anything under `testdata/`) are left out of the graph. Edges are
 *    relative specifiers of `import … from`, `import type`, `export … from`, side-effect imports
 *    and `import("…")` with a literal string (which also covers `typeof import("…")`). Each group
 *    of files that reach each other (a strongly connected component, found by Tarjan's algorithm
 *    in linear time) is reported as shortest cycles through its files, until each file of the
 *    group is on a reported cycle.
 * 2. Layers: a package imports only packages of a strictly lower layer of {@link LAYERS}, by name.
 *    The rule holds for every file of a package, tests and `testdata/` included; `scripts/` is no
 *    package and is not checked. A test file may also import its own package by name; a source
 *    file may not (it would import itself through `mod.ts`). A relative import may not leave its
 *    package's directory, and every workspace member must be in the table.
 * 3. Names: no public name is declared by two packages. The public names are the symbols of every
 *    `exports` entry point of every member, listed by `deno doc --json`; a symbol's package is the
 *    one whose directory holds its declaration, so a re-export of another package's symbol is not
 *    a second declaration, while a deprecated alias (`export const Old = New`) is one.
 * 4. Width: no line is wider than {@link MAX_COLUMNS} columns (Unicode code points; a tab counts
 *    as one). Checked: `.ts` files under `packages/` and `scripts/` except the generated
 *    `packages/schemas/` and `testdata/` directories, `.ci/run`, the root `README.md`, each
 *    member's `README.md` and `docs/**.md`. Exempt, because no reflow can shorten them: in
 *    Markdown, lines inside code fences, table rows and a line that is one link or URL (after any
 *    list or quote marker); in code, a comment line whose text is one link or URL. `deno fmt`
 *    keeps code within the width already; what this catches is long comments, strings and prose.
 *
 * Imports are found by a small tokenizer (comments, strings, template literals and regular
 * expression literals are skipped, so `"… from './x.ts'"` in a string is no import). `.js` files
 * (the generated validator bundles) are not read.
 *
 * @module
 */

import { posix } from "node:path";

/** The package layers, lowest first: a package may import only packages of earlier layers. */
export const LAYERS: readonly (readonly string[])[] = [
  ["@adcp-wire/internal"],
  ["@adcp-wire/schemas"],
  ["@adcp-wire/core"],
  // The issue's middle level (recovery, security, validation), with validation one step up:
  // it copies validated payloads with security's `toSafeJson`, and security must never need it.
  ["@adcp-wire/recovery", "@adcp-wire/security"],
  ["@adcp-wire/validation"],
  ["@adcp-wire/transports"],
];

/** The widest line allowed, in columns; the same as `fmt.lineWidth` in `deno.json`. */
export const MAX_COLUMNS = 100;

/** The scope whose packages the layer rule governs. */
const SCOPE = "@adcp-wire/";

/** How many `deno doc --json` processes run at a time. */
const DOC_CONCURRENCY = 2;

/** One workspace member, with paths relative to the root and POSIX separators. */
export interface Member {
  /** The package name, `@adcp-wire/core`. */
  name: string;
  /** Its directory, `packages/core`. */
  dir: string;
  /** Its `exports`, subpath to entry point: `{ ".": "packages/core/mod.ts" }`. */
  exports: Record<string, string>;
  /** Its `exports` entry points, `packages/core/mod.ts`. */
  entryPoints: string[];
}

/** The rules, in the order their findings are printed. */
export const RULES = ["cycle", "layer", "name", "width"] as const;

/** Which rule a finding breaks. */
export type Rule = typeof RULES[number];

/** One violation: the rule and the line to print. */
export interface Finding {
  /** The rule broken. */
  rule: Rule;
  /** The line to print: where, what was expected and what was found. */
  message: string;
}

// ---------------------------------------------------------------------------------------------
// Workspace

/** Reads the workspace members of the `deno.json` in `root`, in the order it lists them. */
export async function readWorkspace(root: string): Promise<Member[]> {
  const config = JSON.parse(await Deno.readTextFile(posix.join(root, "deno.json")));
  const members: Member[] = [];
  for (const entry of (config.workspace ?? []) as string[]) {
    const dir = posix.normalize(entry).replace(/\/$/, "");
    const member = JSON.parse(await Deno.readTextFile(posix.join(root, dir, "deno.json")));
    const declared: Record<string, string> = typeof member.exports === "string"
      ? { ".": member.exports }
      : member.exports ?? {};
    const exports = Object.fromEntries(
      Object.entries(declared).map(([key, path]) => [key, posix.join(dir, path)]),
    );
    members.push({ name: String(member.name), dir, exports, entryPoints: Object.values(exports) });
  }
  return members;
}

/** Lists the files under `dir` (relative to `root`), skipping dot directories and symlinks. */
export async function listFiles(root: string, dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(posix.join(root, rel)));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const path = posix.join(rel, entry.name);
      if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") {
        await walk(path);
      } else if (entry.isFile) {
        files.push(path);
      }
    }
  };
  await walk(dir);
  return files.sort();
}

/** Whether `path` is a test file: `*_test.ts`, `*_bench.ts`, `_test_*.ts` or under `testdata/`. */
export function isTestFile(path: string): boolean {
  const parts = path.split("/");
  const base = parts.at(-1) ?? "";
  return parts.includes("testdata") || /_(test|bench)\.[cm]?tsx?$/.test(base) ||
    base.startsWith("_test_");
}

/** Whether `path` is a TypeScript file whose imports are read. */
export function isSourceFile(path: string): boolean {
  return /\.[cm]?tsx?$/.test(path);
}

// ---------------------------------------------------------------------------------------------
// Imports

/** A token of the import scanner. */
export interface Token {
  /** A name (identifier or keyword), a string literal, punctuation or anything else. */
  type: "name" | "string" | "punct" | "other";
  /** The text; for a string literal, what is between the quotes. */
  value: string;
  /** The line it starts on, from 1. */
  line: number;
}

/** Words after which a `/` starts a regular expression literal rather than a division. */
const BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

const ID_START = /[A-Za-z_$\u0080-\uffff]/;
const ID_PART = /[\w$\u0080-\uffff]/;

/**
 * Splits TypeScript source into names, string literals and punctuation, dropping comments and
 * the text of template and regular expression literals. A template literal without
 * substitutions becomes a string token; one with substitutions yields the tokens of its
 * substitutions. Whether a `/` starts a regular expression is decided by the token before it,
 * the usual heuristic of tools that do not parse.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const n = source.length;
  // Open `${` substitutions: the `{` depth within each.
  const substitutions: number[] = [];
  let line = 1;
  let i = 0;
  if (source.startsWith("#!")) { while (i < n && source[i] !== "\n") i++; }

  const push = (type: Token["type"], value: string, at = line) =>
    tokens.push({ type, value, line: at });
  const regexAllowed = () => {
    const last = tokens.at(-1);
    if (last === undefined) return true;
    if (last.type === "name") return BEFORE_REGEX.has(last.value);
    if (last.type !== "punct") return false;
    return last.value !== ")" && last.value !== "]" && last.value !== "}";
  };
  // Scans template text from `i` (after "`" or a substitution's "}"); returns whether it ended
  // at the closing "`" (rather than at a "${").
  const scanTemplate = (start: number, startLine: number, head: boolean) => {
    let j = i;
    for (; j < n; j++) {
      const c = source[j];
      if (c === "\\") {
        if (source[j + 1] === "\n") line++;
        j++;
      } else if (c === "\n") {
        line++;
      } else if (c === "`") {
        if (head) push("string", source.slice(start, j), startLine);
        else push("other", "`", startLine);
        i = j + 1;
        return;
      } else if (c === "$" && source[j + 1] === "{") {
        push("other", "`", startLine);
        substitutions.push(0);
        i = j + 2;
        return;
      }
    }
    i = n;
  };

  while (i < n) {
    const c = source[i]!;
    if (c === "\n") {
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < n && source[i] !== "\n") i++;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) if (source[j] === "\n") line++;
      i = stop;
    } else if (c === '"' || c === "'") {
      const at = line;
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== "\n") {
        if (source[j] === "\\") {
          if (source[j + 1] === "\n") line++;
          j++;
        }
        j++;
      }
      push("string", source.slice(i + 1, j), at);
      i = j + 1;
    } else if (c === "`") {
      i++;
      scanTemplate(i, line, true);
    } else if (c === "{") {
      if (substitutions.length > 0) substitutions[substitutions.length - 1]!++;
      push("punct", c);
      i++;
    } else if (c === "}") {
      if (substitutions.length > 0 && substitutions.at(-1) === 0) {
        substitutions.pop();
        i++;
        scanTemplate(i, line, false);
        continue;
      }
      if (substitutions.length > 0) substitutions[substitutions.length - 1]!--;
      push("punct", c);
      i++;
    } else if (c === "/" && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      for (; j < n && source[j] !== "\n"; j++) {
        const r = source[j];
        if (r === "\\") j++;
        else if (r === "[") inClass = true;
        else if (r === "]") inClass = false;
        else if (r === "/" && !inClass) break;
      }
      if (j >= n || source[j] === "\n") {
        // Not a regular expression after all.
        push("punct", c);
        i++;
        continue;
      }
      j++;
      while (j < n && /[a-z]/.test(source[j]!)) j++;
      push("other", source.slice(i, j));
      i = j;
    } else if (ID_START.test(c)) {
      let j = i + 1;
      while (j < n && ID_PART.test(source[j]!)) j++;
      push("name", source.slice(i, j));
      i = j;
    } else if (c >= "0" && c <= "9") {
      let j = i + 1;
      while (j < n && /[\w.]/.test(source[j]!)) j++;
      push("other", source.slice(i, j));
      i = j;
    } else {
      push("punct", c);
      i++;
    }
  }
  return tokens;
}

/** A module specifier a file imports. */
export interface ImportRef {
  /** The specifier as written. */
  specifier: string;
  /** The line of its `import` or `export` keyword. */
  line: number;
  /** Whether it is an `import("…")` expression (or type). */
  dynamic: boolean;
  /** Whether it is an `import type` or `export type` clause, which leaves no runtime import. */
  typeOnly: boolean;
}

/**
 * Finds the source of an `import`/`export` clause starting at token `j`: names, `*`, `,` and at
 * most one `{ … }` list, then `from "…"`. Returns undefined for declarations (`export const`,
 * `export interface X { … }`) and `import x = require(…)`.
 */
function clauseSource(tokens: Token[], j: number): Token | undefined {
  let list = false;
  for (; j < tokens.length; j++) {
    const token = tokens[j]!;
    if (token.type === "name") {
      if (token.value === "from" && tokens[j + 1]?.type === "string") return tokens[j + 1];
      if (token.value === "import" || token.value === "export") return undefined;
    } else if (token.value === "{" && !list) {
      list = true;
      for (j++; j < tokens.length && tokens[j]!.value !== "}"; j++) {
        const inner = tokens[j]!;
        if (inner.type === "punct" && inner.value !== ",") return undefined;
        if (inner.type === "other") return undefined;
      }
      if (tokens[j + 1]?.value !== "from") return undefined;
    } else if (token.value !== "*" && token.value !== ",") {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Lists the specifiers `source` imports: `import … from`, `import type`, side-effect imports,
 * `export … from` and `import("…")` with a literal specifier, in source order.
 */
export function parseImports(source: string): ImportRef[] {
  const tokens = tokenize(source);
  const refs: ImportRef[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== "name" || (token.value !== "import" && token.value !== "export")) continue;
    if (tokens[i - 1]?.value === ".") continue; // `x.import`
    const next = tokens[i + 1];
    if (token.value === "import" && next?.value === "(") {
      const arg = tokens[i + 2];
      const after = tokens[i + 3]?.value;
      if (arg?.type === "string" && (after === ")" || after === ",")) {
        refs.push({ specifier: arg.value, line: token.line, dynamic: true, typeOnly: false });
      }
    } else if (token.value === "import" && next?.type === "string") {
      refs.push({ specifier: next.value, line: token.line, dynamic: false, typeOnly: false });
    } else if (next?.value !== ".") {
      const from = clauseSource(tokens, i + 1);
      // `import type from "./x.ts"` and `import type, { y } …` import a default named `type`.
      const typeOnly = next?.type === "name" && next.value === "type" &&
        tokens[i + 2]?.value !== "," && tokens[i + 3] !== from;
      if (from) refs.push({ specifier: from.value, line: token.line, dynamic: false, typeOnly });
    }
  }
  return refs;
}

/** Whether a specifier is relative (`./x.ts`, `../x.ts`). */
export function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../");
}

/** Resolves a relative specifier of `file` to a path relative to the root. */
export function resolveRelative(file: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(file), specifier.replace(/[?#].*$/, "")));
}

// ---------------------------------------------------------------------------------------------
// Cycles

/**
 * The strongly connected components of `graph` (node → successors; successors that are not
 * nodes are ignored), by Tarjan's algorithm without recursion, in linear time.
 */
export function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const nodes = [...graph.keys()];
  const ids = new Map(nodes.map((node, i) => [node, i]));
  const successors = nodes.map((node) =>
    (graph.get(node) ?? []).flatMap((next) => ids.has(next) ? [ids.get(next)!] : [])
  );
  const count = nodes.length;
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack = new Int32Array(count);
  const workNode = new Int32Array(count);
  const workEdge = new Int32Array(count);
  const components: string[][] = [];
  let counter = 0;
  let top = 0;
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    const enter = (node: number) => {
      index[node] = low[node] = counter++;
      stack[top++] = node;
      onStack[node] = 1;
      workNode[depth] = node;
      workEdge[depth++] = 0;
    };
    enter(root);
    while (depth > 0) {
      const node = workNode[depth - 1]!;
      const edges = successors[node]!;
      if (workEdge[depth - 1]! < edges.length) {
        const next = edges[workEdge[depth - 1]!++]!;
        if (index[next] === -1) enter(next);
        else if (onStack[next]) low[node] = Math.min(low[node]!, index[next]!);
        continue;
      }
      depth--;
      if (depth > 0) {
        const parent = workNode[depth - 1]!;
        low[parent] = Math.min(low[parent]!, low[node]!);
      }
      if (low[node] === index[node]) {
        const component: string[] = [];
        let member: number;
        do {
          member = stack[--top]!;
          onStack[member] = 0;
          component.push(nodes[member]!);
        } while (member !== node);
        components.push(component);
      }
    }
  }
  return components;
}

/** One import cycle and the group of files that reach each other it lies in. */
export interface Cycle {
  /** The cycle as a path that ends where it starts: `[a, b, a]`. */
  path: string[];
  /** Every node of its strongly connected component, sorted. */
  group: string[];
}

/** A shortest cycle through `start` that stays inside `members`, as `[start, …, start]`. */
function shortestCycle(
  graph: ReadonlyMap<string, readonly string[]>,
  start: string,
  members: ReadonlySet<string>,
): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q]!;
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const back = [start];
        for (let at = node; at !== start; at = parent.get(at)!) back.push(at);
        return [...back, start].reverse();
      }
      if (!members.has(next) || parent.has(next)) continue;
      parent.set(next, node);
      queue.push(next);
    }
  }
  return [];
}

/**
 * Finds the import cycles of `graph`. Each strongly connected component with a cycle (two or
 * more nodes, or a node importing itself) yields the shortest cycle through its first node by
 * name, then through its first node not on a cycle yet, and so on until every node of the
 * component is on one: every file in a cycle shows up, with few lines. Finding the components
 * is linear; each cycle shown costs one breadth-first search inside its component.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): Cycle[] {
  const cycles: Cycle[] = [];
  for (const component of stronglyConnected(graph)) {
    const group = component.sort();
    const first = group[0]!;
    if (group.length === 1 && !(graph.get(first) ?? []).includes(first)) continue;
    const members = new Set(group);
    const covered = new Set<string>();
    for (const start of group) {
      if (covered.has(start)) continue;
      const path = shortestCycle(graph, start, members);
      for (const node of path) covered.add(node);
      cycles.push({ path, group });
    }
  }
  const key = (cycle: Cycle) => `${cycle.group[0]}\0${cycle.path[0]}`;
  return cycles.sort((a, b) => key(a) < key(b) ? -1 : 1);
}

// ---------------------------------------------------------------------------------------------
// Layers

/** The package of ours a specifier names: `@adcp-wire/core/x` → `@adcp-wire/core`. */
export function packageOf(specifier: string): string | undefined {
  const match = /^(?:jsr:|npm:)?(@adcp-wire\/[^/@]+)/.exec(specifier);
  return match?.[1];
}

/** The layer of a package in `layers`, or undefined when it is not in the table. */
export function layerOf(name: string, layers = LAYERS): number | undefined {
  const layer = layers.findIndex((names) => names.includes(name));
  return layer < 0 ? undefined : layer;
}

/**
 * Why package `from` may not import `specifier` (which names our package `to`), or undefined
 * when it may. `test` says whether the importing file is a test file.
 */
export function directionProblem(
  from: string,
  specifier: string,
  test: boolean,
  layers = LAYERS,
): string | undefined {
  const to = packageOf(specifier);
  if (to === undefined) return undefined;
  if (to === from) {
    if (test) return undefined;
    return `Source file of ${from} imports its own package by name: expected a relative import, ` +
      `found "${specifier}"`;
  }
  const own = layerOf(from, layers);
  if (own === undefined) return undefined; // reported once per member
  const allowed = layers.slice(0, own).flat();
  const expected = allowed.length === 0
    ? `expected no ${SCOPE}* package`
    : `expected only ${allowed.join(", ")}`;
  const theirs = layerOf(to, layers);
  const what = theirs === undefined
    ? "a package missing from the layer table"
    : theirs === own
    ? "a package of its own layer"
    : theirs > own
    ? "a package of a higher layer"
    : undefined;
  if (what === undefined) return undefined;
  return `Package ${from} imports ${what}: ${expected}, found "${specifier}"`;
}

// ---------------------------------------------------------------------------------------------
// Names

/** Where a public name is declared. */
export interface Declaration {
  /** The public name. */
  name: string;
  /** The package whose directory holds the declaration. */
  package: string;
  /** The file, relative to the root. */
  file: string;
  /** The line, from 1. */
  line: number;
}

/** A source location in `deno doc --json` output. */
export interface DocLocation {
  /** The file's URL. */
  filename: string;
  /** The line, from 0. */
  line: number;
}

/** The parts of `deno doc --json` output (format version 2) the name rule reads. */
export interface DocJson {
  /** Each entry point's exported symbols. */
  nodes?: Record<string, {
    symbols?: {
      name: string;
      declarations?: {
        kind?: string;
        location?: DocLocation;
        def?: { target?: DocLocation };
      }[];
    }[];
  }>;
}

/**
 * The declarations of the symbols in `deno doc --json` output that lie in a member's directory
 * (`root` is the absolute root the file URLs are under), a re-export counting where its symbol
 * is declared. Re-exports of npm or remote modules are left out.
 */
export function declarationsOf(doc: DocJson, root: string, members: Member[]): Declaration[] {
  const out: Declaration[] = [];
  const prefix = `${root.replace(/\/$/, "")}/`;
  for (const node of Object.values(doc.nodes ?? {})) {
    for (const symbol of node.symbols ?? []) {
      for (const declaration of symbol.declarations ?? []) {
        // When one run documents several entry points, a re-export of a symbol another one
        // exports is a "reference" whose target is the declaration.
        const location = declaration.kind === "reference"
          ? declaration.def?.target
          : declaration.location;
        if (!location?.filename.startsWith("file://") || declaration.kind === "import") continue;
        const path = decodeURIComponent(new URL(location.filename).pathname);
        if (!path.startsWith(prefix)) continue;
        const file = path.slice(prefix.length);
        const member = members.find((m) => file.startsWith(`${m.dir}/`));
        if (member === undefined) continue;
        // `deno doc` counts lines from 0.
        out.push({ name: symbol.name, package: member.name, file, line: location.line + 1 });
      }
    }
  }
  return out;
}

/** One message per public name declared by two or more packages, sorted by name. */
export function duplicateNames(declarations: Declaration[]): string[] {
  const byName = new Map<string, Map<string, Set<string>>>();
  for (const d of declarations) {
    const packages = byName.get(d.name) ?? new Map<string, Set<string>>();
    byName.set(d.name, packages);
    const at = packages.get(d.package) ?? new Set<string>();
    packages.set(d.package, at);
    at.add(`${d.file}:${d.line}`);
  }
  const messages: string[] = [];
  for (const [name, packages] of [...byName].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
    if (packages.size < 2) continue;
    const found = [...packages]
      .map(([pkg, at]) => `${[...at].sort().join(", ")} (${pkg})`)
      .sort();
    messages.push(
      `Public name ${name} is declared in ${packages.size} packages: expected one declaration ` +
        `in the workspace, found ${found.join(" and ")}`,
    );
  }
  return messages;
}

/** Runs `deno doc --json` on one entry point, from `root`. */
async function docJson(root: string, entryPoint: string): Promise<DocJson> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", entryPoint],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr).trim();
    const reason = text.split("\n").find((l) => /error/i.test(l)) ?? text.split("\n")[0];
    throw new Error(`deno doc --json failed: ${reason}`);
  }
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Maps `items` through `fn`, at most `limit` at a time, keeping the order. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------
// Width

/** How a file's lines are exempted: code comments, shell comments or Markdown. */
export type TextKind = "code" | "shell" | "markdown";

/**
 * Whether `text` (a line without its comment, list or quote marker) is one link or URL that no
 * reflow can shorten: a run without spaces (a bare URL, `<url>`), a Markdown link or image, a
 * link reference definition or a JSDoc `{@link …}`, optionally followed by punctuation.
 */
export function isLoneLink(text: string): boolean {
  const t = text.trim();
  return /^\S+$/.test(t) ||
    /^!?\[[^\]]*\]\([^)\s]+(?:\s+"[^"]*")?\)[.,;:]?$/.test(t) ||
    /^\[[^\]]+\]:\s+\S+(?:\s+"[^"]*")?$/.test(t) ||
    /^\{@link(?:code|plain)?\s+\S+(?:\s*\|[^}]*)?\}[.,;:]?$/.test(t);
}

/** The columns of a line: its Unicode code points. */
function columns(line: string): number {
  let count = 0;
  for (const _ of line) count++;
  return count;
}

/** The lines of `text` wider than `max` columns, less the exempt ones of its kind. */
export function longLines(
  text: string,
  kind: TextKind,
  max = MAX_COLUMNS,
): { line: number; columns: number }[] {
  const out: { line: number; columns: number }[] = [];
  let fence: string | undefined; // the open Markdown fence, "```" or "~~~~"…
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    let exempt = false;
    if (kind === "markdown") {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        exempt = true;
        const closes = marker !== undefined && marker[0] === fence[0] &&
          marker.length >= fence.length && line.trim() === marker;
        if (closes) {
          fence = undefined;
        }
      } else if (marker !== undefined) {
        exempt = true;
        fence = marker;
      } else {
        const content = line.replace(/^\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+)?/, "");
        exempt = /^\s*\|/.test(line) || isLoneLink(content);
      }
    } else {
      const comment = kind === "code"
        ? /^\s*(?:\/\/+|\/\*+|\*)\s*(.*?)(?:\*\/)?$/.exec(line)
        : /^\s*#+\s*(.*)$/.exec(line);
      exempt = comment !== null && isLoneLink(comment[1]!);
    }
    const width = columns(line);
    if (width > max && !exempt) out.push({ line: index + 1, columns: width });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The whole check

/** Options of {@link checkShape}. */
export interface CheckShapeOptions {
  /**
   * The layer table.
   * @default {LAYERS}
   */
  layers?: readonly (readonly string[])[];
  /**
   * The widest line allowed.
   * @default {100}
   */
  maxColumns?: number;
  /**
   * The rules to check.
   * @default {RULES}
   */
  rules?: readonly Rule[];
}

/** Checks the cycle and layer rules for one member. */
async function checkImports(
  root: string,
  member: Member,
  layers: readonly (readonly string[])[],
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const files = (await listFiles(root, member.dir)).filter(isSourceFile);
  const sources = new Set(files.filter((f) => !isTestFile(f)));
  const graph = new Map<string, string[]>();
  // "from\0to" → whether every import between the two is `import type`.
  const typeOnly = new Map<string, boolean>();
  for (const file of files) {
    const test = !sources.has(file);
    const refs = parseImports(await Deno.readTextFile(posix.join(root, file)));
    const edges: string[] = [];
    for (const ref of refs) {
      const at = `${file}:${ref.line}`;
      if (isRelative(ref.specifier)) {
        const target = resolveRelative(file, ref.specifier);
        if (!target.startsWith(`${member.dir}/`)) {
          findings.push({
            rule: "layer",
            message: `${at}: Relative import leaves package ${member.name}: expected a path ` +
              `inside ${member.dir}/ or an import by package name, found "${ref.specifier}"`,
          });
        } else if (sources.has(target)) {
          edges.push(target);
          const edge = `${file}\0${target}`;
          typeOnly.set(edge, (typeOnly.get(edge) ?? true) && ref.typeOnly);
        }
        continue;
      }
      const problem = directionProblem(member.name, ref.specifier, test, layers);
      if (problem) findings.push({ rule: "layer", message: `${at}: ${problem}` });
    }
    if (!test) graph.set(file, edges);
  }
  for (const cycle of findCycles(graph)) {
    const rel = (path: string) => path.slice(member.dir.length + 1);
    const typeEdges = cycle.path.slice(1)
      .map((to, i) => [cycle.path[i]!, to])
      .filter(([from, to]) => typeOnly.get(`${from}\0${to}`))
      .map(([from, to]) => `${rel(from!)} → ${rel(to!)}`);
    const note = typeEdges.length > 0 ? ` (by import type: ${typeEdges.join(", ")})` : "";
    findings.push({
      rule: "cycle",
      message: `${cycle.path[0]}: Import cycle in ${member.name}: expected no cycle among its ` +
        `source files, found ${cycle.path.map(rel).join(" → ")}${note}`,
    });
  }
  return findings;
}

/** Checks the duplicate-name rule over every entry point of every member. */
async function checkNames(root: string, members: Member[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  const entryPoints = members.flatMap((m) => m.entryPoints);
  const docs = await mapLimit(entryPoints, DOC_CONCURRENCY, async (entry) => {
    try {
      return await docJson(root, entry);
    } catch (error) {
      findings.push({
        rule: "name",
        message: `${entry}: Cannot list its public names: expected deno doc to read the entry ` +
          `point, found ${(error as Error).message}`,
      });
      return {};
    }
  });
  const declarations = docs.flatMap((doc) => declarationsOf(doc, root, members));
  for (const message of duplicateNames(declarations)) findings.push({ rule: "name", message });
  return findings;
}

/** The files the width rule reads, with their kinds. */
async function widthFiles(root: string, members: Member[]): Promise<[string, TextKind][]> {
  const code = [...await listFiles(root, "packages"), ...await listFiles(root, "scripts")]
    .filter((f) => /\.[cm]?tsx?$/.test(f))
    .filter((f) => !f.startsWith("packages/schemas/") && !f.split("/").includes("testdata"));
  const markdown = [
    "README.md",
    ...members.map((m) => `${m.dir}/README.md`),
    ...(await listFiles(root, "docs")).filter((f) => f.endsWith(".md")),
  ];
  const out: [string, TextKind][] = [
    ...code.map((f): [string, TextKind] => [f, "code"]),
    [".ci/run", "shell"],
    ...markdown.map((f): [string, TextKind] => [f, "markdown"]),
  ];
  return out;
}

/** Checks the line-width rule. */
async function checkWidth(root: string, members: Member[], max: number): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [file, kind] of await widthFiles(root, members)) {
    let text: string;
    try {
      text = await Deno.readTextFile(posix.join(root, file));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    for (const long of longLines(text, kind, max)) {
      findings.push({
        rule: "width",
        message: `${file}:${long.line}: Line is ${long.columns} columns wide: expected at most ` +
          `${max}`,
      });
    }
  }
  return findings;
}

/**
 * Checks the workspace at `root` against the four rules and returns the findings: cycles, then
 * layers, names and widths, each in path order.
 */
export async function checkShape(
  root: string,
  options: CheckShapeOptions = {},
): Promise<Finding[]> {
  const layers = options.layers ?? LAYERS;
  const rules = new Set(options.rules ?? RULES);
  const absolute = await Deno.realPath(root);
  const members = await readWorkspace(absolute);
  const names = rules.has("name") ? checkNames(absolute, members) : Promise.resolve([]);
  const findings: Finding[] = [];
  for (const member of members) {
    if (layerOf(member.name, layers) === undefined) {
      findings.push({
        rule: "layer",
        message: `deno.json: Workspace member ${member.name} is missing from the layer table of ` +
          `scripts/check_shape.ts: expected one of ${layers.flat().join(", ")}, found ` +
          member.name,
      });
    }
    findings.push(...await checkImports(absolute, member, layers));
  }
  if (rules.has("width")) {
    findings.push(...await checkWidth(absolute, members, options.maxColumns ?? MAX_COLUMNS));
  }
  findings.push(...await names);
  const key = (f: Finding) => RULES.indexOf(f.rule);
  return findings
    .filter((f) => rules.has(f.rule))
    .sort((a, b) => key(a) - key(b) || a.message.localeCompare(b.message, "en", { numeric: true }));
}

/** A one-line count of the findings per rule, for the rules checked. */
export function summarize(findings: Finding[], rules: readonly Rule[] = RULES): string {
  const what: Record<Rule, string> = {
    cycle: "import cycles",
    layer: "layer violations",
    name: "public-name problems",
    width: "long lines",
  };
  return rules.map((rule) => `${findings.filter((f) => f.rule === rule).length} ${what[rule]}`)
    .join(", ");
}

if (import.meta.main) {
  const only = Deno.args.find((a) => a.startsWith("--only="))?.slice("--only=".length);
  const rules = only?.split(",") as Rule[] | undefined;
  const unknown = rules?.filter((r) => !(RULES as readonly string[]).includes(r)) ?? [];
  if (unknown.length > 0) {
    console.error(`check_shape: expected --only=${RULES.join(",")} (any of), found ${only}`);
    Deno.exit(2);
  }
  const root = Deno.args.find((a) => !a.startsWith("--")) ??
    new URL("..", import.meta.url).pathname;
  const findings = await checkShape(root, rules ? { rules } : {});
  for (const finding of findings) console.log(finding.message);
  if (findings.length > 0) {
    console.error(`check_shape: ${summarize(findings, rules)}`);
    Deno.exit(1);
  }
  console.error("check_shape: no import cycles, layer violations, duplicate names or long lines");
}
