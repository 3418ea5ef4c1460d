// Picks the JSON-RPC interface of an A2A agent card: A2A 1.0 `supportedInterfaces[]`, or the v0.3
// root `url` / `additionalInterfaces[]` (A2A Guide, "What Changed in 1.0").
import { isReservedAddress } from "@adcp-wire/security";
import { ownString } from "../client/_rpc.ts";
import { AgentProtocolError } from "../errors.ts";
import { isJsonObject as isObject, optionError, own } from "@adcp-wire/internal";

/**
 * Most entries a card may list in any one of its arrays (`supportedInterfaces`,
 * `additionalInterfaces`, `authOrigin`, `capabilities.extensions`). Real cards list a handful; a
 * card listing more is refused whole, so the work a card costs is bounded whatever it holds.
 */
export const MAX_CARD_LIST_ENTRIES = 256;

/** The card lists whose length is bounded, as paths from the card's root. */
const BOUNDED_LISTS: readonly (readonly string[])[] = [
  ["supportedInterfaces"],
  ["additionalInterfaces"],
  ["authOrigin"],
  ["capabilities", "extensions"],
];

/**
 * Refuses a card with more than {@link MAX_CARD_LIST_ENTRIES} entries in a bounded list.
 * @throws {AgentProtocolError} With reason `"agent_card"`.
 */
export function checkCardLists(card: unknown): void {
  for (const path of BOUNDED_LISTS) {
    let value: unknown = card;
    for (const key of path) value = isObject(value) ? own(value, key) : undefined;
    if (Array.isArray(value) && value.length > MAX_CARD_LIST_ENTRIES) {
      throw new AgentProtocolError(
        "agent_card",
        `at most ${MAX_CARD_LIST_ENTRIES} entries in ${path.join(".")}`,
        `${value.length}`,
      );
    }
  }
}

/** The A2A wire versions the client speaks. */
export type A2AWireVersion = "1.0" | "0.3";

/** One usable JSON-RPC interface. */
export interface AgentInterface {
  readonly url: string;
  readonly version: A2AWireVersion;
}

/**
 * Where a card's interfaces may point (Security, "Webhook URL validation (SSRF)", steps 1 and 2):
 * the origin the card was fetched from, or an https host the caller listed, never a reserved
 * address unless the caller allows it.
 */
export interface CardPolicy {
  /** The origin the card was fetched from, or `undefined` when the caller gave a card only. */
  readonly origin: string | undefined;
  /** Other hosts the caller allows (`host`, `host:port` or `*.domain`), checked. */
  readonly allowedHosts: readonly HostEntry[];
  /** Whether `http:` is allowed for a listed host (local development). */
  readonly allowHttp: boolean;
  /** Whether loopback, private and link-local hosts are allowed (local development). */
  readonly allowReservedAddresses: boolean;
}

/** Whether `url` is the card's origin or a host the caller listed, under `policy`. */
export function allowedByPolicy(url: URL, policy: CardPolicy): boolean {
  if (url.username !== "" || url.password !== "") return false;
  if (policy.origin !== undefined && url.origin === policy.origin) return true;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp)) return false;
  if (!policy.allowReservedAddresses && isReservedAddress(url.hostname)) return false;
  return policy.allowedHosts.some((entry) => hostMatches(entry, url));
}

/**
 * Whether an allow-list entry covers the URL's host: `host` any port of that host (the protocol
 * does not constrain ports: Security, "Destination port: permissive by default"), `host:port` only
 * that port (443 and 80 included), `*.domain` any strict subdomain. Hosts compare without a
 * trailing dot.
 */
function hostMatches(entry: HostEntry, url: URL): boolean {
  const hostname = url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname;
  if (entry.port !== undefined) {
    const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
    if (port !== entry.port) return false;
  }
  if (entry.wildcard) {
    const suffix = `.${entry.hostname}`;
    return hostname.endsWith(suffix) && hostname.length > suffix.length;
  }
  return hostname === entry.hostname;
}

/** A checked allow-list entry. */
export interface HostEntry {
  /** The host name or IP literal, as the URL parser writes it, without a trailing dot. */
  readonly hostname: string;
  /** The port the entry names, or `undefined` for any port. */
  readonly port: string | undefined;
  /** Whether the entry is `*.hostname` (strict subdomains only). */
  readonly wildcard: boolean;
}

/**
 * Checks and normalizes the caller's `allowedHosts` entries, the option `name` of the function
 * doing `action`: a host name or IP literal, optionally with a port, or `*.domain`.
 * @throws {TypeError} On any other entry, naming it.
 */
export function normalizeHostEntries(action: string, name: string, entries: unknown): HostEntry[] {
  if (entries === undefined) return [];
  if (!Array.isArray(entries)) {
    throw optionError(TypeError, action, name, "an array of hosts", entries);
  }
  return entries.map((entry, index) => {
    const fail = (): never => {
      throw optionError(
        TypeError,
        action,
        `${name}[${index}]`,
        "a host, host:port or *.domain pattern",
        entry,
      );
    };
    if (typeof entry !== "string" || entry === "" || /[\s/?#@\\]/.test(entry)) fail();
    const text = entry as string;
    const wildcard = text.startsWith("*.");
    const raw = wildcard ? text.slice(2) : text;
    let url: URL | undefined;
    try {
      url = new URL(`https://${raw}/`);
    } catch {
      fail();
    }
    const parsed = url!;
    const explicit = /:(\d{1,5})$/.exec(raw);
    const hostname = parsed.hostname.endsWith(".") ? parsed.hostname.slice(0, -1) : parsed.hostname;
    if (hostname === "" || hostname.includes("..") || (wildcard && !hostname.includes("."))) fail();
    if (wildcard && hostname.startsWith("[")) fail();
    let port: string | undefined;
    if (explicit !== null) {
      const number = Number(explicit[1]);
      if (number < 1 || number > 65_535) fail();
      port = String(number);
    } else if (raw.includes(":") && !raw.endsWith("]")) {
      fail(); // a colon that is not a port (an unbracketed IPv6 literal, a bare "host:")
    }
    return { hostname, port, wildcard };
  });
}

function versionOf(value: string | undefined): A2AWireVersion | undefined {
  if (value === undefined) return undefined;
  if (value === "1.0" || /^1\.0(\.\d+)?$/.test(value)) return "1.0";
  if (value === "0.3" || /^0\.3(\.\d+)?$/.test(value)) return "0.3";
  return undefined;
}

/** Every JSON-RPC interface of `card` that `policy` allows, in card order (1.0 list first). */
export function jsonRpcInterfaces(card: unknown, policy: CardPolicy): AgentInterface[] {
  const usableUrl = (value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return undefined;
    }
    return allowedByPolicy(url, policy) ? url.href : undefined;
  };
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
export function selectInterface(
  card: unknown,
  prefer: A2AWireVersion | undefined,
  policy: CardPolicy,
): AgentInterface {
  const found = jsonRpcInterfaces(card, policy);
  const pick = (version: A2AWireVersion) => found.find((entry) => entry.version === version);
  const chosen = (prefer === undefined ? undefined : pick(prefer)) ?? pick("1.0") ?? pick("0.3");
  if (chosen === undefined) {
    throw new AgentProtocolError(
      "agent_card",
      "a JSON-RPC interface at version 1.0 or 0.3 on the card's origin or an allowed https host",
      "none",
    );
  }
  return chosen;
}
