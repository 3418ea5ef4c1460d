/**
 * `deno task test-vectors [--vectors DIR]... [--json FILE] [--impl CMD]`
 *
 * Runs every vector file in `vectors/upstream/`, `vectors/local/` and each `--vectors DIR`, prints
 * a table per file and a diff per failure, and exits non-zero on any failure. `--impl CMD` checks
 * another implementation: the runner starts `CMD` once (through `sh -c`) and speaks JSON lines
 * with it (see vectors/README.md). Without it, the project's own implementation answers, through
 * the same protocol objects.
 *
 * @module
 */
import { runMain, ScriptError } from "./_cli.ts";
import { displayPath, LOCAL_VECTORS_DIR, ROOT, UPSTREAM_VECTORS_DIR } from "./_sources.ts";
import {
  checkReply,
  type FileReport,
  formatReport,
  type Implementation,
  jsonReport,
  runFile,
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

/**
 * An implementation in a child process: one JSON request per line in, one JSON reply per line out.
 *
 * The command runs in its own process group (`sh -c CMD`, detached), so that ending it also ends
 * whatever it started. Every write and every reply has `timeoutMs`; a reply line is at most
 * {@link MAX_REPLY_BYTES}. After a timeout, a too-long line or the end of the output, the
 * implementation is broken: the replies that follow could belong to other requests, so every later
 * vector fails without being sent. `close()` ends the input, gives the process `exitGraceMs` to
 * exit, then kills its process group, and never waits for output the process does not close.
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
  let broken: string | undefined;
  let exited = false;
  const status = child.status.then((childStatus) => {
    exited = true;
    return childStatus;
  });
  const killGroup = (): void => {
    try {
      Deno.kill(-child.pid, "SIGKILL"); // the whole group: sh and what it started
    } catch { /* already gone */ }
  };
  const implementation: Implementation = async (request) => {
    if (broken) throw new Error(broken);
    const limit = deadline(timeoutMs, `no reply within ${timeoutMs} ms`);
    try {
      // A process that does not read its input fills the pipe: the write then waits, so it is
      // bounded too.
      await Promise.race([
        writer.write(encoder.encode(JSON.stringify(request) + "\n")),
        limit.promise,
      ]);
      const line = await Promise.race([replies.next(), limit.promise]);
      if (line === undefined) {
        broken = "the implementation's process closed its output";
        throw new Error(broken);
      }
      try {
        return JSON.parse(line) as VectorReply;
      } catch {
        throw new Error(`reply is not JSON: ${line.slice(0, 200)}`);
      }
    } catch (error) {
      if (
        broken === undefined && error instanceof Error &&
        !error.message.startsWith("reply is not JSON")
      ) {
        broken = error.message;
      }
      throw error;
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
        if (broken === undefined) await Promise.race([status, grace.promise]);
      } catch {
        /* the grace period ran out */
      } finally {
        grace.clear();
      }
      if (!exited || broken !== undefined) killGroup();
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

/** Runs every file of the given folders. */
export async function runVectors(
  dirs: string[],
  implementation: Implementation,
): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  for (const dir of dirs) {
    for (const path of await vectorFiles(dir)) {
      let vectorFile: unknown;
      try {
        vectorFile = JSON.parse(await Deno.readTextFile(path));
      } catch (error) {
        const reason = `cannot read: ${error instanceof Error ? error.message : String(error)}`;
        reports.push({
          file: displayPath(path),
          suite: null,
          total: 1,
          passed: 0,
          failed: 1,
          skipped: 0,
          note: reason,
          outcomes: [{ id: "(file)", description: displayPath(path), status: "failed", reason }],
        });
        continue;
      }
      reports.push(await runFile(displayPath(path), vectorFile, implementation));
    }
  }
  return reports;
}

/** The command line of `deno task test-vectors`. */
interface Args {
  dirs: string[];
  json?: string;
  command?: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { dirs: [UPSTREAM_VECTORS_DIR, LOCAL_VECTORS_DIR] };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const value = () => {
      const equals = argument.indexOf("=");
      if (equals >= 0) return argument.slice(equals + 1);
      const next = argv[++index];
      if (next === undefined) throw new ScriptError(`${argument} needs a value`);
      return next;
    };
    if (argument === "--vectors" || argument.startsWith("--vectors=")) args.dirs.push(value());
    else if (argument === "--json" || argument.startsWith("--json=")) args.json = value();
    else if (argument === "--impl" || argument.startsWith("--impl=")) args.command = value();
    else if (argument === "--help" || argument === "-h") {
      console.log(
        "Usage: deno task test-vectors [--vectors DIR]... [--json FILE] [--impl CMD]\n" +
          "  --vectors DIR  also run the vector files of DIR\n" +
          "  --json FILE    write the report as JSON to FILE\n" +
          "  --impl CMD     check the implementation started by CMD (JSON lines; see " +
          "vectors/README.md)",
      );
      Deno.exit(0);
    } else throw new ScriptError(`Unknown argument ${JSON.stringify(argument)} (see --help)`);
  }
  return args;
}

async function main(): Promise<number> {
  const args = parseArgs(Deno.args);
  const child = args.command === undefined ? undefined : childImplementation(args.command);
  const implementation = child?.impl ?? await directImplementation();
  let reports: FileReport[];
  try {
    reports = await runVectors(args.dirs, implementation);
  } finally {
    await child?.close();
  }
  console.log(formatReport(reports));
  if (args.json !== undefined) {
    await Deno.writeTextFile(args.json, JSON.stringify(jsonReport(reports), null, 2) + "\n");
  }
  const { total, failed } = totals(reports);
  if (total === 0) throw new ScriptError("No vectors found (run `deno task sync`)");
  return failed > 0 ? 1 : 0;
}

// Exit status: 1 when a vector fails; 1 with one `error:` line when the run itself fails.
if (import.meta.main) await runMain(main);
