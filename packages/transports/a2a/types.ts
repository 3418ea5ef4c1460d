// The public types of the A2A client: its options, the results and stream events of its calls,
// and the AdCP profile URI it announces.
import type {
  A2AResponseOutcome,
  ExtractedAdcpError,
  UnexpectedPartCountError,
  WrapperDetectedError,
} from "@adcp-wire/core";
import type { RecoveryDecision } from "@adcp-wire/recovery";
import type { AuthChallengeCheck } from "./auth_challenge.ts";
import type { CallOptions, ClientOptions } from "../client/options.ts";
import type { A2AWireVersion } from "./_agent_card.ts";

/**
 * The AdCP A2A Profile Extension v3 URI, sent in `A2A-Extensions` by default (AdCP A2A Profile
 * Extension v3, "Extension identifier").
 */
export const ADCP_A2A_PROFILE = "https://adcontextprotocol.org/extensions/adcp/v3";

/**
 * A failed AdCP A2A Profile Extension v3 check: the rule broken (`code`) and a message written by
 * this package, which never repeats seller text. The codes of each check are listed with it.
 */
export interface AdcpProfileViolation<Code extends string> {
  /** Always `false`. */
  readonly valid: false;
  /** Which rule was broken. */
  readonly code: Code;
  /** What was expected and what was seen, sentence case, in this package's words. */
  readonly message: string;
}

/**
 * The A2A wire version an {@link A2AClient} speaks: `"1.0"` (ProtoJSON) or `"0.3"`.
 */
export type A2AProtocolVersion = A2AWireVersion;

/**
 * Options of {@link A2AClient}.
 */
export interface A2AClientOptions extends ClientOptions {
  /**
   * The wire version to use when the card offers both.
   * @default {"1.0"}
   */
  readonly protocolVersion?: A2AProtocolVersion | undefined;
  /**
   * Extension URIs activated on every request (`A2A-Extensions` for 1.0, `X-A2A-Extensions` for
   * v0.3). On 1.0, a list with {@link ADCP_A2A_PROFILE} also holds the messages sent and the
   * answers read to the AdCP A2A profile ({@link A2AClient.adcpProfile}); leave it out to talk to
   * an A2A agent that does not implement the profile.
   * @default {[ADCP_A2A_PROFILE]}
   */
  readonly extensions?: readonly string[] | undefined;
  /**
   * Hosts from the caller's configuration added to the auth-challenge allow-list, beside those
   * the card seeds ({@link agentCardAuthHosts}).
   * @default {[]}
   */
  readonly authHosts?: readonly string[] | undefined;
  /**
   * The URL the card was fetched from, when `agentCard` is a plain card; its origin is where the
   * card's interfaces may point. A {@link FetchedAgentCard} carries its own.
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
   * Allows interfaces on loopback, private, link-local and other reserved addresses (and
   * `localhost`) of `allowedHosts`. For local development only.
   * @default {false}
   */
  readonly allowReservedAddresses?: boolean | undefined;
}

/**
 * One frame of a streamed answer, as passed to `onEvent`.
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
 * Options of one {@link A2AClient} call.
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
 */
export interface A2ATaskContext {
  /** The task the result was extracted from (accumulated for a stream), or `undefined`. */
  readonly task: Record<string, unknown> | undefined;
  /**
   * The normalized state (`completed`, `auth-required`, ...; unknown values as sent), or `null`.
   */
  readonly state: string | null;
  /** The task id, when it is a string. */
  readonly taskId: string | undefined;
  /** The context id, when it is a string. */
  readonly contextId: string | undefined;
}

/**
 * What an {@link A2AClient} call returned, with the task it came from:
 *
 * - `"success"`, `"text"` (with `isError: true` for a failed or rejected task without a valid
 *   structured error): as `handleA2AResponse` of `@adcp-wire/core` classifies the task;
 * - `"malformed"`: the task's final DataPart is a `{ response: {...} }` framework wrapper (the
 *   `WrapperDetectedError` that `handleA2AResponse` throws, reported instead of thrown so that a
 *   buggy seller cannot make a call throw anything but a transport error);
 * - `"error"`: a valid AdCP structured error (from an artifact, the status message, or a
 *   JSON-RPC error's `error.data.adcp_error`), with its recovery decision;
 * - `"auth_required"`: the task is `auth-required`; `challenge` is its challenge checked by
 *   {@link checkAuthChallenge} against the card-seeded allow-list (an invalid one is reported,
 *   never followed), `data` the raw challenge DataPart;
 * - `"message"`: the agent answered with a Message, not a task (`text` is its TextParts);
 * - `"jsonrpc_error"`: a JSON-RPC error without an `adcp_error`.
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
 * Options of {@link A2AClient.invocation}.
 */
export interface A2AInvocationOptions {
  /**
   * Adds an `idempotency_key` to the input: `true` for a fresh UUID v4, or the key to use. An
   * `idempotency_key` already in the input is kept. See {@link withIdempotencyKey}.
   * @default {false}
   */
  readonly idempotencyKey?: boolean | string | undefined;
  /**
   * The A2A task this message continues, for an answer to `input-required`: a continuation "MUST
   * carry a new `messageId` and the existing A2A `taskId` and `contextId`" (AdCP A2A Profile
   * Extension v3, "Invocation message"), so `contextId` must be set with it.
   * @default {undefined}
   */
  readonly taskId?: string | undefined;
  /**
   * The A2A context of the message (the task's `contextId` for a continuation).
   * @default {undefined}
   */
  readonly contextId?: string | undefined;
}

/**
 * `handleA2AResponse` of `@adcp-wire/core`, plus `"malformed"` for the wrapper error it throws on a
 * `{ response: {...} }` DataPart (A2A Response Extraction, "Wrapper Rejection").
 */
export type A2AOutcome =
  | A2AResponseOutcome
  | {
    readonly kind: "malformed";
    readonly error: WrapperDetectedError | UnexpectedPartCountError;
  };
