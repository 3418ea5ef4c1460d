import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { adcpProfileInvocation, checkAdcpProfileResponse } from "../a2a/mod.ts";
import { adcpProfileInputRequired } from "./adcp_profile_input_required.ts";

const IDS = { id: "task_123", contextId: "ctx_456" };
const ACTION = "Cannot build the AdCP profile input-required response as";

Deno.test("adcpProfileInputRequired() builds a native input-required Task with its ids", () => {
  deepStrictEqual(
    adcpProfileInputRequired(IDS, {
      summary: "Select a supported campaign start time.",
      data: { reason: "START_TIME_REQUIRED" },
      messageId: "msg-input-001",
    }),
    {
      task: {
        id: "task_123",
        contextId: "ctx_456",
        status: {
          state: "TASK_STATE_INPUT_REQUIRED",
          message: {
            messageId: "msg-input-001",
            taskId: "task_123",
            contextId: "ctx_456",
            role: "ROLE_AGENT",
            parts: [
              { text: "Select a supported campaign start time." },
              { data: { reason: "START_TIME_REQUIRED" } },
            ],
          },
        },
      },
    },
  );
});

Deno.test("adcpProfileInputRequired() answers pass the check, and name the ids to continue", () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1 }),
      fc.string({ minLength: 1 }),
      fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
      (id, contextId, data) => {
        if (data !== undefined && ("adcp_error" in data || data.status === "submitted")) return;
        const built = adcpProfileInputRequired({ id, contextId }, { summary: "More input.", data });
        const checked = checkAdcpProfileResponse(JSON.parse(JSON.stringify(built)));
        ok(checked.valid && checked.state === "input-required", JSON.stringify(checked));
        // The continuation the buyer sends back carries both ids.
        const next = adcpProfileInvocation("get_products", {}, {
          taskId: checked.taskId,
          contextId: checked.contextId,
        });
        deepStrictEqual([next.message.taskId, next.message.contextId], [id, contextId]);
      },
    ),
  );
});

Deno.test("adcpProfileInputRequired() refuses an empty Message and bad options", () => {
  throws(() => adcpProfileInputRequired(IDS, {}), {
    name: "TypeError",
    message: `${ACTION} 'options.summary' must be a string when 'options.data' is unset (the ` +
      "Message needs a Part): current value is undefined",
  });
  for (const data of [{ adcp_error: {} }, { status: "submitted", task_id: "x" }, [], "x"]) {
    throws(() => adcpProfileInputRequired(IDS, { data: data as never }), {
      message: new RegExp(`^${ACTION} 'options.data' must be a plain object`),
    });
  }
  throws(() => adcpProfileInputRequired(IDS, { summary: "x", messageId: "" }), TypeError);
  throws(() => adcpProfileInputRequired(IDS, { summary: "a\nb" }), TypeError);
  throws(() => adcpProfileInputRequired({ id: "t", contextId: "" }, { summary: "x" }), {
    message: `${ACTION} 'ids.contextId' must be a non-empty string: current value is ""`,
  });
  throws(() => adcpProfileInputRequired(IDS, undefined as never), TypeError);
  const minted = adcpProfileInputRequired(IDS, { summary: "x" }).task.status.message.messageId;
  strictEqual(minted.length, 36);
});
