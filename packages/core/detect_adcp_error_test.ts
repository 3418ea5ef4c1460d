import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { anyResponse, json, runPure } from "./_test_utils.ts";
import { type AdcpErrorDetection, detectAdcpError } from "./detect_adcp_error.ts";
import { extractAdcpErrorFromA2A } from "./extract_adcp_error_from_a2a.ts";
import { extractAdcpErrorFromMcp } from "./extract_adcp_error_from_mcp.ts";
import { validateAdcpError } from "./validate_adcp_error.ts";

const e = (code: string) => ({ code });
const text = (t: unknown) => ({ type: "text", text: t });

/** A response carrying a (different) error on every one of the six paths. */
function everyPath(): Record<string, unknown> {
  return {
    isError: true,
    structuredContent: { adcp_error: e("SC"), errors: [e("SC_PAYLOAD")] },
    artifacts: [{ parts: [{ data: { adcp_error: e("ART") } }] }],
    status: {
      state: "failed",
      message: { parts: [{ kind: "data", data: { adcp_error: e("MSG") } }] },
    },
    error: { code: -32029, data: { adcp_error: e("RPC") } },
    content: [text(JSON.stringify({ adcp_error: e("TXT") }))],
    payload: { errors: [e("PAYLOAD")] },
    errors: [e("TOP")],
  };
}

Deno.test("detectAdcpError() follows the client detection order", () => {
  const response = everyPath();
  const expected: [string, string][] = [
    ["structured_content", "SC"],
    ["artifact", "ART"],
    ["status_message", "MSG"],
    ["jsonrpc_error", "RPC"],
    ["text_fallback", "TXT"],
    ["payload_errors", "PAYLOAD"],
    ["payload_errors", "TOP"],
  ];
  const remove = [
    () => delete response["structuredContent"],
    () => delete response["artifacts"],
    () => delete response["status"],
    () => delete response["error"],
    () => delete response["content"],
    () => delete response["payload"],
    () => delete response["errors"],
  ];
  for (const [index, [path, code]] of expected.entries()) {
    const found = detectAdcpError(response);
    strictEqual(found?.path, path, `step ${index + 1}`);
    strictEqual(found?.error.code, code, `step ${index + 1}`);
    remove[index]?.();
  }
  strictEqual(detectAdcpError(response), null);
});

Deno.test("detectAdcpError() needs a truthy isError for the MCP paths", () => {
  const response = {
    structuredContent: { adcp_error: e("SC") },
    content: [text(JSON.stringify({ adcp_error: e("TXT") }))],
  };
  strictEqual(detectAdcpError(response), null);
  strictEqual(detectAdcpError({ ...response, isError: 1 })?.path, "structured_content");
  strictEqual(detectAdcpError({ ...response, isError: "yes" })?.path, "structured_content");
  const textOnly = { isError: "yes", content: response.content };
  deepStrictEqual(detectAdcpError(textOnly), { error: e("TXT"), path: "text_fallback" });
});

Deno.test(
  "detectAdcpError() treats an invalid error on the first carrying path as no error",
  () => {
    const response = everyPath();
    (response["structuredContent"] as Record<string, unknown>)["adcp_error"] = { code: 429 };
    strictEqual(detectAdcpError(response), null);
    delete response["structuredContent"];
    response["artifacts"] = [{ parts: [{ data: { adcp_error: { code: "" } } }] }];
    strictEqual(detectAdcpError(response), null);
    delete response["artifacts"];
    delete response["status"];
    delete response["error"];
    delete response["content"];
    response["payload"] = { errors: [{ message: "no code" }] };
    strictEqual(detectAdcpError(response), null);
    response["payload"] = { errors: ["CODE"] };
    strictEqual(detectAdcpError(response), null);
  },
);

Deno.test("detectAdcpError() skips empty or non-array payload errors", () => {
  deepStrictEqual(detectAdcpError({ payload: { errors: [] }, errors: [e("TOP")] }), {
    error: e("TOP"),
    path: "payload_errors",
  });
  strictEqual(detectAdcpError({ payload: { errors: {} }, errors: [] }), null);
  strictEqual(detectAdcpError({ errors: { 0: e("X") } }), null);
  strictEqual(detectAdcpError({ payload: "x", errors: "x" }), null);
});

Deno.test("detectAdcpError() reads payload errors from MCP and A2A payloads", () => {
  const warning = { code: "APPROVAL_REQUIRED", severity: "warning" };
  // MCP success with flat payload fields in structuredContent.
  deepStrictEqual(
    detectAdcpError({ structuredContent: { status: "input-required", errors: [warning] } }),
    { error: warning, path: "payload_errors" },
  );
  // MCP error whose structuredContent has no adcp_error but a nested payload (error-handling.mdx).
  deepStrictEqual(
    detectAdcpError({
      isError: true,
      content: [text("Budget too low")],
      structuredContent: { payload: { errors: [e("BUDGET_TOO_LOW")] } },
    }),
    { error: e("BUDGET_TOO_LOW"), path: "payload_errors" },
  );
  // Legacy MCP server: payload in text, isError absent.
  deepStrictEqual(
    detectAdcpError({
      content: [text(JSON.stringify({ status: "completed", errors: [warning] }))],
    }),
    { error: warning, path: "payload_errors" },
  );
  // A2A: the DataPart success extraction would return, inside a stream envelope.
  deepStrictEqual(
    detectAdcpError({
      statusUpdate: {
        status: {
          state: "TASK_STATE_INPUT_REQUIRED",
          message: { parts: [{ data: { status: "input-required", errors: [warning] } }] },
        },
      },
    }),
    { error: warning, path: "payload_errors" },
  );
  // A2A wrapper: no payload, and no throw.
  strictEqual(
    detectAdcpError({
      status: { state: "completed" },
      artifacts: [{ parts: [{ data: { response: { errors: [warning] } } }] }],
    }),
    null,
  );
});

Deno.test("detectAdcpError() does not read bare JSON-RPC error objects", () => {
  strictEqual(detectAdcpError({ code: -32029, data: { adcp_error: e("RPC") } }), null);
  deepStrictEqual(detectAdcpError({ jsonrpc: "2.0", error: { data: { adcp_error: e("RPC") } } }), {
    error: e("RPC"),
    path: "jsonrpc_error",
  });
});

Deno.test("detectAdcpError() rejects nested envelopes on the A2A paths", () => {
  const task = {
    status: { state: "failed" },
    artifacts: [{ parts: [{ data: { adcp_error: e("A") } }] }],
  };
  strictEqual(detectAdcpError({ task })?.path, "artifact");
  strictEqual(detectAdcpError({ task: { task } }), null);
});

Deno.test("detectAdcpError() applies the text size limit and validates options", () => {
  const response = { isError: true, content: [text(JSON.stringify({ adcp_error: e("TXT") }))] };
  strictEqual(detectAdcpError(response, { maxResponseBytes: 10 }), null);
  strictEqual(detectAdcpError(response, { maxResponseBytes: 100 })?.path, "text_fallback");
  throws(() => detectAdcpError(response, { maxResponseBytes: -5 }), RangeError);
});

Deno.test("detectAdcpError() keeps own __proto__ keys of the error", () => {
  const found = detectAdcpError(json('{"errors":[{"code":"X","__proto__":{"a":1}}]}'));
  deepStrictEqual(Object.keys(found?.error ?? {}), ["code", "__proto__"]);
});

Deno.test("detectAdcpError() agrees with the transport extractors on their paths", () => {
  fc.assert(
    fc.property(anyResponse, (response) => {
      const found: AdcpErrorDetection | null = runPure(response, detectAdcpError);
      if (found === null) return;
      strictEqual(validateAdcpError(found.error), found.error);
      if (found.path === "structured_content") {
        strictEqual(extractAdcpErrorFromMcp(response), found.error);
      }
      if (found.path === "text_fallback") {
        // Text fallback parses afresh on every call: equal, not identical.
        deepStrictEqual(extractAdcpErrorFromMcp(response), found.error);
      }
      if (found.path === "artifact" || found.path === "status_message") {
        strictEqual(extractAdcpErrorFromA2A(response), found.error);
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("detectAdcpError() is total and pure on any JSON value", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const found = runPure(value, detectAdcpError);
      ok(found === null || typeof found.error.code === "string");
    }),
  );
  strictEqual(detectAdcpError(undefined), null);
});

Deno.test("detectAdcpError() reads a JSON-RPC success response through its result", () => {
  const adcp_error = { code: "RATE_LIMITED", recovery: "transient" };
  const toolResult = { isError: true, content: [], structuredContent: { adcp_error } };
  deepStrictEqual(detectAdcpError({ jsonrpc: "2.0", id: 1, result: toolResult }), {
    error: adcp_error,
    path: "structured_content",
  });
  const task = {
    id: "t",
    status: { state: "failed" },
    artifacts: [{ parts: [{ data: { adcp_error } }] }],
  };
  deepStrictEqual(detectAdcpError({ jsonrpc: "2.0", id: 2, result: task }), {
    error: adcp_error,
    path: "artifact",
  });
  // A2A 1.0: the result is a StreamResponse envelope, unwrapped once as usual.
  deepStrictEqual(detectAdcpError({ jsonrpc: "2.0", id: 3, result: { task } }), {
    error: adcp_error,
    path: "artifact",
  });
  // Without the version marker, or with an error member, `result` is not read.
  strictEqual(detectAdcpError({ id: 4, result: toolResult }), null);
  strictEqual(
    detectAdcpError({ jsonrpc: "2.0", id: 5, error: { code: -32603, message: "x" }, result: task }),
    null,
  );
  // A success result carries no error.
  strictEqual(detectAdcpError({ jsonrpc: "2.0", id: 6, result: { structuredContent: {} } }), null);
});

Deno.test(
  "detectAdcpError() unwraps one JSON-RPC envelope only, so deep nesting cannot exhaust " +
    "the stack",
  () => {
    const adcp_error = { code: "A" };
    let nested: Record<string, unknown> = { isError: true, structuredContent: { adcp_error } };
    nested = { jsonrpc: "2.0", id: 1, result: { jsonrpc: "2.0", id: 2, result: nested } };
    strictEqual(detectAdcpError(nested), null);
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) deep = { jsonrpc: "2.0", id: i, result: deep };
    strictEqual(detectAdcpError(deep), null);
  },
);
