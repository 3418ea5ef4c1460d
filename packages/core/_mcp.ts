// MCP tool-result internals shared by the success and error extractors.

import {
  checkOptionKeys,
  isJsonObject,
  type JsonRecord,
  optionError,
  optionKeys,
  own,
  ownArray,
  ownElement,
  utf8LengthExceeds,
} from "@adcp-wire/internal";
import { adcpErrorOf, fastOwnElement, isAdcpErrorOnly, isOwnValue } from "./_json.ts";

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
  /**
   * The UTF-8 size, as `TextEncoder` would encode it, of the JSON text the tool result was parsed
   * from (unchanged since), or an upper bound of it, for a caller that has already held that text
   * to a limit: a client that read the whole JSON-RPC body under its size limit. The value of a
   * JSON string never encodes to more UTF-8 bytes than its literal took in that text (an escape is
   * never shorter than what it stands for), so when this is at most `maxResponseBytes` no
   * `content[].text` item can be over the limit, and the items are not measured again; and no
   * value serializes to more than 21/4 times it (`1e20` is written `100000000000000000000`), so a
   * text of at most 780 bytes needs no measuring of the 4096-byte bound on an `adcp_error`. A
   * non-negative safe integer. It is the caller's word: pass it only when it holds (text decoded
   * with replacement characters, U+FFFD, may encode to more bytes than were read).
   *
   * MCP Response Extraction, "Security Considerations" > "Size Limits": where the whole message was
   * checked against the limit, the text item, part of it, is within it.
   *
   * @default {undefined} (every parsed text item, and every error, is measured)
   */
  readonly sourceTextBytes?: number | undefined;
}

/**
 * Default text-fallback size limit: 4 MiB (MCP Response Extraction, "Security Considerations" >
 * "Size Limits": the recommended client safety limit, applied to `content[].text` "against that
 * same limit rather than a tighter one").
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 4_194_304;

/** What the option errors of the MCP extractors say could not be done. */
const MCP_ACTION = "extract from an MCP tool result";

/** The keys of {@link McpExtractOptions}: any other is refused. */
const MCP_EXTRACT_KEYS = optionKeys<McpExtractOptions>({
  maxResponseBytes: true,
  sourceTextBytes: true,
});

/**
 * Validates `options` and returns the limit to hold `content[].text` items to: `maxResponseBytes`,
 * or `Infinity` when `sourceTextBytes` already bounds every item within it.
 */
export function resolveMaxResponseBytes(options: McpExtractOptions | undefined): number {
  return options === undefined ? DEFAULT_MAX_RESPONSE_BYTES : resolveGiven(options);
}

/** {@link resolveMaxResponseBytes} of given options: apart, so that the common case inlines. */
function resolveGiven(options: McpExtractOptions): number {
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, MCP_ACTION, "options", "an object or undefined", options);
  }
  checkOptionKeys(MCP_ACTION, "options", options, MCP_EXTRACT_KEYS);
  const value: unknown = options.maxResponseBytes;
  let limit = DEFAULT_MAX_RESPONSE_BYTES;
  if (value !== undefined) {
    if (typeof value !== "number") {
      throw optionError(TypeError, MCP_ACTION, "maxResponseBytes", "a number", value);
    }
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw optionError(
        RangeError,
        MCP_ACTION,
        "maxResponseBytes",
        "a positive safe integer",
        value,
      );
    }
    limit = value;
  }
  const source: unknown = options.sourceTextBytes;
  if (source === undefined) return limit;
  if (typeof source !== "number") {
    throw optionError(TypeError, MCP_ACTION, "sourceTextBytes", "a number", source);
  }
  if (!Number.isSafeInteger(source) || source < 0) {
    throw optionError(
      RangeError,
      MCP_ACTION,
      "sourceTextBytes",
      "a non-negative safe integer",
      source,
    );
  }
  return source <= limit ? Infinity : limit;
}

/**
 * The `sourceTextBytes` of options that {@link resolveMaxResponseBytes} validated, `Infinity` when
 * unset.
 */
export function sourceBytesOf(options: McpExtractOptions | undefined): number {
  return options?.sourceTextBytes ?? Infinity;
}

/** `Object.prototype`, read at the call sites of `isOwnValue` (see _json.ts). */
const PROTO: Readonly<Record<string, unknown>> = Object.prototype as Record<string, unknown>;

/** Whether the tool result's own `isError` is truthy (MCP Response Extraction, step 1). */
export function isErrorResult(result: JsonRecord): boolean {
  return Boolean(result.isError) && isOwnValue(result, "isError", PROTO.isError);
}

/** The own `structuredContent` when it is a JSON object. */
export function structuredContentOf(result: JsonRecord): JsonRecord | undefined {
  const value = result.structuredContent;
  return isJsonObject(value) && isOwnValue(result, "structuredContent", PROTO.structuredContent)
    ? value
    : undefined;
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

/** The own `content` when it is an array. */
function contentOf(result: JsonRecord): readonly unknown[] | undefined {
  const value = result.content;
  return Array.isArray(value) && isOwnValue(result, "content", PROTO.content) ? value : undefined;
}

/** The `text` of a `content[]` item whose `type` is `"text"`, when it is a non-empty string. */
function itemText(item: unknown): string | undefined {
  if (!isJsonObject(item) || item.type !== "text" || !isOwnValue(item, "type", PROTO.type)) {
    return undefined;
  }
  const text = item.text;
  return typeof text === "string" && text.length > 0 && isOwnValue(item, "text", PROTO.text)
    ? text
    : undefined;
}

/**
 * Most `content[].text` items of one result that may fail `JSON.parse`: each failure costs an
 * exception, so a seller sending thousands of broken items could otherwise buy seconds of CPU.
 * Past this, the remaining items are not parsed (the result falls back to text).
 */
export const MAX_TEXT_PARSE_FAILURES = 64;

/**
 * What {@link parseTextItem} says of an item that `JSON.parse` refused (not JSON, or nested too
 * deeply).
 */
const PARSE_FAILED = null;

/**
 * The object that a `content[]` item's text parses to: an item is parsed when it is a text item
 * whose text opens with `{` and closes with `}` (JSON whitespace aside) and is at most `maxBytes`
 * UTF-8 bytes (checked before parsing, never truncated). `undefined` when the item is skipped or
 * parses to anything but an object; {@link PARSE_FAILED} when `JSON.parse` threw. Callers stop
 * after {@link MAX_TEXT_PARSE_FAILURES} failures.
 */
function parseTextItem(item: unknown, maxBytes: number): JsonRecord | undefined | null {
  const text = itemText(item);
  // At most 3 UTF-8 bytes per UTF-16 unit: within a third of the limit, nothing to count (the
  // common case, without a call).
  if (text === undefined || !bracedObject(text)) return undefined;
  if (3 * text.length > maxBytes && utf8LengthExceeds(text, maxBytes)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return PARSE_FAILED;
  }
  return isJsonObject(parsed) ? parsed : undefined;
}

/**
 * Whether `text`, JSON whitespace aside, starts with `{` and ends with `}`: only such can parse to
 * an object.
 */
function bracedObject(text: string): boolean {
  const last = text.length - 1;
  return text.charCodeAt(0) === 0x7b && text.charCodeAt(last) === 0x7d
    ? last > 0
    : bracedAfterWhitespace(text);
}

/** {@link bracedObject} of text that has JSON whitespace around its braces, or is no object. */
function bracedAfterWhitespace(text: string): boolean {
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

/** A lookup that found nothing, and saw no `adcp_error`-only object. */
const NOTHING: McpSuccessLookup = Object.freeze({ data: null, sawAdcpErrorOnly: false });
/** A lookup that found nothing but an `adcp_error`-only object. */
const ONLY_ERRORS: McpSuccessLookup = Object.freeze({ data: null, sawAdcpErrorOnly: true });

/**
 * MCP Response Extraction, "Extraction Algorithm" steps 2 to 4, without the `isError` guard of
 * step 1 (callers apply it).
 */
export function findMcpSuccess(result: JsonRecord, maxBytes: number): McpSuccessLookup {
  const structured = structuredContentOf(result);
  if (structured !== undefined) {
    return isAdcpErrorOnly(structured)
      ? ONLY_ERRORS
      : { data: structured, sawAdcpErrorOnly: false };
  }
  const content = contentOf(result);
  if (content === undefined) return NOTHING;
  let sawAdcpErrorOnly = false;
  let failures = 0;
  for (let index = 0; index < content.length; index++) {
    const parsed = parseTextItem(fastOwnElement(content, index), maxBytes);
    if (parsed === PARSE_FAILED) {
      if (++failures >= MAX_TEXT_PARSE_FAILURES) break;
    } else if (parsed !== undefined) {
      if (!isAdcpErrorOnly(parsed)) return { data: parsed, sawAdcpErrorOnly };
      sawAdcpErrorOnly = true;
    }
  }
  return sawAdcpErrorOnly ? ONLY_ERRORS : NOTHING;
}

/**
 * The text-fallback data of {@link findMcpSuccess} alone (step 3), `null` when there is none: what
 * `extractAdcpResponseFromMcp` returns for a result without a `structuredContent` object.
 */
export function findMcpTextData(result: JsonRecord, maxBytes: number): JsonRecord | null {
  const content = contentOf(result);
  if (content === undefined) return null;
  let failures = 0;
  for (let index = 0; index < content.length; index++) {
    const parsed = parseTextItem(fastOwnElement(content, index), maxBytes);
    if (parsed === PARSE_FAILED) {
      if (++failures >= MAX_TEXT_PARSE_FAILURES) break;
    } else if (parsed !== undefined && !isAdcpErrorOnly(parsed)) {
      return parsed;
    }
  }
  return null;
}

/** Where an MCP tool result carries an `adcp_error`, before validation. */
export interface McpErrorCandidate {
  /** The raw `adcp_error` value. */
  readonly value: unknown;
  /** The path it was found on. */
  readonly path: "structured_content" | "text_fallback";
  /**
   * An upper bound of the UTF-8 size of the JSON text `value` was parsed from, `Infinity` when
   * unknown: what `checkAdcpError` of _adcp_error.ts takes.
   */
  readonly sourceBytes: number;
}

/**
 * The `adcp_error` of `structuredContent` when the result's `isError` is truthy (Transport Error
 * Mapping, "Client Detection Order" step 1); `sourceBytes` is the caller's `sourceTextBytes`.
 */
export function structuredErrorCandidate(
  result: JsonRecord,
  sourceBytes: number,
): McpErrorCandidate | undefined {
  if (!isErrorResult(result)) return undefined;
  const value = structuredErrorOf(result);
  return value === undefined ? undefined : { value, path: "structured_content", sourceBytes };
}

/**
 * The truthy own `structuredContent.adcp_error`, or `undefined`; callers check `isError` first.
 */
export function structuredErrorOf(result: JsonRecord): unknown {
  const structured = structuredContentOf(result);
  if (structured === undefined) return undefined;
  const value = structured.adcp_error;
  return value && isOwnValue(structured, "adcp_error", PROTO.adcp_error) ? value : undefined;
}

/**
 * The `adcp_error` of the first `content[].text` item that JSON-parses to an object carrying one,
 * only when the result's `isError` is truthy (Transport Error Mapping, "Client Detection Order"
 * step 5). Its `sourceBytes` is three per UTF-16 unit of the item's text.
 */
export function textErrorCandidate(
  result: JsonRecord,
  maxBytes: number,
): McpErrorCandidate | undefined {
  return isErrorResult(result) ? textErrorOf(result, maxBytes) : undefined;
}

/**
 * {@link textErrorCandidate} without the `isError` check (callers make it): the first text item
 * that parses to an object carrying an `adcp_error`.
 */
export function textErrorOf(result: JsonRecord, maxBytes: number): McpErrorCandidate | undefined {
  const content = contentOf(result);
  if (content === undefined) return undefined;
  let failures = 0;
  for (let index = 0; index < content.length; index++) {
    const item = fastOwnElement(content, index);
    const parsed = parseTextItem(item, maxBytes);
    if (parsed === PARSE_FAILED) {
      if (++failures >= MAX_TEXT_PARSE_FAILURES) break;
    } else if (parsed !== undefined) {
      const value = adcpErrorOf(parsed);
      if (value) {
        // The item parsed, so it is a text item with a string text.
        const sourceBytes = 3 * (item as { text: string }).text.length;
        return { value, path: "text_fallback", sourceBytes };
      }
    }
  }
  return undefined;
}

/** All text items joined with a line feed: the plain-text reading of a tool result. */
export function mcpText(result: JsonRecord): string {
  return Array.from(textItems(result)).join("\n");
}
