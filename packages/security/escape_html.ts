import { assertString } from "./_strings.ts";

const HTML_SPECIAL = /[&<>"']/g;
const HTML_ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes a seller-controlled string for HTML text content and quoted attribute values: `&`, `<`,
 * `>`, `"` and `'` become character references. Not enough for unquoted attributes, URLs (check
 * those with {@link validateSellerUrl}), `<script>` or `<style>` content, or event handlers. It
 * removes no control or bidi characters: run {@link sanitizeSellerString} first, then escape.
 *
 * Spec: A2A Response Extraction, Security Considerations, Seller-controlled string hygiene.
 *
 * @param value The string to escape.
 * @returns The escaped string.
 * @throws {TypeError} When `value` is not a string.
 *
 * @example Escaping markup
 * ```ts
 * import { escapeHtml } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   escapeHtml(`<img src=x onerror="alert('1')">&`),
 *   "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;",
 * );
 * ```
 */
export function escapeHtml(value: string): string {
  assertString("escape HTML", "value", value);
  return value.replace(HTML_SPECIAL, (char) => HTML_ENTITIES[char] ?? char);
}
