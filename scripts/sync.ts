/**
 * `deno task sync [--version V] [--from URL|DIR] [--update] [--check]`
 *
 * (Past 600 lines: the closure walk, the lock checks and the all-or-nothing write share their
 * state; `_sources.ts` already holds what the other scripts read.)
 *
 * Fetches the schema closure of the pinned AdCP version into `spec/schemas/<version>/`,
 * upstream's vector files into `vectors/upstream/` and the version's compliance test vectors
 * (RFC 9421 request and webhook signing) into `vectors/upstream/compliance/<version>/`, verifying
 * every file against `spec/sources.lock.json`.
 *
 * - The pinned version's files (`spec/schemas/<schema_version>/`), the vector files and the
 *   compliance files (`vectors/upstream/compliance/<each locked version>/`) are committed: a plain
 *   sync verifies the pinned version's and fetches nothing, so a fresh clone works offline. A
 *   missing file is fetched and verified; a file that differs from the lock is refused, with the
 *   way to restore it (`git checkout -- <file>`).
 * - Compliance files are per version, like schemas: a run of version V (`--version V`, default
 *   the pinned one) syncs `compliance/<V>/` and, with `--update`, rewrites only the lock's
 *   `compliance.<V>`; the other locked versions' folders are kept as they are. The site cannot
 *   be listed, so `spec/sources.jsonc` names every file: `compliance.files` must exist in every
 *   version, `compliance.optional_files` are synced when the version has them (3.1.19 lacks the
 *   3.2 profile files). A version without any compliance bundle cannot be `--update`d: a missing
 *   required file fails closed (the safer reading, written down here).
 * - Source of missing files: the AdCP site by default (schemas and compliance files from
 *   `base_url`, vectors from the pinned commit); `--from DIR` or the `ADCP_UPSTREAM` environment
 *   variable points at a directory laid out like the site (`schemas/<version>/…`,
 *   `test-vectors/…`, `compliance/<version>/test-vectors/…`): the offline/air-gapped mode;
 *   `--from URL` at another copy of the site. A source that cannot be reached is reported in one
 *   line: the URL, the runtime's reason, and `--from DIR` / `ADCP_UPSTREAM=DIR`.
 * - Every file's sha256 must equal the lock's. A mismatch, local or fetched, is refused with both
 *   digests; nothing is overwritten. A synced file the lock does not know is removed by a sync and
 *   refused by `--check`. `--update` re-fetches everything and rewrites the lock, writing nothing
 *   until the whole closure is fetched and checked; `--check` verifies the synced files against
 *   the lock and writes nothing.
 * - Files already synced and matching the lock are not fetched again, so a second run does no I/O
 *   but reading.
 * - Bounded: a size cap per file, a timeout per request, https only (plain http only to a loopback
 *   host), and redirects only to the same origin.
 *
 * @module
 */
import {
  checkLock,
  checkRelativePath,
  isVersion,
  listFiles,
  type Lock,
  pinSnapshot,
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
import { quoteArgument, runMain, ScriptError, unknownArgument, UsageError } from "./_cli.ts";

/** Where bytes come from. */
export interface Source {
  /** Human-readable origin, for messages. */
  readonly label: string;
  /** Reads one schema file of a version, by its path relative to the version folder. */
  schema(version: string, path: string): Promise<Uint8Array>;
  /** Reads one of upstream's vector files, by name. */
  vector(name: string): Promise<Uint8Array>;
  /** Reads one compliance file of a version, by its path below `test-vectors/`. */
  compliance(version: string, path: string): Promise<Uint8Array>;
}

/**
 * Thrown by a source when the file does not exist there: the closure walk skips an optional
 * schema that is not found, and fails on any other error.
 */
export class NotFoundError extends ScriptError {
  override readonly name = "NotFoundError";
}

/** A directory laid out like the site. */
export function directorySource(dir: string, maxBytes: number): Source {
  const root = dir.replace(/\/+$/, "");
  let realRoot: Promise<string> | undefined;
  async function read(relativePath: string): Promise<Uint8Array> {
    const path = `${root}/${relativePath}`;
    const found = async <T>(operation: Promise<T>): Promise<T> => {
      try {
        return await operation;
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          throw new NotFoundError(`Not found in ${root}: ${relativePath}`);
        }
        throw error;
      }
    };
    // A link anywhere on the way (a linked folder) must not lead out of the mirror.
    realRoot ??= Deno.realPath(root).catch((error) => {
      throw new ScriptError(
        `Cannot read the mirror ${root}: ${messageOf(error)}; --from DIR and ADCP_UPSTREAM ` +
          "name a folder laid out like the AdCP site (schemas/<version>/…, test-vectors/…, " +
          "compliance/<version>/test-vectors/…)",
      );
    });
    const rootReal = await realRoot;
    const real = await found(Deno.realPath(path));
    if (!real.startsWith(`${rootReal}/`)) {
      throw new ScriptError(`Cannot read ${path}: it leads outside ${root}`);
    }
    const info = await found(Deno.lstat(path));
    if (!info.isFile) throw new ScriptError(`Cannot read ${path}: not a regular file`);
    if (info.size > maxBytes) {
      throw new ScriptError(
        `Cannot read ${path}: ${info.size} bytes exceeds the ${maxBytes}-byte cap`,
      );
    }
    const bytes = await Deno.readFile(path);
    if (bytes.byteLength > maxBytes) {
      throw new ScriptError(
        `Cannot read ${path}: ${bytes.byteLength} bytes exceeds the ${maxBytes}-byte cap`,
      );
    }
    return bytes;
  }
  return {
    label: root,
    schema: (version, path) => read(`schemas/${version}/${path}`),
    vector: (name) => read(`test-vectors/${name}`),
    compliance: (version, path) => read(`compliance/${version}/test-vectors/${path}`),
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function checkUrlAllowed(url: URL): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return;
  throw new ScriptError(
    `Refusing ${url.href}: only https URLs are fetched (plain http only on loopback)`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The way out printed with every failure to reach a source. */
export const OFFLINE_HINT = "to sync offline, use a folder laid out like the AdCP site: " +
  "`deno task sync --from DIR` or `ADCP_UPSTREAM=DIR`";

/**
 * A source that cannot be reached (no DNS, connection refused, timeout, an HTTP error): one line
 * with the URL, the runtime's reason and {@link OFFLINE_HINT}.
 */
export class SourceUnreachableError extends ScriptError {
  override readonly name = "SourceUnreachableError";
  /** The URL that failed. */
  readonly url: string;
  /** The runtime's reason, without the wrapper text that repeats the URL. */
  readonly reason: string;
  /**
   * @param url The URL that failed.
   * @param reason Why, in the runtime's words.
   * @param cause The runtime's error, if any.
   */
  constructor(url: string, reason: string, cause?: unknown) {
    super(`Cannot reach ${url}: ${reason}; ${OFFLINE_HINT}`, { cause });
    this.url = url;
    this.reason = reason;
  }
}

/**
 * Why a request failed, in the runtime's words: the innermost `cause` (Deno's `TypeError: fetch
 * failed` keeps the reason there), without the `error sending request for url (…)` wrapper.
 */
export function networkReason(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return `no complete answer within ${timeoutMs} ms`;
  }
  let innermost = error;
  for (let depth = 0; depth < 8 && innermost instanceof Error; depth++) {
    if (innermost.cause === undefined) break;
    innermost = innermost.cause;
  }
  return messageOf(innermost)
    .replace(/^error sending request for url \([^)]*\): /, "")
    .replace(/^client error \(Connect\): /, "");
}

/** Fetches one URL with a size cap, a timeout and same-origin redirects only. */
export async function fetchBounded(
  href: string,
  limits: Sources["limits"],
  fetchImpl: typeof fetch = fetch,
): Promise<Uint8Array> {
  let url = new URL(href);
  checkUrlAllowed(url);
  const origin = url.origin;
  const signal = AbortSignal.timeout(limits.timeout_ms);
  for (let hop = 0;; hop++) {
    let response: Response;
    try {
      response = await fetchImpl(url, { redirect: "manual", signal });
    } catch (error) {
      throw new SourceUnreachableError(url.href, networkReason(error, limits.timeout_ms), error);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (location === null) {
        throw new ScriptError(`Cannot fetch ${url.href}: redirect without a Location`);
      }
      if (hop >= limits.max_redirects) {
        throw new ScriptError(
          `Cannot fetch ${href}: more than ${limits.max_redirects} redirects`,
        );
      }
      const next = new URL(location, url);
      if (next.origin !== origin) {
        throw new ScriptError(
          `Refusing redirect from ${url.href} to another origin: ${next.href}`,
        );
      }
      checkUrlAllowed(next);
      url = next;
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new NotFoundError(`Not found: ${url.href}`);
    }
    if (!response.ok || response.body === null) {
      await response.body?.cancel();
      throw new SourceUnreachableError(url.href, `HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (Number.isFinite(declared) && declared > limits.max_file_bytes) {
      await response.body.cancel();
      throw new ScriptError(
        `Cannot fetch ${url.href}: Content-Length ${declared} exceeds the ` +
          `${limits.max_file_bytes}-byte cap`,
      );
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > limits.max_file_bytes) {
          await reader.cancel();
          throw new ScriptError(
            `Cannot fetch ${url.href}: body exceeds the ${limits.max_file_bytes}-byte cap`,
          );
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof ScriptError) throw error;
      throw new SourceUnreachableError(url.href, networkReason(error, limits.timeout_ms), error);
    }
    const out = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }
}

/** The site (or a copy of it at another URL). */
export function httpSource(
  baseUrl: string,
  vectorUrl: (name: string) => string,
  limits: Sources["limits"],
  fetchImpl: typeof fetch = fetch,
): Source {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    label: base,
    schema: (version, path) =>
      fetchBounded(`${base}/schemas/${version}/${path}`, limits, fetchImpl),
    vector: (name) => fetchBounded(vectorUrl(name), limits, fetchImpl),
    compliance: (version, path) =>
      fetchBounded(`${base}/compliance/${version}/test-vectors/${path}`, limits, fetchImpl),
  };
}

/**
 * Picks the source from `--from`, then `ADCP_UPSTREAM`, then the site. Nothing is read until a
 * file is missing.
 */
export function chooseSource(
  sources: Sources,
  from: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Source {
  const limits = sources.limits;
  if (from === undefined || from === "") {
    const vectors = sources.test_vectors;
    return httpSource(
      sources.base_url,
      (name) => vectors.url_template.replace("{commit}", vectors.commit).replace("{name}", name),
      limits,
      fetchImpl,
    );
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) {
    const base = from.replace(/\/+$/, "");
    return httpSource(base, (name) => `${base}/test-vectors/${name}`, limits, fetchImpl);
  }
  return directorySource(from, limits.max_file_bytes);
}

/** Collects the schema paths one schema file leads to. */
export function referencedPaths(
  schema: unknown,
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
  const mentionPatterns = sources.schemas.mention_patterns.map((pattern) =>
    new RegExp(pattern, "g")
  );
  const addVersionRelative = (path: string, set: Set<string>) => {
    checkRelativePath(path, `${fromPath}`);
    set.add(path);
  };
  const addStrings = (value: unknown) => {
    if (typeof value === "string") addVersionRelative(value, required);
    else if (Array.isArray(value)) value.forEach(addStrings);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(addStrings);
  };
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      for (const pattern of mentionPatterns) {
        for (const match of value.matchAll(pattern)) addVersionRelative(match[0], mentioned);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === "object") {
      for (const [key, member] of Object.entries(value)) {
        if (key === "$ref" && typeof member === "string") {
          const target = member.split("#")[0]!;
          if (target !== "") {
            const url = new URL(target, fileUrl);
            if (url.origin !== canonical.origin || !url.pathname.startsWith(prefix)) {
              throw new ScriptError(
                `${version}/${fromPath}: $ref outside the ${version} tree: ${member}`,
              );
            }
            let decoded: string;
            try {
              decoded = decodeURIComponent(url.pathname.slice(prefix.length));
            } catch {
              throw new ScriptError(
                `${version}/${fromPath}: malformed $ref ${JSON.stringify(member)}`,
              );
            }
            addVersionRelative(decoded, required);
          }
        } else if (pathKeys.has(key)) {
          addStrings(member);
        }
        stack.push(member);
      }
    }
  }
  return { required, mentioned };
}

/** The command line of `deno task sync`. */
export interface SyncArgs {
  /** `--version`: the AdCP version to sync and pin. */
  version?: string;
  /** `--from`: a directory laid out like the site, or another copy of the site. */
  from?: string;
  /** `--update`: re-fetch everything and rewrite the lock. */
  update: boolean;
  /** `--check`: verify only, write nothing. */
  check: boolean;
  /** `--quiet`: print nothing but errors. */
  quiet: boolean;
}

/** The usage text of `deno task sync --help`. */
export const SYNC_USAGE: string =
  "Usage: deno task sync [--version V] [--from URL|DIR] [--update] [--check] [--quiet]\n" +
  "Verifies the committed snapshot (spec/schemas/<pinned version>/, vectors/upstream/\n" +
  "with compliance/<pinned version>/) against spec/sources.lock.json and fetches only\n" +
  "the files that are missing.\n" +
  "  --version V   sync AdCP version V (schemas and compliance files) and pin it in\n" +
  "                spec/sources.jsonc\n" +
  "  --from X      read missing files from a directory laid out like the site, or\n" +
  "                another copy of the site (default: $ADCP_UPSTREAM, else the site)\n" +
  "  --update      re-fetch everything and rewrite spec/sources.lock.json\n" +
  "  --check       verify the synced files against the lock; write nothing\n" +
  "  --quiet       print nothing but errors\n" +
  "  --help        print this and exit";

/** The flags of `deno task sync`, for the nearest-flag hint. */
const SYNC_FLAGS = ["--version", "--from", "--update", "--check", "--quiet", "--help"] as const;

/**
 * Parses the command line of `deno task sync`.
 *
 * @param args The arguments.
 * @returns The options, or `"help"` for `--help` (or `-h`).
 * @throws {UsageError} On an unknown argument (naming it and the nearest flag), a missing value,
 * `--update` with `--check`, or a `--version` that is not a version.
 */
export function parseSyncArgs(args: readonly string[]): SyncArgs | "help" {
  const options: SyncArgs = { update: false, check: false, quiet: false };
  for (let index = 0; index < args.length; index++) {
    const argument = args[index]!;
    const value = (): string => {
      const equals = argument.indexOf("=");
      if (equals >= 0) return argument.slice(equals + 1);
      const next = args[++index];
      if (next === undefined) throw new UsageError(`${argument} needs a value`);
      return next;
    };
    if (argument === "--update") options.update = true;
    else if (argument === "--check") options.check = true;
    else if (argument === "--quiet") options.quiet = true;
    else if (argument === "--version" || argument.startsWith("--version=")) {
      options.version = value();
    } else if (argument === "--from" || argument.startsWith("--from=")) options.from = value();
    else if (argument === "--help" || argument === "-h") return "help";
    else throw unknownArgument(argument, SYNC_FLAGS);
  }
  if (options.update && options.check) {
    throw new UsageError("--update and --check exclude each other");
  }
  if (options.version !== undefined && !isVersion(options.version)) {
    throw new UsageError(
      `--version must look like 3.2.0-beta.5 (got ${quoteArgument(options.version)})`,
    );
  }
  return options;
}

/** What one run did. */
export interface SyncReport {
  /** The schema version synced. */
  version: string;
  /** How many files were fetched from the source. */
  fetched: number;
  /** How many files were already synced and matched the lock. */
  verified: number;
  /** The synced files removed because the lock does not know them. */
  removed: string[];
}

/** What {@link formatSummary} describes. */
export interface SummaryOptions {
  /** Which kind of run. */
  mode: "sync" | "check" | "update";
  /** Whether the verified files are the committed snapshot (the pinned version). */
  committed: boolean;
  /** Where fetched files came from ({@link Source.label}). */
  sourceLabel: string;
  /** How long the run took. */
  elapsedMs: number;
}

/**
 * The one summary line of a run, saying what came from where: `sync: AdCP 3.2.0-beta.5: 815
 * files verified from the committed snapshot, 0 fetched (62 ms)`. A source is named only when
 * something came from it.
 */
export function formatSummary(report: SyncReport, options: SummaryOptions): string {
  const { mode, committed, sourceLabel, elapsedMs } = options;
  const files = (count: number) => `${count} file${count === 1 ? "" : "s"}`;
  const where = committed ? "from the committed snapshot" : "on disk";
  const time = `(${elapsedMs} ms)`;
  if (mode === "update") {
    return `sync --update: AdCP ${report.version}: ${files(report.fetched)} fetched from ` +
      `${sourceLabel} and recorded in spec/sources.lock.json ${time}`;
  }
  if (mode === "check") {
    return `sync --check: AdCP ${report.version}: ${files(report.verified)} verified ${where}, ` +
      `nothing fetched or written ${time}`;
  }
  const fetched = report.fetched === 0
    ? "0 fetched"
    : `${report.fetched} fetched from ${sourceLabel}`;
  return `sync: AdCP ${report.version}: ${files(report.verified)} verified ${where}, ${fetched} ` +
    time;
}

/** Progress lines on a TTY, a summary otherwise. */
export class Progress {
  #tty: boolean;
  #quiet: boolean;
  /** @param quiet Print nothing at all. */
  constructor(quiet: boolean) {
    this.#quiet = quiet;
    this.#tty = !quiet && Deno.stderr.isTerminal();
  }
  /** Reports one file fetched, as the `count`th of `total` (when known), on a TTY only. */
  file(kind: string, path: string, count: number, total: number | undefined): void {
    if (!this.#tty) return;
    const position = total === undefined ? `${count}` : `${count}/${total}`;
    Deno.stderr.writeSync(new TextEncoder().encode(`  ${kind} [${position}] ${path}\n`));
  }
  /** Prints a summary line, unless quiet. */
  say(line: string): void {
    if (!this.#quiet) console.log(line);
  }
}

function mismatch(what: string, expected: string, actual: string, hint: string): ScriptError {
  return new ScriptError(
    `Refusing ${what}: sha256 ${actual} does not match the lock's ${expected}; ` +
      `nothing was overwritten. ${hint}`,
  );
}

/**
 * How to get a local file back to the lock's bytes. Files of the committed snapshot (the vectors
 * and the pinned version) come back from git; any other version's from its source.
 */
function restoreHint(path: string, committed: boolean): string {
  return committed
    ? `Edited by hand? Restore it with \`git checkout -- ${path}\`, or delete it and run ` +
      "`deno task sync --from DIR` (or `deno task sync` online)"
    : "Delete the file to re-fetch it, or run `deno task sync --update` if upstream changed";
}

/** Runs `task` on every item, at most `concurrency` at a time. */
async function runPool<T>(
  items: T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from(
    { length: Math.max(1, Math.min(concurrency, items.length)) },
    async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await task(item);
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
  for (const file of await listFiles(dir)) {
    if (!keep.has(file)) {
      if (check) {
        throw new ScriptError(
          `${label}/${file} is not in the lock; remove it, or run \`deno task sync\` ` +
            "(which removes it)",
        );
      }
      await Deno.remove(`${dir}/${file}`);
      removed.push(`${label}/${file}`);
    }
  }
  return removed;
}

/** What {@link sync} does, and where. */
export interface SyncOptions {
  /** The schema version to sync. */
  version: string;
  /** Where files come from. */
  source: Source;
  /** Re-fetch everything and record the digests in `lock`. */
  update: boolean;
  /** Verify the synced files against the lock; write nothing. */
  check: boolean;
  /** Where progress goes (default: nowhere). */
  progress?: Progress;
  /**
   * Folder below which `spec/schemas/` and `vectors/upstream/` are written (tests use a temporary
   * one; default: the repository root).
   */
  root?: string;
}

/**
 * Syncs the vectors and one schema version. Verifies before writing; updates `lock` in place when
 * `update`.
 */
export async function sync(
  sources: Sources,
  lock: Lock,
  options: SyncOptions,
): Promise<SyncReport> {
  const { version, source, update, check } = options;
  checkLock(lock);
  const root = options.root ?? ROOT;
  const vectorsDir = `${root}/vectors/upstream`;
  const progress = options.progress ?? new Progress(true);
  const report: SyncReport = { version, fetched: 0, verified: 0, removed: [] };
  // The pinned version's folder and the vectors are the committed snapshot.
  const committedSchemas = version === sources.schema_version;

  // Vectors.
  const lockedVectors = lock.test_vectors.commit === sources.test_vectors.commit
    ? lock.test_vectors.files
    : {};
  if (!update && lock.test_vectors.commit !== sources.test_vectors.commit) {
    throw new ScriptError(
      `The lock records vectors of commit ${lock.test_vectors.commit || "(none)"} but ` +
        `spec/sources.jsonc pins ${sources.test_vectors.commit}; run \`deno task sync --update\` ` +
        "to record the new commit",
    );
  }
  const newVectors: Record<string, string> = {};
  // With --update, nothing is written until every vector and the whole schema closure are fetched
  // and checked: a refused update leaves the tree as it was.
  const pending: [string, Uint8Array][] = [];
  const put = (path: string, bytes: Uint8Array): Promise<void> | number =>
    update ? pending.push([path, bytes]) : writeFileAtomic(path, bytes);
  let vectorCount = 0;
  for (const name of sources.test_vectors.files) {
    vectorCount++;
    const path = `${vectorsDir}/${name}`;
    const expected = lockedVectors[name];
    if (expected === undefined && !update) {
      throw new ScriptError(
        `vectors/upstream/${name} is not in the lock; run \`deno task sync --update\` to record it`,
      );
    }
    const local = await readIfExists(path);
    if (local !== undefined && !update) {
      const actual = await sha256Hex(local);
      if (actual !== expected) {
        const file = `vectors/upstream/${name}`;
        throw mismatch(file, expected!, actual, restoreHint(file, true));
      }
      report.verified++;
      newVectors[name] = actual;
      continue;
    }
    if (check) {
      throw new ScriptError(
        `vectors/upstream/${name} is missing; restore it with ` +
          `\`git checkout -- vectors/upstream/${name}\`, or run \`deno task sync\``,
      );
    }
    progress.file("vector", name, vectorCount, sources.test_vectors.files.length);
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

  // Compliance files of this version.
  const compliance = await syncCompliance(sources, lock, {
    version,
    source,
    update,
    check,
    progress,
    dir: `${vectorsDir}/compliance/${version}`,
    put,
  });
  report.fetched += compliance.fetched;
  report.verified += compliance.verified;

  // Schemas.
  const dir = `${root}/spec/schemas/${version}`;
  const lockedSchemas = lock.schemas[version];
  let digests: Record<string, string>;
  if (!update) {
    if (lockedSchemas === undefined) {
      throw new ScriptError(
        `The lock has no schemas of version ${version}; run ` +
          `\`deno task sync --version ${version} --update\` to fetch and record them`,
      );
    }
    const paths = Object.keys(lockedSchemas);
    let fetchedCount = 0;
    await runPool(paths, sources.limits.concurrency, async (path) => {
      const expected = lockedSchemas[path]!;
      const local = await readIfExists(`${dir}/${path}`);
      if (local !== undefined) {
        const actual = await sha256Hex(local);
        if (actual !== expected) {
          const file = `spec/schemas/${version}/${path}`;
          throw mismatch(file, expected, actual, restoreHint(file, committedSchemas));
        }
        report.verified++;
        return;
      }
      if (check) {
        const file = `spec/schemas/${version}/${path}`;
        throw new ScriptError(
          committedSchemas
            ? `${file} is missing; restore it with \`git checkout -- ${file}\`, or run ` +
              "`deno task sync`"
            : `${file} is missing; a sync of ${version} (not --check) fetches it`,
        );
      }
      progress.file("schema", path, ++fetchedCount, undefined);
      const bytes = await source.schema(version, path);
      const actual = await sha256Hex(bytes);
      if (actual !== expected) {
        throw mismatch(
          `${version}/${path} from ${source.label}`,
          expected,
          actual,
          "The source differs from the lock.",
        );
      }
      await writeFileAtomic(`${dir}/${path}`, bytes);
      report.fetched++;
    });
    digests = lockedSchemas;
  } else {
    const closure = await fetchClosure(sources, version, source, progress);
    digests = closure.digests;
    for (const [path, bytes] of closure.files) pending.push([`${dir}/${path}`, bytes]);
    report.fetched += Object.keys(digests).length;
    for (const [path, bytes] of pending) await writeFileAtomic(path, bytes);
    lock.schemas[version] = digests;
    lock.compliance[version] = compliance.digests;
    lock.test_vectors = { commit: sources.test_vectors.commit, files: newVectors };
  }
  // vectors/upstream/ is committed whole, so the lock describes all of it: the vector files and
  // every locked version's compliance files (other versions' are kept, not verified, here).
  const keepVectors = new Set(sources.test_vectors.files);
  for (const [locked, files] of Object.entries(lock.compliance)) {
    for (const path of Object.keys(files)) keepVectors.add(`compliance/${locked}/${path}`);
  }
  report.removed.push(...await removeStale(vectorsDir, keepVectors, "vectors/upstream", check));
  report.removed.push(
    ...await removeStale(dir, new Set(Object.keys(digests)), `spec/schemas/${version}`, check),
  );
  return report;
}

/** What {@link syncCompliance} works on, beyond {@link SyncOptions}. */
interface ComplianceOptions {
  version: string;
  source: Source;
  update: boolean;
  check: boolean;
  progress: Progress;
  /** `vectors/upstream/compliance/<version>` below the sync's root. */
  dir: string;
  /** Writes a file now, or (with `update`) queues it for the all-or-nothing write. */
  put: (path: string, bytes: Uint8Array) => Promise<void> | number;
}

/**
 * Syncs the compliance files of one version. Without `update`, the lock's `compliance.<version>`
 * is the synced set and must agree with `spec/sources.jsonc` (every required file locked, no
 * locked file that is no longer listed); each file is verified, or fetched when missing. With
 * `update`, every listed file is fetched and checked to be JSON, an optional one absent from the
 * source is skipped, and the digests are returned for the caller to record.
 */
async function syncCompliance(
  sources: Sources,
  lock: Lock,
  options: ComplianceOptions,
): Promise<{ fetched: number; verified: number; digests: Record<string, string> }> {
  const { version, source, update, check, progress, dir, put } = options;
  const label = `vectors/upstream/compliance/${version}`;
  const { files, optional_files: optionalFiles } = sources.compliance;
  const counts = { fetched: 0, verified: 0 };
  const digests: Record<string, string> = {};
  let fetchedCount = 0;
  if (update) {
    const optional = new Set(optionalFiles);
    const listed = [...files, ...optionalFiles];
    await runPool(listed, sources.limits.concurrency, async (path) => {
      let bytes: Uint8Array;
      try {
        bytes = await source.compliance(version, path);
      } catch (error) {
        // A version that lacks an optional file (3.1.19 has no profile-3.2/) is not an error.
        if (error instanceof NotFoundError && optional.has(path)) return;
        if (error instanceof NotFoundError) {
          throw new ScriptError(
            `${error.message} (required by spec/sources.jsonc compliance.files for ${version})`,
          );
        }
        throw error;
      }
      progress.file("compliance", path, ++fetchedCount, listed.length);
      try {
        JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      } catch (error) {
        throw new ScriptError(
          `compliance/${version}/test-vectors/${path} from ${source.label} is not JSON: ` +
            messageOf(error),
        );
      }
      digests[path] = await sha256Hex(bytes);
      await put(`${dir}/${path}`, bytes);
      counts.fetched++;
    });
    return { ...counts, digests };
  }
  const locked = lock.compliance[version];
  const rerun = version === sources.schema_version
    ? "`deno task sync --update`"
    : `\`deno task sync --version ${version} --update\``;
  if (locked === undefined) {
    throw new ScriptError(
      `The lock has no compliance files of version ${version}; run ${rerun} to fetch and ` +
        "record them",
    );
  }
  for (const path of files) {
    if (!Object.hasOwn(locked, path)) {
      throw new ScriptError(
        `${label}/${path} is not in the lock; run ${rerun} to record it`,
      );
    }
  }
  const listed = new Set([...files, ...optionalFiles]);
  for (const path of Object.keys(locked)) {
    if (!listed.has(path)) {
      throw new ScriptError(
        `${label}/${path} is in the lock but not in spec/sources.jsonc compliance; run ${rerun} ` +
          "to drop it from the lock",
      );
    }
  }
  const paths = Object.keys(locked);
  await runPool(paths, sources.limits.concurrency, async (path) => {
    const expected = locked[path]!;
    const file = `${label}/${path}`;
    const local = await readIfExists(`${dir}/${path}`);
    if (local !== undefined) {
      const actual = await sha256Hex(local);
      if (actual !== expected) {
        // vectors/upstream/ is committed whole, every locked version's compliance files with it.
        const hint = version === sources.schema_version
          ? restoreHint(file, true)
          : `Edited by hand? Restore it with \`git checkout -- ${file}\`, or delete it and sync ` +
            `${version} again`;
        throw mismatch(file, expected, actual, hint);
      }
      counts.verified++;
      return;
    }
    if (check) {
      throw new ScriptError(
        `${file} is missing; restore it with \`git checkout -- ${file}\`, or run ` +
          (version === sources.schema_version
            ? "`deno task sync`"
            : `a sync of ${version} (not --check), which fetches it`),
      );
    }
    progress.file("compliance", path, ++fetchedCount, paths.length);
    const bytes = await source.compliance(version, path);
    const actual = await sha256Hex(bytes);
    if (actual !== expected) {
      throw mismatch(
        `compliance/${version}/test-vectors/${path} from ${source.label}`,
        expected,
        actual,
        "The source differs from the lock.",
      );
    }
    await writeFileAtomic(`${dir}/${path}`, bytes);
    counts.fetched++;
  });
  return { ...counts, digests: locked };
}

/**
 * Fetches the schema closure of `version`: the digests and the bytes of every file, nothing
 * written.
 */
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
  for (const root of queue) seen.add(root);
  for (const root of sources.schemas.optional_roots) optional.add(root);
  let fetchedCount = 0;
  while (queue.length > 0) {
    const batch = queue;
    queue = [];
    await runPool(batch, sources.limits.concurrency, async (path) => {
      let bytes: Uint8Array;
      try {
        bytes = await source.schema(version, path);
      } catch (error) {
        // Optional, or only named in prose.
        if (error instanceof NotFoundError && optional.has(path)) return;
        if (error instanceof NotFoundError) {
          throw new ScriptError(`${error.message} (needed by the ${version} closure)`);
        }
        throw error;
      }
      progress.file("schema", path, ++fetchedCount, undefined);
      let schema: unknown;
      try {
        schema = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      } catch (error) {
        throw new ScriptError(`${version}/${path} is not JSON: ${messageOf(error)}`);
      }
      digests[path] = await sha256Hex(bytes);
      files.set(path, bytes);
      const { required, mentioned } = referencedPaths(schema, path, version, sources);
      for (const requiredPath of required) {
        needed.add(requiredPath);
        optional.delete(requiredPath);
        if (!seen.has(requiredPath)) {
          seen.add(requiredPath);
          queue.push(requiredPath);
        }
      }
      for (const mentionedPath of mentioned) {
        if (!seen.has(mentionedPath)) {
          seen.add(mentionedPath);
          optional.add(mentionedPath);
          queue.push(mentionedPath);
        }
      }
    });
  }
  for (const path of needed) {
    if (!(path in digests)) {
      throw new ScriptError(
        `Not found at ${source.label}: ${version}/${path} (needed by the closure)`,
      );
    }
  }
  return { digests, files };
}

async function main(): Promise<number | void> {
  const options = parseSyncArgs(Deno.args);
  if (options === "help") {
    console.log(SYNC_USAGE);
    return 0;
  }
  const sources = await readSources();
  const lock = await readLock();
  const version = options.version ?? sources.schema_version;
  const from = options.from ?? Deno.env.get("ADCP_UPSTREAM");
  const source = chooseSource(sources, from);
  const progress = new Progress(options.quiet);
  const started = performance.now();
  const report = await sync(sources, lock, {
    version,
    source,
    update: options.update,
    check: options.check,
    progress,
  });
  if (options.update) await writeLock(lock);
  if (!options.check && version !== sources.schema_version) {
    const previous = sources.schema_version;
    await pinVersion(version);
    const ignored = await pinSnapshot(previous, version)
      ? `and .gitignore now keeps spec/schemas/${version}/`
      : `but .gitignore has no \`!/spec/schemas/${previous}/\` line: un-ignore ` +
        `spec/schemas/${version}/ there`;
    progress.say(
      `Pinned schema_version ${version} in spec/sources.jsonc (was ${previous}) ${ignored}; ` +
        `commit spec/schemas/${version}/ and remove the old snapshot: ` +
        `\`git rm -r spec/schemas/${previous}\``,
    );
  }
  for (const path of report.removed) {
    progress.say(`Removed ${path}: not part of the synced set`);
  }
  progress.say(formatSummary(report, {
    mode: options.update ? "update" : options.check ? "check" : "sync",
    committed: version === sources.schema_version,
    sourceLabel: source.label,
    elapsedMs: Math.round(performance.now() - started),
  }));
}

// One line, whatever went wrong: hostile input (a tampered lock, mirror or $ref) must not surface
// as a stack trace.
if (import.meta.main) await runMain(main);
