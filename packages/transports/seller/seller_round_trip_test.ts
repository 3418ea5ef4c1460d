// Round trips: what the seller helpers produce is fed back through the buyer-side extraction of
// @adcp-wire/core, for every standard error code (the table generated into @adcp-wire/schemas,
// iterated rather than counted) and for a vendor code.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  detectAdcpError,
  extractAdcpErrorFromA2A,
  extractAdcpErrorFromJsonRpcError,
  handleA2AResponse,
  handleMcpResponse,
} from "@adcp-wire/core";
import { classifyRecovery } from "@adcp-wire/recovery";
import { lookupErrorCode, STANDARD_ERROR_CODES } from "@adcp-wire/schemas";
import { adcpErrorResult } from "./adcp_error_result.ts";
import { adcpFailedTask } from "./adcp_failed_task.ts";
import { ADCP_JSONRPC_CODES, adcpJsonRpcError } from "./adcp_jsonrpc_error.ts";
import { adcpSuccessResult } from "./adcp_success_result.ts";
import { checkOutgoingAdcpError } from "./check_outgoing_adcp_error.ts";

function errorFor(code: string): Record<string, unknown> {
  const info = lookupErrorCode(code);
  return {
    code,
    message: `The request failed with ${code}`,
    ...(info === undefined ? { recovery: "terminal" } : {}), // senders MUST populate recovery
    ...(info?.recovery === "transient" ? { retry_after: 7 } : {}),
    ...(info?.recovery === "correctable"
      ? { field: "packages[0].budget", suggestion: "Fix it" }
      : {}),
    details: { reason: "example", limit: 3 },
  };
}

Deno.test("the standard code table is not empty", () => {
  ok(STANDARD_ERROR_CODES.length > 0);
});

for (const code of [...STANDARD_ERROR_CODES, "X_STREAMHAUS_FLOOR_NOT_MET"]) {
  Deno.test(`seller helpers round-trip through buyer extraction for ${code}`, () => {
    const input = errorFor(code);
    const checked = checkOutgoingAdcpError(input);
    ok(checked.valid, `refused: ${JSON.stringify(!checked.valid && checked.issues)}`);
    const sent = checked.error;
    const expectedRecovery = lookupErrorCode(code)?.recovery;
    strictEqual(sent.recovery, expectedRecovery ?? "terminal");
    strictEqual(classifyRecovery(sent), expectedRecovery ?? "terminal");

    // MCP tool level: structuredContent first, then the text fallback alone.
    const tool = adcpErrorResult(input, { summary: `Failed with ${code}.` });
    deepStrictEqual(handleMcpResponse(tool), {
      kind: "error",
      error: sent,
      path: "structured_content",
    });
    const legacy = { isError: true, content: tool.content };
    deepStrictEqual(handleMcpResponse(legacy), {
      kind: "error",
      error: sent,
      path: "text_fallback",
    });
    deepStrictEqual(detectAdcpError(tool)?.error, sent);

    // A2A failed task, both wire forms.
    for (const protocolVersion of ["1.0", "0.3"] as const) {
      const task = adcpFailedTask({ id: "t1", contextId: "c1" }, input, { protocolVersion });
      deepStrictEqual(handleA2AResponse(task), { kind: "error", error: sent, path: "artifact" });
      deepStrictEqual(handleA2AResponse({ task }), {
        kind: "error",
        error: sent,
        path: "artifact",
      });
      deepStrictEqual(extractAdcpErrorFromA2A(task), sent);
    }

    // Both layers ("A fatal task failure SHOULD populate both layers"): detectAdcpError finds the
    // same code in the envelope and, without it, in the payload's errors[0].
    const both = adcpErrorResult(input, { payload: true });
    deepStrictEqual(detectAdcpError(both), { error: sent, path: "structured_content" });
    const { adcp_error: _, ...payload } = both.structuredContent;
    deepStrictEqual(detectAdcpError({ isError: true, content: [], structuredContent: payload }), {
      error: sent,
      path: "payload_errors",
    });
    const task = adcpFailedTask({ id: "t1", contextId: "c1" }, input, { payload: true });
    deepStrictEqual(detectAdcpError(task), { error: sent, path: "artifact" });
    const parts = task.artifacts[0].parts.slice(0, -1);
    deepStrictEqual(detectAdcpError({ ...task, artifacts: [{ ...task.artifacts[0], parts }] }), {
      error: sent,
      path: "payload_errors",
    });

    // The JSON-RPC path only for the reserved codes.
    if (Object.hasOwn(ADCP_JSONRPC_CODES, code)) {
      const rpc = adcpJsonRpcError(input);
      strictEqual(rpc.code, ADCP_JSONRPC_CODES[code as keyof typeof ADCP_JSONRPC_CODES]);
      deepStrictEqual(
        extractAdcpErrorFromJsonRpcError({ jsonrpc: "2.0", id: 1, error: rpc }),
        sent,
      );
    }
  });
}

Deno.test("adcpSuccessResult round-trips as success and never as an error", () => {
  const data = { status: "completed", products: [], total: 0 };
  deepStrictEqual(handleMcpResponse(adcpSuccessResult(data)), { kind: "success", data });
  deepStrictEqual(handleMcpResponse(adcpSuccessResult(data, "No products matched.")), {
    kind: "success",
    data,
  });
  strictEqual(detectAdcpError(adcpSuccessResult(data)), null);
});
