import { type ExtractedAdcpError, validateAdcpError } from "@adcp-wire/core";
import { markForwarded } from "./_forwarded.ts";
import { deepFreeze, notShown, optionError } from "@adcp-wire/internal";

/**
 * Validates an upstream AdCP error that an intermediary passes through, and marks it to be sent
 * byte for byte by {@link adcpErrorResult}, {@link adcpFailedTask} and {@link adcpJsonRpcError}:
 * nothing is rounded, redacted, dropped or filled. The only check is the buyers' own,
 * `validateAdcpError` of `@adcp-wire/core`; the rules are in `docs/outgoing-errors.md`.
 *
 * Spec: Transport Error Mapping, Error Translation in Agent Chains, Rule 3.
 *
 * @param upstream The `adcp_error` the upstream agent sent.
 * @returns A deep-frozen JSON copy of `upstream`, marked as forwarded.
 * @throws {TypeError} When `upstream` is not a valid AdCP error. Nothing of it is shown: it is the
 * upstream's value, not the seller's (translate it with {@link translateUpstreamError} instead).
 *
 * @example An agency agent passes a seller's error through
 * ```ts
 * import { adcpErrorResult, forwardAdcpError } from "@adcp-wire/transports/seller";
 * import { strictEqual } from "node:assert/strict";
 *
 * const upstream = { code: "RATE_LIMITED", message: "Seller busy", retry_after: 2.5, trace: "t1" };
 * const result = adcpErrorResult(forwardAdcpError(upstream));
 * strictEqual(JSON.stringify(result.structuredContent.adcp_error), JSON.stringify(upstream));
 * // Not forwarded, the error is cleaned: 2.5 s is rounded up to 3 s.
 * strictEqual(adcpErrorResult(upstream).structuredContent.adcp_error.retry_after, 3);
 * ```
 */
export function forwardAdcpError(upstream: unknown): ExtractedAdcpError {
  const valid = validateAdcpError(upstream);
  if (valid === null) {
    throw optionError(
      TypeError,
      "forward the error",
      "upstream",
      "an AdCP error (an object whose code is a string of 1 to 64 characters, at most 4096 " +
        "serialized UTF-8 bytes)",
      notShown(upstream),
    );
  }
  // validateAdcpError serialized it already, so this does not throw.
  return markForwarded(deepFreeze(JSON.parse(JSON.stringify(valid))) as ExtractedAdcpError);
}
