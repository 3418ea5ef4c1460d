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

/** Reads replies line by line from a byte stream. */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buf = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
    }
  }
  if (buf.length > 0) yield buf;
}

/** An implementation in a child process: one JSON request per line in, one JSON reply per line out. */
export function childImplementation(
  command: string,
  timeoutMs = 30_000,
): { impl: Implementation; close(): Promise<void> } {
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    cwd: ROOT,
  }).spawn();
  const writer = child.stdin.getWriter();
  const replies = lines(child.stdout);
  const encoder = new TextEncoder();
  let broken: string | undefined;
  const impl: Implementation = async (request) => {
    if (broken) throw new Error(broken);
    await writer.write(encoder.encode(JSON.stringify(request) + "\n"));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const next = await Promise.race([replies.next(), timeout]);
      if (next.done) {
        broken = "the implementation's process closed its output";
        throw new Error(broken);
      }
      try {
        return JSON.parse(next.value) as VectorReply;
      } catch {
        throw new Error(`reply is not JSON: ${next.value.slice(0, 200)}`);
      }
    } catch (e) {
      if (e instanceof Error && e.message.startsWith("no reply")) broken = e.message;
      throw e;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    impl,
    async close() {
      await writer.close().catch(() => {});
      if (broken) {
        try {
          child.kill();
        } catch { /* already gone */ }
      }
      await child.status;
      await replies.return(undefined);
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

/** Lists `*.json` files of a folder, sorted; a missing folder has none. */
async function vectorFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".json")) out.push(`${dir}/${e.name}`);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
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
