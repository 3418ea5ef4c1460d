import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { anyResponse, json, mcpResultText, runPure } from "./_test_utils.ts";
import { extractAdcpErrorFromMcp } from "./extract_adcp_error_from_mcp.ts";
import { validateAdcpError } from "./validate_adcp_error.ts";

const text = (t: unknown) => ({ type: "text", text: t });
const errorText = (error: unknown) => text(JSON.stringify({ adcp_error: error }));

Deno.test("extractAdcpErrorFromMcp() returns structuredContent.adcp_error itself", () => {
  const adcpError = { code: "RATE_LIMITED", retry_after: 86400, recovery: "transient" };
  const result = { isError: true, content: [], structuredContent: { adcp_error: adcpError } };
  strictEqual(extractAdcpErrorFromMcp(result), adcpError);
});

Deno.test("extractAdcpErrorFromMcp() runs only for a truthy isError", () => {
  const structuredContent = { adcp_error: { code: "X" } };
  const content = [errorText({ code: "Y" })];
  for (const isError of [true, 1, "yes", "false", {}, []]) {
    strictEqual(
      extractAdcpErrorFromMcp({ isError, structuredContent })?.code,
      "X",
      JSON.stringify(isError),
    );
    strictEqual(extractAdcpErrorFromMcp({ isError, content })?.code, "Y");
  }
  for (const isError of [false, 0, "", null, undefined]) {
    strictEqual(extractAdcpErrorFromMcp({ isError, structuredContent, content }), null);
  }
  strictEqual(extractAdcpErrorFromMcp({ structuredContent, content }), null);
  strictEqual(extractAdcpErrorFromMcp(Object.create({ isError: true, structuredContent })), null);
});

Deno.test(
  "extractAdcpErrorFromMcp() uses text fallback only when structuredContent carries no " +
    "adcp_error",
  () => {
    const content = [
      text("Rate limited"),
      text("[1]"),
      text('{"other":1}'),
      errorText({ code: "T" }),
    ];
    for (const structuredContent of [undefined, { products: [] }, { adcp_error: null }, [], "x"]) {
      deepStrictEqual(
        extractAdcpErrorFromMcp({ isError: true, structuredContent, content }),
        { code: "T" },
      );
    }
  },
);

Deno.test("extractAdcpErrorFromMcp() lets the first location carrying adcp_error decide", () => {
  const valid = [errorText({ code: "VALID" })];
  for (const invalid of [{ code: 429 }, { code: "" }, {}, "RATE_LIMITED", []]) {
    strictEqual(
      extractAdcpErrorFromMcp({
        isError: true,
        structuredContent: { adcp_error: invalid },
        content: valid,
      }),
      null,
      JSON.stringify(invalid),
    );
    strictEqual(
      extractAdcpErrorFromMcp({ isError: true, content: [errorText(invalid), ...valid] }),
      null,
    );
  }
});

Deno.test("extractAdcpErrorFromMcp() skips a falsy adcp_error as the reference check does", () => {
  const valid = [errorText({ code: "VALID" })];
  for (const falsy of [0, false, "", null]) {
    deepStrictEqual(
      extractAdcpErrorFromMcp({
        isError: true,
        structuredContent: { adcp_error: falsy },
        content: valid,
      }),
      { code: "VALID" },
      JSON.stringify(falsy),
    );
    deepStrictEqual(
      extractAdcpErrorFromMcp({ isError: true, content: [errorText(falsy), ...valid] }),
      { code: "VALID" },
    );
  }
});

Deno.test("extractAdcpErrorFromMcp() applies the code and 4096-byte limits", () => {
  const at64 = { code: "C".repeat(64) };
  deepStrictEqual(
    extractAdcpErrorFromMcp({ isError: true, structuredContent: { adcp_error: at64 } }),
    at64,
  );
  strictEqual(
    extractAdcpErrorFromMcp({
      isError: true,
      structuredContent: { adcp_error: { code: "C".repeat(65) } },
    }),
    null,
  );
  const euros = { code: "X", message: "€".repeat(1357) + "a" }; // 4,097 UTF-8 bytes
  strictEqual(extractAdcpErrorFromMcp({ isError: true, content: [errorText(euros)] }), null);
});

Deno.test("extractAdcpErrorFromMcp() skips text items over maxResponseBytes", () => {
  const big = errorText({ code: "BIG", message: "x".repeat(100) });
  const small = errorText({ code: "S" });
  const result = { isError: true, content: [big, small] };
  deepStrictEqual(extractAdcpErrorFromMcp(result, { maxResponseBytes: 100 }), { code: "S" });
  strictEqual(extractAdcpErrorFromMcp(result)?.code, "BIG");
  throws(() => extractAdcpErrorFromMcp(result, { maxResponseBytes: 0 }), RangeError);
});

Deno.test("extractAdcpErrorFromMcp() keeps own __proto__ keys of the error", () => {
  const result = json(
    '{"isError":true,"content":[{"type":"text","text":"{\\"adcp_error\\":{\\"code\\":\\"X\\",' +
      '\\"__proto__\\":{\\"isAdmin\\":true}}}"}]}',
  );
  const error = extractAdcpErrorFromMcp(result);
  deepStrictEqual(Object.keys(error ?? {}), ["code", "__proto__"]);
  strictEqual(({} as Record<string, unknown>)["isAdmin"], undefined);
});

Deno.test("extractAdcpErrorFromMcp() returns null for non-objects", () => {
  for (const value of [undefined, null, 1, "x", [{ isError: true }]]) {
    strictEqual(extractAdcpErrorFromMcp(value), null);
  }
});

Deno.test(
  "extractAdcpErrorFromMcp() is total and pure, returning valid errors of error results",
  () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), anyResponse, mcpResultText.map((t) => JSON.parse(t))),
        (result) => {
          const error = runPure(result, extractAdcpErrorFromMcp);
          if (error === null) return;
          ok(!Array.isArray(error));
          ok((result as Record<string, unknown>)["isError"]);
          strictEqual(validateAdcpError(error), error);
        },
      ),
      { numRuns: 300 },
    );
  },
);
