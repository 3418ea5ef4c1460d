import { describe } from "../_describe.ts";
import { BUILTIN, BUILTIN_ITEMS, resolveLayers } from "./_limits.ts";

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
 *   defaults: { signal: session.signal },
 *   agent: { maxResponseBytes: 8_388_608 },
 *   call: { signal: new AbortController().signal },
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
   * @default {{}}
   */
  readonly defaults?: ResponseLimits | undefined;
  /**
   * Limits for one agent; may raise the byte caps above 4 MiB.
   * @default {{}}
   */
  readonly agent?: ResponseLimits | undefined;
  /**
   * Limits for one call; may raise the byte caps above 4 MiB.
   * @default {{}}
   */
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
 * 3.3.0-beta.0, Security Considerations, Size Limits): a `defaults` byte cap above 4 MiB is refused.
 * Lower defaults are allowed.
 *
 * @param options The layers to combine; all optional.
 * @returns The resolved bounds, accepted by every reader of this package.
 * @throws {TypeError} When a layer is not an object, a bound is not a number, or `signal` is not an
 * `AbortSignal`; the message names the option.
 * @throws {RangeError} When a byte or JSON bound is not a non-negative safe integer, `timeoutMs` is
 * not in (0, 2147483647], or a `defaults` byte cap exceeds 4,194,304; the message names the option.
 *
 * @example Call over agent over defaults
 * ```ts
 * import { resolveLimits } from "@adcp-wire/transports";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * const limits = resolveLimits({
 *   defaults: { maxResponseBytes: 1_048_576, timeoutMs: 10_000 },
 *   agent: { maxResponseBytes: 16_777_216 },
 *   call: { timeoutMs: 60_000 },
 * });
 * strictEqual(limits.maxResponseBytes, 16_777_216);
 * strictEqual(limits.maxDecodedBytes, 16_777_216);
 * strictEqual(limits.timeoutMs, 60_000);
 * strictEqual(limits.maxJsonDepth, 64);
 *
 * throws(() => resolveLimits({ defaults: { maxResponseBytes: 8_388_608 } }), RangeError);
 * ```
 */
export function resolveLimits(options: ResolveLimitsOptions = {}): ResolvedLimits {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`Expected options to be an object, got ${describe(options)}`);
  }
  return resolveLayers([
    ["defaults", options.defaults, true],
    ["agent", options.agent, false],
    ["call", options.call, false],
  ]);
}

/**
 * Most tools one `McpClient.listTools` call collects over all its pages: 4,096.
 *
 * @example The item caps
 * ```ts
 * import {
 *   DEFAULT_MAX_ARTIFACTS,
 *   DEFAULT_MAX_EVENTS,
 *   DEFAULT_MAX_PARTS,
 *   DEFAULT_MAX_TOOLS,
 * } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(
 *   [DEFAULT_MAX_TOOLS, DEFAULT_MAX_EVENTS, DEFAULT_MAX_ARTIFACTS, DEFAULT_MAX_PARTS],
 *   [4_096, 65_536, 1_024, 65_536],
 * );
 * ```
 */
export const DEFAULT_MAX_TOOLS: number = BUILTIN_ITEMS.maxTools;

/** Most SSE events one client call reads, over every stream and reconnect: 65,536. *
 * @example The value
 * ```ts
 * import { DEFAULT_MAX_EVENTS } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_MAX_EVENTS, 65_536);
 * ```
 */
export const DEFAULT_MAX_EVENTS: number = BUILTIN_ITEMS.maxEvents;

/** Most artifacts one `A2AClient` call accumulates over every frame: 1,024. *
 * @example The value
 * ```ts
 * import { DEFAULT_MAX_ARTIFACTS } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_MAX_ARTIFACTS, 1_024);
 * ```
 */
export const DEFAULT_MAX_ARTIFACTS: number = BUILTIN_ITEMS.maxArtifacts;

/** Most parts, over all artifacts, one `A2AClient` call accumulates: 65,536. *
 * @example The value
 * ```ts
 * import { DEFAULT_MAX_PARTS } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DEFAULT_MAX_PARTS, 65_536);
 * ```
 */
export const DEFAULT_MAX_PARTS: number = BUILTIN_ITEMS.maxParts;

/**
 * The limits of a client ({@linkcode McpClient}, {@linkcode A2AClient}): the response limits, which
 * bound every operation as a whole, plus item caps. One operation (a `listTools` over all its
 * pages, a `waitForTask` over all its polls, a stream over all its frames and reconnects) reads at
 * most `maxResponseBytes` in all, within one deadline, and collects at most these many items. Each
 * layer (`defaults`, `agent`, per call `limits`) overrides the one before.
 *
 * @example A tighter tool cap for one agent
 * ```ts
 * import { type ClientLimits, McpClient } from "@adcp-wire/transports";
 * import { ok } from "node:assert/strict";
 *
 * const agent: ClientLimits = { maxTools: 64, maxResponseBytes: 262_144, timeoutMs: 5_000 };
 * ok(new McpClient("https://agent.example/mcp", { agent }));
 * ```
 */
export interface ClientLimits extends ResponseLimits {
  /**
   * Most tools one `listTools` call collects over all its pages. A non-negative safe integer.
   * @default {4096}
   */
  readonly maxTools?: number | undefined;
  /**
   * Most SSE events one call reads, over every stream and reconnect. A non-negative safe integer.
   * @default {65536}
   */
  readonly maxEvents?: number | undefined;
  /**
   * Most artifacts one A2A call accumulates over every frame. A non-negative safe integer.
   * @default {1024}
   */
  readonly maxArtifacts?: number | undefined;
  /**
   * Most parts, over all artifacts, one A2A call accumulates. A non-negative safe integer.
   * @default {65536}
   */
  readonly maxParts?: number | undefined;
  /**
   * Largest A2A DataPart accepted, as the UTF-8 bytes of its `data` serialized as JSON, before
   * anything validates it (A2A Response Extraction, Security Considerations, Size Limits). A
   * positive safe integer.
   * @default {1048576}
   */
  readonly maxDataPartBytes?: number | undefined;
}

/**
 * {@linkcode ClientLimits} with every field resolved.
 *
 * @example The shape
 * ```ts
 * import type { ResolvedClientLimits } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const caps: Pick<ResolvedClientLimits, "maxTools" | "maxParts"> = { maxTools: 4_096, maxParts: 65_536 };
 * strictEqual(caps.maxTools, 4_096);
 * ```
 */
export interface ResolvedClientLimits extends ResolvedLimits {
  /** Most tools one `listTools` call collects. */
  readonly maxTools: number;
  /** Most SSE events one call reads. */
  readonly maxEvents: number;
  /** Most artifacts one A2A call accumulates. */
  readonly maxArtifacts: number;
  /** Most parts one A2A call accumulates. */
  readonly maxParts: number;
  /** Largest A2A DataPart accepted, in bytes. */
  readonly maxDataPartBytes: number;
}
