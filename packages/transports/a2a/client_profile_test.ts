// A2AClient and the AdCP A2A Profile Extension v3, end to end: against fakeA2AAgent (which follows
// the profile and refuses unactivated requests), and against a hostile in-process agent answering
// with every invalid response vector, upstream and local.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { A2A_KINDS, isAnyTransportError, rejection, within } from "../_test_utils.ts";
import { AgentProtocolError } from "../errors.ts";
import { adcpFailedTask } from "../seller/adcp_failed_task.ts";
import { adcpProfileInputRequired } from "../seller/adcp_profile_input_required.ts";
import { fakeA2AAgent, type FakeRequest } from "../testing/fake_agent.ts";
import { copy, hostile, localProfileVectors, upstreamProfileVectors } from "./_test_profile.ts";
import {
  A2AClient,
  ADCP_A2A_PROFILE,
  checkAdcpProfileAdvertisement,
  checkAdcpProfileInvocation,
  checkAdcpProfileResponse,
} from "./mod.ts";

const BOUND_MS = 10_000;
const SUBMITTED = { status: "submitted", task_id: "adcp-task-9a21", message: "Awaiting IO" };
const CARD = {
  supportedInterfaces: [{
    url: "https://seller.example/a2a",
    protocolBinding: "JSONRPC",
    protocolVersion: "1.0",
  }],
};

function profileAgent() {
  return fakeA2AAgent({
    skills: {
      get_adcp_capabilities: () => ({
        data: { adcp: { major_versions: [3] }, supported_protocols: ["media_buy"] },
      }),
      create_media_buy: () => ({ data: SUBMITTED }),
      get_task_status: (input) => ({
        data: { task_id: input.task_id, task_type: "create_media_buy", status: "working" },
      }),
      get_products: (input, ids) =>
        input.brief === undefined
          ? { task: adcpProfileInputRequired(ids, { summary: "Which brief?" }).task }
          : { data: { status: "completed", products: [], brief: input.brief } },
      fail: (_input, ids) => ({
        task: adcpFailedTask(ids, { code: "SERVICE_UNAVAILABLE", message: "Try later" }),
      }),
    },
  });
}

/** A client whose agent answers every POST with `result` (as JSON), recording the bodies. */
function answering(result: unknown, options: { extensions?: string[] } = {}) {
  const bodies: string[] = [];
  const fetch = (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = String(init?.body ?? "{}");
    bodies.push(body);
    const { id } = JSON.parse(body);
    return Promise.resolve(Response.json({ jsonrpc: "2.0", id, result }));
  };
  const client = new A2AClient(CARD, {
    fetch,
    cardUrl: "https://seller.example/.well-known/agent-card.json",
    ...options,
  });
  return { client, bodies };
}

/** A client whose agent streams `frames` (one SSE event each). */
function streaming(frames: readonly unknown[]): A2AClient {
  const fetch = (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { id } = JSON.parse(String(init?.body ?? "{}"));
    const body = frames.map((result) =>
      `data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`
    )
      .join("");
    return Promise.resolve(
      new Response(body, { headers: { "content-type": "text/event-stream" } }),
    );
  };
  return new A2AClient(CARD, { fetch, cardUrl: "https://seller.example/" });
}

function lastSend(requests: readonly FakeRequest[]): FakeRequest {
  return requests.findLast((request) => request.method.startsWith("Send"))!;
}

Deno.test(
  "A2AClient activates the profile and sends what checkAdcpProfileInvocation accepts",
  async () => {
    const agent = profileAgent();
    ok(checkAdcpProfileAdvertisement(agent.card, { requireTaskStatus: true }).valid);
    const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: agent.fetch });
    strictEqual(client.adcpProfile, true);
    const result = await client.sendMessage(client.invocation("get_products", { brief: "CTV" }));
    deepStrictEqual(result.kind === "success" && result.data, {
      status: "completed",
      products: [],
      brief: "CTV",
    });
    const sent = lastSend(agent.fetch.requests);
    strictEqual(sent.headers.get("a2a-version"), "1.0");
    strictEqual(sent.headers.get("a2a-extensions"), ADCP_A2A_PROFILE);
    const checked = checkAdcpProfileInvocation({
      headers: sent.headers,
      message: (sent.params as { message: unknown }).message,
    });
    ok(checked.valid && checked.skill === "get_products", JSON.stringify(checked));
  },
);

Deno.test(
  "A2AClient gets Submitted work from a completed task, then polls get_task_status",
  async () => {
    const agent = profileAgent();
    const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: agent.fetch });
    for (const send of [client.sendMessage, client.sendStreamingMessage]) {
      const result = await send.call(client, client.invocation("create_media_buy", {}));
      ok(result.kind === "success", result.kind);
      strictEqual(result.state, "completed");
      deepStrictEqual(result.data, SUBMITTED);
      ok(result.taskId !== SUBMITTED.task_id); // two independent identifiers
    }
    const poll = await client.sendMessage(
      client.invocation("get_task_status", { task_id: SUBMITTED.task_id, include_result: true }),
    );
    ok(poll.kind === "success" && poll.data.task_id === SUBMITTED.task_id);
    const failed = await client.sendMessage(client.invocation("fail", {}));
    ok(failed.kind === "error" && failed.error.code === "SERVICE_UNAVAILABLE");
  },
);

Deno.test("A2AClient continues an input-required task with its taskId and contextId", async () => {
  const agent = profileAgent();
  const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: agent.fetch });
  const first = await client.sendMessage(client.invocation("get_products", {}));
  strictEqual(first.state, "input-required");
  const message = client.invocation("get_products", { brief: "CTV" }, {
    taskId: first.taskId,
    contextId: first.contextId,
  });
  deepStrictEqual([message.taskId, message.contextId], [first.taskId, first.contextId]);
  const next = await client.sendMessage(message);
  strictEqual(next.kind, "success");
  const sent = (lastSend(agent.fetch.requests).params as { message: Record<string, unknown> })
    .message;
  deepStrictEqual([sent.taskId, sent.contextId], [first.taskId, first.contextId]);
  await rejects(
    Promise.resolve().then(() => client.invocation("get_products", {}, { taskId: "t" })),
    {
      name: "TypeError",
      message: "Cannot build the invocation as 'options.contextId' must be a non-empty string " +
        "when 'options.taskId' is set (a continuation carries both): current value is undefined",
    },
  );
});

Deno.test("A2AClient refuses to send a message that is not a profile invocation", async () => {
  const { client, bodies } = answering({});
  const invocation = client.invocation("get_products", {});
  const messages = [
    {
      ...invocation,
      parts: [...(invocation.parts as unknown[]), { data: { skill: "x", input: {} } }],
    },
    { ...invocation, parts: [{ data: { skill: "get_products", parameters: {} } }] },
    { ...invocation, parts: [{ text: "Find CTV inventory" }] },
    { ...invocation, role: "user" },
  ];
  for (const message of messages) {
    const error = await rejection(client.sendMessage(message));
    ok(error instanceof TypeError, String(error));
    ok(
      error.message.startsWith(
        "Cannot send the message as 'message' must be an AdCP A2A profile v3 invocation (",
      ),
    );
    await rejects(client.sendStreamingMessage(message), TypeError);
  }
  strictEqual(bodies.length, 0); // nothing was sent
});

Deno.test(
  "A2AClient without the profile sends other messages and gets Message answers",
  async () => {
    const message = { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "Hello" }] };
    const { client, bodies } = answering({ message }, { extensions: [] });
    strictEqual(client.adcpProfile, false);
    const result = await client.sendMessage({ role: "ROLE_USER", parts: [{ text: "Hi" }] });
    ok(result.kind === "message" && result.text === "Hello");
    strictEqual(bodies.length, 1);
    // The fake agent requires the profile: without activation it answers -32008.
    const agent = profileAgent();
    const plain = new A2AClient(agent.card, {
      cardUrl: agent.cardUrl,
      fetch: agent.fetch,
      extensions: ["https://example.com/trace/v1"],
    });
    const refused = await plain.sendMessage(plain.invocation("get_products", { brief: "CTV" }));
    ok(refused.kind === "jsonrpc_error" && refused.rpcCode === -32008, refused.kind);
  },
);

Deno.test("A2AClient refuses a Message answer to SendMessage under the profile", async () => {
  const message = { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "Done" }] };
  const { client } = answering({ message });
  const error = await rejection(client.sendMessage(client.invocation("get_products", {})));
  ok(error instanceof AgentProtocolError && error.reason === "adcp_profile", String(error));
  ok(error.message.includes("invalid_send_message_response"));
});

Deno.test("A2AClient with a v0.3 card sends v0.3 invocations and no profile rules", () => {
  const card = { url: "https://seller.example/", protocolVersion: "0.3.0", name: "v0.3" };
  const client = new A2AClient(card, { cardUrl: "https://seller.example/" });
  strictEqual(client.adcpProfile, false);
  const message = client.invocation("get_products", { brief: "x" }, {
    taskId: "t",
    contextId: "c",
  });
  deepStrictEqual({ ...message, messageId: "id" }, {
    kind: "message",
    messageId: "id",
    taskId: "t",
    contextId: "c",
    role: "user",
    parts: [{ kind: "data", data: { skill: "get_products", input: { brief: "x" } } }],
  });
});

Deno.test(
  "A2AClient throws a typed error for every response vector a buyer must refuse",
  async () => {
    const upstream = (await upstreamProfileVectors()).response_vectors;
    const local = (await localProfileVectors()).filter((vector) => vector.kind === "response");
    let refused = 0;
    for (const vector of [...upstream, ...local]) {
      const label = String(vector.id);
      // The buyer does not know the handler's return: the check infers it, as the client does.
      const expected = checkAdcpProfileResponse(vector.response);
      if (vector.valid === true) ok(expected.valid, label);
      const { client } = answering(vector.response);
      const run = client.sendMessage(client.invocation("get_products", {}));
      const outcome = await within(BOUND_MS, run.then((result) => result, (error) => error));
      if (expected.valid) {
        ok(A2A_KINDS.has(outcome.kind), `${label}: ${String(outcome)}`);
        continue;
      }
      if (expected.code === "framework_wrapper") {
        // Reported as a value, as without the profile (A2A Response Extraction, Wrapper Rejection).
        strictEqual(outcome.kind, "malformed", label);
        continue;
      }
      ok(outcome instanceof AgentProtocolError, `${label}: ${String(outcome)}`);
      refused++;
      // A bare Task or a nested envelope is refused before the profile rules, as without them.
      if (outcome.reason === "invalid_message") {
        strictEqual(expected.code, "invalid_send_message_response", label);
        continue;
      }
      strictEqual(outcome.reason, "adcp_profile", label);
      ok(outcome.message.includes(expected.code), `${label}: ${outcome.message}`);
    }
    ok(refused >= 13, String(refused)); // 3 upstream, 10 local
  },
);

Deno.test("A2AClient holds the final task of a stream to the profile's task rules", async () => {
  const ids = { id: "t", contextId: "c" };
  const working = { task: { ...ids, status: { state: "TASK_STATE_SUBMITTED" } } };
  const failedSubmitted = {
    task: {
      ...ids,
      status: { state: "TASK_STATE_FAILED" },
      artifacts: [{ artifactId: "a", parts: [{ data: SUBMITTED }] }],
    },
  };
  const duplicated = {
    task: {
      ...ids,
      status: { state: "TASK_STATE_COMPLETED" },
      artifacts: [{
        artifactId: "a",
        metadata: { adcp_task_id: "x" },
        parts: [{ data: SUBMITTED }],
      }],
    },
  };
  for (
    const [final, code] of [[failedSubmitted, "submitted_handler_return_not_a2a_completed"], [
      duplicated,
      "adcp_task_id_metadata_duplication",
    ]] as const
  ) {
    const client = streaming([working, final]);
    const error = await rejection(
      client.sendStreamingMessage(client.invocation("create_media_buy", {})),
    );
    ok(error instanceof AgentProtocolError && error.reason === "adcp_profile", String(error));
    ok(error.message.includes(code));
  }
  // A native submitted frame before the handler returns, then the completed task: fine.
  const done = {
    task: {
      ...ids,
      status: { state: "TASK_STATE_COMPLETED" },
      artifacts: [{ artifactId: "a", parts: [{ data: SUBMITTED }] }],
    },
  };
  const client = streaming([working, done]);
  const result = await client.sendStreamingMessage(client.invocation("create_media_buy", {}));
  ok(result.kind === "success" && result.data.task_id === SUBMITTED.task_id);
});

Deno.test(
  "A2AClient under the profile returns a result or a transport error for any answer",
  async () => {
    const base = { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } } };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostile,
          fc.record({ task: hostile }),
          fc.jsonValue().map((metadata) => ({ task: { ...copy(base.task), metadata } })),
        ),
        async (result) => {
          let answer: unknown;
          try {
            answer = JSON.parse(JSON.stringify(result ?? null));
          } catch {
            return; // not JSON: no agent can send it
          }
          const { client } = answering(answer);
          try {
            const outcome = await client.sendMessage(client.invocation("get_products", {}));
            ok(A2A_KINDS.has(outcome.kind));
          } catch (error) {
            ok(isAnyTransportError(error), String(error));
          }
        },
      ),
      { numRuns: 500 },
    );
  },
);
