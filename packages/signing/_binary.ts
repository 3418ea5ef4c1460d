// The two Base64 spellings of binary values in AdCP signatures, each decoded strictly: the RFC
// 8941 `sf-binary` of the 3.2 request profile (standard alphabet, padding required) and the legacy
// unpadded Base64URL of the 3.0/3.1 request profile and of webhook-signing v1. Only the canonical
// spelling of each byte string is accepted (non-zero pad bits are refused), so one value has one
// text, and an alphabet mix (`+` beside `-`) fails both.

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function table(alphabet: string): Int8Array {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}

const STD_TABLE = table(STD);
const URL_TABLE = table(URL);

/** The Base64 spelling a binary value must use. */
export type BinaryEncoding =
  /** RFC 8941 `sf-binary`: RFC 4648 §4 alphabet, `=` padding required (AdCP 3.2 requests). */
  | "sf-binary"
  /** RFC 4648 §5 Base64URL without padding (AdCP 3.0/3.1 requests, webhook-signing v1). */
  | "base64url";

/** Decodes `text` in `encoding`, or returns `undefined` when it is not its canonical spelling. */
export function decodeBinary(text: string, encoding: BinaryEncoding): Uint8Array | undefined {
  let body = text;
  if (encoding === "sf-binary") {
    if (text.length % 4 !== 0) return undefined;
    if (text.endsWith("==")) body = text.slice(0, -2);
    else if (text.endsWith("=")) body = text.slice(0, -1);
  }
  if (body.length % 4 === 1) return undefined;
  const t = encoding === "sf-binary" ? STD_TABLE : URL_TABLE;
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    const v = code < 128 ? t[code] as number : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) return undefined; // non-canonical pad bits
  return out;
}

/** Encodes bytes in `encoding` (canonical spelling). */
export function encodeBinary(bytes: Uint8Array, encoding: BinaryEncoding): string {
  const alphabet = encoding === "sf-binary" ? STD : URL;
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) |
      (bytes[i + 2] as number);
    out += alphabet[(n >> 18) & 63]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! +
      alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = ((bytes[i] as number) << 16) | (rest === 2 ? (bytes[i + 1] as number) << 8 : 0);
    out += alphabet[(n >> 18) & 63]! + alphabet[(n >> 12) & 63]!;
    if (rest === 2) out += alphabet[(n >> 6) & 63]!;
    if (encoding === "sf-binary") out += rest === 2 ? "=" : "==";
  }
  return out;
}
