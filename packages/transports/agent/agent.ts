// AdcpAgent: one call shape and one result union over McpClient and A2AClient, with the async task
// lifecycle (poll, wait within one operation's budget, status callbacks, continuation).
import {
  functionOption,
  isJsonObject as isObject,
  type JsonRecord,
  objectOption,
  optionError,
  type OptionKeys,
  optionKeys,
} from "@adcp-wire/internal";
import type { PushNotificationConfig } from "@adcp-wire/schemas";
import type { AdcpTaskName, AdcpTaskResponse } from "@adcp-wire/schemas/tasks";
import { JsonDepthLimitError, JsonNodeLimitError } from "@adcp-wire/security";
import { knownTasks, validateTaskResponse } from "@adcp-wire/validation";
import { checkKeys } from "../_options.ts";
import { A2AClient } from "../a2a/client.ts";
import type { A2ACallOptions, A2ACallResult } from "../a2a/types.ts";
import { callLimits, CLIENT_LIMIT_KEYS, layersOf } from "../client/_limits.ts";
import { Call, joinOperation, sleepWithin } from "../client/_rpc.ts";
import type { ClientLimits } from "../client/limits.ts";
import { AgentProtocolError, DeadlineExceededError, ResponseSchemaError } from "../errors.ts";
import { keyedArgs } from "../client/_idempotency.ts";
import { McpClient } from "../mcp/client.ts";
import type { McpCallOptions, McpTask } from "../mcp/types.ts";
import {
  failedResult,
  fromA2A,
  fromMcp,
  fromMcpTask,
  fromMcpTaskResult,
  fromTaskStatus,
  isTransportFailure,
} from "./_results.ts";
import {
  type AgentCallOptions,
  type AgentCallResult,
  type AgentProtocol,
  type AgentStatusEvent,
  type AgentTask,
  type AgentTaskData,
  type AgentTaskInput,
  DEFAULT_AGENT_POLL_MS,
  DEFAULT_AGENT_WAIT_MS,
  MAX_AGENT_POLL_MS,
  MAX_AGENT_WAIT_MS,
  MIN_AGENT_POLL_MS,
} from "./types.ts";

const CALL = "call the task";
const VIAS: ReadonlySet<unknown> = new Set(["a2a_task", "adcp_task", "mcp_task"]);
const WAIT = "wait for the task";
const CONTINUE = "continue the task";

/** The keys of {@link AgentCallOptions}, and of its `mcpTask` object. */
const CALL_KEYS: OptionKeys = optionKeys<AgentCallOptions>({
  limits: true,
  idempotencyKey: true,
  wait: true,
  pollIntervalMs: true,
  onStatus: true,
  pushNotification: true,
  contextId: true,
  validate: true,
  mcpTask: true,
});
const MCP_TASK_KEYS: OptionKeys = optionKeys<Exclude<AgentCallOptions["mcpTask"], boolean>>({
  ttl: true,
});

/** Where a top-level key that is not an option belongs: a limit, or the MCP task's `ttl`. */
const CALL_NESTED: Readonly<Record<string, OptionKeys>> = {
  limits: CLIENT_LIMIT_KEYS,
  mcpTask: MCP_TASK_KEYS,
};

/** A call's options, checked. */
interface CheckedCall {
  readonly limits: ClientLimits | undefined;
  readonly idempotencyKey: boolean | string | undefined;
  readonly waitMs: number | undefined;
  readonly pollMs: number;
  readonly onStatus: ((event: AgentStatusEvent) => void) | undefined;
  readonly push: PushNotificationConfig | undefined;
  readonly contextId: string | undefined;
  readonly validate: boolean;
  /** Whether an MCP call is sent as an MCP task, and its time to live. */
  readonly mcpTask: { readonly ttl: number | undefined } | undefined;
}

/** The per-request options of one operation: the call's own, and the polls'. */
interface Requests {
  readonly call: McpCallOptions & A2ACallOptions;
  readonly poll: McpCallOptions & A2ACallOptions;
  /** The operation, when the call waits. */
  readonly operation: Call | undefined;
}

/**
 * An AdCP agent over either transport, with one call shape: `call(task, input, options)` returns
 * an {@link AgentCallResult}, the same union for MCP and A2A, transport failures included (as
 * `failed`). Create one with {@link connectAgent}, which finds the protocol, or around a client of
 * your own; {@link AdcpAgent.mcp} and {@link AdcpAgent.a2a} give the protocol client for anything
 * protocol-specific. The client's limits, retry, signing and hardening apply to every request.
 *
 * Only programmer errors throw: a task name, input or option of the wrong type or out of range
 * (`TypeError`, `RangeError`), before anything is sent. A caller's own `signal` aborting rejects
 * with its reason, and an exception thrown by `onStatus` rejects with that exception.
 *
 * @example One call shape for both transports
 * ```ts
 * import { AdcpAgent, A2AClient, fetchAgentCard, McpClient } from "@adcp-wire/transports";
 * import { adcpSuccessResult } from "@adcp-wire/transports/seller";
 * import { fakeA2AAgent, fakeMcpAgent } from "@adcp-wire/transports/testing";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const products = { products: [{ product_id: "p1" }] };
 * const mcpFetch = fakeMcpAgent({ tools: { get_products: () => adcpSuccessResult(products) } });
 * const a2aFake = fakeA2AAgent({ skills: { get_products: () => ({ data: products }) } });
 * const agents = [
 *   new AdcpAgent(new McpClient("https://mcp.example/mcp", { fetch: mcpFetch })),
 *   new AdcpAgent(
 *     new A2AClient(await fetchAgentCard(a2aFake.cardUrl, { fetch: a2aFake.fetch }), {
 *       fetch: a2aFake.fetch,
 *     }),
 *   ),
 * ];
 * for (const agent of agents) {
 *   const result = await agent.call("get_products", { buying_mode: "brief", brief: "CTV" });
 *   deepStrictEqual(result.kind === "success" && result.data, products);
 * }
 * ```
 */
export class AdcpAgent {
  /** The transport in use. */
  readonly protocol: AgentProtocol;
  /** The endpoint requests go to (the MCP URL, or the A2A interface the card selected). */
  readonly endpoint: string;
  /** The MCP client, when the agent speaks MCP. */
  readonly mcp: McpClient | undefined;
  /** The A2A client, when the agent speaks A2A. */
  readonly a2a: A2AClient | undefined;
  readonly #defaults: ClientLimits | undefined;
  readonly #agent: ClientLimits | undefined;

  /**
   * Wraps a protocol client. Nothing is sent yet.
   *
   * @param client The McpClient or A2AClient to call through. A waiting call's operation is
   * bounded by the limit layers that client was created with, like its own calls.
   * @throws {TypeError} When `client` is neither client.
   *
   * @example Wrapping a client
   * ```ts
   * import { AdcpAgent, McpClient } from "@adcp-wire/transports";
   * import { strictEqual } from "node:assert/strict";
   *
   * const agent = new AdcpAgent(new McpClient("https://seller.example/mcp"));
   * strictEqual(agent.protocol, "mcp");
   * strictEqual(agent.endpoint, "https://seller.example/mcp");
   * ```
   */
  constructor(client: McpClient | A2AClient) {
    if (client instanceof McpClient) {
      this.protocol = "mcp";
      this.mcp = client;
      this.a2a = undefined;
      this.endpoint = client.url;
    } else if (client instanceof A2AClient) {
      this.protocol = "a2a";
      this.a2a = client;
      this.mcp = undefined;
      this.endpoint = client.endpoint;
    } else {
      throw optionError(
        TypeError,
        "create the agent",
        "client",
        "an McpClient or an A2AClient",
        client,
      );
    }
    const layers = layersOf(client);
    this.#defaults = layers.defaultLimits;
    this.#agent = layers.agentLimits;
  }

  /**
   * Calls an AdCP task: over MCP the tool `task` with `input` as its arguments, over A2A an AdCP
   * profile invocation of skill `task`. With `wait`, a pending answer is followed (polled) until
   * it is done, needs input, or the time is up.
   *
   * @param task The AdCP task name (`get_products`, `create_media_buy`, ...).
   * @param input The task request.
   * @param options Limits, idempotency key, `wait`, poll interval, `onStatus`, push notifications,
   * conversation.
   * @returns The result: see {@link AgentCallResult}.
   * @throws {TypeError} When `task` is not a non-empty string, `input` not an object, or an option
   * has the wrong type (nothing is sent then).
   * @throws {RangeError} When a limit, `wait` or `pollIntervalMs` is out of range.
   *
   * @example Waiting for a task that runs on
   * ```ts ignore
   * const result = await agent.call("create_media_buy", request, { wait: 60_000 });
   * if (result.kind === "pending") console.log("still running:", result.task.taskId);
   * ```
   */
  call<K extends AdcpTaskName>(
    task: K,
    input: AgentTaskInput<K>,
    options?: AgentCallOptions,
  ): Promise<AgentCallResult<AdcpTaskResponse<K>>>;
  /**
   * Calls a task the pinned schemas do not define (a seller's own tool or skill): untyped input
   * and data. A task name the schemas define takes the typed overload only, so that a wrong input
   * for it does not compile.
   *
   * @param task The task name, not one of `AdcpTaskName`.
   * @param input The task request.
   * @param options As for the typed overload.
   * @returns The result.
   */
  call<N extends string>(
    task: N & (N extends AdcpTaskName ? never : unknown),
    input: Record<string, unknown>,
    options?: AgentCallOptions,
  ): Promise<AgentCallResult>;
  async call(
    task: string,
    input: Record<string, unknown>,
    options?: AgentCallOptions,
  ): Promise<AgentCallResult> {
    checkTaskName(task);
    const checked = checkCall(CALL, options, task);
    const args = requestInput(CALL, input, checked);
    return await this.#operation(checked, async (requests) => {
      const first = await this.#invoke(task, args, checked, requests);
      return withKey(
        await this.#validated(task, await this.#follow(first, checked, requests), checked),
        args,
      );
    });
  }

  /**
   * Polls a pending task until it is done, needs input, or `wait` (default
   * {@link DEFAULT_AGENT_WAIT_MS}) is up: an A2A task with `GetTask`, an AdCP task with the
   * `get_task_status` task (`include_result: true`).
   *
   * @typeParam K The task the handle is of (`wait<"create_media_buy">(task)`), for a typed
   * result; without it the data is untyped. Not checked at run time: give the handle's task.
   * @param task The handle of a `pending` (or any) result.
   * @param options Limits, `wait`, poll interval, `onStatus`.
   * @returns The first result that is not pending, or the last pending one when the time is up.
   * @throws {TypeError} When `task` is not a handle of this agent's protocol with a `taskId`, or an
   * option has the wrong type.
   * @throws {RangeError} When a limit, `wait` or `pollIntervalMs` is out of range.
   *
   * @example Waiting later
   * ```ts ignore
   * const first = await agent.call("create_media_buy", request);
   * if (first.kind === "pending") console.log(await agent.wait(first.task, { wait: 30_000 }));
   * ```
   */
  async wait<K extends AdcpTaskName = never>(
    task: AgentTask,
    options?: AgentCallOptions,
  ): Promise<AgentCallResult<AgentTaskData<K>>> {
    this.#checkHandle(WAIT, task, true);
    const checked = checkCall(WAIT, { ...options, wait: options?.wait ?? true }, task.task);
    const result = await this.#operation(checked, async (requests) => {
      const polled = await this.#poll(task, requests);
      const first: AgentCallResult = polled.kind === "failed"
        ? {
          kind: "pending",
          protocol: this.protocol,
          contextId: task.contextId,
          raw: undefined,
          task,
          data: null,
          text: "",
          pollFailure: polled,
        }
        : polled;
      return await this.#validated(
        task.task,
        await this.#follow(first, checked, requests),
        checked,
      );
    });
    // The data is the task's when the caller named it (the type argument is not checked).
    return result as AgentCallResult<AgentTaskData<K>>;
  }

  /**
   * Answers a task that needs input: over A2A a new invocation of the same skill carrying the
   * task's `taskId` and `contextId` (AdCP A2A Profile Extension v3, "Invocation message": the
   * input is a complete task request again), over MCP a new call of the tool with the seller's
   * `context_id` added to the input.
   *
   * @typeParam K The task the handle is of, for a typed input and result (as for
   * {@link AdcpAgent.wait}).
   * @param task The handle of an `input_required` result.
   * @param input The complete task request, with what the seller asked for.
   * @param options As for {@link AdcpAgent.call}.
   * @returns The result of the continuation.
   * @throws {TypeError} When `task` is not a handle of this agent's protocol, `input` not an
   * object, or an option has the wrong type.
   * @throws {RangeError} When a limit, `wait` or `pollIntervalMs` is out of range.
   *
   * @example Answering a question
   * ```ts ignore
   * const first = await agent.call("create_media_buy", request);
   * if (first.kind === "input_required") {
   *   const next = await agent.continue(first.task, { ...request, total_budget: 5000 });
   * }
   * ```
   */
  async continue<K extends AdcpTaskName = never>(
    task: AgentTask,
    input: [K] extends [never] ? Record<string, unknown> : AgentTaskInput<K>,
    options?: AgentCallOptions,
  ): Promise<AgentCallResult<AgentTaskData<K>>> {
    this.#checkHandle(CONTINUE, task, false);
    const checked = checkCall(CONTINUE, { ...options, contextId: task.contextId }, task.task);
    const args = requestInput(CONTINUE, input, checked);
    const result = await this.#operation(checked, async (requests) => {
      const first = task.via === "a2a_task" && this.a2a !== undefined
        ? await this.#send(task.task, args, checked, requests, task.taskId)
        : await this.#invoke(task.task, args, checked, requests);
      return withKey(
        await this.#validated(task.task, await this.#follow(first, checked, requests), checked),
        args,
      );
    });
    // The data is the task's when the caller named it (the type argument is not checked).
    return result as AgentCallResult<AgentTaskData<K>>;
  }

  /**
   * Ends the MCP session, if there is one (A2A has no session: nothing is sent).
   *
   * @example Closing
   * ```ts ignore
   * await agent.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.mcp !== undefined) await this.mcp.close();
  }

  /** Runs `body` with the per-request options of one operation, disposed after. */
  async #operation(
    checked: CheckedCall,
    body: (requests: Requests) => Promise<AgentCallResult>,
  ): Promise<AgentCallResult> {
    const waitMs = checked.waitMs;
    if (waitMs === undefined) {
      const limits = checked.limits;
      return await body({
        call: this.#callOptions(limits, checked),
        poll: { limits },
        operation: undefined,
      });
    }
    const resolved = callLimits(
      this.#defaults,
      this.#agent,
      { ...checked.limits, timeoutMs: waitMs },
      CALL,
    );
    const operation = new Call(resolved);
    // The operation's end also aborts what waits outside a request (a retry's backoff sleep), with
    // a deadline error of the operation: not a caller's abort, and not retried (the signal is).
    // It is the operation deadline's own signal, never a second timer: the deadline is expired
    // before anything is aborted, so a poll cut off by it is always seen as the time being up.
    const ended = operation.deadline.signal;
    const caller = checked.limits?.signal;
    const signal = caller === undefined ? ended : AbortSignal.any([caller, ended]);
    const limits = { ...checked.limits, signal };
    const call = this.#callOptions(limits, checked);
    const poll = { limits };
    joinOperation(call, operation);
    joinOperation(poll, operation);
    try {
      return await body({ call, poll, operation });
    } finally {
      operation.dispose();
    }
  }

  /**
   * The options of the call's own request: the `idempotencyKey` too over MCP (A2A takes it in the
   * invocation, and its call options have no such key).
   */
  #callOptions(
    limits: ClientLimits | undefined,
    checked: CheckedCall,
  ): McpCallOptions & A2ACallOptions {
    return this.mcp !== undefined ? { limits, idempotencyKey: checked.idempotencyKey } : { limits };
  }

  /** Calls `task` once (no lifecycle), as the union. */
  async #invoke(
    task: string,
    args: JsonRecord,
    checked: CheckedCall,
    requests: Requests,
  ): Promise<AgentCallResult> {
    if (this.a2a !== undefined) return await this.#send(task, args, checked, requests, undefined);
    const mcp = this.mcp!;
    const contextId = checked.contextId;
    // MCP carries the conversation in the arguments (mcp-guide: "pass context_id").
    if (contextId !== undefined && !Object.hasOwn(args, "context_id")) {
      args = { ...args, context_id: contextId };
    }
    try {
      if (checked.mcpTask === undefined) {
        return fromMcp(task, await mcp.callTool(task, args, requests.call), contextId);
      }
      const options = { ...requests.call, ttl: checked.mcpTask.ttl };
      if (requests.operation !== undefined) joinOperation(options, requests.operation);
      const created = await mcp.callToolAsTask(task, args, options);
      if (created.kind !== "task") return fromMcp(task, created.result, contextId);
      // A task may be created already ended: its outcome is read like that of a polled one.
      return await this.#mcpTaskOutcome(task, created.task, contextId, requests);
    } catch (error) {
      if (isTransportFailure(error)) return failedResult("mcp", error);
      throw error;
    }
  }

  /** Sends an A2A invocation of `task` (a continuation of `taskId` when given), as the union. */
  async #send(
    task: string,
    args: JsonRecord,
    checked: CheckedCall,
    requests: Requests,
    taskId: string | undefined,
  ): Promise<AgentCallResult> {
    const a2a = this.a2a!;
    const message = a2a.invocation(task, args, {
      idempotencyKey: checked.idempotencyKey,
      taskId,
      contextId: checked.contextId,
    });
    try {
      const answer = await a2a.sendMessage(message, requests.call);
      // The continued Task keeps its id (A2A Profile Extension v3, "Invocation message"): a Task
      // in answer must carry it (a Message in answer has no task to compare).
      if (taskId !== undefined && answer.task !== undefined && answer.taskId !== taskId) {
        return otherTask("a2a", "continued", answer.taskId);
      }
      return fromA2A(task, answer);
    } catch (error) {
      if (isTransportFailure(error)) return failedResult("a2a", error);
      throw error;
    }
  }

  /**
   * An MCP task's state as the union: while it runs, its handle; once it has ended `completed` or
   * `failed`, its outcome read with `tasks/result` (MCP 2025-11-25 tasks: the result of a
   * terminal task is the underlying request's result or JSON-RPC error).
   */
  async #mcpTaskOutcome(
    task: string,
    mcpTask: McpTask,
    contextId: string | undefined,
    requests: Requests,
  ): Promise<AgentCallResult> {
    const state = fromMcpTask(task, mcpTask, contextId);
    if (state !== undefined) return state;
    const result = await this.mcp!.getTaskResult(mcpTask.taskId, requests.poll);
    return fromMcpTaskResult(task, mcpTask, result, contextId);
  }

  /** Polls a task once, as the union. */
  async #poll(task: AgentTask, requests: Requests): Promise<AgentCallResult> {
    const taskId = task.taskId!;
    try {
      if (task.via === "a2a_task") {
        const polled = await this.a2a!.getTask(taskId, requests.poll);
        // GetTask answers with the Task polled, its id included; only a JSON-RPC error has none.
        if (!fromRpcError(polled) && polled.taskId !== taskId) {
          return otherTask(this.protocol, "polled", polled.taskId);
        }
        return fromA2A(task.task, polled);
      }
      if (task.via === "mcp_task") {
        const mcp = this.mcp!;
        const polled = await mcp.getTask(taskId, requests.poll);
        if (polled.taskId !== taskId) return otherTask(this.protocol, "polled", polled.taskId);
        return await this.#mcpTaskOutcome(task.task, polled, task.contextId, requests);
      }
      const input = { task_id: taskId, include_result: true };
      const polled = this.a2a !== undefined
        ? fromA2A(
          "get_task_status",
          await this.a2a.sendMessage(
            this.a2a.invocation("get_task_status", input, { contextId: task.contextId }),
            requests.poll,
          ),
        )
        : fromMcp(
          "get_task_status",
          await this.mcp!.callTool("get_task_status", input, requests.poll),
          task.contextId,
        );
      return fromTaskStatus(task, polled);
    } catch (error) {
      if (isTransportFailure(error)) return failedResult(this.protocol, error);
      throw error;
    }
  }

  /**
   * Reports `first`, then, when the call waits, polls while it is pending (and has an id to poll)
   * until another kind comes back or the operation's time is up (then the last pending result).
   */
  async #follow(
    first: AgentCallResult,
    checked: CheckedCall,
    requests: Requests,
  ): Promise<AgentCallResult> {
    let result = first;
    let answers = 1;
    checked.onStatus?.({ result, answers });
    const operation = requests.operation;
    if (operation === undefined) return result;
    while (result.kind === "pending" && result.task.taskId !== undefined) {
      // The call's interval is a floor: the seller's hint (an MCP task's pollInterval, at most
      // MAX_AGENT_POLL_MS) may lengthen it, never shorten it.
      const interval = Math.max(checked.pollMs, result.task.pollIntervalMs ?? 0);
      if (operation.remainingMs <= interval) return result;
      try {
        await sleepWithin(interval, operation);
      } catch (error) {
        if (error instanceof DeadlineExceededError && operation.deadline.expired) return result;
        throw error;
      }
      const next = await this.#poll(result.task, requests);
      // A poll that fails never loses the task: the seller may have accepted the work (a media
      // buy), so the caller gets the handle back, with the failure, instead of a "retry" that
      // would submit it again.
      if (next.kind === "failed") {
        // A poll the wait's own deadline cut off is the time being up, not a failed poll: the
        // caller gets what the time being up always gives, the last pending result.
        const cutOff = next.error instanceof DeadlineExceededError && operation.deadline.expired;
        return cutOff ? result : { ...result, pollFailure: next };
      }
      result = next;
      checked.onStatus?.({ result, answers: ++answers });
    }
    return result;
  }

  /**
   * `result` with its payload validated against the schema of `task` when the call asked for it
   * (see `validate` of {@link AgentCallOptions}), within the call's JSON limits: the validated
   * copy in place of the payload, or `failed` with a {@link ResponseSchemaError}.
   */
  async #validated(
    task: string,
    result: AgentCallResult,
    checked: CheckedCall,
  ): Promise<AgentCallResult> {
    if (!checked.validate) return result;
    const status = result.kind === "success"
      ? "completed"
      : result.kind === "pending" || result.kind === "input_required"
      ? result.task.state
      : undefined;
    if (status === undefined || !("data" in result) || result.data === null) return result;
    const { maxJsonDepth, maxJsonNodes } = callLimits(
      this.#defaults,
      this.#agent,
      checked.limits,
      CALL,
    );
    let verdict;
    try {
      verdict = await validateTaskResponse(task, result.data, {
        status: status as "completed",
        limits: { maxJsonDepth, maxJsonNodes },
      });
    } catch (error) {
      // The client bounded the answer already; a value past the bounds is refused, not thrown.
      if (!(error instanceof JsonDepthLimitError || error instanceof JsonNodeLimitError)) {
        throw error;
      }
      const issue = { pointer: "", message: "Within the call's JSON limits", keyword: "limits" };
      return failedResult(result.protocol, new ResponseSchemaError(task, [], [issue]));
    }
    if (!verdict.valid) {
      return failedResult(
        result.protocol,
        new ResponseSchemaError(task, verdict.schemas, verdict.issues),
      );
    }
    return { ...result, data: verdict.value as Record<string, unknown> } as AgentCallResult;
  }

  /** Checks a task handle of this agent. */
  #checkHandle(action: string, task: AgentTask, needsId: boolean): void {
    if (
      !isObject(task) || !VIAS.has(task.via) ||
      typeof task.task !== "string" || task.task === ""
    ) {
      throw optionError(TypeError, action, "task", "an AgentTask", task);
    }
    if (task.protocol !== this.protocol) {
      throw optionError(TypeError, action, "task", `a task of an ${this.protocol} agent`, task);
    }
    if (needsId && (typeof task.taskId !== "string" || task.taskId === "")) {
      throw optionError(TypeError, action, "task", "a task with a taskId to poll", task);
    }
    if (task.via === "mcp_task" && !needsId) {
      throw optionError(
        TypeError,
        action,
        "task",
        "an A2A or AdCP task (an MCP task's input_required asks for an elicitation)",
        task,
      );
    }
    if (
      task.via === "adcp_task" && task.protocol === "mcp" && !needsId &&
      (typeof task.contextId !== "string" || task.contextId === "")
    ) {
      throw optionError(
        TypeError,
        action,
        "task",
        "an MCP task with the context_id the seller gave (without it, a call starts anew)",
        task,
      );
    }
    if (task.via === "a2a_task" && !needsId && typeof task.taskId !== "string") {
      throw optionError(TypeError, action, "task", "an A2A task with a taskId", task);
    }
  }
}

/**
 * The result of a poll or a continuation answered with another task than the one polled or
 * continued (or with a task without an id): a seller must not move the buyer's polling (and what
 * it waits for) to a task of its choosing.
 */
function otherTask(
  protocol: AgentProtocol,
  action: "polled" | "continued",
  seen: string | undefined,
): AgentCallResult {
  const observed = seen === undefined ? "a task without an id" : "another task id";
  return failedResult(
    protocol,
    new AgentProtocolError("invalid_message", `the task that was ${action}`, observed),
  );
}

/** Whether an A2A answer is a JSON-RPC error (which names no task), not a task or a message. */
function fromRpcError(answer: A2ACallResult): boolean {
  return answer.kind === "jsonrpc_error" ||
    (answer.kind === "error" && answer.path === "jsonrpc_error");
}

/** Checks a task name. */
function checkTaskName(task: unknown): asserts task is string {
  if (typeof task !== "string" || task === "") {
    throw optionError(TypeError, CALL, "task", "a non-empty string", task);
  }
}

/** Checks the options of a call, a wait or a continuation of `task`. */
function checkCall(
  action: string,
  options: AgentCallOptions | undefined,
  task: string,
): CheckedCall {
  objectOption(action, "options", options);
  checkKeys(action, "options", options, CALL_KEYS, CALL_NESTED);
  objectOption(action, "options.limits", options?.limits);
  // Checked here, as this call names it: the protocol client would name it as its own.
  checkKeys(action, "options.limits", options?.limits, CLIENT_LIMIT_KEYS);
  const wait = options?.wait;
  let waitMs: number | undefined;
  if (wait === true) waitMs = DEFAULT_AGENT_WAIT_MS;
  else if (wait !== undefined && wait !== false) {
    if (typeof wait !== "number") {
      throw optionError(TypeError, action, "options.wait", "a boolean or a number", wait);
    }
    if (!(wait > 0 && wait <= MAX_AGENT_WAIT_MS)) {
      throw optionError(
        RangeError,
        action,
        "options.wait",
        `a number of milliseconds in (0, ${MAX_AGENT_WAIT_MS}]`,
        wait,
      );
    }
    waitMs = wait;
  }
  const pollMs = options?.pollIntervalMs ?? DEFAULT_AGENT_POLL_MS;
  if (typeof pollMs !== "number") {
    throw optionError(TypeError, action, "options.pollIntervalMs", "a number", pollMs);
  }
  if (!(pollMs >= MIN_AGENT_POLL_MS && pollMs <= MAX_AGENT_POLL_MS)) {
    throw optionError(
      RangeError,
      action,
      "options.pollIntervalMs",
      `a number of milliseconds in [${MIN_AGENT_POLL_MS}, ${MAX_AGENT_POLL_MS}]`,
      pollMs,
    );
  }
  const key = options?.idempotencyKey;
  if (key !== undefined && typeof key !== "boolean" && typeof key !== "string") {
    throw optionError(TypeError, action, "options.idempotencyKey", "a boolean or a string", key);
  }
  const contextId = options?.contextId;
  if (contextId !== undefined && (typeof contextId !== "string" || contextId === "")) {
    throw optionError(TypeError, action, "options.contextId", "a non-empty string", contextId);
  }
  const push = options?.pushNotification;
  if (push !== undefined) checkPush(action, push);
  const validate = options?.validate ?? false;
  if (typeof validate !== "boolean") {
    throw optionError(TypeError, action, "options.validate", "a boolean", validate);
  }
  if (validate && !knownTasks().includes(task)) {
    throw optionError(
      TypeError,
      action,
      "options.validate",
      "false for a task the pinned schemas do not define",
      validate,
    );
  }
  const mcpTask = options?.mcpTask;
  let taskOption: { readonly ttl: number | undefined } | undefined;
  if (mcpTask === true) taskOption = { ttl: undefined };
  else if (isObject(mcpTask)) {
    checkKeys(action, "options.mcpTask", mcpTask, MCP_TASK_KEYS);
    taskOption = { ttl: mcpTask.ttl };
  } else if (mcpTask !== undefined && mcpTask !== false) {
    throw optionError(TypeError, action, "options.mcpTask", "a boolean or { ttl }", mcpTask);
  }
  return {
    mcpTask: taskOption,
    limits: options?.limits,
    idempotencyKey: key,
    waitMs,
    pollMs,
    onStatus: functionOption(action, "options.onStatus", options?.onStatus),
    push,
    contextId,
    validate,
  };
}

/**
 * Checks a push-notification config: an object with an absolute `http(s):` URL and an
 * `operation_id` (a seller "MUST reject a task that registers an AdCP webhook without it").
 */
function checkPush(action: string, push: unknown): void {
  const url = isObject(push) ? push.url : undefined;
  const operation = isObject(push) ? push.operation_id : undefined;
  let valid = typeof url === "string" && typeof operation === "string" && operation !== "";
  if (valid) {
    try {
      const protocol = new URL(url as string).protocol;
      valid = protocol === "https:" || protocol === "http:";
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    throw optionError(
      TypeError,
      action,
      "options.pushNotification",
      "an object with an absolute http(s) url and an operation_id",
      push,
    );
  }
}

/**
 * The task input to send: `input` with the push-notification config and, over MCP, the
 * conversation's `context_id` (A2A carries its `contextId` in the message). A field the input
 * carries already is not replaced: the call is refused instead.
 */
function requestInput(action: string, input: unknown, checked: CheckedCall): JsonRecord {
  if (!isObject(input)) throw optionError(TypeError, action, "input", "an object", input);
  let args: JsonRecord = input;
  if (checked.push !== undefined) {
    if (Object.hasOwn(input, "push_notification_config")) {
      throw optionError(
        TypeError,
        action,
        "input",
        "an input without push_notification_config when options.pushNotification is given",
        input,
      );
    }
    args = { ...args, push_notification_config: { ...checked.push } };
  }
  // Keyed here, not by the protocol client, so that a failed result can say which key to resend.
  return keyedArgs(args, checked.idempotencyKey, action, "input");
}

/**
 * `result`, with the `idempotency_key` its request carried when it failed: resending the request
 * with that key lets the seller recognize it (Security, "Request safety").
 */
function withKey(result: AgentCallResult, args: JsonRecord): AgentCallResult {
  const key = args.idempotency_key;
  return result.kind === "failed" && typeof key === "string"
    ? { ...result, idempotencyKey: key }
    : result;
}
