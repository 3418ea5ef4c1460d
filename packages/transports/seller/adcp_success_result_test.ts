import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
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

Deno.test("adcpSuccessResult() warns above the 128 KiB producer target, counting UTF-8 bytes of the whole result", () => {
  const warnings: OutgoingErrorWarning[] = [];
  const onWarning = (warning: OutgoingErrorWarning) => warnings.push(warning);
  // {"content":[],"structuredContent":{"status":"completed","note":"…"}} is 67 bytes around the note.
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
    message: "The tool result is 131073 serialized UTF-8 bytes; producers SHOULD target at most " +
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
});

Deno.test("adcpSuccessResult() checks its options and refuses data that does not serialize", () => {
  const data = { status: "completed" };
  throws(
    () => adcpSuccessResult(data, undefined, null as unknown as AdcpSuccessResultOptions),
    TypeError,
  );
  throws(() => adcpSuccessResult(data, undefined, { onWarning: 1 as unknown as () => void }), {
    name: "TypeError",
    message: "Expected options.onWarning to be a function, got number 1",
  });
  throws(() => adcpSuccessResult({ status: "completed", total: 1n }), {
    name: "TypeError",
    message: "Expected the tool result to serialize as JSON, got a value that throws",
  });
});
