import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { anyResponse, json, jsonRpcText, runPure } from "./_test_utils.ts";
import { extractAdcpErrorFromJsonRpcError } from "./extract_adcp_error_from_jsonrpc_error.ts";
import { validateAdcpError } from "./validate_adcp_error.ts";

const adcpError = { code: "RATE_LIMITED", retry_after: 5, recovery: "transient" };

Deno.test(
  "extractAdcpErrorFromJsonRpcError() reads error.data.adcp_error of a JSON-RPC response",
  () => {
    const response = {
      jsonrpc: "2.0",
      id: "req-123",
      error: { code: -32029, message: "Rate limit exceeded", data: { adcp_error: adcpError } },
    };
    strictEqual(extractAdcpErrorFromJsonRpcError(response), adcpError);
  },
);

Deno.test("extractAdcpErrorFromJsonRpcError() reads a bare JSON-RPC error object", () => {
  const error = { code: -32027, message: "Unavailable", data: { adcp_error: adcpError } };
  strictEqual(extractAdcpErrorFromJsonRpcError(error), adcpError);
});

Deno.test("extractAdcpErrorFromJsonRpcError() reads an SDK error's own data property", () => {
  class McpError extends Error {
    constructor(readonly code: number, message: string, readonly data?: unknown) {
      super(message);
    }
  }
  strictEqual(
    extractAdcpErrorFromJsonRpcError(new McpError(-32029, "Slow", { adcp_error: adcpError })),
    adcpError,
  );
  strictEqual(extractAdcpErrorFromJsonRpcError(new McpError(-32029, "Slow")), null);
  class InheritedData extends Error {
    get data(): unknown {
      return { adcp_error: adcpError };
    }
  }
  strictEqual(extractAdcpErrorFromJsonRpcError(new InheritedData()), null);
});

Deno.test(
  "extractAdcpErrorFromJsonRpcError() reads only the error member of a JSON-RPC response",
  () => {
    const data = { adcp_error: adcpError };
    strictEqual(extractAdcpErrorFromJsonRpcError({ jsonrpc: "2.0", error: "oops", data }), null);
    strictEqual(extractAdcpErrorFromJsonRpcError({ jsonrpc: "2.0", error: null, data }), null);
    strictEqual(extractAdcpErrorFromJsonRpcError({ error: { code: -32600 }, data }), null);
    strictEqual(
      extractAdcpErrorFromJsonRpcError({ jsonrpc: "2.0", id: 1, result: { data } }),
      null,
    );
  },
);

Deno.test("extractAdcpErrorFromJsonRpcError() returns null without a valid adcp_error", () => {
  const cases: unknown[] = [
    { jsonrpc: "2.0", id: 1, error: { code: -32029, message: "Rate limit exceeded" } },
    { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "Invalid Request", data: "x" } },
    { code: -32029, data: { adcp_error: { code: 429 } } },
    { code: -32029, data: { adcp_error: null } },
    { code: -32029, data: [{ adcp_error: adcpError }] },
    { code: -32029, data: { adcp_error: { code: "X", message: "€".repeat(1400) } } },
    undefined,
    null,
    "error",
    [],
  ];
  for (const value of cases) strictEqual(extractAdcpErrorFromJsonRpcError(value), null);
});

Deno.test("extractAdcpErrorFromJsonRpcError() keeps own __proto__ keys of the error", () => {
  const error = extractAdcpErrorFromJsonRpcError(
    json('{"error":{"code":-32029,"data":{"adcp_error":{"code":"X","__proto__":{"a":1}}}}}'),
  );
  deepStrictEqual(Object.keys(error ?? {}), ["code", "__proto__"]);
});

Deno.test("extractAdcpErrorFromJsonRpcError() is total and pure", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.jsonValue(), anyResponse, jsonRpcText.map((t) => JSON.parse(t))),
      (value) => {
        const error = runPure(value, extractAdcpErrorFromJsonRpcError);
        if (error === null) return;
        ok(!Array.isArray(error));
        strictEqual(validateAdcpError(error), error);
      },
    ),
    { numRuns: 300 },
  );
});
