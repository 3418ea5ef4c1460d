import fc from "fast-check";
import { ok, strictEqual, throws } from "node:assert/strict";
import { hostileString } from "./_test_util.ts";
import { escapeHtml } from "./escape_html.ts";

function unescapeHtml(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!,
  );
}

Deno.test("escapeHtml() escapes the five HTML-special characters", () => {
  strictEqual(escapeHtml(`&<>"'`), "&amp;&lt;&gt;&quot;&#39;");
  strictEqual(escapeHtml("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  strictEqual(escapeHtml("&lt;"), "&amp;lt;");
  strictEqual(escapeHtml("plain text, ünïcode 日本"), "plain text, ünïcode 日本");
  strictEqual(escapeHtml(""), "");
});

Deno.test("escapeHtml() rejects a non-string with TypeError", () => {
  throws(() => escapeHtml(null as never), {
    name: "TypeError",
    message: "Cannot escape HTML as 'value' must be a string: current value is null",
  });
});

Deno.test("escapeHtml() output has no markup characters and decodes back to the input", () => {
  fc.assert(
    fc.property(hostileString(), (input) => {
      const out = escapeHtml(input);
      ok(!/[<>"']/.test(out));
      ok(!/&(?!(amp|lt|gt|quot|#39);)/.test(out));
      strictEqual(unescapeHtml(out), input);
    }),
  );
});
