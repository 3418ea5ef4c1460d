import { assertString } from "./_strings.ts";

const SLACK_SPECIAL = /[&<>@]/g;
const SLACK_REPLACEMENTS: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "@": "\uFF20",
};

/**
 * Escapes a seller-controlled string for Slack `mrkdwn` text so it cannot ping anyone, link
 * anywhere or inject Slack control sequences: `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`
 * (every Slack control sequence starts with `<`), and every `@` becomes U+FF20 FULLWIDTH
 * COMMERCIAL AT, so plain-text `@here` or `@name` cannot become a mention. Formatting characters
 * are left alone. Why each choice was made is in
 * [docs/security.md](../../docs/security.md#escaping-for-the-target). Run
 * {@link sanitizeSellerString} first, then escape.
 *
 * Spec: A2A Response Extraction, Security Considerations, Seller-controlled string hygiene.
 *
 * @param value The string to escape.
 * @returns The escaped string.
 * @throws {TypeError} When `value` is not a string.
 *
 * @example Neutralizing mentions and links
 * ```ts
 * import { escapeSlackMrkdwn } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   escapeSlackMrkdwn("<!channel> <https://evil.example|docs> @here"),
 *   "&lt;!channel&gt; &lt;https://evil.example|docs&gt; \uFF20here",
 * );
 * ```
 */
export function escapeSlackMrkdwn(value: string): string {
  assertString("escape Slack mrkdwn", "value", value);
  return value.replace(SLACK_SPECIAL, (char) => SLACK_REPLACEMENTS[char] ?? char);
}
