import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { ensureSynced } from "./_test_sync.ts";
import { readSources, schemaDir } from "./_sources.ts";
import {
  advisoryDetailsVariant,
  findDuplicateItem,
  generateValidators,
  planTasks,
  VALIDATORS_DIR,
  writeValidators,
} from "./gen_validators.ts";

const { schema_version: PINNED } = await readSources();
const first = await generateValidators(PINNED);

/**
 * The specifiers of a bundled module's import and export-from statements. esbuild prints them at the start of a
 * statement (`import{a as b}from"../chunks/X.js";`), so text inside strings is not mistaken for one.
 */
function importSpecifiers(js: string): string[] {
  const re =
    /(?:^|[;\n])\s*(?:import|export)\s*(?:\{[^}]*\}\s*from|\*\s*as\s+[\w$]+\s*from)?\s*"([^"]+)"/g;
  return [...js.matchAll(re)].map((m) => m[1]!);
}

Deno.test("generateValidators() is byte-identical on rerun and matches packages/schemas/validators", async () => {
  const second = await generateValidators(PINNED);
  deepStrictEqual([...second.keys()], [...first.keys()]);
  for (const [path, text] of first) strictEqual(second.get(path), text, path);
  const { changed, removed } = await writeValidators(first, true);
  deepStrictEqual({ changed, removed }, { changed: [], removed: [] });
});

Deno.test("no generated module evaluates code, imports Ajv, or imports outside the folder", () => {
  let js = 0;
  for (const [path, text] of first) {
    if (!path.endsWith(".js")) continue;
    js++;
    ok(!text.includes("new Function"), path);
    ok(!/\beval\s*\(/.test(text), path);
    ok(!/\bFunction\s*\(/.test(text), path);
    ok(!text.includes("__require"), `${path} has an unresolved require`);
    ok(!/\bimport\s*\(/.test(text), `${path} has a dynamic import`);
    for (const spec of importSpecifiers(text)) {
      ok(spec.startsWith("./") || spec.startsWith("../"), `${path} imports ${spec}`);
      ok(!/(?:^|\/)ajv/.test(spec), `${path} imports ${spec}`);
    }
  }
  ok(js > 100);
});

Deno.test("generateValidators() writes one entry module per task, schema and details schema", async () => {
  const plans = await planTasks(schemaDir(PINNED));
  for (const p of plans) {
    const text = first.get(`tasks/${p.task}.js`);
    ok(text !== undefined, p.task);
    ok(text.includes('// @ts-self-types="../_task_module.d.ts"'), p.task);
  }
  for (
    const path of ["core/error.js", "core/mcp_webhook_payload.js", "error_details/rate_limited.js"]
  ) {
    ok(first.get(path)?.includes('// @ts-self-types="../_schema_module.d.ts"'), path);
  }
  const mod = first.get("mod.ts")!;
  ok(mod.includes(`export const VALIDATORS_ADCP_VERSION = "${PINNED}";`));
  ok(mod.includes('load: () => import("./tasks/get_products.js"),'));
  ok(mod.includes('["RATE_LIMITED", "error-details/rate-limited.json"],'));
  for (const path of first.keys()) {
    ok(
      /^(?:mod\.ts|types\.ts|_\w+\.d\.ts|(?:tasks|core|error_details|chunks)\/\w+\.js)$/.test(path),
      path,
    );
  }
});

/** The files a module loads, itself included, resolved inside the generated folder. */
function closure(files: Map<string, string>, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const spec of importSpecifiers(files.get(path) ?? "")) {
      visit(new URL(spec, `file:///v/${path}`).pathname.slice("/v/".length));
    }
  };
  visit(entry);
  return seen;
}

Deno.test("task modules share their code in chunks and load only what they need", () => {
  const size = (paths: Iterable<string>) => {
    let n = 0;
    for (const p of paths) n += first.get(p)!.length;
    return n;
  };
  const total = size([...first.keys()].filter((p) => p.endsWith(".js")));
  const tasks = [...first.keys()].filter((p) => p.startsWith("tasks/"));
  let sumOfClosures = 0;
  for (const t of tasks) {
    const c = closure(first, t);
    for (const p of c) ok(first.has(p), `${t} imports missing ${p}`);
    sumOfClosures += size(c);
  }
  // Without sharing, the output would be the sum of the closures.
  ok(sumOfClosures > 3 * total, `${sumOfClosures} vs ${total}`);
  ok(size(closure(first, "tasks/report_plan_outcome.js")) < total / 50);
  ok(total < 8_000_000, `${total} bytes`);
});

Deno.test("planTasks() reads the tools, their interim schemas and the terminal overrides", async () => {
  const plans = await planTasks(await ensureSynced("3.2.0-beta.5"));
  const byTask = new Map(plans.map((p) => [p.task, p]));
  deepStrictEqual(byTask.get("get_products"), {
    task: "get_products",
    response: "media-buy/get-products-response.json",
    interim: {
      "input-required": "media-buy/get-products-async-response-input-required.json",
      submitted: "media-buy/get-products-async-response-submitted.json",
      working: "media-buy/get-products-async-response-working.json",
    },
  });
  deepStrictEqual(byTask.get("media_buy_delivery"), {
    task: "media_buy_delivery",
    response: "media-buy/media-buy-delivery-webhook-result.json",
    interim: {},
  });
  strictEqual(plans.length, 73);
  deepStrictEqual(plans.map((p) => p.task), [...plans.map((p) => p.task)].sort());

  const old = await planTasks(await ensureSynced("3.1.19"));
  strictEqual(old.length, 64);
  ok(!old.some((p) => p.task === "media_buy_delivery"));
});

Deno.test("generateValidators() supports 3.1.19's root-relative $refs, end to end", async () => {
  const files = await generateValidators("3.1.19", await ensureSynced("3.1.19"));
  ok(files.get("mod.ts")!.includes('export const VALIDATORS_ADCP_VERSION = "3.1.19";'));
  const dir = await Deno.makeTempDir();
  try {
    await writeValidators(files, false, dir);
    const { response } = await import(`file://${dir}/tasks/list_accounts.js`);
    const doc = JSON.parse(
      await Deno.readTextFile(`${schemaDir("3.1.19")}/account/list-accounts-response.json`),
    );
    const example = doc.examples[0].data;
    strictEqual(response(example), true);
    strictEqual(response({ ...example, accounts: "none" }), false);
    strictEqual(response.errors[0].instancePath, "/accounts");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeValidators() writes, removes stale files, and only compares in check mode", async () => {
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
});

Deno.test("advisoryDetailsVariant() drops only the root additionalProperties", () => {
  const doc = {
    $id: "https://adcontextprotocol.org/schemas/x/error-details/a.json",
    type: "object",
    additionalProperties: false,
    properties: { nested: { type: "object", additionalProperties: false } },
  };
  const copy = advisoryDetailsVariant(
    doc,
    "https://adcontextprotocol.org/schemas/x/_adcp-wire/a.json",
  );
  deepStrictEqual(copy, {
    $id: "https://adcontextprotocol.org/schemas/x/_adcp-wire/a.json",
    type: "object",
    properties: { nested: { type: "object", additionalProperties: false } },
  });
  strictEqual(doc.additionalProperties, false);
});

Deno.test("findDuplicateItem() finds equal JSON items as JSON Schema defines equality", () => {
  strictEqual(findDuplicateItem([]), undefined);
  strictEqual(
    findDuplicateItem([1, "1", true, "true", null, "null", [1, 2], [2, 1], {}, []]),
    undefined,
  );
  deepStrictEqual(findDuplicateItem([{ a: 1, b: [2, { c: 3 }] }, 7, { b: [2, { c: 3 }], a: 1 }]), [
    0,
    2,
  ]);
  deepStrictEqual(findDuplicateItem([0, 1, -0]), [0, 2]);
  deepStrictEqual(findDuplicateItem(["x", "y", "y", "x"]), [1, 2]);
  deepStrictEqual(
    findDuplicateItem([{ "__proto__": 1 }, JSON.parse('{"__proto__":1}')]),
    undefined,
  );
  deepStrictEqual(
    findDuplicateItem([JSON.parse('{"__proto__":1}'), JSON.parse('{"__proto__":1}')]),
    [0, 1],
  );
});

Deno.test("findDuplicateItem() runs in linear time on many distinct objects", () => {
  const items = Array.from({ length: 200_000 }, (_, i) => ({ id: `item_${i}`, n: i }));
  const start = performance.now();
  strictEqual(findDuplicateItem(items), undefined);
  const ms = performance.now() - start;
  ok(ms < 3000, `${ms} ms`); // Ajv's pairwise check needs hours for this
});

Deno.test("the generated validators carry findDuplicateItem, not Ajv's pairwise uniqueItems", () => {
  const all = [...first.values()].join("\n");
  ok(all.includes("new Map"));
  ok(!all.includes("must NOT have duplicate items"));
});

Deno.test("VALIDATORS_DIR is packages/schemas/validators", () => {
  ok(VALIDATORS_DIR.endsWith("/packages/schemas/validators"));
});

Deno.test("findDuplicateItem() handles items nested far deeper than recursion allows", () => {
  const deep = (depth: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { k: value } : [value];
    return value;
  };
  deepStrictEqual(findDuplicateItem([deep(200_000, 1), deep(200_000, 2), deep(200_000, 1)]), [
    0,
    2,
  ]);
  strictEqual(findDuplicateItem([deep(200_000, 1), deep(200_000, 2)]), undefined);
});

Deno.test("findDuplicateItem() agrees with a pairwise JSON Schema equality", () => {
  const equal = (a: unknown, b: unknown): boolean => {
    if (typeof a === "number" && typeof b === "number") return a === b; // -0 equals 0
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a) && Array.isArray(b)) {
      return a.length === b.length && a.every((item, i) => equal(item, b[i]));
    }
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) =>
      k === kb[i] &&
      equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
    );
  };
  const pairwise = (items: readonly unknown[]): [number, number] | undefined => {
    for (let j = 1; j < items.length; j++) {
      for (let i = 0; i < j; i++) if (equal(items[i], items[j])) return [i, j];
    }
    return undefined;
  };
  const small = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(0, -0, 1, 1.5, "1", "", true, false, null, "{}", "[]"),
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "b", "__proto__"), tie("value"), { maxKeys: 3 }),
    ),
  })).value;
  fc.assert(
    fc.property(fc.array(small, { maxLength: 8 }), (items) => {
      const json = JSON.parse(JSON.stringify(items)) as unknown[];
      const found = findDuplicateItem(json);
      const expected = pairwise(json);
      // The same verdict; for a duplicate, the same later index and an equal earlier item.
      strictEqual(found === undefined, expected === undefined);
      if (found !== undefined && expected !== undefined) {
        strictEqual(found[1], expected[1]);
        ok(equal(json[found[0]], json[found[1]]));
      }
    }),
    { numRuns: 3000 },
  );
});
