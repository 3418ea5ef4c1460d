// The per-task type emitter on small synthetic schemas (what each JSON Schema keyword becomes),
// and on the pinned version: every manifest task gets its module and its AdcpTasks entry.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { generateTasks } from "../gen.ts";
import { generateTaskTypes, typeNames } from "./task_types.ts";

const ORIGIN = "https://adcontextprotocol.org";

async function emit(schemas: Record<string, unknown>): Promise<Map<string, string>> {
  const tasks = new Map([["do_it", {
    request: "t/do-it-request.json",
    response: "t/do-it-response.json",
    summary: "Does it.",
  }]]);
  return await generateTaskTypes("9.9.9", ORIGIN, tasks, (path) => {
    if (!Object.hasOwn(schemas, path)) throw new Error(`no ${path}`);
    return Promise.resolve(structuredClone(schemas[path]));
  }, "");
}

/** The declaration of a module, without doc comments and whitespace. */
function body(text: string | undefined): string {
  ok(text !== undefined);
  return text.replace(/\/\*\*[\s\S]*?\*\//g, "").replace(/^import .*$/gm, "").replace(/\s+/g, " ")
    .trim();
}

Deno.test("task types: keywords become TypeScript", async () => {
  const files = await emit({
    "t/do-it-request.json": {
      type: "object",
      required: ["mode"],
      additionalProperties: false,
      properties: {
        mode: { enum: ["a", "b"] },
        kind: { const: "x" },
        count: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
        either: { type: ["string", "null"] },
        "odd-key": { type: "boolean" },
        shared: { $ref: "../c/shared.json" },
        inline: { $ref: "../c/shared.json#/$defs/inner" },
        combined: { allOf: [{ $ref: "/schemas/9.9.9/c/shared.json" }, { required: ["x"] }] },
        choice: { oneOf: [{ type: "string" }, { type: "number" }] },
        loose: { type: "object" },
      },
    },
    "t/do-it-response.json": { $ref: "../c/shared.json" },
    "c/shared.json": {
      type: "object",
      properties: { self: { $ref: "#" }, loop: { $ref: "#/$defs/inner" } },
      $defs: { inner: { type: "object", properties: { again: { $ref: "#/$defs/inner" } } } },
    },
  });
  strictEqual(
    body(files.get("schema/t/do-it-request.ts")),
    'export type DoItRequest = { mode: "a" | "b"; kind?: "x"; count?: number; tags?: string[]; ' +
      'either?: string | null; "odd-key"?: boolean; shared?: Shared; inline?: { again?: unknown; ' +
      "[k: string]: unknown; }; combined?: Shared; choice?: string | number; loose?: { " +
      "[k: string]: unknown; }; };",
  );
  ok(files.get("schema/t/do-it-request.ts")!.includes(
    'import type { Shared } from "../../schema/c/shared.ts";',
  ));
  strictEqual(
    body(files.get("schema/c/shared.ts")),
    "export type Shared = { self?: Shared; loop?: { again?: unknown; [k: string]: unknown; }; " +
      "[k: string]: unknown; };",
  );
  strictEqual(body(files.get("schema/t/do-it-response.ts")), "export type DoItResponse = Shared;");
  ok(files.get("mod.ts")!.includes("request: DoItRequest;"));
  ok(files.get("do_it.ts")!.includes("export type TaskResponse = DoItResponse;"));
});

Deno.test("task types: names from file names, prefixed on collisions and globals", () => {
  deepStrictEqual(
    Object.fromEntries(typeNames(["a/format.json", "b/format.json", "c/error.json", "d/x-y.json"])),
    {
      "a/format.json": "AFormat",
      "b/format.json": "BFormat",
      "c/error.json": "AdcpError",
      "d/x-y.json": "XY",
    },
  );
});

Deno.test("task types: every task of the pinned manifest has its module and entry", async () => {
  const files = await generateTasks("3.2.0-beta.5");
  const manifest = JSON.parse(
    await Deno.readTextFile(
      new URL("../../spec/schemas/3.2.0-beta.5/manifest.json", import.meta.url),
    ),
  );
  const tasks = Object.keys(manifest.tools);
  ok(tasks.length > 50);
  const mod = files.get("mod.ts")!;
  for (const task of tasks) {
    ok(files.has(`${task}.ts`), task);
    ok(mod.includes(`  ${task}: {`), task);
  }
  // No module is a monolith: the largest stays far below what inlining every $ref produced.
  const largest = Math.max(...[...files.values()].map((text) => text.split("\n").length));
  ok(largest < 5_000, `largest module has ${largest} lines`);
});
