import { BUILTIN_ITEMS, type ClientLimits, type ResolvedClientLimits } from "./_limits.ts";

export type { ClientLimits, ResolvedClientLimits };

/**
 * Most tools one `McpClient.listTools` call collects over all its pages: 4,096.
 */
export const DEFAULT_MAX_TOOLS: number = BUILTIN_ITEMS.maxTools;

/** Most SSE events one client call reads, over every stream and reconnect: 65,536. */
export const DEFAULT_MAX_EVENTS: number = BUILTIN_ITEMS.maxEvents;

/** Most artifacts one `A2AClient` call accumulates over every frame: 1,024. */
export const DEFAULT_MAX_ARTIFACTS: number = BUILTIN_ITEMS.maxArtifacts;

/** Most parts, over all artifacts, one `A2AClient` call accumulates: 65,536. */
export const DEFAULT_MAX_PARTS: number = BUILTIN_ITEMS.maxParts;
