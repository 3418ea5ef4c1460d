import {
  BUILTIN,
  type ResolvedLimits,
  resolveLayers,
  type ResolveLimitsOptions,
  RESPONSE_LIMIT_KEYS,
  type ResponseLimits,
} from "./_limits.ts";

export type { ResolvedLimits, ResolveLimitsOptions, ResponseLimits };
/** The JSON bounds are `@adcp-wire/security`'s, re-exported: depth 64, 2,097,152 values. */
export { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_NODES } from "@adcp-wire/security";
import { optionError, type OptionKeys, optionKeys } from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/** What `resolveLimits` does, for its option errors. */
const ACTION = "resolve limits";

/** The keys of {@link ResolveLimitsOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<ResolveLimitsOptions>({
  defaultLimits: true,
  agentLimits: true,
  callLimits: true,
});

/** Where a top-level limit belongs, the per-agent layer first. */
const NESTED: Readonly<Record<string, OptionKeys>> = {
  agentLimits: RESPONSE_LIMIT_KEYS,
  callLimits: RESPONSE_LIMIT_KEYS,
  defaultLimits: RESPONSE_LIMIT_KEYS,
};

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
 * @throws {TypeError} When a layer is not an object, a bound is not a number, `signal` is not an
 * `AbortSignal`, or `options` or a layer has a key it does not define (a limit given beside the
 * layers instead of in one); the message names the option.
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
    throw optionError(TypeError, ACTION, "options", "an object", options);
  }
  checkKeys(ACTION, "options", options, OPTION_KEYS, NESTED);
  return resolveLayers([
    ["defaultLimits", options.defaultLimits, true],
    ["agentLimits", options.agentLimits, false],
    ["callLimits", options.callLimits, false],
  ]);
}
