// The one copy of the schemas' `idempotency_key` pattern, for every package that checks a key.

/**
 * The `idempotency_key` pattern of the AdCP schemas (`core/mcp-webhook-payload.json` and the task
 * requests): 16 to 255 characters of `A-Z a-z 0-9 _ . : -`. It has no flags, so `test` keeps no
 * state between calls.
 */
export const IDEMPOTENCY_KEY_PATTERN: RegExp = /^[A-Za-z0-9_.:-]{16,255}$/;
