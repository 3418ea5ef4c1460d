import {
  type A2AExtractOptions,
  type A2AResponseOutcome,
  type AdcpError,
  DataPartTooLargeError,
  extractAdcpErrorFromMcpError,
  handleA2AResponse,
  UnexpectedPartCountError,
  WrapperDetectedError,
} from "@adcp-wire/core";
import { decideRecovery, type RecoveryDecision } from "@adcp-wire/recovery";
import {
  type A2AWireVersion,
  type CardPolicy,
  checkCardLists,
  normalizeHostEntries,
  selectInterface,
} from "./_agent_card.ts";
import { validateSellerUrl } from "@adcp-wire/security";
import { describe } from "../_describe.ts";
import {
  asRpcResponse,
  bodyKind,
  booleanOption,
  Call,
  CallerError,
  callLimits,
  countOption,
  discard,
  errorStatusResponse,
  fetchWithin,
  functionOption,
  httpUrl,
  isObject,
  type JsonObject,
  objectOption,
  own,
  ownString,
  parseEventData,
  readJsonWithin,
  type RpcErrorObject,
  type RpcResponse,
  safeRpcMessage,
} from "../client/_rpc.ts";
import { runWithRetry } from "../client/_retry.ts";
import type { RetryOption } from "../mcp/client.ts";
import {
  agentCardAuthHosts,
  type AuthChallengeCheck,
  checkAuthChallenge,
} from "../client/auth_challenge.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";
import { AgentProtocolError, ItemLimitError, ResponseTooLargeError } from "../errors.ts";
import { FetchedAgentCard } from "./fetch_agent_card.ts";
import { keyedArgs } from "../client/_idempotency.ts";
import type { ClientLimits, ResolvedClientLimits } from "../read/limits.ts";
import { readSseEvents } from "../read/sse.ts";

/**
 * The AdCP A2A Profile Extension v3 URI, sent in `A2A-Extensions` by default.
 *
 * @example The header every request carries
 * ```ts
 * import { A2AClient, ADCP_A2A_PROFILE } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * strictEqual(ADCP_A2A_PROFILE, "https://adcontextprotocol.org/extensions/adcp/v3");
 * const card = {
 *   supportedInterfaces: [
 *     { url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *   ],
 * };
 * const sent: (string | null)[] = [];
 * const message = { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "Hello" }] };
 * const client = new A2AClient(card, {
 *   cardUrl: "https://a.example/.well-known/agent-card.json",
 *   fetch: (_input, init) => {
 *     sent.push(new Headers(init?.headers).get("a2a-extensions"));
 *     return Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: { message } }));
 *   },
 * });
 * await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
 * deepStrictEqual(sent, [ADCP_A2A_PROFILE]);
 * ```
 */
export const ADCP_A2A_PROFILE = "https://adcontextprotocol.org/extensions/adcp/v3";

const FINAL_STATES: ReadonlySet<string> = new Set(["completed", "failed", "canceled", "rejected"]);
const INTERRUPTED_STATES: ReadonlySet<string> = new Set(["input-required", "auth-required"]);

/**
 * The A2A wire version an {@linkcode A2AClient} speaks: `"1.0"` (ProtoJSON) or `"0.3"`.
 *
 * @example Preferring v0.3 when the card offers both
 * ```ts
 * import { A2AClient, type A2AProtocolVersion } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const client = new A2AClient({
 *   supportedInterfaces: [
 *     { url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *     { url: "https://a.example/v03", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
 *   ],
 * }, { protocolVersion: "0.3", cardUrl: "https://a.example/.well-known/agent-card.json" });
 * const version: A2AProtocolVersion = client.protocolVersion;
 * strictEqual(version, "0.3");
 * strictEqual(client.endpoint, "https://a.example/v03");
 * strictEqual(client.invocation("get_products", {}).role, "user");
 * ```
 */
export type A2AProtocolVersion = A2AWireVersion;

/**
 * Options of {@linkcode A2AClient}.
 *
 * @example Credentials, an auth host from configuration, and an in-process `fetch`
 * ```ts
 * import { A2AClient, type A2AClientOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const card = {
 *   supportedInterfaces: [
 *     { url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *   ],
 * };
 * const sent: (string | null)[] = [];
 * const message = { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "Hello" }] };
 * const options: A2AClientOptions = {
 *   headers: { authorization: "Bearer token-1" },
 *   authHosts: ["login.example.com"],
 *   fetch: (_input, init) => {
 *     sent.push(new Headers(init?.headers).get("authorization"));
 *     return Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: { message } }));
 *   },
 * };
 * const client = new A2AClient(card, { ...options, cardUrl: "https://a.example/" });
 * deepStrictEqual(client.authHosts, ["a.example", "login.example.com"]);
 * await client.sendMessage(client.invocation("get_products", {}));
 * deepStrictEqual(sent, ["Bearer token-1"]);
 * ```
 */
export interface A2AClientOptions {
  /**
   * Headers sent with every request (for example `Authorization`). The client sets
   * `Content-Type`, `Accept`, `A2A-Version` and the extensions header itself, and
   * `Accept-Encoding: identity` unless this sets `Accept-Encoding`.
   * @default {{}}
   */
  readonly headers?: HeadersInit | undefined;
  /**
   * Client-wide limits (at most 4 MiB per response); see {@linkcode resolveLimits}.
   * @default {{}}
   */
  readonly defaults?: ClientLimits | undefined;
  /**
   * Limits for this agent; may raise the byte caps above 4 MiB.
   * @default {{}}
   */
  readonly agent?: ClientLimits | undefined;
  /**
   * The `fetch` to use.
   * @default {globalThis.fetch}
   */
  readonly fetch?: FetchLike | undefined;
  /**
   * The wire version to use when the card offers both.
   * @default {"1.0"}
   */
  readonly protocolVersion?: A2AProtocolVersion | undefined;
  /**
   * Extension URIs activated on every request (`A2A-Extensions` for 1.0, `X-A2A-Extensions` for
   * v0.3).
   * @default {[ADCP_A2A_PROFILE]}
   */
  readonly extensions?: readonly string[] | undefined;
  /**
   * Hosts from the caller's configuration added to the auth-challenge allow-list, beside those
   * the card seeds ({@linkcode agentCardAuthHosts}).
   * @default {[]}
   */
  readonly authHosts?: readonly string[] | undefined;
  /**
   * Retry transient AdCP errors, network failures and transient HTTP statuses with `withRetry` of
   * `@adcp-wire/recovery`, honouring `retry_after` (or `Retry-After`) and the retry budget. Every
   * attempt resends the same bytes (the same `messageId`); give mutating inputs an
   * `idempotency_key` ({@linkcode withIdempotencyKey}).
   * @default {false}
   */
  readonly retry?: RetryOption | undefined;
  /**
   * The URL the card was fetched from, when `agentCard` is a plain card; its origin is where the
   * card's interfaces may point. A {@linkcode FetchedAgentCard} carries its own.
   * @default {undefined}
   */
  readonly cardUrl?: string | URL | undefined;
  /**
   * Other https hosts the card's interfaces may name (`host`, `host:port`, or `*.domain` for any
   * strict subdomain). Without `cardUrl`, the only hosts allowed.
   * @default {[]}
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /**
   * Allows `http:` interfaces on the hosts of `allowedHosts`. For local development only.
   * @default {false}
   */
  readonly allowHttp?: boolean | undefined;
  /**
   * Allows interfaces on loopback, private, link-local and other reserved addresses (and
   * `localhost`) of `allowedHosts`. For local development only.
   * @default {false}
   */
  readonly allowReservedAddresses?: boolean | undefined;
}

/**
 * One frame of a streamed answer, as passed to `onEvent`.
 *
 * @example Watching a task stream to completion
 * ```ts
 * import { A2AClient, type A2AStreamEvent } from "@adcp-wire/transports";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const card = {
 *   supportedInterfaces: [
 *     { url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *   ],
 * };
 * const ids = { taskId: "t1", contextId: "c1" };
 * const artifact = { artifactId: "r", parts: [{ data: { products: [] } }] };
 * const frames = [
 *   { statusUpdate: { ...ids, status: { state: "TASK_STATE_WORKING" } } },
 *   { artifactUpdate: { ...ids, artifact } },
 *   { statusUpdate: { ...ids, status: { state: "TASK_STATE_COMPLETED" } } },
 * ];
 * const sse = frames
 *   .map((result) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result })}\n\n`)
 *   .join("");
 * const headers = { "content-type": "text/event-stream" };
 * const client = new A2AClient(card, {
 *   cardUrl: "https://a.example/.well-known/agent-card.json",
 *   fetch: () => Promise.resolve(new Response(sse, { headers })),
 * });
 * const events: A2AStreamEvent[] = [];
 * const result = await client.sendStreamingMessage(client.invocation("get_products", {}), {
 *   onEvent: (event) => events.push(event),
 * });
 * deepStrictEqual(events.map((event) => [event.type, event.state]), [
 *   ["statusUpdate", "working"],
 *   ["artifactUpdate", null],
 *   ["statusUpdate", "completed"],
 * ]);
 * deepStrictEqual(result.kind === "success" && result.data, { products: [] });
 * ```
 */
export interface A2AStreamEvent {
  /** Which `StreamResponse` branch (v0.3 `kind` values are mapped onto the same names). */
  readonly type: "task" | "message" | "statusUpdate" | "artifactUpdate";
  /** The frame's object, raw (seller-controlled). */
  readonly frame: Record<string, unknown>;
  /** The normalized task state the frame carries, or `null` (an `artifactUpdate`, a message). */
  readonly state: string | null;
  /**
   * `handleA2AResponse` of the frame for `task` and `statusUpdate` frames (interim data is the
   * first DataPart of `status.message.parts`; a wrapper is `"malformed"`), otherwise `undefined`.
   */
  readonly outcome: A2AOutcome | undefined;
}

/**
 * Options of one {@linkcode A2AClient} call.
 *
 * @example A tighter byte cap for one call
 * ```ts
 * import { A2AClient, type A2ACallOptions, ResponseTooLargeError } from "@adcp-wire/transports";
 * import { rejects } from "node:assert/strict";
 *
 * const card = {
 *   supportedInterfaces: [
 *     { url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *   ],
 * };
 * const message = { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "x".repeat(2_000) }] };
 * const client = new A2AClient(card, {
 *   cardUrl: "https://a.example/.well-known/agent-card.json",
 *   fetch: () => Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: { message } })),
 * });
 * const options: A2ACallOptions = { limits: { maxResponseBytes: 1_024, timeoutMs: 5_000 } };
 * const call = client.sendMessage(client.invocation("get_products", {}), options);
 * await rejects(call, ResponseTooLargeError);
 * ```
 */
export interface A2ACallOptions {
  /**
   * Limits for this call, over the agent's and the client's. The deadline covers the whole call,
   * the whole stream included.
   * @default {{}}
   */
  readonly limits?: ClientLimits | undefined;
  /**
   * Called with each frame of a streamed answer, in order (streaming only).
   * @default {undefined}
   */
  readonly onEvent?: ((event: A2AStreamEvent) => void) | undefined;
  /**
   * The number of DataParts the result's parts must hold (`artifacts[0].parts` of a final task,
   * else `status.message.parts`); another number makes the result `"malformed"` with an
   * `UnexpectedPartCountError`. Set it when an intermediary could inject parts (A2A Response
   * Extraction, Security Considerations, Intermediary Injection).
   * @default {undefined}
   */
  readonly expectedDataParts?: number | undefined;
}

/**
 * Where a result stands: the task it came from, when there was one.
 *
 * @example A task the agent returned while still working
 * ```ts
 * import { A2AClient, type A2ATaskContext } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const card = {
 *   supportedInterfaces: [
 *     { url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *   ],
 * };
 * const task = { id: "task_9", contextId: "ctx_9", status: { state: "TASK_STATE_WORKING" } };
 * const client = new A2AClient(card, {
 *   cardUrl: "https://a.example/.well-known/agent-card.json",
 *   fetch: () => Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: { task } })),
 * });
 * const message = client.invocation("create_media_buy", {});
 * const { taskId, contextId, state }: A2ATaskContext = await client.sendMessage(message);
 * deepStrictEqual({ taskId, contextId, state }, {
 *   taskId: "task_9",
 *   contextId: "ctx_9",
 *   state: "working",
 * });
 * ```
 */
export interface A2ATaskContext {
  /** The task the result was extracted from (accumulated for a stream), or `undefined`. */
  readonly task: Record<string, unknown> | undefined;
  /** The normalized state (`completed`, `auth-required`, ...; unknown values as sent), or `null`. */
  readonly state: string | null;
  /** The task id, when it is a string. */
  readonly taskId: string | undefined;
  /** The context id, when it is a string. */
  readonly contextId: string | undefined;
}

/**
 * What an {@linkcode A2AClient} call returned, with the task it came from:
 *
 * - `"success"`, `"text"` (with `isError: true` for a failed or rejected task without a valid
 *   structured error): as `handleA2AResponse` of `@adcp-wire/core` classifies the task;
 * - `"malformed"`: the task's final DataPart is a `{ response: {...} }` framework wrapper (the
 *   `WrapperDetectedError` that `handleA2AResponse` throws, reported instead of thrown so that a
 *   buggy seller cannot make a call throw anything but a transport error);
 * - `"error"`: a valid AdCP structured error (from an artifact, the status message, or a
 *   JSON-RPC error's `error.data.adcp_error`), with its recovery decision;
 * - `"auth_required"`: the task is `auth-required`; `challenge` is its challenge checked by
 *   {@linkcode checkAuthChallenge} against the card-seeded allow-list (an invalid one is reported,
 *   never followed), `data` the raw challenge DataPart;
 * - `"message"`: the agent answered with a Message, not a task (`text` is its TextParts);
 * - `"jsonrpc_error"`: a JSON-RPC error without an `adcp_error`.
 *
 * @example A failed task carrying a rate-limit error
 * ```ts
 * import { A2AClient, type A2ACallResult, adcpFailedTask } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const card = {
 *   supportedInterfaces: [
 *     { url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *   ],
 * };
 * const task = adcpFailedTask(
 *   { id: "t1", contextId: "c1" },
 *   { code: "RATE_LIMITED", message: "Slow down", retry_after: 5 },
 * );
 * const client = new A2AClient(card, {
 *   cardUrl: "https://a.example/.well-known/agent-card.json",
 *   fetch: () => Promise.resolve(Response.json({ jsonrpc: "2.0", id: 1, result: { task } })),
 * });
 * const result: A2ACallResult = await client.sendMessage(client.invocation("get_products", {}));
 * if (result.kind !== "error") throw new Error(`Expected an error, got ${result.kind}`);
 * strictEqual(result.state, "failed");
 * strictEqual(result.path, "artifact");
 * strictEqual(result.decision.action === "retry" && result.decision.delaySeconds, 5);
 * ```
 */
export type A2ACallResult =
  & A2ATaskContext
  & (
    | Exclude<A2AOutcome, { readonly kind: "error" }>
    | {
      readonly kind: "error";
      readonly error: AdcpError;
      readonly path: "artifact" | "status_message" | "jsonrpc_error";
      readonly decision: RecoveryDecision;
    }
    | {
      readonly kind: "auth_required";
      readonly challenge: AuthChallengeCheck;
      readonly data: Record<string, unknown> | null;
    }
    | {
      readonly kind: "message";
      readonly message: Record<string, unknown>;
      readonly text: string;
    }
    | {
      readonly kind: "jsonrpc_error";
      readonly rpcCode: number;
      readonly rpcMessage: string;
      readonly data: unknown;
    }
  );

/** One serialized JSON-RPC request: sent as `body`, byte for byte, on every attempt. */
interface RpcRequest {
  readonly id: number;
  readonly body: string;
}

/**
 * Options of {@linkcode A2AClient.invocation}.
 *
 * @example A keyed invocation
 * ```ts
 * import { A2AClient, type A2AInvocationOptions } from "@adcp-wire/transports";
 * import { strictEqual } from "node:assert/strict";
 *
 * const card = {
 *   supportedInterfaces: [{ url: "https://sales.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
 * };
 * const client = new A2AClient(card, { cardUrl: "https://sales.example/.well-known/agent-card.json" });
 * const options: A2AInvocationOptions = { idempotencyKey: "5f0c8a5e-2a0b-4d5e-9c1a-8f7e6d5c4b3a" };
 * const message = client.invocation("create_media_buy", { buyer_ref: "c-7" }, options);
 * const parts = message.parts as { data: { input: { idempotency_key: string } } }[];
 * strictEqual(parts[0]?.data.input.idempotency_key, options.idempotencyKey);
 * ```
 */
export interface A2AInvocationOptions {
  /**
   * Adds an `idempotency_key` to the input: `true` for a fresh UUID v4, or the key to use. An
   * `idempotency_key` already in the input is kept. See {@linkcode withIdempotencyKey}.
   * @default {false}
   */
  readonly idempotencyKey?: boolean | string | undefined;
}

/** Whether `value` is an absolute URI (an extension identifier). */
function isExtensionUri(value: unknown): boolean {
  // Visible ASCII only: the URIs travel in a header, joined by commas.
  if (typeof value !== "string" || !/^[\x21-\x7e]+$/.test(value) || value.includes(",")) {
    return false;
  }
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

type Frame = { readonly type: A2AStreamEvent["type"]; readonly value: JsonObject };

const NO_TASK: A2ATaskContext = {
  task: undefined,
  state: null,
  taskId: undefined,
  contextId: undefined,
};

/**
 * A thin A2A client over JSON-RPC that keeps the wire objects as they are: A2A 1.0 (ProtoJSON,
 * `SendMessage`, `SendStreamingMessage`, `GetTask`, `TASK_STATE_*`, parts without `kind`), or v0.3
 * (`message/send`, `message/stream`, `tasks/get`, `kind` fields) when the agent card offers only
 * that. No SDK is involved; the methods and shapes are those `@a2a-js/sdk` 1.3.0 serves.
 *
 * - Interface: the card's JSON-RPC interface for the preferred version (1.0 by default), from
 *   `supportedInterfaces[]`, or the v0.3 root `url` / `additionalInterfaces[]`, bound to the
 *   origin the card came from or an `https:` host in `allowedHosts` that is not a reserved address
 *   (Security, "Webhook URL validation (SSRF)", steps 1 and 2). Every request carries
 *   `A2A-Version` and the AdCP profile in `A2A-Extensions` (A2A Guide, "A2A Client Setup").
 * - Extraction (A2A Response Extraction): a task is classified by `handleA2AResponse` of
 *   `@adcp-wire/core`, so interim states read the first DataPart of `status.message.parts` and
 *   final states the last DataPart of `artifacts[0]`.
 * - Streaming: `artifactUpdate` frames are accumulated into their artifact (`append: true`
 *   concatenates parts, otherwise the artifact is replaced), and extraction runs only once a
 *   `task` or `statusUpdate` frame brings a final (`completed`, `failed`, `canceled`,
 *   `rejected`) or interrupted (`input-required`, `auth-required`) state; the stream is then
 *   closed. A final `task` frame with artifacts is taken as it is; one without gets the
 *   accumulated artifacts (A2A Guide, "Envelope semantics").
 * - Auth challenges: the allow-list is seeded from the card ({@linkcode agentCardAuthHosts}) and
 *   the `authHosts` option, never from the payload; see {@linkcode A2ACallResult}.
 * - Bounds: every response is read under the call over the agent over the client limits
 *   ({@linkcode ClientLimits}); one deadline and one byte budget per call, over every frame of a
 *   stream; `maxEvents`, `maxArtifacts` and `maxParts` cap what a stream accumulates; redirects
 *   are refused ({@linkcode RedirectRefusedError}). Requests ask for
 *   `Accept-Encoding: identity` (unless `headers` sets it), so the bytes counted are the bytes
 *   received; a compressed answer anyway is refused ({@linkcode ContentEncodingError},
 *   `"not_requested"`).
 * - Errors: JSON-RPC errors are result members; transport failures throw the
 *   {@linkcode AdcpTransportError} family.
 *
 * @example Sending an AdCP invocation
 * ```ts ignore
 * const card = await fetchAgentCard("https://sales.example.com/.well-known/agent-card.json");
 * const client = new A2AClient(card); // bound to https://sales.example.com
 * const result = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
 * if (result.kind === "success") console.log(result.data);
 * ```
 */
export class A2AClient {
  /** The JSON-RPC endpoint in use. */
  readonly endpoint: string;
  /** The wire version in use. */
  readonly protocolVersion: A2AProtocolVersion;
  /** The auth-challenge allow-list: card-seeded hosts, then `authHosts`. */
  readonly authHosts: readonly string[];
  readonly #headers: Headers;
  readonly #defaults: ClientLimits | undefined;
  readonly #agent: ClientLimits | undefined;
  readonly #fetch: FetchLike | undefined;
  readonly #retry: RetryOption | undefined;
  #nextId = 1;

  /**
   * Creates a client for the agent an agent card describes. Nothing is sent yet.
   *
   * @param agentCard What {@linkcode fetchAgentCard} returned, or a parsed card (then give
   * `options.cardUrl`).
   * @param options Headers, limits, `fetch`, version preference, extensions, auth hosts, the card
   * binding (`cardUrl`, `allowedHosts`, `allowHttp`, `allowReservedAddresses`), retry.
   * @throws {AgentProtocolError} With reason `"agent_card"` when the card has no JSON-RPC
   * interface the binding allows.
   * @throws {TypeError} When an option has the wrong type, or a host, URL or extension entry is
   * malformed.
   * @throws {RangeError} When a limit is out of range.
   *
   * @example Choosing the interface
   * ```ts
   * import { A2AClient } from "@adcp-wire/transports";
   * import { deepStrictEqual, strictEqual } from "node:assert/strict";
   *
   * const client = new A2AClient({
   *   supportedInterfaces: [
   *     { url: "https://sales.example.com/", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
   *     { url: "https://sales.example.com/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
   *   ],
   * }, { cardUrl: "https://sales.example.com/.well-known/agent-card.json" });
   * strictEqual(client.endpoint, "https://sales.example.com/a2a");
   * strictEqual(client.protocolVersion, "1.0");
   * deepStrictEqual(client.authHosts, ["sales.example.com"]);
   * ```
   */
  constructor(
    agentCard: FetchedAgentCard | Record<string, unknown>,
    options: A2AClientOptions = {},
  ) {
    objectOption("options", options);
    let card: unknown = agentCard;
    let cardUrl = options.cardUrl;
    if (agentCard instanceof FetchedAgentCard) {
      card = agentCard.card;
      cardUrl ??= agentCard.url;
    }
    const policy: CardPolicy = {
      origin: cardUrl === undefined ? undefined : new URL(httpUrl(cardUrl)).origin,
      allowedHosts: normalizeHostEntries("options.allowedHosts", options.allowedHosts),
      allowHttp: booleanOption("options.allowHttp", options.allowHttp),
      allowReservedAddresses: booleanOption(
        "options.allowReservedAddresses",
        options.allowReservedAddresses,
      ),
    };
    objectOption("options.defaults", options.defaults);
    objectOption("options.agent", options.agent);
    callLimits(options.defaults, options.agent, undefined);
    const prefer = options.protocolVersion;
    if (prefer !== undefined && prefer !== "1.0" && prefer !== "0.3") {
      throw new TypeError(
        `Expected options.protocolVersion to be "1.0" or "0.3", got ${describe(prefer)}`,
      );
    }
    checkCardLists(card);
    const chosen = selectInterface(card, prefer, policy);
    this.endpoint = chosen.url;
    this.protocolVersion = chosen.version;
    const extensions = options.extensions ?? [ADCP_A2A_PROFILE];
    if (!Array.isArray(extensions) || extensions.some((uri) => !isExtensionUri(uri))) {
      throw new TypeError(
        `Cannot use options.extensions as it is not an array of absolute URIs: ${
          describe(extensions)
        }`,
      );
    }
    const authHosts = options.authHosts ?? [];
    if (!Array.isArray(authHosts)) {
      throw new TypeError(
        `Cannot use options.authHosts as it is not an array of hosts: ${describe(authHosts)}`,
      );
    }
    // Every caller entry is checked now, one by one, so a bad one fails here and not at the first
    // auth-required answer.
    authHosts.forEach((host, index) => {
      try {
        validateSellerUrl("https://example.invalid/", {
          purpose: "challenge_url",
          allowedHosts: [host],
        });
      } catch (error) {
        if (error instanceof TypeError || error instanceof RangeError) {
          throw new TypeError(
            `Cannot use options.authHosts[${index}] as it is not a host: ${describe(host)}`,
          );
        }
      }
    });
    this.authHosts = Object.freeze([...new Set([...agentCardAuthHosts(card), ...authHosts])]);
    this.#headers = new Headers(options.headers);
    this.#headers.set("a2a-version", this.protocolVersion);
    if (extensions.length > 0) {
      this.#headers.set(
        this.protocolVersion === "1.0" ? "a2a-extensions" : "x-a2a-extensions",
        extensions.join(","),
      );
    }
    this.#defaults = options.defaults;
    this.#agent = options.agent;
    this.#fetch = functionOption("options.fetch", options.fetch);
    this.#retry = options.retry;
  }

  /**
   * Builds an AdCP profile invocation message in this client's wire version: one DataPart
   * `{ skill, input }` (A2A Guide, "Profile Invocation Messages"), role `ROLE_USER` (1.0) or
   * `user` with `kind` fields (v0.3), and a fresh `messageId`.
   *
   * @param skill The AdCP skill (task name).
   * @param input The task input.
   * @returns The wire message.
   * @throws {TypeError} When `skill` is not a non-empty string or `input` not an object.
   *
   * @example A 1.0 invocation
   * ```ts
   * import { A2AClient } from "@adcp-wire/transports";
   * import { deepStrictEqual } from "node:assert/strict";
   *
   * const client = new A2AClient({
   *   supportedInterfaces: [{ url: "https://a.example/", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
   * }, { cardUrl: "https://a.example/" });
   * const message = client.invocation("get_products", { brief: "CTV" });
   * deepStrictEqual(message.parts, [{ data: { skill: "get_products", input: { brief: "CTV" } } }]);
   * deepStrictEqual(message.role, "ROLE_USER");
   * ```
   */
  invocation(
    skill: string,
    input: Record<string, unknown>,
    options?: A2AInvocationOptions,
  ): Record<string, unknown> {
    if (typeof skill !== "string" || skill === "") {
      throw new TypeError(`Expected skill to be a non-empty string, got ${describe(skill)}`);
    }
    if (!isObject(input)) {
      throw new TypeError(`Expected input to be an object, got ${describe(input)}`);
    }
    objectOption("options", options);
    const data = { skill, input: keyedArgs(input, options?.idempotencyKey) };
    return this.protocolVersion === "1.0"
      ? { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data }] }
      : {
        kind: "message",
        messageId: crypto.randomUUID(),
        role: "user",
        parts: [{ kind: "data", data }],
      };
  }

  /**
   * Sends a message and waits for the agent's answer (`SendMessage`, v0.3 `message/send`): the
   * task in the state the agent returned it (final or interrupted, or any state when the agent
   * returns early), classified as {@linkcode A2ACallResult} says.
   *
   * @param message The wire message (see {@linkcode A2AClient.invocation}); a missing
   * `messageId` is filled in, the same one each time this object is sent.
   * @param options Limits for this call.
   * @returns The classified result.
   * @throws {AdcpTransportError} For size, deadline, JSON and protocol failures.
   * @throws {TypeError} When `message` is not an object.
   *
   * @example Sending a message
   * ```ts ignore
   * const result = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
   * ```
   */
  sendMessage(
    message: Record<string, unknown>,
    options?: A2ACallOptions,
  ): Promise<A2ACallResult> {
    checkMessage(message);
    const limits = this.#limits(options);
    // Serialized once: every retry resends these exact bytes (Security, "Request safety").
    const request = this.#request(this.#method("send"), { message: withId(message) });
    return this.#retrying(limits, async () => {
      const call = new Call(limits);
      try {
        const result = this.#sendResult(
          await this.#post(request, call),
          extractOptions(limits, options),
        );
        call.checkDeadline();
        return result;
      } finally {
        call.dispose();
      }
    });
  }

  /**
   * Sends a message and reads the streamed answer (`SendStreamingMessage`, v0.3
   * `message/stream`) over bounded SSE until a final or interrupted state; see
   * {@linkcode A2AClient} for how frames are accumulated. Every frame is passed to `onEvent`.
   * A bare Message frame is an out-of-band agent message and does not end the call ("task-facing
   * clients SHOULD log and ignore bare `message` envelopes", A2A guide); it is the answer only
   * when the stream ends without any task frame. A frame whose inner value is itself an envelope
   * is refused (envelopes are unwrapped exactly once).
   *
   * @param message The wire message; a missing `messageId` is filled in, the same one each time
   * this object is sent.
   * @param options Limits for the whole stream, and `onEvent`.
   * @returns The classified result of the final or interrupted state (or of the Message, for a
   * stream that carried no task).
   * @throws {AgentProtocolError} With reason `"stream_ended"` when the stream ends first.
   * @throws {AdcpTransportError} For size, deadline, JSON and protocol failures.
   * @throws {TypeError} When `message` is not an object.
   *
   * @example Streaming
   * ```ts ignore
   * const result = await client.sendStreamingMessage(message, {
   *   onEvent: (event) => console.log(event.type, event.state),
   * });
   * ```
   */
  sendStreamingMessage(
    message: Record<string, unknown>,
    options?: A2ACallOptions,
  ): Promise<A2ACallResult> {
    checkMessage(message);
    const onEvent = functionOption("options.onEvent", options?.onEvent);
    const limits = this.#limits(options);
    const request = this.#request(this.#method("stream"), { message: withId(message) });
    return this.#retrying(limits, async () => {
      const call = new Call(limits);
      try {
        const response = await this.#open(request, call, true);
        const extract = extractOptions(limits, options);
        const result = response instanceof Response
          ? await this.#readStream(response, request.id, call, onEvent, extract)
          : this.#sendResult(response, extract);
        call.checkDeadline();
        return result;
      } finally {
        call.dispose();
      }
    });
  }

  /**
   * Reads a task (`GetTask`, v0.3 `tasks/get`) and classifies it.
   *
   * @param taskId The task id.
   * @param options Limits for this call.
   * @returns The classified result.
   * @throws {AdcpTransportError} For size, deadline, JSON and protocol failures.
   * @throws {TypeError} When `taskId` is not a non-empty string.
   *
   * @example Reading a task
   * ```ts ignore
   * const result = await client.getTask("task_456");
   * ```
   */
  getTask(taskId: string, options?: A2ACallOptions): Promise<A2ACallResult> {
    if (typeof taskId !== "string" || taskId === "") {
      throw new TypeError(`Expected taskId to be a non-empty string, got ${describe(taskId)}`);
    }
    const limits = this.#limits(options);
    const request = this.#request(this.#method("get"), { id: taskId });
    return this.#retrying(limits, async () => {
      const call = new Call(limits);
      try {
        const rpc = await this.#post(request, call);
        if (!rpc.ok) return classifyRpcError(rpc.error);
        if (!isObject(rpc.result)) throw invalid("a task object", describe(rpc.result));
        const frame = this.protocolVersion === "1.0" && isEnvelope(rpc.result)
          ? this.#frame(rpc.result, true)
          : { type: "task" as const, value: rpc.result };
        if (frame.type !== "task") throw invalid("a task", `a ${frame.type}`);
        const result = this.#classify(frame.value, extractOptions(limits, options));
        call.checkDeadline();
        return result;
      } finally {
        call.dispose();
      }
    });
  }

  #retrying(
    limits: ResolvedClientLimits,
    attempt: () => Promise<A2ACallResult>,
  ): Promise<A2ACallResult> {
    return runWithRetry(
      attempt,
      this.#retry,
      limits.signal,
      (result) => result.kind === "error" ? result.error : null,
      (result, decision) => result.kind === "error" ? { ...result, decision } : result,
    );
  }

  /** Serializes one JSON-RPC request with a fresh id. */
  #request(method: string, params: JsonObject): RpcRequest {
    const id = this.#nextId++;
    return { id, body: JSON.stringify({ jsonrpc: "2.0", id, method, params }) };
  }

  #limits(options: A2ACallOptions | undefined): ResolvedClientLimits {
    objectOption("options", options);
    objectOption("options.limits", options?.limits);
    countOption("options.expectedDataParts", options?.expectedDataParts, 0);
    return callLimits(this.#defaults, this.#agent, options?.limits);
  }

  #method(operation: "send" | "stream" | "get"): string {
    if (this.protocolVersion === "1.0") {
      return { send: "SendMessage", stream: "SendStreamingMessage", get: "GetTask" }[operation];
    }
    return { send: "message/send", stream: "message/stream", get: "tasks/get" }[operation];
  }

  /** Classifies the answer to a message send: a task, a Message, or a JSON-RPC error. */
  #sendResult(rpc: RpcResponse, extract: A2AExtractOptions): A2ACallResult {
    if (!rpc.ok) return classifyRpcError(rpc.error);
    const frame = this.#frame(rpc.result, true);
    return frame.type === "message"
      ? messageResult(frame.value)
      : this.#classify(frame.value, extract);
  }

  /** POSTs a request and reads a JSON answer. */
  async #post(request: RpcRequest, call: Call): Promise<RpcResponse> {
    const response = await this.#open(request, call, false);
    if (!(response instanceof Response)) return response;
    await discard(response);
    throw new AgentProtocolError("content_type", "application/json", "text/event-stream");
  }

  /** POSTs a request; returns the JSON answer, or the SSE response to read. */
  async #open(request: RpcRequest, call: Call, stream: boolean): Promise<RpcResponse | Response> {
    const id = request.id;
    const headers = new Headers(this.#headers);
    headers.set("content-type", "application/json");
    headers.set("accept", stream ? "text/event-stream, application/json" : "application/json");
    const response = await fetchWithin(this.#fetch, this.endpoint, {
      method: "POST",
      headers,
      body: request.body,
    }, call);
    if (response.status < 200 || response.status > 299) {
      return await errorStatusResponse(response, call);
    }
    const kind = bodyKind(response);
    if (kind === "sse" && stream) return response;
    if (kind !== "json") {
      await discard(response);
      throw new AgentProtocolError(
        "content_type",
        stream ? "text/event-stream or application/json" : "application/json",
        "another Content-Type",
        response.status,
      );
    }
    const value = await readJsonWithin(response, call);
    const rpc = asRpcResponse(value);
    if (rpc === undefined || (rpc.ok && rpc.id !== id)) {
      throw invalid(`a JSON-RPC response with id ${id}`, "none");
    }
    return rpc;
  }

  async #readStream(
    response: Response,
    id: number,
    call: Call,
    onEvent: ((event: A2AStreamEvent) => void) | undefined,
    extract: A2AExtractOptions,
  ): Promise<A2ACallResult> {
    const accumulator = new Accumulator(call.limits);
    const report = onEvent === undefined ? undefined : (event: A2AStreamEvent): void => {
      try {
        onEvent(event);
      } catch (error) {
        throw new CallerError(error);
      }
    };
    try {
      for await (const event of readSseEvents(response, { budget: call.budget })) {
        call.countEvent();
        if (event.data === "") continue;
        const rpc = asRpcResponse(parseEventData(event.data, call));
        if (rpc === undefined) {
          throw invalid("a JSON-RPC response in each SSE event", "another value");
        }
        if (!rpc.ok) return classifyRpcError(rpc.error);
        if (rpc.id !== id) throw invalid(`SSE events for request ${id}`, "another id");
        const done = this.#finish(accumulator, this.#frame(rpc.result, false), report, extract);
        if (done !== undefined) return done;
      }
    } catch (error) {
      if (error instanceof CallerError) throw error.unwrap(); // the caller's own callback threw
      if (call.deadline.expired) throw call.deadline.error;
      throw error; // a transport error as it is (body failures are NetworkError already)
    }
    const message = accumulator.messageOnly();
    if (message !== undefined) return messageResult(message);
    throw new AgentProtocolError(
      "stream_ended",
      "a final or interrupted task state before the SSE stream ended",
      "the end of the stream",
    );
  }

  /** Applies one streamed frame; returns the result once the state is final or interrupted. */
  #finish(
    accumulator: Accumulator,
    frame: Frame,
    onEvent: ((event: A2AStreamEvent) => void) | undefined,
    extract: A2AExtractOptions,
  ): A2ACallResult | undefined {
    const state = frame.type === "task" || frame.type === "statusUpdate"
      ? stateOf(frame.value)
      : null;
    onEvent?.({
      type: frame.type,
      frame: frame.value,
      state,
      outcome: frame.type === "task" || frame.type === "statusUpdate"
        ? classifyA2A(frame.value, { maxDataPartBytes: extract.maxDataPartBytes })
        : undefined,
    });
    // A bare Message is an out-of-band agent message: task-facing clients "SHOULD log and ignore"
    // it (A2A guide, streaming), so it never ends the call; onEvent has reported it. It is the
    // answer only when the stream ends without any task frame (an agent that replied with a
    // Message instead of a task).
    if (frame.type === "message") {
      accumulator.message(frame.value);
      return undefined;
    }
    if (frame.type === "task") accumulator.task(frame.value);
    else if (frame.type === "statusUpdate") accumulator.status(frame.value);
    else accumulator.artifact(frame.value);
    if (state !== null && (FINAL_STATES.has(state) || INTERRUPTED_STATES.has(state))) {
      return this.#classify(accumulator.build(), extract);
    }
    return undefined;
  }

  /** Reads a result object as a frame of this client's wire version. */
  #frame(value: unknown, sendResult: boolean): Frame {
    if (!isObject(value)) throw invalid("a result object", describe(value));
    if (this.protocolVersion === "1.0") {
      const keys = Object.keys(value);
      const key = keys[0];
      const inner = key === undefined ? undefined : own(value, key);
      const allowed = sendResult ? ["task", "message"] : ENVELOPE_KEYS;
      if (keys.length !== 1 || !allowed.includes(key!) || !isObject(inner)) {
        throw invalid(
          sendResult ? "a { task } or { message } result" : "a StreamResponse with one branch",
          "another shape",
        );
      }
      // Unwrapped exactly once: an inner value with an envelope key at its top level is nested
      // envelope smuggling (A2A Response Extraction, step 0: "MUST be rejected").
      if (ENVELOPE_KEYS.some((envelopeKey) => Object.hasOwn(inner, envelopeKey))) {
        throw invalid("a StreamResponse with one branch", "a nested envelope");
      }
      return { type: key as Frame["type"], value: inner };
    }
    const kind = own(value, "kind");
    const type = kind === "task"
      ? "task"
      : kind === "message"
      ? "message"
      : kind === "status-update" && !sendResult
      ? "statusUpdate"
      : kind === "artifact-update" && !sendResult
      ? "artifactUpdate"
      : undefined;
    if (type === undefined) throw invalid("a v0.3 result with a known kind", "another kind");
    return { type, value };
  }

  /** Classifies a task: handleA2AResponse, the auth challenge, and the recovery decision. */
  #classify(task: JsonObject, extract: A2AExtractOptions): A2ACallResult {
    const state = stateOf(task);
    const context: A2ATaskContext = {
      task,
      state,
      taskId: ownString(task, "id") ?? ownString(task, "taskId"),
      contextId: ownString(task, "contextId"),
    };
    const outcome = classifyA2A(task, extract);
    if (outcome.kind === "error") {
      return { ...context, ...outcome, decision: decideRecovery(outcome.error) };
    }
    if (state === "auth-required" && (outcome.kind === "success" || outcome.kind === "text")) {
      const data = outcome.kind === "success" ? outcome.data : null;
      return {
        ...context,
        kind: "auth_required",
        challenge: checkAuthChallenge(data, { allowedHosts: this.authHosts }),
        data,
      };
    }
    return { ...context, ...outcome };
  }
}

/**
 * `handleA2AResponse` of `@adcp-wire/core`, plus `"malformed"` for the wrapper error it throws on a
 * `{ response: {...} }` DataPart (A2A Response Extraction, "Wrapper Rejection").
 *
 * @example A streamed task whose final DataPart is a framework wrapper
 * ```ts
 * import { A2AClient, type A2AOutcome } from "@adcp-wire/transports";
 * import { WrapperDetectedError } from "@adcp-wire/core";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const card = {
 *   supportedInterfaces: [
 *     { url: "https://a.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
 *   ],
 * };
 * const task = {
 *   id: "t1",
 *   contextId: "c1",
 *   status: { state: "TASK_STATE_COMPLETED" },
 *   artifacts: [{ artifactId: "r", parts: [{ data: { response: { products: [] } } }] }],
 * };
 * const sse = `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { task } })}\n\n`;
 * const headers = { "content-type": "text/event-stream" };
 * const client = new A2AClient(card, {
 *   cardUrl: "https://a.example/.well-known/agent-card.json",
 *   fetch: () => Promise.resolve(new Response(sse, { headers })),
 * });
 * const outcomes: (A2AOutcome | undefined)[] = [];
 * const result = await client.sendStreamingMessage(client.invocation("get_products", {}), {
 *   onEvent: (event) => outcomes.push(event.outcome),
 * });
 * ok(outcomes[0]?.kind === "malformed" && outcomes[0].error instanceof WrapperDetectedError);
 * strictEqual(result.kind, "malformed");
 * ```
 */
export type A2AOutcome =
  | A2AResponseOutcome
  | {
    readonly kind: "malformed";
    readonly error: WrapperDetectedError | UnexpectedPartCountError;
  };

/**
 * `handleA2AResponse` under the call's DataPart bounds: a wrapper or an unexpected DataPart count
 * is a `"malformed"` outcome; an oversized DataPart throws (a size bound, as for a body).
 *
 * @throws {ResponseTooLargeError} With phase `"data-part"`.
 */
function classifyA2A(task: unknown, extract: A2AExtractOptions): A2AOutcome {
  try {
    return handleA2AResponse(task, extract);
  } catch (error) {
    if (error instanceof WrapperDetectedError || error instanceof UnexpectedPartCountError) {
      return { kind: "malformed", error };
    }
    if (error instanceof DataPartTooLargeError) {
      throw new ResponseTooLargeError(error.limit, error.observed, "data-part");
    }
    throw error;
  }
}

const ENVELOPE_KEYS: readonly string[] = ["task", "message", "statusUpdate", "artifactUpdate"];

/** Whether a 1.0 result is wrapped in a single-key envelope rather than a bare Task. */
function isEnvelope(value: JsonObject): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && ENVELOPE_KEYS.includes(keys[0]!);
}

/**
 * Accumulates a streamed task: the latest task snapshot and status, and every artifact with its
 * parts (appended in place, so many small chunks cost linear time).
 */
class Accumulator {
  #task: JsonObject | undefined;
  #status: unknown;
  #message: JsonObject | undefined;
  /** Artifacts in arrival order, and by `artifactId` (O(1) per frame whatever the count). */
  readonly #artifacts: { base: JsonObject; parts: unknown[] }[] = [];
  readonly #byId = new Map<unknown, { base: JsonObject; parts: unknown[] }>();
  readonly #maxArtifacts: number;
  readonly #maxParts: number;
  #parts = 0;

  constructor(limits: ResolvedClientLimits) {
    this.#maxArtifacts = limits.maxArtifacts;
    this.#maxParts = limits.maxParts;
  }

  /** Records an out-of-band Message. */
  message(frame: JsonObject): void {
    this.#message = frame;
  }

  /** The last Message, when no task frame of any kind has arrived; else `undefined`. */
  messageOnly(): JsonObject | undefined {
    return this.#task === undefined && this.#status === undefined && this.#artifacts.length === 0
      ? this.#message
      : undefined;
  }

  task(frame: JsonObject): void {
    this.#task = frame;
    this.#status = own(frame, "status");
    const artifacts = own(frame, "artifacts");
    if (Array.isArray(artifacts) && artifacts.length > 0) {
      this.#artifacts.length = 0;
      this.#byId.clear();
      this.#parts = 0;
      for (const artifact of artifacts) if (isObject(artifact)) this.#add(artifact);
    }
  }

  status(frame: JsonObject): void {
    this.#status = own(frame, "status");
    this.#task ??= {
      id: own(frame, "taskId"),
      contextId: own(frame, "contextId"),
    };
  }

  artifact(frame: JsonObject): void {
    const artifact = own(frame, "artifact");
    if (!isObject(artifact)) throw invalid("an artifactUpdate with an artifact", "none");
    this.#task ??= { id: own(frame, "taskId"), contextId: own(frame, "contextId") };
    const id = own(artifact, "artifactId");
    const existing = id === undefined ? undefined : this.#byId.get(id);
    if (existing !== undefined && own(frame, "append") === true) {
      const parts = own(artifact, "parts");
      if (Array.isArray(parts)) {
        this.#countParts(parts.length);
        for (const part of parts) existing.parts.push(part);
      }
      return;
    }
    if (existing !== undefined) {
      const parts = partsOf(artifact);
      this.#countParts(parts.length - existing.parts.length);
      existing.base = artifact;
      existing.parts = parts;
      return;
    }
    this.#add(artifact);
  }

  /** The accumulated task: the latest snapshot, the latest status, the accumulated artifacts. */
  build(): JsonObject {
    const task: JsonObject = { ...this.#task };
    if (this.#status !== undefined) task.status = this.#status;
    if (this.#artifacts.length > 0) {
      task.artifacts = this.#artifacts.map((entry) => ({ ...entry.base, parts: entry.parts }));
    }
    return task;
  }

  #add(artifact: JsonObject): void {
    if (this.#artifacts.length >= this.#maxArtifacts) {
      throw new ItemLimitError("artifacts", this.#maxArtifacts, this.#artifacts.length + 1);
    }
    const entry = { base: artifact, parts: partsOf(artifact) };
    this.#countParts(entry.parts.length);
    this.#artifacts.push(entry);
    const id = own(artifact, "artifactId");
    // Keyed by primitive ids only: an object id never matches (as with `===` before).
    if (id !== undefined && (typeof id !== "object" || id === null) && !this.#byId.has(id)) {
      this.#byId.set(id, entry);
    }
  }

  #countParts(added: number): void {
    const parts = this.#parts += added;
    if (parts > this.#maxParts) throw new ItemLimitError("parts", this.#maxParts, parts);
  }
}

function partsOf(artifact: JsonObject): unknown[] {
  const parts = own(artifact, "parts");
  return Array.isArray(parts) ? [...parts] : [];
}

/**
 * The normalized state of a task or status update: `TASK_STATE_` stripped, lowercased,
 * underscores to hyphens (A2A Response Extraction, step 1), or `null` without a string state.
 * Unknown values are returned as normalized, so callers can log them.
 */
function stateOf(value: JsonObject): string | null {
  const status = own(value, "status");
  const state = isObject(status) ? own(status, "state") : undefined;
  if (typeof state !== "string") return null;
  // ASCII letters only, as core does: toLowerCase() would fold U+212A KELVIN SIGN to "k". At most
  // 64 characters are read: a longer state is unknown anyway, and a seller's 4 MiB string costs
  // no more than a short one.
  const start = state.startsWith("TASK_STATE_") ? 11 : 0;
  const end = Math.min(state.length, start + MAX_STATE_LENGTH);
  let normalized = "";
  for (let index = start; index < end; index++) {
    const unit = state.charCodeAt(index);
    normalized += unit >= 0x41 && unit <= 0x5a
      ? String.fromCharCode(unit + 0x20)
      : unit === 0x5f
      ? "-"
      : state[index];
  }
  return normalized;
}

/** Longest state kept (an unknown state is reported cut to this many characters). */
const MAX_STATE_LENGTH = 64;

function messageResult(message: JsonObject): A2ACallResult {
  const parts = own(message, "parts");
  const texts = Array.isArray(parts)
    ? parts.flatMap((part) => {
      const text = isObject(part) ? own(part, "text") : undefined;
      return typeof text === "string" && text !== "" ? [text] : [];
    })
    : [];
  return { ...NO_TASK, kind: "message", message, text: texts.join("\n") };
}

function classifyRpcError(error: RpcErrorObject): A2ACallResult {
  const adcpError = extractAdcpErrorFromMcpError(error);
  if (adcpError !== null) {
    return {
      ...NO_TASK,
      kind: "error",
      error: adcpError,
      path: "jsonrpc_error",
      decision: decideRecovery(adcpError),
    };
  }
  return {
    ...NO_TASK,
    kind: "jsonrpc_error",
    rpcCode: error.code,
    rpcMessage: safeRpcMessage(error.message),
    data: error.data,
  };
}

function checkMessage(message: unknown): void {
  if (!isObject(message)) {
    throw new TypeError(`Expected message to be an object, got ${describe(message)}`);
  }
}

/** The extraction bounds of one call: its DataPart size limit and expected DataPart count. */
function extractOptions(
  limits: ResolvedClientLimits,
  options: A2ACallOptions | undefined,
): A2AExtractOptions {
  const expectedDataParts = options?.expectedDataParts;
  return expectedDataParts === undefined
    ? { maxDataPartBytes: limits.maxDataPartBytes }
    : { maxDataPartBytes: limits.maxDataPartBytes, expectedDataParts };
}

/** The `messageId`s given to messages that had none, per message object. */
const mintedIds = new WeakMap<JsonObject, string>();

/**
 * The message with a `messageId`: its own, or one minted once per message object, so that sending
 * the same object again (a retry by `withRetry` around the call) resends the same bytes.
 */
function withId(message: JsonObject): JsonObject {
  if (typeof own(message, "messageId") === "string") return message;
  let messageId = mintedIds.get(message);
  if (messageId === undefined) {
    messageId = crypto.randomUUID();
    mintedIds.set(message, messageId);
  }
  return { ...message, messageId };
}

function invalid(expected: string, seen: string): AgentProtocolError {
  return new AgentProtocolError("invalid_message", expected, seen);
}
