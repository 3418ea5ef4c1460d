/**
 * Bundling for the runtimes other than Deno (`test_node.ts`, `test_browser.ts`): esbuild, with the
 * workspace packages `@adcp-wire/*` resolved to their source files through each package's
 * `deno.json` `exports`, as Deno resolves them, and the few npm packages the library needs at run
 * time (`_bundle_npm.ts`) inlined from Deno's npm cache. A bare import of any other package fails
 * the build.
 *
 * The output keeps the source's syntax (`target: "esnext"`): a bundle that runs proves the code
 * itself runs there, not a lowered copy of it.
 *
 * @module
 */
import * as esbuild from "esbuild";
import { ScriptError } from "./_cli.ts";
import { ROOT } from "./_sources.ts";
import { workspaceNpmPlugin } from "./_bundle_npm.ts";

/** A workspace package: its name, its folder and its `exports` map (subpath to file). */
export interface WorkspacePackage {
  /** `@adcp-wire/<name>`. */
  name: string;
  /** Absolute path of its folder. */
  dir: string;
  /** Subpath (`"."`, `"./mcp"`) to file (`"./mod.ts"`), as in its `deno.json`. */
  exports: Record<string, string>;
}

/** The runtime a bundle is for. */
export type BundlePlatform = "node" | "browser";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function joinPath(dir: string, relative: string): string {
  return `${dir}/${relative.replace(/^\.\//, "")}`;
}

/**
 * The `exports` of a package's `deno.json` as a subpath map (`"exports": "./mod.ts"` is `"."`).
 *
 * @param name The package's name, for the error.
 * @param exports The `exports` value.
 * @returns Subpath to file.
 * @throws {ScriptError} When `exports` is neither a string nor an object of strings.
 */
export function exportsMap(name: string, exports: unknown): Record<string, string> {
  if (typeof exports === "string") return { ".": exports };
  if (isObject(exports) && Object.values(exports).every((file) => typeof file === "string")) {
    return { ...exports } as Record<string, string>;
  }
  throw new ScriptError(
    `${name}: expected "exports" to be a path or an object of paths, saw ${
      JSON.stringify(exports)
    }`,
  );
}

/**
 * Every import specifier the workspace packages export, each to its absolute file:
 * `@adcp-wire/core` to `…/packages/core/mod.ts`, `@adcp-wire/transports/mcp` to
 * `…/packages/transports/mcp/mod.ts`.
 *
 * @param packages The packages.
 * @returns Specifier to file.
 */
export function workspaceAliases(packages: readonly WorkspacePackage[]): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const pkg of packages) {
    for (const [subpath, file] of Object.entries(pkg.exports)) {
      const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, "")}`;
      aliases.set(specifier, joinPath(pkg.dir, file));
    }
  }
  return aliases;
}

/**
 * Where a workspace import goes: the file, or a message saying why it cannot be resolved (a
 * package or a subpath the workspace does not export).
 *
 * @param specifier The import specifier (`@adcp-wire/…`).
 * @param aliases From {@link workspaceAliases}.
 * @returns `{ path }` or `{ error }`.
 */
export function resolveWorkspaceImport(
  specifier: string,
  aliases: ReadonlyMap<string, string>,
): { path: string } | { error: string } {
  const path = aliases.get(specifier);
  if (path !== undefined) return { path };
  const name = specifier.split("/").slice(0, 2).join("/");
  const subpaths = [...aliases.keys()].filter((key) => key === name || key.startsWith(`${name}/`));
  return {
    error: subpaths.length === 0
      ? `${specifier}: no workspace package ${name}`
      : `${specifier}: ${name} exports only ${subpaths.join(", ")}`,
  };
}

/**
 * Reads the workspace's packages from the root `deno.json` and each package's `deno.json`.
 *
 * @param root The repository's root.
 * @returns The packages whose name starts with `@adcp-wire/`, in workspace order.
 */
export async function readWorkspace(root: string = ROOT): Promise<WorkspacePackage[]> {
  const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  const members: unknown = config.workspace;
  if (!Array.isArray(members)) throw new ScriptError(`${root}/deno.json has no "workspace" list`);
  const packages: WorkspacePackage[] = [];
  for (const member of members) {
    const dir = joinPath(root, String(member)).replace(/\/$/, "");
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/deno.json`));
    const name = String(manifest.name);
    if (!name.startsWith("@adcp-wire/")) continue;
    packages.push({ name, dir, exports: exportsMap(name, manifest.exports) });
  }
  return packages;
}

/** The esbuild plugin that resolves `@adcp-wire/*` through the workspace and nothing else. */
function workspacePlugin(aliases: ReadonlyMap<string, string>): esbuild.Plugin {
  return {
    name: "adcp-wire-workspace",
    setup(build) {
      build.onResolve({ filter: /^@adcp-wire\// }, (args) => {
        const resolved = resolveWorkspaceImport(args.path, aliases);
        return "path" in resolved
          ? { path: resolved.path }
          : { errors: [{ text: resolved.error }] };
      });
    },
  };
}

function buildOptions(
  platform: BundlePlatform,
  aliases: ReadonlyMap<string, string>,
  npm: esbuild.Plugin,
): esbuild.BuildOptions {
  return {
    bundle: true,
    format: "esm",
    platform,
    target: "esnext",
    // Node's own modules stay imports on Node; in a browser bundle they are an error.
    ...(platform === "node" ? { external: ["node:*"] } : {}),
    plugins: [workspacePlugin(aliases), npm],
    logLevel: "silent",
    write: false,
    absWorkingDir: ROOT,
  };
}

function buildFailure(entry: string, error: unknown): ScriptError {
  const messages = isObject(error) && Array.isArray(error.errors)
    ? (error.errors as esbuild.Message[]).map((m) =>
      `${m.location ? `${m.location.file}:${m.location.line}: ` : ""}${m.text}`
    )
    : [error instanceof Error ? error.message : String(error)];
  return new ScriptError(`Cannot bundle ${entry}: ${messages.join("; ")}`);
}

/**
 * Bundles one entry module into one ES module, with the workspace packages inlined.
 *
 * @param entry The entry file (absolute, or relative to the repository's root).
 * @param platform `"node"` or `"browser"`.
 * @param packages The workspace (read from disk when omitted).
 * @returns The module's code.
 * @throws {ScriptError} When the build fails (an unresolvable import, a syntax error).
 */
export async function bundleFile(
  entry: string,
  platform: BundlePlatform,
  packages?: readonly WorkspacePackage[],
): Promise<string> {
  const aliases = workspaceAliases(packages ?? await readWorkspace());
  let result: esbuild.BuildResult;
  try {
    result = await esbuild.build({
      ...buildOptions(platform, aliases, await workspaceNpmPlugin()),
      entryPoints: [entry],
    });
  } catch (error) {
    throw buildFailure(entry, error);
  }
  const file = result.outputFiles?.[0];
  if (file === undefined) throw new ScriptError(`Cannot bundle ${entry}: esbuild wrote nothing`);
  return file.text;
}

/** One file of a {@link bundlePackages} output: its path under the output folder, and its text. */
export interface OutputFile {
  /** Relative path (`transports/mcp.mjs`, `transports/package.json`, `_chunks/…`). */
  path: string;
  /** The file's text. */
  text: string;
}

/**
 * The name of the file a package subpath is bundled to: `mod` for `"."`, else the subpath with
 * `/` turned to `_` (`"./mcp"` is `mcp`).
 *
 * @param subpath The subpath.
 * @returns The file's base name, without extension.
 */
export function entryName(subpath: string): string {
  return subpath === "." ? "mod" : subpath.replace(/^\.\//, "").replaceAll("/", "_");
}

/**
 * The `package.json` an npm user of a JSR package sees, reduced to what Node needs: the name,
 * `"type": "module"` and the `exports` map pointing at the bundled files.
 *
 * @param pkg The workspace package.
 * @returns The file's text.
 */
export function packageJson(pkg: WorkspacePackage): string {
  const exports: Record<string, string> = {};
  for (const subpath of Object.keys(pkg.exports)) {
    exports[subpath] = `./${entryName(subpath)}.mjs`;
  }
  return JSON.stringify({ name: pkg.name, private: true, type: "module", exports }, null, 2) + "\n";
}

/**
 * Bundles every export of every workspace package as a `node_modules/@adcp-wire/` tree (the
 * files to write under `node_modules/@adcp-wire/`): one folder per package with a `package.json`
 * whose `exports` point at one module per subpath, and the code they share in `_chunks/`, once,
 * so that classes are the same across packages, as they are for an npm user of the JSR packages.
 *
 * @param platform `"node"` or `"browser"`.
 * @param packages The workspace (read from disk when omitted).
 * @returns The files, paths relative to the `@adcp-wire/` folder.
 * @throws {ScriptError} When the build fails.
 */
export async function bundlePackages(
  platform: BundlePlatform,
  packages?: readonly WorkspacePackage[],
): Promise<OutputFile[]> {
  const workspace = packages ?? await readWorkspace();
  const aliases = workspaceAliases(workspace);
  const entryPoints: Record<string, string> = {};
  for (const pkg of workspace) {
    const short = pkg.name.slice("@adcp-wire/".length);
    for (const [subpath, file] of Object.entries(pkg.exports)) {
      entryPoints[`${short}/${entryName(subpath)}`] = joinPath(pkg.dir, file);
    }
  }
  const outdir = `${ROOT}/.bundle-out`; // never written: `write: false`
  let result: esbuild.BuildResult;
  try {
    result = await esbuild.build({
      ...buildOptions(platform, aliases, await workspaceNpmPlugin()),
      entryPoints,
      splitting: true,
      outdir,
      outExtension: { ".js": ".mjs" },
      chunkNames: "_chunks/[name]-[hash]",
    });
  } catch (error) {
    throw buildFailure("the workspace packages", error);
  }
  const files: OutputFile[] = (result.outputFiles ?? []).map((file) => ({
    path: file.path.slice(outdir.length + 1),
    text: file.text,
  }));
  for (const pkg of workspace) {
    files.push({
      path: `${pkg.name.slice("@adcp-wire/".length)}/package.json`,
      text: packageJson(pkg),
    });
  }
  return files;
}

/**
 * Stops esbuild's service process (the next build starts it again); call it when done, or the
 * process keeps the script alive.
 *
 * @returns When it has stopped.
 */
export function stopBundler(): Promise<void> {
  return esbuild.stop();
}
