import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { handleMcpResponse } from "@adcp-wire/core";
import { adcpErrorResult } from "./adcp_error_result.ts";
import type { OutgoingErrorWarning } from "./check_outgoing_adcp_error.ts";

const RATE_LIMITED = {
  code: "RATE_LIMITED",
  message: "Request rate exceeded",
  recovery: "transient",
  retry_after: 5,
};

Deno.test("adcpErrorResult() puts the JSON text fallback first and the summary second", () => {
  deepStrictEqual(adcpErrorResult(RATE_LIMITED, { summary: "Rate limited — retry in 5s." }), {
    content: [
      { type: "text", text: JSON.stringify({ adcp_error: RATE_LIMITED }) },
      { type: "text", text: "Rate limited — retry in 5s." },
    ],
    isError: true,
    structuredContent: { adcp_error: RATE_LIMITED },
  });
  strictEqual(adcpErrorResult(RATE_LIMITED).content.length, 1);
});

Deno.test("adcpErrorResult() refuses bad codes, oversize errors and non-sentence summaries", () => {
  throws(() => adcpErrorResult({ code: "Rate limited", message: "x" }), {
    name: "TypeError",
    message: "Expected code to be a standard AdCP code or X_{VENDOR}_{CODE}, got another string",
  });
  throws(
    () => adcpErrorResult({ code: "RATE_LIMITED", message: "x".repeat(5_000) }),
    RangeError,
  );
  throws(() => adcpErrorResult(RATE_LIMITED, { summary: "Line one\nLine two" }), TypeError);
  throws(() => adcpErrorResult(RATE_LIMITED, { summary: '{"adcp_error":{}}' }), TypeError);
  throws(() => adcpErrorResult(RATE_LIMITED, { summary: "é".repeat(200) }), TypeError);
  throws(() => adcpErrorResult(RATE_LIMITED, { strict: "yes" as unknown as boolean }), TypeError);
});

Deno.test("adcpErrorResult() redacts a leaking summary, or refuses it in strict mode", () => {
  const warnings: OutgoingErrorWarning[] = [];
  const result = adcpErrorResult(RATE_LIMITED, {
    summary: "Gateway 10.0.0.9 throttled you.",
    onWarning: (warning) => warnings.push(warning),
  });
  strictEqual(result.content[1]?.text, "Gateway [redacted] throttled you.");
  deepStrictEqual(warnings.map((w) => [w.kind, w.field]), [["redacted", "summary"]]);
  throws(
    () =>
      adcpErrorResult(RATE_LIMITED, { summary: "Gateway 10.0.0.9 throttled you.", strict: true }),
    { name: "TypeError", message: "Expected options.summary to hold no ip_address" },
  );
});

Deno.test("adcpErrorResult() output is an error on both extraction paths", () => {
  const result = adcpErrorResult({
    code: "X_ACME_FLOOR_NOT_MET",
    message: "Below floor",
    recovery: "correctable",
  });
  const error = { code: "X_ACME_FLOOR_NOT_MET", message: "Below floor", recovery: "correctable" };
  deepStrictEqual(handleMcpResponse(result), { kind: "error", error, path: "structured_content" });
  deepStrictEqual(handleMcpResponse({ isError: true, content: result.content }), {
    kind: "error",
    error,
    path: "text_fallback",
  });
  ok(result.isError);
});
