// Core-specific readers of seller-controlled JSON; the generic own-property readers are those of
// @adcp-wire/internal.

import { type JsonRecord, own } from "@adcp-wire/internal";

/**
 * Whether `object` carries an `adcp_error`: an own `adcp_error` property whose value is truthy,
 * the test of the reference detection code (`if (x?.adcp_error)`), so `null`, `false`, `0` and
 * `""` carry nothing. A present, truthy but malformed value still counts: it is then the location
 * that decides, and validation turns it into "no structured error" (Transport Error Mapping,
 * "Client Detection Order": "If validation fails, treat as no structured error found").
 */
export function carriesAdcpError(object: JsonRecord): boolean {
  return Boolean(own(object, "adcp_error"));
}

/**
 * Whether the only own key of `object` is `adcp_error` (MCP Response Extraction, "Extraction
 * Algorithm" steps 2 and 3: an error response missing its `isError` flag).
 */
export function isAdcpErrorOnly(object: JsonRecord): boolean {
  const keys = Object.keys(object);
  return keys.length === 1 && keys[0] === "adcp_error";
}
