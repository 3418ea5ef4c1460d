import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import {
  bundleFile,
  bundlePackages,
  entryName,
  exportsMap,
  packageJson,
  readWorkspace,
  resolveWorkspaceImport,
  stopBundler,
  workspaceAliases,
  type WorkspacePackage,
} from "./_bundle.ts";
import { ScriptError } from "./_cli.ts";
import { ROOT } from "./_sources.ts";

const PACKAGES: WorkspacePackage[] = [
  { name: "@adcp-wire/core", dir: "/r/packages/core", exports: { ".": "./mod.ts" } },
  {
    name: "@adcp-wire/transports",
    dir: "/r/packages/transports",
    exports: { ".": "./mod.ts", "./mcp": "./mcp/mod.ts", "./read/deep": "./read/deep.ts" },
  },
];

Deno.test("exportsMap() reads a path or a map, and refuses anything else", () => {
  deepStrictEqual(exportsMap("@adcp-wire/a", "./mod.ts"), { ".": "./mod.ts" });
  deepStrictEqual(exportsMap("@adcp-wire/a", { ".": "./mod.ts", "./x": "./x.ts" }), {
    ".": "./mod.ts",
    "./x": "./x.ts",
  });
  throws(() => exportsMap("@adcp-wire/a", { ".": 1 }), ScriptError);
  throws(() => exportsMap("@adcp-wire/a", undefined), /@adcp-wire\/a: expected "exports"/);
});

Deno.test("workspaceAliases() maps every exported subpath to its file", () => {
  deepStrictEqual(
    [...workspaceAliases(PACKAGES)],
    [
      ["@adcp-wire/core", "/r/packages/core/mod.ts"],
      ["@adcp-wire/transports", "/r/packages/transports/mod.ts"],
      ["@adcp-wire/transports/mcp", "/r/packages/transports/mcp/mod.ts"],
      ["@adcp-wire/transports/read/deep", "/r/packages/transports/read/deep.ts"],
    ],
  );
});

Deno.test("resolveWorkspaceImport() names the missing package or the subpaths there are", () => {
  const aliases = workspaceAliases(PACKAGES);
  deepStrictEqual(resolveWorkspaceImport("@adcp-wire/transports/mcp", aliases), {
    path: "/r/packages/transports/mcp/mod.ts",
  });
  deepStrictEqual(resolveWorkspaceImport("@adcp-wire/nope", aliases), {
    error: "@adcp-wire/nope: no workspace package @adcp-wire/nope",
  });
  deepStrictEqual(resolveWorkspaceImport("@adcp-wire/core/internal.ts", aliases), {
    error: "@adcp-wire/core/internal.ts: @adcp-wire/core exports only @adcp-wire/core",
  });
});

Deno.test("entryName() and packageJson() lay a package out as npm users get it", () => {
  strictEqual(entryName("."), "mod");
  strictEqual(entryName("./mcp"), "mcp");
  strictEqual(entryName("./read/deep"), "read_deep");
  deepStrictEqual(JSON.parse(packageJson(PACKAGES[1]!)), {
    name: "@adcp-wire/transports",
    private: true,
    type: "module",
    exports: { ".": "./mod.mjs", "./mcp": "./mcp.mjs", "./read/deep": "./read_deep.mjs" },
  });
});

Deno.test("readWorkspace() reads every package of the root deno.json", async () => {
  const packages = await readWorkspace();
  const names = packages.map((pkg) => pkg.name);
  ok(names.includes("@adcp-wire/core") && names.includes("@adcp-wire/validation"), `${names}`);
  const transports = packages.find((pkg) => pkg.name === "@adcp-wire/transports");
  strictEqual(transports?.dir, `${ROOT}/packages/transports`);
  strictEqual(transports?.exports["./mcp"], "./mcp/mod.ts");
});

Deno.test("bundleFile() inlines the workspace packages for a browser", async () => {
  try {
    const code = await bundleFile("scripts/browser/_validation_checks.ts", "browser");
    ok(code.includes("VALIDATION_CHECKS"), "the entry's export is there");
    ok(!/^(?:import|export)[^;]*from\s*"@adcp-wire\//m.test(code), "no workspace import is left");
    ok(!/^(?:import|export)[^;]*from\s*"node:/m.test(code), "no Node module is imported");
  } finally {
    await stopBundler();
  }
});

Deno.test("bundleFile() refuses an import it cannot resolve, naming it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "adcp-wire-bundle-test-" });
  try {
    await Deno.writeTextFile(`${dir}/entry.ts`, 'export * from "@adcp-wire/core/secret";\n');
    await rejects(
      bundleFile(`${dir}/entry.ts`, "node"),
      (error: Error) =>
        error instanceof ScriptError &&
        error.message.includes("@adcp-wire/core/secret: @adcp-wire/core exports only"),
    );
    await Deno.writeTextFile(`${dir}/entry.ts`, 'export * from "node:fs";\n');
    await rejects(bundleFile(`${dir}/entry.ts`, "browser"), ScriptError);
    ok(/^export \* from "node:fs";$/m.test(await bundleFile(`${dir}/entry.ts`, "node")));
    // A bare npm import is bundled only for the runtime packages (_bundle_npm.ts).
    await Deno.writeTextFile(`${dir}/entry.ts`, 'export * from "fast-check";\n');
    await rejects(
      bundleFile(`${dir}/entry.ts`, "node"),
      (error: Error) =>
        error instanceof ScriptError && error.message.includes("fast-check is not a runtime npm"),
    );
    await Deno.writeTextFile(`${dir}/entry.ts`, 'export { getDomain } from "tldts";\n');
    const psl = await bundleFile(`${dir}/entry.ts`, "browser");
    ok(!/from\s*"tldts/.test(psl) && psl.length > 50_000, "tldts and its list are inlined");
  } finally {
    await stopBundler();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bundlePackages() writes a module per export and a package.json each", async () => {
  let files;
  try {
    files = await bundlePackages("node");
  } finally {
    await stopBundler();
  }
  const paths = new Set(files.map((file) => file.path));
  for (const path of ["core/mod.mjs", "transports/mcp.mjs", "transports/package.json"]) {
    ok(paths.has(path), path);
  }
  ok(files.some((file) => file.path.startsWith("_chunks/")), "shared code is in chunks");
  const mcp = files.find((file) => file.path === "transports/mcp.mjs")!;
  ok(/from\s*"\.\.\/_chunks\//.test(mcp.text), "entries import the shared chunks");
});
