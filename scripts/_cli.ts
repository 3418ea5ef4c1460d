/**
 * What the scripts' entry points (`gen.ts`, `sync.ts`, `test_vectors.ts`) share: one error class
 * for failures reported to the user, and {@link runMain}, which runs a `main` and turns any error
 * it throws into one line on standard error and exit status 1.
 *
 * @module
 */

/**
 * A failure a script reports to the user in one line (a stale file, a digest mismatch, a bad
 * argument). Throw it with a message that says what was expected and what was seen.
 *
 * @example Reporting a bad argument
 * ```ts
 * import { ScriptError } from "./_cli.ts";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new ScriptError('Unknown argument "--chek"');
 * strictEqual(error.name, "ScriptError");
 * ```
 */
export class ScriptError extends Error {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: string = "ScriptError";
}

/** Options of {@link runMain}. */
export interface RunMainOptions {
  /**
   * Ends the process with a status.
   *
   * @default {Deno.exit}
   */
  exit?: (code: number) => void;
  /**
   * Writes one line to standard error.
   *
   * @default {console.error}
   */
  printError?: (line: string) => void;
}

/**
 * Runs a script's `main`. When `main` throws (a {@link ScriptError} or anything else), prints one
 * line, `error: <message>`, to standard error and exits with status 1: a failure, even one caused
 * by hostile input (a tampered lock, mirror or `$ref`), never surfaces as a stack trace. When
 * `main` returns a number, exits with it; when it returns nothing, the process ends on its own.
 *
 * @param main The script's work.
 * @param options Where the status and the error line go (tests replace them).
 * @returns When `main` has settled and the status is set.
 *
 * @example A failing main
 * ```ts
 * import { runMain, ScriptError } from "./_cli.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const seen: unknown[] = [];
 * await runMain(() => Promise.reject(new ScriptError("Stale files")), {
 *   exit: (code) => void seen.push(code),
 *   printError: (line) => void seen.push(line),
 * });
 * deepStrictEqual(seen, ["error: Stale files", 1]);
 * ```
 */
export async function runMain(
  main: () => Promise<number | void>,
  options: RunMainOptions = {},
): Promise<void> {
  const { exit = Deno.exit, printError = console.error } = options;
  let code: number | void;
  try {
    code = await main();
  } catch (error) {
    printError(`error: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  }
  if (typeof code === "number") exit(code);
}
