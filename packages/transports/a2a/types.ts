// The public types of the A2A client: its options, the results and stream events of its calls,
// and the AdCP profile URI it announces.
import type {
  A2AResponseOutcome,
  ExtractedAdcpError,
  UnexpectedPartCountError,
  WrapperDetectedError,
} from "@adcp-wire/core";
import type { RecoveryDecision } from "@adcp-wire/recovery";
import type { AuthChallengeCheck } from "../client/auth_challenge.ts";
import type { CallOptions, ClientOptions } from "../client/options.ts";
import type { A2AWireVersion } from "./_agent_card.ts";

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
export interface A2AClientOptions extends ClientOptions {
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
export interface A2ACallOptions extends CallOptions {
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
      readonly error: ExtractedAdcpError;
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
