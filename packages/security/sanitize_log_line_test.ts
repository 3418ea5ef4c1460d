import fc from "fast-check";
import { ok, strictEqual, throws } from "node:assert/strict";
import { hostileString, strippedCodePoints, utf8Length } from "./_test_util.ts";
import { DEFAULT_LOG_LINE_MAX_BYTES, sanitizeLogLine } from "./sanitize_log_line.ts";

Deno.test("sanitizeLogLine() replaces each line break with one space", () => {
  strictEqual(sanitizeLogLine("a\r\nb\nc\rd"), "a b c d");
  strictEqual(sanitizeLogLine("a\u2028b\u2029c\u0085d\u000Be\u000Cf\tg"), "a b c d e f g");
  strictEqual(sanitizeLogLine("a\n\nb"), "a  b");
});

Deno.test("sanitizeLogLine() removes the rest of the strip set and repairs lone surrogates", () => {
  strictEqual(sanitizeLogLine("a\u0000\u001b[31mb\u202E\u200Bc\uFEFF\uD800"), "a[31mbc\uFFFD");
});

Deno.test("sanitizeLogLine() removes invisible format and tag characters", () => {
  strictEqual(
    sanitizeLogLine("ad\u00ADmin\u061C \u180Eok\u2060\u2064\u206A\u206F \uFFF9x\uFFFAy\uFFFB"),
    "admin ok xy",
  );
  // A forged record spelled in tag characters (invisible in a log viewer) and a cancel tag.
  const tags = [..."\nINFO ok"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join(
    "",
  );
  strictEqual(sanitizeLogLine(`denied${tags}\u{E007F}\nnext`), "denied next");
  // Removed before truncation: tags never count against the cap or leave half a pair.
  strictEqual(sanitizeLogLine(`ab${tags}cd`, { maxBytes: 3 }), "abc");
});

Deno.test("sanitizeLogLine() truncates to maxBytes, 4096 by default", () => {
  strictEqual(DEFAULT_LOG_LINE_MAX_BYTES, 4096);
  strictEqual(sanitizeLogLine("x".repeat(5000)).length, 4096);
  strictEqual(sanitizeLogLine("ab\ncd", { maxBytes: 3 }), "ab ");
});

Deno.test("sanitizeLogLine() rejects malformed arguments", () => {
  throws(() => sanitizeLogLine(1 as never), {
    name: "TypeError",
    message: "Cannot sanitize a log line as 'value' must be a string: current value is 1",
  });
  throws(() => sanitizeLogLine("a", { maxBytes: -1 }), {
    name: "RangeError",
    message:
      "Cannot sanitize a log line as 'options.maxBytes' must be a non-negative safe integer: " +
      "current value is -1",
  });
});

Deno.test("sanitizeLogLine() output is one well-formed line within maxBytes", () => {
  fc.assert(
    fc.property(hostileString(200), fc.integer({ min: 0, max: 300 }), (input, maxBytes) => {
      const out = sanitizeLogLine(input, { maxBytes });
      strictEqual(strippedCodePoints(out).length, 0);
      ok(!/[\r\n\u2028\u2029\u0085]/.test(out));
      ok(out.isWellFormed());
      ok(utf8Length(out) <= maxBytes);
    }),
  );
});
