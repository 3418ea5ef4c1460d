import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { anyResponse, mcpResultText, runPure } from "./_test_utils.ts";
import { extractAdcpErrorFromMcp } from "./extract_adcp_error_from_mcp.ts";
import { extractAdcpResponseFromMcp } from "./extract_adcp_response_from_mcp.ts";
import { handleMcpResponse } from "./handle_mcp_response.ts";

const text = (t: unknown) => ({ type: "text", text: t });

Deno.test("handleMcpResponse() returns a valid structured error with its path", () => {
  const adcpError = { code: "RATE_LIMITED" };
  const result = {
    isError: true,
    content: [text("Rate limited")],
    structuredContent: { adcp_error: adcpError },
  };
  const outcome = handleMcpResponse(result);
  deepStrictEqual(outcome, { kind: "error", error: adcpError, path: "structured_content" });
  strictEqual(outcome.kind === "error" && outcome.error, adcpError);
});

Deno.test("handleMcpResponse() never returns success or plain text for a truthy isError", () => {
  for (const isError of [true, 1, "yes"]) {
    deepStrictEqual(
      handleMcpResponse({
        isError,
        content: [text("Oops"), text('{"status":"completed"}')],
        structuredContent: { status: "completed" },
      }),
      { kind: "text", text: 'Oops\n{"status":"completed"}', isError: true },
    );
    deepStrictEqual(
      handleMcpResponse({ isError, structuredContent: { adcp_error: { code: 429 } } }),
      { kind: "text", text: "", isError: true },
    );
  }
});

Deno.test("handleMcpResponse() returns success data by identity", () => {
  const structuredContent = { status: "completed" };
  const outcome = handleMcpResponse({ content: [text("Done")], structuredContent });
  ok(outcome.kind === "success");
  strictEqual(outcome.data, structuredContent);
  deepStrictEqual(handleMcpResponse({ content: [text('{"a":1}')] }), {
    kind: "success",
    data: { a: 1 },
  });
});

Deno.test("handleMcpResponse() reports an unflagged adcp_error-only response as error text", () => {
  deepStrictEqual(
    handleMcpResponse({
      content: [text("Error occurred.")],
      structuredContent: { adcp_error: { code: "BUDGET_TOO_LOW" } },
    }),
    { kind: "text", text: "Error occurred.", isError: true },
  );
  const adcpErrorText = '{"adcp_error":{"code":"RATE_LIMITED"}}';
  deepStrictEqual(handleMcpResponse({ content: [text(adcpErrorText)] }), {
    kind: "text",
    text: adcpErrorText,
    isError: true,
  });
  // A later success object still wins over a skipped adcp_error-only item.
  deepStrictEqual(handleMcpResponse({ content: [text(adcpErrorText), text('{"a":1}')] }), {
    kind: "success",
    data: { a: 1 },
  });
});

Deno.test("handleMcpResponse() joins text items for plain text", () => {
  deepStrictEqual(
    handleMcpResponse({
      content: [text("Found"), { type: "image", data: "…" }, text(""), text(3), text("3 products")],
    }),
    { kind: "text", text: "Found\n3 products" },
  );
  deepStrictEqual(handleMcpResponse({}), { kind: "text", text: "" });
});

Deno.test("handleMcpResponse() reports non-objects as error text", () => {
  for (const value of [undefined, null, "text", 1, []]) {
    deepStrictEqual(handleMcpResponse(value), { kind: "text", text: "", isError: true });
  }
});

Deno.test("handleMcpResponse() passes maxResponseBytes to both extractors", () => {
  const big = text(JSON.stringify({ adcp_error: { code: "BIG" }, pad: "x".repeat(50) }));
  deepStrictEqual(handleMcpResponse({ isError: true, content: [big] }, { maxResponseBytes: 20 }), {
    kind: "text",
    text: big.text,
    isError: true,
  });
  deepStrictEqual(
    handleMcpResponse({ content: [text('{"a":"xxxxxxxx"}')] }, { maxResponseBytes: 5 }),
    {
      kind: "text",
      text: '{"a":"xxxxxxxx"}',
    },
  );
  throws(() => handleMcpResponse({}, { maxResponseBytes: 0.5 }), RangeError);
});

Deno.test("handleMcpResponse() is total, pure and consistent with the extractors", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.jsonValue(), anyResponse, mcpResultText.map((t) => JSON.parse(t))),
      (result) => {
        const outcome = runPure(result, handleMcpResponse);
        const error = extractAdcpErrorFromMcp(result);
        const data = extractAdcpResponseFromMcp(result);
        switch (outcome.kind) {
          case "error":
            // Text fallback parses afresh on every call: equal, not identical.
            deepStrictEqual(outcome.error, error);
            if (outcome.path === "structured_content") strictEqual(outcome.error, error);
            break;
          case "success":
            strictEqual(error, null);
            deepStrictEqual(outcome.data, data);
            break;
          case "text":
            strictEqual(error, null);
            strictEqual(data, null);
            strictEqual(typeof outcome.text, "string");
            if (outcome.isError !== true) ok(!(result as Record<string, unknown>)["isError"]);
            break;
        }
      },
    ),
    { numRuns: 300 },
  );
});
