import { type ExtractedAdcpError, validateAdcpError } from "@adcp-wire/core";
import { markForwarded } from "./_forwarded.ts";
import { notShown } from "../read/_not_shown.ts";
import { optionError } from "@adcp-wire/internal";

/**
 * Validates an upstream AdCP error that an intermediary passes through, and marks it to be sent
 * unchanged by {@linkcode adcpErrorResult}, {@linkcode adcpFailedTask} and
 * {@linkcode adcpJsonRpcError} (or in their `payload.errors`).
 *
 * Transport Error Mapping, "Error Translation in Agent Chains", Rule 3: intermediaries "preserve
 * or translate, never drop"; they "MUST NOT strip `recovery`, `retry_after`, or `details`".
 *
 * The only check is the one buyers apply, `validateAdcpError` of `@adcp-wire/core` (an object
 * whose `code` is a string of 1 to 64 characters, at most 4096 serialized UTF-8 bytes). The result
 * is a deep-frozen JSON copy with the same keys in the same order, so `JSON.stringify` of it equals
 * `JSON.stringify(upstream)`; the helpers send it as it is: `retry_after` is not rounded or
 * clamped, nothing is redacted, no field is dropped or filled, unknown fields stay. `strict`,
 * `internalServiceNames` and `allowUnlistedCode` do not apply to it (they still apply to a
 * summary). {@linkcode checkOutgoingAdcpError} cleans it like any other error. An upstream failure
 * that is not an AdCP error is translated instead, with {@linkcode translateUpstreamError}.
 *
 * @param upstream The `adcp_error` the upstream agent sent (for example what `detectAdcpError` of
 * `@adcp-wire/core` found).
 * @returns A frozen copy of `upstream`, marked as forwarded.
 * @throws {TypeError} When `upstream` is not a valid AdCP error.
 *
 * @example An agency agent passes a seller's error through, byte for byte
 * ```ts
 * import { adcpErrorResult, adcpFailedTask, forwardAdcpError } from "@adcp-wire/transports";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * const upstream = {
 *   code: "RATE_LIMITED",
 *   message: "Seller busy",
 *   recovery: "transient",
 *   retry_after: 2.5,
 *   details: { scope: "account" },
 *   trace_ref: "opaque-123",
 * };
 * const forwarded = forwardAdcpError(upstream);
 * strictEqual(JSON.stringify(forwarded), JSON.stringify(upstream));
 * const result = adcpErrorResult(forwarded);
 * strictEqual(JSON.stringify(result.structuredContent.adcp_error), JSON.stringify(upstream));
 * const task = adcpFailedTask({ id: "t1", contextId: "c1" }, forwarded);
 * strictEqual(JSON.stringify(task.artifacts[0].parts[1]?.data), JSON.stringify({ adcp_error: upstream }));
 * // Without forwardAdcpError, the seller-side cleaning applies: 2.5 s is rounded up to 3 s.
 * strictEqual(adcpErrorResult(upstream).structuredContent.adcp_error.retry_after, 3);
 * throws(() => forwardAdcpError({ code: "" }), TypeError);
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

function deepFreeze(value: unknown): unknown {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
