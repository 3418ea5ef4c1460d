import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { a2aResponseText, anyResponse, json, runPure } from "./_test_utils.ts";
import { DataPartTooLargeError, WrapperDetectedError } from "./errors.ts";
import { extractAdcpResponseFromA2A } from "./extract_adcp_response_from_a2a.ts";

const FINAL = ["completed", "failed", "canceled", "rejected"];
const INTERIM = ["working", "submitted", "input-required", "auth-required"];
const upper = (state: string) => `TASK_STATE_${state.toUpperCase().replaceAll("-", "_")}`;

function task(state: unknown, artifactParts?: unknown[], messageParts?: unknown[]) {
  return {
    id: "task_1",
    status: messageParts === undefined ? { state } : { state, message: { parts: messageParts } },
    ...(artifactParts === undefined
      ? {}
      : { artifacts: [{ artifactId: "a", parts: artifactParts }] }),
  };
}

Deno.test(
  "extractAdcpResponseFromA2A() returns the last artifact DataPart for every final state",
  () => {
    for (const state of FINAL.flatMap((s) => [s, upper(s)])) {
      const last = { products: [] };
      const input = task(state, [{ text: "t" }, { data: { progress: 1 } }, {
        kind: "data",
        data: last,
      }], [
        { data: { from: "message" } },
      ]);
      strictEqual(extractAdcpResponseFromA2A(input), last, state);
    }
  },
);

Deno.test(
  "extractAdcpResponseFromA2A() returns the first status message DataPart for interim " +
    "states",
  () => {
    for (const state of INTERIM.flatMap((s) => [s, upper(s)])) {
      const first = { percentage: 10 };
      const input = task(state, [{ data: { from: "artifact" } }], [
        { text: "t" },
        { data: first },
        { data: { percentage: 20 } },
      ]);
      strictEqual(extractAdcpResponseFromA2A(input), first, state);
      strictEqual(extractAdcpResponseFromA2A(task(state, undefined, [{ text: "only" }])), null);
    }
  },
);

Deno.test(
  "extractAdcpResponseFromA2A() falls back to the status message for all four final states",
  () => {
    for (const state of FINAL) {
      const fromMessage = { from: "message" };
      const message = [{ text: "t" }, { data: fromMessage }, { data: { second: true } }];
      // No artifacts, empty artifacts, no DataPart in artifacts[0], malformed artifacts[0].
      const inputs = [
        task(state, undefined, message),
        { ...task(state, undefined, message), artifacts: [] },
        task(state, [{ text: "only text" }, { data: null }, { data: [1] }, { data: "s" }], message),
        { ...task(state, undefined, message), artifacts: [null, { parts: [{ data: { no: 1 } }] }] },
        { ...task(state, undefined, message), artifacts: [{ parts: { 0: { data: {} } } }] },
        { ...task(state, undefined, message), artifacts: "none" },
      ];
      for (const input of inputs) {
        strictEqual(extractAdcpResponseFromA2A(input), fromMessage, state);
      }
      strictEqual(extractAdcpResponseFromA2A(task(state, [], [{ text: "t" }])), null);
    }
  },
);

Deno.test("extractAdcpResponseFromA2A() reads artifacts[0] only", () => {
  const input = {
    status: { state: "completed" },
    artifacts: [{ parts: [{ text: "t" }] }, { parts: [{ data: { second: true } }] }],
  };
  strictEqual(extractAdcpResponseFromA2A(input), null);
});

Deno.test(
  "extractAdcpResponseFromA2A() detects DataParts by an object data field, whatever the " +
    "kind",
  () => {
    const data = { a: 1 };
    strictEqual(extractAdcpResponseFromA2A(task("completed", [{ data }])), data);
    strictEqual(extractAdcpResponseFromA2A(task("completed", [{ kind: "text", data }])), data);
    const skipped = task("completed", [
      { data: { first: true } },
      { kind: "data", data: null },
      { kind: "data", data: 42 },
      { kind: "data", data: "string" },
      { kind: "data", data: [{ a: 1 }] },
      { kind: "data" },
      null,
      "part",
      [{ data: { inArray: true } }],
    ]);
    deepStrictEqual(extractAdcpResponseFromA2A(skipped), { first: true });
    const inherited = { parts: [Object.create({ data: { inherited: true } })] };
    strictEqual(
      extractAdcpResponseFromA2A({ status: { state: "completed" }, artifacts: [inherited] }),
      null,
    );
  },
);

Deno.test(
  "extractAdcpResponseFromA2A() throws WrapperDetectedError for a final-state wrapper",
  () => {
    for (const state of FINAL.flatMap((s) => [s, upper(s)])) {
      throws(
        () =>
          extractAdcpResponseFromA2A(
            task(state, [{ text: "t" }, { kind: "data", data: { response: { products: [] } } }]),
          ),
        (error: unknown) => {
          ok(error instanceof WrapperDetectedError);
          strictEqual(error.code, "WRAPPER_DETECTED");
          strictEqual(error.name, "WrapperDetectedError");
          strictEqual(error.partIndex, 1);
          deepStrictEqual(error.cause, { partIndex: 1 });
          return true;
        },
      );
      throws(
        () => extractAdcpResponseFromA2A(task(state, [{ data: { response: {} } }])),
        WrapperDetectedError,
      );
    }
  },
);

Deno.test(
  "extractAdcpResponseFromA2A() only treats a single object-valued response key as a " +
    "wrapper",
  () => {
    const notWrappers = [
      { response: null },
      { response: [1] },
      { response: "text" },
      { response: 1 },
      { response: {}, status: "completed", errors: [] },
      { Response: {} },
    ];
    for (const data of notWrappers) {
      strictEqual(extractAdcpResponseFromA2A(task("completed", [{ data }])), data);
    }
    const keyed = json('{"response":{"a":1},"__proto__":{}}');
    strictEqual(extractAdcpResponseFromA2A(task("completed", [{ data: keyed }])), keyed);
  },
);

Deno.test(
  "extractAdcpResponseFromA2A() checks wrappers only on the selected final-state " +
    "artifact DataPart",
  () => {
    const wrapper = { response: { products: [] } };
    const last = { products: [] };
    // An earlier wrapper is superseded by the last DataPart.
    strictEqual(
      extractAdcpResponseFromA2A(task("completed", [{ data: wrapper }, { data: last }])),
      last,
    );
    // Interim states and the final-state fallback read status.message.parts without the check.
    strictEqual(
      extractAdcpResponseFromA2A(task("working", undefined, [{ data: wrapper }])),
      wrapper,
    );
    strictEqual(extractAdcpResponseFromA2A(task("failed", [], [{ data: wrapper }])), wrapper);
    // Unknown states return null before looking at parts, and never throw.
    strictEqual(extractAdcpResponseFromA2A(task("TASK_STATE_UNKNOWN", [{ data: wrapper }])), null);
    // Other artifacts are not read.
    const second = {
      status: { state: "completed" },
      artifacts: [{ parts: [{ data: last }] }, { parts: [{ data: wrapper }] }],
    };
    strictEqual(extractAdcpResponseFromA2A(second), last);
  },
);

Deno.test("extractAdcpResponseFromA2A() unwraps each single-key envelope once", () => {
  const data = { media_buy_id: "mb_1" };
  const completed = task("TASK_STATE_COMPLETED", [{ data }]);
  strictEqual(extractAdcpResponseFromA2A({ task: completed }), data);
  const working = task("TASK_STATE_WORKING", undefined, [{ data }]);
  strictEqual(extractAdcpResponseFromA2A({ statusUpdate: working }), data);
  strictEqual(extractAdcpResponseFromA2A({ message: working }), data);
  const artifactUpdate = { artifactUpdate: { taskId: "t", artifact: { parts: [{ data }] } } };
  strictEqual(extractAdcpResponseFromA2A(artifactUpdate), null);
  const outOfBand = { message: { messageId: "m", role: "ROLE_AGENT", parts: [{ data }] } };
  strictEqual(extractAdcpResponseFromA2A(outOfBand), null);
});

Deno.test("extractAdcpResponseFromA2A() rejects nested stream envelopes", () => {
  const completed = task("completed", [{ data: { a: 1 } }]);
  const keys = ["task", "message", "statusUpdate", "artifactUpdate"];
  for (const outer of keys) {
    for (const inner of keys) {
      strictEqual(extractAdcpResponseFromA2A({ [outer]: { [inner]: completed } }), null);
    }
    // The inner value's top-level keys include an envelope key alongside task fields.
    strictEqual(extractAdcpResponseFromA2A({ [outer]: { ...completed, task: {} } }), null);
    strictEqual(extractAdcpResponseFromA2A({ [outer]: { ...completed, message: "hi" } }), null);
  }
  strictEqual(extractAdcpResponseFromA2A({ task: { task: { task: completed } } }), null);
});

Deno.test("extractAdcpResponseFromA2A() passes non-envelopes through", () => {
  const data = { a: 1 };
  // Two keys: not an envelope, and the object has no status.
  strictEqual(extractAdcpResponseFromA2A({ task: task("completed", [{ data }]), id: "x" }), null);
  // A bare task that happens to carry only "status" is not an envelope.
  strictEqual(
    extractAdcpResponseFromA2A({ status: { state: "working", message: { parts: [{ data }] } } }),
    data,
  );
  strictEqual(extractAdcpResponseFromA2A({ task: null }), null);
  strictEqual(extractAdcpResponseFromA2A({ task: [task("completed", [{ data }])] }), null);
});

Deno.test("extractAdcpResponseFromA2A() returns null for unknown or unnormalizable states", () => {
  const parts = [{ data: { a: 1 } }];
  for (
    const state of [
      "wor\u212Aing",
      "TASK_STATE_INPUT__REQUIRED",
      " completed",
      "Task_State_Completed",
      "TASK_STATE_UNSPECIFIED",
      "done",
      "",
      null,
      1,
      { state: "completed" },
    ]
  ) {
    strictEqual(extractAdcpResponseFromA2A(task(state, parts, parts)), null, String(state));
  }
  strictEqual(extractAdcpResponseFromA2A({ artifacts: [{ parts }] }), null);
  strictEqual(extractAdcpResponseFromA2A({ status: "completed", artifacts: [{ parts }] }), null);
  strictEqual(
    extractAdcpResponseFromA2A({ status: [{ state: "completed" }], artifacts: [{ parts }] }),
    null,
  );
  strictEqual(extractAdcpResponseFromA2A(task("COMPLETED", parts)), parts[0]?.data);
});

Deno.test("extractAdcpResponseFromA2A() keeps own __proto__ keys and never copies", () => {
  const input = json(
    '{"status":{"state":"completed"},"artifacts":[{"parts":[{"data":{"products":[],' +
      '"__proto__":{"isAdmin":true}}}]}]}',
  ) as { artifacts: [{ parts: [{ data: object }] }] };
  const result = extractAdcpResponseFromA2A(input);
  strictEqual(result, input.artifacts[0].parts[0].data);
  deepStrictEqual(Object.keys(result ?? {}), ["products", "__proto__"]);
  strictEqual(({} as Record<string, unknown>)["isAdmin"], undefined);
});

Deno.test("extractAdcpResponseFromA2A() returns null for non-objects", () => {
  for (const value of [undefined, null, 0, "completed", true, []]) {
    strictEqual(extractAdcpResponseFromA2A(value), null);
  }
});

/** Every `data` object reachable in a parts array of the input (identity set). */
function allData(value: unknown, found = new Set<unknown>()): Set<unknown> {
  if (typeof value !== "object" || value === null) return found;
  if (Object.hasOwn(value, "data")) found.add((value as { data: unknown }).data);
  for (const child of Object.values(value)) allData(child, found);
  return found;
}

Deno.test(
  "extractAdcpResponseFromA2A() is total and pure, returning a DataPart of its input",
  () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), anyResponse, a2aResponseText.map((t) => JSON.parse(t))),
        (input) => {
          let result: Record<string, unknown> | null;
          try {
            result = runPure(input, extractAdcpResponseFromA2A);
          } catch (error) {
            ok(error instanceof WrapperDetectedError);
            return;
          }
          if (result === null) return;
          ok(typeof result === "object" && !Array.isArray(result));
          ok(allData(input).has(result));
        },
      ),
      { numRuns: 300 },
    );
  },
);

Deno.test("extractAdcpResponseFromA2A() holds the selected DataPart to 1 MiB by default", () => {
  // {"pad":"…"} is 10 bytes of punctuation and key
  const fits = { pad: "x".repeat(1_048_576 - 10) };
  const completed = (data: Record<string, unknown>) => ({
    status: { state: "completed" },
    artifacts: [{ parts: [{ data }] }],
  });
  strictEqual(extractAdcpResponseFromA2A(completed(fits)), fits);
  const over = { pad: "x".repeat(1_048_576 - 9) };
  throws(() => extractAdcpResponseFromA2A(completed(over)), (error: unknown) => {
    ok(error instanceof DataPartTooLargeError);
    strictEqual(error.limit, 1_048_576);
    strictEqual(error.observed, 1_048_577);
    return true;
  });
  // A raised limit lets it through.
  strictEqual(extractAdcpResponseFromA2A(completed(over), { maxDataPartBytes: 2_097_152 }), over);
});

Deno.test("extractAdcpResponseFromA2A() refuses invalid size and part-count options", () => {
  const working = { status: { state: "working" } };
  for (
    const options of [{ maxDataPartBytes: 0 }, { maxDataPartBytes: 1.5 }, { expectedDataParts: -1 }]
  ) {
    throws(() => extractAdcpResponseFromA2A(working, options), RangeError);
  }
  throws(() => extractAdcpResponseFromA2A(working, null as never), TypeError);
  throws(
    () => extractAdcpResponseFromA2A(working, { maxDataPartBytes: 0 }),
    new RangeError(
      "Cannot extract from an A2A response as 'maxDataPartBytes' must be a positive safe " +
        "integer: current value is 0",
    ),
  );
  throws(
    () => extractAdcpResponseFromA2A(working, { expectedDataParts: "1" as never }),
    new TypeError(
      "Cannot extract from an A2A response as 'expectedDataParts' must be a number: " +
        'current value is "1"',
    ),
  );
});
