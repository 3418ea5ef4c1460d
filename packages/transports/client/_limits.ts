// Resolution of the client limit layers: the response limits of `read/`, then the item caps of
// one client operation.
import { optionError } from "@adcp-wire/internal";
import type { ClientLimits, ResolvedClientLimits } from "./limits.ts";
import { assertCount, resolveLayers } from "../read/_limits.ts";

/** The built-in item caps of one client operation; `client/limits.ts` documents and exports each one. */
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
        throw optionError(
          RangeError,
          "resolve limits",
          `${layer}.maxDataPartBytes`,
          "a positive safe integer",
          0,
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

/** Resolves the default, agent and call layers of a client call. */
export function callLimits(
  defaultLimits: ClientLimits | undefined,
  agentLimits: ClientLimits | undefined,
  limits: ClientLimits | undefined,
): ResolvedClientLimits {
  return resolveClientLayers([
    ["options.defaultLimits", defaultLimits, true],
    ["options.agentLimits", agentLimits, false],
    ["options.limits", limits, false],
  ]);
}
