import { deepStrictEqual, throws } from "node:assert/strict";
import { adcpSuccessResult } from "./adcp_success_result.ts";

Deno.test("adcpSuccessResult() puts the payload in structuredContent only", () => {
  const data = { status: "completed", products: [] };
  deepStrictEqual(adcpSuccessResult(data), { content: [], structuredContent: data });
  deepStrictEqual(adcpSuccessResult(data, "No products matched."), {
    content: [{ type: "text", text: "No products matched." }],
    structuredContent: data,
  });
});

Deno.test("adcpSuccessResult() refuses errors, non-objects and a second copy in text", () => {
  throws(() => adcpSuccessResult({ adcp_error: { code: "X" } }), TypeError);
  throws(() => adcpSuccessResult({ products: [], adcp_error: { code: "X" } }), TypeError);
  throws(() => adcpSuccessResult([] as unknown as Record<string, unknown>), TypeError);
  throws(() => adcpSuccessResult(new Date() as unknown as Record<string, unknown>), TypeError);
  const data = { status: "completed", products: [] };
  throws(() => adcpSuccessResult(data, JSON.stringify(data)), {
    name: "TypeError",
    message: "Expected summary to be prose, got JSON text",
  });
  throws(() => adcpSuccessResult(data, ""), TypeError);
});
