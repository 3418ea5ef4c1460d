/**
 * What the scripts' entry points (`gen.ts`, `sync.ts`, `test_vectors.ts`, ...) share: one error
 * class for failures reported to the user and one for a mistaken command line, {@link runMain},
 * which runs a `main` and turns any error it throws into one line on standard error and exit
 * status 1 (2 for a {@link UsageError}), and {@link unknownArgument}, which names an unknown
 * argument and the known flag nearest to it.
 *
 * @module
 */
import { nearestName } from "@adcp-wire/internal";

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

/**
 * A mistake in the command line (an unknown argument, a missing or bad value), which
 * {@link runMain} reports with exit status 2, as command-line tools do, rather than 1. Throw it
 * with a message that names the argument and the known name nearest to it.
 *
 * @example Reporting an unknown argument
 * ```ts
 * import { ScriptError, UsageError } from "./_cli.ts";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const error = new UsageError('Unknown argument "--chek"');
 * strictEqual(error.name, "UsageError");
 * ok(error instanceof ScriptError);
 * ```
 */
export class UsageError extends ScriptError {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: string = "UsageError";
}

/** Longest part of an argument a message shows, in UTF-16 code units. */
const SHOWN_ARGUMENT_UNITS = 64;

/** Characters a terminal would not show as themselves: controls, format (bidi) and separators. */
const UNSHOWN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * An argument as a message shows it: cut to 64 code units and JSON-quoted, with every control,
 * format (bidi, zero-width) and line or paragraph separator character escaped as `\uXXXX`, so
 * that the line shows what was typed.
 *
 * @param argument The argument.
 * @returns The quoted argument.
 *
 * @example A long argument is cut, an invisible character escaped
 * ```ts
 * import { quoteArgument } from "./_cli.ts";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(quoteArgument("--chek"), '"--chek"');
 * strictEqual(quoteArgument("x".repeat(100)), `"${"x".repeat(64)}…"`);
 * strictEqual(quoteArgument("--json\u202e"), '"--json\\u202e"');
 * ```
 */
export function quoteArgument(argument: string): string {
  const shown = argument.length > SHOWN_ARGUMENT_UNITS
    ? `${argument.slice(0, SHOWN_ARGUMENT_UNITS)}…`
    : argument;
  return JSON.stringify(shown).replace(
    UNSHOWN,
    (char) =>
      Array.from(
        { length: char.length },
        (_, index) => `\\u${char.charCodeAt(index).toString(16).padStart(4, "0")}`,
      ).join(""),
  );
}

/**
 * The error for an argument no option of the script matches: it names the argument and, for one
 * that looks like a flag, the known flag nearest to its flag part (before any `=value`), by
 * `nearestName` of `@adcp-wire/internal`, the workspace's one "did you mean" rule.
 *
 * @param argument The argument as given (`--jsn=out.json`).
 * @param flags The script's flags (`["--json", "--help"]`).
 * @returns The error to throw.
 *
 * @example An unknown flag, and an unknown positional argument
 * ```ts
 * import { unknownArgument } from "./_cli.ts";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   unknownArgument("--jsn=out.json", ["--json", "--help"]).message,
 *   'Unknown argument "--jsn=out.json"; did you mean --json? (see --help)',
 * );
 * strictEqual(
 *   unknownArgument("bench", ["--check", "--help"]).message,
 *   'Unknown argument "bench" (see --help)',
 * );
 * ```
 */
export function unknownArgument(argument: string, flags: readonly string[]): UsageError {
  const equals = argument.indexOf("=");
  const flag = equals > 0 ? argument.slice(0, equals) : argument;
  const near = argument.startsWith("-") ? nearestName(flag, flags) : undefined;
  return new UsageError(
    `Unknown argument ${quoteArgument(argument)}` +
      (near === undefined ? "" : `; did you mean ${near}?`) + " (see --help)",
  );
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
 * line, `error: <message>`, to standard error and exits with status 1, or 2 for a
 * {@link UsageError}: a failure, even one caused by hostile input (a tampered lock, mirror or
 * `$ref`), never surfaces as a stack trace. When `main` returns a number, exits with it; when it
 * returns nothing, the process ends on its own.
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
 *
 * @example A mistaken command line exits 2
 * ```ts
 * import { runMain, UsageError } from "./_cli.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const seen: unknown[] = [];
 * await runMain(() => Promise.reject(new UsageError('Unknown argument "--x" (see --help)')), {
 *   exit: (code) => void seen.push(code),
 *   printError: (line) => void seen.push(line),
 * });
 * deepStrictEqual(seen, ['error: Unknown argument "--x" (see --help)', 2]);
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
    code = error instanceof UsageError ? 2 : 1;
  }
  if (typeof code === "number") exit(code);
}
