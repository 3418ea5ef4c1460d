import type { AdcpError } from "@adcp-wire/schemas";
import { checkAdcpError } from "./_adcp_error.ts";

/**
 * An AdCP structured error as extracted from a transport envelope: the shape
 * {@link validateAdcpError} guarantees (a string `code` of 1 to 64 code units, at most 4096 bytes
 * of JSON), and nothing more. Every other field is the seller's raw value, typed `unknown`: check
 * it before use, clamp `retry_after` at the action layer, and never merge the object into
 * application state without filtering keys (`__proto__`, `constructor`). It is not the strict
 * `AdcpError` of `@adcp-wire/schemas` until validated against the schema.
 *
 * Transport Error Mapping, "Client Detection Order" ("Extraction vs. action").
 */
export type ExtractedAdcpError =
  & {
    /**
     * Error code: a non-empty string of at most 64 UTF-16 code units (standard or `X_VENDOR_*`).
     */
    readonly code: string;
  }
  & {
    readonly [
      /**
       * Every other field `core/error.json` names (`message`, `recovery`, `retry_after`, `field`,
       * `suggestion`, `details`, …), as the raw seller value: typed `unknown` until checked.
       */
      K in Exclude<AdcpErrorFieldName, "code">
    ]?: unknown;
  }
  & {
    /** Any other seller field, unvalidated. */
    readonly [key: string]: unknown;
  };

/**
 * The names of the fields `core/error.json` defines, taken from the generated `AdcpError` type of
 * `@adcp-wire/schemas` (its open index signature left out).
 */
export type AdcpErrorFieldName = keyof {
  [K in keyof AdcpError as string extends K ? never : number extends K ? never : K]: true;
};

/**
 * Checks an extracted `adcp_error` as every client must before treating it as a structured error:
 * a non-array object with an own string `code` of 1 to 64 UTF-16 code units, at most 4096 UTF-8
 * bytes as JSON. Returns the very value, or `null` ("no structured error"); never throws.
 *
 * Transport Error Mapping, "Client Detection Order" and "Client Library Requirements" 3 (readings:
 * [docs/core.md](../../docs/core.md#validating-an-extracted-error)).
 *
 * @param value A candidate `adcp_error` value, straight from the transport envelope.
 * @returns `value` itself when it passes, typed as {@link ExtractedAdcpError}; otherwise `null`.
 *
 * @example Accepting a raw error and rejecting malformed ones
 * ```ts
 * import { validateAdcpError } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * const raw = { code: "RATE_LIMITED", retry_after: 86400 }; // no message: still accepted
 * strictEqual(validateAdcpError(raw), raw);
 * strictEqual(validateAdcpError({ code: 429 }), null);
 * strictEqual(validateAdcpError({ code: "" }), null);
 * strictEqual(validateAdcpError({ code: "X".repeat(65) }), null);
 * // 1,400 three-byte characters: under 4096 UTF-16 units, over 4096 UTF-8 bytes
 * strictEqual(validateAdcpError({ code: "X_BIG", message: "€".repeat(1400) }), null);
 * ```
 */
export function validateAdcpError(value: unknown): ExtractedAdcpError | null {
  return checkAdcpError(value, Infinity) as ExtractedAdcpError | null;
}
