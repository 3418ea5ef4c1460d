/**
 * Helpers shared by every `@adcp-wire/*` package: the root error class, UTF-8 counting (one probe
 * of the runtime's native counter), the rendering of bad values in messages, the bad-option error
 * and own-property JSON readers. Like `@std/internal`, it is published for the other packages and
 * has no stability promise of its own: import the public packages instead.
 *
 * @example Usage
 * ```ts
 * import { utf8Length } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(utf8Length("\u20ac"), 3);
 * ```
 *
 * @module
 */

export * from "./bytes.ts";
export * from "./describe.ts";
export * from "./errors.ts";
export * from "./idempotency_key.ts";
export * from "./json.ts";
export * from "./option_error.ts";
export * from "./option_keys.ts";
export * from "./option_readers.ts";
export * from "./utf8.ts";
