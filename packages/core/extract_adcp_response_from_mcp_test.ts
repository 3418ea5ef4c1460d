import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { anyResponse, json, mcpResultText, runPure } from "./_test_utils.ts";
import { extractAdcpResponseFromMcp } from "./extract_adcp_response_from_mcp.ts";
import { detectAdcpError, extractAdcpErrorFromMcp, handleMcpResponse } from "./mod.ts";

const text = (t: unknown) => ({ type: "text", text: t });

Deno.test("extractAdcpResponseFromMcp() returns structuredContent itself over text JSON", () => {
  const structuredContent = { status: "completed", products: [] };
  const result = { content: [text('{"status":"stale"}')], structuredContent };
  strictEqual(extractAdcpResponseFromMcp(result), structuredContent);
  const empty = {};
  strictEqual(extractAdcpResponseFromMcp({ structuredContent: empty }), empty);
});

Deno.test(
  "extractAdcpResponseFromMcp() returns null for adcp_error-only structuredContent " +
    "without reading text",
  () => {
    const result = {
      content: [text('{"status":"completed"}')],
      structuredContent: { adcp_error: { code: "RATE_LIMITED" } },
    };
    strictEqual(extractAdcpResponseFromMcp(result), null);
    const mixed = { structuredContent: { adcp_error: { code: "X" }, products: [] } };
    strictEqual(extractAdcpResponseFromMcp(mixed), mixed.structuredContent);
  },
);

Deno.test(
  "extractAdcpResponseFromMcp() falls back to text when structuredContent is not an object",
  () => {
    for (const structuredContent of [null, [], [{ a: 1 }], "x", 1, true]) {
      deepStrictEqual(
        extractAdcpResponseFromMcp({ structuredContent, content: [text('{"a":1}')] }),
        { a: 1 },
      );
    }
  },
);

Deno.test("extractAdcpResponseFromMcp() ignores inherited structuredContent and content", () => {
  const inherited = Object.create({
    structuredContent: { status: "completed" },
    content: [text('{"a":1}')],
  });
  strictEqual(extractAdcpResponseFromMcp(inherited), null);
  const prototype = Object.prototype as Record<string, unknown>;
  Object.defineProperty(prototype, "structuredContent", {
    value: { polluted: true },
    configurable: true,
  });
  try {
    strictEqual(extractAdcpResponseFromMcp({ content: [] }), null);
  } finally {
    delete prototype["structuredContent"];
  }
});

Deno.test("extractAdcpResponseFromMcp() treats any truthy isError as an error response", () => {
  const structuredContent = { status: "completed" };
  for (const isError of [true, 1, -1, "yes", "false", "0", {}, []]) {
    strictEqual(
      extractAdcpResponseFromMcp({ isError, structuredContent, content: [text('{"a":1}')] }),
      null,
      JSON.stringify(isError),
    );
  }
  for (const isError of [false, 0, "", null]) {
    strictEqual(extractAdcpResponseFromMcp({ isError, structuredContent }), structuredContent);
  }
});

Deno.test(
  "extractAdcpResponseFromMcp() returns the first text item that parses to a usable object",
  () => {
    const result = {
      content: [
        "not an item",
        null,
        { type: "image", text: '{"image":true}' },
        { type: "TEXT", text: '{"upper":true}' },
        text(42),
        text(""),
        text("Found products"),
        text("[1,2]"),
        text('"string"'),
        text("null"),
        text('{"adcp_error":{"code":"X"}}'),
        text('{"status":"completed"}'),
        text('{"status":"later"}'),
      ],
    };
    deepStrictEqual(extractAdcpResponseFromMcp(result), { status: "completed" });
    strictEqual(extractAdcpResponseFromMcp({ content: [text("plain")] }), null);
    strictEqual(extractAdcpResponseFromMcp({ content: { 0: text("{}") } }), null);
  },
);

Deno.test(
  "extractAdcpResponseFromMcp() returns parsed objects with own __proto__ keys intact",
  () => {
    const result = extractAdcpResponseFromMcp({
      content: [text('{"products":[],"__proto__":{"isAdmin":true}}')],
    });
    ok(result !== null);
    deepStrictEqual(Object.keys(result), ["products", "__proto__"]);
    strictEqual(Object.getPrototypeOf(result), Object.prototype);
    strictEqual(result["isAdmin"], undefined);
    const structured = json('{"structuredContent":{"__proto__":{"isAdmin":true}}}') as {
      structuredContent: object;
    };
    strictEqual(extractAdcpResponseFromMcp(structured), structured.structuredContent);
  },
);

Deno.test(
  "extractAdcpResponseFromMcp() skips text items over maxResponseBytes, measured in UTF-8",
  () => {
    const small = '{"a":1}'; // 7 bytes
    strictEqual(
      extractAdcpResponseFromMcp({ content: [text(small)] }, { maxResponseBytes: 7 })?.a,
      1,
    );
    strictEqual(
      extractAdcpResponseFromMcp({ content: [text(small)] }, { maxResponseBytes: 6 }),
      null,
    );
    // Over-limit items are skipped, not truncated: the next item still counts.
    const padded = `{"a":1,"pad":"${"x".repeat(100)}"}`;
    deepStrictEqual(
      extractAdcpResponseFromMcp({ content: [text(padded), text(small)] }, {
        maxResponseBytes: 50,
      }),
      { a: 1 },
    );
    // 38 UTF-16 units but 84 UTF-8 bytes: neither cheap bound decides, the exact count does.
    const euros = `{"m":"${"€".repeat(8)}","n":"${"€".repeat(15)}"}`;
    strictEqual(euros.length, 38);
    strictEqual(new TextEncoder().encode(euros).length, 84);
    strictEqual(
      extractAdcpResponseFromMcp({ content: [text(euros)] }, { maxResponseBytes: 83 }),
      null,
    );
    deepStrictEqual(
      extractAdcpResponseFromMcp({ content: [text(euros)] }, { maxResponseBytes: 84 }),
      JSON.parse(euros),
    );
    // structuredContent is not re-measured: the transport bounds the whole message.
    const structuredContent = { pad: "x".repeat(100) };
    strictEqual(
      extractAdcpResponseFromMcp({ structuredContent }, { maxResponseBytes: 1 }),
      structuredContent,
    );
  },
);

Deno.test("extractAdcpResponseFromMcp() defaults maxResponseBytes to 4 MiB", () => {
  const body = `{"p":"${"x".repeat(4 * 1024 * 1024 - 8)}"}`;
  strictEqual(body.length, 4_194_304);
  const atLimit = extractAdcpResponseFromMcp({ content: [text(body)] });
  strictEqual(typeof atLimit?.["p"], "string");
  strictEqual(extractAdcpResponseFromMcp({ content: [text(body + " ")] }), null);
  strictEqual(extractAdcpResponseFromMcp({ content: [text(body)] }, {}) !== null, true);
  strictEqual(
    extractAdcpResponseFromMcp({ content: [text(body)] }, { maxResponseBytes: undefined }) !==
      null,
    true,
  );
});

Deno.test(
  "extractAdcpResponseFromMcp() rejects invalid options naming the option and value",
  () => {
    const result = { structuredContent: {} };
    for (
      const [value, shown] of [
        [0, "0"],
        [-1, "-1"],
        [1.5, "1.5"],
        [NaN, "NaN"],
        [Infinity, "Infinity"],
        [2 ** 53, "9007199254740992"],
      ] as const
    ) {
      throws(
        () => extractAdcpResponseFromMcp(result, { maxResponseBytes: value }),
        (error: unknown) => {
          ok(error instanceof RangeError);
          strictEqual(
            error.message,
            "Cannot extract from an MCP tool result as 'maxResponseBytes' must be a positive " +
              `safe integer: current value is ${shown}`,
          );
          return true;
        },
      );
    }
    // A value of the wrong type, null included, is a TypeError.
    for (const [value, shown] of [["100", '"100"'], [null, "null"], [100n, "100n"]] as const) {
      throws(
        () => extractAdcpResponseFromMcp(result, { maxResponseBytes: value as never }),
        (error: unknown) => {
          ok(error instanceof TypeError);
          strictEqual(
            error.message,
            "Cannot extract from an MCP tool result as 'maxResponseBytes' must be a number: " +
              `current value is ${shown}`,
          );
          return true;
        },
      );
    }
    throws(
      () => extractAdcpResponseFromMcp(result, null as unknown as undefined),
      new TypeError(
        "Cannot extract from an MCP tool result as 'options' must be an object or undefined: " +
          "current value is null",
      ),
    );
    // Options are validated even when the result is not an object.
    throws(() => extractAdcpResponseFromMcp(undefined, { maxResponseBytes: 0 }), RangeError);
  },
);

Deno.test("extractAdcpResponseFromMcp() returns null for non-objects", () => {
  for (const value of [undefined, null, 0, "x", true, [], [{ structuredContent: {} }]]) {
    strictEqual(extractAdcpResponseFromMcp(value), null);
  }
});

Deno.test(
  "extractAdcpResponseFromMcp() is total and pure, returning an object found in its input",
  () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), anyResponse, mcpResultText.map((t) => JSON.parse(t))),
        (result) => {
          const data = runPure(result, extractAdcpResponseFromMcp);
          if (data === null) return;
          ok(typeof data === "object" && !Array.isArray(data));
          const record = result as Record<string, unknown>;
          ok(!record["isError"]);
          if (data === record["structuredContent"]) return;
          const texts = (record["content"] as { text?: unknown }[]).map((item) => item?.text);
          ok(texts.some((t) => typeof t === "string" && isDeepEqualJson(t, data)));
        },
      ),
    );
  },
);

function isDeepEqualJson(text: string, value: unknown): boolean {
  try {
    deepStrictEqual(JSON.parse(text), value);
    return true;
  } catch {
    return false;
  }
}

Deno.test(
  "every MCP extractor answers the same when told the true size of the result's source text",
  () => {
    const utf8 = (t: string) => new TextEncoder().encode(t).length;
    fc.assert(
      fc.property(mcpResultText, fc.integer({ min: 1, max: 400 }), (source, maxResponseBytes) => {
        const result = JSON.parse(source);
        const told = { maxResponseBytes, sourceTextBytes: utf8(source) };
        const plain = { maxResponseBytes };
        deepStrictEqual(
          extractAdcpResponseFromMcp(result, told),
          extractAdcpResponseFromMcp(result, plain),
        );
        deepStrictEqual(
          extractAdcpErrorFromMcp(result, told),
          extractAdcpErrorFromMcp(result, plain),
        );
        deepStrictEqual(handleMcpResponse(result, told), handleMcpResponse(result, plain));
        deepStrictEqual(detectAdcpError(result, told), detectAdcpError(result, plain));
      }),
      { numRuns: 3_000 },
    );
  },
);

Deno.test("extractAdcpResponseFromMcp() measures text unless sourceTextBytes bounds it", () => {
  const item = '{"status":"completed"}'; // 22 bytes
  const result = { content: [text(item)] };
  // A source larger than the limit bounds nothing: the item is measured, and skipped.
  strictEqual(
    extractAdcpResponseFromMcp(result, { maxResponseBytes: 8, sourceTextBytes: 9 }),
    null,
  );
  strictEqual(extractAdcpResponseFromMcp(result, { maxResponseBytes: 21 }), null);
  deepStrictEqual(extractAdcpResponseFromMcp(result, { maxResponseBytes: 22 }), {
    status: "completed",
  });
  // Within the limit, the caller's word stands for the measure (here it is not true).
  deepStrictEqual(extractAdcpResponseFromMcp(result, { maxResponseBytes: 8, sourceTextBytes: 8 }), {
    status: "completed",
  });
});
