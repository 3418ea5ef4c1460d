/**
 * Safety tools for data an AdCP seller agent sends to a buyer: everything a seller sends is
 * untrusted, and it flows into UIs, logs and LLM context.
 *
 * - Strings: {@link sanitizeSellerString}, {@link sanitizeAdcpError} (a whole `adcp_error`),
 *   {@link wrapUntrustedSellerData} (data delimiters for LLM prompts).
 * - Escaping for the target: {@link escapeHtml}, {@link escapeSlackMrkdwn},
 *   {@link escapeTerminal}, {@link sanitizeLogLine}.
 * - URLs and hosts: {@link validateSellerUrl}, {@link isReservedAddress}.
 * - JSON: {@link scanJsonDepth} before parsing, {@link checkJsonBounds} after, {@link toSafeJson}
 *   and {@link mergeSafe} against prototype pollution; {@link parseJsonStrict} (and
 *   {@link findDuplicateKeys}) against duplicate object keys, with
 *   {@link sanitizeDuplicateKeyNames} to log them; {@link decodeBase64Bounded} for A2A files.
 *
 * The rules each tool implements are in [docs/security.md](../../docs/security.md) and
 * [docs/seller-url-rules.md](../../docs/seller-url-rules.md).
 *
 * Spec: Transport Error Mapping, MCP Response Extraction 3.3.0-beta.0 and A2A Response Extraction
 * (Security Considerations); security.mdx (webhook verifier checklist steps 14a and 14b, legacy
 * HMAC duplicate object keys, SSRF).
 *
 * @example Showing a seller error safely
 * ```ts
 * import { escapeHtml, sanitizeAdcpError, validateSellerUrl } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = sanitizeAdcpError({
 *   code: "ACCOUNT_SETUP_REQUIRED",
 *   message: "Finish setup <b>now</b>\u200B",
 *   details: { setup_url: "https://seller.example/setup" },
 * });
 * strictEqual(escapeHtml(error.message!), "Finish setup &lt;b&gt;now&lt;/b&gt;");
 * const { setup_url } = error.details as { setup_url: string };
 * const options = { purpose: "setup_url", allowedHosts: ["seller.example"] } as const;
 * strictEqual(validateSellerUrl(setup_url, options).valid, true);
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
export * from "./external_types.ts";
export * from "./is_reserved_address.ts";
export * from "./json_limits.ts";
export * from "./merge_safe.ts";
export * from "./parse_json_strict.ts";
export * from "./sanitize_adcp_error.ts";
export * from "./sanitize_log_line.ts";
export * from "./sanitize_seller_string.ts";
export * from "./scan_json_depth.ts";
export * from "./to_safe_json.ts";
export * from "./validate_seller_url.ts";
export * from "./wrap_untrusted_seller_data.ts";
