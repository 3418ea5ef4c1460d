/**
 * `deno task test-vectors [--vectors DIR]... [--json FILE] [--impl CMD]`
 *
 * Runs every vector file in `vectors/upstream/`, `vectors/local/` and each `--vectors DIR`, prints a table per file
 * and a diff per failure, and exits non-zero on any failure. `--impl CMD` checks another implementation: the runner
 * starts `CMD` once (through `sh -c`) and speaks JSON lines with it (see vectors/README.md). Without it, the
 * project's own implementation answers, through the same protocol objects.
 *
 * @module
 */
import { LOCAL_VECTORS_DIR, ROOT, UPSTREAM_VECTORS_DIR } from "./_sources.ts";
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
  #buf = "";
  #done = false;

  constructor(reader: ReadableStreamDefaultReader<string>, maxChars: number) {
    this.#reader = reader;
    this.#maxChars = maxChars;
  }

  /** The next line, or `undefined` at the end of the output. */
  async next(): Promise<string | undefined> {
    for (;;) {
      const nl = this.#buf.indexOf("\n");
      if (nl >= 0) {
        const line = this.#buf.slice(0, nl).replace(/\r$/, "");
        this.#buf = this.#buf.slice(nl + 1);
        return line;
      }
      if (this.#buf.length > this.#maxChars) {
        throw new Error(`reply line longer than ${this.#maxChars} characters`);
      }
      if (this.#done) {
        const rest = this.#buf;
        this.#buf = "";
        return rest.length > 0 ? rest : undefined;
      }
      const { done, value } = await this.#reader.read();
      if (done) this.#done = true;
      else this.#buf += value;
    }
  }

  /** Stops reading at once, even when a read is pending (never waits for the end of the output). */
  cancel(): Promise<void> {
    return this.#reader.cancel().catch(() => {});
  }
}

/** Rejects with `message` after `ms`, unless the returned `clear` is called first. */
function deadline(ms: number, message: string): { promise: Promise<never>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  promise.catch(() => {}); // a deadline nobody waits on any more is not an unhandled rejection
  return { promise, clear: () => clearTimeout(timer) };
}

/**
 * An implementation in a child process: one JSON request per line in, one JSON reply per line out.
 *
 * The command runs in its own process group (`sh -c CMD`, detached), so that ending it also ends
 * whatever it started. Every write and every reply has `timeoutMs`; a reply line is at most
 * {@linkcode MAX_REPLY_BYTES}. After a timeout, a too-long line or the end of the output, the
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
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const killGroup = (): void => {
    try {
      Deno.kill(-child.pid, "SIGKILL"); // the whole group: sh and what it started
    } catch { /* already gone */ }
  };
  const impl: Implementation = async (request) => {
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
    } catch (e) {
      if (
        broken === undefined && e instanceof Error && !e.message.startsWith("reply is not JSON")
      ) {
        broken = e.message;
      }
      throw e;
    } finally {
      limit.clear();
    }
  };
  return {
    impl,
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

/** The project's own implementation, answering through the protocol's JSON (so its report equals `--impl`'s). */
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
    for await (const e of Deno.readDir(dir)) {
      if (!e.name.endsWith(".json")) continue;
      // A link is followed; one that leads to no readable file is reported as a failed file.
      if (e.isFile || e.isSymlink) out.push(`${dir}/${e.name}`);
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new Error(`No such vectors folder: ${dir}`);
    throw e;
  }
  return out.sort();
}

function display(path: string): string {
  return path.startsWith(`${ROOT}/`) ? path.slice(ROOT.length + 1) : path;
}

/** Runs every file of the given folders. */
export async function runVectors(dirs: string[], impl: Implementation): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  for (const dir of dirs) {
    for (const path of await vectorFiles(dir)) {
      let doc: unknown;
      try {
        doc = JSON.parse(await Deno.readTextFile(path));
      } catch (e) {
        const reason = `cannot read: ${e instanceof Error ? e.message : String(e)}`;
        reports.push({
          file: display(path),
          suite: null,
          total: 1,
          passed: 0,
          failed: 1,
          skipped: 0,
          note: reason,
          outcomes: [{ id: "(file)", description: display(path), status: "failed", reason }],
        });
        continue;
      }
      reports.push(await runFile(display(path), doc, impl));
    }
  }
  return reports;
}

interface Args {
  dirs: string[];
  json?: string;
  impl?: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { dirs: [UPSTREAM_VECTORS_DIR, LOCAL_VECTORS_DIR] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const eq = arg.indexOf("=");
      if (eq >= 0) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--vectors" || arg.startsWith("--vectors=")) a.dirs.push(value());
    else if (arg === "--json" || arg.startsWith("--json=")) a.json = value();
    else if (arg === "--impl" || arg.startsWith("--impl=")) a.impl = value();
    else if (arg === "--help" || arg === "-h") {
      console.log(
        "Usage: deno task test-vectors [--vectors DIR]... [--json FILE] [--impl CMD]\n" +
          "  --vectors DIR  also run the vector files of DIR\n" +
          "  --json FILE    write the report as JSON to FILE\n" +
          "  --impl CMD     check the implementation started by CMD (JSON lines; see vectors/README.md)",
      );
      Deno.exit(0);
    } else throw new Error(`Unknown argument ${JSON.stringify(arg)} (see --help)`);
  }
  return a;
}

async function main(): Promise<number> {
  const args = parseArgs(Deno.args);
  const child = args.impl === undefined ? undefined : childImplementation(args.impl);
  const impl = child?.impl ?? await directImplementation();
  let reports: FileReport[];
  try {
    reports = await runVectors(args.dirs, impl);
  } finally {
    await child?.close();
  }
  console.log(formatReport(reports));
  if (args.json !== undefined) {
    await Deno.writeTextFile(args.json, JSON.stringify(jsonReport(reports), null, 2) + "\n");
  }
  const t = totals(reports);
  if (t.total === 0) {
    console.error("test-vectors: no vectors found (run `deno task sync`)");
    return 1;
  }
  return t.failed > 0 ? 1 : 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (e) {
    console.error(`test-vectors: ${e instanceof Error ? e.message : String(e)}`);
    Deno.exit(2);
  }
}
