// MCP tool-result internals shared by the success and error extractors.

import {
  carriesAdcpError,
  describeValue,
  isAdcpErrorOnly,
  isJsonObject,
  type JsonObject,
  own,
  ownArray,
  ownElement,
  ownObject,
} from "./_json.ts";
import { utf8LengthExceeds } from "./_utf8.ts";
import type { McpExtractOptions } from "./extract_adcp_response_from_mcp.ts";

/**
 * Default text-fallback size limit: 4 MiB (MCP Response Extraction, "Security Considerations" >
 * "Size Limits": the recommended client safety limit, applied to `content[].text` "against that
 * same limit rather than a tighter one").
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 4_194_304;

/** Validates `options` and returns the effective `maxResponseBytes`. */
export function resolveMaxResponseBytes(options: McpExtractOptions | undefined): number {
  if (options === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `Invalid options: expected an object or undefined, saw ${describeValue(options)}`,
    );
  }
  const value: unknown = options.maxResponseBytes;
  if (value === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `Invalid option maxResponseBytes: expected a positive safe integer, saw ${
        describeValue(value)
      }`,
    );
  }
  return value;
}

/** Whether the tool result's own `isError` is truthy (MCP Response Extraction, step 1). */
export function isErrorResult(result: JsonObject): boolean {
  return Boolean(own(result, "isError"));
}

/** The own `structuredContent` when it is a JSON object. */
export function structuredContentOf(result: JsonObject): JsonObject | undefined {
  return ownObject(result, "structuredContent");
}

/**
 * The `text` of every `content[]` item whose `type` is `"text"` and whose `text` is a non-empty
 * string, in array order.
 */
export function* textItems(result: JsonObject): Generator<string, void, undefined> {
  const content = ownArray(result, "content");
  if (content === undefined) return;
  for (let index = 0; index < content.length; index++) {
    const item = ownElement(content, index);
    if (!isJsonObject(item) || own(item, "type") !== "text") continue;
    const text = own(item, "text");
    if (typeof text === "string" && text.length > 0) yield text;
  }
}

/**
 * `JSON.parse(text)` when `text` is at most `maxBytes` UTF-8 bytes and parses to a JSON object;
 * `undefined` when it is too large (checked before parsing, never truncated), is not JSON, or
 * parses to anything else.
 */
export function parseTextObject(text: string, maxBytes: number): JsonObject | undefined {
  // Only an object is taken: a text that does not open with `{` is not parsed at all.
  if (!opensObject(text)) return undefined;
  if (utf8LengthExceeds(text, maxBytes)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // not JSON, or nested too deeply for the engine
  }
  return isJsonObject(parsed) ? parsed : undefined;
}

/** Whether the first character of `text` after JSON whitespace is `{`. */
function opensObject(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0x7b) return true;
    if (unit !== 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0d) return false;
  }
  return false;
}

/** What success extraction found: the data, or why there is none. */
export interface McpSuccessLookup {
  /** The extracted AdCP response, or `null`. */
  readonly data: JsonObject | null;
  /** Whether an `adcp_error`-only object was skipped (an error missing its `isError` flag). */
  readonly sawAdcpErrorOnly: boolean;
}

/**
 * MCP Response Extraction, "Extraction Algorithm" steps 2 to 4, without the `isError` guard of
 * step 1 (callers apply it).
 */
export function findMcpSuccess(result: JsonObject, maxBytes: number): McpSuccessLookup {
  const structured = structuredContentOf(result);
  if (structured !== undefined) {
    return isAdcpErrorOnly(structured)
      ? { data: null, sawAdcpErrorOnly: true }
      : { data: structured, sawAdcpErrorOnly: false };
  }
  let sawAdcpErrorOnly = false;
  for (const text of textItems(result)) {
    const parsed = parseTextObject(text, maxBytes);
    if (parsed === undefined) continue;
    if (isAdcpErrorOnly(parsed)) {
      sawAdcpErrorOnly = true;
      continue;
    }
    return { data: parsed, sawAdcpErrorOnly };
  }
  return { data: null, sawAdcpErrorOnly };
}

/** Where an MCP tool result carries an `adcp_error`, before validation. */
export interface McpErrorCandidate {
  /** The raw `adcp_error` value. */
  readonly value: unknown;
  /** The path it was found on. */
  readonly path: "structured_content" | "text_fallback";
}

/**
 * The `adcp_error` of `structuredContent` when the result's `isError` is truthy (Transport Error
 * Mapping, "Client Detection Order" step 1).
 */
export function structuredErrorCandidate(result: JsonObject): McpErrorCandidate | undefined {
  if (!isErrorResult(result)) return undefined;
  const structured = structuredContentOf(result);
  if (structured === undefined || !carriesAdcpError(structured)) return undefined;
  return { value: own(structured, "adcp_error"), path: "structured_content" };
}

/**
 * The `adcp_error` of the first `content[].text` item that JSON-parses to an object carrying one,
 * only when the result's `isError` is truthy (Transport Error Mapping, "Client Detection Order"
 * step 5).
 */
export function textErrorCandidate(
  result: JsonObject,
  maxBytes: number,
): McpErrorCandidate | undefined {
  if (!isErrorResult(result)) return undefined;
  for (const text of textItems(result)) {
    const parsed = parseTextObject(text, maxBytes);
    if (parsed !== undefined && carriesAdcpError(parsed)) {
      return { value: own(parsed, "adcp_error"), path: "text_fallback" };
    }
  }
  return undefined;
}

/** All text items joined with a line feed: the plain-text reading of a tool result. */
export function mcpText(result: JsonObject): string {
  return Array.from(textItems(result)).join("\n");
}
