import { BUILTIN, resolveLayers } from "./_limits.ts";
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
 * Default maximum JSON nesting depth of a response: 64, the `@adcp-wire/security` default
 * (`DEFAULT_JSON_MAX_DEPTH`).
 *
 * @example Reading the default
 * ```ts
 * import { DEFAULT_MAX_JSON_DEPTH } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_MAX_JSON_DEPTH, 64);
 * ```
 */
export const DEFAULT_MAX_JSON_DEPTH: number = BUILTIN.maxJsonDepth;

/**
 * Default maximum JSON node count of a response: 2,097,152, the `@adcp-wire/security` default
 * (`DEFAULT_JSON_MAX_NODES`), the most values a 4 MiB JSON text can hold, so a response within the
 * default byte cap never fails on node count alone. It does not grow when an agent or a call raises
 * `maxResponseBytes`: raise `maxJsonNodes` with it if the larger responses are that dense.
 *
 * @example Reading the default
 * ```ts
 * import { DEFAULT_MAX_JSON_NODES } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_MAX_JSON_NODES, 2_097_152);
 * ```
 */
export const DEFAULT_MAX_JSON_NODES: number = BUILTIN.maxJsonNodes;

/**
 * Bounds on reading one agent response. Every field is optional; unset fields fall back to the next
 * layer in {@linkcode resolveLimits} and finally to the defaults.
 *
 * @example Passing limits straight to a reader
 * ```ts
 * import { readJsonResponse, type ResponseLimits } from "@adcp-wire/transports";
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 *
 * const limits: ResponseLimits = { maxJsonDepth: 2, timeoutMs: 5_000 };
 * deepStrictEqual(await readJsonResponse(new Response("[[1]]"), limits), [[1]]);
 * await rejects(readJsonResponse(new Response("[[[1]]]"), limits), {
 *   code: "JSON_DEPTH_LIMIT",
 *   limit: 2,
 *   observed: 3,
 * });
 * ```
 */
export interface ResponseLimits {
  /**
   * Maximum bytes of a response body as received (before content decoding), and of one SSE event,
   * of the SSE bytes kept for one request, and of one stdio message. A non-negative safe integer.
   * @default {4194304}
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * Maximum bytes of a body after content decoding (gzip, deflate, br). A non-negative safe
   * integer.
   * @default {maxResponseBytes}
   */
  readonly maxDecodedBytes?: number | undefined;
  /**
   * Deadline for one read in milliseconds, stalls included: a finite number in (0, 2147483647].
   * Every read has one; there is no way to turn it off.
   * @default {30000}
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Aborts the read. An abort whose reason is a `TimeoutError` (`AbortSignal.timeout()`) is
   * reported as {@linkcode DeadlineExceededError}; any other reason is rethrown as it is.
   * @default {undefined}
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Maximum JSON nesting depth (a scalar has depth 0, `[]` depth 1). A non-negative safe integer.
   * @default {64}
   */
  readonly maxJsonDepth?: number | undefined;
  /**
   * Maximum number of JSON values, the root included. A non-negative safe integer.
   * @default {2097152}
   */
  readonly maxJsonNodes?: number | undefined;
}

/**
 * {@linkcode ResponseLimits} with every bound decided, as {@linkcode resolveLimits} returns them.
 *
 * @example The built-in defaults, resolved
 * ```ts
 * import { readTextResponse, type ResolvedLimits, resolveLimits } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const limits: ResolvedLimits = resolveLimits();
 * deepStrictEqual({ ...limits }, {
 *   maxResponseBytes: 4_194_304,
 *   maxDecodedBytes: 4_194_304,
 *   timeoutMs: 30_000,
 *   signal: undefined,
 *   maxJsonDepth: 64,
 *   maxJsonNodes: 2_097_152,
 * });
 * strictEqual(await readTextResponse(new Response("ok"), limits), "ok");
 * ```
 */
export interface ResolvedLimits {
  /** Maximum bytes as received, per body, SSE event, SSE request and stdio message. */
  readonly maxResponseBytes: number;
  /** Maximum bytes of a body after content decoding. */
  readonly maxDecodedBytes: number;
  /** Deadline for one read in milliseconds. */
  readonly timeoutMs: number;
  /** Aborts the read; every signal of every layer combined. */
  readonly signal: AbortSignal | undefined;
  /** Maximum JSON nesting depth. */
  readonly maxJsonDepth: number;
  /** Maximum number of JSON values. */
  readonly maxJsonNodes: number;
}

/**
 * The layers {@linkcode resolveLimits} combines, most specific last.
 *
 * @example Byte caps from the agent layer, signals from every layer
 * ```ts
 * import { resolveLimits, type ResolveLimitsOptions } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const session = new AbortController();
 * const layers: ResolveLimitsOptions = {
 *   defaultLimits: { signal: session.signal },
 *   agentLimits: { maxResponseBytes: 8_388_608 },
 *   callLimits: { signal: new AbortController().signal },
 * };
 * const limits = resolveLimits(layers);
 * strictEqual(limits.maxResponseBytes, 8_388_608);
 * session.abort();
 * strictEqual(limits.signal?.aborted, true);
 * ```
 */
export interface ResolveLimitsOptions {
  /**
   * Client-wide defaults. `maxResponseBytes` and `maxDecodedBytes` here may not exceed 4 MiB.
   * @default {}
   */
  readonly defaultLimits?: ResponseLimits | undefined;
  /**
   * Limits for one agent; may raise the byte caps above 4 MiB.
   * @default {}
   */
  readonly agentLimits?: ResponseLimits | undefined;
  /**
   * Limits for one call; may raise the byte caps above 4 MiB.
   * @default {}
   */
  readonly callLimits?: ResponseLimits | undefined;
  /** @deprecated Use `defaultLimits`. */
  readonly defaults?: ResponseLimits | undefined;
  /** @deprecated Use `agentLimits`. */
  readonly agent?: ResponseLimits | undefined;
  /** @deprecated Use `callLimits`. */
  readonly call?: ResponseLimits | undefined;
}

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
