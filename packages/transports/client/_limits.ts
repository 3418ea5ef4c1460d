// Resolution of the client limit layers: the response limits of `read/`, then the item caps of
// one client operation.
import { optionError, type OptionKeys, optionKeys } from "@adcp-wire/internal";
import type { ResolvedLimits, ResponseLimits } from "../read/_limits.ts";
import { assertCount, markResolved, resolveLayers, RESPONSE_LIMIT_NAMES } from "../read/_limits.ts";

/**
 * The limits of a client ({@link McpClient}, {@link A2AClient}): the response limits, which
 * bound every operation as a whole, plus item caps. One operation (a `listTools` over all its
 * pages, a `waitForTask` over all its polls, a stream over all its frames and reconnects) reads at
 * most `maxResponseBytes` in all, within one deadline, and collects at most these many items. Each
 * layer (`defaultLimits`, `agentLimits`, per call `limits`) overrides the one before.
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
 * {@link ClientLimits} with every field resolved.
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

/**
 * The built-in item caps of one client operation; `client/limits.ts` documents and exports each
 * one.
 */
export const BUILTIN_ITEMS = {
  maxTools: 4_096,
  maxEvents: 65_536,
  maxArtifacts: 1_024,
  maxParts: 65_536,
  maxDataPartBytes: 1_048_576,
} as const;

/** The keys of {@link ClientLimits}: any other key of a client's limits layer is refused. */
export const CLIENT_LIMIT_KEYS: OptionKeys = optionKeys<ClientLimits>({
  ...RESPONSE_LIMIT_NAMES,
  maxTools: true,
  maxEvents: true,
  maxArtifacts: true,
  maxParts: true,
  maxDataPartBytes: true,
});

/** A layer of client limits. */
export type ClientLayer = readonly [
  name: string,
  limits: ClientLimits | undefined,
  isDefault: boolean,
];

/**
 * Resolves client layers: the response limits, then the item caps of one operation. `action` is
 * what the messages say could not be done. A key no {@link ClientLimits} has is refused.
 */
export function resolveClientLayers(
  layers: readonly ClientLayer[],
  action = "resolve limits",
): ResolvedClientLimits {
  const base = resolveLayers(layers, action, CLIENT_LIMIT_KEYS);
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
      maxTools = assertCap(`${layer}.maxTools`, limits.maxTools, action);
    }
    if (limits.maxEvents !== undefined) {
      maxEvents = assertCap(`${layer}.maxEvents`, limits.maxEvents, action);
    }
    if (limits.maxArtifacts !== undefined) {
      maxArtifacts = assertCap(`${layer}.maxArtifacts`, limits.maxArtifacts, action);
    }
    if (limits.maxParts !== undefined) {
      maxParts = assertCap(`${layer}.maxParts`, limits.maxParts, action);
    }
    if (limits.maxDataPartBytes !== undefined) {
      maxDataPartBytes = assertCap(`${layer}.maxDataPartBytes`, limits.maxDataPartBytes, action);
      if (maxDataPartBytes < 1) {
        throw optionError(
          RangeError,
          action,
          `${layer}.maxDataPartBytes`,
          "a positive safe integer",
          0,
        );
      }
    }
  }
  return markResolved({ ...base, maxTools, maxEvents, maxArtifacts, maxParts, maxDataPartBytes });
}

function assertCap(name: string, value: unknown, action: string): number {
  assertCount(name, value, action);
  return value;
}

/**
 * Resolves the default, agent and call layers of a client call; `action` is what the messages say
 * could not be done (`"call the tool"`, `"create an McpClient"`).
 */
export function callLimits(
  defaultLimits: ClientLimits | undefined,
  agentLimits: ClientLimits | undefined,
  limits: ClientLimits | undefined,
  action: string,
): ResolvedClientLimits {
  return resolveClientLayers([
    ["options.defaultLimits", defaultLimits, true],
    ["options.agentLimits", agentLimits, false],
    ["options.limits", limits, false],
  ], action);
}

/** A client's limit layers, as it read them at construction. */
export interface ClientLayers {
  readonly defaultLimits: ClientLimits | undefined;
  readonly agentLimits: ClientLimits | undefined;
}

/**
 * The limit layers of every McpClient and A2AClient, by client: the unified agent resolves a
 * waiting call's operation limits from the same layers as the client's own calls. Not public.
 */
const clientLayers = new WeakMap<object, ClientLayers>();

/** Records a client's layers (its constructor calls this). */
export function recordLayers(client: object, layers: ClientLayers): void {
  clientLayers.set(client, layers);
}

/** The layers a client recorded, or none. */
export function layersOf(client: object): ClientLayers {
  return clientLayers.get(client) ?? { defaultLimits: undefined, agentLimits: undefined };
}
