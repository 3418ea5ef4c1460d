import { deepStrictEqual, throws } from "node:assert/strict";
import { adcpFailedTask } from "./adcp_failed_task.ts";

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
