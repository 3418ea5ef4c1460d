// Runs the local vector suites (vectors/local/seller-strings*.json, seller-urls*.json) against this
// package. Each runner takes the implementation as a parameter, so another implementation can be
// checked against the same data.
import { AssertionError, deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { sanitizeSellerString } from "./sanitize_seller_string.ts";
import {
  type SellerUrlPurpose,
  type SellerUrlValidation,
  validateSellerUrl,
} from "./validate_seller_url.ts";

interface VectorFile<T> {
  readonly version: number;
  readonly description: string;
  readonly vectors: readonly T[];
}

interface StringVector {
  readonly id: string;
  readonly description: string;
  readonly input: string;
  readonly max_bytes: number;
  readonly expected: string;
}

interface UrlVector {
  readonly id: string;
  readonly description: string;
  readonly purpose: SellerUrlPurpose;
  readonly url: string;
  readonly allowed_hosts: readonly string[];
  /** Optional: a port allow-list (`allowedPorts`), such as the hardened profile [443, 8443]. */
  readonly allowed_ports?: readonly number[];
  readonly expected: { readonly valid: true; readonly url: string } | { readonly valid: false };
  readonly reason?: string;
}

const VECTORS_DIR = new URL("../../vectors/local/", import.meta.url);

async function loadVectors<T>(name: string): Promise<VectorFile<T>> {
  const file = JSON.parse(await Deno.readTextFile(new URL(name, VECTORS_DIR))) as VectorFile<T>;
  strictEqual(file.version, 1, `${name}: version`);
  ok(typeof file.description === "string" && file.description.length > 0, `${name}: description`);
  ok(Array.isArray(file.vectors) && file.vectors.length > 0, `${name}: vectors`);
  return file;
}

/** Every vector of a suite: `<suite>.json` and `<suite>-<anything>.json`, ids unique. */
async function loadSuite<T extends { readonly id: string }>(suite: string): Promise<T[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(VECTORS_DIR)) {
    if (
      entry.isFile &&
      (entry.name === `${suite}.json` ||
        (entry.name.startsWith(`${suite}-`) && entry.name.endsWith(".json")))
    ) {
      names.push(entry.name);
    }
  }
  names.sort();
  const vectors: T[] = [];
  for (const name of names) vectors.push(...(await loadVectors<T>(name)).vectors);
  strictEqual(
    new Set(vectors.map((vector) => vector.id)).size,
    vectors.length,
    `${suite}: unique ids`,
  );
  return vectors;
}

type SanitizeImpl = (input: string, maxBytes: number) => string;
type ValidateImpl = (
  url: string,
  purpose: SellerUrlPurpose,
  allowedHosts: readonly string[],
  allowedPorts: readonly number[] | undefined,
) => SellerUrlValidation;

/** Checks one string vector against `sanitize`; throws an AssertionError on any mismatch. */
function checkSellerStringVector(vector: StringVector, sanitize: SanitizeImpl): void {
  strictEqual(typeof vector.input, "string", `${vector.id}: input`);
  strictEqual(typeof vector.expected, "string", `${vector.id}: expected`);
  ok(Number.isSafeInteger(vector.max_bytes), `${vector.id}: max_bytes`);
  ok(vector.description.length > 0, `${vector.id}: description`);
  strictEqual(sanitize(vector.input, vector.max_bytes), vector.expected, vector.description);
}

/** Checks one URL vector against `validate`; throws an AssertionError on any mismatch. */
function checkSellerUrlVector(vector: UrlVector, validate: ValidateImpl): void {
  ok(vector.description.length > 0, `${vector.id}: description`);
  ok(typeof vector.expected.valid === "boolean", `${vector.id}: expected.valid`);
  if (vector.allowed_ports !== undefined) {
    ok(
      Array.isArray(vector.allowed_ports) && vector.allowed_ports.every(Number.isInteger),
      `${vector.id}: allowed_ports`,
    );
  }
  const actual = validate(vector.url, vector.purpose, vector.allowed_hosts, vector.allowed_ports);
  if (vector.expected.valid) {
    strictEqual(typeof vector.expected.url, "string", `${vector.id}: expected.url`);
    deepStrictEqual(actual, { valid: true, url: vector.expected.url }, vector.description);
  } else {
    strictEqual(actual.valid, false, vector.description);
    if (vector.reason !== undefined && !actual.valid) {
      strictEqual(actual.reason, vector.reason, `${vector.id}: reason`);
    }
  }
}

/** Runs every string vector against `sanitize`, one test step each. */
async function runSellerStringVectors(
  t: Deno.TestContext,
  vectors: readonly StringVector[],
  sanitize: SanitizeImpl,
): Promise<void> {
  for (const vector of vectors) {
    await t.step(vector.id, () => checkSellerStringVector(vector, sanitize));
  }
}

/** Runs every URL vector against `validate`, one test step each. */
async function runSellerUrlVectors(
  t: Deno.TestContext,
  vectors: readonly UrlVector[],
  validate: ValidateImpl,
): Promise<void> {
  for (const vector of vectors) {
    await t.step(vector.id, () => checkSellerUrlVector(vector, validate));
  }
}

Deno.test("sanitizeSellerString() matches every vector in vectors/local/seller-strings*.json", async (t) => {
  const vectors = await loadSuite<StringVector>("seller-strings");
  ok(vectors.length >= 40, "at least 40 string vectors");
  ok(vectors.some((vector) => !vector.input.isWellFormed()), "lone-surrogate vectors are loaded");
  await runSellerStringVectors(
    t,
    vectors,
    (input, maxBytes) => sanitizeSellerString(input, { maxBytes }),
  );
});

Deno.test("validateSellerUrl() matches every vector in vectors/local/seller-urls*.json", async (t) => {
  const vectors = await loadSuite<UrlVector>("seller-urls");
  ok(vectors.length >= 40, "at least 40 URL vectors");
  ok(
    vectors.some((vector) => vector.allowed_ports !== undefined),
    "port-profile vectors are loaded",
  );
  await runSellerUrlVectors(
    t,
    vectors,
    (url, purpose, allowedHosts, allowedPorts) =>
      validateSellerUrl(url, {
        purpose,
        allowedHosts,
        ...(allowedPorts === undefined ? {} : { allowedPorts }),
      }),
  );
});

Deno.test("the vector checks fail when the implementation disagrees", async () => {
  const strings = await loadSuite<StringVector>("seller-strings");
  const urls = await loadSuite<UrlVector>("seller-urls");
  // An identity sanitizer must fail at least the vectors whose input changes.
  const changing = strings.filter((vector) => vector.input !== vector.expected);
  ok(changing.length > 30);
  for (const vector of changing) {
    throws(() => checkSellerStringVector(vector, (input) => input), AssertionError, vector.id);
  }
  // An accept-everything validator must fail every invalid vector, and one returning the raw
  // input must fail every valid vector whose href differs from it.
  const acceptAll: ValidateImpl = (url) => ({ valid: true, url });
  for (const vector of urls) {
    if (!vector.expected.valid || vector.expected.url !== vector.url) {
      throws(() => checkSellerUrlVector(vector, acceptAll), AssertionError, vector.id);
    }
  }
  const rejectAll: ValidateImpl = () => ({ valid: false, reason: "invalid_url" });
  for (const vector of urls.filter((vector) => vector.expected.valid)) {
    throws(() => checkSellerUrlVector(vector, rejectAll), AssertionError, vector.id);
  }
});
