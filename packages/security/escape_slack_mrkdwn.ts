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
 * anywhere or inject Slack control sequences.
 *
 * - `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`, the three escapes Slack's formatting
 *   rules define. Every Slack control sequence starts with `<`, so this neutralizes special
 *   mentions (`<!channel>`, `<!here>`, `<!everyone>`), user, group and channel mentions
 *   (`<@U123>`, `<!subteam^S123>`, `<#C123>`), dates (`<!date^…>`) and links (`<url|text>`).
 * - Every `@` becomes U+FF20 FULLWIDTH COMMERCIAL AT, so plain-text `@here`, `@channel`,
 *   `@everyone` and `@name` cannot become mentions when a message is posted with
 *   `link_names` or through a client that resolves plain-text mentions. Slack has no escape for
 *   `@`; a look-alike keeps the text readable, and unlike an inserted zero-width character it
 *   survives a later {@linkcode sanitizeSellerString} pass. Email addresses display with `＠`.
 *
 * Formatting characters (`*`, `_`, `~`, `` ` ``) are left alone: Slack has no escape for them,
 * and they change emphasis, not meaning or reach. Bare URLs are still auto-linked by Slack;
 * the linked text is the URL itself, so it cannot disguise its target.
 *
 * Implements "Clients that render these in a UI MUST escape for the target context (HTML,
 * Slack, CLI)" (A2A Response Extraction, Security Considerations, Seller-controlled string
 * hygiene). Run {@linkcode sanitizeSellerString} first, then escape.
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
  assertString(value);
  return value.replace(SLACK_SPECIAL, (char) => SLACK_REPLACEMENTS[char] ?? char);
}
