// Picks the JSON-RPC interface of an A2A agent card: A2A 1.0 `supportedInterfaces[]`, or the v0.3
// root `url` / `additionalInterfaces[]` (A2A Guide, "What Changed in 1.0").
import { isObject, own, ownString } from "./_rpc.ts";
import { AgentProtocolError } from "./errors.ts";

/** The A2A wire versions the client speaks. */
export type A2AWireVersion = "1.0" | "0.3";

/** One usable JSON-RPC interface. */
export interface AgentInterface {
  readonly url: string;
  readonly version: A2AWireVersion;
}

/**
 * Whether an interface URL may be used: `https:`, or `http:` on a loopback host (for local agents
 * and tests). The URL comes from the seller's card, so a plain-text remote endpoint is refused.
 */
function usableUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username !== "" || url.password !== "") return undefined;
  if (url.protocol === "https:") return url.href;
  if (url.protocol !== "http:") return undefined;
  const host = url.hostname;
  const loopback = host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
  return loopback ? url.href : undefined;
}

function versionOf(value: string | undefined): A2AWireVersion | undefined {
  if (value === undefined) return undefined;
  if (value === "1.0" || /^1\.0(\.\d+)?$/.test(value)) return "1.0";
  if (value === "0.3" || /^0\.3(\.\d+)?$/.test(value)) return "0.3";
  return undefined;
}

/** Every usable JSON-RPC interface of `card`, in card order (1.0 list first). */
export function jsonRpcInterfaces(card: unknown): AgentInterface[] {
  const found: AgentInterface[] = [];
  if (!isObject(card)) return found;
  const supported = own(card, "supportedInterfaces");
  if (Array.isArray(supported)) {
    for (const entry of supported) {
      if (!isObject(entry) || ownString(entry, "protocolBinding") !== "JSONRPC") continue;
      const version = versionOf(ownString(entry, "protocolVersion"));
      const url = usableUrl(ownString(entry, "url"));
      if (version !== undefined && url !== undefined) found.push({ url, version });
    }
  }
  // v0.3: the root url speaks `preferredTransport` (JSONRPC when absent) at `protocolVersion`.
  const rootVersion = versionOf(ownString(card, "protocolVersion"));
  if (rootVersion === "0.3") {
    const preferred = ownString(card, "preferredTransport") ?? "JSONRPC";
    const url = usableUrl(ownString(card, "url"));
    if (preferred === "JSONRPC" && url !== undefined) found.push({ url, version: "0.3" });
    const additional = own(card, "additionalInterfaces");
    if (Array.isArray(additional)) {
      for (const entry of additional) {
        if (!isObject(entry) || ownString(entry, "transport") !== "JSONRPC") continue;
        const extra = usableUrl(ownString(entry, "url"));
        if (extra !== undefined) found.push({ url: extra, version: "0.3" });
      }
    }
  }
  return found;
}

/** The interface to use: the preferred version when offered, else 1.0, else v0.3. */
export function selectInterface(card: unknown, prefer: A2AWireVersion | undefined): AgentInterface {
  const found = jsonRpcInterfaces(card);
  const pick = (version: A2AWireVersion) => found.find((entry) => entry.version === version);
  const chosen = (prefer === undefined ? undefined : pick(prefer)) ?? pick("1.0") ?? pick("0.3");
  if (chosen === undefined) {
    throw new AgentProtocolError(
      "agent_card",
      "a JSON-RPC interface at version 1.0 or 0.3 with an https: (or loopback http:) URL",
      "none",
    );
  }
  return chosen;
}
