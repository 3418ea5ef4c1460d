/**
 * Shared plumbing of the scripts: `spec/sources.jsonc`, `spec/sources.lock.json`, digests and paths.
 *
 * @module
 */
import { applyEdits, modify, parse, type ParseError, printParseErrorCode } from "jsonc-parser";

/** Root of the repository (the scripts live one level below it). */
export const ROOT: string = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
/** Path of the sources file. */
export const SOURCES_PATH = `${ROOT}/spec/sources.jsonc`;
/** Path of the lock. */
export const LOCK_PATH = `${ROOT}/spec/sources.lock.json`;
/** Where the schemas of one version are synced. */
export function schemaDir(version: string): string {
  return `${ROOT}/spec/schemas/${version}`;
}
/** Where upstream's vector files are synced. */
export const UPSTREAM_VECTORS_DIR = `${ROOT}/vectors/upstream`;
/** The project's own vectors. */
export const LOCAL_VECTORS_DIR = `${ROOT}/vectors/local`;

/** The parsed `spec/sources.jsonc`. */
export interface Sources {
  schema_version: string;
  base_url: string;
  test_vectors: { commit: string; url_template: string; files: string[] };
  schemas: {
    roots: string[];
    optional_roots: string[];
    path_keys: string[];
    mention_patterns: string[];
  };
  limits: {
    max_file_bytes: number;
    timeout_ms: number;
    max_redirects: number;
    concurrency: number;
  };
}

/** The lock: sha256 (hex) of every synced file. */
export interface Lock {
  lockfile_version: 1;
  test_vectors: { commit: string; files: Record<string, string> };
  schemas: Record<string, Record<string, string>>;
}

const VERSION_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Whether `v` looks like an AdCP release version (`3.2.0-beta.5`, `3.1.19`). */
export function isVersion(v: string): boolean {
  return VERSION_RE.test(v);
}

function fail(message: string): never {
  throw new Error(message);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

/** Reads and checks `spec/sources.jsonc`. */
export async function readSources(): Promise<Sources> {
  const text = await Deno.readTextFile(SOURCES_PATH);
  const errors: ParseError[] = [];
  const raw = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const e = errors[0]!;
    fail(`Cannot parse spec/sources.jsonc: ${printParseErrorCode(e.error)} at offset ${e.offset}`);
  }
  const s = raw as Sources;
  const where = "spec/sources.jsonc";
  if (typeof s.schema_version !== "string" || !isVersion(s.schema_version)) {
    fail(
      `${where}: schema_version must be a version like 3.2.0-beta.5 (got ${
        JSON.stringify(s.schema_version)
      })`,
    );
  }
  if (typeof s.base_url !== "string") fail(`${where}: base_url must be a string`);
  if (
    !s.test_vectors || typeof s.test_vectors.commit !== "string" ||
    !/^[0-9a-f]{40}$/.test(s.test_vectors.commit) ||
    typeof s.test_vectors.url_template !== "string" || !isStringArray(s.test_vectors.files)
  ) {
    fail(`${where}: test_vectors needs a 40-hex commit, a url_template and a files list`);
  }
  if (
    !s.schemas || !isStringArray(s.schemas.roots) || !isStringArray(s.schemas.optional_roots) ||
    !isStringArray(s.schemas.path_keys) ||
    !isStringArray(s.schemas.mention_patterns)
  ) {
    fail(`${where}: schemas needs roots, optional_roots, path_keys and mention_patterns lists`);
  }
  for (const name of s.test_vectors.files) checkRelativePath(name, `${where} test_vectors.files`);
  for (const p of [...s.schemas.roots, ...s.schemas.optional_roots]) {
    checkRelativePath(p, `${where} schemas.roots`);
  }
  const l = s.limits;
  for (const k of ["max_file_bytes", "timeout_ms", "max_redirects", "concurrency"] as const) {
    if (!l || !Number.isSafeInteger(l[k]) || l[k] < 0) {
      fail(`${where}: limits.${k} must be a non-negative integer`);
    }
  }
  return s;
}

/** Re-pins `schema_version` in `spec/sources.jsonc`, keeping its comments. */
export async function pinVersion(version: string): Promise<void> {
  const text = await Deno.readTextFile(SOURCES_PATH);
  const edits = modify(text, ["schema_version"], version, {
    formattingOptions: { insertSpaces: true, tabSize: 2 },
  });
  await writeFileAtomic(SOURCES_PATH, new TextEncoder().encode(applyEdits(text, edits)));
}

/**
 * A relative path that cannot climb out of its folder. A `%` is refused too: paths are compared
 * decoded, and one still holding a `%` was encoded twice (`%252e%252e`), which an HTTP server would
 * decode once more into `..`.
 */
export function checkRelativePath(p: string, where: string): void {
  if (
    p.length === 0 || p.startsWith("/") || p.includes("\\") || p.includes("\0") ||
    p.includes("%") ||
    p.split("/").some((seg) => seg === "" || seg === "." || seg === "..")
  ) {
    fail(`${where}: unsafe relative path ${JSON.stringify(p)}`);
  }
}

/** Reads the lock, or an empty one when there is none. */
export async function readLock(): Promise<Lock> {
  let text: string;
  try {
    text = await Deno.readTextFile(LOCK_PATH);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return { lockfile_version: 1, test_vectors: { commit: "", files: {} }, schemas: {} };
    }
    throw e;
  }
  let lock: Lock;
  try {
    lock = JSON.parse(text) as Lock;
  } catch (e) {
    fail(`spec/sources.lock.json is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  checkLock(lock);
  return lock;
}

/**
 * Checks a lock's shape, and that every key is a safe relative path: keys are paths the sync reads
 * and writes, so a tampered lock must not point outside the project or the mirror.
 */
export function checkLock(lock: Lock): void {
  if ((lock as Lock | null)?.lockfile_version !== 1) {
    fail(`spec/sources.lock.json: unknown lockfile_version`);
  }
  const isDigestMap = (v: unknown): v is Record<string, string> =>
    v !== null && typeof v === "object" && !Array.isArray(v) &&
    Object.values(v).every((d) => typeof d === "string" && /^[0-9a-f]{64}$/.test(d));
  if (
    lock.test_vectors === null || typeof lock.test_vectors !== "object" ||
    typeof lock.test_vectors.commit !== "string" || !isDigestMap(lock.test_vectors.files) ||
    lock.schemas === null || typeof lock.schemas !== "object" || Array.isArray(lock.schemas) ||
    !Object.values(lock.schemas).every(isDigestMap)
  ) {
    fail(
      "spec/sources.lock.json: expected test_vectors {commit, files} and schemas of sha256 digests",
    );
  }
  // Keys are paths the sync writes to: a tampered lock must not point outside the project.
  for (const name of Object.keys(lock.test_vectors.files)) {
    checkRelativePath(name, "spec/sources.lock.json test_vectors.files");
  }
  for (const [version, files] of Object.entries(lock.schemas)) {
    if (!isVersion(version)) {
      fail(`spec/sources.lock.json: bad schema version ${JSON.stringify(version)}`);
    }
    for (const p of Object.keys(files)) {
      checkRelativePath(p, `spec/sources.lock.json schemas.${version}`);
    }
  }
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Writes the lock with sorted keys, so that equal content gives equal bytes. */
export async function writeLock(lock: Lock): Promise<void> {
  const versions = Object.keys(lock.schemas).sort();
  const out: Lock = {
    lockfile_version: 1,
    test_vectors: { commit: lock.test_vectors.commit, files: sortKeys(lock.test_vectors.files) },
    schemas: Object.fromEntries(versions.map((v) => [v, sortKeys(lock.schemas[v]!)])),
  };
  await writeFileAtomic(LOCK_PATH, new TextEncoder().encode(JSON.stringify(out, null, 2) + "\n"));
}

/** Hex sha256 of some bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** Writes a file through a temporary sibling and a rename, so that no reader sees half a file. */
export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  await Deno.mkdir(dir, { recursive: true });
  const tmp = `${path}.tmp-${crypto.randomUUID()}`;
  await Deno.writeFile(tmp, bytes);
  await Deno.rename(tmp, path);
}

/** Reads a file, or `undefined` when it does not exist. */
export async function readIfExists(path: string): Promise<Uint8Array | undefined> {
  try {
    return await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

/** Lists the files below a folder, as relative paths, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(rel === "" ? dir : `${dir}/${rel}`));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return;
      throw e;
    }
    for (const e of entries) {
      const p = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else if (e.isFile) out.push(p);
    }
  }
  await walk("");
  return out.sort();
}

/** Formats source text with the pinned `deno fmt` and the repository's settings, as a generator's last step. */
export async function denoFmt(text: string, ext = "ts"): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", ext, "-"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) throw new Error(`deno fmt failed: ${new TextDecoder().decode(stderr)}`);
  return new TextDecoder().decode(stdout);
}

/**
 * Writes each file whose contents differ from `files` (relative path → text) below `dir`; with `check`, writes
 * nothing. Returns the relative paths that differed.
 */
export async function writeChanged(
  files: Map<string, string>,
  dir: string,
  check: boolean,
): Promise<string[]> {
  const changed: string[] = [];
  for (const [rel, text] of files) {
    const path = `${dir}/${rel}`;
    let current: string | undefined;
    try {
      current = await Deno.readTextFile(path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    if (current === text) continue;
    changed.push(rel);
    if (!check) {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, text);
    }
  }
  return changed;
}
