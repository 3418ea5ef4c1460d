import type { AdcpError as GeneratedAdcpError } from "@adcp-wire/schemas";

import { isJsonObject, own } from "./_json.ts";
import { utf8LengthExceeds } from "@adcp-wire/internal";

/**
 * An AdCP structured error as extracted from a transport envelope: the shape
 * {@linkcode validateAdcpError} guarantees, and nothing more.
 *
 * Only `code` is checked. Every other field is the seller's raw value, kept as-is (Transport Error
 * Mapping, "Client Detection Order" > "Extraction vs. action": the extraction layer "returns the
 * raw `adcp_error` object with field values preserved as-is (including out-of-range
 * `retry_after`)"), so the documented fields below are typed `unknown`: check them before use, and
 * clamp `retry_after` at the action layer. All values are seller-controlled; never merge the
 * object into application state without filtering keys (`__proto__`, `constructor`).
 *
 * @example Narrowing raw fields before use
 * ```ts
 * import { type AdcpError, validateAdcpError } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error: AdcpError | null = validateAdcpError({ code: "RATE_LIMITED", retry_after: 86400 });
 * const retryAfter = typeof error?.retry_after === "number" ? error.retry_after : undefined;
 * strictEqual(retryAfter, 86400); // raw value: clamping to 3600 is the caller's job
 * ```
 */
export type AdcpError =
  & {
    /** Error code: a non-empty string of at most 64 UTF-16 code units (standard or `X_VENDOR_*`). */
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
 * The strict `core/error.json` type, generated into `@adcp-wire/schemas`: what a schema-valid error
 * looks like (`code` and `message` required). An extracted {@linkcode AdcpError} is not this type
 * until it has been validated against the schema (`validateAdcpErrorSchema` of
 * `@adcp-wire/validation`).
 *
 * @example A schema-valid error
 * ```ts
 * import type { AdcpErrorSchema } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error: AdcpErrorSchema = { code: "BUDGET_TOO_LOW", message: "Budget too low", recovery: "correctable" };
 * strictEqual(error.recovery, "correctable");
 * ```
 */
export type AdcpErrorSchema = GeneratedAdcpError;

/**
 * The names of the fields `core/error.json` defines, taken from the generated type of
 * `@adcp-wire/schemas` (its open index signature left out).
 *
 * @example
 * ```ts
 * import type { AdcpErrorFieldName } from "@adcp-wire/core";
 * const field: AdcpErrorFieldName = "retry_after";
 * ```
 */
export type AdcpErrorFieldName = keyof {
  [K in keyof AdcpErrorSchema as string extends K ? never : number extends K ? never : K]: true;
};

/** Longest accepted `code`, in UTF-16 code units (Transport Error Mapping, "Client Library Requirements" 3). */
const MAX_CODE_LENGTH = 64;

/** Largest accepted `JSON.stringify(error)`, in UTF-8 bytes (Transport Error Mapping, "Client Library Requirements" 3). */
const MAX_SERIALIZED_BYTES = 4096;

/**
 * The lenient validation every extracted `adcp_error` must pass before it counts as a structured
 * error (Transport Error Mapping, "Client Detection Order" and "Client Library Requirements" 3,
 * and the `validate()` of its reference client):
 *
 * - a non-null, non-array object;
 * - an own `code` property that is a string of 1 to 64 characters, counted in UTF-16 code units
 *   like the reference `code.length` (the stricter reading of "64 characters" for non-ASCII codes);
 * - `JSON.stringify(value)` at most 4096 UTF-8 bytes ("Buyer Agent Requirements": the payload cap
 *   is in bytes, so a 1,500-character message of 3-byte characters is over it).
 *
 * Anything else, including a value `JSON.stringify` throws on (a `BigInt`, a cycle) or maps to
 * `undefined`, is "no structured error" and gives `null`; this function never throws. Nothing else
 * is checked: there is no validation against `core/error.json`, and a valid value is returned
 * as-is, the very same object, never copied.
 *
 * @param value A candidate `adcp_error` value, straight from the transport envelope.
 * @returns `value` itself when it passes, typed as {@linkcode AdcpError}; otherwise `null`.
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
export function validateAdcpError(value: unknown): AdcpError | null {
  if (!isJsonObject(value)) return null;
  const code = own(value, "code");
  if (typeof code !== "string" || code.length === 0 || code.length > MAX_CODE_LENGTH) return null;
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(value);
  } catch {
    return null; // BigInt, cycle, or stack exhaustion: not a JSON error object
  }
  if (typeof serialized !== "string" || utf8LengthExceeds(serialized, MAX_SERIALIZED_BYTES)) {
    return null;
  }
  return value as AdcpError;
}
