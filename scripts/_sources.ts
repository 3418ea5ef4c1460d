/**
 * Shared plumbing of the scripts: `spec/sources.jsonc`, `spec/sources.lock.json`, digests, paths,
 * and the file helpers of the generators.
 *
 * @module
 */
import { applyEdits, modify, parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import { ScriptError } from "./_cli.ts";

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
/** The origin of every schema's `$id` (`https://adcontextprotocol.org/schemas/<version>/…`). */
export const SCHEMA_ORIGIN = "https://adcontextprotocol.org";

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
  /**
   * The per-version compliance bundle, by path below `compliance/<version>/test-vectors/`: the
   * site cannot be listed, so every file is named. `files` must exist in every synced version;
   * `optional_files` are synced when the version has them.
   */
  compliance: { files: string[]; optional_files: string[] };
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
  /** Per version, the compliance files (paths below `test-vectors/`) that version has. */
  compliance: Record<string, Record<string, string>>;
}

const VERSION_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Whether `version` looks like an AdCP release version (`3.2.0-beta.5`, `3.1.19`). */
export function isVersion(version: string): boolean {
  return VERSION_RE.test(version);
}

function fail(message: string): never {
  throw new ScriptError(message);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** Whether `value` is a plain JSON object (not `null`, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A sort comparator that orders items by a string key, by UTF-16 code units (not locale). */
export function byString<T>(key: (item: T) => string): (left: T, right: T) => number {
  return (left, right) => (key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0);
}

/** `path` relative to the repository root when it lies below it, for messages. */
export function displayPath(path: string): string {
  return path.startsWith(`${ROOT}/`) ? path.slice(ROOT.length + 1) : path;
}

/**
 * Reads a synced JSON file. A missing file is a {@link ScriptError} that says to run
 * `deno task sync`.
 */
export async function readSyncedJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new ScriptError(`Missing ${displayPath(path)}; run \`deno task sync\` first`);
    }
    throw error;
  }
  return JSON.parse(text);
}

/** Reads and checks `spec/sources.jsonc`. */
export async function readSources(): Promise<Sources> {
  return parseSources(await Deno.readTextFile(SOURCES_PATH));
}

/** Parses and checks the text of `spec/sources.jsonc`. */
export function parseSources(text: string): Sources {
  const errors: ParseError[] = [];
  const raw = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0]!;
    const reason = printParseErrorCode(first.error);
    fail(`Cannot parse spec/sources.jsonc: ${reason} at offset ${first.offset}`);
  }
  const sources = raw as Sources;
  const where = "spec/sources.jsonc";
  if (typeof sources.schema_version !== "string" || !isVersion(sources.schema_version)) {
    fail(
      `${where}: schema_version must be a version like 3.2.0-beta.5 (got ${
        JSON.stringify(sources.schema_version)
      })`,
    );
  }
  if (typeof sources.base_url !== "string") fail(`${where}: base_url must be a string`);
  const vectors = sources.test_vectors;
  if (
    !vectors || typeof vectors.commit !== "string" || !/^[0-9a-f]{40}$/.test(vectors.commit) ||
    typeof vectors.url_template !== "string" || !isStringArray(vectors.files)
  ) {
    fail(`${where}: test_vectors needs a 40-hex commit, a url_template and a files list`);
  }
  const schemas = sources.schemas;
  if (
    !schemas || !isStringArray(schemas.roots) || !isStringArray(schemas.optional_roots) ||
    !isStringArray(schemas.path_keys) || !isStringArray(schemas.mention_patterns)
  ) {
    fail(`${where}: schemas needs roots, optional_roots, path_keys and mention_patterns lists`);
  }
  const compliance = sources.compliance;
  if (
    !compliance || !isStringArray(compliance.files) || !isStringArray(compliance.optional_files)
  ) {
    fail(`${where}: compliance needs files and optional_files lists`);
  }
  const seenCompliance = new Set<string>();
  for (const path of [...compliance.files, ...compliance.optional_files]) {
    checkRelativePath(path, `${where} compliance`);
    // JSON only: the bundle's READMEs are prose, and a listed name must be one file, once.
    if (!path.endsWith(".json")) {
      fail(`${where} compliance: not a .json path ${JSON.stringify(path)}`);
    }
    if (seenCompliance.has(path)) fail(`${where} compliance: ${JSON.stringify(path)} listed twice`);
    seenCompliance.add(path);
  }
  for (const name of vectors.files) checkRelativePath(name, `${where} test_vectors.files`);
  for (const path of [...schemas.roots, ...schemas.optional_roots]) {
    checkRelativePath(path, `${where} schemas.roots`);
  }
  const limits = sources.limits;
  for (const key of ["max_file_bytes", "timeout_ms", "max_redirects", "concurrency"] as const) {
    if (!limits || !Number.isSafeInteger(limits[key]) || limits[key] < 0) {
      fail(`${where}: limits.${key} must be a non-negative integer`);
    }
  }
  return sources;
}

/** Re-pins `schema_version` in `spec/sources.jsonc`, keeping its comments. */
export async function pinVersion(version: string): Promise<void> {
  const text = await Deno.readTextFile(SOURCES_PATH);
  const edits = modify(text, ["schema_version"], version, {
    formattingOptions: { insertSpaces: true, tabSize: 2 },
  });
  await writeFileAtomic(SOURCES_PATH, new TextEncoder().encode(applyEdits(text, edits)));
}

/** Path of the repository's `.gitignore`. */
export const GITIGNORE_PATH = `${ROOT}/.gitignore`;

/**
 * `.gitignore` text with the committed snapshot moved from version `from` to `to`: the line
 * `!/spec/schemas/<from>/` becomes `!/spec/schemas/<to>/`. Returns `undefined` when the text has
 * no such line.
 */
export function repinGitignore(text: string, from: string, to: string): string | undefined {
  const lines = text.split("\n");
  const index = lines.indexOf(`!/spec/schemas/${from}/`);
  if (index < 0) return undefined;
  lines[index] = `!/spec/schemas/${to}/`;
  return lines.join("\n");
}

/**
 * Moves the committed snapshot in `.gitignore` from `from` to `to` (see {@link repinGitignore}).
 * Returns whether the line was found and rewritten.
 */
export async function pinSnapshot(from: string, to: string): Promise<boolean> {
  const text = await readIfExists(GITIGNORE_PATH);
  if (text === undefined) return false;
  const next = repinGitignore(new TextDecoder().decode(text), from, to);
  if (next === undefined) return false;
  await writeFileAtomic(GITIGNORE_PATH, new TextEncoder().encode(next));
  return true;
}

/**
 * A relative path that cannot climb out of its folder. A `%` is refused too: paths are compared
 * decoded, and one still holding a `%` was encoded twice (`%252e%252e`), which an HTTP server would
 * decode once more into `..`.
 */
export function checkRelativePath(path: string, where: string): void {
  if (
    path.length === 0 || path.startsWith("/") || path.includes("\\") || path.includes("\0") ||
    path.includes("%") ||
    path.split("/").some((segment) => segment === "" || segment === "." || segment === "..")
  ) {
    fail(`${where}: unsafe relative path ${JSON.stringify(path)}`);
  }
}

/** Reads the lock, or an empty one when there is none. */
export async function readLock(): Promise<Lock> {
  let text: string;
  try {
    text = await Deno.readTextFile(LOCK_PATH);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return {
        lockfile_version: 1,
        test_vectors: { commit: "", files: {} },
        schemas: {},
        compliance: {},
      };
    }
    throw error;
  }
  return parseLock(text);
}

/** Parses and checks the text of `spec/sources.lock.json` (see {@link checkLock}). */
export function parseLock(text: string): Lock {
  let lock: Lock;
  try {
    lock = JSON.parse(text) as Lock;
  } catch (error) {
    fail(
      `spec/sources.lock.json is not JSON: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  // A lock written before compliance files were synced has no such section: read it as empty, so
  // that a sync names the missing version (and `--update` records it) instead of refusing the lock.
  if (isRecord(lock) && !("compliance" in lock)) {
    (lock as { compliance?: Lock["compliance"] }).compliance = {};
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
  const isDigestMap = (value: unknown): value is Record<string, string> =>
    isRecord(value) &&
    Object.values(value).every((digest) =>
      typeof digest === "string" && /^[0-9a-f]{64}$/.test(digest)
    );
  if (
    lock.test_vectors === null || typeof lock.test_vectors !== "object" ||
    typeof lock.test_vectors.commit !== "string" || !isDigestMap(lock.test_vectors.files) ||
    lock.schemas === null || typeof lock.schemas !== "object" || Array.isArray(lock.schemas) ||
    !Object.values(lock.schemas).every(isDigestMap) ||
    !isRecord(lock.compliance) || !Object.values(lock.compliance).every(isDigestMap)
  ) {
    fail(
      "spec/sources.lock.json: expected test_vectors {commit, files}, and schemas and compliance " +
        "of sha256 digests per version",
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
    for (const path of Object.keys(files)) {
      checkRelativePath(path, `spec/sources.lock.json schemas.${version}`);
    }
  }
  for (const [version, files] of Object.entries(lock.compliance)) {
    if (!isVersion(version)) {
      fail(`spec/sources.lock.json: bad compliance version ${JSON.stringify(version)}`);
    }
    for (const path of Object.keys(files)) {
      checkRelativePath(path, `spec/sources.lock.json compliance.${version}`);
    }
  }
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(byString(([key]) => key)));
}

/** Writes the lock (see {@link formatLock}). */
export async function writeLock(lock: Lock): Promise<void> {
  await writeFileAtomic(LOCK_PATH, new TextEncoder().encode(formatLock(lock)));
}

/** The text of a lock, with sorted keys, so that equal content gives equal bytes. */
export function formatLock(lock: Lock): string {
  const perVersion = (record: Record<string, Record<string, string>>) =>
    Object.fromEntries(
      Object.keys(record).sort().map((version) => [version, sortKeys(record[version]!)]),
    );
  const out: Lock = {
    lockfile_version: 1,
    test_vectors: { commit: lock.test_vectors.commit, files: sortKeys(lock.test_vectors.files) },
    schemas: perVersion(lock.schemas),
    compliance: perVersion(lock.compliance),
  };
  return JSON.stringify(out, null, 2) + "\n";
}

/** Hex sha256 of some bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Writes a file through a temporary sibling and a rename, so that no reader sees half a file. */
export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  await Deno.mkdir(dir, { recursive: true });
  const temporary = `${path}.tmp-${crypto.randomUUID()}`;
  await Deno.writeFile(temporary, bytes);
  await Deno.rename(temporary, path);
}

/** Reads a file, or `undefined` when it does not exist. */
export async function readIfExists(path: string): Promise<Uint8Array | undefined> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Lists the files below a folder, as relative paths, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(relativeDir: string): Promise<void> {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(
        Deno.readDir(relativeDir === "" ? dir : `${dir}/${relativeDir}`),
      );
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const path = relativeDir === "" ? entry.name : `${relativeDir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) out.push(path);
    }
  }
  await walk("");
  return out.sort();
}

/**
 * Formats source text with the pinned `deno fmt` and the repository's settings, as a generator's
 * last step.
 */
export async function denoFmt(text: string, extension = "ts"): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext", extension, "-"],
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
 * Writes each file whose contents differ from `files` (relative path → text) below `dir`; with
 * `check`, writes nothing. Returns the relative paths that differed.
 */
export async function writeChanged(
  files: Map<string, string>,
  dir: string,
  check: boolean,
): Promise<string[]> {
  const changed: string[] = [];
  for (const [relativePath, text] of files) {
    const path = `${dir}/${relativePath}`;
    let current: string | undefined;
    try {
      current = await Deno.readTextFile(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (current === text) continue;
    changed.push(relativePath);
    if (!check) {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, text);
    }
  }
  return changed;
}
