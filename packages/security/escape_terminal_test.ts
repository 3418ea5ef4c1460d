import fc from "fast-check";
import { ok, strictEqual, throws } from "node:assert/strict";
import { hostileString, strippedCodePoints } from "./_test_util.ts";
import { escapeTerminal } from "./escape_terminal.ts";

/** Inverse of escapeTerminal, for the round-trip property. */
function unescapeTerminal(value: string): string {
  return value.replace(
    /\\(\\|t|n|r|x[0-9a-f]{2}|u[0-9a-f]{4}|u\{[0-9a-f]{5,6}\})/g,
    (_, escape: string) => {
      if (escape === "\\") return "\\";
      if (escape === "t") return "\t";
      if (escape === "n") return "\n";
      if (escape === "r") return "\r";
      if (escape.startsWith("u{")) return String.fromCodePoint(parseInt(escape.slice(2, -1), 16));
      return String.fromCharCode(parseInt(escape.slice(1), 16));
    },
  );
}

Deno.test("escapeTerminal() neutralizes CSI, OSC and other ESC sequences", () => {
  strictEqual(escapeTerminal("\x1b[2J\x1b[H"), "\\x1b[2J\\x1b[H");
  strictEqual(escapeTerminal("\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");
  strictEqual(
    escapeTerminal("\x1b]52;c;ZWNobyBwd25lZA==\x1b\\"),
    "\\x1b]52;c;ZWNobyBwd25lZA==\\x1b\\\\",
  );
  strictEqual(escapeTerminal("\x1bPq#0\x1b\\"), "\\x1bPq#0\\x1b\\\\");
  strictEqual(escapeTerminal("\x1bc"), "\\x1bc");
});

Deno.test("escapeTerminal() escapes C0, DEL and C1 controls, including 8-bit CSI and OSC", () => {
  strictEqual(escapeTerminal("a\u0000b\u0008c\u007f"), "a\\x00b\\x08c\\x7f");
  strictEqual(escapeTerminal("\t\n\r"), "\\t\\n\\r");
  strictEqual(escapeTerminal("\u009b31m\u009d0;x\u0085"), "\\x9b31m\\x9d0;x\\x85");
});

Deno.test("escapeTerminal() escapes bidi, zero-width, separators, BOM and lone surrogates", () => {
  strictEqual(
    escapeTerminal("a\u202Eb\u2066c\u200Bd\u2028e\uFEFF"),
    "a\\u202eb\\u2066c\\u200bd\\u2028e\\ufeff",
  );
  strictEqual(escapeTerminal("x\uD800y\uDC00"), "x\\ud800y\\udc00");
  strictEqual(escapeTerminal("\u{1F600} ok"), "\u{1F600} ok");
});

Deno.test("escapeTerminal() doubles backslashes so escapes cannot be forged", () => {
  strictEqual(escapeTerminal("\\x1b[31m"), "\\\\x1b[31m");
  strictEqual(escapeTerminal("C:\\path"), "C:\\\\path");
});

Deno.test("escapeTerminal() rejects a non-string with TypeError", () => {
  throws(() => escapeTerminal(undefined as never), {
    name: "TypeError",
    message: "Cannot escape for a terminal as 'value' must be a string: current value is undefined",
  });
});

Deno.test(
  "escapeTerminal() output has no code point of the strip set, tags included, and " +
    "round-trips",
  () => {
    fc.assert(
      fc.property(hostileString(), (input) => {
        const out = escapeTerminal(input);
        strictEqual(strippedCodePoints(out).length, 0);
        ok(out.isWellFormed());
        strictEqual(unescapeTerminal(out), input);
      }),
    );
  },
);

Deno.test("escapeTerminal() makes the invisible format characters of the strip set visible", () => {
  strictEqual(escapeTerminal("a\u061Cb"), "a\\u061cb");
  strictEqual(
    escapeTerminal("\u180E\u2060\u2064\u206A\u206F"),
    "\\u180e\\u2060\\u2064\\u206a\\u206f",
  );
  strictEqual(escapeTerminal("ad\u00ADmin"), "ad\\xadmin");
  strictEqual(escapeTerminal("\uFFF9a\uFFFAb\uFFFB"), "\\ufff9a\\ufffab\\ufffb");
  // Neighbours are ordinary characters.
  strictEqual(
    escapeTerminal("\u00AC\u00AE\u061B\u061D\u180D\u180F\u205F\u2065\u2070\uFFF8\uFFFC"),
    "\u00AC\u00AE\u061B\u061D\u180D\u180F\u205F\u2065\u2070\uFFF8\uFFFC",
  );
  for (
    const range of [[0x00ad, 0x00ad], [0x061c, 0x061c], [0x180e, 0x180e], [0x2060, 0x2064], [
      0x206a,
      0x206f,
    ], [0xfff9, 0xfffb]]
  ) {
    for (let unit = range[0]!; unit <= range[1]!; unit++) {
      const escaped = escapeTerminal(String.fromCharCode(unit));
      ok(!escaped.includes(String.fromCharCode(unit)));
      strictEqual(unescapeTerminal(escaped), String.fromCharCode(unit));
    }
  }
});

Deno.test("escapeTerminal() shows every tag character as one \\u{…} escape", () => {
  // "ASCII smuggling": "hi" spelled in tags after a visible word.
  strictEqual(escapeTerminal("ok\u{E0068}\u{E0069}"), "ok\\u{e0068}\\u{e0069}");
  for (let codePoint = 0xe0000; codePoint <= 0xe007f; codePoint++) {
    const char = String.fromCodePoint(codePoint);
    strictEqual(escapeTerminal(char), `\\u{${codePoint.toString(16)}}`);
  }
  // Neighbours of the block are ordinary characters; its lone surrogates are escaped as such.
  strictEqual(escapeTerminal("\u{DFFFF}\u{E0080}\u{1F3F4}"), "\u{DFFFF}\u{E0080}\u{1F3F4}");
  strictEqual(escapeTerminal("\uDB40x\uDC41"), "\\udb40x\\udc41");
});
