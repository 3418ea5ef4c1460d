import { assertString } from "./_strings.ts";
import { STRIP_ASTRAL, STRIP_CLASS } from "./_strip_set.ts";

// A backslash, one code point of the strip set (one unit, or a surrogate pair for the astral
// rows), or a lone surrogate.
const TERMINAL_UNSAFE = new RegExp(
  `[\\\\${STRIP_CLASS}]|${STRIP_ASTRAL}|` +
    `[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]`,
  "g",
);

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
};

function escapeUnit(char: string): string {
  const short = SHORT_ESCAPES[char];
  if (short !== undefined) return short;
  if (char.length === 2) return `\\u{${char.codePointAt(0)!.toString(16)}}`;
  const unit = char.charCodeAt(0);
  return unit <= 0xff
    ? `\\x${unit.toString(16).padStart(2, "0")}`
    : `\\u${unit.toString(16).padStart(4, "0")}`;
}

/**
 * Makes a seller-controlled string inert for a terminal: every code point of the strip set of
 * {@link sanitizeSellerString} (ESC and the other controls, bidi, invisible format and tag
 * characters), every lone surrogate and the backslash itself become visible escapes (`\xHH`,
 * `\uHHHH`, `\u{HHHHH}`, `\t`, `\n`, `\r`, `\\`), so no escape sequence reaches the terminal,
 * an operator sees that something was there, and the output decodes unambiguously. The escaped
 * set is listed in [docs/security.md](../../docs/security.md#escaping-for-the-target). Cap an
 * unbounded string first; sanitizing first would remove what this makes visible.
 *
 * Spec: A2A Response Extraction, Security Considerations, Seller-controlled string hygiene.
 *
 * @param value The string to escape.
 * @returns The escaped string; it contains no code point of the strip set and no lone surrogate.
 * @throws {TypeError} When `value` is not a string.
 *
 * @example Neutralizing a colour code and a hidden tag-character instruction
 * ```ts
 * import { escapeTerminal } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(escapeTerminal("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
 * // U+E0041 and U+E0042 are the tag forms of "A" and "B": invisible when printed as they are.
 * strictEqual(escapeTerminal("ok\u{E0041}\u{E0042}"), "ok\\u{e0041}\\u{e0042}");
 * ```
 */
export function escapeTerminal(value: string): string {
  assertString("escape for a terminal", "value", value);
  return value.replace(TERMINAL_UNSAFE, escapeUnit);
}
