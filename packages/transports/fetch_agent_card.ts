import { describe } from "./_describe.ts";
import {
  bodyKind,
  Call,
  callLimits,
  discard,
  fetchWithin,
  functionOption,
  httpUrl,
  isObject,
  objectOption,
  readJsonWithin,
} from "./_rpc.ts";
import type { FetchLike } from "./bounded_fetch.ts";
import { AgentProtocolError } from "./errors.ts";
import type { ResponseLimits } from "./limits.ts";

/**
 * Options of {@linkcode fetchAgentCard}.
 *
 * @example Sending credentials, under a tighter byte cap
 * ```ts
 * import { fetchAgentCard, type FetchAgentCardOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 *
 * const url = "https://agent.example/.well-known/agent-card.json";
 * const options: FetchAgentCardOptions = {
 *   headers: { authorization: "Bearer demo-token" },
 *   limits: { maxResponseBytes: 64 },
 *   fetch: (_input, init) => {
 *     const authorized = new Headers(init?.headers).get("authorization") === "Bearer demo-token";
 *     return Promise.resolve(Response.json({ name: authorized ? "Demo" : "Public" }));
 *   },
 * };
 * deepStrictEqual(await fetchAgentCard(url, options), { name: "Demo" });
 * await rejects(fetchAgentCard(url, { ...options, limits: { maxResponseBytes: 8 } }), {
 *   code: "RESPONSE_TOO_LARGE",
 * });
 * ```
 */
export interface FetchAgentCardOptions {
  /**
   * Headers sent with the request.
   * @default {{}}
   */
  readonly headers?: HeadersInit | undefined;
  /**
   * Limits of the read (one call layer; see {@linkcode resolveLimits}).
   * @default {{}}
   */
  readonly limits?: ResponseLimits | undefined;
  /**
   * The `fetch` to use.
   * @default {globalThis.fetch}
   */
  readonly fetch?: FetchLike | undefined;
}

/**
 * Fetches an A2A agent card (`/.well-known/agent-card.json`) under the same bounds as every other
 * agent response: byte cap, deadline, JSON depth and node count. It only reads: the card is
 * seller-controlled JSON for {@linkcode A2AClient}, which validates what it uses.
 *
 * @param url The card URL (`https:`, or `http:` for local agents).
 * @param options Headers, limits and `fetch`.
 * @returns The card object.
 * @throws {AgentProtocolError} With reason `"http_status"` for a non-2xx status, `"content_type"`
 * for a body that is not JSON, `"agent_card"` for JSON that is not an object.
 * @throws {AdcpTransportError} For size, deadline and JSON failures.
 * @throws {TypeError} When `url` is not an absolute `http:`/`https:` URL or an option has the
 * wrong type.
 *
 * @example Fetching a card from an in-process agent
 * ```ts
 * import { A2AClient, fetchAgentCard } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const card = {
 *   name: "Demo",
 *   supportedInterfaces: [{ url: "http://127.0.0.1:9/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
 * };
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json(card));
 * try {
 *   const fetched = await fetchAgentCard(`http://127.0.0.1:${server.addr.port}/.well-known/agent-card.json`);
 *   strictEqual(new A2AClient(fetched).endpoint, "http://127.0.0.1:9/a2a");
 * } finally {
 *   await server.shutdown();
 * }
 * ```
 */
export async function fetchAgentCard(
  url: string | URL,
  options: FetchAgentCardOptions = {},
): Promise<Record<string, unknown>> {
  const href = httpUrl(url);
  objectOption("options", options);
  objectOption("options.limits", options.limits);
  const fetchImpl = functionOption("options.fetch", options.fetch);
  const headers = new Headers(options.headers);
  headers.set("accept", "application/json");
  const call = new Call(callLimits(undefined, undefined, options.limits));
  try {
    const response = await fetchWithin(fetchImpl, href, { method: "GET", headers }, call);
    if (response.status < 200 || response.status > 299) {
      await discard(response);
      throw new AgentProtocolError(
        "http_status",
        "a 2xx status",
        `HTTP ${response.status}`,
        response.status,
      );
    }
    if (bodyKind(response) !== "json") {
      await discard(response);
      throw new AgentProtocolError("content_type", "application/json", "another Content-Type");
    }
    const card = await readJsonWithin(response, call);
    if (!isObject(card)) {
      throw new AgentProtocolError("agent_card", "a JSON object", describe(card));
    }
    return card;
  } finally {
    call.dispose();
  }
}
