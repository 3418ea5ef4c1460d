// Private: the key-name sanitization of security.mdx, webhook verifier checklist step 14b, shared
// by sanitizeDuplicateKeyNames (parse_json_strict.ts) and the DuplicateKeyError constructor
// (errors.ts), which sanitizes the names it is given so its message can hold no raw name.
// Not exported from mod.ts.
//
// The non-printable set of 14b(a) is the list the spec gives, not the strip set of _strip_set.ts.
// The strip set holds all of that list (its rows marked "14b(a)"; _strip_set_test.ts checks it)
// and more: U+00AD, U+061C, U+180E, U+2060–U+2064, U+206A–U+206F, U+FFF9–U+FFFB and the tag block
// U+E0000–U+E007F, which 14b(a) allows ("MAY extend … MUST NOT narrow") but does not list.
// Following the list exactly means every AdCP implementation that does (the upstream reference
// signer does) logs the same sanitized name for the same key, which is what 14b(b) asks of
// truncation too ("different verifiers truncating the same input to different … tails would also
// break log aggregation"). Lone surrogates, which the list cannot name and UTF-8 cannot carry,
// become U+FFFD first, as everywhere in this package and as TextEncoder writes them.
import { utf8Length } from "@adcp-wire/internal";
import { truncateUtf8 } from "./_strings.ts";

/** 14b(b): the most UTF-8 bytes of a logged key name. */
export const MAX_KEY_NAME_BYTES = 32;
/** 14b(c): the most key names logged per rejection. */
export const MAX_KEY_NAMES = 4;

/** The non-printable set of 14b(a), in the spec's order, as inclusive code point ranges. */
export const NON_PRINTABLE_14B_A: readonly (readonly [number, number])[] = Object.freeze([
  [0x0000, 0x001f], // C0 controls
  [0x007f, 0x007f], // DEL
  [0x0080, 0x009f], // C1 controls
  [0x200e, 0x200f], // bidi controls (LRM, RLM)
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2066, 0x2069], // bidi isolates
  [0x2028, 0x2029], // line and paragraph separators
  [0x200b, 0x200d], // zero-width characters
  [0xfeff, 0xfeff], // byte-order mark
]);

const hex = (unit: number): string => `\\u${unit.toString(16).padStart(4, "0")}`;
/** Matches the first code point of the 14b(a) set (all in the BMP: one unit each). */
const NON_PRINTABLE = new RegExp(
  `[${
    NON_PRINTABLE_14B_A.map(([first, last]) =>
      first === last ? hex(first) : hex(first) + "-" + hex(last)
    )
      .join("")
  }]`,
);

/**
 * One key name under 14b (a) then (b): `<sanitized:N>` when it holds a non-printable code point
 * (N: the UTF-8 byte length of the part before the first one), otherwise the name cut to at most
 * 32 UTF-8 bytes on a code point boundary.
 *
 * N is the length of the whole prefix, as 14b(a) words it, and is not capped by 14b(b): the
 * marker itself is under 32 bytes. (The upstream reference signer, tests/helpers/
 * reference-webhook-signer.cjs, which says it is not the spec, reports the prefix cut to 32 bytes
 * instead; the two differ only for a non-printable after byte 32.)
 */
export function sanitizeKeyName(name: string): string {
  const wellFormed = name.isWellFormed() ? name : name.toWellFormed();
  const at = wellFormed.search(NON_PRINTABLE);
  if (at !== -1) return `<sanitized:${utf8Length(wellFormed.slice(0, at))}>`;
  return truncateUtf8(wellFormed, MAX_KEY_NAME_BYTES);
}

/** 14b (a), (b) and (c): the first four names sanitized, then `<...N more>` if there are more. */
export function sanitizeKeyNamesUnchecked(names: readonly string[]): string[] {
  const shown = names.slice(0, MAX_KEY_NAMES).map(sanitizeKeyName);
  if (names.length > MAX_KEY_NAMES) shown.push(`<...${names.length - MAX_KEY_NAMES} more>`);
  return shown;
}
