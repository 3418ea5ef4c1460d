import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { runMain, ScriptError } from "./_cli.ts";

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
