// Private test helpers: the synced schemas of the version the validators were generated from, and
// the pinned AdCP version, for tests of what only some versions define.
import { ADCP_VERSION } from "@adcp-wire/schemas";
import { VALIDATORS_ADCP_VERSION } from "@adcp-wire/schemas/validators";

/** `MAJOR.MINOR.PATCH` and the pre-release identifiers (numbers as numbers) of a version. */
function versionParts(version: string): { core: number[]; pre: (number | string)[] } {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/.exec(version);
  if (match === null) throw new RangeError(`Expected a SemVer version, got ${version}`);
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    pre: match[4]?.split(".").map((id) => /^\d+$/.test(id) ? Number(id) : id) ?? [],
  };
}

/**
 * Whether the pinned AdCP version (`ADCP_VERSION` of `@adcp-wire/schemas`) is `since` or later,
 * by SemVer precedence as vectors/README.md defines it for `adcp_versions`: a pre-release sorts
 * before its release (`3.2.0-beta.5 < 3.2.0`), pre-release identifiers compare one by one,
 * numbers numerically and below words. A test of what only some versions define checks it, so
 * that it holds, and checks the right thing, on every locked version (spec/sources.lock.json).
 */
export function pinnedAtLeast(since: string): boolean {
  const [a, b] = [versionParts(ADCP_VERSION), versionParts(since)];
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i]! > b.core[i]!;
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length <= b.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const [x, y] = [a.pre[i]!, b.pre[i]!];
    if (x === y) continue;
    if (typeof x === typeof y) return x > y;
    return typeof x === "string"; // a word sorts after a number
  }
  return a.pre.length >= b.pre.length;
}

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
