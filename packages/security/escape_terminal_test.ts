import fc from "fast-check";
import { ok, strictEqual, throws } from "node:assert/strict";
import { hostileString, strippedCodePoints } from "./_test_util.ts";
import { escapeTerminal } from "./escape_terminal.ts";

/** Inverse of escapeTerminal, for the round-trip property. */
function unescapeTerminal(value: string): string {
  return value.replace(/\\(\\|t|n|r|x[0-9a-f]{2}|u[0-9a-f]{4})/g, (_, escape: string) => {
    if (escape === "\\") return "\\";
    if (escape === "t") return "\t";
    if (escape === "n") return "\n";
    if (escape === "r") return "\r";
    return String.fromCharCode(parseInt(escape.slice(1), 16));
  });
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
    message: "Expected value to be a string, got undefined",
  });
});

Deno.test("escapeTerminal() output has no control, bidi or zero-width character and round-trips", () => {
  fc.assert(
    fc.property(hostileString(), (input) => {
      const out = escapeTerminal(input);
      strictEqual(strippedCodePoints(out).length, 0);
      ok(out.isWellFormed());
      strictEqual(unescapeTerminal(out), input);
    }),
  );
});

Deno.test("escapeTerminal() makes invisible format characters outside the strip set visible", () => {
  strictEqual(escapeTerminal("a\u061Cb"), "a\\u061cb");
  strictEqual(
    escapeTerminal("\u180E\u2060\u2064\u206A\u206F"),
    "\\u180e\\u2060\\u2064\\u206a\\u206f",
  );
  // Neighbours are ordinary characters.
  strictEqual(
    escapeTerminal("\u061B\u061D\u180D\u180F\u205F\u2065\u2070"),
    "\u061B\u061D\u180D\u180F\u205F\u2065\u2070",
  );
  for (const unit of [0x061c, 0x180e, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x206a, 0x206f]) {
    const escaped = escapeTerminal(String.fromCharCode(unit));
    ok(!escaped.includes(String.fromCharCode(unit)));
    strictEqual(unescapeTerminal(escaped), String.fromCharCode(unit));
  }
});
