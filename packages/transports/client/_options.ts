// Checks of option values shared by the clients.
import { isJsonObject, notShown, optionError, type OptionKeys } from "@adcp-wire/internal";
import { CLIENT_LIMIT_KEYS } from "./_limits.ts";
import { RETRY_KEYS } from "./_retry.ts";
import type { ClientLimits } from "./limits.ts";
import type { ClientOptions } from "./options.ts";

/**
 * Every key of {@link ClientOptions}: the key sets of the
 * options that extend it (`McpClientOptions`, `A2AClientOptions`, `ConnectAgentOptions`) spread it.
 */
export const CLIENT_OPTION_NAMES = {
  headers: true,
  defaultLimits: true,
  agentLimits: true,
  fetch: true,
  retry: true,
  signer: true,
  allowHttp: true,
} as const satisfies { readonly [K in keyof Required<ClientOptions>]: true };

/**
 * Where a top-level key of a client's options that is not one of them belongs, for the nearest
 * suggestion: a limit in the agent's layer first (a per-agent limit is what a top-level one is
 * most often meant as), then the client-wide one, then a figure of the retry policy.
 */
export const CLIENT_NESTED: Readonly<Record<string, OptionKeys>> = {
  agentLimits: CLIENT_LIMIT_KEYS,
  defaultLimits: CLIENT_LIMIT_KEYS,
  retry: RETRY_KEYS,
};

/** The limit layers of a client's options, each an object or undefined. */
export function limitLayers(
  action: string,
  options: ClientOptions,
): { defaultLimits: ClientLimits | undefined; agentLimits: ClientLimits | undefined } {
  return {
    defaultLimits: layer(action, options, "defaultLimits"),
    agentLimits: layer(action, options, "agentLimits"),
  };
}

function layer(
  action: string,
  options: ClientOptions,
  name: "defaultLimits" | "agentLimits",
): ClientLimits | undefined {
  const value = options[name];
  if (value !== undefined && !isJsonObject(value)) {
    throw optionError(TypeError, action, `options.${name}`, "an object", value);
  }
  return value;
}

/**
 * An absolute `http:` or `https:` URL, as its `href`. `action` and `name` are what the messages
 * say could not be done and what the caller called the URL (`"url"`, `"options.cardUrl"`).
 *
 * @throws {TypeError} Otherwise, naming `name` and showing the URL (cut) or the kind of value.
 */
export function httpUrl(url: unknown, action: string, name: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url as string | URL);
  } catch {
    // An unparsable string is shown by size only: it may hold a credential.
    throw optionError(TypeError, action, name, "an absolute http: or https: URL", notShown(url));
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    // Scheme, host and path only: userinfo, query and fragment may hold credentials.
    const end = parsed.href.length - parsed.search.length - parsed.hash.length;
    const shown = parsed.href.slice(0, end).replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
    throw optionError(TypeError, action, name, "an http: or https: URL", shown);
  }
  return parsed.href;
}

/**
 * Whether `url`'s host is a loopback address written as one: `localhost`, an IPv4 literal in
 * 127.0.0.0/8, or `[::1]`. No other name counts (a name such as `x.localhost` is resolved by DNS
 * on some systems).
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * {@link httpUrl}, with `http:` refused for any host but a loopback one unless `allowHttp`:
 * headers such as `Authorization` would travel in clear (Security, "Request Safety" step 1:
 * reject non-HTTPS).
 *
 * @throws {TypeError} When `url` is not an absolute `https:` URL, or an `http:` one on loopback
 * (any `http:` one with `allowHttp`).
 */
export function agentUrl(url: unknown, action: string, name: string, allowHttp: boolean): string {
  const href = httpUrl(url, action, name);
  const parsed = new URL(href);
  if (parsed.protocol === "http:" && !allowHttp && !isLoopbackUrl(parsed)) {
    throw optionError(
      TypeError,
      action,
      name,
      "an https: URL (http: only on loopback, or with options.allowHttp)",
      `${parsed.origin}${parsed.pathname}`,
    );
  }
  return href;
}

/**
 * The `headers` option as `Headers`. A value the `Headers` constructor refuses is reported under
 * `action` without its content: header values carry credentials.
 *
 * @throws {TypeError} When `value` is not a `HeadersInit` or holds an invalid name or value.
 */
export function headersOption(action: string, value: unknown): Headers {
  try {
    return new Headers(value as HeadersInit | undefined);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw optionError(
      TypeError,
      action,
      "options.headers",
      "a HeadersInit (an object, an array of pairs or Headers)",
      notShown(value),
    );
  }
}
