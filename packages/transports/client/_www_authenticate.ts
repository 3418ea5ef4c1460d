// The seller's `WWW-Authenticate: Signature error="<code>"` of a refused signed request
// (security.mdx, "`WWW-Authenticate` format"), read from seller bytes: bounded, linear, and only
// ever one of the spec's codes.

/** Longest `WWW-Authenticate` value read, in UTF-16 units; a longer one is not parsed. */
export const MAX_WWW_AUTHENTICATE_LENGTH = 2048;

/** RFC 9110 `tchar`s, by char code. */
const TCHAR: readonly boolean[] = (() => {
  const table: boolean[] = [];
  for (let code = 0; code < 128; code++) {
    const char = String.fromCharCode(code);
    table[code] = /[A-Za-z0-9!#$%&'*+\-.^_`|~]/.test(char);
  }
  return table;
})();

function isTchar(code: number): boolean {
  return code < 128 && TCHAR[code] === true;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * The `error` parameter of the `Signature` challenge in a `WWW-Authenticate` value (RFC 9110
 * §11.6.1 challenges, several of them comma-separated, as `Headers.get` joins repeated headers),
 * or `undefined` when the value is over {@link MAX_WWW_AUTHENTICATE_LENGTH}, malformed, has no
 * such parameter, or names it twice with different values (ambiguous: nothing is taken). The
 * scheme and the parameter name compare case-insensitively. One pass over the value.
 */
export function signatureChallengeError(value: string | null): string | undefined {
  if (value === null || value.length > MAX_WWW_AUTHENTICATE_LENGTH) return undefined;
  let pos = 0;
  const end = value.length;
  let inSignature = false;
  let found: string | undefined;
  const skipSpaces = () => {
    while (pos < end && isSpace(value.charCodeAt(pos))) pos++;
  };
  const token = (): string => {
    const start = pos;
    // A token, or a token68 (which may also hold "/").
    for (let code; pos < end && (isTchar(code = value.charCodeAt(pos)) || code === 0x2f);) pos++;
    return value.slice(start, pos);
  };
  while (pos < end) {
    skipSpaces();
    if (pos < end && value.charCodeAt(pos) === 0x2c) { // ","
      pos++;
      continue;
    }
    if (pos >= end) break;
    const name = token();
    if (name === "") return undefined;
    skipSpaces();
    if (pos < end && value.charCodeAt(pos) === 0x3d) { // "=": an auth-param, or a token68's tail
      pos++;
      skipSpaces();
      const next = pos < end ? value.charCodeAt(pos) : -1;
      if (next === -1 || next === 0x2c || next === 0x3d) {
        while (pos < end && value.charCodeAt(pos) === 0x3d) pos++; // token68 padding
        continue;
      }
      let param: string;
      if (next === 0x22) { // a quoted-string
        pos++;
        param = "";
        for (;;) {
          if (pos >= end) return undefined;
          const code = value.charCodeAt(pos++);
          if (code === 0x22) break;
          if (code === 0x5c) {
            if (pos >= end) return undefined;
            param += value[pos++];
          } else param += String.fromCharCode(code);
        }
      } else {
        param = token();
        if (param === "") return undefined;
      }
      if (inSignature && name.toLowerCase() === "error") {
        if (found !== undefined && found !== param) return undefined;
        found = param;
      }
      continue;
    }
    // A token not followed by "=": a new challenge's scheme (or a token68, which is no scheme of
    // ours either way).
    inSignature = name.toLowerCase() === "signature";
  }
  return found;
}
