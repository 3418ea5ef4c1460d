// Checks of option values shared by the clients.
import { isJsonObject, optionError } from "@adcp-wire/internal";
import { pickLayer } from "../read/_limits.ts";
import type { ClientLimits } from "./limits.ts";
import type { ClientOptions } from "./options.ts";

/** The limit layers of a client's options, with the deprecated `defaults`/`agent` spellings. */
export function limitLayers(
  action: string,
  options: ClientOptions,
): { defaultLimits: ClientLimits | undefined; agentLimits: ClientLimits | undefined } {
  return {
    defaultLimits: layer(action, options, "defaultLimits", "defaults"),
    agentLimits: layer(action, options, "agentLimits", "agent"),
  };
}

function layer(
  action: string,
  options: ClientOptions,
  name: "defaultLimits" | "agentLimits",
  deprecated: "defaults" | "agent",
): ClientLimits | undefined {
  const layers = options as { readonly [key: string]: ClientLimits | undefined };
  const value = pickLayer(action, layers, name, deprecated, "options.");
  if (value !== undefined && !isJsonObject(value)) {
    throw optionError(TypeError, action, `options.${name}`, "an object", value);
  }
  return value;
}

/**
 * An absolute `http:` or `https:` URL, as its `href`.
 *
 * @throws {TypeError} Otherwise, naming `url`.
 */
export function httpUrl(url: string | URL, action = "create the client"): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw optionError(TypeError, action, "url", "an absolute http: or https: URL", String(url));
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw optionError(TypeError, action, "url", "an http: or https: URL", parsed.protocol);
  }
  return parsed.href;
}
