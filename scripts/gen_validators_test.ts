import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { ensureSynced } from "./_test_sync.ts";
import { readSources, schemaDir } from "./_sources.ts";
import { planTasks } from "./_gen_validators/plan.ts";
import { generateValidators, VALIDATORS_DIR, writeValidators } from "./gen_validators.ts";

const { schema_version: PINNED } = await readSources();
const first = await generateValidators(PINNED);

/**
 * The specifiers of a bundled module's import and export-from statements. esbuild prints them at
 * the start of a statement (`import{a as b}from"../chunks/X.js";`), so text inside strings is not
 * mistaken for one.
 */
function importSpecifiers(js: string): string[] {
  const statement =
    /(?:^|[;\n])\s*(?:import|export)\s*(?:\{[^}]*\}\s*from|\*\s*as\s+[\w$]+\s*from)?\s*"([^"]+)"/g;
  return [...js.matchAll(statement)].map((match) => match[1]!);
}

Deno.test(
  "generateValidators() is byte-identical on rerun and matches packages/schemas/validators",
  async () => {
    const second = await generateValidators(PINNED);
    deepStrictEqual([...second.keys()], [...first.keys()]);
    for (const [path, text] of first) strictEqual(second.get(path), text, path);
    const { changed, removed } = await writeValidators(first, true);
    deepStrictEqual({ changed, removed }, { changed: [], removed: [] });
  },
);

Deno.test("no generated module evaluates code, imports Ajv, or imports outside the folder", () => {
  let jsFiles = 0;
  for (const [path, text] of first) {
    if (!path.endsWith(".js")) continue;
    jsFiles++;
    ok(!text.includes("new Function"), path);
    ok(!/\beval\s*\(/.test(text), path);
    ok(!/\bFunction\s*\(/.test(text), path);
    ok(!text.includes("__require"), `${path} has an unresolved require`);
    ok(!/\bimport\s*\(/.test(text), `${path} has a dynamic import`);
    for (const specifier of importSpecifiers(text)) {
      ok(
        specifier.startsWith("./") || specifier.startsWith("../"),
        `${path} imports ${specifier}`,
      );
      ok(!/(?:^|\/)ajv/.test(specifier), `${path} imports ${specifier}`);
    }
  }
  ok(jsFiles > 100);
});

Deno.test(
  "generateValidators() writes one entry module per task, schema and details schema",
  async () => {
    const plans = await planTasks(schemaDir(PINNED));
    for (const plan of plans) {
      const text = first.get(`tasks/${plan.task}.js`);
      ok(text !== undefined, plan.task);
      ok(text.includes('// @ts-self-types="../_task_module.d.ts"'), plan.task);
    }
    for (
      const path of [
        "core/error.js",
        "core/mcp_webhook_payload.js",
        "error_details/rate_limited.js",
      ]
    ) {
      ok(first.get(path)?.includes('// @ts-self-types="../_schema_module.d.ts"'), path);
    }
    const mod = first.get("mod.ts")!;
    ok(mod.includes(`export const VALIDATORS_ADCP_VERSION = "${PINNED}";`));
    ok(mod.includes('load: () => import("./tasks/get_products.js"),'));
    ok(mod.includes('["RATE_LIMITED", "error-details/rate-limited.json"],'));
    for (const path of first.keys()) {
      ok(
        /^(?:mod\.ts|types\.ts|_\w+\.d\.ts|(?:tasks|core|error_details|chunks)\/\w+\.js)$/.test(
          path,
        ),
        path,
      );
    }
  },
);

/** The files a module loads, itself included, resolved inside the generated folder. */
function closure(files: Map<string, string>, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const specifier of importSpecifiers(files.get(path) ?? "")) {
      visit(new URL(specifier, `file:///v/${path}`).pathname.slice("/v/".length));
    }
  };
  visit(entry);
  return seen;
}

Deno.test("task modules share their code in chunks and load only what they need", () => {
  const size = (paths: Iterable<string>) => {
    let total = 0;
    for (const path of paths) total += first.get(path)!.length;
    return total;
  };
  const total = size([...first.keys()].filter((path) => path.endsWith(".js")));
  const tasks = [...first.keys()].filter((path) => path.startsWith("tasks/"));
  let sumOfClosures = 0;
  for (const task of tasks) {
    const loaded = closure(first, task);
    for (const path of loaded) ok(first.has(path), `${task} imports missing ${path}`);
    sumOfClosures += size(loaded);
  }
  // Without sharing, the output would be the sum of the closures.
  ok(sumOfClosures > 3 * total, `${sumOfClosures} vs ${total}`);
  ok(size(closure(first, "tasks/report_plan_outcome.js")) < total / 50);
  ok(total < 8_000_000, `${total} bytes`);
});

Deno.test("generateValidators() supports 3.1.19's root-relative $refs, end to end", async () => {
  const files = await generateValidators("3.1.19", await ensureSynced("3.1.19"));
  ok(files.get("mod.ts")!.includes('export const VALIDATORS_ADCP_VERSION = "3.1.19";'));
  const dir = await Deno.makeTempDir();
  try {
    await writeValidators(files, false, dir);
    const { response } = await import(`file://${dir}/tasks/list_accounts.js`);
    const schema = JSON.parse(
      await Deno.readTextFile(`${schemaDir("3.1.19")}/account/list-accounts-response.json`),
    );
    const example = schema.examples[0].data;
    strictEqual(response(example), true);
    strictEqual(response({ ...example, accounts: "none" }), false);
    strictEqual(response.errors[0].instancePath, "/accounts");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "writeValidators() writes, removes stale files, and only compares in check mode",
  async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.mkdir(`${dir}/chunks`);
      await Deno.writeTextFile(`${dir}/chunks/OLD.js`, "stale");
      const files = new Map([["mod.ts", "a"], ["tasks/x.js", "b"]]);
      deepStrictEqual(await writeValidators(files, true, dir), {
        changed: ["mod.ts", "tasks/x.js"],
        removed: ["chunks/OLD.js"],
      });
      strictEqual((await Array.fromAsync(Deno.readDir(dir))).length, 1);
      await writeValidators(files, false, dir);
      strictEqual(await Deno.readTextFile(`${dir}/tasks/x.js`), "b");
      deepStrictEqual(await writeValidators(files, true, dir), { changed: [], removed: [] });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  "the generated validators carry findDuplicateItem, not Ajv's pairwise uniqueItems",
  () => {
    const all = [...first.values()].join("\n");
    ok(all.includes("new Map"));
    ok(!all.includes("must NOT have duplicate items"));
  },
);

Deno.test("VALIDATORS_DIR is packages/schemas/validators", () => {
  ok(VALIDATORS_DIR.endsWith("/packages/schemas/validators"));
});
