// The strip set: the one table of the code points that every sanitizer of this package removes
// (sanitizeSellerString, sanitizeLogLine, wrapUntrustedSellerData, sanitizeAdcpError, the JSON
// sanitizers) and that escapeTerminal shows as escapes. Everything else (the regexes below, the
// fast path) is derived from it. Not exported from mod.ts. One sanitizer does not use it:
// sanitizeDuplicateKeyNames follows the narrower 14b(a) list exactly (see _key_names.ts).
//
// The spec's minimum is the union of Transport Error Mapping, Security Considerations, Buyer
// Agent Requirements ("Strip non-printable characters": C0 controls, zero-width U+200B–U+200F,
// bidi overrides U+202A–U+202E) and security.mdx, webhook verifier checklist step 14b(a), the
// logging non-printable set, which "Implementations MAY extend … to a broader Unicode
// non-printable classification but MUST NOT narrow". Rows whose source is "extension" use that
// permission: characters that hide, reorder or smuggle text as well as the minimum's do.

/** One contiguous range of the strip set, inclusive, and why it is there. */
export interface StripRange {
  readonly first: number;
  readonly last: number;
  /** What the characters are. */
  readonly name: string;
  /** Why a seller string must not carry them into a UI, a log or LLM context. */
  readonly why: string;
  /** The spec rule that requires them, or `extension` (allowed by 14b(a), required by no rule). */
  readonly source: string;
}

const BUYER = "Transport Error Mapping, Buyer Agent Requirements";
const LOGGING = "security.mdx 14b(a)";

/** The strip set, in code point order, ranges disjoint. */
export const STRIP_SET: readonly StripRange[] = Object.freeze([
  {
    first: 0x0000,
    last: 0x001f,
    name: "C0 controls",
    why: "ESC starts terminal escape sequences; CR and LF forge log records and prompt lines",
    source: `${BUYER}; ${LOGGING}`,
  },
  {
    first: 0x007f,
    last: 0x009f,
    name: "DEL and C1 controls",
    why:
      "terminal control in multi-byte form (8-bit CSI U+009B, OSC U+009D); NEL U+0085 breaks lines",
    source: LOGGING,
  },
  {
    first: 0x00ad,
    last: 0x00ad,
    name: "soft hyphen",
    why: "invisible unless a line breaks there: splits a word so that filters and readers miss it",
    source: "extension",
  },
  {
    first: 0x061c,
    last: 0x061c,
    name: "Arabic letter mark",
    why: "a bidi mark like U+200F: reorders the text around it",
    source: "extension",
  },
  {
    first: 0x180e,
    last: 0x180e,
    name: "Mongolian vowel separator",
    why: "a zero-width format character: invisible obfuscation",
    source: "extension",
  },
  {
    first: 0x200b,
    last: 0x200d,
    name: "zero-width space, non-joiner and joiner",
    why: "invisible obfuscation: hides words from filters and readers",
    source: `${BUYER}; ${LOGGING}`,
  },
  {
    first: 0x200e,
    last: 0x200f,
    name: "bidi marks (LRM, RLM)",
    why: "reorder the text around them",
    source: `${BUYER}; ${LOGGING}`,
  },
  {
    first: 0x2028,
    last: 0x2029,
    name: "line and paragraph separators",
    why: "render as line breaks in many log viewers (row injection)",
    source: LOGGING,
  },
  {
    first: 0x202a,
    last: 0x202e,
    name: "bidi embeddings and overrides",
    why: "reverse rendering (Trojan Source): what is shown is not what is read",
    source: `${BUYER}; ${LOGGING}`,
  },
  {
    first: 0x2060,
    last: 0x2064,
    name: "word joiner and invisible operators",
    why: "zero-width format characters: invisible obfuscation",
    source: "extension",
  },
  {
    first: 0x2066,
    last: 0x2069,
    name: "bidi isolates",
    why: "reverse rendering (Trojan Source), like the overrides",
    source: LOGGING,
  },
  {
    first: 0x206a,
    last: 0x206f,
    name: "deprecated format characters",
    why: "invisible; change symmetric swapping, Arabic shaping and digit shapes of the text " +
      "after them",
    source: "extension",
  },
  {
    first: 0xfeff,
    last: 0xfeff,
    name: "byte-order mark (zero-width no-break space)",
    why: "invisible; corrupts parsers that meet it mid-text",
    source: LOGGING,
  },
  {
    first: 0xfff9,
    last: 0xfffb,
    name: "interlinear annotation anchor, separator and terminator",
    why: "text between them may be hidden or shown as an annotation: what is shown is not what " +
      "is read",
    source: "extension",
  },
  {
    first: 0xe0000,
    last: 0xe007f,
    name: "tag characters",
    why: "invisible to people but read by LLMs: a hidden instruction spelled in tags mirroring " +
      "ASCII " +
      "(ASCII smuggling). Cost: emoji tag sequences (subdivision flags) lose their tags",
    source: "extension",
  },
]);

const hex = (unit: number): string => `\\u${unit.toString(16).toUpperCase().padStart(4, "0")}`;
const highOf = (codePoint: number): number => 0xd800 + ((codePoint - 0x10000) >> 10);
const lowOf = (codePoint: number): number => 0xdc00 + ((codePoint - 0x10000) & 0x3ff);

function classBody(rows: readonly StripRange[]): string {
  return rows.map(({ first, last }) => first === last ? hex(first) : `${hex(first)}-${hex(last)}`)
    .join("");
}

const BMP_ROWS = STRIP_SET.filter((row) => row.last <= 0xffff);
const ASTRAL_ROWS = STRIP_SET.filter((row) => row.first > 0xffff);

/**
 * Character-class body (without brackets) of the BMP rows of {@link STRIP_SET}. Every member
 * is a single non-surrogate code unit.
 */
export const STRIP_CLASS: string = classBody(BMP_ROWS);

/**
 * Regex alternatives, joined by `|`, matching one astral code point of {@link STRIP_SET} as a
 * surrogate pair (`\uDB40[\uDC00-\uDC7F]` for the tag block). Written without the `u` flag: it
 * never matches a lone surrogate, and on well-formed input it matches exactly the pair.
 */
export const STRIP_ASTRAL: string = ASTRAL_ROWS.flatMap(({ first, last }) => {
  const parts: string[] = [];
  for (let high = highOf(first); high <= highOf(last); high++) {
    const from = high === highOf(first) ? lowOf(first) : 0xdc00;
    const to = high === highOf(last) ? lowOf(last) : 0xdfff;
    parts.push(`${hex(high)}[${hex(from)}-${hex(to)}]`);
  }
  return parts;
}).join("|");

/** Global regex matching one code point of the strip set (one unit, or a surrogate pair). */
export const STRIP_GLOBAL: RegExp = new RegExp(`[${STRIP_CLASS}]|${STRIP_ASTRAL}`, "g");

// The fast path. A Latin-1 member above the C1 controls (U+00AD) adds a range to the one-byte
// (Latin-1) form of the class and makes V8 scan ASCII strings about 1.5x slower; an alternative
// for the astral rows costs 1.2–1.5x on every string. So the common regex leaves them out, and
// the whole set is only used when one of the code units that can start them is present: a
// single-unit `includes` is a native scan, and on a Latin-1 string one for a surrogate returns
// at once.
const COMMON_ROWS = BMP_ROWS.filter((row) => row.last <= 0x9f || row.first > 0xff);
const STRIP_COMMON: RegExp = new RegExp(`[${classBody(COMMON_ROWS)}]`, "g");
/** The units whose presence calls for {@link STRIP_GLOBAL}: each starts a member it lacks. */
export const STRIP_GUARD_UNITS: readonly string[] = Object.freeze([
  ...BMP_ROWS.filter((row) => !COMMON_ROWS.includes(row)).flatMap((row) => {
    const units: string[] = [];
    for (let unit = row.first; unit <= row.last; unit++) units.push(String.fromCharCode(unit));
    return units;
  }),
  ...new Set(
    ASTRAL_ROWS.flatMap(({ first, last }) => {
      const units: string[] = [];
      for (let high = highOf(first); high <= highOf(last); high++) {
        units.push(String.fromCharCode(high));
      }
      return units;
    }),
  ),
]);

/**
 * Removes every code point of the strip set from a well-formed string: the same result as
 * `value.replace(STRIP_GLOBAL, "")`, with one regex pass either way.
 */
export function removeStripSet(value: string): string {
  for (const unit of STRIP_GUARD_UNITS) {
    if (value.includes(unit)) return value.replace(STRIP_GLOBAL, "");
  }
  return value.replace(STRIP_COMMON, "");
}
