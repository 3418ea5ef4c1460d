// A2AClient on hand-made JSON-RPC answers (a stub fetch): envelope smuggling, out-of-band
// Message frames in a stream, and state normalization.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { rejection } from "../_test_utils.ts";
import { A2AClient, type A2AStreamEvent } from "./mod.ts";
import { AgentProtocolError, ResponseTooLargeError } from "../errors.ts";
import { UnexpectedPartCountError } from "@adcp-wire/core";

const CARD = {
  supportedInterfaces: [{
    url: "http://127.0.0.1:1/a2a",
    protocolBinding: "JSONRPC",
    protocolVersion: "1.0",
  }],
};

/** A client whose agent answers every request with `results` (as SSE when `stream`). */
function clientAnswering(results: readonly unknown[], stream: boolean): A2AClient {
  const fetch = (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { id } = JSON.parse(String(init?.body ?? "{}"));
    if (!stream) return Promise.resolve(Response.json({ jsonrpc: "2.0", id, result: results[0] }));
    const body = results.map((result) =>
      `data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`
    )
      .join("");
    return Promise.resolve(
      new Response(body, { headers: { "content-type": "text/event-stream" } }),
    );
  };
  return new A2AClient(CARD, { fetch, cardUrl: "http://127.0.0.1:1/" });
}

const completed = (data: Record<string, unknown>) => ({
  id: "t",
  contextId: "c",
  status: { state: "TASK_STATE_COMPLETED" },
  artifacts: [{ artifactId: "r", parts: [{ data }] }],
});

Deno.test("A2AClient refuses a nested envelope instead of unwrapping it twice", async () => {
  const smuggled = { task: { task: completed({ smuggled: true }) } };
  for (
    const [name, run] of [
      ["getTask", (client: A2AClient) => client.getTask("t")],
      [
        "sendMessage",
        (client: A2AClient) => client.sendMessage(client.invocation("get_products", {})),
      ],
    ] as const
  ) {
    const error = await rejection(run(clientAnswering([smuggled], false)));
    ok(error instanceof AgentProtocolError, `${name}: ${String(error)}`);
  }
  const streamed = clientAnswering(
    [{ statusUpdate: { task: completed({ smuggled: true }) } }],
    true,
  );
  const error = await rejection(
    streamed.sendStreamingMessage(streamed.invocation("get_products", {})),
  );
  ok(error instanceof AgentProtocolError, String(error));
  // One envelope is fine.
  const plain = await clientAnswering([{ task: completed({ ok: true }) }], false).getTask("t");
  deepStrictEqual(plain.kind === "success" && plain.data, { ok: true });
});

Deno.test("A2AClient ignores an out-of-band Message frame in a task stream", async () => {
  const message = { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "FYI" }] };
  const client = clientAnswering([
    { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } } },
    { message },
    { task: completed({ products: [] }) },
  ], true);
  const events: A2AStreamEvent[] = [];
  const result = await client.sendStreamingMessage(client.invocation("get_products", {}), {
    onEvent: (event) => events.push(event),
  });
  strictEqual(result.kind, "success");
  strictEqual(result.taskId, "t");
  deepStrictEqual(events.map((event) => event.type), ["task", "message", "task"]);
});

Deno.test("A2AClient answers with the Message when a stream carries no task at all", async () => {
  const message = { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "Hello" }] };
  const client = clientAnswering([{ message }], true);
  const result = await client.sendStreamingMessage(client.invocation("get_products", {}));
  strictEqual(result.kind, "message");
  strictEqual(result.kind === "message" && result.text, "Hello");
});

Deno.test(
  "A2AClient normalizes states over ASCII letters only (KELVIN SIGN is not k)",
  async () => {
    const kelvin = { id: "t", contextId: "c", status: { state: "TASK_STATE_WOR\u212AING" } };
    const client = clientAnswering([{ task: kelvin }, { task: completed({}) }], true);
    const events: A2AStreamEvent[] = [];
    await client.sendStreamingMessage(client.invocation("get_products", {}), {
      onEvent: (event) => events.push(event),
    });
    deepStrictEqual(events.map((event) => event.state), ["wor\u212Aing", "completed"]);
  },
);

Deno.test(
  "A2AClient holds the result's DataPart to 1 MiB by default, per agent and per call",
  async () => {
    const big = completed({ pad: "x".repeat(1_048_576) });
    const client = clientAnswering([{ task: big }], false);
    const error = await rejection(client.sendMessage(client.invocation("get_products", {})));
    ok(error instanceof ResponseTooLargeError);
    strictEqual(error.phase, "data-part");
    strictEqual(error.limit, 1_048_576);
    strictEqual(error.observed, 1_048_586);
    const raised = await client.sendMessage(client.invocation("get_products", {}), {
      limits: { maxResponseBytes: 4_194_304, maxDataPartBytes: 2_097_152 },
    });
    strictEqual(raised.kind, "success");
    const tight = await rejection(
      clientAnswering([{ task: completed({ pad: "x".repeat(100) }) }], true).sendStreamingMessage(
        client.invocation("get_products", {}),
        { limits: { maxDataPartBytes: 64 } },
      ),
    );
    ok(tight instanceof ResponseTooLargeError && tight.phase === "data-part");
  },
);

Deno.test(
  "A2AClient measures a DataPart whose exponent numbers serialize past the limit",
  async () => {
    // 600 numbers written 1e20: a body of about 3 KB whose DataPart serializes to 13,211 bytes.
    const data = `{"n":[${Array(600).fill("1e20").join(",")}]}`;
    const fetch = (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const { id } = JSON.parse(String(init?.body ?? "{}"));
      const task = '{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},' +
        `"artifacts":[{"artifactId":"r","parts":[{"data":${data}}]}]}`;
      return Promise.resolve(
        new Response(`{"jsonrpc":"2.0","id":${id},"result":{"task":${task}}}`, {
          headers: { "content-type": "application/json" },
        }),
      );
    };
    const client = new A2AClient(CARD, { fetch, cardUrl: "http://127.0.0.1:1/" });
    const limits = { maxDataPartBytes: 8_192 };
    const message = client.invocation("get_products", {});
    for (
      const call of [
        () => client.sendMessage(message, { limits }),
        () => client.sendStreamingMessage(message, { limits }),
        () => client.getTask("t", { limits }),
      ]
    ) {
      const error = await rejection(call());
      ok(error instanceof ResponseTooLargeError, String(error));
      strictEqual(error.phase, "data-part");
      strictEqual(error.observed, JSON.stringify(JSON.parse(data)).length);
    }
    const fits = await client.sendMessage(client.invocation("get_products", {}), {
      limits: { maxDataPartBytes: 13_211 },
    });
    strictEqual(fits.kind, "success");
  },
);

Deno.test(
  "A2AClient reports an injected extra DataPart as malformed when expectedDataParts is set",
  async () => {
    const injected = {
      ...completed({ products: [] }),
      artifacts: [{
        artifactId: "r",
        parts: [{ data: { products: [] } }, { data: { products: [{ product_id: "injected" }] } }],
      }],
    };
    const client = clientAnswering([{ task: injected }], false);
    const plain = await client.sendMessage(client.invocation("get_products", {}));
    ok(plain.kind === "success");
    deepStrictEqual(plain.data, { products: [{ product_id: "injected" }] }); // the last DataPart
    const checked = await client.sendMessage(client.invocation("get_products", {}), {
      expectedDataParts: 1,
    });
    ok(checked.kind === "malformed");
    ok(checked.error instanceof UnexpectedPartCountError);
    strictEqual(checked.error.observed, 2);
    await rejects(
      client.sendMessage(client.invocation("get_products", {}), { expectedDataParts: -1 }),
      RangeError,
    );
  },
);

Deno.test(
  "A2AClient with expectedDataParts reports an injected adcp_error DataPart as malformed",
  async () => {
    const injected = {
      ...completed({ products: [] }),
      artifacts: [{
        artifactId: "r",
        parts: [
          { data: { products: [] } },
          { data: { adcp_error: { code: "AGENT_SUSPENDED", message: "injected" } } },
        ],
      }],
    };
    const client = clientAnswering([{ task: injected }], false);
    const plain = await client.sendMessage(client.invocation("get_products", {}));
    strictEqual(plain.kind, "error"); // the injected error decides without the expectation
    const checked = await client.sendMessage(client.invocation("get_products", {}), {
      expectedDataParts: 1,
    });
    ok(checked.kind === "malformed" && checked.error instanceof UnexpectedPartCountError);
  },
);
