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
 * Default for `maxResponseBytes`, and the ceiling on a default: 4 MiB (4,194,304 bytes). A client
 * raises the limit per agent or per call, never in its defaults; why, in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 */
export const DEFAULT_MAX_RESPONSE_BYTES: number = BUILTIN.maxResponseBytes;

/**
 * Default deadline for reading one response: 30,000 ms. The spec asks for a deadline beside the
 * byte cap without a figure; how this one was chosen is in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 */
export const DEFAULT_TIMEOUT_MS: number = BUILTIN.timeoutMs;

/**
 * Combines client-wide defaults, per-agent and per-call limits into one set of bounds: for each
 * field the call wins over the agent, the agent over the defaults, and the defaults over the
 * built-in values; the signals of every layer are combined. A `defaultLimits` byte cap above 4 MiB
 * is refused, 4 MiB being the ceiling on a default; the rules are in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param options The layers to combine; all optional.
 * @returns The resolved bounds, accepted by every reader of this package.
 * @throws {TypeError} When a layer is not an object, a bound is not a number, or `signal` is not an
 * `AbortSignal`; the message names the option.
 * @throws {RangeError} When a bound is out of range, or a `defaultLimits` byte cap exceeds 4 MiB.
 *
 * @example Call over agent over defaults
 * ```ts
 * import { resolveLimits } from "@adcp-wire/transports/read";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * const limits = resolveLimits({
 *   defaultLimits: { timeoutMs: 10_000 },
 *   agentLimits: { maxResponseBytes: 16_777_216 },
 *   callLimits: { timeoutMs: 60_000 },
 * });
 * strictEqual(limits.maxResponseBytes, 16_777_216);
 * strictEqual(limits.timeoutMs, 60_000);
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
