// The limit types of the readers and the resolution of their layers, shared by resolveLimits()
// (limits.ts, which re-exports the types) and the readers.
import { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_NODES } from "@adcp-wire/security";
import { optionError, type OptionKeys, optionKeys } from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/**
 * Bounds on reading one agent response. Every field is optional; unset fields fall back to the next
 * layer in {@link resolveLimits} and finally to the defaults.
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
   * reported as {@link DeadlineExceededError}; any other reason is rethrown as it is.
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
 * Every key of {@link ResponseLimits}, for the key sets of the options that extend it (a limits
 * object of a client, the options of a reader).
 */
export const RESPONSE_LIMIT_NAMES = {
  maxResponseBytes: true,
  maxDecodedBytes: true,
  timeoutMs: true,
  signal: true,
  maxJsonDepth: true,
  maxJsonNodes: true,
} as const satisfies { readonly [K in keyof Required<ResponseLimits>]: true };

/** The keys of {@link ResponseLimits}: any other key of a limits layer is refused. */
export const RESPONSE_LIMIT_KEYS: OptionKeys = optionKeys<ResponseLimits>(RESPONSE_LIMIT_NAMES);

/** {@link ResponseLimits} with every bound decided, as {@link resolveLimits} returns them. */
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

/** The layers {@link resolveLimits} combines, most specific last. */
export interface ResolveLimitsOptions {
  /**
   * Client-wide defaults. `maxResponseBytes` and `maxDecodedBytes` here may not exceed 4 MiB.
   * Default: none (the built-in values apply).
   */
  readonly defaultLimits?: ResponseLimits | undefined;
  /** Limits for one agent; may raise the byte caps above 4 MiB. Default: none of its own. */
  readonly agentLimits?: ResponseLimits | undefined;
  /** Limits for one call; may raise the byte caps above 4 MiB. Default: none of its own. */
  readonly callLimits?: ResponseLimits | undefined;
}

/** The built-in defaults; `limits.ts` documents and exports each one. */
export const BUILTIN = {
  maxResponseBytes: 4_194_304,
  timeoutMs: 30_000,
  maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
  maxJsonNodes: DEFAULT_MAX_JSON_NODES,
} as const;

/** The largest `timeoutMs` a timer can hold: 2³¹ − 1 ms (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** One layer: the name used in error messages, the limits, and whether it is the defaults layer. */
export type Layer = readonly [name: string, limits: ResponseLimits | undefined, isDefault: boolean];

/**
 * Resolves layers, most specific last. A layer named `"options"` reports bad fields as
 * `options.maxResponseBytes` and so on; `action` is what the messages say could not be done.
 * Each layer is held to `keys` (an unknown key is refused, as `<layer>.<key>`), unless it was
 * resolved here already or `keys` is `null` (the caller checked the object as a whole).
 */
export function resolveLayers(
  layers: readonly Layer[],
  action = "resolve limits",
  keys: OptionKeys | null = RESPONSE_LIMIT_KEYS,
): ResolvedLimits {
  let maxResponseBytes: number | undefined;
  let maxDecodedBytes: number | undefined;
  let timeoutMs: number | undefined;
  let maxJsonDepth: number | undefined;
  let maxJsonNodes: number | undefined;
  const signals: AbortSignal[] = [];
  for (const [layer, limits, isDefault] of layers) {
    if (limits === undefined) continue;
    if (typeof limits !== "object" || limits === null) {
      throw optionError(TypeError, action, layer, "an object", limits);
    }
    if (keys !== null && !resolved.has(limits)) checkKeys(action, layer, limits, keys);
    const bytes = limits.maxResponseBytes;
    if (bytes !== undefined) {
      assertCount(`${layer}.maxResponseBytes`, bytes, action);
      if (isDefault) assertDefaultCeiling(`${layer}.maxResponseBytes`, bytes, action);
      maxResponseBytes = bytes;
    }
    const decoded = limits.maxDecodedBytes;
    if (decoded !== undefined) {
      assertCount(`${layer}.maxDecodedBytes`, decoded, action);
      if (isDefault) assertDefaultCeiling(`${layer}.maxDecodedBytes`, decoded, action);
      maxDecodedBytes = decoded;
    }
    const timeout = limits.timeoutMs;
    if (timeout !== undefined) {
      assertTimeout(`${layer}.timeoutMs`, timeout, action);
      timeoutMs = timeout;
    }
    const depth = limits.maxJsonDepth;
    if (depth !== undefined) {
      assertCount(`${layer}.maxJsonDepth`, depth, action);
      maxJsonDepth = depth;
    }
    const nodes = limits.maxJsonNodes;
    if (nodes !== undefined) {
      assertCount(`${layer}.maxJsonNodes`, nodes, action);
      maxJsonNodes = nodes;
    }
    const signal = limits.signal;
    if (signal !== undefined) {
      if (!(signal instanceof AbortSignal)) {
        throw optionError(TypeError, action, `${layer}.signal`, "an AbortSignal", signal);
      }
      if (!signals.includes(signal)) signals.push(signal);
    }
  }
  const resolvedBytes = maxResponseBytes ?? BUILTIN.maxResponseBytes;
  return markResolved({
    maxResponseBytes: resolvedBytes,
    maxDecodedBytes: maxDecodedBytes ?? resolvedBytes,
    timeoutMs: timeoutMs ?? BUILTIN.timeoutMs,
    signal: signals.length === 0
      ? undefined
      : signals.length === 1
      ? signals[0]
      : anySignal(signals),
    maxJsonDepth: maxJsonDepth ?? BUILTIN.maxJsonDepth,
    maxJsonNodes: maxJsonNodes ?? BUILTIN.maxJsonNodes,
  });
}

/** The limits objects this module resolved (and nothing else made): checked already. */
const resolved = new WeakSet<object>();

/**
 * Marks `limits` as resolved and checked (by {@link resolveLayers}, or built from its result), so
 * that a reader given it does not check it again; returns it.
 */
export function markResolved<T extends ResolvedLimits>(limits: T): T {
  resolved.add(limits);
  return limits;
}

/** Whether `limits` is an object {@link markResolved} marked (a caller's own object never is). */
export function isResolved(limits: unknown): limits is ResolvedLimits {
  return typeof limits === "object" && limits !== null && resolved.has(limits);
}

/**
 * Resolves the limits a reader was given directly (one call-level layer named `name`), held to
 * `keys` as {@link resolveLayers} says.
 */
export function resolveCallLimits(
  limits: ResponseLimits | undefined,
  name: string,
  keys: OptionKeys | null = RESPONSE_LIMIT_KEYS,
): ResolvedLimits {
  return resolveLayers([[name, limits, false]], undefined, keys);
}

/** Checks a count or byte cap of layer option `name`: a non-negative safe integer. */
export function assertCount(
  name: string,
  value: unknown,
  action = "resolve limits",
): asserts value is number {
  if (typeof value !== "number") {
    throw optionError(TypeError, action, name, "a number", value);
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    throw optionError(RangeError, action, name, "a non-negative safe integer", value);
  }
}

function assertDefaultCeiling(name: string, value: number, action: string): void {
  if (value > BUILTIN.maxResponseBytes) {
    throw optionError(
      RangeError,
      action,
      name,
      `at most ${BUILTIN.maxResponseBytes} (the ceiling on a default; raise the limit per agent ` +
        "or per call instead)",
      value,
    );
  }
}

function assertTimeout(name: string, value: unknown, action: string): asserts value is number {
  if (typeof value !== "number") {
    throw optionError(TypeError, action, name, "a number", value);
  }
  if (!(value > 0 && value <= MAX_TIMEOUT_MS)) {
    throw optionError(
      RangeError,
      action,
      name,
      `a number of milliseconds in (0, ${MAX_TIMEOUT_MS}]`,
      value,
    );
  }
}

/**
 * A signal that aborts when any of `signals` does, with its reason: `AbortSignal.any` where the
 * runtime has it, else a controller listening to each (Node.js before 20.3 lacks it).
 */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  const native = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (typeof native === "function") return native.call(AbortSignal, [...signals]);
  return combineSignals(signals);
}

/** `AbortSignal.any` without the runtime's: exported for tests. */
export function combineSignals(signals: readonly AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  const aborted = signals.find((signal) => signal.aborted);
  if (aborted !== undefined) {
    controller.abort(aborted.reason);
    return controller.signal;
  }
  const onAbort = (event: Event): void => {
    for (const signal of signals) signal.removeEventListener("abort", onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const signal of signals) signal.addEventListener("abort", onAbort);
  return controller.signal;
}
