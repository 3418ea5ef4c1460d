// deno task bench (ratios with targets), or
// deno bench --allow-read packages/validation/validate_bench.ts
//
// A realistic get_products response (20 products) validated by the precompiled validator and by Ajv
// compiling the same schema, with the same options, at run time: steady state (validator ready) and
// first call (a fresh worker loads or compiles, then validates once; an empty worker is the floor).
// Not published (deno.json publish.exclude): it imports Ajv, which the package itself never does.
import { Ajv } from "ajv";
import ajvFormats, { type FormatsPlugin } from "ajv-formats";
import { TASK_VALIDATORS } from "@adcp-wire/schemas/validators";
import { loadTaskValidator } from "./mod.ts";
import {
  AJV_OPTIONS,
  getProductsSchemaId,
  readSchemas,
  realisticGetProductsResponse,
} from "./_bench_util.ts";

// CommonJS: Deno's default import is `module.exports`, whose `default` is the plugin.
const addFormats = (ajvFormats as unknown as { default: FormatsPlugin }).default;

const data = realisticGetProductsResponse();
const schemas = readSchemas();
const precompiled = (await TASK_VALIDATORS.get("get_products")!.load()).response;
const wrapped = await loadTaskValidator("get_products");
const ajv = new Ajv(AJV_OPTIONS);
addFormats(ajv);
for (const s of schemas) ajv.addSchema(s);
const compiled = ajv.getSchema(getProductsSchemaId())!;
if (!precompiled(data) || !compiled(data) || !wrapped.validate(data).valid) {
  throw new Error("The benchmark payload must be valid");
}

Deno.bench("Ajv validator compiled at run time", { group: "steady", baseline: true }, () => {
  compiled(data);
});
Deno.bench("precompiled validator", { group: "steady" }, () => {
  precompiled(data);
});
Deno.bench(
  "validateTaskResponse() (safe copy + precompiled validator)",
  { group: "steady" },
  () => {
    wrapped.validate(data);
  },
);

async function inWorker(mode: "precompiled" | "ajv" | "empty"): Promise<void> {
  const worker = new Worker(new URL("./_bench_worker.ts", import.meta.url), { type: "module" });
  try {
    const valid = await new Promise<boolean>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<boolean>) => resolve(e.data);
      worker.onerror = (e) => reject(e);
      worker.postMessage({ mode, data });
    });
    if (mode !== "empty" && !valid) throw new Error(`${mode}: the payload was invalid`);
  } finally {
    worker.terminate();
  }
}

const slow = { group: "first call", n: 10, warmup: 1 };
Deno.bench("fresh worker, nothing loaded", slow, async () => {
  await inWorker("empty");
});
Deno.bench(
  "fresh worker, precompiled: import + validate",
  { ...slow, baseline: true },
  async () => {
    await inWorker("precompiled");
  },
);
Deno.bench("fresh worker, Ajv: read schemas + compile + validate", slow, async () => {
  await inWorker("ajv");
});
Deno.bench("in process, Ajv: compile + validate (schemas in memory)", slow, () => {
  const a = new Ajv(AJV_OPTIONS);
  addFormats(a);
  for (const s of schemas) a.addSchema(s);
  a.getSchema(getProductsSchemaId())!(data);
});
