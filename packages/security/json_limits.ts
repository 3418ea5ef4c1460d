/**
 * A JSON primitive.
 *
 * @example Collecting the leaves of a value
 * ```ts
 * import { type JsonPrimitive, type JsonValue, toSafeJson } from "@adcp-wire/security";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const leaves: JsonPrimitive[] = [];
 * const walk = (value: JsonValue): void => {
 *   if (value === null || typeof value !== "object") leaves.push(value);
 *   else Object.values(value).forEach(walk);
 * };
 * walk(toSafeJson({ a: [1, "x"], b: { c: true, d: null } }));
 * deepStrictEqual(leaves, [1, "x", true, null]);
 * ```
 */
export type JsonPrimitive = string | number | boolean | null;

/**
 * A JSON object: string keys to JSON values.
 *
 * @example A safe copy of a seller object
 * ```ts
 * import { type JsonObject, toSafeJson } from "@adcp-wire/security";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 *
 * const copy = toSafeJson(JSON.parse('{"name":"Acme","__proto__":{"admin":true}}'));
 * ok(typeof copy === "object" && copy !== null && !Array.isArray(copy));
 * const object: JsonObject = copy;
 * deepStrictEqual(Object.keys(object), ["name"]);
 * ```
 */
export interface JsonObject {
  /** Each member's value. */
  [key: string]: JsonValue;
}

/**
 * A JSON array.
 *
 * @example A safe copy of a seller array
 * ```ts
 * import { type JsonArray, toSafeJson } from "@adcp-wire/security";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 *
 * const copy = toSafeJson(JSON.parse('[1, {"__proto__": {}, "id": "a"}]'));
 * ok(Array.isArray(copy));
 * const list: JsonArray = copy;
 * deepStrictEqual(list, [1, { id: "a" }]);
 * ```
 */
export type JsonArray = JsonValue[];

/**
 * Any JSON value.
 *
 * @example The type of a safe copy
 * ```ts
 * import { type JsonValue, toSafeJson } from "@adcp-wire/security";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * const value: JsonValue = toSafeJson({ budget: 500, note: undefined, tags: ["a"] });
 * deepStrictEqual(value, { budget: 500, tags: ["a"] }); // undefined members are omitted
 * throws(() => toSafeJson({ when: new Date(0) }), TypeError); // a Date is not JSON data
 * ```
 */
export type JsonValue = JsonPrimitive | JsonObject | JsonArray;

/**
 * Default maximum JSON nesting depth: 64 nested containers. The figure security.mdx states for
 * task bodies ("a maximum JSON nesting depth of 64", Portable attestations, Attestation
 * resolution fetch contract); real AdCP payloads nest well under 20 levels.
 *
 * @example Reading the default
 * ```ts
 * import { DEFAULT_JSON_MAX_DEPTH } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_JSON_MAX_DEPTH, 64);
 * ```
 */
export const DEFAULT_JSON_MAX_DEPTH = 64;

/**
 * Default maximum JSON node count: 2,097,152 (2²¹), the most JSON values a 4 MiB text can hold,
 * so no response that passes the 4 MiB (4,194,304-byte) client safety limit of MCP Response
 * Extraction 3.3.0-beta.0 (Security Considerations, Size Limits) can fail on node count alone.
 *
 * Why it is tight: a text holding n values needs at least 2n − 1 bytes. A scalar needs one
 * byte (`0`); a container with k children needs its two brackets, k − 1 commas and its
 * children, so by induction at least 2 + (k − 1) + Σ(2nᵢ − 1) = 2n − 1 bytes (object members
 * also need a key and a colon, so objects need more). 2n − 1 ≤ 4,194,304 gives n ≤ 2,097,152;
 * `[0,0,…,0]` of exactly 4,194,303 bytes reaches it (2,097,151 elements plus the array).
 *
 * Callers that know they read smaller payloads should pass a lower `maxNodes`: security.mdx
 * caps task bodies that carry portable attestations at 100,000 object members and array
 * elements.
 *
 * @example Reading the default
 * ```ts
 * import { DEFAULT_JSON_MAX_NODES } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_JSON_MAX_NODES, 2_097_152);
 * ```
 */
export const DEFAULT_JSON_MAX_NODES = 2_097_152;

/**
 * JSON size limits for {@linkcode checkJsonBounds}, {@linkcode toSafeJson} and {@linkcode mergeSafe}.
 *
 * @example Tighter limits for a small payload
 * ```ts
 * import { checkJsonBounds, type JsonLimits } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const limits: JsonLimits = { maxDepth: 2, maxNodes: 10 };
 * deepStrictEqual(checkJsonBounds({ a: [1] }, limits), { valid: true, depth: 2, nodes: 3 });
 * strictEqual(checkJsonBounds({ a: [[1]] }, limits).valid, false); // depth 3
 * strictEqual(checkJsonBounds(Array(10).fill(0), limits).valid, false); // 11 values
 * ```
 */
export interface JsonLimits {
  /**
   * Maximum nesting depth (nested containers; a scalar has depth 0). A non-negative safe integer.
   * @default {64}
   */
  readonly maxDepth?: number;
  /**
   * Maximum number of JSON values, the root included. A non-negative safe integer.
   * @default {2097152}
   */
  readonly maxNodes?: number;
}
