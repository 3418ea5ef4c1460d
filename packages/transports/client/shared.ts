// What both clients' subpaths (`/mcp`, `/a2a`) export besides their client: the shared options,
// limits and idempotency helpers, the limit constants and the error family.
export * from "../errors.ts";
export * from "../read/limits.ts";
export * from "./idempotency_key.ts";
export * from "./limits.ts";
export * from "./options.ts";
export type { RequestSigningOption } from "./_signing.ts";
