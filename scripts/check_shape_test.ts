import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { posix } from "node:path";
import {
  CHECK_SHAPE_USAGE,
  checkShape,
  type Declaration,
  declarationsOf,
  directionProblem,
  duplicateNames,
  findCycles,
  type Finding,
  type ImportRef,
  isLoneLink,
  isTestFile,
  layerOf,
  LAYERS,
  longLines,
  type Member,
  ownDeprecations,
  packageOf,
  parseCheckShapeArgs,
  parseImports,
  publishedFiles,
  releasedVersions,
  resolveRelative,
  type Rule,
  stronglyConnected,
  summarize,
  unpublishable,
} from "./check_shape.ts";

const FIXTURES = new URL("./testdata/shape/", import.meta.url).pathname;

/**
 * Copies the fixture tree `name` to a new temporary directory, dropping the `.fixture` suffix
 * its files carry so that no Deno tool of this repository reads them as code or config.
 */
async function materialize(name: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: `check_shape_${name}_` });
  const copy = async (rel: string) => {
    for await (const entry of Deno.readDir(posix.join(FIXTURES, name, rel))) {
      const path = posix.join(rel, entry.name);
      if (entry.isDirectory) {
        await Deno.mkdir(posix.join(dir, path), { recursive: true });
        await copy(path);
      } else {
        const target = posix.join(dir, path.replace(/\.fixture$/, ""));
        await Deno.copyFile(posix.join(FIXTURES, name, path), target);
      }
    }
  };
  await copy("");
  return dir;
}

/** Checks a copy of the fixture tree `name` with `rules` (all by default). */
async function check(name: string, rules?: Rule[]): Promise<Finding[]> {
  const dir = await materialize(name);
  try {
    return await checkShape(dir, rules ? { rules } : {});
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const specifiers = (refs: ImportRef[]) => refs.map((r) => r.specifier);

// ---------------------------------------------------------------------------------------------
// parseImports()

Deno.test("parseImports() reads static, type, side-effect, re-export and dynamic imports", () => {
  const source = [
    'import a from "./a.ts";',
    'import type { B } from "./b.ts";',
    'import "./c.ts";',
    'export * from "./d.ts";',
    'export * as e from "./e.ts";',
    'export type { F } from "./f.ts";',
    'export { g, h as i } from "./g.ts";',
    'const j = await import("./j.ts");',
    'type K = typeof import("./k.ts");',
    'import data from "./l.json" with { type: "json" };',
    'import * as m from "./m.ts";',
    "import n, { o } from './n.ts';",
    "const p = await import(`./p.ts`);",
  ].join("\n");
  deepStrictEqual(parseImports(source), [
    { specifier: "./a.ts", line: 1, dynamic: false, typeOnly: false },
    { specifier: "./b.ts", line: 2, dynamic: false, typeOnly: true },
    { specifier: "./c.ts", line: 3, dynamic: false, typeOnly: false },
    { specifier: "./d.ts", line: 4, dynamic: false, typeOnly: false },
    { specifier: "./e.ts", line: 5, dynamic: false, typeOnly: false },
    { specifier: "./f.ts", line: 6, dynamic: false, typeOnly: true },
    { specifier: "./g.ts", line: 7, dynamic: false, typeOnly: false },
    { specifier: "./j.ts", line: 8, dynamic: true, typeOnly: false },
    { specifier: "./k.ts", line: 9, dynamic: true, typeOnly: false },
    { specifier: "./l.json", line: 10, dynamic: false, typeOnly: false },
    { specifier: "./m.ts", line: 11, dynamic: false, typeOnly: false },
    { specifier: "./n.ts", line: 12, dynamic: false, typeOnly: false },
    { specifier: "./p.ts", line: 13, dynamic: true, typeOnly: false },
  ]);
});

Deno.test("parseImports() reads multi-line lists with comments, from their first line", () => {
  const source = [
    "#!/usr/bin/env -S deno run",
    "import {",
    "  type A, // the first",
    "  /* the second */ b,",
    "  from, // a binding named from",
    '} from "./x.ts";',
    "export {",
    "  c,",
    '} from "./y.ts";',
  ].join("\n");
  deepStrictEqual(parseImports(source), [
    { specifier: "./x.ts", line: 2, dynamic: false, typeOnly: false },
    { specifier: "./y.ts", line: 7, dynamic: false, typeOnly: false },
  ]);
});

Deno.test("parseImports() skips imports in comments, strings, templates and regexps", () => {
  const source = [
    '// import { a } from "./comment.ts";',
    '/* export * from "./block.ts"; */',
    "/**",
    ' * import { b } from "./doc.ts";',
    " */",
    "const s = 'import { c } from \"./single.ts\"';",
    "const d = \"export * from './double.ts'\";",
    'const t = `import x from "./template.ts" ${s} export * from "./tail.ts"`;',
    'const r = /import "\\.\\/regexp\\.ts"/g;',
    'const q = 4 / 2; const u = "./not-a-regexp.ts" / 1;',
    'const v = "escaped \\" from \\"./escaped.ts\\"";',
    'const w = `${await import("./inside.ts")}`;',
  ].join("\n");
  deepStrictEqual(specifiers(parseImports(source)), ["./inside.ts"]);
});

Deno.test("parseImports() skips declarations, import.meta and require-style imports", () => {
  const source = [
    "export interface A { x: string }",
    'import { b } from "./b.ts";',
    "export enum C { D, E }",
    "export { b };",
    "export const from = 1;",
    'export function f(): string { return "./f.ts"; }',
    'const url = new URL("./data.json", import.meta.url);',
    'const resolved = import.meta.resolve("./resolved.ts");',
    'import g = require("./g.ts");',
    'obj.import("./method.ts");',
    'const h = { import: "./property.ts" };',
    "const i = await import(`./${name}.ts`);",
    'import type from "./default-named-type.ts";',
    'import type, { j } from "./default-named-type-and-list.ts";',
  ].join("\n");
  deepStrictEqual(parseImports(source), [
    { specifier: "./b.ts", line: 2, dynamic: false, typeOnly: false },
    { specifier: "./default-named-type.ts", line: 13, dynamic: false, typeOnly: false },
    { specifier: "./default-named-type-and-list.ts", line: 14, dynamic: false, typeOnly: false },
  ]);
});

Deno.test("parseImports() counts lines across comments, strings and templates", () => {
  const source = [
    "/*",
    "*/",
    "const a = `",
    "${1}",
    "`;",
    "const b = 'x\\",
    "y';",
    'import "./z.ts";',
  ].join("\n");
  deepStrictEqual(parseImports(source), [
    { specifier: "./z.ts", line: 8, dynamic: false, typeOnly: false },
  ]);
});

Deno.test("resolveRelative() resolves against the importing file's directory", () => {
  strictEqual(resolveRelative("packages/core/a/b.ts", "../c.ts"), "packages/core/c.ts");
  strictEqual(resolveRelative("packages/core/b.ts", "./d/e.ts"), "packages/core/d/e.ts");
  strictEqual(resolveRelative("packages/core/b.ts", "../../x.ts"), "x.ts");
  strictEqual(resolveRelative("packages/core/b.ts", "./c.ts?raw"), "packages/core/c.ts");
});

Deno.test("isTestFile() knows tests, benches, test helpers and testdata", () => {
  for (
    const path of ["a_test.ts", "x/a_bench.ts", "_test_utils.ts", "testdata/w.ts", "a_test.tsx"]
  ) {
    ok(isTestFile(path), path);
  }
  for (const path of ["a.ts", "test.ts", "_tests.ts", "latest_data.ts", "_bench_util.ts"]) {
    ok(!isTestFile(path), path);
  }
});

// ---------------------------------------------------------------------------------------------
// findCycles()

const graphOf = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

Deno.test("stronglyConnected() groups the nodes that reach each other", () => {
  const graph = graphOf({ a: ["b"], b: ["c"], c: ["a", "d"], d: ["e"], e: ["d"], f: ["x"] });
  deepStrictEqual(
    stronglyConnected(graph).map((c) => c.sort().join()).sort(),
    ["a,b,c", "d,e", "f"],
  );
});

Deno.test("findCycles() finds none in an acyclic graph and ignores edges to unknown nodes", () => {
  deepStrictEqual(findCycles(graphOf({ a: ["b", "c"], b: ["c", "zz"], c: [] })), []);
});

Deno.test("findCycles() reports self imports, two cycles and covers every file of a group", () => {
  const graph = graphOf({
    a: ["a"],
    b: ["c"],
    c: ["b"],
    // f → g → f and h → f → g → h: one group, two cycles to show h.
    f: ["g"],
    g: ["f", "h"],
    h: ["f"],
  });
  deepStrictEqual(findCycles(graph).map((c) => c.path.join(" → ")), [
    "a → a",
    "b → c → b",
    "f → g → f",
    "h → f → g → h",
  ]);
});

Deno.test("findCycles() shows a shortest cycle through the first file of the group", () => {
  // a → b → c → d → a, with a shortcut c → a.
  const graph = graphOf({ a: ["b"], b: ["c"], c: ["d", "a"], d: ["a"] });
  deepStrictEqual(findCycles(graph).map((c) => c.path), [["a", "b", "c", "a"], [
    "d",
    "a",
    "b",
    "c",
    "d",
  ]]);
});

Deno.test("findCycles() handles a 100,000-node ring without recursion, in linear time", () => {
  const size = 100_000;
  const graph = new Map<string, string[]>();
  for (let i = 0; i < size; i++) graph.set(`n${i}`, [`n${(i + 1) % size}`]);
  const started = performance.now();
  const cycles = findCycles(graph);
  strictEqual(cycles.length, 1);
  strictEqual(cycles[0]!.path.length, size + 1);
  ok(performance.now() - started < 5_000, "took more than 5 s");
});

// ---------------------------------------------------------------------------------------------
// directionProblem()

Deno.test("directionProblem() allows exactly the packages of lower layers", () => {
  const all = LAYERS.flat();
  for (const from of all) {
    for (const to of all) {
      if (from === to) continue;
      const allowed = layerOf(to)! < layerOf(from)!;
      const problem = directionProblem(from, to, false);
      strictEqual(problem === undefined, allowed, `${from} → ${to}: ${problem}`);
      strictEqual(directionProblem(from, to, true) === undefined, allowed, `${from} → ${to}`);
    }
  }
});

Deno.test("directionProblem() says what was expected and what was found", () => {
  strictEqual(
    directionProblem("@adcp-wire/recovery", "@adcp-wire/security", false),
    "Package @adcp-wire/recovery imports a package of its own layer: expected only " +
      '@adcp-wire/internal, @adcp-wire/schemas, @adcp-wire/core, found "@adcp-wire/security"',
  );
  strictEqual(
    directionProblem("@adcp-wire/internal", "@adcp-wire/schemas/validators", true),
    "Package @adcp-wire/internal imports a package of a higher layer: expected no @adcp-wire/* " +
      'package, found "@adcp-wire/schemas/validators"',
  );
  strictEqual(
    directionProblem("@adcp-wire/core", "jsr:@adcp-wire/nope@1", false),
    "Package @adcp-wire/core imports a package missing from the layer table: expected only " +
      '@adcp-wire/internal, @adcp-wire/schemas, found "jsr:@adcp-wire/nope@1"',
  );
});

Deno.test("directionProblem() lets tests, and only tests, import their own package by name", () => {
  strictEqual(directionProblem("@adcp-wire/core", "@adcp-wire/core", true), undefined);
  strictEqual(
    directionProblem("@adcp-wire/core", "@adcp-wire/core", false),
    "Source file of @adcp-wire/core imports its own package by name: expected a relative " +
      'import, found "@adcp-wire/core"',
  );
});

Deno.test("directionProblem() ignores packages out of scope and takes a custom table", () => {
  strictEqual(directionProblem("@adcp-wire/internal", "node:assert/strict", false), undefined);
  strictEqual(directionProblem("@adcp-wire/internal", "npm:fast-check@4", false), undefined);
  strictEqual(directionProblem("@adcp-wire/internal", "@adcp-wirex/core", false), undefined);
  strictEqual(
    directionProblem("@adcp-wire/b", "@adcp-wire/a", false, [["@adcp-wire/a"], [
      "@adcp-wire/b",
    ]]),
    undefined,
  );
  strictEqual(packageOf("npm:@adcp-wire/core@1/x"), "@adcp-wire/core");
});

// ---------------------------------------------------------------------------------------------
// duplicateNames()

const decl = (name: string, pkg: string, file: string, line: number): Declaration => ({
  name,
  package: `@adcp-wire/${pkg}`,
  file,
  line,
});

Deno.test("duplicateNames() reports a name two packages declare, with both files", () => {
  deepStrictEqual(
    duplicateNames([
      decl("Limits", "transports", "packages/transports/limits.ts", 9),
      decl("Limits", "security", "packages/security/limits.ts", 3),
      decl("parse", "core", "packages/core/parse.ts", 1),
    ]),
    [
      "Public name Limits is declared in 2 packages: expected one declaration in the workspace, " +
      "found packages/security/limits.ts:3 (@adcp-wire/security) and " +
      "packages/transports/limits.ts:9 (@adcp-wire/transports)",
    ],
  );
});

Deno.test("duplicateNames() accepts re-exports and declarations within one package", () => {
  deepStrictEqual(
    duplicateNames([
      // Re-exported by two entry points: the same declaration twice.
      decl("parse", "core", "packages/core/parse.ts", 1),
      decl("parse", "core", "packages/core/parse.ts", 1),
      // A value and a type of one name (or overloads) in one package.
      decl("Code", "core", "packages/core/code.ts", 4),
      decl("Code", "core", "packages/core/code.ts", 9),
    ]),
    [],
  );
});

Deno.test("declarationsOf() maps declarations to packages, references to their targets", () => {
  const members: Member[] = [
    {
      name: "@adcp-wire/core",
      dir: "packages/core",
      exports: { ".": "packages/core/mod.ts" },
      entryPoints: ["packages/core/mod.ts"],
    },
    { name: "@adcp-wire/corex", dir: "packages/corex", exports: {}, entryPoints: [] },
  ];
  const at = (filename: string, line: number) => ({ location: { filename, line } });
  const doc = {
    nodes: {
      "file:///r/packages/core/mod.ts": {
        symbols: [
          { name: "a", declarations: [at("file:///r/packages/core/a.ts", 0)] },
          { name: "b", declarations: [at("file:///r/packages/corex/b%20c.ts", 4)] },
          { name: "c", declarations: [at("https://example.com/c.ts", 1)] },
          { name: "d", declarations: [at("file:///elsewhere/d.ts", 1)] },
          { name: "e", declarations: [at("file:///r/scripts/e.ts", 1)] },
          {
            name: "f",
            declarations: [{ kind: "import", ...at("file:///r/packages/core/f.ts", 1) }],
          },
          {
            name: "g",
            declarations: [{
              kind: "reference",
              ...at("file:///r/packages/corex/mod.ts", 7),
              def: { target: { filename: "file:///r/packages/core/g.ts", line: 2 } },
            }],
          },
        ],
      },
    },
  };
  deepStrictEqual(declarationsOf(doc, "/r", members), [
    { name: "a", package: "@adcp-wire/core", file: "packages/core/a.ts", line: 1 },
    { name: "b", package: "@adcp-wire/corex", file: "packages/corex/b c.ts", line: 5 },
    { name: "g", package: "@adcp-wire/core", file: "packages/core/g.ts", line: 3 },
  ]);
});

// ---------------------------------------------------------------------------------------------
// longLines()

const long = (n: number, prefix = "", fill = "x") => prefix + fill.repeat(n - prefix.length);

Deno.test("longLines() counts code points, not bytes or UTF-16 units", () => {
  deepStrictEqual(longLines([long(100), long(101), long(100, "", "\u20ac")].join("\n"), "code"), [
    { line: 2, columns: 101 },
  ]);
  deepStrictEqual(longLines(long(100, "", "\u{1F600}"), "code"), []);
  deepStrictEqual(longLines(`${long(100)}\r\n`, "code"), []);
  deepStrictEqual(longLines(long(11), "code", 10), [{ line: 1, columns: 11 }]);
});

Deno.test("longLines() exempts a lone link in a code or shell comment, not long prose", () => {
  const url = long(120, "https://example.com/");
  const code = [
    `// ${url}`,
    ` * ${url}`,
    ` * {@link ${url}}`,
    `// see ${url}`,
    `const u = "${url}";`,
  ];
  deepStrictEqual(longLines(code.join("\n"), "code").map((l) => l.line), [4, 5]);
  deepStrictEqual(longLines([`# ${url}`, `echo ${url}`].join("\n"), "shell"), [
    { line: 2, columns: 125 },
  ]);
});

Deno.test("longLines() exempts Markdown fences, tables and lone links", () => {
  const url = long(120, "https://example.com/");
  const markdown = [
    long(101, "Prose "), // 1
    "````md", // 2
    "```ts", // 3
    long(120), // 4
    "```", // 5
    long(120), // 6: still inside the four-backtick fence
    "````", // 7
    long(110, "| cell "), // 8
    `  ${long(110, "| cell ")}`, // 9
    `[${long(90, "text with spaces ")}](${url})`, // 10
    `- <${url}>`, // 11
    `> ${url}.`, // 12
    `[ref]: ${url} "Title"`, // 13
    `1. [text](${url}) and more words after the link`, // 14
    "~~~", // 15
    long(120), // 16
    "~~~", // 17
    long(102, "After "), // 18
  ];
  deepStrictEqual(longLines(markdown.join("\n"), "markdown"), [
    { line: 1, columns: 101 },
    { line: 14, columns: 161 },
    { line: 18, columns: 102 },
  ]);
});

Deno.test("isLoneLink() accepts one link or URL and nothing else", () => {
  for (
    const text of [
      "https://x.y/z",
      "<https://x.y>",
      "[a b](https://x.y).",
      "{@link https://x.y | a b}",
    ]
  ) {
    ok(isLoneLink(text), text);
  }
  for (const text of ["see https://x.y", "[a](https://x.y) [b](https://x.y)", "a b"]) {
    ok(!isLoneLink(text), text);
  }
});

// ---------------------------------------------------------------------------------------------
// checkShape() on fixture trees

Deno.test("checkShape() passes the good tree on every rule", async () => {
  deepStrictEqual(await check("good"), []);
});

Deno.test("checkShape() reports each import cycle among source files of a package", async () => {
  const found = await check("bad_cycle", ["cycle"]);
  const prefix = "Import cycle in @adcp-wire/core: expected no cycle among its source files, found";
  deepStrictEqual(
    found,
    [
      `packages/core/a.ts: ${prefix} a.ts → b.ts → a.ts (by import type: b.ts → a.ts)`,
      `packages/core/c.ts: ${prefix} c.ts → d.ts → c.ts`,
      `packages/core/e.ts: ${prefix} e.ts → e.ts`,
      `packages/core/f.ts: ${prefix} f.ts → g.ts → f.ts`,
      `packages/core/h.ts: ${prefix} h.ts → f.ts → g.ts → h.ts`,
      // Two folders that import each other, though no file cycle joins them.
      "packages/core/left/: Folder cycle in @adcp-wire/core: expected its folders to import each " +
      "other one way, found left → right → left",
    ].map((message) => ({ rule: "cycle", message })),
  );
});

Deno.test("checkShape() reports imports against the layers and out of a package", async () => {
  const found = await check("bad_layer", ["layer"]);
  const only = (pkg: string) =>
    `expected only ${
      LAYERS.flat().slice(0, pkg === "core" ? 2 : pkg === "validation" ? 5 : 3).join(", ")
    }`;
  deepStrictEqual(found.map((f) => f.message), [
    "deno.json: Workspace member @adcp-wire/extra is missing from the layer table of " +
    `scripts/check_shape.ts: expected one of ${LAYERS.flat().join(", ")}, found @adcp-wire/extra`,
    "packages/core/leave.ts:1: Relative import leaves package @adcp-wire/core: expected a path " +
    'inside packages/core/ or an import by package name, found "../internal/mod.ts"',
    "packages/core/mod.ts:1: Package @adcp-wire/core imports a package of a higher layer: " +
    `${only("core")}, found "@adcp-wire/transports/mcp"`,
    "packages/core/own.ts:1: Source file of @adcp-wire/core imports its own package by name: " +
    'expected a relative import, found "@adcp-wire/core"',
    "packages/core/transports_test.ts:1: Package @adcp-wire/core imports a package of a higher " +
    `layer: ${only("core")}, found "@adcp-wire/transports"`,
    "packages/internal/mod.ts:1: Package @adcp-wire/internal imports a package of a higher " +
    'layer: expected no @adcp-wire/* package, found "@adcp-wire/core"',
    "packages/security/mod.ts:1: Package @adcp-wire/security imports a package of its own layer: " +
    `${only("security")}, found "@adcp-wire/recovery"`,
    "packages/validation/mod.ts:1: Package @adcp-wire/validation imports a package missing from " +
    `the layer table: ${only("validation")}, found "jsr:@adcp-wire/nope@^1"`,
    "packages/validation/testdata/worker.ts:1: Relative import leaves package " +
    "@adcp-wire/validation: expected a path inside packages/validation/ or an import by package " +
    'name, found "../../security/mod.ts"',
  ]);
});

Deno.test("checkShape() reports an entry point deno doc cannot read", async () => {
  const found = await check("bad_layer", ["name"]);
  strictEqual(found.length, 1);
  match(
    found[0]!.message,
    new RegExp(
      "^packages/validation/mod\\.ts: Cannot list its public names: expected deno doc to read " +
        "the entry point, found deno doc --json failed: .*nope",
    ),
  );
});

Deno.test("checkShape() reports a name two packages declare, deprecated aliases too", async () => {
  const found = await check("bad_names", ["name"]);
  const prefix = "is declared in 2 packages: expected one declaration in the workspace, found";
  deepStrictEqual(
    found,
    [
      `Public name JsonObject ${prefix} packages/internal/mod.ts:7 (@adcp-wire/internal) and ` +
      "packages/security/mod.ts:7 (@adcp-wire/security)",
      `Public name LimitError ${prefix} packages/core/errors.ts:2 (@adcp-wire/core) and ` +
      "packages/transports/mcp/mod.ts:11, packages/transports/mcp/mod.ts:13 " +
      "(@adcp-wire/transports)",
    ].map((message) => ({ rule: "name", message })),
  );
});

Deno.test("checkShape() reports a deprecation in a package never released", async () => {
  deepStrictEqual(
    await check("bad_names", ["deprecated"]),
    [10, 12].map((line) => ({
      rule: "deprecated",
      message: `packages/transports/mcp/mod.ts:${line}: Deprecation in unreleased ` +
        "@adcp-wire/transports: expected none before a first release (remove the old name; a " +
        "protocol feature may be marked with the AdCP version that removes it), found @deprecated",
    })),
  );
});

Deno.test("ownDeprecations() lets a protocol deprecation naming its AdCP removal through", () => {
  const source = [
    "/**",
    " * @deprecated Use {@link New}.",
    " */",
    "/**",
    " * @deprecated The legacy scheme is deprecated in AdCP 3.x and removed in AdCP 4.0;",
    " * use the RFC 9421 profile.",
    " */",
    "/** @deprecated */",
    "// the word deprecated alone is no tag",
  ].join("\n");
  deepStrictEqual(ownDeprecations(source), [2, 8]);
  deepStrictEqual(releasedVersions("# Changelog\n\n## Unreleased\n\n### x\n"), []);
  deepStrictEqual(releasedVersions("## 0.2.0 (2027-01-01)\n## [0.1.0]\n"), ["0.2.0", "0.1.0"]);
});

Deno.test("checkShape() reports what a release would publish that is no library code", async () => {
  const dir = await materialize("good");
  try {
    // Without its excludes, the core member would publish its tests, benchmark, helper and data.
    const config = posix.join(dir, "packages/core/deno.json");
    const json = JSON.parse(await Deno.readTextFile(config));
    delete json.publish;
    await Deno.writeTextFile(config, JSON.stringify(json));
    const found = await checkShape(dir, { rules: ["publish"] });
    const line = (file: string, what: string) =>
      `packages/core/${file}: Published by a release: expected library code only, found ${what} ` +
      "(exclude it in the member's deno.json publish.exclude)";
    deepStrictEqual(found.map((f) => f.message), [
      line("_test_helpers.ts", "a test helper"),
      line("parse_bench.ts", "a benchmark"),
      line("parse_test.ts", "a test"),
      line("testdata/more.ts", "test data"),
      line("testdata/sample.ts", "test data"),
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("unpublishable() and publishedFiles() read the dry run's file list", () => {
  const output = [
    "Simulating publish of @adcp-wire/core@0.1.0 with files:",
    "   file:///w/packages/core/mod.ts (1KB)",
    "   file:///w/packages/core/seller/testdata/leaks.json (29.43KB)",
    "   file:///elsewhere/x.ts (1KB)",
  ].join("\n");
  deepStrictEqual(publishedFiles(output, "/w"), [
    "packages/core/mod.ts",
    "packages/core/seller/testdata/leaks.json",
  ]);
  strictEqual(unpublishable("packages/core/mod.ts"), undefined);
  strictEqual(unpublishable("packages/core/seller/testdata/leaks.json"), "test data");
  strictEqual(unpublishable("packages/schemas/tasks/comply_test_controller.ts"), undefined);
});

Deno.test("checkShape() reports long lines of the checked files only", async () => {
  const found = await check("bad_width", ["width"]);
  const line = (at: string, columns: number) =>
    `${at}: Line is ${columns} columns wide: expected at most 100`;
  deepStrictEqual(found.map((f) => f.message), [
    line(".ci/run:3", 103),
    line("docs/deep/more.md:1", 102),
    line("docs/guide.md:1", 101),
    line("packages/core/mod.ts:7", 101),
    line("packages/core/mod.ts:8", 105),
    line("packages/core/README.md:3", 101),
    line("README.md:3", 104),
    line("README.md:17", 106),
    line("scripts/tool.ts:1", 102),
  ]);
});

Deno.test("summarize() counts the findings of the checked rules", () => {
  const findings: Finding[] = [
    { rule: "cycle", message: "a" },
    { rule: "width", message: "b" },
    { rule: "width", message: "c" },
  ];
  strictEqual(
    summarize(findings),
    "1 import cycles, 0 layer violations, 0 public-name problems, 2 long lines, " +
      "0 unpublishable files, 0 early deprecations",
  );
  strictEqual(summarize(findings, ["width"]), "2 long lines");
});

Deno.test("parseCheckShapeArgs() reads --only and a root, names an unknown flag or rule", () => {
  deepStrictEqual(parseCheckShapeArgs([]), {});
  deepStrictEqual(parseCheckShapeArgs(["--only=cycle,width", "/tmp/w"]), {
    rules: ["cycle", "width"],
    root: "/tmp/w",
  });
  strictEqual(parseCheckShapeArgs(["--only=cycle", "--help"]), "help");
  strictEqual(parseCheckShapeArgs(["-h"]), "help");
  ok(CHECK_SHAPE_USAGE.startsWith("Usage: deno task check-shape"));
  throws(() => parseCheckShapeArgs(["--onyl=cycle"]), {
    name: "UsageError",
    message: 'Unknown argument "--onyl=cycle"; did you mean --only? (see --help)',
  });
  throws(() => parseCheckShapeArgs(["--only=cycles"]), {
    name: "UsageError",
    message: 'Unknown rule "cycles" in --only (did you mean cycle?); the rules are cycle, layer, ' +
      "name, width, publish, deprecated",
  });
  throws(() => parseCheckShapeArgs(["--only"]), { name: "UsageError" });
  throws(() => parseCheckShapeArgs(["a", "b"]), {
    name: "UsageError",
    message: 'Expected at most one root, got "b" too',
  });
});
