import { BUILTIN_ITEMS } from "./_limits.ts";
import type { ResolvedLimits, ResponseLimits } from "../read/limits.ts";

/**
 * Most tools one `McpClient.listTools` call collects over all its pages: 4,096.
 */
export const DEFAULT_MAX_TOOLS: number = BUILTIN_ITEMS.maxTools;

/** Most SSE events one client call reads, over every stream and reconnect: 65,536. *
 */
export const DEFAULT_MAX_EVENTS: number = BUILTIN_ITEMS.maxEvents;

/** Most artifacts one `A2AClient` call accumulates over every frame: 1,024. *
 */
export const DEFAULT_MAX_ARTIFACTS: number = BUILTIN_ITEMS.maxArtifacts;

/** Most parts, over all artifacts, one `A2AClient` call accumulates: 65,536. *
 */
export const DEFAULT_MAX_PARTS: number = BUILTIN_ITEMS.maxParts;

/**
 * The limits of a client ({@linkcode McpClient}, {@linkcode A2AClient}): the response limits, which
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
 * {@linkcode ClientLimits} with every field resolved.
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
