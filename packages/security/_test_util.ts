// Private test helpers: arbitraries and reference implementations shared by the tests.
import fc from "fast-check";

/**
 * The removed ranges of the strip set, inclusive, merged where adjacent: the spec's minimum
 * (Transport Error Mapping, Buyer Agent Requirements; security.mdx 14b(a)) and this package's
 * extension (U+00AD, U+061C, U+180E, U+2060–U+2064, U+206A–U+206F, U+FFF9–U+FFFB, the tag block).
 */
export const STRIP_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
];

/** True when the code point is in the strip set (an independent restatement of the spec). */
export function inStripSet(codePoint: number): boolean {
  return STRIP_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}

/**
 * Interesting code points: every range edge and neighbour (astral ones as surrogate pairs),
 * lone surrogates (the tag block's high surrogate U+DB40 and a low one of its range among them),
 * multi-byte.
 */
const EDGE_UNITS: readonly string[] = [
  ...STRIP_RANGES.flatMap(([first, last]) => [first - 1, first, last, last + 1]),
  0xdb40,
  0xdc41,
  0x09,
  0x0a,
  0x0d,
  0x1b,
  0x85,
  0x9b,
  0x200d,
  0x202a,
  0xd800,
  0xdbff,
  0xdc00,
  0xdfff,
  0xfffd,
  0xe9,
  0x65e5,
].filter((unit) => unit >= 0).map((unit) => String.fromCodePoint(unit));

/**
 * Strings that stress sanitizers: any UTF-16 code unit (so lone surrogates), valid astral
 * characters, and the edges of every removed range, in roughly equal measure.
 */
export function hostileString(maxLength = 64): fc.Arbitrary<string> {
  const unit = fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    fc.constantFrom(...EDGE_UNITS),
    fc.constantFrom("\u{1F600}", "\u{E0041}", "a", "<", ">", "&", "@", "\\", '"', "'"),
  );
  return fc.string({ unit, maxLength });
}

/**
 * A straightforward reference for sanitizeSellerString: walk code points, repair, filter, and
 * add whole code points while they fit.
 */
export function referenceSanitize(value: string, maxBytes: number): string {
  let out = "";
  let bytes = 0;
  for (const char of value) {
    let codePoint = char.codePointAt(0)!;
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) codePoint = 0xfffd;
    if (inStripSet(codePoint)) continue;
    const size = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += String.fromCodePoint(codePoint);
  }
  return out;
}

/** UTF-8 byte length via TextEncoder (lone surrogates count as U+FFFD). */
export function utf8Length(value: string): number {
  return new TextEncoder().encode(value).length;
}

/** Code points of a string that are in the strip set. */
export function strippedCodePoints(value: string): number[] {
  return [...value].map((char) => char.codePointAt(0)!).filter(inStripSet);
}
