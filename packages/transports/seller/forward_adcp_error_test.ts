import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  detectAdcpError,
  extractAdcpErrorFromA2A,
  extractAdcpErrorFromJsonRpcError,
  handleMcpResponse,
  validateAdcpError,
} from "@adcp-wire/core";
import { adcpErrorResult } from "./adcp_error_result.ts";
import { adcpFailedTask } from "./adcp_failed_task.ts";
import { adcpJsonRpcError } from "./adcp_jsonrpc_error.ts";
import { checkOutgoingAdcpError, type OutgoingErrorWarning } from "./check_outgoing_adcp_error.ts";
import { forwardAdcpError } from "./forward_adcp_error.ts";

// An upstream seller's error as an agency agent receives it: a fractional retry_after, details,
// fields outside core/error.json, a "__proto__" key from JSON, and text our own seller-side
// checks would redact.
const UPSTREAM_TEXT = '{"code":"RATE_LIMITED","message":"Upstream 10.0.3.7 is busy",' +
  '"recovery":"transient","retry_after":2.5,"details":{"limit":100,"remaining":0,' +
  '"window_seconds":60,"scope":"account","nested":{"__proto__":{"polluted":true}}},' +
  '"x_seller_trace":"abc123","source":"seller","sdk_id":"acme-sdk/1.2"}';

Deno.test(
  "forwardAdcpError() keeps recovery, retry_after, " +
    "details and unknown fields byte for byte on every path",
  () => {
    const upstream = JSON.parse(UPSTREAM_TEXT);
    const forwarded = forwardAdcpError(upstream);
    strictEqual(JSON.stringify(forwarded), UPSTREAM_TEXT);

    // MCP tool result: structuredContent and the JSON text fallback.
    const result = adcpErrorResult(forwarded, { summary: "Seller busy, retry shortly." });
    strictEqual(JSON.stringify(result.structuredContent.adcp_error), UPSTREAM_TEXT);
    strictEqual(result.content[0]!.text, `{"adcp_error":${UPSTREAM_TEXT}}`);
    const outcome = handleMcpResponse(result);
    ok(outcome.kind === "error" && outcome.path === "structured_content");
    strictEqual(JSON.stringify(outcome.error), UPSTREAM_TEXT);
    strictEqual(
      JSON.stringify(detectAdcpError({ isError: true, content: result.content })?.error),
      UPSTREAM_TEXT,
    );

    // JSON-RPC error (RATE_LIMITED is one of the reserved codes).
    const rpc = adcpJsonRpcError(forwarded);
    strictEqual(JSON.stringify(rpc.data.adcp_error), UPSTREAM_TEXT);
    strictEqual(
      JSON.stringify(extractAdcpErrorFromJsonRpcError({ jsonrpc: "2.0", id: 1, error: rpc })),
      UPSTREAM_TEXT,
    );

    // A2A failed task, both wire forms.
    for (const protocolVersion of ["1.0", "0.3"] as const) {
      const task = adcpFailedTask({ id: "t", contextId: "c" }, forwarded, { protocolVersion });
      strictEqual(JSON.stringify(extractAdcpErrorFromA2A(task)), UPSTREAM_TEXT);
    }

    // Both layers: the payload's errors[0] is the same bytes.
    const both = adcpErrorResult(forwarded, { payload: true });
    strictEqual(JSON.stringify(both.structuredContent.errors), `[${UPSTREAM_TEXT}]`);
    strictEqual(({} as Record<string, unknown>).polluted, undefined);
  },
);

Deno.test("forwardAdcpError() is needed: seller-side cleaning would change the same error", () => {
  const upstream = JSON.parse(UPSTREAM_TEXT);
  const cleaned = adcpErrorResult(upstream).structuredContent.adcp_error;
  strictEqual(cleaned.retry_after, 3);
  strictEqual(cleaned.message, "Upstream [redacted] is busy");
  ok(!Object.hasOwn(cleaned, "x_seller_trace"));
  ok(JSON.stringify(cleaned) !== UPSTREAM_TEXT);
  // checkOutgoingAdcpError cleans a forwarded error like any other: only the helpers forward.
  const checked = checkOutgoingAdcpError(forwardAdcpError(upstream));
  ok(checked.valid && checked.error.retry_after === 3);
});

Deno.test("forwardAdcpError() output is frozen; the options of the helpers do not touch it", () => {
  const forwarded = forwardAdcpError(JSON.parse(UPSTREAM_TEXT));
  ok(Object.isFrozen(forwarded));
  ok(Object.isFrozen(forwarded.details));
  throws(() => {
    (forwarded as Record<string, unknown>).retry_after = 3;
  }, TypeError);
  const warnings: OutgoingErrorWarning[] = [];
  const result = adcpErrorResult(forwarded, {
    strict: true,
    internalServiceNames: ["acme-sdk"],
    onWarning: (warning) => warnings.push(warning),
  });
  strictEqual(JSON.stringify(result.structuredContent.adcp_error), UPSTREAM_TEXT);
  deepStrictEqual(warnings, []);
  // The summary is still the seller's own text, and still checked.
  throws(
    () => adcpErrorResult(forwarded, { strict: true, summary: "Upstream 10.0.3.7 is busy." }),
    {
      name: "TypeError",
      message: "Cannot build the error result as 'options.summary' must be free of ip_address " +
        '(strict mode): current value is "(26 characters, not shown)"',
    },
  );
});

Deno.test("forwardAdcpError() forwards what buyers accept, and nothing else", () => {
  // The JSON-RPC example of Transport Error Mapping has no message: forwarded as it is.
  const bare = forwardAdcpError({ code: "RATE_LIMITED", retry_after: 5, recovery: "transient" });
  const warnings: string[] = [];
  deepStrictEqual(adcpJsonRpcError(bare, { onWarning: (w) => warnings.push(w.kind) }).data, {
    adcp_error: { code: "RATE_LIMITED", retry_after: 5, recovery: "transient" },
  });
  deepStrictEqual(warnings, []);
  // A newer or vendor code is forwarded: the vocabulary is open.
  strictEqual(forwardAdcpError({ code: "NEWER_CODE", recovery: "terminal" }).code, "NEWER_CODE");
  // The JSON-RPC path is still for the three reserved codes only.
  throws(() => adcpJsonRpcError(forwardAdcpError({ code: "BUDGET_TOO_LOW" })), {
    name: "TypeError",
    message: "Cannot build the JSON-RPC error as 'error.code' must be RATE_LIMITED, AUTH_MISSING " +
      "(or AUTH_REQUIRED) or SERVICE_UNAVAILABLE (send any other code by the tool-level path): " +
      'current value is "BUDGET_TOO_LOW"',
  });
  // validateAdcpError of @adcp-wire/core decides.
  for (
    const invalid of [
      null,
      "RATE_LIMITED",
      [],
      {},
      { code: "" },
      { code: 429 },
      { code: "X".repeat(65) },
      { code: "X_BIG", message: "€".repeat(1400) },
      { code: "X", n: 1n },
    ]
  ) {
    throws(() => forwardAdcpError(invalid), TypeError);
  }
  throws(() => forwardAdcpError({ code: "" }), {
    name: "TypeError",
    message: "Cannot forward the error as 'upstream' must be an AdCP error (an object whose code " +
      "is a string of 1 to 64 characters, at most 4096 serialized UTF-8 bytes): current value is " +
      "an object",
  });
  // Upstream text is shown by its size only.
  throws(() => forwardAdcpError("ECONNREFUSED 10.0.0.7:5432"), {
    name: "TypeError",
    message: "Cannot forward the error as 'upstream' must be an AdCP error (an object whose code " +
      "is a string of 1 to 64 characters, at most 4096 serialized UTF-8 bytes): current value is " +
      '"(26 characters, not shown)"',
  });
});

Deno.test(
  "forwardAdcpError() lets an intermediary " +
    "aggregate upstream errors in the payload, unchanged",
  () => {
    const first = forwardAdcpError({ code: "BUDGET_TOO_LOW", recovery: "correctable", x: 1 });
    const second = forwardAdcpError({ code: "X_OTHER_FLOOR", recovery: "correctable", y: 2 });
    const result = adcpErrorResult(first, { payload: { errors: [first, second] } });
    strictEqual(
      JSON.stringify(result.structuredContent.errors),
      '[{"code":"BUDGET_TOO_LOW","recovery":"correctable","x":1},' +
        '{"code":"X_OTHER_FLOOR","recovery":"correctable","y":2}]',
    );
    const { adcp_error: _, ...payload } = result.structuredContent;
    strictEqual(detectAdcpError(payload)?.error.code, "BUDGET_TOO_LOW");
  },
);

Deno.test(
  "forwardAdcpError() forwards any error buyers accept byte for byte, " +
    "and refuses the rest (property)",
  () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            code: fc.oneof(fc.constantFrom("RATE_LIMITED", "X_ACME_FLOOR"), fc.string()),
            message: fc.option(fc.string(), { nil: undefined }),
            retry_after: fc.option(fc.double({ noNaN: true }), { nil: undefined }),
            details: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
            extra: fc.option(fc.jsonValue(), { nil: undefined }),
          }, { requiredKeys: ["code"] }),
        ),
        (upstream) => {
          const text = JSON.stringify(upstream);
          let forwarded;
          try {
            forwarded = forwardAdcpError(upstream);
          } catch (error) {
            ok(error instanceof TypeError);
            strictEqual(validateAdcpError(upstream), null);
            return;
          }
          ok(validateAdcpError(upstream) !== null);
          strictEqual(JSON.stringify(forwarded), text);
          strictEqual(
            JSON.stringify(adcpErrorResult(forwarded).structuredContent.adcp_error),
            text,
          );
          const task = adcpFailedTask({ id: "t", contextId: "c" }, forwarded);
          strictEqual(JSON.stringify(task.artifacts[0].parts[1]?.data), `{"adcp_error":${text}}`);
        },
      ),
      { numRuns: 500 },
    );
  },
);
