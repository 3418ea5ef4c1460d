/**
 * The workspace's test kit: helpers every package's tests may import as `adcp-testkit` (mapped in
 * the root `deno.json`). It is never published, and no published module imports it.
 *
 * @module
 */
export * from "./option_keys.ts";
export * from "./timing.ts";
