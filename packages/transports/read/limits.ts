import {
  BUILTIN,
  type ResolvedLimits,
  resolveLayers,
  type ResolveLimitsOptions,
  type ResponseLimits,
} from "./_limits.ts";

export type { ResolvedLimits, ResolveLimitsOptions, ResponseLimits };
/** The JSON bounds are `@adcp-wire/security`'s, re-exported: depth 64, 2,097,152 values. */
export { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_NODES } from "@adcp-wire/security";
import { optionError } from "@adcp-wire/internal";

/**
 * Default and ceiling for `maxResponseBytes`: 4 MiB (4,194,304 bytes).
 *
 * From MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits: "The recommended
 * client safety limit is 4 MiB (4,194,304 bytes)" and "4 MiB is the MCP default and is also the
 * protocol-wide ceiling on a default, so a client raises the limit for a specific agent or a
 * specific call rather than shipping a larger default". It bounds hostile or buggy input; it is not
 * a size producers aim at (they target at most 128 KiB).
 *
 * @example Reading the default
 * ```ts
 * import { DEFAULT_MAX_RESPONSE_BYTES } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_MAX_RESPONSE_BYTES, 4_194_304);
 * ```
 */
export const DEFAULT_MAX_RESPONSE_BYTES: number = BUILTIN.maxResponseBytes;

/**
 * Default deadline for reading one response: 30,000 ms.
 *
 * The spec requires a deadline beside the byte cap ("pair the cap with a deadline", MCP Response
 * Extraction 3.3.0-beta.0, Size Limits) without a figure. 30 s is three times the 10 s read budget
 * security.mdx recommends for the small documents it fetches (webhook targets, brand.json, JWKS),
 * since an agent tool call may do real work before answering, and half the 60 s request timeout
 * common in MCP clients, so the transport bound fires first and names the cause. Raise it per agent
 * or per call for slow tools.
 *
 * @example Reading the default
 * ```ts
 * import { DEFAULT_TIMEOUT_MS } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_TIMEOUT_MS, 30_000);
 * ```
 */
export const DEFAULT_TIMEOUT_MS: number = BUILTIN.timeoutMs;

/**
 * Combines client defaults, per-agent and per-call limits into one set of bounds: for each field
 * the call wins over the agent, the agent over the defaults, and the defaults over the built-in
 * values ({@linkcode DEFAULT_MAX_RESPONSE_BYTES}, {@linkcode DEFAULT_TIMEOUT_MS},
 * {@linkcode DEFAULT_MAX_JSON_DEPTH}, {@linkcode DEFAULT_MAX_JSON_NODES}). `maxDecodedBytes`
 * follows the resolved `maxResponseBytes` unless a layer sets it. Signals are not overridden but
 * combined: an abort from any layer aborts the read.
 *
 * Implements "Clients SHOULD make the limit configurable per agent and per call. 4 MiB is the MCP
 * default and is also the protocol-wide ceiling on a default, so a client raises the limit for a
 * specific agent or a specific call rather than shipping a larger default" (MCP Response Extraction
 * 3.3.0-beta.0, Security Considerations, Size Limits): a `defaultLimits` byte cap above 4 MiB is refused.
 * Lower defaults are allowed.
 *
 * @param options The layers to combine; all optional.
 * @returns The resolved bounds, accepted by every reader of this package.
 * @throws {TypeError} When a layer is not an object, a bound is not a number, or `signal` is not an
 * `AbortSignal`; the message names the option.
 * @throws {RangeError} When a byte or JSON bound is not a non-negative safe integer, `timeoutMs` is
 * not in (0, 2147483647], or a `defaultLimits` byte cap exceeds 4,194,304; the message names the option.
 *
 * @example Call over agent over defaults
 * ```ts
 * import { resolveLimits } from "@adcp-wire/transports";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * const limits = resolveLimits({
 *   defaultLimits: { maxResponseBytes: 1_048_576, timeoutMs: 10_000 },
 *   agentLimits: { maxResponseBytes: 16_777_216 },
 *   callLimits: { timeoutMs: 60_000 },
 * });
 * strictEqual(limits.maxResponseBytes, 16_777_216);
 * strictEqual(limits.maxDecodedBytes, 16_777_216);
 * strictEqual(limits.timeoutMs, 60_000);
 * strictEqual(limits.maxJsonDepth, 64);
 *
 * throws(() => resolveLimits({ defaultLimits: { maxResponseBytes: 8_388_608 } }), RangeError);
 * ```
 */
export function resolveLimits(options: ResolveLimitsOptions = {}): ResolvedLimits {
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, "resolve limits", "options", "an object", options);
  }
  return resolveLayers([
    ["defaultLimits", layer(options, "defaultLimits", "defaults"), true],
    ["agentLimits", layer(options, "agentLimits", "agent"), false],
    ["callLimits", layer(options, "callLimits", "call"), false],
  ]);
}

/** A layer under its name or its deprecated spelling (both at once is a mistake). */
function layer(
  options: ResolveLimitsOptions,
  name: "defaultLimits" | "agentLimits" | "callLimits",
  deprecated: "defaults" | "agent" | "call",
): ResponseLimits | undefined {
  const current = options[name];
  const old = options[deprecated];
  if (current !== undefined && old !== undefined) {
    throw optionError(
      TypeError,
      "resolve limits",
      deprecated,
      `undefined when '${name}' is set (it is its deprecated spelling)`,
      old,
    );
  }
  return current !== undefined ? current : old;
}
