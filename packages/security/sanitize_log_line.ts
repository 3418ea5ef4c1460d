import { optionKeys } from "@adcp-wire/internal";
import {
  assertByteCount,
  assertOptionsObject,
  assertString,
  sanitizeUnchecked,
} from "./_strings.ts";

/** Options for {@link sanitizeLogLine}. */
export interface SanitizeLogLineOptions {
  /**
   * Maximum UTF-8 byte length of the result, a non-negative safe integer. The default is the
   * 4096-byte cap the spec puts on a whole serialized `adcp_error` (Transport Error Mapping,
   * Security Considerations, "Enforce a maximum payload size").
   * @default {4096}
   */
  readonly maxBytes?: number;
}

/** The default `maxBytes` of {@link sanitizeLogLine}: 4096 bytes. */
export const DEFAULT_LOG_LINE_MAX_BYTES = 4096;

const ACTION = "sanitize a log line";

/** The keys of {@link SanitizeLogLineOptions}: any other is refused. */
const SANITIZE_LOG_LINE_KEYS = optionKeys<SanitizeLogLineOptions>({ maxBytes: true });
// Line breaks and tab, as one unit each (CRLF counts as one break).
const LINE_BREAKS = /\r\n|[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * Makes a seller-controlled string safe to write as (part of) one log line, so it cannot start a
 * new log record or hide text in a log viewer: every line break and TAB becomes one space (CRLF
 * counts as one break), the rest of the strip set of {@link sanitizeSellerString} is removed,
 * lone surrogates become U+FFFD, and the result is cut to `maxBytes` UTF-8 bytes on a code point
 * boundary. The breaks replaced, and why they are replaced rather than removed, are in
 * [docs/security.md](../../docs/security.md#log-lines). Structured loggers that JSON-encode
 * fields are already safe from row injection; use this for text logs and terminals.
 *
 * Spec: A2A Response Extraction, Security Considerations, Seller-controlled string hygiene;
 * security.mdx, webhook verifier checklist step 14b(a).
 *
 * @param value The seller-controlled string.
 * @param options The byte cap.
 * @returns The sanitized single-line string.
 * @throws {TypeError} When `value` is not a string, `options.maxBytes` is not a number,
 * or `options` has another key.
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
  assertString(ACTION, "value", value);
  assertOptionsObject(ACTION, options, SANITIZE_LOG_LINE_KEYS);
  // Only `undefined` means the default: a null maxBytes is refused like any other wrong type.
  const maxBytes = options.maxBytes === undefined ? DEFAULT_LOG_LINE_MAX_BYTES : options.maxBytes;
  assertByteCount(ACTION, "options.maxBytes", maxBytes);
  return sanitizeUnchecked(value.replace(LINE_BREAKS, " "), maxBytes);
}
