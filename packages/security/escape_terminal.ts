import { assertString, STRIP_CLASS } from "./_strings.ts";

/**
 * Invisible format characters outside the strip set that can still reorder or hide text: the
 * Arabic letter mark U+061C (a bidi mark), the Mongolian vowel separator U+180E, the word joiner
 * and invisible operators U+2060–U+2064, and the deprecated format characters U+206A–U+206F.
 */
const INVISIBLE_FORMAT_CLASS = "\\u061C\\u180E\\u2060-\\u2064\\u206A-\\u206F";

// One code unit of the strip set or of the invisible format characters, a backslash, or a lone
// surrogate.
const TERMINAL_UNSAFE = new RegExp(
  `[\\\\${STRIP_CLASS}${INVISIBLE_FORMAT_CLASS}]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]`,
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
  const unit = char.charCodeAt(0);
  return unit <= 0xff
    ? `\\x${unit.toString(16).padStart(2, "0")}`
    : `\\u${unit.toString(16).padStart(4, "0")}`;
}

/**
 * Makes a seller-controlled string inert for a terminal: no escape sequence, control character
 * or reordering character reaches the terminal, and what the user sees is what was sent.
 *
 * Each of these is replaced by a visible, printable escape (`\xHH`, `\uHHHH`, or `\t`, `\n`,
 * `\r`), not removed, so an operator can see that something was there:
 * - C0 controls U+0000–U+001F (including ESC U+001B, which starts ANSI CSI `ESC [`, OSC
 *   `ESC ]` and every other escape sequence; with ESC escaped, the rest of a sequence is plain
 *   text), DEL U+007F, and C1 controls U+0080–U+009F (including the 8-bit CSI U+009B and OSC
 *   U+009D);
 * - the rest of the strip set of {@linkcode sanitizeSellerString}: zero-width U+200B–U+200F,
 *   U+2028–U+202E (line/paragraph separators and bidi embeddings/overrides), bidi isolates
 *   U+2066–U+2069 and U+FEFF ("Trojan Source" style reordering);
 * - other invisible format characters: the Arabic letter mark U+061C (a bidi mark), U+180E,
 *   U+2060–U+2064 (word joiner, invisible operators) and U+206A–U+206F;
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
 * @returns The escaped string; it contains no C0/C1 control and none of the bidi, zero-width and
 * invisible format characters listed above.
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
 */
export function escapeTerminal(value: string): string {
  assertString(value);
  return value.replace(TERMINAL_UNSAFE, escapeUnit);
}
