// The one-sentence human summary the seller helpers put beside structured data.
import { redactLeaks } from "./_leaks.ts";
import type { CheckedOptions } from "./_outgoing_options.ts";
import { notShown, optionError, utf8Length } from "@adcp-wire/internal";

/** Longest summary, in UTF-8 bytes: the buyer-side display cap on `message` (256 bytes). */
export const MAX_SUMMARY_BYTES = 256;

/**
 * Checks a summary: a non-empty string, one line, at most 256 UTF-8 bytes ("keeping it terse (one
 * sentence)", Transport Error Mapping, "Tool-Level Errors"), and not JSON text, which would be a
 * second copy of the structured payload or be read as one (MCP Response Extraction, "Extraction
 * Paths": producers "SHOULD NOT serialize the complete AdCP payload again into `content[].text`").
 * A refusal names `name` in the helper's `action`; the text itself is seller text, never shown.
 *
 * @throws {TypeError} Naming `name` and what was expected.
 * @throws {RangeError} When the summary is over 256 UTF-8 bytes, naming `name`.
 */
export function checkSummary(name: string, value: unknown, action: string): string {
  // Blank or not a string: nothing of the text to show.
  if (typeof value !== "string" || value.trim() === "") {
    throw optionError(TypeError, action, name, "a non-empty string", value);
  }
  if (/[\r\n\u2028\u2029]/.test(value)) {
    throw optionError(TypeError, action, name, "one line", notShown(value));
  }
  const bytes = utf8Length(value);
  if (bytes > MAX_SUMMARY_BYTES) {
    throw optionError(
      RangeError,
      action,
      name,
      `at most ${MAX_SUMMARY_BYTES} UTF-8 bytes`,
      notShown(value, `${bytes} UTF-8 bytes`),
    );
  }
  const trimmed = value.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return value;
    }
    if (typeof parsed === "object" && parsed !== null) {
      throw optionError(TypeError, action, name, "prose, not JSON text", notShown(value));
    }
  }
  return value;
}

/**
 * Redacts leaks (see `LeakKind`) from a checked summary, reporting them through `onWarning`; in
 * strict mode a leak is refused instead.
 *
 * @throws {TypeError} In strict mode, naming `name` and the kinds of leak found.
 */
export function redactedSummary(
  summary: string,
  options: CheckedOptions,
  name = "options.summary",
  field = "summary",
): string {
  const scan = redactLeaks(summary, options.serviceNames);
  if (scan.kinds.length === 0) return summary;
  if (options.strict) {
    throw optionError(
      TypeError,
      options.action,
      name,
      `free of ${scan.kinds.join(", ")} (strict mode)`,
      notShown(summary),
    );
  }
  options.onWarning?.({
    kind: "redacted",
    field,
    message: `Redacted ${scan.kinds.join(", ")} in ${field}`,
    leaks: scan.kinds,
  });
  return scan.text;
}
