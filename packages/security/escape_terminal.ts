import { assertString } from "./_strings.ts";
import { STRIP_ASTRAL, STRIP_CLASS } from "./_strip_set.ts";

// A backslash, one code point of the strip set (one unit, or a surrogate pair for the astral
// rows), or a lone surrogate.
const TERMINAL_UNSAFE = new RegExp(
  `[\\\\${STRIP_CLASS}]|${STRIP_ASTRAL}|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]`,
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
 * Makes a seller-controlled string inert for a terminal: no escape sequence, control character
 * or reordering character reaches the terminal, and what the user sees is what was sent.
 *
 * Each of these is replaced by a visible, printable escape (`\xHH`, `\uHHHH`, `\u{HHHHH}` for a
 * code point above U+FFFF, or `\t`, `\n`, `\r`), not removed, so an operator can see that
 * something was there:
 * - the whole strip set of {@linkcode sanitizeSellerString}, which includes: C0 controls
 *   U+0000–U+001F (including ESC U+001B, which starts ANSI CSI `ESC [`, OSC `ESC ]` and every
 *   other escape sequence; with ESC escaped, the rest of a sequence is plain text), DEL U+007F,
 *   and C1 controls U+0080–U+009F (including the 8-bit CSI U+009B and OSC U+009D); bidi marks,
 *   embeddings, overrides and isolates ("Trojan Source" style reordering, U+061C included);
 *   zero-width and other invisible format characters (U+00AD, U+180E, U+2060–U+2064,
 *   U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB); line and paragraph separators; and the tag characters
 *   U+E0000–U+E007F, which people cannot see but LLMs read ("ASCII smuggling");
 * - lone surrogates;
 * - the backslash itself (as `\\`), so a seller cannot forge an escape that looks like one
 *   produced here: the output decodes unambiguously.
 *
 * Implements "Clients that render these in a UI MUST escape for the target context (HTML,
 * Slack, CLI)" (A2A Response Extraction, Security Considerations, Seller-controlled string
 * hygiene). Apply a length cap first with {@linkcode sanitizeSellerString} if the string is
 * unbounded; note that sanitizing first removes the characters this function would make visible.
 *
 * @param value The string to escape.
 * @returns The escaped string; it contains no code point of the strip set and no lone surrogate.
 * @throws {TypeError} When `value` is not a string.
 *
 * @example Neutralizing a colour code and an OSC 8 hyperlink
 * ```ts
 * import { escapeTerminal } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(escapeTerminal("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
 * strictEqual(
 *   escapeTerminal("\x1b]8;;https://evil.example\x07click\x1b]8;;\x07"),
 *   "\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07",
 * );
 * ```
 *
 * @example Showing a hidden instruction spelled in tag characters
 * ```ts
 * import { escapeTerminal } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * // U+E0041 and U+E0042 are the tag forms of "A" and "B": invisible when printed as they are.
 * strictEqual(escapeTerminal("ok\u{E0041}\u{E0042}"), "ok\\u{e0041}\\u{e0042}");
 * strictEqual(escapeTerminal("soft\u00ADhyphen"), "soft\\xadhyphen");
 * ```
 */
export function escapeTerminal(value: string): string {
  assertString(value);
  return value.replace(TERMINAL_UNSAFE, escapeUnit);
}
