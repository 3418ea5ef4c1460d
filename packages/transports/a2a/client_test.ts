// Integration tests of A2AClient against a real agent built with @a2a-js/sdk 1.3.0 (its JSON-RPC
// handler, 1.0 and the v0.3 compat handler) behind Deno.serve on 127.0.0.1. A hand-written
// Deno.serve handler covers a stream that ends early, which the SDK never sends. Every test is
// bounded in time and shuts its server down; sanitizers stay on.
import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { netTest, rejection, within, withServer } from "../_test_utils.ts";
import { type ExecutorInput, startA2AAgent, type TestA2AAgent } from "./_test_a2a.ts";
import { A2AClient, type A2AStreamEvent } from "./mod.ts";
import { AgentProtocolError, ResponseTooLargeError } from "../errors.ts";
import { adcpFailedTask } from "../seller/adcp_failed_task.ts";
import { adcpProfileTaskResponse } from "../seller/adcp_profile_response.ts";

const BOUND_MS = 20_000;
const PRODUCTS = {
  status: "completed",
  products: [{ product_id: "ctv_sports_premium" }],
  total: 1,
};

async function withA2A(
  agent: TestA2AAgent,
  fn: (agent: TestA2AAgent) => Promise<void>,
): Promise<void> {
  try {
    await within(BOUND_MS, fn(agent));
  } finally {
    await agent.close();
  }
}

/** Streams a task: submitted, working with progress, two artifact chunks, completed. */
function streamingExecutor(input: ExecutorInput): void {
  const { taskId, contextId } = input;
  input.publish({ task: { id: taskId, contextId, status: { state: "TASK_STATE_SUBMITTED" } } });
  input.publish({
    statusUpdate: {
      taskId,
      contextId,
      status: {
        state: "TASK_STATE_WORKING",
        message: {
          messageId: "m-progress",
          role: "ROLE_AGENT",
          parts: [{ text: "Searching" }, { data: { percentage: 50 } }],
        },
      },
    },
  });
  input.publish({
    artifactUpdate: {
      taskId,
      contextId,
      artifact: {
        artifactId: "result",
        parts: [{ text: "Found products" }, { data: { progress: 25 } }],
      },
    },
  });
  input.publish({
    artifactUpdate: {
      taskId,
      contextId,
      append: true,
      lastChunk: true,
      artifact: { artifactId: "result", parts: [{ data: PRODUCTS }] },
    },
  });
  input.publish({
    statusUpdate: { taskId, contextId, status: { state: "TASK_STATE_COMPLETED" } },
  });
}

for (const legacy of [false, true]) {
  const wire = legacy ? "v0.3" : "1.0";

  netTest(`A2AClient streams to a final task, accumulating artifact chunks (${wire})`, async () => {
    await withA2A(startA2AAgent(streamingExecutor, { legacy }), async (agent) => {
      const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl });
      strictEqual(client.protocolVersion, legacy ? "0.3" : "1.0");
      const events: A2AStreamEvent[] = [];
      const result = await client.sendStreamingMessage(
        client.invocation("get_products", { brief: "CTV" }),
        { onEvent: (event) => events.push(event) },
      );
      ok(result.kind === "success", `got ${result.kind}`);
      deepStrictEqual(result.data, PRODUCTS);
      strictEqual(result.state, "completed");
      strictEqual(typeof result.taskId, "string");
      deepStrictEqual(
        events.map((event) => [event.type, event.state]),
        [
          ["task", "submitted"],
          ["statusUpdate", "working"],
          ["artifactUpdate", null],
          ["artifactUpdate", null],
          ["statusUpdate", "completed"],
        ],
      );
      // The interim frame's data is its first status-message DataPart.
      deepStrictEqual(events[1]?.outcome, { kind: "success", data: { percentage: 50 } });
      const artifacts = result.task?.artifacts as { parts: unknown[] }[];
      strictEqual(artifacts.length, 1);
      strictEqual(artifacts[0]?.parts.length, 3);
      deepStrictEqual(agent.requests, [
        `${legacy ? "message/stream" : "SendStreamingMessage"} ${legacy ? "0.3" : "1.0"}`,
      ]);
    });
  });

  netTest(`A2AClient sends, then reads the task back with GetTask (${wire})`, async () => {
    await withA2A(startA2AAgent(streamingExecutor, { legacy }), async (agent) => {
      const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl });
      const sent = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
      ok(sent.kind === "success", `got ${sent.kind}`);
      deepStrictEqual(sent.data, PRODUCTS);
      const read = await client.getTask(sent.taskId!);
      ok(read.kind === "success");
      deepStrictEqual(read.data, PRODUCTS);
      strictEqual(read.state, "completed");
    });
  });

  netTest(`A2AClient returns a failed task's adcp_error with its decision (${wire})`, async () => {
    const executor = (input: ExecutorInput) => {
      input.publish({
        task: adcpFailedTask(
          { id: input.taskId, contextId: input.contextId },
          { code: "RATE_LIMITED", message: "Request rate exceeded", retry_after: 5 },
        ),
      });
    };
    await withA2A(startA2AAgent(executor, { legacy }), async (agent) => {
      const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl });
      for (const send of [client.sendMessage, client.sendStreamingMessage]) {
        const result = await send.call(client, client.invocation("create_media_buy", {}));
        ok(result.kind === "error", `got ${result.kind}`);
        strictEqual(result.state, "failed");
        strictEqual(result.path, "artifact");
        deepStrictEqual(result.error, {
          code: "RATE_LIMITED",
          message: "Request rate exceeded",
          recovery: "transient",
          retry_after: 5,
        });
        deepStrictEqual(result.decision, {
          action: "retry",
          delaySeconds: 5,
          delaySource: "retry_after",
        });
      }
    });
  });

  netTest(
    `A2AClient reports an auth challenge outside the allow-list, unfollowed (${wire})`,
    async () => {
      const executor = (input: ExecutorInput) => {
        const { taskId, contextId } = input;
        input.publish({
          task: { id: taskId, contextId, status: { state: "TASK_STATE_SUBMITTED" } },
        });
        input.publish({
          statusUpdate: {
            taskId,
            contextId,
            status: {
              state: "TASK_STATE_AUTH_REQUIRED",
              message: {
                messageId: "m-auth",
                role: "ROLE_AGENT",
                parts: [
                  { text: "Sign in to continue" },
                  {
                    data: {
                      auth_scheme: "oauth2",
                      challenge_url: "https://auth.seller.example/authorize?client_id=c&" +
                        "redirect_uri=https%3A%2F%2Fevil.example",
                      scopes: ["media_buy:write"],
                    },
                  },
                ],
              },
            },
          },
        });
      };
      await withA2A(startA2AAgent(executor, { legacy }), async (agent) => {
        // The card seeds nothing under https: the challenge host is not allowed.
        const client = new A2AClient(agent.card, {
          cardUrl: agent.cardUrl,
        });
        deepStrictEqual(client.authHosts, []);
        const result = await client.sendStreamingMessage(client.invocation("create_media_buy", {}));
        ok(result.kind === "auth_required", `got ${result.kind}`);
        strictEqual(result.state, "auth-required");
        deepStrictEqual(result.challenge, { valid: false, reason: "no_allowed_hosts" });

        const configured = new A2AClient(agent.card, {
          cardUrl: agent.cardUrl,
          authHosts: ["auth.other.example"],
        });
        const again = await configured.sendMessage(configured.invocation("create_media_buy", {}));
        ok(again.kind === "auth_required", `got ${again.kind}`);
        deepStrictEqual(again.challenge, { valid: false, reason: "host_not_allowed" });
      });
      const declared = (input: ExecutorInput) => executor(input);
      const agent = startA2AAgent(declared, {
        legacy,
        cardExtras: { authOrigin: "https://auth.seller.example" },
      });
      await withA2A(agent, async (agent) => {
        const client = new A2AClient(agent.card, {
          cardUrl: agent.cardUrl,
        });
        deepStrictEqual(client.authHosts, ["auth.seller.example"]);
        const result = await client.sendStreamingMessage(client.invocation("create_media_buy", {}));
        ok(result.kind === "auth_required");
        deepStrictEqual(result.challenge, {
          valid: true,
          url: "https://auth.seller.example/authorize?client_id=c",
          authScheme: "oauth2",
          scopes: ["media_buy:write"],
        });
      });
    },
  );
}

netTest("A2AClient returns a JSON-RPC error (unknown task) as a jsonrpc_error member", async () => {
  await withA2A(startA2AAgent(streamingExecutor), async (agent) => {
    const result = await new A2AClient(agent.card, {
      cardUrl: agent.cardUrl,
    }).getTask("no-such-task");
    ok(result.kind === "jsonrpc_error", `got ${result.kind}`);
    strictEqual(typeof result.rpcCode, "number");
    strictEqual(result.task, undefined);
  });
});

netTest("A2AClient bounds the stream cumulatively across frames", async () => {
  const executor = (input: ExecutorInput) => {
    const { taskId, contextId } = input;
    input.publish({ task: { id: taskId, contextId, status: { state: "TASK_STATE_WORKING" } } });
    for (let index = 0; index < 10; index++) {
      input.publish({
        artifactUpdate: {
          taskId,
          contextId,
          append: index > 0,
          artifact: { artifactId: "a", parts: [{ text: "x".repeat(10_000) }] },
        },
      });
    }
    input.publish({
      statusUpdate: { taskId, contextId, status: { state: "TASK_STATE_COMPLETED" } },
    });
  };
  await withA2A(startA2AAgent(executor), async (agent) => {
    const client = new A2AClient(agent.card, {
      cardUrl: agent.cardUrl,
      agentLimits: { maxResponseBytes: 50_000 },
    });
    const error = await rejection(client.sendStreamingMessage(client.invocation("x", {})));
    ok(error instanceof ResponseTooLargeError);
    strictEqual(error.phase, "cumulative");
    strictEqual(error.limit, 50_000);
  });
});

netTest("A2AClient throws stream_ended when the stream ends before a final state", async () => {
  await within(
    BOUND_MS,
    withServer(async (request) => {
      const body = await request.json();
      const frame = {
        task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } },
      };
      return new Response(
        `data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: frame })}\n\n`,
        {
          headers: { "content-type": "text/event-stream" },
        },
      );
    }, async (base) => {
      const card = {
        supportedInterfaces: [{
          url: `${base}/a2a`,
          protocolBinding: "JSONRPC",
          protocolVersion: "1.0",
        }],
      };
      const client = new A2AClient(card, { cardUrl: `${base}/.well-known/agent-card.json` });
      const error = await rejection(client.sendStreamingMessage(client.invocation("x", {})));
      ok(error instanceof AgentProtocolError);
      strictEqual(error.reason, "stream_ended");
    }),
  );
});

netTest("A2AClient refuses a card without a usable JSON-RPC interface", () => {
  for (
    const card of [
      {},
      {
        supportedInterfaces: [{
          url: "http://sales.example/a2a",
          protocolBinding: "JSONRPC",
          protocolVersion: "1.0",
        }],
      },
      {
        supportedInterfaces: [{
          url: "https://sales.example/a2a",
          protocolBinding: "GRPC",
          protocolVersion: "1.0",
        }],
      },
      { url: "https://sales.example/", protocolVersion: "0.2.5" },
    ]
  ) {
    try {
      new A2AClient(card, { cardUrl: "https://sales.example/.well-known/agent-card.json" });
      ok(false, "expected a throw");
    } catch (error) {
      ok(error instanceof AgentProtocolError);
      strictEqual(error.reason, "agent_card");
    }
  }
  return Promise.resolve();
});

netTest("A2AClient retries a transient failed task within the budget", async () => {
  let calls = 0;
  const executor = (input: ExecutorInput) => {
    calls++;
    if (calls === 1) {
      input.publish({
        task: adcpFailedTask(
          { id: input.taskId, contextId: input.contextId },
          { code: "SERVICE_UNAVAILABLE", message: "Try again", retry_after: 2 },
        ),
      });
      return;
    }
    streamingExecutor(input);
  };
  await withA2A(startA2AAgent(executor), async (agent) => {
    const waits: number[] = [];
    const client = new A2AClient(agent.card, {
      cardUrl: agent.cardUrl,
      retry: {
        sleep: (ms: number) => {
          waits.push(ms);
          return Promise.resolve();
        },
      },
    });
    const { messageId: _, ...message } = client.invocation("get_products", {});
    const result = await client.sendMessage(message);
    ok(result.kind === "success", `got ${result.kind}`);
    deepStrictEqual(result.data, PRODUCTS);
    deepStrictEqual(waits, [2_000]);
    strictEqual(calls, 2);
  });
});

netTest(
  "A2AClient reads AdCP Submitted work from the completed task adcpProfileTaskResponse builds",
  async () => {
    const submitted = { status: "submitted", task_id: "adcp-task-9a21", message: "Awaiting IO" };
    const executor = (input: ExecutorInput) => {
      const ids = { id: input.taskId, contextId: input.contextId };
      input.publish(adcpProfileTaskResponse(submitted, ids, { summary: "Awaiting IO signature." }));
    };
    await withA2A(startA2AAgent(executor), async (agent) => {
      const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl });
      for (const send of [client.sendMessage, client.sendStreamingMessage]) {
        const result = await send.call(client, client.invocation("create_media_buy", {}));
        ok(result.kind === "success", `got ${result.kind}`);
        strictEqual(result.state, "completed");
        deepStrictEqual(result.data, submitted);
        ok(result.taskId !== submitted.task_id);
      }
    });
  },
);

netTest(
  "A2AClient refuses AdCP Submitted work an agent leaves in native TASK_STATE_SUBMITTED",
  async () => {
    const executor = (input: ExecutorInput) => {
      input.publish({
        task: {
          id: input.taskId,
          contextId: input.contextId,
          status: { state: "TASK_STATE_SUBMITTED" },
          artifacts: [{
            artifactId: "adcp-result",
            parts: [{ data: { status: "submitted", task_id: "adcp-task-9a22" } }],
          }],
        },
      });
    };
    await withA2A(startA2AAgent(executor), async (agent) => {
      const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl });
      const error = await rejection(client.sendMessage(client.invocation("create_media_buy", {})));
      ok(error instanceof AgentProtocolError, String(error));
      strictEqual(error.reason, "adcp_profile");
      ok(error.message.includes("submitted_handler_return_not_a2a_completed"), error.message);
    });
  },
);

Deno.test("textMessage builds a plain text message in the client's wire version", async () => {
  const card = (version: string) => ({
    supportedInterfaces: [{
      url: "https://a.example/",
      protocolBinding: "JSONRPC",
      protocolVersion: version,
    }],
  });
  const v1 = new A2AClient(card("1.0"), { cardUrl: "https://a.example/", extensions: [] });
  const message = v1.textMessage("Hello", { taskId: "t1", contextId: "c1" });
  deepStrictEqual({ ...message, messageId: "-" }, {
    messageId: "-",
    taskId: "t1",
    contextId: "c1",
    role: "ROLE_USER",
    parts: [{ text: "Hello" }],
  });
  ok(typeof message.messageId === "string" && message.messageId !== v1.textMessage("x").messageId);
  const v03 = new A2AClient(card("0.3"), { cardUrl: "https://a.example/" });
  deepStrictEqual({ ...v03.textMessage("Hello"), messageId: "-" }, {
    kind: "message",
    messageId: "-",
    role: "user",
    parts: [{ kind: "text", text: "Hello" }],
  });
  throws(() => v1.textMessage(""), TypeError);
  throws(() => v1.textMessage("x", { taskId: "t1" }), TypeError);
  // With the profile active, only invocations are sent: a text message is refused unsent.
  const profiled = new A2AClient(card("1.0"), { cardUrl: "https://a.example/" });
  await rejects(() => profiled.sendMessage(profiled.textMessage("Hello")), TypeError);
});
