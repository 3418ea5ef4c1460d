import { lookupErrorCode, type StandardErrorCode } from "@adcp-wire/schemas";

export type { StandardErrorCode } from "@adcp-wire/schemas";

// Transport Error Mapping, "Seller-Specific Error Codes": X_{VENDOR}_{CODE}, VENDOR matching
// /^[A-Z][A-Z0-9]{1,19}$/ and CODE matching /^[A-Z][A-Z0-9_]{1,39}$/. Private so that no caller can
// recompile it.
const VENDOR_ERROR_CODE_PATTERN = /^X_[A-Z][A-Z0-9]{1,19}_[A-Z][A-Z0-9_]{1,39}$/;

/**
 * Whether `code` is one of the standard error codes of the pinned AdCP version (the table
 * generated into `@adcp-wire/schemas` from `enums/error-code.json`), deprecated aliases included.
 * The comparison is exact and case-sensitive, and inherited property names such as `constructor`
 * or `__proto__` are not codes (Transport Error Mapping, "Seller-Specific Error Codes", the
 * `isStandardErrorCode` of its reference snippet).
 *
 * @param code Any value, typically a seller's `error.code`.
 * @returns `true` when `code` is a string naming a standard code.
 *
 * @example Standard, vendor and inherited names
 * ```ts
 * import { isStandardErrorCode } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isStandardErrorCode("RATE_LIMITED"), true);
 * strictEqual(isStandardErrorCode("AUTH_REQUIRED"), true); // deprecated alias, still standard
 * strictEqual(isStandardErrorCode("rate_limited"), false);
 * strictEqual(isStandardErrorCode("X_ACME_FLOOR_NOT_MET"), false);
 * strictEqual(isStandardErrorCode("constructor"), false);
 * strictEqual(isStandardErrorCode(429), false);
 * ```
 */
export function isStandardErrorCode(code: unknown): code is StandardErrorCode {
  return typeof code === "string" && lookupErrorCode(code) !== undefined;
}

/**
 * Whether `code` is a well-formed seller-specific code, `X_{VENDOR}_{CODE}`: the whole string
 * matches `/^X_[A-Z][A-Z0-9]{1,19}_[A-Z][A-Z0-9_]{1,39}$/` (so `X_ACME_FLOOR_NOT_MET` is vendor
 * `ACME`, code `FLOOR_NOT_MET`). Only the format is checked, not the vendor registry.
 *
 * Transport Error Mapping, "Seller-Specific Error Codes" (readings:
 * [docs/recovery.md](../../docs/recovery.md#vendor-codes)).
 *
 * @param code Any value, typically a seller's `error.code`.
 * @returns `true` when `code` is a string in the vendor format.
 *
 * @example Well-formed and malformed vendor codes
 * ```ts
 * import { isVendorErrorCode } from "@adcp-wire/recovery";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isVendorErrorCode("X_STREAMHAUS_FLOOR_NOT_MET"), true);
 * strictEqual(isVendorErrorCode("X_ACME2_E"), false); // {CODE} needs at least 2 characters
 * strictEqual(isVendorErrorCode("x_acme_floor"), false); // lowercase
 * strictEqual(isVendorErrorCode("RATE_LIMITED"), false);
 * ```
 */
export function isVendorErrorCode(code: unknown): code is string {
  return typeof code === "string" && VENDOR_ERROR_CODE_PATTERN.test(code);
}
