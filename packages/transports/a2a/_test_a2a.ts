// Test helpers: a real A2A agent built with @a2a-js/sdk 1.3.0 (DefaultRequestHandler and its
// JSON-RPC transport handler, or the v0.3 LegacyJsonRpcTransportHandler) behind Deno.serve on
// 127.0.0.1. The executor publishes A2A 1.0 ProtoJSON frames, turned into the SDK's objects with
// its own fromJSON. Test code only: the package's runtime never imports the SDK.
import {
  AgentCard,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from "npm:@a2a-js/sdk@1.3.0";
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from "npm:@a2a-js/sdk@1.3.0/server";
import { LegacyJsonRpcTransportHandler } from "npm:@a2a-js/sdk@1.3.0/compat/v0_3/server";

/** A 1.0 ProtoJSON StreamResponse frame: exactly one of task, statusUpdate, artifactUpdate. */
export type ProtoFrame =
  | { readonly task: Record<string, unknown> }
  | { readonly statusUpdate: Record<string, unknown> }
  | { readonly artifactUpdate: Record<string, unknown> };

/** What an executor gets: the ids of the task, and a way to publish frames. */
export interface ExecutorInput {
  readonly taskId: string;
  readonly contextId: string;
  /** The user message as received, in ProtoJSON. */
  readonly message: unknown;
  publish(frame: ProtoFrame): void;
}

/** A running test A2A agent. */
export interface TestA2AAgent {
  /** The JSON-RPC endpoint. */
  readonly url: string;
  /** The agent card the client should use (1.0, or v0.3 with `legacy`). */
  readonly card: Record<string, unknown>;
  /** Where the card is served: its origin binds the card's interfaces. */
  readonly cardUrl: string;
  /** Methods of the JSON-RPC requests seen, with their A2A-Version header. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Starts an agent whose executor is `execute`. */
export function startA2AAgent(
  execute: (input: ExecutorInput) => Promise<void> | void,
  options: { readonly legacy?: boolean; readonly cardExtras?: Record<string, unknown> } = {},
): TestA2AAgent {
  const requests: string[] = [];
  const encoder = new TextEncoder();
  const holder: { handler?: JsonRpcTransportHandler | LegacyJsonRpcTransportHandler } = {};
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = await request.json();
    requests.push(`${body.method} ${request.headers.get("a2a-version")}`);
    const context = new ServerCallContext({
      requestedVersion: request.headers.get("a2a-version") ?? "0.3",
    });
    const answer = await holder.handler!.handle(body, context);
    if (typeof (answer as AsyncIterable<unknown>)[Symbol.asyncIterator] !== "function") {
      return Response.json(answer);
    }
    const iterator = (answer as AsyncGenerator<unknown>)[Symbol.asyncIterator]();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
        } catch (error) {
          const rpc = {
            jsonrpc: "2.0",
            id: body.id,
            error: JsonRpcTransportHandler.mapToJSONRPCError(error),
          };
          controller.enqueue(encoder.encode(`event: error\ndata: ${JSON.stringify(rpc)}\n\n`));
          controller.close();
        }
      },
      async cancel() {
        await iterator.return?.(undefined);
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  const url = `http://127.0.0.1:${http.addr.port}/a2a`;
  const cardJson = {
    name: "Test seller",
    description: "An AdCP seller for tests",
    version: "1.0.0",
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    capabilities: {
      streaming: true,
      extensions: [{ uri: "https://adcontextprotocol.org/extensions/adcp/v3", required: false }],
    },
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: [{ id: "get_products", name: "Products", description: "Products", tags: ["adcp"] }],
  };
  const requestHandler = new DefaultRequestHandler(
    AgentCard.fromJSON(cardJson),
    new InMemoryTaskStore(),
    {
      async execute(requestContext, eventBus) {
        await execute({
          taskId: requestContext.taskId,
          contextId: requestContext.contextId,
          message: requestContext.userMessage,
          publish(frame) {
            if ("task" in frame) eventBus.publish(AgentEvent.task(Task.fromJSON(frame.task)));
            else if ("statusUpdate" in frame) {
              eventBus.publish(
                AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON(frame.statusUpdate)),
              );
            } else {
              eventBus.publish(
                AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON(frame.artifactUpdate)),
              );
            }
          },
        });
        eventBus.finished();
      },
      cancelTask() {
        return Promise.resolve();
      },
    },
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    { keepBusAliveStates: [] },
  );
  holder.handler = options.legacy
    ? new LegacyJsonRpcTransportHandler(requestHandler)
    : new JsonRpcTransportHandler(requestHandler);
  const card = options.legacy
    ? {
      name: "Test seller",
      url,
      protocolVersion: "0.3.0",
      preferredTransport: "JSONRPC",
      capabilities: { streaming: true },
      ...options.cardExtras,
    }
    : { ...cardJson, ...options.cardExtras };
  return {
    url,
    card,
    cardUrl: new URL("/.well-known/agent-card.json", url).href,
    requests,
    async close() {
      await http.shutdown();
    },
  };
}
