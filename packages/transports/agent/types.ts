// The public types of the unified agent client: what connectAgent takes, what a call takes and
// returns, and the task handle of the async lifecycle.
import type { ExtractedAdcpError } from "@adcp-wire/core";
import type { PushNotificationConfig } from "@adcp-wire/schemas";
import type { AdcpTaskName, AdcpTaskRequest, AdcpTaskResponse } from "@adcp-wire/schemas/tasks";
import type { RecoveryDecision } from "@adcp-wire/recovery";
import type { AdcpSigningError, RequestSignatureErrorCode } from "@adcp-wire/signing";
import type { A2ACallResult, A2AClientOptions } from "../a2a/types.ts";
import type { AuthChallengeCheck } from "../a2a/auth_challenge.ts";
import type { CallOptions, ClientOptions } from "../client/options.ts";
import type { AdcpTransportError } from "../errors.ts";
import type { McpCallResult, McpClientOptions } from "../mcp/types.ts";
import type { ResponseLimits } from "../read/limits.ts";

/** The two transports an AdCP agent speaks. */
export type AgentProtocol = "mcp" | "a2a";

/**
 * How a task that is not done yet is followed:
 *
 * - `"a2a_task"`: a native A2A Task still running (`submitted`, `working`) or interrupted
 *   (`input-required`, `auth-required`): polled with `GetTask`, continued with a message carrying
 *   its `taskId` and `contextId` (AdCP A2A Profile Extension v3, "Invocation message").
 * - `"adcp_task"`: an AdCP operation the seller answered with `status: "submitted"` or `"working"`
 *   and a `task_id` (over MCP, or over A2A inside a completed A2A Task: the profile's "Submitted
 *   AdCP work"): polled with the AdCP `get_task_status` task; or an AdCP `input-required` answer,
 *   continued by calling the task again with the seller's `context_id`.
 * - `"mcp_task"`: an MCP task (MCP 2025-11-25 tasks, the `mcpTask` option): polled with
 *   `tasks/get`, its result read with `tasks/result` once it ends. Its `input_required` status asks
 *   for an elicitation, which this client does not answer: `continue` refuses such a handle.
 */
export type AgentTaskVia = "a2a_task" | "adcp_task" | "mcp_task";

/**
 * A handle on a task the seller has not finished: enough to poll it ({@link AdcpAgent.wait}) or to
 * answer it ({@link AdcpAgent.continue}) later, from this process or another (it is plain data).
 */
export interface AgentTask {
  /** The transport the task runs over. */
  readonly protocol: AgentProtocol;
  /** The AdCP task that was called (`create_media_buy`, ...). */
  readonly task: string;
  /** How it is followed and continued. */
  readonly via: AgentTaskVia;
  /**
   * The id to poll: the A2A Task id (`"a2a_task"`), the AdCP `task_id` (`"adcp_task"`) or the
   * MCP `taskId` (`"mcp_task"`);
   * `undefined` when the seller gave none (an AdCP `input-required` answer without `task_id`, or a
   * `working` answer that cannot be polled).
   */
  readonly taskId: string | undefined;
  /** The A2A `contextId`, or the AdCP `context_id`, when the seller gave one. */
  readonly contextId: string | undefined;
  /**
   * How long the seller asks the buyer to wait between polls (an MCP task's `pollInterval`),
   * within {@link MIN_AGENT_POLL_MS} and {@link MAX_AGENT_POLL_MS}; `undefined` when it gave no
   * hint. A wait polls at the longer of this and the call's `pollIntervalMs`.
   */
  readonly pollIntervalMs?: number | undefined;
  /**
   * The state last seen, normalized to the AdCP spelling: `"submitted"`, `"working"`,
   * `"input-required"`, `"auth-required"`.
   */
  readonly state: string;
}

/** Where an AdCP error was found: the protocol client's detection paths, and `get_task_status`. */
export type AgentErrorSource =
  | "structured_content"
  | "text_fallback"
  | "artifact"
  | "status_message"
  | "jsonrpc_error"
  | "task_status";

/** What every result member carries. */
export interface AgentResultBase {
  /** The transport of the agent that answered. */
  readonly protocol: AgentProtocol;
  /** The conversation the answer belongs to (A2A `contextId`, AdCP `context_id`), if given. */
  readonly contextId: string | undefined;
  /**
   * The protocol client's own result for the last answer, for protocol-specific fields; `undefined`
   * for a `failed` result.
   */
  readonly raw: McpCallResult | A2ACallResult | undefined;
}

/** The task succeeded: `data` is its AdCP response (untrusted seller data). */
export interface AgentSuccess<T = Record<string, unknown>> extends AgentResultBase {
  /** The task succeeded. */
  readonly kind: "success";
  /** The task's AdCP response (untrusted seller data). */
  readonly data: T;
}

/** The seller answered with an AdCP error; `decision` is what to do about it. */
export interface AgentError extends AgentResultBase {
  /** The seller answered with an AdCP error. */
  readonly kind: "error";
  /** The AdCP error, validated. */
  readonly error: ExtractedAdcpError;
  /** What to do about it (`decideRecovery` of `@adcp-wire/recovery`). */
  readonly decision: RecoveryDecision;
  /** Where the error was found. */
  readonly source: AgentErrorSource;
}

/**
 * The seller answered with text and no AdCP data. `isError` is always present: `true` when the
 * seller marked the answer as an error (MCP `isError`, an A2A failed or rejected task).
 */
export interface AgentText extends AgentResultBase {
  /** A text answer without AdCP data. */
  readonly kind: "text";
  /** The seller's text (untrusted). */
  readonly text: string;
  /** Whether the seller marked the answer as an error. */
  readonly isError: boolean;
}

/**
 * The task runs on (`submitted`, `working`): follow it with {@link AdcpAgent.wait}, the `wait`
 * option, or the webhook of `pushNotification`. `data` is the interim payload, if any.
 */
export interface AgentPending extends AgentResultBase {
  /** The task runs on. */
  readonly kind: "pending";
  /**
   * Set when a wait ended because a poll failed (a network failure, a 5xx, the operation's byte
   * budget): the task is still the seller's to finish, and this handle still follows it. Waiting
   * again (`AdcpAgent.wait`) is the recovery; calling the task again would submit new work.
   */
  readonly pollFailure?: AgentFailed | undefined;
  /** The handle to follow or answer the task with. */
  readonly task: AgentTask;
  /** The AdCP payload that came with it, if any (untrusted). */
  readonly data: Record<string, unknown> | null;
  /** The seller's text about it (untrusted), `""` when none. */
  readonly text: string;
}

/** The seller needs more input: answer with {@link AdcpAgent.continue}. */
export interface AgentInputRequired extends AgentResultBase {
  /** The seller needs more input. */
  readonly kind: "input_required";
  /** The handle to follow or answer the task with. */
  readonly task: AgentTask;
  /** The AdCP payload that came with it, if any (untrusted). */
  readonly data: Record<string, unknown> | null;
  /** The seller's question (untrusted), `""` when none. */
  readonly text: string;
}

/** An A2A task needs the buyer to authenticate: `challenge` says where, checked. */
export interface AgentAuthRequired extends AgentResultBase {
  /** The buyer must authenticate. */
  readonly kind: "auth_required";
  /** The handle to follow or answer the task with. */
  readonly task: AgentTask;
  /** Where to authenticate, checked (`checkAuthChallenge`). */
  readonly challenge: AuthChallengeCheck;
  /** The AdCP payload that came with it, if any (untrusted). */
  readonly data: Record<string, unknown> | null;
}

/**
 * The call got no usable answer: the size, deadline, network, HTTP, JSON-RPC and protocol failures
 * of the `AdcpTransportError` family, or the signer's own failure (`SigningFailedError`,
 * `TargetUriMalformedError` of `@adcp-wire/signing`: nothing was sent), as a result member instead
 * of a throw. `decision` is the recovery decision of the AdCP error the failure stands for (a
 * network failure, a 429 or 5xx, a JSON-RPC error carrying `adcp_error`, a deadline), `null` when
 * it stands for none (a size cap, a protocol violation, a signing failure): retrying those would
 * fail the same way.
 */
export interface AgentFailed extends AgentResultBase {
  /** No usable answer. */
  readonly kind: "failed";
  /** The failure. */
  readonly error: AdcpTransportError | AdcpSigningError;
  /** The decision of the AdCP error it stands for, or `null`. */
  readonly decision: RecoveryDecision | null;
  /**
   * Why the seller refused the request's signature, when it said so: the spec's code from the
   * 401's `WWW-Authenticate: Signature error="<code>"` (the `signatureError` of the
   * `HttpStatusError`), such as `request_signature_key_unknown`.
   */
  readonly signatureError?: RequestSignatureErrorCode | undefined;
  /**
   * The `idempotency_key` the request carried (the `idempotencyKey` option): resend with
   * `idempotencyKey: result.idempotencyKey` so that the seller can recognize the same request
   * (Security, "Request safety"); a fresh key would make it new work.
   */
  readonly idempotencyKey?: string | undefined;
}

/**
 * The result of {@link AdcpAgent.call}, the same for both transports: the spec's outcomes
 * (success, error with its recovery decision, text), the async lifecycle (pending,
 * input required, auth required), and transport failures.
 */
export type AgentCallResult<T = Record<string, unknown>> =
  | AgentSuccess<T>
  | AgentError
  | AgentText
  | AgentPending
  | AgentInputRequired
  | AgentAuthRequired
  | AgentFailed;

/** One state the lifecycle saw, passed to `onStatus`. */
export interface AgentStatusEvent {
  /** The result of the answer: the first one, then one per poll. */
  readonly result: AgentCallResult;
  /** How many answers were seen so far, the first one being 1. */
  readonly answers: number;
}

/**
 * `T` with `idempotency_key` optional (for each member of a union): the `idempotencyKey` option
 * can mint the key instead.
 */
export type WithOptionalIdempotencyKey<T> = T extends unknown ?
    & { [P in keyof T as P extends "idempotency_key" ? never : P]: T[P] }
    & { idempotency_key?: string }
  : never;

/**
 * The input of task `K`: its request type from `@adcp-wire/schemas/tasks` (generated from the
 * pinned schemas), `idempotency_key` optional.
 */
export type AgentTaskInput<K extends AdcpTaskName> = WithOptionalIdempotencyKey<
  AdcpTaskRequest<K>
>;

/**
 * The response type of task `K`, or untyped data when no task is named (`never`, the default of
 * `AdcpAgent.wait` and `AdcpAgent.continue`).
 */
export type AgentTaskData<K extends AdcpTaskName> = [K] extends [never] ? Record<string, unknown>
  : AdcpTaskResponse<K>;

/** Options of one {@link AdcpAgent.call}. */
export interface AgentCallOptions extends CallOptions {
  /**
   * An `idempotency_key` for the request: `true` mints one, a string is used as it is (see the
   * protocol clients).
   */
  readonly idempotencyKey?: boolean | string | undefined;
  /**
   * Follow a pending task until it is done or needs input: `true` for up to
   * {@link DEFAULT_AGENT_WAIT_MS}, a number for that many milliseconds (at most
   * {@link MAX_AGENT_WAIT_MS}). The call and every poll then form one operation: one byte budget
   * (`maxResponseBytes` bounds the answers of all of them together), one event count, and this
   * deadline, each request's own `timeoutMs` clamped to the time left. When the time is up while
   * polling, or a poll fails, the last `pending` result is returned (with `pollFailure` for a
   * failed poll; its task can be waited for again). A poll still in flight when the wait's time
   * is up is the time being up, not a failed poll: no `pollFailure`. A poll that fails within
   * the wait, its own `timeoutMs` included, is one. A first request that fails ends the call as
   * `failed`. A wait no longer than the poll interval returns the first answer without polling.
   */
  readonly wait?: boolean | number | undefined;
  /**
   * The least time between polls, in milliseconds: default {@link DEFAULT_AGENT_POLL_MS}, from
   * {@link MIN_AGENT_POLL_MS} to {@link MAX_AGENT_POLL_MS}. A seller's hint (an MCP task's
   * `pollInterval`) may lengthen it, up to {@link MAX_AGENT_POLL_MS}, and never shortens it: the
   * seller does not choose how often the buyer polls.
   */
  readonly pollIntervalMs?: number | undefined;
  /** Called with every answer of the lifecycle; an exception it throws ends the call with it. */
  readonly onStatus?: ((event: AgentStatusEvent) => void) | undefined;
  /**
   * Sent as the request's `push_notification_config` (`core/push-notification-config.json`;
   * the input must not carry one): where the seller posts the task's webhooks. `operation_id` is
   * required here (a seller must reject a webhook registration without one). Verify what arrives
   * with `verifyWebhook` of `@adcp-wire/signing` (or the legacy HMAC helpers of
   * `@adcp-wire/webhooks`) and read it with `extractAdcpResponseFromWebhook` of `@adcp-wire/core`.
   */
  readonly pushNotification?: PushNotificationConfig | undefined;
  /** Continue this conversation: the A2A `contextId`, or the AdCP `context_id` over MCP. */
  readonly contextId?: string | undefined;
  /**
   * Validate the payload of the result against the pinned schema of the task, with
   * `validateTaskResponse` of `@adcp-wire/validation`: the response schema for `success`, the
   * interim schema of the status for `pending` and `input_required` (none for a native A2A task
   * without AdCP data). A valid payload is replaced by the pollution-safe copy that was validated;
   * an invalid one makes the result `failed` with a `ResponseSchemaError`. Needs a task the
   * pinned schemas define (a `TypeError` otherwise, before anything is sent). Default `false`.
   */
  readonly validate?: boolean | undefined;
  /**
   * Over MCP, send the call as an MCP task (`tools/call` with `task`, MCP 2025-11-25): a seller
   * that supports tasks answers with one at once, which `wait` follows with `tasks/get` and
   * `tasks/result`; one that does not answers the call as usual. `{ ttl }` asks for a time to
   * live in milliseconds. Ignored over A2A. Default `false`.
   */
  readonly mcpTask?: boolean | { readonly ttl?: number | undefined } | undefined;
}

/** Options of {@link connectAgent}: the shared client options, and per-protocol extras. */
export interface ConnectAgentOptions extends ClientOptions {
  /**
   * The transport: `"auto"` (the default) fetches the A2A agent card at the URL's origin
   * (`/.well-known/agent-card.json`) and speaks MCP to the URL when the origin has none; `"a2a"`
   * and `"mcp"` skip the probe.
   */
  readonly protocol?: AgentProtocol | "auto" | undefined;
  /** Limits of the agent-card fetch (default: the package's response limits). */
  readonly cardLimits?: ResponseLimits | undefined;
  /** Options only McpClient has. */
  readonly mcp?: Omit<McpClientOptions, keyof ClientOptions> | undefined;
  /** Options only A2AClient has (`cardUrl` is set by the probe). */
  readonly a2a?: Omit<A2AClientOptions, keyof ClientOptions | "cardUrl"> | undefined;
}

/** Default of `wait: true`: five minutes. */
export const DEFAULT_AGENT_WAIT_MS = 300_000;
/** Longest `wait`: the longest timer delay (about 24.8 days). */
export const MAX_AGENT_WAIT_MS = 2_147_483_647;
/** Default time between polls. */
export const DEFAULT_AGENT_POLL_MS = 1_000;
/** Shortest time between polls. */
export const MIN_AGENT_POLL_MS = 10;
/** Longest time between polls. */
export const MAX_AGENT_POLL_MS = 60_000;
