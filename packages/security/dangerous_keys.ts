import type { DangerousKey } from "./errors.ts";

/**
 * The keys that are dropped by {@linkcode toSafeJson} and {@linkcode sanitizeAdcpError} and
 * refused by {@linkcode mergeSafe}: `__proto__`, `constructor` and `prototype`. Assigning or
 * merging them can reach an object's prototype chain ("Seller-controlled keys like `__proto__`
 * or `constructor` can trigger prototype pollution", MCP Response Extraction 3.3.0-beta.0,
 * Security Considerations, Prototype Pollution). Matching is exact and case-sensitive, as
 * property lookup is.
 *
 * @example Listing the keys
 * ```ts
 * import { DANGEROUS_KEYS } from "@adcp-wire/security";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual([...DANGEROUS_KEYS], ["__proto__", "constructor", "prototype"]);
 * ```
 */
export const DANGEROUS_KEYS: readonly DangerousKey[] = Object.freeze(
  [
    "__proto__",
    "constructor",
    "prototype",
  ] as const,
);

/**
 * Tells whether a key is one of {@linkcode DANGEROUS_KEYS}.
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
