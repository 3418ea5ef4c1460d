/**
 * `deno task sync [--version V] [--from URL|DIR] [--update] [--check]`
 *
 * Fetches the schema closure of the pinned AdCP version into `spec/schemas/<version>/` and upstream's vector files
 * into `vectors/upstream/`, verifying every file against `spec/sources.lock.json`.
 *
 * - Source: the AdCP site by default (schemas from `base_url`, vectors from the pinned commit); `--from DIR` or the
 *   `ADCP_UPSTREAM` environment variable points at a directory laid out like the site (`schemas/<v>/…`,
 *   `test-vectors/…`): the offline/air-gapped mode; `--from URL` at another copy of the site.
 * - Every file's sha256 must equal the lock's. A mismatch, local or fetched, is refused with both digests; nothing
 *   is overwritten. A synced file the lock does not know is removed by a sync and refused by `--check`. `--update`
 *   re-fetches everything and rewrites the lock, writing nothing until the whole closure is fetched and checked;
 *   `--check` verifies the synced files against the lock and writes nothing.
 * - Files already synced and matching the lock are not fetched again, so a second run does no I/O but reading.
 * - Bounded: a size cap per file, a timeout per request, https only (plain http only to a loopback host), and
 *   redirects only to the same origin.
 *
 * @module
 */
import {
  checkLock,
  checkRelativePath,
  isVersion,
  listFiles,
  type Lock,
  pinVersion,
  readIfExists,
  readLock,
  readSources,
  ROOT,
  sha256Hex,
  type Sources,
  writeFileAtomic,
  writeLock,
} from "./_sources.ts";

/** A failure that sync reports to the user in one line and exits 1. */
export class SyncError extends Error {
  override name = "SyncError";
}

/** Where bytes come from. */
export interface Source {
  /** Human-readable origin, for messages. */
  readonly label: string;
  /** Whether the source looks up files by path (a directory) rather than by URL. */
  schema(version: string, path: string): Promise<Uint8Array>;
  vector(name: string): Promise<Uint8Array>;
}

/** Thrown by a source when the file does not exist there. */
export class NotFoundError extends SyncError {
  override name = "NotFoundError";
}

/** A directory laid out like the site. */
export function directorySource(dir: string, maxBytes: number): Source {
  const root = dir.replace(/\/+$/, "");
  let realRoot: Promise<string> | undefined;
  async function read(rel: string): Promise<Uint8Array> {
    const path = `${root}/${rel}`;
    const found = async <T>(op: Promise<T>): Promise<T> => {
      try {
        return await op;
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) {
          throw new NotFoundError(`Not found in ${root}: ${rel}`);
        }
        throw e;
      }
    };
    // A link anywhere on the way (a linked folder) must not lead out of the mirror.
    realRoot ??= Deno.realPath(root);
    const real = await found(Deno.realPath(path));
    if (!real.startsWith(`${await realRoot}/`)) {
      throw new SyncError(`Cannot read ${path}: it leads outside ${root}`);
    }
    const info = await found(Deno.lstat(path));
    if (!info.isFile) throw new SyncError(`Cannot read ${path}: not a regular file`);
    if (info.size > maxBytes) {
      throw new SyncError(
        `Cannot read ${path}: ${info.size} bytes exceeds the ${maxBytes}-byte cap`,
      );
    }
    const bytes = await Deno.readFile(path);
    if (bytes.byteLength > maxBytes) {
      throw new SyncError(
        `Cannot read ${path}: ${bytes.byteLength} bytes exceeds the ${maxBytes}-byte cap`,
      );
    }
    return bytes;
  }
  return {
    label: root,
    schema: (version, path) => read(`schemas/${version}/${path}`),
    vector: (name) => read(`test-vectors/${name}`),
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function checkUrlAllowed(url: URL): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return;
  throw new SyncError(
    `Refusing ${url.href}: only https URLs are fetched (plain http only on loopback)`,
  );
}

/** Fetches one URL with a size cap, a timeout and same-origin redirects only. */
export async function fetchBounded(href: string, limits: Sources["limits"]): Promise<Uint8Array> {
  let url = new URL(href);
  checkUrlAllowed(url);
  const origin = url.origin;
  const signal = AbortSignal.timeout(limits.timeout_ms);
  for (let hop = 0;; hop++) {
    let res: Response;
    try {
      res = await fetch(url, { redirect: "manual", signal });
    } catch (e) {
      throw new SyncError(
        `Cannot fetch ${url.href}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const location = res.headers.get("location");
      if (location === null) {
        throw new SyncError(`Cannot fetch ${url.href}: redirect without a Location`);
      }
      if (hop >= limits.max_redirects) {
        throw new SyncError(`Cannot fetch ${href}: more than ${limits.max_redirects} redirects`);
      }
      const next = new URL(location, url);
      if (next.origin !== origin) {
        throw new SyncError(`Refusing redirect from ${url.href} to another origin: ${next.href}`);
      }
      checkUrlAllowed(next);
      url = next;
      continue;
    }
    if (res.status === 404) {
      await res.body?.cancel();
      throw new NotFoundError(`Not found: ${url.href}`);
    }
    if (!res.ok || res.body === null) {
      await res.body?.cancel();
      throw new SyncError(`Cannot fetch ${url.href}: HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get("content-length") ?? NaN);
    if (Number.isFinite(declared) && declared > limits.max_file_bytes) {
      await res.body.cancel();
      throw new SyncError(
        `Cannot fetch ${url.href}: Content-Length ${declared} exceeds the ${limits.max_file_bytes}-byte cap`,
      );
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > limits.max_file_bytes) {
          await reader.cancel();
          throw new SyncError(
            `Cannot fetch ${url.href}: body exceeds the ${limits.max_file_bytes}-byte cap`,
          );
        }
        chunks.push(value);
      }
    } catch (e) {
      if (e instanceof SyncError) throw e;
      throw new SyncError(
        `Cannot fetch ${url.href}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
}

/** The site (or a copy of it at another URL). */
export function httpSource(
  baseUrl: string,
  vectorUrl: (name: string) => string,
  limits: Sources["limits"],
): Source {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    label: base,
    schema: (version, path) => fetchBounded(`${base}/schemas/${version}/${path}`, limits),
    vector: (name) => fetchBounded(vectorUrl(name), limits),
  };
}

/** Picks the source from `--from`, then `ADCP_UPSTREAM`, then the site. */
export function chooseSource(sources: Sources, from: string | undefined): Source {
  const limits = sources.limits;
  if (from === undefined || from === "") {
    const t = sources.test_vectors;
    return httpSource(
      sources.base_url,
      (name) => t.url_template.replace("{commit}", t.commit).replace("{name}", name),
      limits,
    );
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) {
    const base = from.replace(/\/+$/, "");
    return httpSource(base, (name) => `${base}/test-vectors/${name}`, limits);
  }
  return directorySource(from, limits.max_file_bytes);
}

/** Collects the schema paths one schema file leads to. */
export function referencedPaths(
  doc: unknown,
  fromPath: string,
  version: string,
  sources: Sources,
): { required: Set<string>; mentioned: Set<string> } {
  const required = new Set<string>();
  const mentioned = new Set<string>();
  const canonical = new URL(sources.base_url);
  const prefix = `/schemas/${version}/`;
  const fileUrl = new URL(`${prefix}${fromPath}`, canonical);
  const pathKeys = new Set(sources.schemas.path_keys);
  const mentionRes = sources.schemas.mention_patterns.map((p) => new RegExp(p, "g"));
  const addVersionRelative = (p: string, set: Set<string>) => {
    checkRelativePath(p, `${fromPath}`);
    set.add(p);
  };
  const addStrings = (v: unknown) => {
    if (typeof v === "string") addVersionRelative(v, required);
    else if (Array.isArray(v)) v.forEach(addStrings);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(addStrings);
  };
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      for (const re of mentionRes) {
        for (const m of v.matchAll(re)) addVersionRelative(m[0], mentioned);
      }
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string") {
          const target = x.split("#")[0]!;
          if (target !== "") {
            const url = new URL(target, fileUrl);
            if (url.origin !== canonical.origin || !url.pathname.startsWith(prefix)) {
              throw new SyncError(`${version}/${fromPath}: $ref outside the ${version} tree: ${x}`);
            }
            let decoded: string;
            try {
              decoded = decodeURIComponent(url.pathname.slice(prefix.length));
            } catch {
              throw new SyncError(`${version}/${fromPath}: malformed $ref ${JSON.stringify(x)}`);
            }
            addVersionRelative(decoded, required);
          }
        } else if (pathKeys.has(k)) {
          addStrings(x);
        }
        stack.push(x);
      }
    }
  }
  return { required, mentioned };
}

interface Options {
  version?: string;
  from?: string;
  update: boolean;
  check: boolean;
  quiet: boolean;
}

function parseArgs(args: string[]): Options {
  const o: Options = { update: false, check: false, quiet: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => {
      const eq = a.indexOf("=");
      if (eq >= 0) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new SyncError(`${a} needs a value`);
      return v;
    };
    if (a === "--update") o.update = true;
    else if (a === "--check") o.check = true;
    else if (a === "--quiet") o.quiet = true;
    else if (a === "--version" || a.startsWith("--version=")) o.version = value();
    else if (a === "--from" || a.startsWith("--from=")) o.from = value();
    else if (a === "--help" || a === "-h") {
      console.log(
        "Usage: deno task sync [--version V] [--from URL|DIR] [--update] [--check] [--quiet]\n" +
          "  --version V   sync AdCP schema version V and pin it in spec/sources.jsonc\n" +
          "  --from X      read from a directory laid out like the site, or another copy of the site\n" +
          "                (default: $ADCP_UPSTREAM, else the AdCP site)\n" +
          "  --update      re-fetch everything and rewrite spec/sources.lock.json\n" +
          "  --check       verify the synced files against the lock; write nothing",
      );
      Deno.exit(0);
    } else throw new SyncError(`Unknown argument ${JSON.stringify(a)} (see --help)`);
  }
  if (o.update && o.check) throw new SyncError("--update and --check exclude each other");
  if (o.version !== undefined && !isVersion(o.version)) {
    throw new SyncError(`--version must look like 3.2.0-beta.5 (got ${JSON.stringify(o.version)})`);
  }
  return o;
}

/** What one run did. */
export interface SyncReport {
  version: string;
  fetched: number;
  verified: number;
  removed: string[];
}

/** Progress lines on a TTY, a summary otherwise. */
export class Progress {
  #tty: boolean;
  #quiet: boolean;
  constructor(quiet: boolean) {
    this.#quiet = quiet;
    this.#tty = !quiet && Deno.stderr.isTerminal();
  }
  file(kind: string, path: string, n: number, total: number | undefined): void {
    if (!this.#tty) return;
    const count = total === undefined ? `${n}` : `${n}/${total}`;
    Deno.stderr.writeSync(new TextEncoder().encode(`  ${kind} [${count}] ${path}\n`));
  }
  say(line: string): void {
    if (!this.#quiet) console.log(line);
  }
}

function mismatch(what: string, expected: string, actual: string, hint: string): SyncError {
  return new SyncError(
    `Refusing ${what}: sha256 ${actual} does not match the lock's ${expected}; nothing was overwritten. ${hint}`,
  );
}

async function runPool<T>(
  items: T[],
  concurrency: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from(
    { length: Math.max(1, Math.min(concurrency, items.length)) },
    async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await fn(item);
      }
    },
  );
  await Promise.all(workers);
}

/**
 * Files of `dir` outside `keep`: removed by a sync (the synced set is exactly the lock's), refused
 * by `--check` (which writes nothing and must not pass a tree the lock does not describe).
 */
async function removeStale(
  dir: string,
  keep: Set<string>,
  label: string,
  check: boolean,
): Promise<string[]> {
  const removed: string[] = [];
  for (const f of await listFiles(dir)) {
    if (!keep.has(f)) {
      if (check) {
        throw new SyncError(
          `${label}/${f} is not in the lock; remove it, or run \`deno task sync\` (which removes it)`,
        );
      }
      await Deno.remove(`${dir}/${f}`);
      removed.push(`${label}/${f}`);
    }
  }
  return removed;
}

/**
 * Syncs the vectors and one schema version. Verifies before writing; updates `lock` in place when `update`.
 */
export async function sync(
  sources: Sources,
  lock: Lock,
  opts: {
    version: string;
    source: Source;
    update: boolean;
    check: boolean;
    progress?: Progress;
    /** Folder below which `spec/schemas/` and `vectors/upstream/` are written (tests use a temporary one). */
    root?: string;
  },
): Promise<SyncReport> {
  const { version, source, update, check } = opts;
  checkLock(lock);
  const root = opts.root ?? ROOT;
  const vectorsDir = `${root}/vectors/upstream`;
  const progress = opts.progress ?? new Progress(true);
  const report: SyncReport = { version, fetched: 0, verified: 0, removed: [] };
  const updateHint =
    "Delete the file to re-fetch it, or run `deno task sync --update` if upstream changed.";

  // Vectors.
  const vlock = lock.test_vectors.commit === sources.test_vectors.commit
    ? lock.test_vectors.files
    : {};
  if (!update && lock.test_vectors.commit !== sources.test_vectors.commit) {
    throw new SyncError(
      `The lock records vectors of commit ${
        lock.test_vectors.commit || "(none)"
      } but spec/sources.jsonc pins ` +
        `${sources.test_vectors.commit}; run \`deno task sync --update\` to record the new commit`,
    );
  }
  const newVectors: Record<string, string> = {};
  // With --update, nothing is written until every vector and the whole schema closure are fetched
  // and checked: a refused update leaves the tree as it was.
  const pending: [string, Uint8Array][] = [];
  const put = (path: string, bytes: Uint8Array): Promise<void> | number =>
    update ? pending.push([path, bytes]) : writeFileAtomic(path, bytes);
  let n = 0;
  for (const name of sources.test_vectors.files) {
    n++;
    const path = `${vectorsDir}/${name}`;
    const expected = vlock[name];
    if (expected === undefined && !update) {
      throw new SyncError(
        `vectors/upstream/${name} is not in the lock; run \`deno task sync --update\` to record it`,
      );
    }
    const local = await readIfExists(path);
    if (local !== undefined && !update) {
      const actual = await sha256Hex(local);
      if (actual !== expected) {
        throw mismatch(`vectors/upstream/${name}`, expected!, actual, updateHint);
      }
      report.verified++;
      newVectors[name] = actual;
      continue;
    }
    if (check) throw new SyncError(`vectors/upstream/${name} is missing; run \`deno task sync\``);
    progress.file("vector", name, n, sources.test_vectors.files.length);
    const bytes = await source.vector(name);
    const actual = await sha256Hex(bytes);
    if (!update && actual !== expected) {
      throw mismatch(
        `${name} from ${source.label}`,
        expected!,
        actual,
        "The source differs from the lock.",
      );
    }
    await put(path, bytes);
    report.fetched++;
    newVectors[name] = actual;
  }

  // Schemas.
  const dir = `${root}/spec/schemas/${version}`;
  const slock = lock.schemas[version];
  let digests: Record<string, string>;
  if (!update) {
    if (slock === undefined) {
      throw new SyncError(
        `The lock has no schemas of version ${version}; run \`deno task sync --version ${version} --update\` ` +
          `to fetch and record them`,
      );
    }
    const paths = Object.keys(slock);
    let i = 0;
    await runPool(paths, sources.limits.concurrency, async (p) => {
      const expected = slock[p]!;
      const local = await readIfExists(`${dir}/${p}`);
      if (local !== undefined) {
        const actual = await sha256Hex(local);
        if (actual !== expected) {
          throw mismatch(`spec/schemas/${version}/${p}`, expected, actual, updateHint);
        }
        report.verified++;
        return;
      }
      if (check) {
        throw new SyncError(`spec/schemas/${version}/${p} is missing; run \`deno task sync\``);
      }
      progress.file("schema", p, ++i, undefined);
      const bytes = await source.schema(version, p);
      const actual = await sha256Hex(bytes);
      if (actual !== expected) {
        throw mismatch(
          `${version}/${p} from ${source.label}`,
          expected,
          actual,
          "The source differs from the lock.",
        );
      }
      await writeFileAtomic(`${dir}/${p}`, bytes);
      report.fetched++;
    });
    digests = slock;
  } else {
    const closure = await fetchClosure(sources, version, source, progress);
    digests = closure.digests;
    for (const [p, bytes] of closure.files) pending.push([`${dir}/${p}`, bytes]);
    report.fetched += Object.keys(digests).length;
    for (const [path, bytes] of pending) await writeFileAtomic(path, bytes);
    lock.schemas[version] = digests;
    lock.test_vectors = { commit: sources.test_vectors.commit, files: newVectors };
  }
  report.removed.push(
    ...await removeStale(
      vectorsDir,
      new Set(sources.test_vectors.files),
      "vectors/upstream",
      check,
    ),
  );
  report.removed.push(
    ...await removeStale(dir, new Set(Object.keys(digests)), `spec/schemas/${version}`, check),
  );
  return report;
}

/** Fetches the schema closure of `version`: the digests and the bytes of every file, nothing written. */
async function fetchClosure(
  sources: Sources,
  version: string,
  source: Source,
  progress: Progress,
): Promise<{ digests: Record<string, string>; files: Map<string, Uint8Array> }> {
  const digests: Record<string, string> = {};
  const files = new Map<string, Uint8Array>();
  const seen = new Set<string>();
  const optional = new Set<string>();
  const needed = new Set<string>(sources.schemas.roots);
  let queue = [...sources.schemas.roots, ...sources.schemas.optional_roots];
  for (const r of queue) seen.add(r);
  for (const r of sources.schemas.optional_roots) optional.add(r);
  let n = 0;
  while (queue.length > 0) {
    const batch = queue;
    queue = [];
    await runPool(batch, sources.limits.concurrency, async (p) => {
      let bytes: Uint8Array;
      try {
        bytes = await source.schema(version, p);
      } catch (e) {
        if (e instanceof NotFoundError && optional.has(p)) return; // optional, or only named in prose
        if (e instanceof NotFoundError) {
          throw new SyncError(`${e.message} (needed by the ${version} closure)`);
        }
        throw e;
      }
      progress.file("schema", p, ++n, undefined);
      let doc: unknown;
      try {
        doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      } catch (e) {
        throw new SyncError(
          `${version}/${p} is not JSON: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      digests[p] = await sha256Hex(bytes);
      files.set(p, bytes);
      const { required, mentioned } = referencedPaths(doc, p, version, sources);
      for (const r of required) {
        needed.add(r);
        optional.delete(r);
        if (!seen.has(r)) {
          seen.add(r);
          queue.push(r);
        }
      }
      for (const m of mentioned) {
        if (!seen.has(m)) {
          seen.add(m);
          optional.add(m);
          queue.push(m);
        }
      }
    });
  }
  for (const r of needed) {
    if (!(r in digests)) {
      throw new SyncError(`Not found at ${source.label}: ${version}/${r} (needed by the closure)`);
    }
  }
  return { digests, files };
}

async function main(): Promise<void> {
  const opts = parseArgs(Deno.args);
  const sources = await readSources();
  const lock = await readLock();
  const version = opts.version ?? sources.schema_version;
  const from = opts.from ?? Deno.env.get("ADCP_UPSTREAM");
  const source = chooseSource(sources, from);
  const progress = new Progress(opts.quiet);
  const started = performance.now();
  const report = await sync(sources, lock, {
    version,
    source,
    update: opts.update,
    check: opts.check,
    progress,
  });
  if (opts.update) await writeLock(lock);
  if (!opts.check && version !== sources.schema_version) {
    await pinVersion(version);
    progress.say(
      `Pinned schema_version ${version} in spec/sources.jsonc (was ${sources.schema_version})`,
    );
  }
  for (const r of report.removed) progress.say(`Removed ${r}: not part of the synced set`);
  const ms = Math.round(performance.now() - started);
  const what = opts.check ? "verified" : "synced";
  progress.say(
    `sync: ${what} AdCP ${version} schemas and ${sources.test_vectors.files.length} vector files ` +
      `(${report.fetched} fetched from ${
        opts.check ? "nowhere" : source.label
      }, ${report.verified} already ` +
      `verified) in ${ms} ms${opts.update ? "; lock rewritten" : ""}`,
  );
}

if (import.meta.main) {
  try {
    await main();
  } catch (e) {
    // One line, whatever went wrong: hostile input (a tampered lock, mirror or $ref) must not
    // surface as a stack trace.
    console.error(`sync: ${e instanceof Error ? e.message : String(e)}`);
    Deno.exit(1);
  }
}
