import { deepStrictEqual, ok } from "node:assert/strict";
import { missingExamples } from "./check_examples.ts";

Deno.test("missingExamples() reports exports and module docs without an example", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/mod.ts`,
      [
        "/**",
        " * A module.",
        " * @module",
        " */",
        "/**",
        " * Documented and shown.",
        " * @example",
        " * ```ts",
        " * const x = 1;",
        " * ```",
        " */",
        "export const shown = 1;",
        "/** Documented only. */",
        "export const described = 2;",
        "",
      ].join("\n"),
    );
    const missing = await missingExamples([`${dir}/mod.ts`]);
    deepStrictEqual(missing.map((m) => m.replace(/^.*: /, "")).sort(), ["described", "module doc"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every hand-written package export has an example", async () => {
  const packages = ["schemas", "core", "recovery", "security", "validation", "transports"];
  const missing = await missingExamples(packages.map((p) => `packages/${p}/mod.ts`));
  ok(missing.length === 0, missing.join("\n"));
});
