/**
 * `deno task test-vectors [--vectors DIR]... [--suite NAME]... [--json FILE] [--impl CMD]
 * [--adcp-version V]`
 *
 * Runs every vector file in `vectors/upstream/` (with the compliance bundles of
 * `vectors/upstream/compliance/<AdCP version>/`, see `_compliance.ts`), `vectors/local/` and each
 * `--vectors DIR` (only those of the `--suite`s, when given), prints a table per file, the skipped
 * and not-applicable vectors, each failure in one line and the first few in full, and exits
 * non-zero on any failure.
 * `--impl CMD` checks another implementation: the runner starts `CMD` once (through `sh -c`) and
 * speaks JSON lines with it (see vectors/README.md). Without it, the project's own implementation
 * answers, through the same protocol objects. Vectors are checked against the pinned AdCP version
 * (`ADCP_VERSION` of `@adcp-wire/schemas`), or `--adcp-version`.
 *
 * @module
 */
import { quoteArgument, runMain, ScriptError, unknownArgument, UsageError } from "./_cli.ts";
import { assembleCompliance } from "./_compliance.ts";
import { displayPath, LOCAL_VECTORS_DIR, ROOT, UPSTREAM_VECTORS_DIR } from "./_sources.ts";
import { ADCP_VERSION } from "@adcp-wire/schemas";
import { nearestName } from "@adcp-wire/internal";
import {
  checkReply,
  compareVersions,
  fileFailure,
  type FileReport,
  formatReport,
  type Implementation,
  ImplementationStoppedError,
  jsonReport,
  runFile,
  type RunOptions,
  SUITE_NAMES,
  type SuiteName,
  suiteOf,
  totals,
  type VectorReply,
} from "./_vectors.ts";

/** The longest reply line accepted: generous for any vector's answer, and a bound on memory. */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** Reads reply lines from a text reader, each at most `maxChars` UTF-16 units long. */
class LineReader {
  readonly #reader: ReadableStreamDefaultReader<string>;
  readonly #maxChars: number;
  #buffer = "";
  #done = false;

  constructor(reader: ReadableStreamDefaultReader<string>, maxChars: number) {
    this.#reader = reader;
    this.#maxChars = maxChars;
  }

  /** The next line, or `undefined` at the end of the output. */
  async next(): Promise<string | undefined> {
    for (;;) {
      const newline = this.#buffer.indexOf("\n");
      if (newline >= 0) {
        const line = this.#buffer.slice(0, newline).replace(/\r$/, "");
        this.#buffer = this.#buffer.slice(newline + 1);
        return line;
      }
      if (this.#buffer.length > this.#maxChars) {
        throw new Error(`reply line longer than ${this.#maxChars} characters`);
      }
      if (this.#done) {
        const rest = this.#buffer;
        this.#buffer = "";
        return rest.length > 0 ? rest : undefined;
      }
      const { done, value } = await this.#reader.read();
      if (done) this.#done = true;
      else this.#buffer += value;
    }
  }

  /** Stops reading at once, even when a read is pending (never waits for the end of the output). */
  cancel(): Promise<void> {
    return this.#reader.cancel().catch(() => {});
  }
}

/** Rejects with `message` after `delayMs`, unless the returned `clear` is called first. */
function deadline(delayMs: number, message: string): { promise: Promise<never>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), delayMs);
  });
  promise.catch(() => {}); // a deadline nobody waits on any more is not an unhandled rejection
  return { promise, clear: () => clearTimeout(timer) };
}

/** How a child process ended, in words: `exited with status 3`, `was killed by SIGTERM`. */
export function describeExit(status: Deno.CommandStatus | undefined): string {
  if (status === undefined) return "is still running";
  return status.signal === null
    ? `exited with status ${status.code}`
    : `was killed by ${status.signal} (status ${status.code})`;
}

/**
 * An implementation in a child process: one JSON request per line in, one JSON reply per line out.
 *
 * The command runs in its own process group (`sh -c CMD`, detached), so that ending it also ends
 * whatever it started. Every write and every reply has `timeoutMs`; a reply line is at most
 * {@link MAX_REPLY_BYTES}. After a timeout, a too-long line, or the end of the output or of the
 * input, the implementation has stopped: the replies that follow could belong to other requests,
 * so this vector and every later one throw an {@link ImplementationStoppedError} without being
 * sent, whose message says once how the process ended (its exit status or signal, waited for at
 * most `exitGraceMs`) and how many requests it answered. `close()` ends the input, gives the
 * process `exitGraceMs` to exit, then kills its process group, and never waits for output the
 * process does not close.
 */
export function childImplementation(
  command: string,
  timeoutMs = 30_000,
  exitGraceMs = 5_000,
): { impl: Implementation; close(): Promise<void> } {
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    cwd: ROOT,
    detached: true,
  }).spawn();
  const writer = child.stdin.getWriter();
  const replies = new LineReader(
    child.stdout.pipeThrough(new TextDecoderStream()).getReader(),
    MAX_REPLY_BYTES,
  );
  const encoder = new TextEncoder();
  let stopped: ImplementationStoppedError | undefined;
  let exited = false;
  let answered = 0;
  const status = child.status.then((childStatus) => {
    exited = true;
    return childStatus;
  });
  const killGroup = (): void => {
    try {
      Deno.kill(-child.pid, "SIGKILL"); // the whole group: sh and what it started
    } catch { /* already gone */ }
  };
  /** Records that the process stopped answering, with how it ended when it did end. */
  const stop = async (what: string, waitForExit: boolean): Promise<never> => {
    let ended: Deno.CommandStatus | undefined;
    if (waitForExit) {
      const grace = deadline(Math.min(exitGraceMs, 2_000), "no exit");
      ended = await Promise.race([status, grace.promise]).catch(() => undefined);
      grace.clear();
    }
    const count = `${answered} ${answered === 1 ? "request" : "requests"}`;
    stopped ??= new ImplementationStoppedError(
      `the port ${what} after answering ${count}` +
        (waitForExit ? ` and ${describeExit(ended)}` : ""),
    );
    throw stopped;
  };
  const implementation: Implementation = async (request) => {
    if (stopped) throw stopped;
    const limit = deadline(timeoutMs, "timeout");
    try {
      // A process that does not read its input fills the pipe: the write then waits, so it is
      // bounded too.
      try {
        await Promise.race([
          writer.write(encoder.encode(JSON.stringify(request) + "\n")),
          limit.promise,
        ]);
      } catch (error) {
        if (error instanceof Error && error.message === "timeout") {
          return await stop(`took no request within ${timeoutMs} ms`, false);
        }
        return await stop("closed its input", true);
      }
      let line: string | undefined;
      try {
        line = await Promise.race([replies.next(), limit.promise]);
      } catch (error) {
        if (error instanceof Error && error.message === "timeout") {
          return await stop(`sent no reply within ${timeoutMs} ms`, false);
        }
        const message = error instanceof Error ? error.message : String(error);
        return message.startsWith("reply line longer")
          ? await stop(`sent a ${message}`, false)
          : await stop(`broke its output (${message})`, true);
      }
      if (line === undefined) return await stop("closed its output", true);
      answered++;
      try {
        return JSON.parse(line) as VectorReply;
      } catch {
        throw new Error(`reply is not JSON: ${line.slice(0, 200)}`);
      }
    } finally {
      limit.clear();
    }
  };
  return {
    impl: implementation,
    async close() {
      const grace = deadline(exitGraceMs, "exit grace period over");
      try {
        await Promise.race([writer.close().catch(() => {}), grace.promise]);
        if (stopped === undefined) await Promise.race([status, grace.promise]);
      } catch {
        /* the grace period ran out */
      } finally {
        grace.clear();
      }
      if (!exited || stopped !== undefined) killGroup();
      await replies.cancel();
      await status;
    },
  };
}

/**
 * The project's own implementation, answering through the protocol's JSON (so its report equals
 * `--impl`'s).
 */
export async function directImplementation(): Promise<Implementation> {
  const { handleRequest } = await import("./_impl.ts");
  return async (request) => {
    const reply = await handleRequest(JSON.parse(JSON.stringify(request)));
    return checkReply(JSON.parse(JSON.stringify(reply)));
  };
}

/**
 * Lists the `*.json` files of a folder, sorted; symbolic links count as files. A missing
 * folder is an error: a folder named on the command line that does not exist must not pass as an
 * empty one.
 */
async function vectorFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.name.endsWith(".json")) continue;
      // A link is followed; one that leads to no readable file is reported as a failed file.
      if (entry.isFile || entry.isSymlink) out.push(`${dir}/${entry.name}`);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new ScriptError(`No such vectors folder: ${dir}`);
    }
    throw error;
  }
  return out.sort();
}

/** How {@link runVectors} runs the files. */
export interface RunVectorsOptions extends RunOptions {
  /**
   * Only the files of these suites run; the others are left out of the report.
   *
   * @default {undefined} (every file)
   */
  suites?: ReadonlySet<string>;
}

/**
 * Runs every file of the given folders: each folder's `*.json` files, sorted, then the compliance
 * bundles of its `compliance/<AdCP version>/` subfolder, assembled by `scripts/_compliance.ts`
 * (none when it has no `compliance/` subfolder). A file that cannot be read, parsed or assembled
 * is one failed `(file)` vector.
 */
export async function runVectors(
  dirs: string[],
  implementation: Implementation,
  options: RunVectorsOptions = {},
): Promise<FileReport[]> {
  const { suites, ...runOptions } = options;
  const wanted = (suite: string | null) =>
    suites === undefined || (suite !== null && suites.has(suite));
  const reports: FileReport[] = [];
  for (const dir of dirs) {
    for (const path of await vectorFiles(dir)) {
      const suite = suiteOf(path);
      if (!wanted(suite)) continue;
      let vectorFile: unknown;
      try {
        vectorFile = JSON.parse(await Deno.readTextFile(path));
      } catch (error) {
        const reason = `cannot read: ${error instanceof Error ? error.message : String(error)}`;
        reports.push(fileFailure(displayPath(path), suite, reason));
        continue;
      }
      reports.push(await runFile(displayPath(path), vectorFile, implementation, runOptions));
    }
    const bundles = await assembleCompliance(dir, runOptions.adcpVersion ?? ADCP_VERSION);
    for (const bundle of bundles) {
      if (!wanted(bundle.suite)) continue;
      reports.push(
        bundle.ok
          ? await runFile(bundle.file, bundle.doc, implementation, {
            ...runOptions,
            suite: bundle.suite,
          })
          : fileFailure(bundle.file, bundle.suite, `cannot read: ${bundle.reason}`),
      );
    }
  }
  return reports;
}

/** The usage of `deno task test-vectors`. */
export const TEST_VECTORS_USAGE: string =
  "Usage: deno task test-vectors [--vectors DIR]... [--suite NAME]... [--json FILE] " +
  "[--impl CMD] [--adcp-version V]\n" +
  "  --vectors DIR      also run the vector files of DIR\n" +
  "  --suite NAME       run only the files of suite NAME (repeatable)\n" +
  "  --json FILE        write the report as JSON to FILE (every outcome, unabridged)\n" +
  "  --impl CMD         check the implementation started by CMD (JSON lines; see " +
  "vectors/README.md)\n" +
  "  --adcp-version V   the AdCP version the implementation is checked against (default: the " +
  `pinned ${ADCP_VERSION})\n` +
  "  --help             print this and exit\n" +
  "Exit status: 0 when every vector passes, 1 when one fails or the run cannot start, 2 for a " +
  "mistaken command line";

/** The command line of `deno task test-vectors`. */
export interface TestVectorsArgs {
  /** The folders whose `*.json` files run: upstream's, the project's, then each `--vectors`. */
  dirs: string[];
  /** `--suite`: only these suites run (every suite when absent). */
  suites?: Set<SuiteName>;
  /** `--json`: where the JSON report goes. */
  json?: string;
  /** `--impl`: the command that starts the implementation (the project's own when absent). */
  command?: string;
  /** `--adcp-version`, else the pinned version. */
  adcpVersion: string;
}

/** The flags of `deno task test-vectors`, for the nearest-flag hint. */
export const TEST_VECTORS_FLAGS: readonly string[] = [
  "--vectors",
  "--suite",
  "--json",
  "--impl",
  "--adcp-version",
  "--help",
];

/**
 * The error for a `--suite` name the runner does not know: it names the suite and the nearest
 * known one (`nearestName` of `@adcp-wire/internal`), and lists the known suites.
 *
 * @param name The name given.
 * @returns The error to throw.
 */
export function unknownSuite(name: string): UsageError {
  const near = nearestName(name, SUITE_NAMES);
  return new UsageError(
    `Unknown suite ${quoteArgument(name)}` +
      (near === undefined ? "" : ` (did you mean ${near}?)`) +
      `; the known suites are ${SUITE_NAMES.join(", ")}`,
  );
}

/**
 * Parses the command line of `deno task test-vectors`.
 *
 * @param argv The arguments.
 * @param flags The flags an unknown argument's hint may name (a task passing its arguments on
 * leaves out the ones it sets).
 * @returns The arguments, or `"help"` for `--help` (or `-h`).
 * @throws {UsageError} On an unknown argument (naming it and the nearest flag), a missing value,
 * an unknown suite (naming the nearest suite and listing the known ones) or a version that is not
 * SemVer.
 */
export function parseTestVectorsArgs(
  argv: readonly string[],
  flags: readonly string[] = TEST_VECTORS_FLAGS,
): TestVectorsArgs | "help" {
  const args: TestVectorsArgs = {
    dirs: [UPSTREAM_VECTORS_DIR, LOCAL_VECTORS_DIR],
    adcpVersion: ADCP_VERSION,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const value = () => {
      const equals = argument.indexOf("=");
      if (equals >= 0) return argument.slice(equals + 1);
      const next = argv[++index];
      if (next === undefined) throw new UsageError(`${argument} needs a value`);
      return next;
    };
    const is = (name: string) => argument === name || argument.startsWith(`${name}=`);
    if (is("--vectors")) args.dirs.push(value());
    else if (is("--json")) args.json = value();
    else if (is("--impl")) args.command = value();
    else if (is("--suite")) {
      const name = value();
      if (!(SUITE_NAMES as readonly string[]).includes(name)) throw unknownSuite(name);
      (args.suites ??= new Set()).add(name as SuiteName);
    } else if (is("--adcp-version")) {
      const version = value();
      try {
        compareVersions(version, version);
      } catch {
        throw new UsageError(
          `--adcp-version must be a SemVer version such as 3.1.19, got ${quoteArgument(version)}`,
        );
      }
      args.adcpVersion = version;
    } else if (argument === "--help" || argument === "-h") return "help";
    else throw unknownArgument(argument, flags);
  }
  return args;
}

async function main(): Promise<number> {
  const args = parseTestVectorsArgs(Deno.args);
  if (args === "help") {
    console.log(TEST_VECTORS_USAGE);
    return 0;
  }
  const child = args.command === undefined ? undefined : childImplementation(args.command);
  const implementation = child?.impl ?? await directImplementation();
  let reports: FileReport[];
  try {
    reports = await runVectors(args.dirs, implementation, {
      adcpVersion: args.adcpVersion,
      ...(args.suites === undefined ? {} : { suites: args.suites }),
    });
  } finally {
    await child?.close();
  }
  console.log(formatReport(reports, { adcpVersion: args.adcpVersion }));
  if (args.json !== undefined) {
    await Deno.writeTextFile(
      args.json,
      JSON.stringify(jsonReport(reports, args.adcpVersion), null, 2) + "\n",
    );
  }
  const { total, failed } = totals(reports);
  if (total === 0) throw new ScriptError("No vectors found (run `deno task sync`)");
  return failed > 0 ? 1 : 0;
}

// Exit status: 1 when a vector fails; 1 with one `error:` line when the run itself fails; 2 with
// one `error:` line for a mistaken command line.
if (import.meta.main) await runMain(main);
