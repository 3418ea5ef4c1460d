// Private: what validate_bench.ts and its worker share.
import { TASK_VALIDATORS, VALIDATORS_ADCP_VERSION } from "@adcp-wire/schemas/validators";

/**
 * The options scripts/_gen_validators/ajv.ts (makeAjv) compiles with, minus code generation: same
 * schema, same checks.
 */
export const AJV_OPTIONS = {
  strict: false,
  allErrors: false,
  messages: false,
  inlineRefs: false,
  logger: false,
} as const;

const SCHEMA_DIR = new URL(`../../spec/schemas/${VALIDATORS_ADCP_VERSION}/`, import.meta.url);

/** Every synced schema with an `$id`, as Ajv needs them to resolve `$ref`s. */
export function readSchemas(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (dir: URL) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, dir));
      else if (e.name.endsWith(".json")) {
        const doc = JSON.parse(Deno.readTextFileSync(new URL(e.name, dir)));
        if (typeof doc?.$id === "string") out.push(doc);
      }
    }
  };
  walk(SCHEMA_DIR);
  return out;
}

/** The `$id` of get_products' response schema. */
export function getProductsSchemaId(): string {
  const rel = TASK_VALIDATORS.get("get_products")!.responseSchema;
  return `https://adcontextprotocol.org/schemas/${VALIDATORS_ADCP_VERSION}/${rel}`;
}

/** The fixture's product, varied into 20 products: a realistic get_products response. */
export function realisticGetProductsResponse(): unknown {
  const base = JSON.parse(
    Deno.readTextFileSync(new URL("./testdata/get_products_response.json", import.meta.url)),
  );
  const template = base.products[0];
  base.products = Array.from({ length: 20 }, (_, i) => {
    const p = structuredClone(template);
    p.product_id = `product_${i}`;
    p.name = `${p.name} #${i}`;
    p.delivery_type = i % 2 === 0 ? "guaranteed" : "non_guaranteed";
    p.pricing_options[0].pricing_option_id = `po_${i}`;
    p.pricing_options[0].fixed_price = 10 + i;
    return p;
  });
  return base;
}
