import { deepStrictEqual, throws } from "node:assert/strict";
import { npmGraph } from "./_bundle_npm.ts";
import { ScriptError } from "./_cli.ts";

const config = {
  imports: { tldts: "npm:tldts@7.6.0", "fast-check": "npm:fast-check@4.11.0" },
};
const lock = {
  specifiers: { "npm:tldts@7.6.0": "7.6.0", "npm:fast-check@4.11.0": "4.11.0" },
  npm: {
    "tldts@7.6.0": { dependencies: ["tldts-core"] },
    "tldts-core@7.6.0": {},
    "fast-check@4.11.0": { dependencies: ["pure-rand"] },
    "pure-rand@8.0.0": {},
  },
};

Deno.test("npmGraph() pins only the runtime packages, and their dependencies as locked", () => {
  const graph = npmGraph(config, lock, "/cache");
  deepStrictEqual([...graph.roots], [["tldts", "tldts@7.6.0"]]);
  deepStrictEqual([...graph.dependencies.get("tldts@7.6.0")!], [[
    "tldts-core",
    "tldts-core@7.6.0",
  ]]);
  deepStrictEqual(graph.folderOf("tldts-core@7.6.0"), "/cache/registry.npmjs.org/tldts-core/7.6.0");
});

Deno.test("npmGraph() refuses a runtime package that is not exact-pinned or not locked", () => {
  const loose = { imports: { tldts: "npm:tldts@^7.6.0" } };
  throws(
    () => npmGraph(loose, { specifiers: { "npm:tldts@^7.6.0": "7.6.0" } }, "/c"),
    ScriptError,
  );
  throws(() => npmGraph(config, { specifiers: {}, npm: {} }, "/c"), ScriptError);
});
