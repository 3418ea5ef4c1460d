import {
  assertByteCount,
  assertOptionsObject,
  assertString,
  sanitizeUnchecked,
} from "./_strings.ts";

/**
 * Options for {@linkcode sanitizeLogLine}.
 *
 * @example A shorter cap
 * ```ts
 * import { sanitizeLogLine, type SanitizeLogLineOptions } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const options: SanitizeLogLineOptions = { maxBytes: 16 };
 * strictEqual(sanitizeLogLine("line one\nline two\nline three", options), "line one line tw");
 * ```
 */
export interface SanitizeLogLineOptions {
  /**
   * Maximum UTF-8 byte length of the result, a non-negative safe integer. The default is the
   * 4096-byte cap the spec puts on a whole serialized `adcp_error` (Transport Error Mapping,
   * Security Considerations, "Enforce a maximum payload size").
   * @default {4096}
   */
  readonly maxBytes?: number;
}

/**
 * The default `maxBytes` of {@linkcode sanitizeLogLine}: 4096 bytes.
 *
 * @example The default cap
 * ```ts
 * import { DEFAULT_LOG_LINE_MAX_BYTES, sanitizeLogLine } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_LOG_LINE_MAX_BYTES, 4096);
 * strictEqual(sanitizeLogLine("x".repeat(5000)).length, DEFAULT_LOG_LINE_MAX_BYTES);
 * ```
 */
export const DEFAULT_LOG_LINE_MAX_BYTES = 4096;

// Line breaks and tab, as one unit each (CRLF counts as one break).
const LINE_BREAKS = /\r\n|[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * Makes a seller-controlled string safe to write as (part of) one log line, so it cannot start a
 * new log record or hide text in a log viewer.
 *
 * 1. Line breaks become a single space U+0020: CRLF, CR, LF, VT, FF, NEL U+0085, LINE
 *    SEPARATOR U+2028 and PARAGRAPH SEPARATOR U+2029 (each renders as a new line in some log
 *    viewer), and TAB. They are replaced rather than removed so that words on separate lines do
 *    not run together, which keeps the entry readable; a space cannot start a record.
 * 2. The rest of the strip set of {@linkcode sanitizeSellerString} is removed (controls, bidi,
 *    zero-width and other invisible format characters, and tag characters U+E0000–U+E007F), and
 *    lone surrogates become U+FFFD.
 * 3. The result is truncated to `maxBytes` UTF-8 bytes on a code point boundary.
 *
 * Implements "Clients that log them MUST strip CRLF to prevent log injection" (A2A Response
 * Extraction, Security Considerations, Seller-controlled string hygiene) with the non-printable
 * set of security.mdx, webhook verifier checklist step 14b(a), which "MUST NOT narrow" it.
 * Structured loggers that JSON-encode fields are already safe from row injection; use this for
 * text logs and for anything a human reads in a terminal.
 *
 * @param value The seller-controlled string.
 * @param options The byte cap.
 * @returns The sanitized single-line string.
 * @throws {TypeError} When `value` is not a string or `options.maxBytes` is not a number.
 * @throws {RangeError} When `options.maxBytes` is not a non-negative safe integer.
 *
 * @example Flattening a forged log record
 * ```ts
 * import { sanitizeLogLine } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   sanitizeLogLine("bad budget\r\n2026-01-01 INFO payment approved"),
 *   "bad budget 2026-01-01 INFO payment approved",
 * );
 * ```
 */
export function sanitizeLogLine(value: string, options: SanitizeLogLineOptions = {}): string {
  assertString(value);
  assertOptionsObject(options);
  const maxBytes = options.maxBytes ?? DEFAULT_LOG_LINE_MAX_BYTES;
  assertByteCount("options.maxBytes", maxBytes);
  return sanitizeUnchecked(value.replace(LINE_BREAKS, " "), maxBytes);
}
