// Private: one cold validation in a fresh worker (a fresh module map), for validate_bench.ts. The
// worker receives `{ mode, data }`, validates once (loading the precompiled module, or reading the
// schemas and compiling them with Ajv), and posts back whether the data was valid.
import { Ajv } from "ajv";
import ajvFormats, { type FormatsPlugin } from "ajv-formats";
import { TASK_VALIDATORS } from "@adcp-wire/schemas/validators";
import { AJV_OPTIONS, getProductsSchemaId, readSchemas } from "./_bench_util.ts";

// CommonJS: Deno's default import is `module.exports`, whose `default` is the plugin.
const addFormats = (ajvFormats as unknown as { default: FormatsPlugin }).default;

interface Job {
  mode: "precompiled" | "ajv" | "empty";
  data: unknown;
}

/** The worker scope, typed here because this file is type-checked with the window lib. */
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<Job>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async (e: MessageEvent<Job>) => {
  const { mode, data } = e.data;
  let valid = false;
  if (mode === "precompiled") {
    const { response } = await TASK_VALIDATORS.get("get_products")!.load();
    valid = response(data);
  } else if (mode === "ajv") {
    const ajv = new Ajv(AJV_OPTIONS);
    addFormats(ajv);
    for (const s of readSchemas()) ajv.addSchema(s);
    valid = ajv.getSchema(getProductsSchemaId())!(data) as boolean;
  }
  scope.postMessage(valid);
};
