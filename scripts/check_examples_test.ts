import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { posix } from "node:path";
import {
  CHECK_EXAMPLES_USAGE,
  checkExamples,
  docProblems,
  exampleProblem,
  hasDoc,
  linkcodes,
  parseCheckExamplesArgs,
  resolveEntryPoints,
} from "./check_examples.ts";
import type { Member } from "./check_shape.ts";

const fence = "```";

/** One module with a case of each rule; the comments name the problems expected. */
const MOD = [
  "/**",
  " * A module.",
  " * @module",
  " */",
  'export * from "./more.ts";',
  "",
  "/**",
  " * Titled.",
  " * @example Usage",
  ` * ${fence}ts`,
  " * titled();",
  ` * ${fence}`,
  " */",
  "export function titled(): void {}",
  "/**",
  " * Untitled, with a tilde fence.",
  " * @example",
  " * ~~~ts",
  " * untitled();",
  " * ~~~",
  " */",
  "export function untitled(): void {}",
  "export function undocumented(): void {}", // 23: no doc
  "/** Described only. */",
  "export function described(): void {}", // 25: no example
  "/**",
  " * Example without code.",
  " * @example Just words.",
  " */",
  "export function wordy(): void {}", // 30: example without code
  "/**",
  " * Overloaded: one example serves every signature.",
  " * @example",
  ` * ${fence}ts`,
  ' * overloaded("x");',
  ` * ${fence}`,
  " */",
  "export function overloaded(x: string): string;",
  "export function overloaded(x: number): number;",
  "export function overloaded(x: unknown): unknown {",
  "  return x;",
  "}",
  "/** A class with no example. */",
  "export class Bare {}", // 44: no example
  "/**",
  " * A class.",
  " * @example",
  ` * ${fence}ts`,
  " * new Shown();",
  ` * ${fence}`,
  " */",
  "export class Shown {",
  "  constructor(a: number) {", // 53: constructor without doc
  "    this.a = a;",
  "  }",
  "  /** A property needs a doc comment, not an example. */",
  "  a: number;",
  "  b = 1;", // 58: property without doc
  "  /**",
  "   * A method with an example.",
  "   * @example",
  ` * ${fence}ts`,
  " * new Shown(1).shown();",
  ` * ${fence}`,
  "   */",
  "  shown(): void {}",
  "  /** A method without one. */",
  "  bare(): void {}", // 68: no example
  "  /** A static method without one. */",
  "  static make(): Shown {", // 70: no example
  "    return new Shown(1);",
  "  }",
  "  /** The getter of a pair whose setter shows both. */",
  "  get pair(): number {",
  "    return this.a;",
  "  }",
  "  /**",
  "   * The setter.",
  "   * @example",
  ` * ${fence}ts`,
  " * new Shown(1).pair = 2;",
  ` * ${fence}`,
  "   */",
  "  set pair(value: number) {",
  "    this.a = value;",
  "  }",
  "  /** A lone getter. */",
  "  get lone(): number {", // 88: no example
  "    return this.a;",
  "  }",
  "  protected hidden(): void {}",
  "  private secret(): void {}",
  "  #own(): void {}",
  "}",
  "/** Options of {@linkcode titled}. */",
  "export interface Options {", // 96: linkcode
  "  /** Uses {@linkcode Shown}; {@link Shown} is fine. */",
  "  x?: number;", // 98: linkcode
  "}",
  "export interface Undocumented {}", // 100: no doc
  "/** A type needs no example. */",
  "export type Kind = string;",
  "/** An enum needs no example. */",
  "export enum Color {",
  "  /** Red. */",
  "  Red,",
  "}",
  "/** A constant needs no example. */",
  "export const LIMIT = 1;",
  "export const bareConstant = 2;", // 110: no doc
  "/**",
  " * A deprecated alias needs no example.",
  " * @deprecated Use {@link titled}.",
  " */",
  "export const oldTitled: typeof titled = titled;",
  "",
].join("\n");

const MORE = [
  "/** No module doc here: it describes `more`. */",
  "export function more(): void {}", // 2: no example
  "",
].join("\n");

/** A second entry point, without a module doc, re-exporting the first one's symbols. */
const ENTRY = [
  'export { Bare, titled } from "./mod.ts";',
  'export { more } from "./more.ts";',
  "",
].join("\n");

/** Writes the modules to a temporary directory, runs `fn` on it and removes it. */
async function withModules(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "check_examples_" });
  try {
    await Deno.writeTextFile(`${dir}/mod.ts`, MOD);
    await Deno.writeTextFile(`${dir}/more.ts`, MORE);
    await Deno.writeTextFile(`${dir}/entry.ts`, ENTRY);
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The problems of the entry points with the temporary directory's path cut off. */
async function problemsOf(dir: string, entries: string[], forbidLinkcode = false) {
  const problems = await checkExamples(entries.map((e) => `${dir}/${e}`), { forbidLinkcode });
  const cwd = posix.relative(Deno.cwd(), dir);
  return problems.map((p) => p.replace(`${cwd}/`, ""));
}

const EXPECTED = [
  "mod.ts:23: Expected a doc comment on function undocumented, found none",
  "mod.ts:25: Expected an @example with a fenced code block on function described, found none",
  "mod.ts:30: Expected an @example with a fenced code block on function wordy, found one without " +
  "code",
  "mod.ts:44: Expected an @example with a fenced code block on class Bare, found none",
  "mod.ts:53: Expected a doc comment on the constructor of Shown, found none",
  "mod.ts:58: Expected a doc comment on property Shown.b, found none",
  "mod.ts:68: Expected an @example with a fenced code block on method Shown.bare, found none",
  "mod.ts:70: Expected an @example with a fenced code block on static method Shown.make, found " +
  "none",
  "mod.ts:88: Expected an @example with a fenced code block on getter Shown.lone, found none",
  "mod.ts:100: Expected a doc comment on interface Undocumented, found none",
  "mod.ts:110: Expected a doc comment on variable bareConstant, found none",
  "more.ts:2: Expected an @example with a fenced code block on function more, found none",
];

Deno.test("checkExamples() holds functions, classes and members to the std rules", async () => {
  await withModules(async (dir) => {
    deepStrictEqual(await problemsOf(dir, ["mod.ts"]), EXPECTED);
  });
});

Deno.test("checkExamples() reports a missing module doc and each symbol once", async () => {
  await withModules(async (dir) => {
    deepStrictEqual(await problemsOf(dir, ["mod.ts", "entry.ts"]), [
      "entry.ts: Expected a module doc (@module) on the entry point, found none",
      ...EXPECTED,
    ]);
    // Alone, the second entry point reports what it re-exports, where it is declared.
    deepStrictEqual(await problemsOf(dir, ["entry.ts"]), [
      "entry.ts: Expected a module doc (@module) on the entry point, found none",
      "mod.ts:44: Expected an @example with a fenced code block on class Bare, found none",
      "more.ts:2: Expected an @example with a fenced code block on function more, found none",
    ]);
  });
});

Deno.test("checkExamples() reports {@linkcode} only when asked to", async () => {
  await withModules(async (dir) => {
    deepStrictEqual(await problemsOf(dir, ["mod.ts"], true), [
      ...EXPECTED.slice(0, 9),
      "mod.ts:96: Expected {@link …}, found {@linkcode titled}",
      "mod.ts:98: Expected {@link …}, found {@linkcode Shown}",
      ...EXPECTED.slice(9),
    ]);
  });
});

Deno.test("exampleProblem() wants an @example with a fenced code block, titled or not", () => {
  const example = (doc: string) => ({ tags: [{ kind: "example", doc }] });
  strictEqual(exampleProblem(example("Title\n```ts\nx();\n```")), undefined);
  strictEqual(exampleProblem(example("```ts\nx();\n```")), undefined);
  strictEqual(exampleProblem(example("~~~\nx();\n~~~")), undefined);
  strictEqual(exampleProblem(example("Only words, `inline code`.")), "no code");
  strictEqual(exampleProblem({ doc: "```ts\nnot an example\n```" }), "none");
  strictEqual(exampleProblem(undefined), "none");
});

Deno.test("hasDoc() and linkcodes() read a doc comment's text and tags", () => {
  strictEqual(hasDoc({ doc: "Text." }), true);
  strictEqual(hasDoc({ tags: [{ kind: "deprecated" }] }), true);
  strictEqual(hasDoc({ doc: " \n" }), false);
  strictEqual(hasDoc(undefined), false);
  deepStrictEqual(
    linkcodes({
      doc: "See {@linkcode a} and {@link b}.",
      tags: [{ kind: "param", doc: "{@linkcode c | the c}" }],
    }),
    ["{@linkcode a}", "{@linkcode c | the c}"],
  );
});

Deno.test("docProblems() skips references, which their own entry point checks", () => {
  const location = { filename: "file:///r/a.ts", line: 0 };
  const doc = {
    nodes: {
      "file:///r/a.ts": {
        module_doc: { doc: "A.", tags: [{ kind: "module" }] },
        symbols: [{ name: "f", declarations: [{ kind: "reference", location }] }],
      },
    },
  };
  deepStrictEqual(docProblems(doc), []);
});

Deno.test("resolveEntryPoints() takes paths, member directories and workspace specifiers", () => {
  const members: Member[] = [{
    name: "@adcp-wire/transports",
    dir: "packages/transports",
    exports: { ".": "packages/transports/mod.ts", "./mcp": "packages/transports/mcp/mod.ts" },
    entryPoints: ["packages/transports/mod.ts", "packages/transports/mcp/mod.ts"],
  }];
  deepStrictEqual(
    resolveEntryPoints(
      ["@adcp-wire/transports/mcp", "packages/transports", "x/y.ts", "@adcp-wire/transports"],
      members,
      ".",
    ),
    ["packages/transports/mcp/mod.ts", "packages/transports/mod.ts", "x/y.ts"],
  );
  throws(
    () => resolveEntryPoints(["@adcp-wire/transports/nope"], members, "."),
    {
      name: "ScriptError",
      message: "Cannot resolve @adcp-wire/transports/nope: expected one of the exports of " +
        "@adcp-wire/transports (., ./mcp), found ./nope",
    },
  );
});

Deno.test("parseCheckExamplesArgs() reads the flag and entries, and names an unknown flag", () => {
  deepStrictEqual(parseCheckExamplesArgs([]), { forbidLinkcode: false, entries: [] });
  deepStrictEqual(parseCheckExamplesArgs(["--forbid-linkcode", "packages/core"]), {
    forbidLinkcode: true,
    entries: ["packages/core"],
  });
  strictEqual(parseCheckExamplesArgs(["packages/core", "--help"]), "help");
  ok(CHECK_EXAMPLES_USAGE.includes("--forbid-linkcode"));
  throws(() => parseCheckExamplesArgs(["--forbid-linkcod"]), {
    name: "UsageError",
    message: 'Unknown argument "--forbid-linkcod"; did you mean --forbid-linkcode? (see --help)',
  });
});
