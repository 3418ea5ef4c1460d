// Reading an A2A `SendStreamingMessage` / `message/stream` answer: JSON-RPC responses in SSE
// events, frames accumulated until a final or interrupted state.
import {
  type A2AExtractOptions,
  isFinalA2ATaskState,
  isInterruptedA2ATaskState,
} from "@adcp-wire/core";
import { asRpcResponse, type Call, CallerError, parseEventData } from "../client/_rpc.ts";
import { AgentProtocolError } from "../errors.ts";
import { readSseEvents } from "../read/sse.ts";
import { Accumulator } from "./_accumulator.ts";
import { profileAnswerError, profileTask } from "./_profile_response.ts";
import {
  classifyA2A,
  classifyRpcError,
  classifyTask,
  type Frame,
  invalid,
  messageResult,
  readFrame,
  stateOf,
} from "./_frames.ts";
import type { A2ACallResult, A2AProtocolVersion, A2AStreamEvent } from "./types.ts";

/** What a stream read needs from its client. */
export interface StreamContext {
  readonly version: A2AProtocolVersion;
  readonly authHosts: readonly string[];
  /** Whether the final task is held to the AdCP A2A profile's task rules. */
  readonly adcpProfile: boolean;
}

export async function readTaskStream(
  response: Response,
  id: number,
  call: Call,
  onEvent: ((event: A2AStreamEvent) => void) | undefined,
  extract: A2AExtractOptions,
  context: StreamContext,
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
      const done = finish(
        accumulator,
        readFrame(rpc.result, context.version, false),
        report,
        extract,
        context,
      );
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
function finish(
  accumulator: Accumulator,
  frame: Frame,
  onEvent: ((event: A2AStreamEvent) => void) | undefined,
  extract: A2AExtractOptions,
  context: StreamContext,
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
  if (state !== null && (isFinalA2ATaskState(state) || isInterruptedA2ATaskState(state))) {
    const task = accumulator.build();
    if (context.adcpProfile) {
      // The task rules of the profile that do not depend on the shape of a non-streaming answer:
      // Submitted only in a completed task, the AdCP task_id only in the DataPart.
      const error = profileAnswerError(profileTask(task, undefined, true));
      if (error !== undefined) throw error;
    }
    return classifyTask(task, extract, context.authHosts);
  }
  return undefined;
}
