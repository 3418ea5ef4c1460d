// Resolution and validation of ResponseLimits layers, shared by resolveLimits() and the readers.
import { DEFAULT_JSON_MAX_DEPTH, DEFAULT_JSON_MAX_NODES } from "@adcp-wire/security";
import { optionError } from "@adcp-wire/internal";
import type { ResolvedLimits, ResponseLimits } from "./limits.ts";

/** The built-in defaults; `limits.ts` documents and exports each one. */
export const BUILTIN = {
  maxResponseBytes: 4_194_304,
  timeoutMs: 30_000,
  maxJsonDepth: DEFAULT_JSON_MAX_DEPTH,
  maxJsonNodes: DEFAULT_JSON_MAX_NODES,
} as const;

/** The largest `timeoutMs` a timer can hold: 2³¹ − 1 ms (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** One layer: the name used in error messages, the limits, and whether it is the defaults layer. */
export type Layer = readonly [name: string, limits: ResponseLimits | undefined, isDefault: boolean];

/**
 * Resolves layers, most specific last. A layer named `"options"` reports bad fields as
 * `options.maxResponseBytes` and so on.
 */
export function resolveLayers(layers: readonly Layer[]): ResolvedLimits {
  let maxResponseBytes: number | undefined;
  let maxDecodedBytes: number | undefined;
  let timeoutMs: number | undefined;
  let maxJsonDepth: number | undefined;
  let maxJsonNodes: number | undefined;
  const signals: AbortSignal[] = [];
  for (const [layer, limits, isDefault] of layers) {
    if (limits === undefined) continue;
    if (typeof limits !== "object" || limits === null) {
      throw optionError(TypeError, "resolve limits", layer, "an object", limits);
    }
    const bytes = limits.maxResponseBytes;
    if (bytes !== undefined) {
      assertCount(`${layer}.maxResponseBytes`, bytes);
      if (isDefault) assertDefaultCeiling(`${layer}.maxResponseBytes`, bytes);
      maxResponseBytes = bytes;
    }
    const decoded = limits.maxDecodedBytes;
    if (decoded !== undefined) {
      assertCount(`${layer}.maxDecodedBytes`, decoded);
      if (isDefault) assertDefaultCeiling(`${layer}.maxDecodedBytes`, decoded);
      maxDecodedBytes = decoded;
    }
    const timeout = limits.timeoutMs;
    if (timeout !== undefined) {
      assertTimeout(`${layer}.timeoutMs`, timeout);
      timeoutMs = timeout;
    }
    const depth = limits.maxJsonDepth;
    if (depth !== undefined) {
      assertCount(`${layer}.maxJsonDepth`, depth);
      maxJsonDepth = depth;
    }
    const nodes = limits.maxJsonNodes;
    if (nodes !== undefined) {
      assertCount(`${layer}.maxJsonNodes`, nodes);
      maxJsonNodes = nodes;
    }
    const signal = limits.signal;
    if (signal !== undefined) {
      if (!(signal instanceof AbortSignal)) {
        throw optionError(TypeError, "resolve limits", `${layer}.signal`, "an AbortSignal", signal);
      }
      if (!signals.includes(signal)) signals.push(signal);
    }
  }
  const resolvedBytes = maxResponseBytes ?? BUILTIN.maxResponseBytes;
  return {
    maxResponseBytes: resolvedBytes,
    maxDecodedBytes: maxDecodedBytes ?? resolvedBytes,
    timeoutMs: timeoutMs ?? BUILTIN.timeoutMs,
    signal: signals.length === 0
      ? undefined
      : signals.length === 1
      ? signals[0]
      : AbortSignal.any(signals),
    maxJsonDepth: maxJsonDepth ?? BUILTIN.maxJsonDepth,
    maxJsonNodes: maxJsonNodes ?? BUILTIN.maxJsonNodes,
  };
}

/** Resolves the limits a reader was given directly (one call-level layer named `name`). */
export function resolveCallLimits(
  limits: ResponseLimits | undefined,
  name: string,
): ResolvedLimits {
  return resolveLayers([[name, limits, false]]);
}

/** Checks a count or byte cap of layer option `name`: a non-negative safe integer. */
export function assertCount(name: string, value: unknown): asserts value is number {
  if (typeof value !== "number") {
    throw optionError(TypeError, "resolve limits", name, "a number", value);
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    throw optionError(RangeError, "resolve limits", name, "a non-negative safe integer", value);
  }
}

function assertDefaultCeiling(name: string, value: number): void {
  if (value > BUILTIN.maxResponseBytes) {
    throw optionError(
      RangeError,
      "resolve limits",
      name,
      `at most ${BUILTIN.maxResponseBytes} (the ceiling on a default; raise the limit per agent ` +
        "or per call instead)",
      value,
    );
  }
}

function assertTimeout(name: string, value: unknown): asserts value is number {
  if (typeof value !== "number") {
    throw optionError(TypeError, "resolve limits", name, "a number", value);
  }
  if (!(value > 0 && value <= MAX_TIMEOUT_MS)) {
    throw optionError(
      RangeError,
      "resolve limits",
      name,
      `a number of milliseconds in (0, ${MAX_TIMEOUT_MS}]`,
      value,
    );
  }
}
