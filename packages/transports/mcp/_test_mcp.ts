// Test helpers: real MCP servers built with @modelcontextprotocol/sdk behind Deno.serve on
// 127.0.0.1, one WebStandardStreamableHTTPServerTransport per session, and a small event store for
// resumable SSE. Test code only: the package's runtime never imports the SDK.
import {
  type Server,
  Server as SdkServer,
} from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
import { InMemoryTaskStore } from "npm:@modelcontextprotocol/sdk@1.32.2/experimental/tasks";
import type { McpServer } from "npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js";
import {
  type EventStore,
  WebStandardStreamableHTTPServerTransport,
} from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";

/** A running test agent. */
export interface TestAgent {
  /** The MCP endpoint URL. */
  readonly url: string;
  /** Requests seen, as "METHOD last-event-id?" strings. */
  readonly requests: string[];
  /** Closes every session and shuts the HTTP server down. */
  close(): Promise<void>;
}

/** Options of {@link startMcpAgent}. */
export interface StartOptions {
  /** Answer POSTs with one JSON body (`enableJsonResponse`) instead of SSE. */
  readonly json: boolean;
  /** Event store for resumable SSE streams. */
  readonly eventStore?: EventStore;
  /** SSE `retry` interval sent in the priming event, in milliseconds. */
  readonly retryInterval?: number;
}

/**
 * Starts an agent whose sessions each get a fresh server from `create` (an McpServer or a
 * low-level Server), connected to a fresh transport.
 */
export async function startMcpAgent(
  create: () => McpServer | Server,
  options: StartOptions,
): Promise<TestAgent> {
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const servers: (McpServer | Server)[] = [];
  const requests: string[] = [];
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const lastEventId = request.headers.get("last-event-id");
    requests.push(lastEventId === null ? request.method : `${request.method} ${lastEventId}`);
    const sessionId = request.headers.get("mcp-session-id");
    let transport = sessionId === null ? undefined : transports.get(sessionId);
    if (transport === undefined) {
      if (sessionId !== null) {
        await request.body?.cancel();
        return Response.json({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32001, message: "Session not found" },
        }, {
          status: 404,
        });
      }
      const created: WebStandardStreamableHTTPServerTransport =
        new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          enableJsonResponse: options.json,
          keepAliveMs: 0,
          onsessioninitialized: (id: string) => {
            transports.set(id, created);
          },
          ...(options.eventStore === undefined ? {} : { eventStore: options.eventStore }),
          ...(options.retryInterval === undefined ? {} : { retryInterval: options.retryInterval }),
        });
      const server = create();
      await server.connect(created);
      servers.push(server);
      transport = created;
    }
    return await transport.handleRequest(request);
  });
  await Promise.resolve();
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    requests,
    async close() {
      for (const server of servers) await server.close();
      await http.shutdown();
    },
  };
}

/** A minimal in-memory event store: event ids are `<streamId>|<n>`. */
export class TestEventStore implements EventStore {
  readonly #events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];
  #next = 0;

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}|${this.#next++}`;
    this.#events.push({ id, streamId, message });
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.#events.find((event) => event.id === eventId)?.streamId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const index = this.#events.findIndex((event) => event.id === lastEventId);
    const streamId = this.#events[index]?.streamId ?? "";
    for (const event of this.#events.slice(index + 1)) {
      if (event.streamId !== streamId) continue;
      if (Object.keys(event.message).length === 0) continue; // priming events
      await send(event.id, event.message);
    }
    return streamId;
  }
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The part of the SDK handler's `extra` a task-creating tool uses. */
interface TaskExtra {
  readonly taskStore?: {
    createTask(
      options: { ttl?: number | null; pollInterval?: number },
    ): Promise<{ taskId: string }>;
    storeTaskResult(taskId: string, status: "completed", result: unknown): Promise<void>;
  } | undefined;
}

/** A server factory whose tools run as MCP tasks when asked, and what to clean up after it. */
export interface TaskAgent {
  /** Creates the server (for {@link startMcpAgent}). */
  readonly create: () => Server;
  /** Clears pending completions and the task store. */
  cleanup(): void;
}

/**
 * A low-level Server with MCP tasks (`InMemoryTaskStore`): every `tools/call` answers `result`, at
 * once, or, when the call asks for a task, as a task that completes with it after `delayMs`.
 */
export function taskAgent(result: unknown, delayMs: number): TaskAgent {
  const taskStore = new InMemoryTaskStore();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const create = () => {
    const server = new SdkServer({ name: "tasks", version: "1.0.0" }, {
      capabilities: {
        tools: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    server.setRequestHandler(
      CallToolRequestSchema,
      async (request: CallToolRequest, extra: TaskExtra) => {
        if (!request.params.task) return result as never;
        const task = await extra.taskStore!.createTask({
          ttl: request.params.task.ttl ?? 60_000,
          pollInterval: 50,
        });
        const timer = setTimeout(() => {
          timers.delete(timer);
          extra.taskStore!.storeTaskResult(task.taskId, "completed", result).catch(() => {});
        }, delayMs);
        timers.add(timer);
        return { task };
      },
    );
    return server;
  };
  return {
    create,
    cleanup() {
      for (const timer of timers) clearTimeout(timer);
      taskStore.cleanup();
    },
  };
}
