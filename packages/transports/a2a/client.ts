// A2AClient: an A2A agent over JSON-RPC, either wire version. Frames and classification live in
// _frames.ts, streams in _stream.ts and _accumulator.ts, the types in types.ts.
import { signingFetch } from "../client/_signing.ts";
import { type A2AExtractOptions, isA2AStreamEnvelope } from "@adcp-wire/core";
import {
  booleanOption,
  describe,
  functionOption,
  integerOption,
  isJsonObject as isObject,
  type JsonRecord,
  objectOption,
  optionError,
  type OptionKeys,
  optionKeys,
  own,
  rescopeOptionError,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";
import { keyedArgs } from "../client/_idempotency.ts";
import { callLimits, CLIENT_LIMIT_KEYS, recordLayers } from "../client/_limits.ts";
import {
  agentUrl,
  CLIENT_NESTED,
  CLIENT_OPTION_NAMES,
  headersOption,
  limitLayers,
} from "../client/_options.ts";
import { retryOption, runWithRetry } from "../client/_retry.ts";
import {
  asRpcResponse,
  bodyKind,
  type Call,
  callFor,
  discard,
  errorStatusResponse,
  fetchWithin,
  type HeaderRecord,
  headerRecord,
  readSourcedJsonWithin,
  type RpcResponse,
} from "../client/_rpc.ts";
import { agentCardAuthHosts } from "./auth_challenge.ts";
import type { ClientLimits, ResolvedClientLimits } from "../client/limits.ts";
import type { ClientOptions, RetryOption } from "../client/options.ts";
import { AgentProtocolError } from "../errors.ts";
import type { FetchLike } from "../read/bounded_fetch.ts";
import {
  type CardPolicy,
  checkCardLists,
  normalizeHostEntries,
  selectInterface,
} from "./_agent_card.ts";
import { classifyRpcError, classifyTask, invalid, messageResult, readFrame } from "./_frames.ts";
import { profileAnswerError, profileResponse } from "./_profile_response.ts";
import { readTaskStream, type StreamContext } from "./_stream.ts";
import { adcpProfileInvocation } from "./adcp_profile_invocation.ts";
import { checkAdcpProfileInvocation } from "./check_adcp_profile_invocation.ts";
import { FetchedAgentCard } from "./fetch_agent_card.ts";
import {
  type A2ACallOptions,
  type A2ACallResult,
  type A2AClientOptions,
  type A2AInvocationOptions,
  type A2AProtocolVersion,
  ADCP_A2A_PROFILE,
} from "./types.ts";
import { validateSellerUrl } from "@adcp-wire/security";

/** What the option errors of the constructor and of the message methods say could not be done. */
const CREATE = "create an A2AClient";
const SEND = "send the message";
const GET_TASK = "get the task";

/**
 * The keys only {@link A2AClientOptions} has, but `cardUrl` (the `a2a` options of `connectAgent`
 * are these: the probe sets the card URL).
 */
export const A2A_OPTION_NAMES = {
  protocolVersion: true,
  extensions: true,
  authHosts: true,
  allowedHosts: true,
  allowReservedAddresses: true,
} as const satisfies {
  readonly [K in keyof Required<Omit<A2AClientOptions, keyof ClientOptions | "cardUrl">>]: true;
};

/** The keys of {@link A2AClientOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<A2AClientOptions>({
  ...CLIENT_OPTION_NAMES,
  ...A2A_OPTION_NAMES,
  cardUrl: true,
});

/** The keys of {@link A2ACallOptions}. */
const CALL_KEYS: OptionKeys = optionKeys<A2ACallOptions>({
  limits: true,
  onEvent: true,
  expectedDataParts: true,
});

/** Where a top-level limit of one call belongs. */
const CALL_NESTED: Readonly<Record<string, OptionKeys>> = { limits: CLIENT_LIMIT_KEYS };

/** The keys of {@link A2AInvocationOptions}. */
const INVOCATION_KEYS: OptionKeys = optionKeys<A2AInvocationOptions>({
  idempotencyKey: true,
  taskId: true,
  contextId: true,
});

/** The keys of the options of {@link A2AClient.textMessage}. */
const TEXT_MESSAGE_KEYS: OptionKeys = optionKeys<
  NonNullable<Parameters<A2AClient["textMessage"]>[1]>
>({ taskId: true, contextId: true });

/**
 * A checked JSON-RPC answer, with the bound of what every value in it serializes to
 * (`undefined` for the error of a non-2xx answer, which carries no DataPart to extract).
 */
interface RpcAnswer {
  readonly rpc: RpcResponse;
  readonly sourceJsonBytes: number | undefined;
}

/** One serialized JSON-RPC request: sent as `body`, byte for byte, on every attempt. */
interface RpcRequest {
  readonly id: number;
  readonly body: string;
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

/**
 * An A2A client over JSON-RPC (1.0 ProtoJSON, or v0.3 when the card offers only that), bound to
 * the origin its agent card came from. It sends AdCP profile invocations, holds A2A 1.0 answers
 * to the AdCP A2A Profile Extension v3, accumulates streamed artifacts, and returns an
 * {@link A2ACallResult} to branch on; the full contract is in `docs/clients.md`.
 *
 * Spec: A2A Guide, "A2A Client Setup"; AdCP A2A Profile Extension v3; A2A Response Extraction;
 * Security, "Webhook URL validation (SSRF)".
 *
 * @example Sending an invocation
 * ```ts
 * import { A2AClient, fetchAgentCard } from "@adcp-wire/transports/a2a";
 * import { fakeA2AAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const agent = fakeA2AAgent({ skills: { get_products: () => ({ data: { products: [] } }) } });
 * const client = new A2AClient(await fetchAgentCard(agent.cardUrl, { fetch: agent.fetch }), {
 *   fetch: agent.fetch,
 * });
 * const result = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
 * deepStrictEqual(result.kind === "success" && result.data, { products: [] });
 * ```
 */
export class A2AClient {
  /** The JSON-RPC endpoint in use. */
  readonly endpoint: string;
  /** The wire version in use. */
  readonly protocolVersion: A2AProtocolVersion;
  /** The auth-challenge allow-list: card-seeded hosts, then `authHosts`. */
  readonly authHosts: readonly string[];
  /**
   * Whether every request activates the AdCP A2A Profile Extension v3 and every answer is held to
   * it: on A2A 1.0, when `extensions` lists {@link ADCP_A2A_PROFILE} (the default). Messages sent
   * must then be profile invocations, and answers that break the profile throw
   * `AgentProtocolError` with reason `"adcp_profile"` (`docs/clients.md`, "The AdCP A2A
   * profile").
   */
  readonly adcpProfile: boolean;
  /** The request headers of a JSON answer and of a streamed one, copied per request. */
  readonly #jsonHeaders: HeaderRecord;
  readonly #streamHeaders: HeaderRecord;
  readonly #defaults: ClientLimits | undefined;
  readonly #agent: ClientLimits | undefined;
  /** The limits of a call given no limits of its own: both layers, resolved once. */
  readonly #base: ResolvedClientLimits;
  readonly #fetch: FetchLike | undefined;
  readonly #retry: RetryOption | undefined;
  readonly #streamContext: StreamContext;
  #nextId = 1;

  /**
   * Creates a client for the agent an agent card describes. Nothing is sent yet.
   *
   * @param agentCard What {@link fetchAgentCard} returned, or a parsed card (then give
   * `options.cardUrl`).
   * @param options Headers, limits, `fetch`, version preference, extensions, auth hosts, the card
   * binding (`cardUrl`, `allowedHosts`, `allowHttp`, `allowReservedAddresses`), retry.
   * @throws {AgentProtocolError} With reason `"agent_card"` when the card has no JSON-RPC
   * interface the binding allows.
   * @throws {TypeError} When an option has the wrong type or a key it does not define (in
   * `options`, a limits layer or `retry`), or a host, URL or extension entry is malformed.
   * @throws {RangeError} When a limit or a figure of the retry policy is out of range.
   *
   * @example Choosing the interface
   * ```ts
   * import { A2AClient } from "@adcp-wire/transports";
   * import { deepStrictEqual, strictEqual } from "node:assert/strict";
   *
   * const client = new A2AClient({
   *   supportedInterfaces: [
   *     { url: "https://sales.example/", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
   *     { url: "https://sales.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
   *   ],
   * }, { cardUrl: "https://sales.example/.well-known/agent-card.json" });
   * strictEqual(client.endpoint, "https://sales.example/a2a");
   * strictEqual(client.protocolVersion, "1.0");
   * deepStrictEqual(client.authHosts, ["sales.example"]);
   * ```
   */
  constructor(
    agentCard: FetchedAgentCard | Record<string, unknown>,
    options: A2AClientOptions = {},
  ) {
    objectOption(CREATE, "options", options);
    checkKeys(CREATE, "options", options, OPTION_KEYS, CLIENT_NESTED);
    let card: unknown = agentCard;
    let cardUrl = options.cardUrl;
    if (agentCard instanceof FetchedAgentCard) {
      card = agentCard.card;
      cardUrl ??= agentCard.url;
    }
    const allowHttp = booleanOption(CREATE, "options.allowHttp", options.allowHttp);
    const policy: CardPolicy = {
      // A card from an http: origin off loopback would put its interfaces there too.
      origin: cardUrl === undefined
        ? undefined
        : new URL(agentUrl(cardUrl, CREATE, "options.cardUrl", allowHttp)).origin,
      allowedHosts: normalizeHostEntries(CREATE, "options.allowedHosts", options.allowedHosts),
      allowHttp,
      allowReservedAddresses: booleanOption(
        CREATE,
        "options.allowReservedAddresses",
        options.allowReservedAddresses,
      ),
    };
    const { defaultLimits, agentLimits } = limitLayers(CREATE, options);
    const base = callLimits(defaultLimits, agentLimits, undefined, CREATE);
    const prefer = options.protocolVersion;
    if (prefer !== undefined && prefer !== "1.0" && prefer !== "0.3") {
      throw optionError(
        TypeError,
        CREATE,
        "options.protocolVersion",
        '"1.0" or "0.3"',
        prefer,
      );
    }
    checkCardLists(card);
    const chosen = selectInterface(card, prefer, policy);
    this.endpoint = chosen.url;
    this.protocolVersion = chosen.version;
    const extensions = options.extensions ?? [ADCP_A2A_PROFILE];
    if (!Array.isArray(extensions) || extensions.some((uri) => !isExtensionUri(uri))) {
      throw optionError(
        TypeError,
        CREATE,
        "options.extensions",
        "an array of absolute URIs",
        extensions,
      );
    }
    const authHosts = options.authHosts ?? [];
    if (!Array.isArray(authHosts)) {
      throw optionError(
        TypeError,
        CREATE,
        "options.authHosts",
        "an array of hosts",
        authHosts,
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
          throw optionError(
            TypeError,
            CREATE,
            `options.authHosts[${index}]`,
            "a host",
            host,
          );
        }
      }
    });
    this.authHosts = Object.freeze([...new Set([...agentCardAuthHosts(card), ...authHosts])]);
    const headers = headersOption(CREATE, options.headers);
    headers.set("a2a-version", this.protocolVersion);
    if (extensions.length > 0) {
      headers.set(
        this.protocolVersion === "1.0" ? "a2a-extensions" : "x-a2a-extensions",
        extensions.join(","),
      );
    }
    headers.set("content-type", "application/json");
    headers.set("accept", "application/json");
    this.#jsonHeaders = headerRecord(headers);
    headers.set("accept", "text/event-stream, application/json");
    this.#streamHeaders = headerRecord(headers);
    // Read once: a layer object the caller changes later changes no call.
    this.#defaults = defaultLimits === undefined ? undefined : { ...defaultLimits };
    this.#agent = agentLimits === undefined ? undefined : { ...agentLimits };
    recordLayers(this, { defaultLimits: this.#defaults, agentLimits: this.#agent });
    this.#base = base;
    this.adcpProfile = this.protocolVersion === "1.0" && extensions.includes(ADCP_A2A_PROFILE);
    this.#streamContext = {
      version: this.protocolVersion,
      authHosts: this.authHosts,
      adcpProfile: this.adcpProfile,
    };
    this.#fetch = signingFetch(
      options.signer,
      functionOption(CREATE, "options.fetch", options.fetch),
      CREATE,
    );
    this.#retry = retryOption(CREATE, options.retry);
  }

  /**
   * Builds an AdCP profile invocation message in this client's wire version: for A2A 1.0 what
   * {@link adcpProfileInvocation} builds (one DataPart `{ skill, input }`, role `ROLE_USER`), for
   * v0.3 the same DataPart with `kind` fields and role `user`; a fresh `messageId`, and `taskId`
   * and `contextId` for a continuation.
   *
   * Spec: AdCP A2A Profile Extension v3, "Invocation message".
   *
   * @param skill The AdCP skill (task name).
   * @param input The task input.
   * @param options An idempotency key, and the ids of the task a continuation answers.
   * @returns The wire message.
   * @throws {TypeError} When `skill` is not a non-empty string, `input` not an object, or an
   * option has the wrong type (`taskId` without `contextId` included).
   *
   * @example A 1.0 invocation
   * ```ts
   * import { A2AClient } from "@adcp-wire/transports";
   * import { deepStrictEqual } from "node:assert/strict";
   *
   * const url = "https://a.example/";
   * const client = new A2AClient({
   *   supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
   * }, { cardUrl: url });
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
      throw optionError(TypeError, "build the invocation", "skill", "a non-empty string", skill);
    }
    if (!isObject(input)) {
      throw optionError(TypeError, "build the invocation", "input", "an object", input);
    }
    objectOption("build the invocation", "options", options);
    checkKeys("build the invocation", "options", options, INVOCATION_KEYS);
    const keyed = keyedArgs(input, options?.idempotencyKey, "build the invocation", "input");
    let built;
    try {
      built = adcpProfileInvocation(skill, keyed, {
        taskId: options?.taskId,
        contextId: options?.contextId,
      });
    } catch (error) {
      throw rescopeOptionError(error, "build the invocation", (name) => name);
    }
    const message = built.message;
    if (this.protocolVersion === "1.0") return { ...message };
    const { role: _, parts: __, ...ids } = message;
    return {
      kind: "message",
      ...ids,
      role: "user",
      parts: [{ kind: "data", data: { skill, input: keyed } }],
    };
  }

  /**
   * Builds a plain text message in this client's wire version: one TextPart, role `ROLE_USER`
   * (v0.3: `kind` fields and role `user`), a fresh `messageId`, and the `taskId` and `contextId` of
   * a conversation it continues. For agents spoken to without the AdCP profile: with the profile
   * active ({@link A2AClient.adcpProfile}), `sendMessage` refuses anything but an invocation (the
   * profile makes the typed `{ skill, input }` DataPart authoritative), so create the client with
   * `extensions: []` to send one.
   *
   * @param text The text (seller-bound, sent as it is).
   * @param options The ids of the task and conversation it answers.
   * @returns The wire message.
   * @throws {TypeError} When `text` is not a non-empty string, or `taskId` is given without
   * `contextId`.
   *
   * @example A text message
   * ```ts
   * import { A2AClient } from "@adcp-wire/transports";
   * import { deepStrictEqual } from "node:assert/strict";
   *
   * const url = "https://a.example/";
   * const client = new A2AClient({
   *   supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
   * }, { cardUrl: url, extensions: [] });
   * const message = client.textMessage("Which CTV packages are left for Q3?");
   * deepStrictEqual(message.parts, [{ text: "Which CTV packages are left for Q3?" }]);
   * deepStrictEqual(message.role, "ROLE_USER");
   * ```
   */
  textMessage(
    text: string,
    options?: { readonly taskId?: string | undefined; readonly contextId?: string | undefined },
  ): Record<string, unknown> {
    const action = "build the text message";
    if (typeof text !== "string" || text === "") {
      throw optionError(TypeError, action, "text", "a non-empty string", text);
    }
    objectOption(action, "options", options);
    checkKeys(action, "options", options, TEXT_MESSAGE_KEYS);
    const taskId = options?.taskId;
    const contextId = options?.contextId;
    for (const [name, value] of [["taskId", taskId], ["contextId", contextId]] as const) {
      if (value !== undefined && (typeof value !== "string" || value === "")) {
        throw optionError(TypeError, action, `options.${name}`, "a non-empty string", value);
      }
    }
    if (taskId !== undefined && contextId === undefined) {
      throw optionError(TypeError, action, "options.contextId", "given with taskId", contextId);
    }
    const ids = {
      messageId: crypto.randomUUID(),
      ...(taskId === undefined ? {} : { taskId }),
      ...(contextId === undefined ? {} : { contextId }),
    };
    return this.protocolVersion === "1.0"
      ? { ...ids, role: "ROLE_USER", parts: [{ text }] }
      : { kind: "message", ...ids, role: "user", parts: [{ kind: "text", text }] };
  }

  /**
   * Sends a message and waits for the agent's answer (`SendMessage`, v0.3 `message/send`): the
   * task in the state the agent returned it (final or interrupted, or any state when the agent
   * returns early), classified as {@link A2ACallResult} says.
   *
   * @param message The wire message (see {@link A2AClient.invocation}); a missing
   * `messageId` is filled in, the same one each time this object is sent.
   * @param options Limits for this call.
   * @returns The classified result.
   * @throws {AgentProtocolError} With reason `"adcp_profile"` when the profile is active
   * ({@link A2AClient.adcpProfile}) and the answer breaks it (`checkAdcpProfileResponse`; the
   * `message` branch included).
   * @throws {AdcpTransportError} For size, deadline, JSON and protocol failures.
   * @throws {TypeError} When `message` is not an object, or, with the profile active, not a
   * profile invocation (`checkAdcpProfileInvocation`); nothing is sent then.
   *
   * @example Sending a message
   * ```ts ignore
   * const result = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
   * ```
   */
  async sendMessage(
    message: Record<string, unknown>,
    options?: A2ACallOptions,
  ): Promise<A2ACallResult> {
    checkMessage(message);
    const limits = this.#limits(options, SEND);
    const sent = this.#checkInvocation(withId(message));
    // Serialized once: every retry resends these exact bytes (Security, "Request safety").
    const request = this.#request(this.#method("send"), { message: sent });
    return await this.#retrying(limits, async () => {
      const call = callFor(limits, options);
      try {
        const answer = await this.#post(request, call);
        const result = this.#sendResult(answer.rpc, extractOptions(limits, options, answer));
        call.checkDeadline();
        return result;
      } finally {
        call.dispose();
      }
    });
  }

  /**
   * Sends a message and reads the streamed answer (`SendStreamingMessage`, v0.3
   * `message/stream`) over bounded SSE until a final or interrupted state, passing every frame to
   * `onEvent`. How frames are accumulated, and when a bare Message frame is the answer:
   * `docs/clients.md`, "A2A streaming".
   *
   * Spec: A2A Guide (bare `message` envelopes); A2A Response Extraction.
   *
   * @param message The wire message; a missing `messageId` is filled in, the same one each time
   * this object is sent.
   * @param options Limits for the whole stream, and `onEvent`.
   * @returns The classified result of the final or interrupted state (or of the Message, for a
   * stream that carried no task).
   * @throws {AgentProtocolError} With reason `"stream_ended"` when the stream ends first, or
   * `"adcp_profile"` when the profile is active and the final task breaks its task rules.
   * @throws {AdcpTransportError} For size, deadline, JSON and protocol failures.
   * @throws {TypeError} When `message` is not an object, or, with the profile active, not a
   * profile invocation; nothing is sent then.
   *
   * @example Streaming
   * ```ts ignore
   * const result = await client.sendStreamingMessage(message, {
   *   onEvent: (event) => console.log(event.type, event.state),
   * });
   * ```
   */
  async sendStreamingMessage(
    message: Record<string, unknown>,
    options?: A2ACallOptions,
  ): Promise<A2ACallResult> {
    checkMessage(message);
    const limits = this.#limits(options, SEND);
    const onEvent = functionOption(SEND, "options.onEvent", options?.onEvent);
    const sent = this.#checkInvocation(withId(message));
    const request = this.#request(this.#method("stream"), { message: sent });
    return await this.#retrying(limits, async () => {
      const call = callFor(limits, options);
      try {
        const response = await this.#open(request, call, true);
        const result = response instanceof Response
          ? await readTaskStream(
            response,
            request.id,
            call,
            onEvent,
            extractOptions(limits, options),
            this.#streamContext,
          )
          : this.#sendResult(response.rpc, extractOptions(limits, options, response));
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
  async getTask(taskId: string, options?: A2ACallOptions): Promise<A2ACallResult> {
    if (typeof taskId !== "string" || taskId === "") {
      throw optionError(TypeError, GET_TASK, "taskId", "a non-empty string", taskId);
    }
    const limits = this.#limits(options, GET_TASK);
    const request = this.#request(this.#method("get"), { id: taskId });
    return await this.#retrying(limits, async () => {
      const call = callFor(limits, options);
      try {
        const answer = await this.#post(request, call);
        const rpc = answer.rpc;
        if (!rpc.ok) return classifyRpcError(rpc.error);
        if (!isObject(rpc.result)) throw invalid("a task object", describe(rpc.result));
        const frame = this.protocolVersion === "1.0" && isA2AStreamEnvelope(rpc.result)
          ? readFrame(rpc.result, this.protocolVersion, true)
          : { type: "task" as const, value: rpc.result };
        if (frame.type !== "task") throw invalid("a task", `a ${frame.type}`);
        const extract = extractOptions(limits, options, answer);
        const result = classifyTask(frame.value, extract, this.authHosts);
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
  #request(method: string, params: JsonRecord): RpcRequest {
    const id = this.#nextId++;
    return { id, body: JSON.stringify({ jsonrpc: "2.0", id, method, params }) };
  }

  /**
   * The limits of one call, checked, and the call's options held to their keys (no allocation
   * unless a key is refused); `action` is what the messages say could not be done.
   */
  #limits(options: A2ACallOptions | undefined, action: string): ResolvedClientLimits {
    objectOption(action, "options", options);
    checkKeys(action, "options", options, CALL_KEYS, CALL_NESTED);
    objectOption(action, "options.limits", options?.limits);
    integerOption(action, "options.expectedDataParts", options?.expectedDataParts, 0);
    const limits = options?.limits;
    if (limits === undefined) return this.#base;
    return callLimits(this.#defaults, this.#agent, limits, action);
  }

  #method(operation: "send" | "stream" | "get"): string {
    if (this.protocolVersion === "1.0") {
      return { send: "SendMessage", stream: "SendStreamingMessage", get: "GetTask" }[operation];
    }
    return { send: "message/send", stream: "message/stream", get: "tasks/get" }[operation];
  }

  /**
   * The message to send, once it passed {@link checkAdcpProfileInvocation} with this client's
   * headers when the profile is active: the agent "MUST reject" anything else, and an agent that
   * does not would have to guess.
   *
   * @throws {TypeError} Naming the profile rule the message breaks.
   */
  #checkInvocation(message: JsonRecord): JsonRecord {
    if (!this.adcpProfile) return message;
    const checked = checkAdcpProfileInvocation({ headers: PROFILE_HEADERS, message });
    if (checked.valid) return message;
    throw optionError(
      TypeError,
      SEND,
      "message",
      `an AdCP A2A profile v3 invocation (${checked.code}: ${checked.message})`,
      message,
    );
  }

  /**
   * Classifies the answer to a message send: a task, a Message, or a JSON-RPC error; with the
   * profile active, an answer that breaks it throws.
   *
   * @throws {AgentProtocolError} With reason `"adcp_profile"`.
   */
  #sendResult(rpc: RpcResponse, extract: A2AExtractOptions): A2ACallResult {
    if (!rpc.ok) return classifyRpcError(rpc.error);
    const frame = readFrame(rpc.result, this.protocolVersion, true);
    if (this.adcpProfile) {
      const error = profileAnswerError(profileResponse(rpc.result, undefined));
      if (error !== undefined) throw error;
    }
    return frame.type === "message"
      ? messageResult(frame.value)
      : classifyTask(frame.value, extract, this.authHosts);
  }

  /** POSTs a request and reads a JSON answer. */
  async #post(request: RpcRequest, call: Call): Promise<RpcAnswer> {
    const response = await this.#open(request, call, false);
    if (!(response instanceof Response)) return response;
    await discard(response);
    throw new AgentProtocolError("content_type", "application/json", "text/event-stream");
  }

  /** POSTs a request; returns the JSON answer, or the SSE response to read. */
  async #open(request: RpcRequest, call: Call, stream: boolean): Promise<RpcAnswer | Response> {
    const id = request.id;
    const headers = { ...(stream ? this.#streamHeaders : this.#jsonHeaders) };
    const response = await fetchWithin(this.#fetch, this.endpoint, {
      method: "POST",
      headers,
      body: request.body,
    }, call);
    if (response.status < 200 || response.status > 299) {
      return { rpc: await errorStatusResponse(response, call), sourceJsonBytes: undefined };
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
    const { value, sourceJsonBytes } = await readSourcedJsonWithin(response, call);
    const rpc = asRpcResponse(value);
    if (rpc === undefined || (rpc.ok && rpc.id !== id)) {
      throw invalid(`a JSON-RPC response with id ${id}`, "none");
    }
    return { rpc, sourceJsonBytes };
  }
}

/**
 * The headers of a client with the profile active, as far as the invocation check reads them:
 * `adcpProfile` is set only when this client's own headers activate it, so the check is of the
 * message alone (and does not read a Headers object on every call).
 */
const PROFILE_HEADERS = Object.freeze({ "a2a-version": "1.0", "a2a-extensions": ADCP_A2A_PROFILE });

function checkMessage(message: unknown): void {
  if (!isObject(message)) throw optionError(TypeError, SEND, "message", "an object", message);
}

/**
 * The extraction bounds of one call: its DataPart size limit and expected DataPart count, and,
 * after a JSON body, the bound of its serialized values (so that a DataPart of a body already
 * within the limit is not measured again).
 */
function extractOptions(
  limits: ResolvedClientLimits,
  options: A2ACallOptions | undefined,
  answer?: RpcAnswer,
): A2AExtractOptions {
  const expectedDataParts = options?.expectedDataParts;
  const sourceJsonBytes = answer?.sourceJsonBytes;
  return {
    maxDataPartBytes: limits.maxDataPartBytes,
    ...(expectedDataParts === undefined ? {} : { expectedDataParts }),
    ...(sourceJsonBytes === undefined ? {} : { sourceJsonBytes }),
  };
}

/** The `messageId`s given to messages that had none, per message object. */
const mintedIds = new WeakMap<JsonRecord, string>();

/**
 * The message with a `messageId`: its own, or one minted once per message object, so that sending
 * the same object again (a retry by `withRetry` around the call) resends the same bytes.
 */
function withId(message: JsonRecord): JsonRecord {
  if (typeof own(message, "messageId") === "string") return message;
  let messageId = mintedIds.get(message);
  if (messageId === undefined) {
    messageId = crypto.randomUUID();
    mintedIds.set(message, messageId);
  }
  return { ...message, messageId };
}
