import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { adcpSuccessResult, type AdcpSuccessResultOptions } from "./adcp_success_result.ts";
import {
  MCP_RESPONSE_SIZE_TARGET_BYTES,
  type OutgoingErrorWarning,
} from "./check_outgoing_adcp_error.ts";

Deno.test("adcpSuccessResult() puts the payload in structuredContent only", () => {
  const data = { status: "completed", products: [] };
  deepStrictEqual(adcpSuccessResult(data), { content: [], structuredContent: data });
  deepStrictEqual(adcpSuccessResult(data, "No products matched."), {
    content: [{ type: "text", text: "No products matched." }],
    structuredContent: data,
  });
});

Deno.test("adcpSuccessResult() refuses errors, non-objects and a second copy in text", () => {
  throws(() => adcpSuccessResult({ adcp_error: { code: "X" } }), {
    name: "TypeError",
    message: "Cannot build the success result as 'data' must be a success payload, with no " +
      "adcp_error key (send errors with adcpErrorResult): current value is an object",
  });
  throws(() => adcpSuccessResult({ products: [], adcp_error: { code: "X" } }), TypeError);
  throws(() => adcpSuccessResult([] as unknown as Record<string, unknown>), {
    name: "TypeError",
    message: "Cannot build the success result as 'data' must be a plain object: current value is " +
      "an array",
  });
  // Data given as text is seller text: its size is shown, never the text.
  throws(() => adcpSuccessResult('{"products":[]}' as unknown as Record<string, unknown>), {
    name: "TypeError",
    message: "Cannot build the success result as 'data' must be a plain object: current value is " +
      '"(15 characters, not shown)"',
  });
  throws(() => adcpSuccessResult(new Date() as unknown as Record<string, unknown>), TypeError);
  const data = { status: "completed", products: [] };
  throws(() => adcpSuccessResult(data, JSON.stringify(data)), {
    name: "TypeError",
    message: "Cannot build the success result as 'summary' must be prose, not JSON text: current " +
      'value is "(36 characters, not shown)"',
  });
  throws(() => adcpSuccessResult(data, ""), {
    name: "TypeError",
    message: "Cannot build the success result as 'summary' must be a non-empty string: current " +
      'value is ""',
  });
});

Deno.test(
  "adcpSuccessResult() warns above the 128 KiB producer target, " +
    "counting UTF-8 bytes of the whole result",
  () => {
    const warnings: OutgoingErrorWarning[] = [];
    const onWarning = (warning: OutgoingErrorWarning) => warnings.push(warning);
    // Around the note, {"content":[],"structuredContent":{"status":"completed","note":"…"}}
    // is 67 bytes.
    const frame = JSON.stringify(adcpSuccessResult({ status: "completed", note: "" })).length;
    strictEqual(frame, 67);
    const at = adcpSuccessResult(
      { status: "completed", note: "x".repeat(MCP_RESPONSE_SIZE_TARGET_BYTES - frame) },
      undefined,
      { onWarning },
    );
    strictEqual(new TextEncoder().encode(JSON.stringify(at)).length, 131_072);
    strictEqual(warnings.length, 0);
    adcpSuccessResult(
      { status: "completed", note: "x".repeat(MCP_RESPONSE_SIZE_TARGET_BYTES - frame + 1) },
      undefined,
      { onWarning },
    );
    deepStrictEqual(warnings, [{
      kind: "response_size",
      field: "result",
      message:
        "The tool result is 131073 serialized UTF-8 bytes; producers SHOULD target at most " +
        "131072 (128 KiB)",
    }]);
    // UTF-8, not UTF-16: 45,000 three-byte characters are 135,000 bytes in 45,000 code units.
    warnings.length = 0;
    const result = adcpSuccessResult({ status: "completed", note: "€".repeat(45_000) }, "Done.", {
      onWarning,
    });
    deepStrictEqual(warnings.map((warning) => warning.kind), ["response_size"]);
    // The warning does not change the result.
    deepStrictEqual(result.content, [{ type: "text", text: "Done." }]);
  },
);

Deno.test("adcpSuccessResult() checks its options and refuses data that does not serialize", () => {
  const data = { status: "completed" };
  throws(
    () => adcpSuccessResult(data, undefined, null as unknown as AdcpSuccessResultOptions),
    TypeError,
  );
  throws(() => adcpSuccessResult(data, undefined, { onWarning: 1 as unknown as () => void }), {
    name: "TypeError",
    message: "Cannot build the success result as 'options.onWarning' must be a function: current " +
      "value is 1",
  });
  throws(() => adcpSuccessResult({ status: "completed", total: 1n }), (error: unknown) => {
    ok(error instanceof TypeError);
    strictEqual(
      error.message,
      "Cannot build the success result as 'data' must be a value that serializes as JSON: " +
        "current value is an object",
    );
    // The serializer's own error stays the cause, as it was set by the constructor.
    ok(error.cause instanceof TypeError);
    strictEqual(Object.getOwnPropertyDescriptor(error, "cause")?.enumerable, false);
    return true;
  });
});
