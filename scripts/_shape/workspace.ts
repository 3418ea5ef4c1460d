// The workspace as check_shape sees it: members, their files, and which files are tests.
import { posix } from "node:path";

/** One workspace member, with paths relative to the root and POSIX separators. */
export interface Member {
  /** The package name, `@adcp-wire/core`. */
  name: string;
  /** Its directory, `packages/core`. */
  dir: string;
  /** Its `exports`, subpath to entry point: `{ ".": "packages/core/mod.ts" }`. */
  exports: Record<string, string>;
  /** Its `exports` entry points, `packages/core/mod.ts`. */
  entryPoints: string[];
}

/** Reads the workspace members of the `deno.json` in `root`, in the order it lists them. */
export async function readWorkspace(root: string): Promise<Member[]> {
  const config = JSON.parse(await Deno.readTextFile(posix.join(root, "deno.json")));
  const members: Member[] = [];
  for (const entry of (config.workspace ?? []) as string[]) {
    const dir = posix.normalize(entry).replace(/\/$/, "");
    const member = JSON.parse(await Deno.readTextFile(posix.join(root, dir, "deno.json")));
    const declared: Record<string, string> = typeof member.exports === "string"
      ? { ".": member.exports }
      : member.exports ?? {};
    const exports = Object.fromEntries(
      Object.entries(declared).map(([key, path]) => [key, posix.join(dir, path)]),
    );
    members.push({ name: String(member.name), dir, exports, entryPoints: Object.values(exports) });
  }
  return members;
}

/** Lists the files under `dir` (relative to `root`), skipping dot directories and symlinks. */
export async function listFiles(root: string, dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(posix.join(root, rel)));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const path = posix.join(rel, entry.name);
      if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "node_modules") {
        await walk(path);
      } else if (entry.isFile) {
        files.push(path);
      }
    }
  };
  await walk(dir);
  return files.sort();
}

/** Whether `path` is a test file: `*_test.ts`, `*_bench.ts`, `_test_*.ts` or under `testdata/`. */
export function isTestFile(path: string): boolean {
  const parts = path.split("/");
  const base = parts.at(-1) ?? "";
  return parts.includes("testdata") || /_(test|bench)\.[cm]?tsx?$/.test(base) ||
    base.startsWith("_test_");
}

/** Whether `path` is a TypeScript file whose imports are read. */
export function isSourceFile(path: string): boolean {
  return /\.[cm]?tsx?$/.test(path);
}

// ---------------------------------------------------------------------------------------------
// Imports
