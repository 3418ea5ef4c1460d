import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { type AdcpProfileHandlerReturn, checkAdcpProfileResponse } from "../a2a/mod.ts";
import { adcpFailedTask } from "./adcp_failed_task.ts";
import { adcpProfileTaskResponse } from "./adcp_profile_response.ts";

const IDS = { id: "a2a-task-create-42", contextId: "ctx-create-42" };
const ACTION = "Cannot build the AdCP profile task response as";

async function responseVectors(): Promise<Record<string, unknown>[]> {
  const url = new URL("../../../vectors/upstream/a2a-profile-extension-v3.json", import.meta.url);
  return JSON.parse(await Deno.readTextFile(url)).response_vectors;
}

Deno.test("adcpProfileTaskResponse() reproduces every valid upstream response vector", async () => {
  const valid = (await responseVectors()).filter((vector) => vector.valid === true);
  strictEqual(valid.length, 2);
  for (const vector of valid) {
    const task = (vector.response as { task: Record<string, unknown> }).task;
    const artifact = (task.artifacts as { artifactId: string; parts: Record<string, unknown>[] }[])[
      0
    ]!;
    const text = artifact.parts.find((part) => "text" in part)?.text as string | undefined;
    const data = artifact.parts.find((part) => "data" in part)!.data as Record<string, unknown>;
    const built = adcpProfileTaskResponse(
      data,
      { id: task.id as string, contextId: task.contextId as string },
      { summary: text, artifactId: artifact.artifactId },
    );
    deepStrictEqual(built, vector.response, String(vector.id));
    const checked = checkAdcpProfileResponse(built, {
      handlerReturn: vector.handler_return as AdcpProfileHandlerReturn,
    });
    ok(checked.valid && checked.adcpTaskId === vector.expected_adcp_task_id, String(vector.id));
  }
});

Deno.test(
  "adcpProfileTaskResponse() answers every handler return with an A2A completed Task",
  () => {
    const results: [AdcpProfileHandlerReturn, Record<string, unknown>][] = [
      ["completed", { status: "completed", cache_scope: "account", products: [] }],
      ["completed", { status: "rejected", reason: "No inventory for the dates" }],
      ["completed", { status: "input-required", reason: "APPROVAL_REQUIRED" }],
      ["completed", { status: "completed", errors: [{ code: "PARTIAL", message: "x" }] }],
      ["submitted", { status: "submitted", task_id: "adcp-task-9a21" }],
      ["get_task_status", { task_id: "adcp-task-9a21", status: "working", task_type: "x" }],
    ];
    for (const [handlerReturn, result] of results) {
      const built = adcpProfileTaskResponse(result, IDS, {
        summary: "One line.",
        timestamp: "2026-08-17T09:05:00.000Z",
      });
      strictEqual(built.task.status.state, "TASK_STATE_COMPLETED");
      strictEqual(built.task.status.timestamp, "2026-08-17T09:05:00.000Z");
      deepStrictEqual(built.task.artifacts[0].parts, [{ text: "One line." }, { data: result }]);
      for (const given of [handlerReturn, undefined]) {
        const checked = checkAdcpProfileResponse(built, { handlerReturn: given });
        ok(checked.valid && checked.data === result, `${handlerReturn} (${given})`);
      }
    }
  },
);

Deno.test("a fatal failure as { task: adcpFailedTask() } passes the profile response check", () => {
  const error = { code: "SERVICE_UNAVAILABLE", message: "Try later", retry_after: 5 };
  const checked = checkAdcpProfileResponse({ task: adcpFailedTask(IDS, error) });
  ok(checked.valid && checked.state === "failed");
  strictEqual((checked.data?.adcp_error as { code: string }).code, "SERVICE_UNAVAILABLE");
});

Deno.test("adcpProfileTaskResponse() refuses what the profile's DataPart cannot carry", () => {
  throws(() => adcpProfileTaskResponse({ adcp_error: { code: "X" } }, IDS), {
    name: "TypeError",
    message: `${ACTION} 'result' must be a direct AdCP response without adcp_error (send a fatal ` +
      "failure as { task: adcpFailedTask(ids, error) }): current value is an object",
  });
  throws(() => adcpProfileTaskResponse({ response: { products: [] } }, IDS), {
    message: `${ACTION} 'result' must be the direct AdCP response, not a { response: {...} } ` +
      "framework wrapper: current value is an object",
  });
  for (const task_id of [undefined, "", 3]) {
    throws(() => adcpProfileTaskResponse({ status: "submitted", task_id }, IDS), {
      message: new RegExp(`^${ACTION} 'result.task_id' must be a non-empty string when`),
    });
  }
  for (const result of [[], null, new Date(), "x"]) {
    throws(() => adcpProfileTaskResponse(result as never, IDS), TypeError);
  }
  throws(() => adcpProfileTaskResponse({ n: 1n }, IDS), {
    message: `${ACTION} 'result' must be a value that serializes as JSON: current value is an ` +
      "object",
  });
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  throws(() => adcpProfileTaskResponse(cycle, IDS), TypeError);
});

Deno.test("adcpProfileTaskResponse() refuses bad ids and options, naming them", () => {
  throws(() => adcpProfileTaskResponse({}, { id: "", contextId: "c" }), {
    message: `${ACTION} 'ids.id' must be a non-empty string: current value is ""`,
  });
  throws(() => adcpProfileTaskResponse({}, { id: "t" } as never), {
    message: `${ACTION} 'ids.contextId' must be a non-empty string: current value is undefined`,
  });
  throws(() => adcpProfileTaskResponse({}, null as never), TypeError);
  throws(() => adcpProfileTaskResponse({}, IDS, { artifactId: "" }), {
    message: `${ACTION} 'options.artifactId' must be a non-empty string: current value is ""`,
  });
  throws(() => adcpProfileTaskResponse({}, IDS, { timestamp: "yesterday" }), {
    message: `${ACTION} 'options.timestamp' must be an ISO 8601 date-time: current value is ` +
      '"yesterday"',
  });
  throws(() => adcpProfileTaskResponse({}, IDS, { summary: "a\nb" }), TypeError);
  throws(() => adcpProfileTaskResponse({}, IDS, { summary: '{"products":[]}' }), TypeError);
  throws(() => adcpProfileTaskResponse({}, IDS, { summary: "x".repeat(257) }), RangeError);
  throws(() => adcpProfileTaskResponse({}, IDS, "x" as never), TypeError);
});

Deno.test(
  "every response adcpProfileTaskResponse() builds passes checkAdcpProfileResponse()",
  () => {
    const result = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.record({
        status: fc.constant("submitted"),
        task_id: fc.string({ minLength: 1 }),
        message: fc.string(),
      }),
    ).filter((value) => {
      const keys = Object.keys(value);
      return !keys.includes("adcp_error") && !(keys.length === 1 && keys[0] === "response");
    });
    fc.assert(
      fc.property(
        result,
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.option(fc.constantFrom("Found 3 products.", "Awaiting IO signature."), {
          nil: undefined,
        }),
        (data, id, contextId, summary) => {
          const built = JSON.parse(JSON.stringify(
            adcpProfileTaskResponse(data, { id, contextId }, { summary }),
          ));
          const checked = checkAdcpProfileResponse(built);
          ok(checked.valid, JSON.stringify(checked));
          strictEqual(checked.taskId, id);
          if (data.status === "submitted") strictEqual(checked.adcpTaskId, data.task_id);
        },
      ),
      { numRuns: 1000 },
    );
  },
);
