import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { a2aResponseText, anyResponse, runPure } from "./_test_utils.ts";
import { UnexpectedPartCountError, WrapperDetectedError } from "./errors.ts";
import { extractAdcpErrorFromA2A } from "./extract_adcp_error_from_a2a.ts";
import { extractAdcpResponseFromA2A } from "./extract_adcp_response_from_a2a.ts";
import { handleA2AResponse } from "./handle_a2a_response.ts";

function task(state: unknown, artifactParts?: unknown[], messageParts?: unknown[]) {
  return {
    status: messageParts === undefined ? { state } : { state, message: { parts: messageParts } },
    ...(artifactParts === undefined ? {} : { artifacts: [{ parts: artifactParts }] }),
  };
}

Deno.test("handleA2AResponse() returns a valid structured error with its path", () => {
  const adcpError = { code: "SERVICE_UNAVAILABLE", retry_after: 15 };
  deepStrictEqual(
    handleA2AResponse(
      task("failed", undefined, [{ text: "Down" }, { data: { adcp_error: adcpError } }]),
    ),
    { kind: "error", error: adcpError, path: "status_message" },
  );
  const outcome = handleA2AResponse({
    task: task("TASK_STATE_REJECTED", [{ data: { adcp_error: adcpError } }]),
  });
  ok(outcome.kind === "error");
  strictEqual(outcome.error, adcpError);
  strictEqual(outcome.path, "artifact");
});

Deno.test("handleA2AResponse() lets the wrapper error propagate, as the spec's flow does", () => {
  throws(
    () => handleA2AResponse(task("completed", [{ data: { response: { products: [] } } }])),
    (e: unknown) => e instanceof WrapperDetectedError && e.partIndex === 0,
  );
  // A valid structured error elsewhere still wins.
  const both = task("failed", [{ data: { response: {} } }], [{
    data: { adcp_error: { code: "X" } },
  }]);
  deepStrictEqual(handleA2AResponse(both), {
    kind: "error",
    error: { code: "X" },
    path: "status_message",
  });
});

Deno.test("handleA2AResponse() returns success data by identity", () => {
  const data = { status: "rejected", reason: "tier" };
  const outcome = handleA2AResponse(task("completed", [{ text: "No" }, { data }]));
  ok(outcome.kind === "success");
  strictEqual(outcome.data, data);
});

Deno.test(
  "handleA2AResponse() never returns data carrying an invalid adcp_error as success",
  () => {
    deepStrictEqual(
      handleA2AResponse(
        task("failed", [{ text: "Rate limited" }, { data: { adcp_error: { code: 429 } } }]),
      ),
      { kind: "text", text: "Rate limited", isError: true },
    );
    deepStrictEqual(
      handleA2AResponse(
        task("completed", [{ data: { adcp_error: "RATE_LIMITED", products: [] } }]),
      ),
      { kind: "text", text: "", isError: true },
    );
  },
);

Deno.test(
  "handleA2AResponse() reports failed and rejected tasks without data as error text",
  () => {
    for (const state of ["failed", "TASK_STATE_FAILED", "rejected", "TASK_STATE_REJECTED"]) {
      deepStrictEqual(
        handleA2AResponse(
          task(state, [{ text: "Artifact text" }], [{ text: "Invalid API token" }]),
        ),
        { kind: "text", text: "Artifact text\nInvalid API token", isError: true },
      );
    }
  },
);

Deno.test("handleA2AResponse() returns plain text for other states without data", () => {
  for (const state of ["canceled", "working", "completed", "mystery", undefined]) {
    deepStrictEqual(handleA2AResponse(task(state, undefined, [{ kind: "text", text: "Note" }])), {
      kind: "text",
      text: "Note",
    });
  }
  deepStrictEqual(
    handleA2AResponse({ artifactUpdate: { artifact: { parts: [{ data: { chunk: 1 } }] } } }),
    { kind: "text", text: "" },
  );
});

Deno.test("handleA2AResponse() reports non-objects and nested envelopes as error text", () => {
  for (
    const value of [undefined, null, 1, "completed", [], { task: { task: task("completed") } }]
  ) {
    deepStrictEqual(handleA2AResponse(value), { kind: "text", text: "", isError: true });
  }
});

Deno.test("handleA2AResponse() is total, pure and consistent with the extractors", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.jsonValue(), anyResponse, a2aResponseText.map((t) => JSON.parse(t))),
      (input) => {
        const error = extractAdcpErrorFromA2A(input);
        let data: unknown;
        try {
          data = extractAdcpResponseFromA2A(input);
        } catch (thrown) {
          data = thrown;
        }
        let outcome;
        try {
          outcome = runPure(input, handleA2AResponse);
        } catch (thrown) {
          // Only the wrapper error escapes, and only when no valid structured error came first.
          strictEqual(error, null);
          ok(thrown instanceof WrapperDetectedError);
          ok(data instanceof WrapperDetectedError);
          return;
        }
        switch (outcome.kind) {
          case "error":
            strictEqual(outcome.error, error);
            break;
          case "success":
            strictEqual(error, null);
            strictEqual(outcome.data, data);
            break;
          case "text":
            strictEqual(error, null);
            ok(!(data instanceof WrapperDetectedError));
            strictEqual(typeof outcome.text, "string");
            break;
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test(
  "handleA2AResponse() counts an injected adcp_error DataPart against expectedDataParts",
  () => {
    const injected = {
      id: "t",
      status: { state: "completed" },
      artifacts: [{
        artifactId: "r",
        parts: [
          { data: { products: [] } },
          { data: { adcp_error: { code: "AGENT_SUSPENDED", message: "injected" } } },
        ],
      }],
    };
    // Without the expectation, the injected error decides (it is the last DataPart).
    strictEqual(handleA2AResponse(injected).kind, "error");
    throws(() => handleA2AResponse(injected, { expectedDataParts: 1 }), UnexpectedPartCountError);
    // An injected artifact counts too.
    const extraArtifact = {
      ...injected,
      artifacts: [
        { artifactId: "r", parts: [{ data: { products: [] } }] },
        {
          artifactId: "x",
          parts: [{ data: { adcp_error: { code: "RATE_LIMITED", message: "x" } } }],
        },
      ],
    };
    throws(
      () => handleA2AResponse(extraArtifact, { expectedDataParts: 1 }),
      UnexpectedPartCountError,
    );
    const honest = {
      ...injected,
      artifacts: [{ artifactId: "r", parts: [{ data: { products: [] } }] }],
    };
    deepStrictEqual(handleA2AResponse(honest, { expectedDataParts: 1 }), {
      kind: "success",
      data: { products: [] },
    });
  },
);
