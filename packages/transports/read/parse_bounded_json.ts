import { parseJsonWithin } from "./_json.ts";
import { isResolved, resolveCallLimits } from "./_limits.ts";
import { optionError, type OptionKeys, optionKeys } from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/** JSON bounds for {@link parseBoundedJson}. */
export interface ParseBoundedJsonOptions {
  /**
   * Maximum nesting depth (a scalar has depth 0, `[]` depth 1). A non-negative safe integer.
   * @default {64}
   */
  readonly maxJsonDepth?: number | undefined;
  /**
   * Maximum number of JSON values, the root included. A non-negative safe integer.
   * @default {2097152}
   */
  readonly maxJsonNodes?: number | undefined;
}

/** The keys of {@link ParseBoundedJsonOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<ParseBoundedJsonOptions>({
  maxJsonDepth: true,
  maxJsonNodes: true,
});

/**
 * Parses JSON text that already passed the byte cap, bounding its nesting depth before parsing (so
 * a depth bomb is never built) and its node count after: the JSON step of every reader here, for
 * text that arrives some other way (an SSE event's `data`, an MCP `content[].text` item). The rules
 * are in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param text The JSON text.
 * @param options Depth and node bounds.
 * @returns The parsed value.
 * @throws {JsonDepthLimitError} When the text nests deeper than `maxJsonDepth`.
 * @throws {MalformedJsonError} When the text is not JSON (the message does not quote it).
 * @throws {JsonNodeLimitError} When the value holds more than `maxJsonNodes` values.
 * @throws {TypeError} When `text` is not a string, or an option has the wrong type or an unknown
 * key (limits resolved by {@link resolveLimits} are taken as they are).
 * @throws {RangeError} When a bound is not a non-negative safe integer.
 *
 * @example Parsing, and rejecting a depth bomb
 * ```ts
 * import { JsonDepthLimitError, parseBoundedJson } from "@adcp-wire/transports/read";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * deepStrictEqual(parseBoundedJson('{"products":[]}'), { products: [] });
 * throws(() => parseBoundedJson("[".repeat(100_000)), JsonDepthLimitError);
 * throws(() => parseBoundedJson("[1,2,3]", { maxJsonNodes: 3 }), { code: "JSON_NODE_LIMIT" });
 * ```
 */
export function parseBoundedJson(text: string, options?: ParseBoundedJsonOptions): unknown {
  if (typeof text !== "string") {
    throw optionError(TypeError, "parse the JSON", "text", "a string", text);
  }
  if (!isResolved(options)) checkKeys("parse the JSON", "options", options, OPTION_KEYS);
  const { maxJsonDepth, maxJsonNodes } = resolveCallLimits(options, "options", null);
  return parseJsonWithin(text, maxJsonDepth, maxJsonNodes);
}
