// Test helpers for the AdCP A2A profile: the upstream and local vector files, and hostile JSON.
import fc from "fast-check";

/** The upstream vector file, parsed. */
export async function upstreamProfileVectors(): Promise<{
  readonly advertisement_vectors: Record<string, unknown>[];
  readonly invocation_vectors: Record<string, unknown>[];
  readonly response_vectors: Record<string, unknown>[];
}> {
  const url = new URL("../../../vectors/upstream/a2a-profile-extension-v3.json", import.meta.url);
  return JSON.parse(await Deno.readTextFile(url));
}

/** The local edge-case vectors, flat, each with its `kind`. */
export async function localProfileVectors(): Promise<Record<string, unknown>[]> {
  const url = new URL(
    "../../../vectors/local/a2a-profile-extension-edge-cases.json",
    import.meta.url,
  );
  return JSON.parse(await Deno.readTextFile(url)).vectors;
}

/** A deep copy of a JSON value. */
export function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** Any value, JSON or not, with own `__proto__` keys as JSON.parse makes them. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything(),
  fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value))),
  fc.constant(JSON.parse('{"__proto__":{"task":{}},"task":{"__proto__":{"id":"x"}}}')),
);
