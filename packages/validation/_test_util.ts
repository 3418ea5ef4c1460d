// Private test helpers: the synced schemas of the version the validators were generated from.
import { VALIDATORS_ADCP_VERSION } from "@adcp-wire/schemas/validators";

/** Reads a synced schema of the validators' version (`deno task sync` fills spec/schemas/). */
export async function readSchema(rel: string): Promise<Record<string, unknown>> {
  const url = new URL(`../../spec/schemas/${VALIDATORS_ADCP_VERSION}/${rel}`, import.meta.url);
  return JSON.parse(await Deno.readTextFile(url));
}

/**
 * A schema's `examples[index]`: its `data` when upstream wraps it as `{ description, data }` (task
 * and core schemas), else the example itself (error-details schemas).
 */
export async function schemaExample(rel: string, index = 0): Promise<Record<string, unknown>> {
  const doc = await readSchema(rel);
  const example = (doc.examples as unknown[] | undefined)?.[index] as
    | Record<string, unknown>
    | undefined;
  const data = example !== undefined && "description" in example && "data" in example
    ? example.data
    : example;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new Error(`${rel} has no object example ${index}`);
  }
  return data as Record<string, unknown>;
}

/** Reads a fixture of testdata/. */
export async function readFixture(name: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(new URL(`./testdata/${name}`, import.meta.url)));
}

/** A deep copy to mutate. */
export function clone<T>(v: T): T {
  return structuredClone(v);
}
