import {
  sanitizeSellerString,
  type SellerUrlRejection,
  validateSellerUrl,
} from "@adcp-wire/security";
import { checkCardLists } from "./_agent_card.ts";
import {
  isJsonObject as isObject,
  type JsonRecord,
  optionError,
  type OptionKeys,
  optionKeys,
  own,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/** Most scopes {@link checkAuthChallenge} passes on; the rest are dropped. */
const MAX_SCOPES = 64;

/** What the option errors of {@link checkAuthChallenge} say could not be done. */
const ACTION = "check the auth challenge";

/**
 * The result of {@link checkAuthChallenge}: the challenge to show, or why it must not be
 * followed.
 *
 * - `valid: true`: `url` is the validated `challenge_url` with redirect parameters and fragment
 *   removed (use it, not the seller's string); `authScheme` and `scopes` are sanitized seller text,
 *   for display only ("`scopes` MUST be treated as a request, not a grant").
 * - `valid: false`: a `reason` from `validateSellerUrl` of `@adcp-wire/security` (`"not_https"`,
 *   `"userinfo"`, `"host_not_allowed"`, ...), or `"missing_challenge_url"` (no string
 *   `challenge_url`), or `"no_allowed_hosts"` (the allow-list is empty: nothing can match).
 */
export type AuthChallengeCheck =
  | {
    readonly valid: true;
    /** The URL to open: validated, redirect parameters and fragment removed. */
    readonly url: string;
    /** The seller's `auth_scheme`, sanitized, when it is a string. */
    readonly authScheme: string | undefined;
    /** The seller's `scopes` that are strings, sanitized, at most 64. */
    readonly scopes: readonly string[];
  }
  | {
    readonly valid: false;
    /** Why the challenge must not be followed. */
    readonly reason: SellerUrlRejection | "missing_challenge_url" | "no_allowed_hosts";
  };

/**
 * Options of {@link checkAuthChallenge}.
 */
export interface CheckAuthChallengeOptions {
  /**
   * The hosts the `challenge_url` may point at, from configuration and the agent card (see
   * {@link agentCardAuthHosts}), never from the task payload. Entries as in
   * `validateSellerUrl` of `@adcp-wire/security` (`host`, `host:port`, `*.domain`).
   */
  readonly allowedHosts: readonly string[];
}

/** The keys of {@link CheckAuthChallengeOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<CheckAuthChallengeOptions>({ allowedHosts: true });

/**
 * Checks the auth challenge of an A2A `auth-required` task (the first DataPart of
 * `status.message.parts`: `auth_scheme`, `challenge_url`, `scopes`) before any auth flow starts.
 * It only validates: nothing is opened or fetched. The rules are in `docs/clients.md`, "Auth
 * challenges".
 *
 * Spec: A2A Response Extraction, Security Considerations, "Auth Challenge URL Validation".
 *
 * @param data The challenge data (any value; seller-controlled).
 * @param options The allow-list.
 * @returns The checked challenge.
 * @throws {TypeError} When `options` is not an object or has a key it does not define, or
 * `options.allowedHosts` is not an array or holds an invalid entry.
 *
 * @example A challenge outside the allow-list, and one inside it
 * ```ts
 * import { checkAuthChallenge } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const allowedHosts = ["auth.seller.example"];
 * deepStrictEqual(
 *   checkAuthChallenge({ challenge_url: "https://evil.example/login" }, { allowedHosts }),
 *   { valid: false, reason: "host_not_allowed" },
 * );
 * deepStrictEqual(
 *   checkAuthChallenge({
 *     auth_scheme: "oauth2",
 *     challenge_url: "https://auth.seller.example/authorize?client_id=a&" +
 *       "redirect_uri=https%3A%2F%2Fevil.example",
 *     scopes: ["media_buy:write"],
 *   }, { allowedHosts }),
 *   {
 *     valid: true,
 *     url: "https://auth.seller.example/authorize?client_id=a",
 *     authScheme: "oauth2",
 *     scopes: ["media_buy:write"],
 *   },
 * );
 * ```
 */
export function checkAuthChallenge(
  data: unknown,
  options: CheckAuthChallengeOptions,
): AuthChallengeCheck {
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, ACTION, "options", "an object", options);
  }
  checkKeys(ACTION, "options", options, OPTION_KEYS);
  if (!Array.isArray(options.allowedHosts)) {
    throw optionError(
      TypeError,
      ACTION,
      "options.allowedHosts",
      "an array of hosts",
      options.allowedHosts,
    );
  }
  const url = isObject(data) ? own(data, "challenge_url") : undefined;
  if (typeof url !== "string") return { valid: false, reason: "missing_challenge_url" };
  if (options.allowedHosts.length === 0) return { valid: false, reason: "no_allowed_hosts" };
  const checked = validateSellerUrl(url, {
    purpose: "challenge_url",
    allowedHosts: options.allowedHosts,
  });
  if (!checked.valid) return { valid: false, reason: checked.reason };
  const record = data as JsonRecord;
  const scheme = own(record, "auth_scheme");
  const scopes = own(record, "scopes");
  return {
    valid: true,
    url: checked.url,
    authScheme: typeof scheme === "string"
      ? sanitizeSellerString(scheme, { maxBytes: 64 })
      : undefined,
    scopes: Array.isArray(scopes)
      ? scopes.filter((scope): scope is string => typeof scope === "string")
        .slice(0, MAX_SCOPES)
        .map((scope) => sanitizeSellerString(scope, { maxBytes: 256 }))
      : [],
  };
}

/**
 * The auth allow-list an A2A agent card seeds: the host (with a non-default port) of each
 * `https:` interface URL and declared `authOrigin` of the card. Which fields are read, and why
 * only `https:` origins count: `docs/clients.md`, "Auth challenges".
 *
 * Spec: A2A Response Extraction, Security Considerations, "Auth Challenge URL Validation".
 *
 * @param card The agent card, from a source the caller trusts (its own configuration, or a fetch
 * of the seller's well-known URL), never from a task payload.
 * @returns The hosts, deduplicated, in card order.
 * @throws {AgentProtocolError} With reason `"agent_card"` when a list of the card holds more than
 * 256 entries (as `A2AClient` refuses such a card).
 *
 * @example Seeding from a 1.0 card
 * ```ts
 * import { agentCardAuthHosts } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(
 *   agentCardAuthHosts({
 *     supportedInterfaces: [
 *       { url: "https://sales.example.com/", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *       { url: "http://127.0.0.1:8080/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *     ],
 *     authOrigin: "https://auth.sales.example.com:8443",
 *   }),
 *   ["sales.example.com", "auth.sales.example.com:8443"],
 * );
 * ```
 */
export function agentCardAuthHosts(card: unknown): string[] {
  // A Set: a card may list any number of hosts, and each is seen once in O(1).
  const hosts = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value !== "string") return;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return;
    }
    if (url.protocol !== "https:" || url.hostname === "" || url.hostname.endsWith(".")) return;
    if (url.username !== "" || url.password !== "") return;
    // Only plain host characters, so every entry is one validateSellerUrl accepts.
    if (!/^[a-z0-9.\-:\[\]]+$/.test(url.host)) return;
    hosts.add(url.host);
  };
  if (!isObject(card)) return [];
  checkCardLists(card);
  for (const key of ["supportedInterfaces", "additionalInterfaces"]) {
    const list = own(card, key);
    if (!Array.isArray(list)) continue;
    for (const entry of list) if (isObject(entry)) add(own(entry, "url"));
  }
  add(own(card, "url"));
  const origin = own(card, "authOrigin");
  if (Array.isArray(origin)) origin.forEach(add);
  else add(origin);
  const capabilities = own(card, "capabilities");
  const extensions = isObject(capabilities) ? own(capabilities, "extensions") : undefined;
  if (Array.isArray(extensions)) {
    for (const extension of extensions) {
      const params = isObject(extension) ? own(extension, "params") : undefined;
      if (isObject(params)) add(own(params, "authOrigin"));
    }
  }
  return [...hosts];
}
