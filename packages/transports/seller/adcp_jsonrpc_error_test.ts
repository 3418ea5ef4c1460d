import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { ADCP_JSONRPC_CODES, adcpJsonRpcError } from "./adcp_jsonrpc_error.ts";
import type { OutgoingErrorWarning } from "./check_outgoing_adcp_error.ts";

Deno.test("adcpJsonRpcError() maps each reserved code", () => {
  const expected = [
    ["RATE_LIMITED", -32029, "Rate limit exceeded"],
    ["AUTH_MISSING", -32028, "Authentication required"],
    ["AUTH_REQUIRED", -32028, "Authentication required"],
    ["SERVICE_UNAVAILABLE", -32027, "Service unavailable"],
  ] as const;
  for (const [code, rpcCode, message] of expected) {
    const error = adcpJsonRpcError({ code, message: "Rejected" });
    strictEqual(error.code, rpcCode);
    strictEqual(error.message, message);
    strictEqual(error.data.adcp_error.code, code);
    strictEqual(ADCP_JSONRPC_CODES[code], rpcCode);
  }
});

Deno.test("adcpJsonRpcError() warns on the deprecated AUTH_REQUIRED alias", () => {
  const warnings: OutgoingErrorWarning[] = [];
  adcpJsonRpcError({ code: "AUTH_REQUIRED", message: "Sign in" }, {
    onWarning: (warning) => warnings.push(warning),
  });
  deepStrictEqual(warnings.map((w) => w.kind), ["deprecated_code", "recovery_filled"]);
});

Deno.test("adcpJsonRpcError() refuses every other code, inherited names included", () => {
  for (
    const code of ["BUDGET_TOO_LOW", "AUTH_INVALID", "X_ACME_LIMIT_HIT", "constructor", "toString"]
  ) {
    throws(() => adcpJsonRpcError({ code, message: "x" }), TypeError);
  }
  throws(() => adcpJsonRpcError("RATE_LIMITED"), TypeError);
});

Deno.test("adcpJsonRpcError() checks a custom JSON-RPC message", () => {
  strictEqual(
    adcpJsonRpcError({ code: "RATE_LIMITED", message: "x" }, { message: "Too many requests" })
      .message,
    "Too many requests",
  );
  strictEqual(
    adcpJsonRpcError({ code: "RATE_LIMITED", message: "x" }, {
      message: "Limited by redis.svc:6379",
    })
      .message,
    "Limited by [redacted]",
  );
  throws(
    () => adcpJsonRpcError({ code: "RATE_LIMITED", message: "x" }, { message: "a\nb" }),
    TypeError,
  );
});

Deno.test(
  "adcpJsonRpcError() fills a missing message, " +
    "as the spec's middleware example has none",
  () => {
    const warnings: string[] = [];
    const body = adcpJsonRpcError(
      { code: "RATE_LIMITED", retry_after: 5, recovery: "transient" },
      { onWarning: (w) => warnings.push(w.kind) },
    );
    deepStrictEqual(body, {
      code: -32029,
      message: "Rate limit exceeded",
      data: {
        adcp_error: {
          code: "RATE_LIMITED",
          message: "Rate limit exceeded",
          recovery: "transient",
          retry_after: 5,
        },
      },
    });
    deepStrictEqual(warnings, ["message_filled"]);
  },
);
