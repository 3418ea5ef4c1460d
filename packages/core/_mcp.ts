// MCP tool-result internals shared by the success and error extractors.

import {
  isJsonObject,
  type JsonRecord,
  optionError,
  own,
  ownArray,
  ownElement,
  ownObject,
  utf8LengthExceeds,
} from "@adcp-wire/internal";
import { carriesAdcpError, isAdcpErrorOnly } from "./_json.ts";

/** Options for the MCP extractors that read `content[].text`. */
export interface McpExtractOptions {
  /**
   * Largest `content[].text` item, in UTF-8 bytes, that text fallback passes to `JSON.parse`.
   * Larger items are skipped, never truncated. Must be a positive safe integer.
   *
   * MCP Response Extraction, "Security Considerations" > "Size Limits": the text item is checked
   * before the inner `JSON.parse` against the same limit as the whole MCP message (4 MiB
   * recommended, configurable per agent and per call), not a tighter one; the older 1 MB figure
   * of the previous revision of the page is superseded.
   *
   * @default {4194304}
   */
  readonly maxResponseBytes?: number | undefined;
}

/**
 * Default text-fallback size limit: 4 MiB (MCP Response Extraction, "Security Considerations" >
 * "Size Limits": the recommended client safety limit, applied to `content[].text` "against that
 * same limit rather than a tighter one").
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 4_194_304;

/** What the option errors of the MCP extractors say could not be done. */
const MCP_ACTION = "extract from an MCP tool result";

/** Validates `options` and returns the effective `maxResponseBytes`. */
export function resolveMaxResponseBytes(options: McpExtractOptions | undefined): number {
  if (options === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, MCP_ACTION, "options", "an object or undefined", options);
  }
  const value: unknown = options.maxResponseBytes;
  if (value === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof value !== "number") {
    throw optionError(TypeError, MCP_ACTION, "maxResponseBytes", "a number", value);
  }
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw optionError(RangeError, MCP_ACTION, "maxResponseBytes", "a positive safe integer", value);
  }
  return value;
}

/** Whether the tool result's own `isError` is truthy (MCP Response Extraction, step 1). */
export function isErrorResult(result: JsonRecord): boolean {
  return Boolean(own(result, "isError"));
}

/** The own `structuredContent` when it is a JSON object. */
export function structuredContentOf(result: JsonRecord): JsonRecord | undefined {
  return ownObject(result, "structuredContent");
}

/**
 * The `text` of every `content[]` item whose `type` is `"text"` and whose `text` is a non-empty
 * string, in array order.
 */
export function* textItems(result: JsonRecord): Generator<string, void, undefined> {
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
 * Most `content[].text` items of one result that may fail `JSON.parse`: each failure costs an
 * exception, so a seller sending thousands of broken items could otherwise buy seconds of CPU.
 * Past this, the remaining items are not parsed (the result falls back to text).
 */
export const MAX_TEXT_PARSE_FAILURES = 64;

/**
 * The objects that `content[].text` items parse to, in order: an item is parsed when it opens with
 * `{` and closes with `}` (JSON whitespace aside) and is at most `maxBytes` UTF-8 bytes (checked
 * before parsing, never truncated); items that are not JSON, or parse to anything but an object,
 * are skipped. Parsing stops after {@link MAX_TEXT_PARSE_FAILURES} failures.
 */
export function* textObjects(
  result: JsonRecord,
  maxBytes: number,
): Generator<JsonRecord, void, undefined> {
  let failures = 0;
  for (const text of textItems(result)) {
    if (!bracedObject(text) || utf8LengthExceeds(text, maxBytes)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (++failures >= MAX_TEXT_PARSE_FAILURES) return; // not JSON, or nested too deeply
      continue;
    }
    if (isJsonObject(parsed)) yield parsed;
  }
}

/**
 * Whether `text`, JSON whitespace aside, starts with `{` and ends with `}`: only such can parse to
 * an object.
 */
function bracedObject(text: string): boolean {
  let end = text.length - 1;
  while (end >= 0 && isJsonWhitespace(text.charCodeAt(end))) end--;
  return end > 0 && text.charCodeAt(end) === 0x7d && opensObject(text);
}

function isJsonWhitespace(unit: number): boolean {
  return unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;
}

/** Whether the first character of `text` after JSON whitespace is `{`. */
function opensObject(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit === 0x7b) return true;
    if (!isJsonWhitespace(unit)) return false;
  }
  return false;
}

/** What success extraction found: the data, or why there is none. */
export interface McpSuccessLookup {
  /** The extracted AdCP response, or `null`. */
  readonly data: JsonRecord | null;
  /** Whether an `adcp_error`-only object was skipped (an error missing its `isError` flag). */
  readonly sawAdcpErrorOnly: boolean;
}

/**
 * MCP Response Extraction, "Extraction Algorithm" steps 2 to 4, without the `isError` guard of
 * step 1 (callers apply it).
 */
export function findMcpSuccess(result: JsonRecord, maxBytes: number): McpSuccessLookup {
  const structured = structuredContentOf(result);
  if (structured !== undefined) {
    return isAdcpErrorOnly(structured)
      ? { data: null, sawAdcpErrorOnly: true }
      : { data: structured, sawAdcpErrorOnly: false };
  }
  let sawAdcpErrorOnly = false;
  for (const parsed of textObjects(result, maxBytes)) {
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
export function structuredErrorCandidate(result: JsonRecord): McpErrorCandidate | undefined {
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
  result: JsonRecord,
  maxBytes: number,
): McpErrorCandidate | undefined {
  if (!isErrorResult(result)) return undefined;
  for (const parsed of textObjects(result, maxBytes)) {
    if (carriesAdcpError(parsed)) {
      return { value: own(parsed, "adcp_error"), path: "text_fallback" };
    }
  }
  return undefined;
}

/** All text items joined with a line feed: the plain-text reading of a tool result. */
export function mcpText(result: JsonRecord): string {
  return Array.from(textItems(result)).join("\n");
}
