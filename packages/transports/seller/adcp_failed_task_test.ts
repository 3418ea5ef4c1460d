import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { detectAdcpError, extractAdcpResponseFromA2A, handleA2AResponse } from "@adcp-wire/core";
import { adcpFailedTask } from "./adcp_failed_task.ts";
import { forwardAdcpError } from "./forward_adcp_error.ts";

const ERROR = { code: "BUDGET_TOO_LOW", message: "Budget below minimum", recovery: "correctable" };

Deno.test("adcpFailedTask() builds the 1.0 ProtoJSON form", () => {
  deepStrictEqual(
    adcpFailedTask({ id: "t", contextId: "c" }, ERROR, { timestamp: "2026-01-22T10:30:00.000Z" }),
    {
      id: "t",
      contextId: "c",
      status: { state: "TASK_STATE_FAILED", timestamp: "2026-01-22T10:30:00.000Z" },
      artifacts: [{
        artifactId: "error-result",
        parts: [
          { text: "The request failed with BUDGET_TOO_LOW." },
          {
            data: { adcp_error: ERROR },
            metadata: { mimeType: "application/vnd.adcp.error+json" },
          },
        ],
      }],
    },
  );
});

Deno.test("adcpFailedTask() builds the v0.3 form with kind fields", () => {
  deepStrictEqual(
    adcpFailedTask({ id: "t", contextId: "c" }, ERROR, {
      protocolVersion: "0.3",
      timestamp: "2026-01-22T10:30:00.000Z",
      summary: "Increase the budget.",
      artifactId: "err",
      mimeType: false,
    }),
    {
      kind: "task",
      id: "t",
      contextId: "c",
      status: { state: "failed", timestamp: "2026-01-22T10:30:00.000Z" },
      artifacts: [{
        artifactId: "err",
        parts: [
          { kind: "text", text: "Increase the budget." },
          { kind: "data", data: { adcp_error: ERROR } },
        ],
      }],
    },
  );
});

Deno.test("adcpFailedTask() refuses bad ids, options and errors", () => {
  throws(() => adcpFailedTask({ id: "", contextId: "c" }, ERROR), TypeError);
  throws(
    () => adcpFailedTask({ id: "t", contextId: "c" }, ERROR, { timestamp: "yesterday" }),
    TypeError,
  );
  throws(
    () => adcpFailedTask({ id: "t", contextId: "c" }, ERROR, { protocolVersion: "2.0" as "1.0" }),
    TypeError,
  );
  throws(
    () => adcpFailedTask({ id: "t", contextId: "c" }, { code: "nope", message: "x" }),
    TypeError,
  );
});

Deno.test(
  "adcpFailedTask() sets both layers with payload: a " +
    "payload DataPart before the error's, in both wire forms",
  () => {
    const ids = { id: "t", contextId: "c" };
    const timestamp = "2026-01-22T10:30:00.000Z";
    deepStrictEqual(
      adcpFailedTask(ids, ERROR, { timestamp, payload: { context: { trace: "t-1" } } }).artifacts[0]
        .parts,
      [
        { text: "The request failed with BUDGET_TOO_LOW." },
        { data: { context: { trace: "t-1" }, status: "failed", errors: [ERROR] } },
        { data: { adcp_error: ERROR }, metadata: { mimeType: "application/vnd.adcp.error+json" } },
      ],
    );
    deepStrictEqual(
      adcpFailedTask(ids, ERROR, { timestamp, payload: true, protocolVersion: "0.3" }).artifacts[0]
        .parts,
      [
        { kind: "text", text: "The request failed with BUDGET_TOO_LOW." },
        { kind: "data", data: { status: "failed", errors: [ERROR] } },
        {
          kind: "data",
          data: { adcp_error: ERROR },
          metadata: { mimeType: "application/vnd.adcp.error+json" },
        },
      ],
    );
    throws(() => adcpFailedTask(ids, ERROR, { payload: { status: "working" } }), TypeError);
  },
);

Deno.test(
  "adcpFailedTask() with payload: " +
    "detectAdcpError finds the same code on the transport and payload layers",
  () => {
    for (const protocolVersion of ["1.0", "0.3"] as const) {
      const task = adcpFailedTask({ id: "t", contextId: "c" }, ERROR, {
        payload: true,
        protocolVersion,
      });
      // Transport layer: the adcp_error DataPart, the last one, as every extractor reads it.
      deepStrictEqual(detectAdcpError(task), { error: ERROR, path: "artifact" });
      deepStrictEqual(handleA2AResponse(task), { kind: "error", error: ERROR, path: "artifact" });
      deepStrictEqual(extractAdcpResponseFromA2A(task), { adcp_error: ERROR });
      // Payload layer: the same task without the envelope's DataPart.
      const [text, payload] = task.artifacts[0].parts;
      const payloadOnly = {
        ...task,
        artifacts: [{ ...task.artifacts[0], parts: [text, payload] }],
      };
      const found = detectAdcpError(payloadOnly);
      deepStrictEqual(found, { error: ERROR, path: "payload_errors" });
      strictEqual(found?.error.code, detectAdcpError(task)?.error.code);
    }
  },
);

Deno.test(
  "adcpFailedTask() default summary names a " +
    "forwarded code only when it looks like one",
  () => {
    const ids = { id: "t", contextId: "c" };
    const text = (error: unknown) =>
      String(adcpFailedTask(ids, forwardAdcpError(error)).artifacts[0].parts[0]?.text);
    strictEqual(
      text({ code: "RATE_LIMITED", retry_after: 2.5 }),
      "The request failed with RATE_LIMITED. Retry in 2.5 seconds.",
    );
    strictEqual(text({ code: "weird code\nline", retry_after: 86_400 }), "The request failed.");
  },
);
