import { assertTimeGrowth } from "adcp-testkit";
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { runMain, ScriptError, unknownArgument, UsageError } from "./_cli.ts";

/** Runs `main` through {@link runMain} and returns what it printed and the exit codes it set. */
async function run(main: () => Promise<number | void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  await runMain(main, {
    exit: (code) => void seen.push(code),
    printError: (line) => void seen.push(line),
  });
  return seen;
}

Deno.test("runMain() prints one error line and exits 1 on a ScriptError or any error", async () => {
  deepStrictEqual(await run(() => Promise.reject(new ScriptError("Stale files"))), [
    "error: Stale files",
    1,
  ]);
  deepStrictEqual(await run(() => Promise.reject(new TypeError("Bad option"))), [
    "error: Bad option",
    1,
  ]);
  deepStrictEqual(await run(() => Promise.reject("not an Error")), ["error: not an Error", 1]);
});

Deno.test("runMain() exits with a returned status, else leaves the process alone", async () => {
  deepStrictEqual(await run(() => Promise.resolve(0)), [0]);
  deepStrictEqual(await run(() => Promise.resolve(1)), [1]);
  deepStrictEqual(await run(() => Promise.resolve()), []);
});

Deno.test("ScriptError has a literal name and is an Error", () => {
  const error = new ScriptError("Cannot read spec/sources.jsonc");
  ok(error instanceof Error);
  strictEqual(error.name, "ScriptError");
  strictEqual(error.message, "Cannot read spec/sources.jsonc");
});

Deno.test("runMain() exits 2 on a UsageError, a mistaken command line", async () => {
  deepStrictEqual(await run(() => Promise.reject(new UsageError("--json needs a value"))), [
    "error: --json needs a value",
    2,
  ]);
  ok(new UsageError("x") instanceof ScriptError);
  strictEqual(new UsageError("x").name, "UsageError");
});

Deno.test("unknownArgument() names the argument, cut and quoted, and the nearest flag", () => {
  const flags = ["--check", "--json", "--help"];
  strictEqual(
    unknownArgument("--chek", flags).message,
    'Unknown argument "--chek"; did you mean --check? (see --help)',
  );
  strictEqual(
    unknownArgument("--jsn=out.json", flags).message,
    'Unknown argument "--jsn=out.json"; did you mean --json? (see --help)',
  );
  // The nearest flag is named even when none is close, as nearestName of @adcp-wire/internal does.
  match(unknownArgument("--nope", flags).message, /^Unknown argument "--nope"; did you mean --/);
  // A positional argument is not a mistyped flag.
  strictEqual(unknownArgument("check", flags).message, 'Unknown argument "check" (see --help)');
  ok(
    unknownArgument(`--x\u202e\n${"y".repeat(100)}`, flags).message.startsWith(
      `Unknown argument "--x\\u202e\\n${"y".repeat(59)}…"; did you mean `,
    ),
  );
  // Bounded on a long argument, in the same time whatever its length.
  ok(unknownArgument(`--${"x".repeat(1_000_000)}`, flags).message.length < 200);
  assertTimeGrowth(
    (n) => `--${"x".repeat(n)}`,
    (argument) => unknownArgument(argument, flags),
    1_000_000,
    { growth: "constant" },
  );
  ok(unknownArgument("--x", flags) instanceof UsageError);
});

/** Runs a script with `args` as `deno run` does, without network or write access. */
async function runScript(
  script: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      "--allow-sys=cpus",
      `${import.meta.dirname}/${script}`,
      ...args,
    ],
    env: { NO_COLOR: "1", ADCP_UPSTREAM: "" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Every script a user runs, the start of its usage, a mistyped flag and the flag it means. */
const SCRIPTS: readonly { script: string; usage: string; typo: string; meant: string }[] = [
  { script: "sync.ts", usage: "Usage: deno task sync", typo: "--chek", meant: "--check" },
  { script: "gen.ts", usage: "Usage: deno task gen", typo: "--chek", meant: "--check" },
  {
    script: "test_vectors.ts",
    usage: "Usage: deno task test-vectors",
    typo: "--sutie",
    meant: "--suite",
  },
  { script: "test_node.ts", usage: "Usage: deno task test-node", typo: "--jsn", meant: "--json" },
  {
    script: "test_browser.ts",
    usage: "Usage: deno task test-browser",
    typo: "--serv",
    meant: "--serve",
  },
  { script: "bench.ts", usage: "Usage: deno task bench", typo: "--filer=x", meant: "--filter" },
  {
    script: "check_shape.ts",
    usage: "Usage: deno task check-shape",
    typo: "--onyl=cycle",
    meant: "--only",
  },
  {
    script: "check_examples.ts",
    usage: "Usage: deno run --allow-read --allow-run scripts/check_examples.ts",
    typo: "--forbid-linkcodes",
    meant: "--forbid-linkcode",
  },
  {
    script: "impl_adapter.ts",
    usage: "Usage: deno run scripts/impl_adapter.ts",
    typo: "--hepl",
    meant: "--help",
  },
];

for (const { script, usage, typo, meant } of SCRIPTS) {
  Deno.test(`${script} --help and -h print the usage and exit 0, doing nothing else`, async () => {
    for (const flag of ["--help", "-h"]) {
      const { code, stdout, stderr } = await runScript(script, [flag]);
      strictEqual(code, 0, `${script} ${flag}: ${stderr}`);
      ok(stdout.startsWith(usage), `${script} ${flag} printed: ${stdout.slice(0, 200)}`);
      ok(stdout.includes("--help"), `${script} ${flag}: the usage names --help`);
    }
  });

  Deno.test(`${script} names an unknown flag and the nearest one, and exits 2`, async () => {
    const { code, stdout, stderr } = await runScript(script, [typo]);
    strictEqual(code, 2, `${script} ${typo}: ${stdout}${stderr}`);
    strictEqual(
      stderr,
      `error: Unknown argument ${JSON.stringify(typo)}; did you mean ${meant}? (see --help)\n`,
    );
  });
}
