/**
 * Safety tools for data an AdCP seller agent sends to a buyer: everything a seller sends is
 * untrusted, and it flows into UIs, logs and LLM context.
 *
 * - Strings: {@linkcode sanitizeSellerString} (strip controls, zero-width, bidi, other invisible
 *   format and tag characters, cap in UTF-8 bytes), {@linkcode sanitizeAdcpError} (a whole
 *   `adcp_error`), {@linkcode wrapUntrustedSellerData} (data delimiters for LLM prompts).
 * - Escaping for the target context: {@linkcode escapeHtml}, {@linkcode escapeSlackMrkdwn},
 *   {@linkcode escapeTerminal}, {@linkcode sanitizeLogLine}.
 * - URLs: {@linkcode validateSellerUrl} (https only, no userinfo, allow-listed hosts, ports
 *   unrestricted unless an entry or the opt-in {@linkcode HARDENED_ALLOWED_PORTS} profile says so,
 *   redirect parameters stripped from auth challenges).
 * - JSON: {@linkcode scanJsonDepth} before parsing, {@linkcode checkJsonBounds} after,
 *   {@linkcode toSafeJson} and {@linkcode mergeSafe} against prototype pollution.
 * - Files: {@linkcode decodeBase64Bounded} for A2A `raw` file parts.
 *
 * Normative sources: Transport Error Mapping (Security Considerations), MCP Response Extraction
 * 3.3.0-beta.0 and A2A Response Extraction (Security Considerations), and security.mdx (the
 * logging non-printable set of webhook verifier checklist step 14b).
 *
 * @example Showing a seller error safely
 * ```ts
 * import {
 *   escapeHtml,
 *   sanitizeAdcpError,
 *   validateSellerUrl,
 *   wrapUntrustedSellerData,
 * } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = sanitizeAdcpError({
 *   code: "ACCOUNT_SETUP_REQUIRED",
 *   recovery: "correctable",
 *   message: "Finish setup <b>now</b>\u200B",
 *   details: { setup_url: "https://seller.example/setup" },
 * });
 * strictEqual(escapeHtml(error.message!), "Finish setup &lt;b&gt;now&lt;/b&gt;");
 *
 * const details = error.details as { setup_url: string };
 * const link = validateSellerUrl(details.setup_url, {
 *   purpose: "setup_url",
 *   allowedHosts: ["seller.example"],
 * });
 * strictEqual(link.valid, true);
 *
 * const prompt = wrapUntrustedSellerData({ message: error.message }, { nonce: "0123456789abcdef" });
 * strictEqual(prompt.startsWith('<seller_data nonce="0123456789abcdef">'), true);
 * ```
 *
 * @module
 */
export * from "./check_json_bounds.ts";
export * from "./dangerous_keys.ts";
export * from "./decode_base64_bounded.ts";
export * from "./errors.ts";
export * from "./escape_html.ts";
export * from "./escape_slack_mrkdwn.ts";
export * from "./escape_terminal.ts";
export * from "./is_reserved_address.ts";
export * from "./json_limits.ts";
export * from "./merge_safe.ts";
export * from "./sanitize_adcp_error.ts";
export * from "./sanitize_log_line.ts";
export * from "./sanitize_seller_string.ts";
export * from "./scan_json_depth.ts";
export * from "./to_safe_json.ts";
export * from "./validate_seller_url.ts";
export * from "./wrap_untrusted_seller_data.ts";
