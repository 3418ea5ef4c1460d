// The errors `forwardAdcpError` validated: the seller helpers send them unchanged.
import type { ExtractedAdcpError } from "@adcp-wire/core";

const FORWARDED = new WeakSet<object>();

/** Marks a validated, deep-frozen copy of an upstream error as forwarded. */
export function markForwarded(error: ExtractedAdcpError): ExtractedAdcpError {
  FORWARDED.add(error);
  return error;
}

/** Whether `value` came from `forwardAdcpError`. */
export function isForwarded(value: unknown): value is ExtractedAdcpError {
  return typeof value === "object" && value !== null && FORWARDED.has(value);
}
