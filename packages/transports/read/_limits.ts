// Resolution and validation of ResponseLimits layers, shared by resolveLimits() and the readers.
import { DEFAULT_JSON_MAX_DEPTH, DEFAULT_JSON_MAX_NODES } from "@adcp-wire/security";
import { describe } from "../_describe.ts";
import type {
  ClientLimits,
  ResolvedClientLimits,
  ResolvedLimits,
  ResponseLimits,
} from "./limits.ts";

/** The built-in defaults; `limits.ts` documents and exports each one. */
export const BUILTIN = {
  maxResponseBytes: 4_194_304,
  timeoutMs: 30_000,
  maxJsonDepth: DEFAULT_JSON_MAX_DEPTH,
  maxJsonNodes: DEFAULT_JSON_MAX_NODES,
} as const;

/** The built-in item caps of one client operation; `limits.ts` documents and exports each one. */
export const BUILTIN_ITEMS = {
  maxTools: 4_096,
  maxEvents: 65_536,
  maxArtifacts: 1_024,
  maxParts: 65_536,
  maxDataPartBytes: 1_048_576,
} as const;

/** A layer of client limits. */
export type ClientLayer = readonly [
  name: string,
  limits: ClientLimits | undefined,
  isDefault: boolean,
];

/** Resolves client layers: the response limits, then the item caps of one operation. */
export function resolveClientLayers(layers: readonly ClientLayer[]): ResolvedClientLimits {
  const base = resolveLayers(layers);
  let { maxTools, maxEvents, maxArtifacts, maxParts, maxDataPartBytes }: {
    maxTools: number;
    maxEvents: number;
    maxArtifacts: number;
    maxParts: number;
    maxDataPartBytes: number;
  } = BUILTIN_ITEMS;
  for (const [layer, limits] of layers) {
    if (limits === undefined) continue;
    if (limits.maxTools !== undefined) {
      maxTools = assertCap(`${layer}.maxTools`, limits.maxTools);
    }
    if (limits.maxEvents !== undefined) {
      maxEvents = assertCap(`${layer}.maxEvents`, limits.maxEvents);
    }
    if (limits.maxArtifacts !== undefined) {
      maxArtifacts = assertCap(`${layer}.maxArtifacts`, limits.maxArtifacts);
    }
    if (limits.maxParts !== undefined) {
      maxParts = assertCap(`${layer}.maxParts`, limits.maxParts);
    }
    if (limits.maxDataPartBytes !== undefined) {
      maxDataPartBytes = assertCap(`${layer}.maxDataPartBytes`, limits.maxDataPartBytes);
      if (maxDataPartBytes < 1) {
        throw new RangeError(
          `Expected ${layer}.maxDataPartBytes to be a positive safe integer, got 0`,
        );
      }
    }
  }
  return { ...base, maxTools, maxEvents, maxArtifacts, maxParts, maxDataPartBytes };
}

function assertCap(name: string, value: unknown): number {
  assertCount(name, value);
  return value;
}

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
      throw new TypeError(`Expected ${layer} to be an object, got ${describe(limits)}`);
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
        throw new TypeError(
          `Expected ${layer}.signal to be an AbortSignal, got ${describe(signal)}`,
        );
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

function assertCount(name: string, value: unknown): asserts value is number {
  if (typeof value !== "number") {
    throw new TypeError(`Expected ${name} to be a number, got ${describe(value)}`);
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`Expected ${name} to be a non-negative safe integer, got ${value}`);
  }
}

function assertDefaultCeiling(name: string, value: number): void {
  if (value > BUILTIN.maxResponseBytes) {
    throw new RangeError(
      `Expected ${name} to be at most ${BUILTIN.maxResponseBytes} (the ceiling on a default; ` +
        `raise the limit per agent or per call instead), got ${value}`,
    );
  }
}

function assertTimeout(name: string, value: unknown): asserts value is number {
  if (typeof value !== "number") {
    throw new TypeError(`Expected ${name} to be a number, got ${describe(value)}`);
  }
  if (!(value > 0 && value <= MAX_TIMEOUT_MS)) {
    throw new RangeError(
      `Expected ${name} to be a number of milliseconds in (0, ${MAX_TIMEOUT_MS}], got ${value}`,
    );
  }
}
