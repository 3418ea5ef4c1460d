import type { DangerousKey } from "./errors.ts";

/**
 * The keys that are dropped by {@link toSafeJson} and {@link sanitizeAdcpError} and refused by
 * {@link mergeSafe}: `__proto__`, `constructor` and `prototype`, which can reach an object's
 * prototype chain when assigned or merged. Matching is exact and case-sensitive, as property
 * lookup is.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Prototype Pollution.
 */
export const DANGEROUS_KEYS: readonly DangerousKey[] = Object.freeze(
  [
    "__proto__",
    "constructor",
    "prototype",
  ] as const,
);

/**
 * Tells whether a key is one of {@link DANGEROUS_KEYS}.
 *
 * @param key The object key to test.
 * @returns `true` for `__proto__`, `constructor` and `prototype`.
 *
 * @example Testing keys
 * ```ts
 * import { isDangerousKey } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isDangerousKey("__proto__"), true);
 * strictEqual(isDangerousKey("__PROTO__"), false);
 * ```
 */
export function isDangerousKey(key: string): key is DangerousKey {
  return key === "__proto__" || key === "constructor" || key === "prototype";
}
