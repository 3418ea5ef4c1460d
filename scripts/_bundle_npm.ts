/**
 * The npm packages the workspace packages import at run time (so far only `tldts`, the Public
 * Suffix List of `adagents.json` discovery), resolved for esbuild from Deno's npm cache exactly as
 * the lock pins them: a bare import is bundled only when the root `deno.json` maps it to an exact
 * `npm:name@version`, and the imports inside such a package only to the versions `deno.lock`
 * records for it. Nothing is downloaded here: `deno cache` (any earlier `deno` run of the
 * workspace) fills the cache.
 *
 * @module
 */
import type * as esbuild from "esbuild";
import { ScriptError } from "./_cli.ts";
import { ROOT } from "./_sources.ts";

/**
 * The npm packages library code may import at run time, each bundled into the Node and browser
 * builds (a JSR user gets them as the package's npm dependencies). Any other bare import fails
 * the build.
 */
export const RUNTIME_NPM_PACKAGES: readonly string[] = ["tldts"];

/** What the plugin needs: where each pinned package lives, and what each depends on. */
export interface NpmGraph {
  /** Bare specifier of the import map (`tldts`) to its `name@version`. */
  roots: ReadonlyMap<string, string>;
  /** `name@version` to its dependencies, as `name` to `name@version`. */
  dependencies: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The folder of `name@version` in the npm cache. */
  folderOf(id: string): string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `name@version` split at the version's `@` (a scoped name starts with one). */
function splitId(id: string): { name: string; version: string } {
  const at = id.lastIndexOf("@");
  return at <= 0 ? { name: id, version: "" } : { name: id.slice(0, at), version: id.slice(at + 1) };
}

/**
 * The graph of the runtime npm packages from the root `deno.json` and `deno.lock` texts.
 *
 * @param config The root `deno.json`, parsed.
 * @param lock `deno.lock`, parsed.
 * @param npmCache Deno's npm cache folder (`deno info --json`'s `npmCache`).
 * @param runtime The bare specifiers that may be bundled.
 * @returns The graph.
 * @throws {ScriptError} When a mapped package is not exact-pinned or not in the lock.
 */
export function npmGraph(
  config: unknown,
  lock: unknown,
  npmCache: string,
  runtime: readonly string[] = RUNTIME_NPM_PACKAGES,
): NpmGraph {
  const imports = isObject(config) && isObject(config.imports) ? config.imports : {};
  const specifiers = isObject(lock) && isObject(lock.specifiers) ? lock.specifiers : {};
  const packages = isObject(lock) && isObject(lock.npm) ? lock.npm : {};
  const roots = new Map<string, string>();
  for (const [bare, target] of Object.entries(imports)) {
    if (!runtime.includes(bare) || typeof target !== "string" || !target.startsWith("npm:")) {
      continue;
    }
    const resolved = specifiers[target];
    if (typeof resolved !== "string") {
      throw new ScriptError(`deno.lock has no entry for ${target}: run \`deno cache\` first`);
    }
    const { name, version } = splitId(target.slice("npm:".length));
    if (version !== resolved) {
      throw new ScriptError(`deno.json maps ${bare} to ${target}: expected an exact version`);
    }
    roots.set(bare, `${name}@${version}`);
  }
  const dependencies = new Map<string, Map<string, string>>();
  const byName = new Map<string, string[]>();
  for (const id of Object.keys(packages)) {
    const { name } = splitId(id.split("_")[0]!);
    byName.set(name, [...(byName.get(name) ?? []), id]);
  }
  for (const [id, entry] of Object.entries(packages)) {
    const deps = new Map<string, string>();
    const list = isObject(entry) && Array.isArray(entry.dependencies) ? entry.dependencies : [];
    for (const dep of list) {
      if (typeof dep !== "string") continue;
      // Lock version 5 names a dependency alone when one version is locked, else `name@version`.
      const { name, version } = dep.startsWith("@") || dep.includes("@")
        ? splitId(dep)
        : { name: dep, version: "" };
      const candidates = byName.get(name) ?? [];
      const chosen = version === ""
        ? (candidates.length === 1 ? candidates[0] : undefined)
        : candidates.find((c) => c.split("_")[0] === `${name}@${version}`);
      if (chosen !== undefined) deps.set(name, chosen);
    }
    dependencies.set(id, deps);
  }
  return {
    roots,
    dependencies,
    folderOf: (id) => {
      const { name, version } = splitId(id.split("_")[0]!);
      return `${npmCache}/registry.npmjs.org/${name}/${version}`;
    },
  };
}

/** `tldts/x` → `tldts` and `./x`; `@scope/name/x` → `@scope/name` and `./x`. */
function splitSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split("/");
  const size = specifier.startsWith("@") ? 2 : 1;
  const rest = parts.slice(size).join("/");
  return { name: parts.slice(0, size).join("/"), subpath: rest === "" ? "." : `./${rest}` };
}

/**
 * The esbuild plugin that inlines the pinned runtime npm packages from the cache.
 *
 * @param graph From {@link npmGraph}.
 * @returns The plugin.
 */
export function npmPlugin(graph: NpmGraph): esbuild.Plugin {
  const folders = new Map<string, string>();
  for (const id of graph.dependencies.keys()) folders.set(graph.folderOf(id), id);
  const owner = (file: string): string | undefined => {
    for (const [folder, id] of folders) if (file.startsWith(`${folder}/`)) return id;
    return undefined;
  };
  return {
    name: "adcp-wire-npm",
    setup(build) {
      build.onResolve({ filter: /^(@[^./][^/]*\/)?[^./@][^/]*(\/.*)?$/ }, async (args) => {
        if (args.path.startsWith("node:")) return undefined;
        const { name, subpath } = splitSpecifier(args.path);
        const from = owner(args.importer);
        const id = from === undefined
          ? graph.roots.get(name)
          : graph.dependencies.get(from)?.get(name);
        if (id === undefined) {
          return {
            errors: [{
              text:
                `${args.path} is not a runtime npm package (RUNTIME_NPM_PACKAGES, exact-pinned ` +
                `in deno.json "imports")`,
            }],
          };
        }
        const result = await build.resolve(subpath, {
          kind: args.kind,
          resolveDir: graph.folderOf(id),
        });
        return result.errors.length > 0 ? { errors: result.errors } : { path: result.path };
      });
    },
  };
}

/**
 * The plugin for this checkout: the root `deno.json`, `deno.lock` and Deno's npm cache.
 *
 * @returns The plugin.
 * @throws {ScriptError} When Deno cannot say where its npm cache is.
 */
export async function workspaceNpmPlugin(): Promise<esbuild.Plugin> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  const npmCache = info.success ? JSON.parse(new TextDecoder().decode(info.stdout)).npmCache : "";
  if (typeof npmCache !== "string" || npmCache === "") {
    throw new ScriptError("Cannot bundle: `deno info --json` did not name the npm cache");
  }
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
  const lock = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.lock`));
  return npmPlugin(npmGraph(config, lock, npmCache));
}
