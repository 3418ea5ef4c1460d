// Public names: the declarations behind every entry point, as `deno doc --json` lists them, and
// the names two packages declare.
import type { Member } from "./workspace.ts";

/** How many `deno doc --json` processes run at a time. */
export const DOC_CONCURRENCY = 2;

/** Where a public name is declared. */
export interface Declaration {
  /** The public name. */
  name: string;
  /** The package whose directory holds the declaration. */
  package: string;
  /** The file, relative to the root. */
  file: string;
  /** The line, from 1. */
  line: number;
}

/** A source location in `deno doc --json` output. */
export interface DocLocation {
  /** The file's URL. */
  filename: string;
  /** The line, from 0. */
  line: number;
}

/** The parts of `deno doc --json` output (format version 2) the name rule reads. */
export interface DocJson {
  /** Each entry point's exported symbols. */
  nodes?: Record<string, {
    symbols?: {
      name: string;
      declarations?: {
        kind?: string;
        location?: DocLocation;
        def?: { target?: DocLocation };
      }[];
    }[];
  }>;
}

/**
 * The declarations of the symbols in `deno doc --json` output that lie in a member's directory
 * (`root` is the absolute root the file URLs are under), a re-export counting where its symbol
 * is declared. Re-exports of npm or remote modules are left out.
 */
export function declarationsOf(doc: DocJson, root: string, members: Member[]): Declaration[] {
  const out: Declaration[] = [];
  const prefix = `${root.replace(/\/$/, "")}/`;
  for (const node of Object.values(doc.nodes ?? {})) {
    for (const symbol of node.symbols ?? []) {
      for (const declaration of symbol.declarations ?? []) {
        // When one run documents several entry points, a re-export of a symbol another one
        // exports is a "reference" whose target is the declaration.
        const location = declaration.kind === "reference"
          ? declaration.def?.target
          : declaration.location;
        if (!location?.filename.startsWith("file://") || declaration.kind === "import") continue;
        const path = decodeURIComponent(new URL(location.filename).pathname);
        if (!path.startsWith(prefix)) continue;
        const file = path.slice(prefix.length);
        const member = members.find((m) => file.startsWith(`${m.dir}/`));
        if (member === undefined) continue;
        // `deno doc` counts lines from 0.
        out.push({ name: symbol.name, package: member.name, file, line: location.line + 1 });
      }
    }
  }
  return out;
}

/** One message per public name declared by two or more packages, sorted by name. */
export function duplicateNames(declarations: Declaration[]): string[] {
  const byName = new Map<string, Map<string, Set<string>>>();
  for (const d of declarations) {
    const packages = byName.get(d.name) ?? new Map<string, Set<string>>();
    byName.set(d.name, packages);
    const at = packages.get(d.package) ?? new Set<string>();
    packages.set(d.package, at);
    at.add(`${d.file}:${d.line}`);
  }
  const messages: string[] = [];
  for (const [name, packages] of [...byName].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
    if (packages.size < 2) continue;
    const found = [...packages]
      .map(([pkg, at]) => `${[...at].sort().join(", ")} (${pkg})`)
      .sort();
    messages.push(
      `Public name ${name} is declared in ${packages.size} packages: expected one declaration ` +
        `in the workspace, found ${found.join(" and ")}`,
    );
  }
  return messages;
}

/** Runs `deno doc --json` on one entry point, from `root`. */
export async function docJson(root: string, entryPoint: string): Promise<DocJson> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", entryPoint],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr).trim();
    const reason = text.split("\n").find((l) => /error/i.test(l)) ?? text.split("\n")[0];
    throw new Error(`deno doc --json failed: ${reason}`);
  }
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Maps `items` through `fn`, at most `limit` at a time, keeping the order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------
// Width
