// Property tests: whatever an agent answers, McpClient and A2AClient return a result member or
// throw an error of the AdcpTransportError family, never anything else (a TypeError from reading a
// malformed object, an unhandled shape). Answers come from an in-memory fetch.
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { A2A_KINDS, isAnyTransportError, MCP_KINDS } from "./_test_utils.ts";
import { A2AClient } from "./a2a/mod.ts";
import { McpClient } from "./mcp/mod.ts";

const part = fc.oneof(
  fc.record({ text: fc.string() }),
  fc.record({ data: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()) }),
  fc.record({ kind: fc.constantFrom("text", "data"), data: fc.jsonValue(), text: fc.jsonValue() }),
  fc.jsonValue(),
);
const taskState = fc.constantFrom(
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_WORKING",
  "TASK_STATE_AUTH_REQUIRED",
  "TASK_STATE_INPUT_REQUIRED",
  "completed",
  "auth-required",
  "TASK_STATE_NOVEL",
);
const task = fc.record({
  id: fc.oneof(fc.string(), fc.jsonValue()),
  contextId: fc.string(),
  status: fc.oneof(
    fc.record({
      state: taskState,
      message: fc.record({ parts: fc.array(part, { maxLength: 4 }) }),
    }, { requiredKeys: ["state"] }),
    fc.jsonValue(),
  ),
  artifacts: fc.oneof(
    fc.array(fc.record({ artifactId: fc.string(), parts: fc.array(part, { maxLength: 4 }) })),
    fc.jsonValue(),
  ),
}, { requiredKeys: [] });
const frame = fc.oneof(
  fc.record({ task }),
  fc.record({ statusUpdate: task }),
  fc.record({
    artifactUpdate: fc.record({
      taskId: fc.string(),
      append: fc.boolean(),
      artifact: fc.jsonValue(),
    }),
  }),
  fc.record({ message: fc.record({ parts: fc.array(part, { maxLength: 3 }) }) }),
  fc.jsonValue(),
);

async function settle(
  promise: Promise<{ kind: string }>,
  kinds: ReadonlySet<string>,
): Promise<void> {
  try {
    const result = await promise;
    ok(kinds.has(result.kind), `unexpected kind ${result.kind}`);
  } catch (error) {
    ok(isAnyTransportError(error), `unexpected ${error}`);
  }
}

Deno.test(
  "McpClient.callTool() returns a result member or a transport error for any answer",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ kind: fc.constant("result"), value: fc.jsonValue() }),
          fc.record({
            kind: fc.constant("error"),
            value: fc.record({ code: fc.integer(), message: fc.jsonValue(), data: fc.jsonValue() }),
          }),
          fc.record({ kind: fc.constant("raw"), value: fc.string() }),
          fc.record({
            kind: fc.constant("sse"),
            value: fc.array(fc.jsonValue(), { maxLength: 4 }),
          }),
        ),
        fc.integer({ min: 200, max: 599 }),
        async (answer, status) => {
          const answerFor = (init?: RequestInit): Response => {
            const message = JSON.parse(String(init?.body ?? "{}"));
            if (message.method === "initialize") {
              return Response.json({
                jsonrpc: "2.0",
                id: message.id,
                result: { protocolVersion: "2025-11-25", capabilities: {} },
              });
            }
            if (message.id === undefined) return new Response(null, { status: 202 });
            const nullBody = status === 204 || status === 205 || status === 304;
            if (answer.kind === "raw") {
              return new Response(nullBody ? null : answer.value, {
                status,
                headers: { "content-type": "application/json" },
              });
            }
            if (answer.kind === "sse") {
              const events = answer.value.map((value) => `data: ${JSON.stringify(value)}\n\n`);
              const body = events.join("");
              return new Response(body, { headers: { "content-type": "text/event-stream" } });
            }
            const body = answer.kind === "result"
              ? { jsonrpc: "2.0", id: message.id, result: answer.value }
              : { jsonrpc: "2.0", id: message.id, error: answer.value };
            if (answer.kind === "error" && nullBody) return new Response(null, { status });
            return Response.json(body, { status: answer.kind === "error" ? status : 200 });
          };
          const fetch = (_input: string | URL | Request, init?: RequestInit) =>
            Promise.resolve(answerFor(init));
          await settle(
            new McpClient("http://127.0.0.1:1/mcp", { fetch, maxReconnects: 0 }).callTool("t"),
            MCP_KINDS,
          );
        },
      ),
      { numRuns: 300 },
    );
  },
);

Deno.test("A2AClient returns a result member or a transport error for any answer", async () => {
  const card = {
    supportedInterfaces: [{
      url: "http://127.0.0.1:1/a2a",
      protocolBinding: "JSONRPC",
      protocolVersion: "1.0",
    }],
  };
  await fc.assert(
    fc.asyncProperty(
      fc.array(frame, { minLength: 1, maxLength: 6 }),
      fc.boolean(),
      async (frames, stream) => {
        const answerFor = (init?: RequestInit): Response => {
          const request = JSON.parse(String(init?.body ?? "{}"));
          if (!stream) return Response.json({ jsonrpc: "2.0", id: request.id, result: frames[0] });
          const body = frames.map((result) =>
            `data: ${JSON.stringify({ jsonrpc: "2.0", id: request.id, result })}\n\n`
          )
            .join("");
          return new Response(body, { headers: { "content-type": "text/event-stream" } });
        };
        const fetch = (_input: string | URL | Request, init?: RequestInit) =>
          Promise.resolve(answerFor(init));
        const client = new A2AClient(card, {
          fetch,
          cardUrl: "http://127.0.0.1:1/",
          authHosts: ["auth.example"],
        });
        const message = client.invocation("get_products", {});
        await settle(
          stream ? client.sendStreamingMessage(message) : client.sendMessage(message),
          A2A_KINDS,
        );
        await settle(client.getTask("t1"), A2A_KINDS);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test(
  "A2AClient reports a { response } wrapper DataPart as malformed, never throwing it",
  async () => {
    const card = {
      supportedInterfaces: [{
        url: "http://127.0.0.1:1/a2a",
        protocolBinding: "JSONRPC",
        protocolVersion: "1.0",
      }],
    };
    const wrapped = {
      task: {
        id: "t1",
        contextId: "c1",
        status: { state: "TASK_STATE_COMPLETED" },
        artifacts: [{ artifactId: "a", parts: [{ data: { response: { products: [] } } }] }],
      },
    };
    const fetch = (_input: string | URL | Request, init?: RequestInit) => {
      const request = JSON.parse(String(init?.body ?? "{}"));
      return Promise.resolve(Response.json({ jsonrpc: "2.0", id: request.id, result: wrapped }));
    };
    const client = new A2AClient(card, {
      fetch,
      cardUrl: "http://127.0.0.1:1/",
      authHosts: ["auth.example"],
    });
    const result = await client.sendMessage(client.invocation("get_products", {}));
    ok(result.kind === "malformed", `kind ${result.kind}`);
    ok(result.error.code === "WRAPPER_DETECTED");
  },
);
