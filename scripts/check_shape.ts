/**
 * A CI guard for the shape of the workspace. It reads the root `deno.json` (`workspace`) and each
 * member's `deno.json` (`name`, `exports`), prints one line per violation of the rules below and
 * exits 1 when there is any.
 *
 * Usage: `deno run --allow-read --allow-run scripts/check_shape.ts [--only=RULE,...] [root]`
 * (`root` defaults to the repository root; `--only` picks rules, all by default; `--help` prints
 * {@link CHECK_SHAPE_USAGE}; a mistaken command line exits 2).
 *
 * 1. Cycles: no import cycle among the source files of one package. Test files (`*_test.ts`,
 *    `*_bench.ts`, `_test_*.ts`, anything under `testdata/`) are left out of the graph. Edges are
 *    relative specifiers of `import … from`, `import type`, `export … from`, side-effect imports
 *    and `import("…")` with a literal string (which also covers `typeof import("…")`). Each group
 *    of files that reach each other (a strongly connected component, found by Tarjan's algorithm
 *    in linear time) is reported as shortest cycles through its files, until each file of the
 *    group is on a reported cycle. Folders may not import each other both ways either (a folder
 *    cycle: two units that need each other are one unit split in two); an entry point `mod.ts`
 *    gathering its subpaths is no dependency of theirs, and the generated `@adcp-wire/schemas`,
 *    whose folders mirror the upstream schema tree, is left out.
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
 * 5. Publish: a release publishes library code only: no file `deno publish --dry-run` lists is a
 *    test, a benchmark, a test helper (`_test_*`) or under a `testdata/` folder at any depth.
 * 6. Deprecated: while CHANGELOG.md lists no release (`## x.y.z`), no source file of a package
 *    has a `@deprecated` tag of ours: a name changed before a first release is simply removed. A
 *    protocol feature the spec deprecates may be marked, naming the AdCP version that removes it
 *    (`removed in AdCP 4.0`); the generated `@adcp-wire/schemas` copies the schemas' own marks.
 *
 * Imports are found by a small tokenizer (comments, strings, template literals and regular
 * expression literals are skipped, so `"… from './x.ts'"` in a string is no import). `.js` files
 * (the generated validator bundles) are not read.
 *
 * @module
 */
import { posix } from "node:path";
import { nearestName } from "@adcp-wire/internal";
import { quoteArgument, runMain, unknownArgument, UsageError } from "./_cli.ts";
import { findCycles } from "./_shape/cycles.ts";
import { isRelative, parseImports, resolveRelative } from "./_shape/imports.ts";
import { directionProblem, layerOf, LAYERS } from "./_shape/layers.ts";
import {
  declarationsOf,
  DOC_CONCURRENCY,
  docJson,
  duplicateNames,
  mapLimit,
} from "./_shape/names.ts";
import { longLines, MAX_COLUMNS, type TextKind } from "./_shape/width.ts";
import { ownDeprecations, releasedVersions } from "./_shape/deprecated.ts";
import { publishDryRun, publishedFiles, unpublishable } from "./_shape/publish.ts";
import {
  isSourceFile,
  isTestFile,
  listFiles,
  type Member,
  readWorkspace,
} from "./_shape/workspace.ts";

export * from "./_shape/workspace.ts";
export * from "./_shape/imports.ts";
export * from "./_shape/cycles.ts";
export * from "./_shape/layers.ts";
export * from "./_shape/names.ts";
export * from "./_shape/width.ts";
export * from "./_shape/deprecated.ts";
export * from "./_shape/publish.ts";

/** The rules, in the order their findings are printed. */
export const RULES = ["cycle", "layer", "name", "width", "publish", "deprecated"] as const;

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
  if (!GENERATED.includes(member.name)) findings.push(...folderCycles(member, graph));
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

/**
 * The generated packages: their folders mirror the upstream schema tree, whose `$ref`s cross
 * folders both ways, so the folder-cycle rule does not hold them (their files still may not form
 * a cycle of imports they cannot have, and a generator writes no cycle of its own).
 */
const GENERATED: readonly string[] = ["@adcp-wire/schemas"];

/**
 * The folder cycles of one member: folders (the member's own directory is `.`) that import each
 * other, from the file graph `graph`. A folder is a unit of the package (a subpath, or a private
 * core): two folders that need each other are one unit split in two.
 */
export function folderCycles(
  member: Member,
  graph: ReadonlyMap<string, readonly string[]>,
): Finding[] {
  const folderOf = (file: string) => posix.dirname(file.slice(member.dir.length + 1));
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    // An entry point that gathers its subpaths is no dependency of theirs.
    if (posix.basename(file) === "mod.ts") continue;
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from) edges.add(to);
    }
  }
  const folderGraph = new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
  return findCycles(folderGraph).map((cycle) => ({
    rule: "cycle",
    message: `${member.dir}/${cycle.path[0]}/: Folder cycle in ${member.name}: expected its ` +
      `folders to import each other one way, found ${cycle.path.join(" → ")}`,
  }));
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
    "CONTRIBUTING.md",
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

/** Checks that a release would publish no test, benchmark, test helper or test data. */
async function checkPublish(root: string): Promise<Finding[]> {
  let output: string;
  try {
    output = await publishDryRun(root);
  } catch (error) {
    return [{
      rule: "publish",
      message: `deno.json: Cannot list what a release publishes: expected deno publish --dry-run ` +
        `to succeed, found ${(error as Error).message}`,
    }];
  }
  return publishedFiles(output, root).flatMap((file): Finding[] => {
    const what = unpublishable(file);
    return what === undefined ? [] : [{
      rule: "publish",
      message: `${file}: Published by a release: expected library code only, found ${what} ` +
        "(exclude it in the member's deno.json publish.exclude)",
    }];
  });
}

/**
 * Checks that no unreleased package deprecates a name of its own: while CHANGELOG.md lists no
 * release, every `@deprecated` in a source file must mark a protocol feature and name the AdCP
 * version that removes it. The generated packages copy the schemas' own deprecations.
 */
async function checkDeprecated(root: string, members: Member[]): Promise<Finding[]> {
  let changelog = "";
  try {
    changelog = await Deno.readTextFile(posix.join(root, "CHANGELOG.md"));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (releasedVersions(changelog).length > 0) return [];
  const findings: Finding[] = [];
  for (const member of members) {
    if (GENERATED.includes(member.name)) continue;
    const files = (await listFiles(root, member.dir)).filter(isSourceFile)
      .filter((file) => !isTestFile(file));
    for (const file of files) {
      for (const line of ownDeprecations(await Deno.readTextFile(posix.join(root, file)))) {
        findings.push({
          rule: "deprecated",
          message: `${file}:${line}: Deprecation in unreleased ${member.name}: expected none ` +
            "before a first release (remove the old name; a protocol feature may be marked " +
            "with the AdCP version that removes it), found @deprecated",
        });
      }
    }
  }
  return findings;
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
  if (rules.has("deprecated")) findings.push(...await checkDeprecated(absolute, members));
  if (rules.has("publish")) findings.push(...await checkPublish(absolute));
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
    publish: "unpublishable files",
    deprecated: "early deprecations",
  };
  return rules.map((rule) => `${findings.filter((f) => f.rule === rule).length} ${what[rule]}`)
    .join(", ");
}

/** The usage text of `check_shape.ts --help`. */
export const CHECK_SHAPE_USAGE: string = [
  "Usage: deno task check-shape [--only=RULE,...] [ROOT]",
  "Checks the shape of the workspace at ROOT (default: the repository root): import and folder",
  "cycles inside a package, layer violations, public names declared twice, lines over " +
  `${MAX_COLUMNS} columns, tests or test data a release would publish, and deprecations in a`,
  "package never released.",
  `  --only=RULES   check only these rules, comma-separated: ${RULES.join(", ")}`,
  "  --help         print this and exit",
  "Exit status: 0 when nothing is found, 1 when something is, 2 for a mistaken command line.",
].join("\n");

/** The flags of `check_shape.ts`, for the nearest-flag hint. */
const CHECK_SHAPE_FLAGS = ["--only", "--help"] as const;

/**
 * Parses the command line of `check_shape.ts`.
 *
 * @param args The arguments.
 * @returns The rules (all when absent) and the root (the repository root when absent), or
 * `"help"` for `--help` (or `-h`).
 * @throws {UsageError} On an unknown flag (naming it and the nearest one), an unknown rule
 * (naming the nearest), `--only` without rules, or more than one root.
 */
export function parseCheckShapeArgs(
  args: readonly string[],
): { rules?: Rule[]; root?: string } | "help" {
  const parsed: { rules?: Rule[]; root?: string } = {};
  for (const arg of args) {
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--only" || arg.startsWith("--only=")) {
      const only = arg.slice("--only=".length);
      if (only === "") throw new UsageError(`--only needs rules: --only=${RULES.join(",")}`);
      const rules = only.split(",");
      for (const rule of rules) {
        if (!(RULES as readonly string[]).includes(rule)) {
          const near = nearestName(rule, RULES);
          throw new UsageError(
            `Unknown rule ${quoteArgument(rule)} in --only` +
              (near === undefined ? "" : ` (did you mean ${near}?)`) +
              `; the rules are ${RULES.join(", ")}`,
          );
        }
      }
      parsed.rules = rules as Rule[];
    } else if (arg.startsWith("-")) {
      throw unknownArgument(arg, CHECK_SHAPE_FLAGS);
    } else if (parsed.root !== undefined) {
      throw new UsageError(`Expected at most one root, got ${quoteArgument(arg)} too`);
    } else {
      parsed.root = arg;
    }
  }
  return parsed;
}

/** The CLI: prints each finding, then a summary; exits 1 when there is any. */
async function main(): Promise<number> {
  const args = parseCheckShapeArgs(Deno.args);
  if (args === "help") {
    console.log(CHECK_SHAPE_USAGE);
    return 0;
  }
  const { rules } = args;
  const root = args.root ?? new URL("..", import.meta.url).pathname;
  const findings = await checkShape(root, rules ? { rules } : {});
  for (const finding of findings) console.log(finding.message);
  if (findings.length > 0) {
    console.error(`check_shape: ${summarize(findings, rules)}`);
    return 1;
  }
  console.error(`check_shape: nothing found (${(rules ?? RULES).join(", ")})`);
  return 0;
}

if (import.meta.main) await runMain(main);
