import { deepStrictEqual, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { classifyA2APush } from "./classify_a2a_push.ts";

const completed = {
  id: "t1",
  status: { state: "TASK_STATE_COMPLETED" },
  artifacts: [{ artifactId: "a", parts: [{ data: { status: "completed", products: [] } }] }],
};

Deno.test("classifyA2APush() extracts data from a task, bare or enveloped", () => {
  const want = { kind: "task", state: "completed", data: { status: "completed", products: [] } };
  deepStrictEqual(classifyA2APush(completed), want);
  deepStrictEqual(classifyA2APush({ task: completed }), want);
  deepStrictEqual(classifyA2APush({ statusUpdate: completed }), want);
});

Deno.test("classifyA2APush() tells a task without data from an unrecognized message", () => {
  deepStrictEqual(
    classifyA2APush({ task: { id: "t", status: { state: "TASK_STATE_CANCELED" } } }),
    { kind: "task", state: "canceled", data: null },
  );
  for (const body of [{ message: { messageId: "m", parts: [] } }, { id: "t" }, { status: {} }]) {
    deepStrictEqual(classifyA2APush(body), {
      kind: "rejected",
      code: "unrecognized_message",
      status: 400,
    });
  }
});

Deno.test("classifyA2APush() refuses nested envelopes, wrappers and non-objects", () => {
  strictEqual(
    (classifyA2APush({ task: { task: completed } }) as { code: string }).code,
    "nested_envelope",
  );
  const wrapped = {
    ...completed,
    artifacts: [{ artifactId: "a", parts: [{ data: { response: { products: [] } } }] }],
  };
  strictEqual((classifyA2APush(wrapped) as { code: string }).code, "malformed_push");
  strictEqual((classifyA2APush([completed]) as { code: string }).code, "malformed_push");
  deepStrictEqual(classifyA2APush({ id: "t", status: { state: "TASK_STATE_PAUSED" } }), {
    kind: "unknown_state",
  });
  deepStrictEqual(classifyA2APush({ artifactUpdate: { taskId: "t" } }), {
    kind: "artifact_update",
    artifactUpdate: { taskId: "t" },
  });
});

Deno.test("classifyA2APush() never throws", () => {
  fc.assert(
    fc.property(fc.anything(), (value) => typeof classifyA2APush(value).kind === "string"),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(
      fc.jsonValue(),
      (value) => typeof classifyA2APush({ task: value }).kind === "string",
    ),
    { numRuns: 500 },
  );
});

Deno.test("classifyA2APush() acknowledges a recognized agent message, refuses any other", () => {
  const note = {
    messageId: "m1",
    role: "ROLE_AGENT",
    contextId: "ctx",
    parts: [{ text: "Queued for review" }, { data: { step: 1 } }],
  };
  deepStrictEqual(classifyA2APush({ message: note }), { kind: "message", message: note });
  const v03 = {
    kind: "message",
    messageId: "m2",
    role: "agent",
    parts: [{ kind: "text", text: "hi" }],
  };
  deepStrictEqual(classifyA2APush(v03), { kind: "message", message: v03 });
  deepStrictEqual(classifyA2APush({ message: v03 }), { kind: "message", message: v03 });
  const refused = { kind: "rejected", code: "unrecognized_message", status: 400 };
  for (
    const message of [
      "ping",
      {},
      { text: "ping" },
      { ...note, role: "ROLE_USER" }, // the seller pushes as the agent only
      { ...note, role: "agent " },
      { ...note, messageId: "" },
      { ...note, messageId: 7 },
      { ...note, parts: [] },
      { ...note, parts: "hi" },
      { ...note, parts: [{ text: "a", data: { b: 1 } }] }, // a Part is a strict oneof
      { ...note, parts: [{}] },
      { ...note, parts: [{ data: [1] }] },
      { ...note, parts: [{ text: 1 }] },
      { ...note, parts: [{ text: "a" }, "b"] },
      Object.assign(Object.create({ messageId: "m", role: "ROLE_AGENT" }), {
        parts: [{ text: "a" }],
      }),
    ]
  ) {
    deepStrictEqual(classifyA2APush({ message }), refused, JSON.stringify(message));
  }
  deepStrictEqual(classifyA2APush({ ...v03, role: "user" }), refused);
  // JSON null counts as an unset content field, as ProtoJSON omits unset fields.
  const withNull = { ...note, parts: [{ text: "a", data: null }] };
  deepStrictEqual(classifyA2APush({ message: withNull }), { kind: "message", message: withNull });
});
