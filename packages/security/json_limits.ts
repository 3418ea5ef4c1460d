/** A JSON primitive. */
export type JsonPrimitive = string | number | boolean | null;

/** A JSON object: string keys to JSON values. */
export interface JsonObject {
  /** Each member's value. */
  [key: string]: JsonValue;
}

/** A JSON array. */
export type JsonArray = JsonValue[];

/** Any JSON value. */
export type JsonValue = JsonPrimitive | JsonObject | JsonArray;

/**
 * Default maximum JSON nesting depth: 64 nested containers, the figure security.mdx gives for task
 * bodies; real AdCP payloads nest well under 20 levels.
 *
 * Spec: security.mdx, Portable attestations, Attestation resolution fetch contract.
 */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * Default maximum JSON node count: 2,097,152 (2²¹), the most JSON values a 4 MiB text can hold, so
 * no response within the 4 MiB client size limit fails on node count alone (the proof is in
 * [docs/security.md](../../docs/security.md#json-limits)). Pass a lower `maxJsonNodes` for smaller
 * payloads.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 */
export const DEFAULT_MAX_JSON_NODES = 2_097_152;

/** JSON size limits for {@link checkJsonBounds}, {@link toSafeJson} and {@link mergeSafe}. */
export interface JsonLimits {
  /**
   * Maximum nesting depth (nested containers; a scalar has depth 0). A non-negative safe integer.
   * @default {64}
   */
  readonly maxJsonDepth?: number;
  /**
   * Maximum number of JSON values, the root included. A non-negative safe integer.
   * @default {2097152}
   */
  readonly maxJsonNodes?: number;
}
