import { assertTimeGrowth } from "adcp-testkit";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { copy, hostile, upstreamProfileVectors } from "./_test_profile.ts";
import { type AdcpProfileHandlerReturn, checkAdcpProfileResponse } from "./mod.ts";

const SUBMITTED = { status: "submitted", task_id: "adcp-task-9a21", message: "Awaiting IO" };

/** A SendMessage answer: a task in `state` whose one artifact holds `parts`. */
function answer(
  state: string,
  parts: unknown[],
  extra: Record<string, unknown> = {},
): { task: Record<string, unknown> } {
  return {
    task: {
      id: "a2a-task-1",
      contextId: "ctx-1",
      status: { state },
      artifacts: [{ artifactId: "adcp-result", parts }],
      ...extra,
    },
  };
}

function codeOf(response: unknown, handlerReturn?: AdcpProfileHandlerReturn): string | undefined {
  const result = checkAdcpProfileResponse(response, { handlerReturn });
  return result.valid ? undefined : result.code;
}

Deno.test("checkAdcpProfileResponse() meets every upstream response vector", async () => {
  const { response_vectors: vectors } = await upstreamProfileVectors();
  strictEqual(vectors.length, 5);
  for (const vector of vectors) {
    // With the vector's handler_return, and without it (the buyer's view): same verdict.
    for (const handlerReturn of [vector.handler_return, undefined]) {
      const result = checkAdcpProfileResponse(vector.response, {
        handlerReturn: handlerReturn as AdcpProfileHandlerReturn | undefined,
      });
      const label = `${vector.id} (${handlerReturn})`;
      strictEqual(result.valid, vector.valid, label);
      if (!result.valid) strictEqual(result.code, vector.expected_error, label);
      if (result.valid && "expected_adcp_task_id" in vector) {
        strictEqual(result.adcpTaskId, vector.expected_adcp_task_id, label);
      }
    }
  }
});

Deno.test("checkAdcpProfileResponse() returns the data, both status layers and both ids", () => {
  const result = checkAdcpProfileResponse(
    answer("TASK_STATE_COMPLETED", [{ text: "Awaiting IO signature." }, { data: SUBMITTED }]),
  );
  ok(result.valid);
  deepStrictEqual(
    { ...result, task: undefined },
    {
      valid: true,
      task: undefined,
      state: "completed",
      taskId: "a2a-task-1",
      contextId: "ctx-1",
      data: SUBMITTED,
      adcpStatus: "submitted",
      adcpTaskId: "adcp-task-9a21",
    },
  );
  const rejected = checkAdcpProfileResponse(
    answer("TASK_STATE_COMPLETED", [{ data: { status: "rejected", reason: "No inventory" } }]),
  );
  ok(rejected.valid && rejected.adcpStatus === "rejected" && rejected.state === "completed");
  ok(!("adcpTaskId" in rejected));
});

Deno.test("checkAdcpProfileResponse() requires the task branch of SendMessageResponse", () => {
  const task = answer("TASK_STATE_COMPLETED", [{ data: { products: [] } }]).task;
  for (
    const response of [
      task,
      { message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "hi" }] } },
      { task, id: "x" },
      { task: { task } },
      { task: { ...task, statusUpdate: {} } },
      { task: [] },
      { statusUpdate: task },
      null,
      "task",
    ]
  ) {
    strictEqual(codeOf(response), "invalid_send_message_response", JSON.stringify(response));
  }
});

Deno.test("checkAdcpProfileResponse() holds the Task to the A2A shape it reads", () => {
  const base = answer("TASK_STATE_COMPLETED", [{ data: { products: [] } }]).task;
  for (
    const patch of [
      { id: "" },
      { id: 4 },
      { contextId: undefined },
      { status: "completed" },
      { status: {} },
      { status: { state: 3 } },
      { artifacts: {} },
      { artifacts: [null] },
      { artifacts: [{ parts: [{ data: {} }] }] },
      { artifacts: [{ artifactId: "r" }] },
      { artifacts: [{ artifactId: "r", parts: [{ data: {}, text: "x" }] }] },
      { artifacts: [{ artifactId: "r", parts: [{ data: [1] }] }] },
      { artifacts: [{ artifactId: "r", parts: [{}] }] },
      { status: { state: "TASK_STATE_COMPLETED", message: "done" } },
      { status: { state: "TASK_STATE_WORKING", message: { parts: [{ data: "x" }] } } },
    ]
  ) {
    strictEqual(codeOf({ task: { ...base, ...patch } }), "invalid_a2a_task", JSON.stringify(patch));
  }
});

Deno.test("checkAdcpProfileResponse() requires exactly one artifact", () => {
  const artifact = { artifactId: "a", parts: [{ data: { products: [] } }] };
  const task = answer("TASK_STATE_COMPLETED", []).task;
  strictEqual(
    codeOf({ task: { ...task, artifacts: [artifact, { ...artifact, artifactId: "b" }] } }),
    "multiple_artifacts",
  );
});

Deno.test("checkAdcpProfileResponse() requires the DataPart in a completed Task", () => {
  strictEqual(codeOf(answer("TASK_STATE_COMPLETED", [{ text: "Done" }])), "missing_adcp_datapart");
  strictEqual(
    codeOf({ task: { ...answer("completed", []).task, artifacts: undefined } }),
    "missing_adcp_datapart",
  );
  // The data only in the status message is not the mapping.
  const inMessage = {
    task: {
      id: "t",
      contextId: "c",
      status: { state: "TASK_STATE_COMPLETED", message: { parts: [{ data: { products: [] } }] } },
    },
  };
  strictEqual(codeOf(inMessage), "missing_adcp_datapart");
  // A FilePart may accompany the DataPart.
  const file = { url: "https://cdn.example.com/cr_789/preview.mp4", mediaType: "video/mp4" };
  strictEqual(
    codeOf(answer("TASK_STATE_COMPLETED", [{ data: { creative_id: "c" } }, file])),
    undefined,
  );
});

Deno.test("checkAdcpProfileResponse() reads the last DataPart, and refuses a wrapper", () => {
  const result = checkAdcpProfileResponse(
    answer("TASK_STATE_COMPLETED", [{ data: { progress: 25 } }, { data: { products: [] } }]),
  );
  deepStrictEqual(result.valid && result.data, { products: [] });
  strictEqual(
    codeOf(answer("TASK_STATE_COMPLETED", [{ data: { response: { products: [] } } }])),
    "framework_wrapper",
  );
  strictEqual(
    codeOf(answer("TASK_STATE_FAILED", [{ data: { response: {} } }])),
    "framework_wrapper",
  );
  // `response` beside other keys is no wrapper.
  strictEqual(
    codeOf(answer("TASK_STATE_COMPLETED", [{ data: { response: {}, status: "completed" } }])),
    undefined,
  );
});

Deno.test("checkAdcpProfileResponse() keeps AdCP Submitted work in an A2A completed Task", () => {
  for (
    const state of [
      "TASK_STATE_SUBMITTED",
      "TASK_STATE_WORKING",
      "TASK_STATE_FAILED",
      "TASK_STATE_INPUT_REQUIRED",
      "submitted",
      "TASK_STATE_PAUSED",
    ]
  ) {
    strictEqual(
      codeOf(answer(state, [{ data: SUBMITTED }])),
      "submitted_handler_return_not_a2a_completed",
      state,
    );
  }
  // Submitted data in a native submitted task's status message is the same mistake.
  const inMessage = {
    task: {
      id: "t",
      contextId: "c",
      status: { state: "TASK_STATE_SUBMITTED", message: { parts: [{ data: SUBMITTED }] } },
    },
  };
  strictEqual(codeOf(inMessage), "submitted_handler_return_not_a2a_completed");
  // Native submitted before the handler returns, without AdCP Submitted data, is fine.
  const interim = { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_SUBMITTED" } } };
  strictEqual(codeOf(interim), undefined);
  strictEqual(codeOf(interim, "submitted"), "submitted_handler_return_not_a2a_completed");
  // v0.3 spelling of the completed state, normalized.
  strictEqual(codeOf(answer("completed", [{ data: SUBMITTED }])), undefined);
});

Deno.test("checkAdcpProfileResponse() requires the AdCP task_id of Submitted work", () => {
  for (const task_id of [undefined, "", 42, null]) {
    const data = { status: "submitted", task_id };
    strictEqual(
      codeOf(answer("TASK_STATE_COMPLETED", [{ data }])),
      "missing_adcp_task_id",
      String(task_id),
    );
  }
  const poll = { status: "working", task_type: "create_media_buy" };
  strictEqual(
    codeOf(answer("TASK_STATE_COMPLETED", [{ data: poll }]), "get_task_status"),
    "missing_adcp_task_id",
  );
});

Deno.test("checkAdcpProfileResponse() refuses the AdCP task_id copied into any metadata", () => {
  const data = { data: SUBMITTED };
  const cases: [string, { task: Record<string, unknown> }][] = [
    ["task", answer("TASK_STATE_COMPLETED", [data], { metadata: { adcp_task_id: "x" } })],
    ["part", answer("TASK_STATE_COMPLETED", [{ ...data, metadata: { trace: SUBMITTED.task_id } }])],
    ["value", answer("TASK_STATE_COMPLETED", [data], { metadata: { handle: SUBMITTED.task_id } })],
  ];
  const artifact = answer("TASK_STATE_COMPLETED", [data]);
  (artifact.task.artifacts as Record<string, unknown>[])[0]!.metadata = { adcp_task_id: "y" };
  cases.push(["artifact", artifact]);
  const message = answer("TASK_STATE_COMPLETED", [data]);
  message.task.status = {
    state: "TASK_STATE_COMPLETED",
    message: {
      messageId: "m",
      role: "ROLE_AGENT",
      parts: [{ text: "ok" }],
      metadata: { adcp_task_id: "z" },
    },
  };
  cases.push(["status message", message]);
  // Even without a handle in the DataPart, an adcp_task_id metadata member is refused.
  cases.push([
    "no handle",
    answer("TASK_STATE_COMPLETED", [{ data: { products: [] }, metadata: { adcp_task_id: "q" } }]),
  ]);
  for (const [label, response] of cases) {
    strictEqual(codeOf(response), "adcp_task_id_metadata_duplication", label);
  }
  // Other metadata, and an A2A Task id equal to the handle, are fine.
  const fine = answer("TASK_STATE_COMPLETED", [data], { metadata: { trace: "t-1" } });
  strictEqual(codeOf(fine), undefined);
  const same = answer("TASK_STATE_COMPLETED", [data], { id: SUBMITTED.task_id });
  strictEqual(codeOf(same), undefined);
});

Deno.test("checkAdcpProfileResponse() holds the answer to a known handler return", () => {
  const completed = answer("TASK_STATE_COMPLETED", [{
    data: { status: "completed", products: [] },
  }]);
  strictEqual(codeOf(completed, "completed"), undefined);
  strictEqual(codeOf(completed, "submitted"), "handler_return_mismatch");
  strictEqual(
    codeOf(answer("TASK_STATE_COMPLETED", [{ data: SUBMITTED }]), "completed"),
    "handler_return_mismatch",
  );
  for (const handlerReturn of ["completed", "get_task_status"] as const) {
    strictEqual(
      codeOf(answer("TASK_STATE_FAILED", [{ data: { status: "completed" } }]), handlerReturn),
      "handler_return_not_a2a_completed",
    );
    strictEqual(
      codeOf(answer("TASK_STATE_COMPLETED", [{ text: "Done" }]), handlerReturn),
      "missing_adcp_datapart",
    );
  }
});

Deno.test(
  "checkAdcpProfileResponse() accepts failed, interrupted, running and unknown states",
  () => {
    const failed = answer("TASK_STATE_FAILED", [
      { text: "The request failed with RATE_LIMITED." },
      { data: { adcp_error: { code: "RATE_LIMITED", message: "Slow down" } } },
    ]);
    const result = checkAdcpProfileResponse(failed);
    ok(result.valid && result.state === "failed" && result.adcpStatus === undefined);
    const auth = {
      task: {
        id: "t",
        contextId: "c",
        status: {
          state: "TASK_STATE_AUTH_REQUIRED",
          message: {
            messageId: "m",
            role: "ROLE_AGENT",
            parts: [{ data: { auth_scheme: "oauth2" } }],
          },
        },
      },
    };
    const challenge = checkAdcpProfileResponse(auth);
    deepStrictEqual(challenge.valid && challenge.data, { auth_scheme: "oauth2" });
    for (
      const state of [
        "TASK_STATE_WORKING",
        "TASK_STATE_CANCELED",
        "TASK_STATE_REJECTED",
        "TASK_STATE_NOVEL",
      ]
    ) {
      strictEqual(
        codeOf({ task: { id: "t", contextId: "c", status: { state } } }),
        undefined,
        state,
      );
    }
    const novel = checkAdcpProfileResponse(answer("TASK_STATE_NOVEL", [{ data: { x: 1 } }]));
    ok(novel.valid && novel.data === null && novel.state === "novel");
  },
);

Deno.test("checkAdcpProfileResponse() reads a 4 MiB state in constant time", () => {
  const answer = (state: string) => ({ task: { id: "t", contextId: "c", status: { state } } });
  const result = checkAdcpProfileResponse(answer("W".repeat(4_000_000)));
  ok(result.valid && result.state.length === 64);
  assertTimeGrowth((n) => answer("W".repeat(n)), checkAdcpProfileResponse, 4_000_000, {
    growth: "constant",
  });
});

Deno.test("checkAdcpProfileResponse() never shows seller text in its message", () => {
  const secret = "SECRET_TEXT";
  const responses = [
    secret,
    { task: { id: secret, contextId: 1, status: {} } },
    answer(secret, [{ data: { status: "submitted", task_id: secret } }]),
    answer("TASK_STATE_COMPLETED", [{ data: { status: "submitted", task_id: secret } }], {
      metadata: { x: secret },
    }),
  ];
  for (const response of responses) {
    const result = checkAdcpProfileResponse(response);
    ok(!result.valid && !result.message.includes(secret), JSON.stringify(result));
  }
});

Deno.test("checkAdcpProfileResponse() throws only for bad options", () => {
  throws(() => checkAdcpProfileResponse({}, { handlerReturn: "working" as never }), {
    name: "TypeError",
    message: "Cannot check the AdCP profile response as 'options.handlerReturn' must be " +
      '"completed", "submitted" or "get_task_status": current value is "working"',
  });
  throws(() => checkAdcpProfileResponse({}, [] as never), TypeError);
});

Deno.test("checkAdcpProfileResponse() never throws on any value", () => {
  const handlerReturn = fc.constantFrom(undefined, "completed", "submitted", "get_task_status");
  fc.assert(
    fc.property(hostile, handlerReturn, (response, kind) => {
      ok(typeof checkAdcpProfileResponse(response, { handlerReturn: kind }).valid === "boolean");
    }),
    { numRuns: 2000 },
  );
  const part = fc.oneof(
    fc.record({ data: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()) }),
    fc.record({ text: fc.jsonValue(), metadata: fc.jsonValue() }, { requiredKeys: [] }),
    hostile,
  );
  fc.assert(
    fc.property(
      fc.constantFrom("TASK_STATE_COMPLETED", "TASK_STATE_SUBMITTED", "failed", "x"),
      fc.array(part, { maxLength: 5 }),
      fc.jsonValue(),
      handlerReturn,
      (state, parts, metadata, kind) => {
        const response = copy(answer(state, parts, { metadata }));
        ok(typeof checkAdcpProfileResponse(response, { handlerReturn: kind }).valid === "boolean");
      },
    ),
    { numRuns: 2000 },
  );
});
