/**
 * Receiving AdCP webhooks safely: the MCP webhook envelope check, bounded `idempotency_key`
 * dedup, A2A push classification, and the deprecated legacy HMAC-SHA256 signature scheme.
 *
 * @module
 */
export * from "./errors.ts";
export * from "./external_types.ts";
// receiving (helper: envelope, dedup, A2A pushes)
// legacy HMAC (helper: hmac)
export * from "./legacy_hmac.ts";
