// Options every client shares: where to send, what to send with each request, how far to read,
// and whether to retry.
import type { RetryPolicy, RetryPolicyOptions } from "@adcp-wire/recovery";
import type { ClientLimits } from "./limits.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";
import type { RequestSigningOption } from "./_signing.ts";

/**
 * Whether and how a client retries transient AdCP errors: `false` (never), `true` (the default
 * policy of `@adcp-wire/recovery`: at most 3 retries within 300 s, `retry_after` honoured), or a
 * policy or policy options.
 */
export type RetryOption = boolean | RetryPolicy | RetryPolicyOptions;

/**
 * The options `McpClient` and `A2AClient` share. The limits come in three layers, each over the one
 * before: `defaultLimits` (client-wide, byte caps at most 4 MiB), `agentLimits` (this agent, may
 * raise the byte caps) and the `limits` of one call.
 */
export interface ClientOptions {
  /**
   * Headers sent with every request (for example `Authorization`). The client sets the protocol
   * headers itself, and `Accept-Encoding: identity` unless this sets `Accept-Encoding`. A value the
   * `Headers` constructor refuses is a `TypeError` that never shows a header value. Default: none.
   */
  readonly headers?: HeadersInit | undefined;
  /**
   * Client-wide limits, under `agentLimits` and per-call limits. Byte caps at most 4 MiB. Default:
   * the built-in limits.
   */
  readonly defaultLimits?: ClientLimits | undefined;
  /**
   * Limits for this agent, over `defaultLimits`; may raise the byte caps above 4 MiB. Default: none
   * of its own.
   */
  readonly agentLimits?: ClientLimits | undefined;
  /**
   * The `fetch` to use.
   * @default {globalThis.fetch}
   */
  readonly fetch?: FetchLike | undefined;
  /**
   * Retry transient AdCP errors with `withRetry` of `@adcp-wire/recovery`, honouring
   * `retry_after` and the retry budget. Checked, and made into a policy, when the client is
   * created.
   * @default {false}
   */
  readonly retry?: RetryOption | undefined;
  /**
   * Signs every outgoing request with the AdCP RFC 9421 request profile: a `RequestSigner` of
   * `@adcp-wire/signing`, over this client's `fetch`. Each attempt, page and reconnect is signed
   * anew (fresh nonce, `created` now), over the exact bytes sent. Default: unsigned.
   */
  readonly signer?: RequestSigningOption | undefined;
  /**
   * Allows `http:` URLs on hosts other than loopback: the MCP endpoint, the A2A card's URL, and
   * the card's interfaces on the hosts of `allowedHosts`. Without it such a URL is a `TypeError`
   * (Security, "Request Safety", step 1: reject non-HTTPS), because headers such as
   * `Authorization` would travel in clear. `http:` on loopback (`localhost`, 127.0.0.0/8,
   * `[::1]`) is always allowed. For local development only.
   * @default {false}
   */
  readonly allowHttp?: boolean | undefined;
}

/** The options of one call that every client shares. */
export interface CallOptions {
  /**
   * Limits of this call, over the agent's and the client's. Default: none of its own.
   */
  readonly limits?: ClientLimits | undefined;
}
