/**
 * Upstream's compliance bundles as the runner's vector "files". Upstream publishes the RFC 9421
 * vectors one per file, per AdCP version (`vectors/upstream/compliance/<version>/`, synced and
 * verified by `deno task sync`); the runner's files are one document per suite. This module
 * assembles them, the same way for `test_vectors.ts` and `test_browser.ts`:
 *
 * - `request-signing/` → suite `request-signing`, a bundle (below);
 * - `request-signing/profile-3.2/` (optional) → `request-signing`, a bundle whose keys are
 *   `request-signing/keys.json`;
 * - `request-signing/canonicalization.json` → `target-uri-canonicalization`, the file as is;
 * - `request-signing/body-integrity-policy.json` (optional) → `body-integrity-policy`, as is;
 * - `webhook-signing/` → `webhook-signing`, a bundle.
 *
 * A bundle is `{keys: <keys.json>.keys, vectors}`: the `positive/` vectors, then the `negative/`
 * ones, each folder sorted by file name, each vector `{...vector, id: "positive/001-basic-post",
 * description: <its name>}` (the id is the file's path without `.json`: unique and stable).
 * The optional entries are missing in 3.1.19, which is not an error; a required entry that is
 * missing, a file that is not JSON, a vector that is not an object or a `keys.json` without a
 * `keys` array makes that entry one failed `(file)`, never a crash. A vectors folder without a
 * `compliance/` subfolder has no bundles; one whose `compliance/` lacks the run's version fails
 * each required entry, naming the versions it has (the run cannot check that version's signing
 * profile).
 *
 * @module
 */
import { displayPath } from "./_sources.ts";
import type { SuiteName } from "./_vectors.ts";

/** The subfolder of a vectors folder that holds the compliance bundles, one folder per version. */
export const COMPLIANCE_DIR = "compliance";

/** One assembled "file": its display path and suite, and its document or why there is none. */
export type AssembledFile =
  & {
    /** The path the report shows; a folder's ends with `/`. */
    file: string;
    /** The suite its vectors run under. */
    suite: SuiteName;
  }
  & ({ ok: true; doc: unknown } | { ok: false; reason: string });

/** What to assemble, and whether a version may lack it. */
interface Entry {
  path: string;
  suite: SuiteName;
  /** A bundle folder (with the folder its keys.json is in), or one document. */
  bundle?: { keys: string };
  optional: boolean;
}

/** The layout of one version's bundle (paths below `compliance/<version>/`). */
export const COMPLIANCE_LAYOUT: readonly Readonly<Entry>[] = [
  {
    path: "request-signing",
    suite: "request-signing",
    bundle: { keys: "request-signing" },
    optional: false,
  },
  {
    path: "request-signing/profile-3.2",
    suite: "request-signing",
    bundle: { keys: "request-signing" },
    optional: true,
  },
  {
    path: "request-signing/canonicalization.json",
    suite: "target-uri-canonicalization",
    optional: false,
  },
  {
    path: "request-signing/body-integrity-policy.json",
    suite: "body-integrity-policy",
    optional: true,
  },
  {
    path: "webhook-signing",
    suite: "webhook-signing",
    bundle: { keys: "webhook-signing" },
    optional: false,
  },
];

/** Why an entry cannot be assembled; `missing` when it (or its folder) does not exist. */
class AssemblyError extends Error {
  override readonly name: string = "AssemblyError";
  readonly missing: boolean;
  constructor(message: string, missing = false) {
    super(message);
    this.missing = missing;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether `path` is a directory; `false` when it does not exist. */
async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** One JSON file, parsed; `name` is how the reason names it. */
async function readJson(path: string, name: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new AssemblyError(`${name} does not exist`, true);
    }
    throw new AssemblyError(`${name}: ${messageOf(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AssemblyError(`${name} is not JSON: ${messageOf(error)}`);
  }
}

/** The `*.json` names of a folder, sorted (links count as files). */
async function jsonNames(dir: string, name: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.endsWith(".json") && (entry.isFile || entry.isSymlink)) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new AssemblyError(`${name}/ does not exist`, true);
    }
    throw new AssemblyError(`${name}/: ${messageOf(error)}`);
  }
  return names.sort();
}

/** A bundle folder as one `{keys, vectors}` document. */
async function assembleBundle(root: string, entry: Entry, keysDir: string): Promise<unknown> {
  if (!await isDirectory(`${root}/${entry.path}`)) {
    throw new AssemblyError(`${entry.path}/ does not exist`, true);
  }
  const keysName = `${keysDir}/keys.json`;
  const keysDoc = await readJson(`${root}/${keysName}`, keysName);
  if (!isObject(keysDoc) || !Array.isArray(keysDoc.keys)) {
    throw new AssemblyError(`${keysName}: expected an object with a \`keys\` array`);
  }
  const vectors: unknown[] = [];
  for (const section of ["positive", "negative"]) {
    const folder = `${entry.path}/${section}`;
    for (const name of await jsonNames(`${root}/${folder}`, folder)) {
      const vector = await readJson(`${root}/${folder}/${name}`, `${folder}/${name}`);
      if (!isObject(vector)) {
        throw new AssemblyError(`${folder}/${name}: expected a JSON object (one vector)`);
      }
      vectors.push({
        ...vector,
        id: `${section}/${name.slice(0, -".json".length)}`,
        description: typeof vector.name === "string" ? vector.name : "",
      });
    }
  }
  return { keys: keysDoc.keys, vectors };
}

/**
 * The compliance bundles of one AdCP version in a vectors folder, assembled, sorted by display
 * path. Never throws for bad or missing data: such an entry comes back with `ok: false`.
 *
 * @param vectorsDir A vectors folder (`vectors/upstream`); its `compliance/<version>/` is read.
 * @param adcpVersion The run's AdCP version.
 * @returns The assembled files; none when the folder has no `compliance/` subfolder.
 */
export async function assembleCompliance(
  vectorsDir: string,
  adcpVersion: string,
): Promise<AssembledFile[]> {
  const base = `${vectorsDir}/${COMPLIANCE_DIR}`;
  const root = `${base}/${adcpVersion}`;
  let versionMissing: string | undefined;
  try {
    if (!await isDirectory(base)) return [];
    if (!/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(adcpVersion)) {
      // A version names one folder: never a path (the callers pass SemVer versions).
      versionMissing = `not an AdCP version: ${JSON.stringify(adcpVersion)}`;
    } else if (!await isDirectory(root)) {
      const present: string[] = [];
      for await (const entry of Deno.readDir(base)) if (entry.isDirectory) present.push(entry.name);
      versionMissing = `no compliance bundle for AdCP ${adcpVersion} in ${displayPath(base)}/ ` +
        `(it has ${present.length === 0 ? "none" : present.sort().join(", ")}; a locked version ` +
        "is synced by `deno task sync`, see its --help)";
    }
  } catch (error) {
    versionMissing = `${displayPath(root)}: ${messageOf(error)}`;
  }
  const out: AssembledFile[] = [];
  for (const entry of COMPLIANCE_LAYOUT) {
    const file = `${displayPath(`${root}/${entry.path}`)}${entry.bundle ? "/" : ""}`;
    if (versionMissing !== undefined) {
      if (!entry.optional) {
        out.push({ file, suite: entry.suite, ok: false, reason: versionMissing });
      }
      continue;
    }
    try {
      const doc = entry.bundle
        ? await assembleBundle(root, entry, entry.bundle.keys)
        : await readJson(`${root}/${entry.path}`, entry.path);
      out.push({ file, suite: entry.suite, ok: true, doc });
    } catch (error) {
      if (!(error instanceof AssemblyError)) {
        out.push({ file, suite: entry.suite, ok: false, reason: messageOf(error) });
      } else if (!(error.missing && entry.optional && !(await exists(`${root}/${entry.path}`)))) {
        out.push({ file, suite: entry.suite, ok: false, reason: error.message });
      }
    }
  }
  return out.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
}

/** Whether a path exists (a broken link does not). */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
