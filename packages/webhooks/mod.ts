/**
 * Receiving AdCP webhooks safely: the MCP webhook envelope check, bounded `idempotency_key`
 * dedup, A2A push classification, and the deprecated legacy HMAC-SHA256 signature scheme.
 *
 * @module
 */
export * from "./errors.ts";
export * from "./external_types.ts";
export * from "./check_mcp_webhook_envelope.ts";
export * from "./classify_a2a_push.ts";
export * from "./read_webhook_body.ts";
export * from "./webhook_dedup.ts";
export * from "./legacy_hmac.ts";
