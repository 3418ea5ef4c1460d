import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { detectAdcpError, handleMcpResponse } from "@adcp-wire/core";
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
import { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { adcpErrorResult } from "./adcp_error_result.ts";
import { translateUpstreamError } from "./translate_upstream_error.ts";
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
  // Not shaped like a code: shown by its length only.
  throws(() => adcpErrorResult({ code: "Rate limited", message: "x" }), {
    name: "TypeError",
    message: "Expected code to be a standard AdCP code or X_{VENDOR}_{CODE}, got " +
      '"(12 characters, not shown)"',
  });
  throws(
    () => adcpErrorResult({ code: "RATE_LIMITED", message: "x".repeat(5_000) }),
    RangeError,
  );
  // The summary is seller text: a refusal gives its size, never the text.
  throws(() => adcpErrorResult(RATE_LIMITED, { summary: "Line one\nLine two" }), {
    name: "TypeError",
    message: "Cannot build the error result as 'options.summary' must be one line: current value " +
      'is "(17 characters, not shown)"',
  });
  throws(() => adcpErrorResult(RATE_LIMITED, { summary: '{"adcp_error":{}}' }), {
    name: "TypeError",
    message: "Cannot build the error result as 'options.summary' must be prose, not JSON text: " +
      'current value is "(17 characters, not shown)"',
  });
  throws(() => adcpErrorResult(RATE_LIMITED, { summary: "é".repeat(200) }), {
    name: "RangeError",
    message:
      "Cannot build the error result as 'options.summary' must be at most 256 UTF-8 bytes: " +
      'current value is "(400 UTF-8 bytes, not shown)"',
  });
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
    {
      name: "TypeError",
      message: "Cannot build the error result as 'options.summary' must be free of ip_address " +
        '(strict mode): current value is "(31 characters, not shown)"',
    },
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

const BUDGET = { code: "BUDGET_TOO_LOW", message: "Below minimum", recovery: "correctable" };

Deno.test(
  "adcpErrorResult() sets both layers with payload, " +
    "and detectAdcpError finds the same code on each",
  () => {
    for (const payload of [true, { context: { trace: "t-1" } }] as const) {
      const result = adcpErrorResult({ ...BUDGET, field: "budget.total" }, { payload });
      const sent = result.structuredContent.adcp_error;
      deepStrictEqual(result.structuredContent.errors, [sent]);
      strictEqual(result.structuredContent.status, "failed");
      // The text fallback carries the envelope only.
      deepStrictEqual(JSON.parse(result.content[0]!.text), { adcp_error: sent });
      // Transport layer: the envelope.
      deepStrictEqual(detectAdcpError(result), { error: sent, path: "structured_content" });
      // Payload layer: what a runner that reads only the payload sees.
      const { adcp_error: _, ...payloadOnly } = result.structuredContent;
      const fromPayload = detectAdcpError(payloadOnly);
      strictEqual(fromPayload?.path, "payload_errors");
      strictEqual(fromPayload?.error.code, sent.code);
      deepStrictEqual(fromPayload?.error, sent);
      // Same, with the envelope stripped from the whole tool result.
      const stripped = { isError: true, content: [], structuredContent: payloadOnly };
      deepStrictEqual(detectAdcpError(stripped), { error: sent, path: "payload_errors" });
      // And buyers still read it as an error.
      strictEqual(handleMcpResponse(result).kind, "error");
    }
    // Without the option, there is no payload layer.
    deepStrictEqual(Object.keys(adcpErrorResult(BUDGET).structuredContent), ["adcp_error"]);
    deepStrictEqual(Object.keys(adcpErrorResult(BUDGET, { payload: false }).structuredContent), [
      "adcp_error",
    ]);
  },
);

Deno.test(
  "adcpErrorResult() payload keeps its fields, checks given errors, " +
    "and refuses what contradicts the envelope",
  () => {
    const warnings: OutgoingErrorWarning[] = [];
    const context = JSON.parse('{"__proto__":{"polluted":true},"trace":"t-1"}');
    const result = adcpErrorResult(BUDGET, {
      payload: {
        context,
        errors: [
          { ...BUDGET, suggestion: "See db-1.prod.internal" },
          { code: "X_ACME_FLOOR_NOT_MET", message: "Floor", recovery: "correctable", extra: 1 },
        ],
      },
      onWarning: (warning) => warnings.push(warning),
    });
    deepStrictEqual(result.structuredContent.errors, [
      { ...BUDGET, suggestion: "See [redacted]" },
      { code: "X_ACME_FLOOR_NOT_MET", message: "Floor", recovery: "correctable" },
    ]);
    deepStrictEqual(warnings.map((w) => [w.kind, w.field]), [
      ["redacted", "payload.errors[0].suggestion"],
      ["field_dropped", "payload.errors[1].extra"],
    ]);
    // The payload's own fields are a JSON copy, sent as given; a "__proto__" key stays data.
    const sentContext = result.structuredContent.context as Record<string, unknown>;
    ok(Object.hasOwn(sentContext, "__proto__"));
    strictEqual(JSON.stringify(sentContext), JSON.stringify(context));
    strictEqual(({} as Record<string, unknown>).polluted, undefined);

    throws(() => adcpErrorResult(BUDGET, { payload: { adcp_error: BUDGET } }), {
      name: "TypeError",
      message: "Cannot build the error result as 'options.payload' must be an object with no " +
        "adcp_error key (the helper sets the envelope): current value is an object",
    });
    throws(() => adcpErrorResult(BUDGET, { payload: { status: "completed" } }), {
      name: "TypeError",
      message: "Cannot build the error result as 'options.payload.status' must be \"failed\" " +
        '(adcp_error marks a failed task): current value is "(9 characters, not shown)"',
    });
    throws(() => adcpErrorResult(BUDGET, { payload: { errors: [] } }), {
      name: "TypeError",
      message: "Cannot build the error result as 'options.payload.errors' must be a non-empty " +
        "array: current value is an array",
    });
    throws(
      () =>
        adcpErrorResult(BUDGET, {
          payload: { errors: [{ code: "RATE_LIMITED", message: "x", recovery: "transient" }] },
        }),
      {
        name: "TypeError",
        message: "Cannot build the error result as 'options.payload.errors[0].code' must be the " +
          'code of error, "BUDGET_TOO_LOW" (the transport and payload layers must agree): ' +
          'current value is "RATE_LIMITED"',
      },
    );
    throws(() => adcpErrorResult(BUDGET, { payload: { errors: [BUDGET, { code: "bad" }] } }), {
      name: "TypeError",
      message: "Cannot build the error result as 'options.payload.errors[1]' must be a sendable " +
        'AdCP error (Expected code to be a standard AdCP code or X_{VENDOR}_{CODE}, got "bad"): ' +
        "current value is an object",
    });
    throws(
      () =>
        adcpErrorResult(BUDGET, {
          payload: { errors: [{ ...BUDGET, message: "é".repeat(3000) }] },
        }),
      RangeError,
    );
    throws(() => adcpErrorResult(BUDGET, { payload: "yes" as unknown as boolean }), {
      name: "TypeError",
      message: "Cannot build the error result as 'options.payload' must be a boolean or a plain " +
        'object: current value is "(3 characters, not shown)"',
    });
    throws(
      () => adcpErrorResult(BUDGET, { payload: new Map() as unknown as Record<string, unknown> }),
      TypeError,
    );
    throws(() => adcpErrorResult(BUDGET, { payload: { total: 1n } }), TypeError);
    // Strict mode applies to the payload's errors too.
    throws(
      () =>
        adcpErrorResult(BUDGET, {
          strict: true,
          payload: { errors: [{ ...BUDGET, suggestion: "See db-1.prod.internal" }] },
        }),
      TypeError,
    );
  },
);

Deno.test("adcpErrorResult() warns when a large payload takes the result over 128 KiB", () => {
  const warnings: OutgoingErrorWarning[] = [];
  const onWarning = (warning: OutgoingErrorWarning) => warnings.push(warning);
  adcpErrorResult(BUDGET, { payload: { context: { note: "x".repeat(100_000) } }, onWarning });
  strictEqual(warnings.length, 0);
  adcpErrorResult(BUDGET, { payload: { context: { note: "x".repeat(140_000) } }, onWarning });
  deepStrictEqual(warnings.map((w) => [w.kind, w.field]), [["response_size", "result"]]);
  ok(/^The tool result is 140\d{3} serialized UTF-8 bytes;/.test(warnings[0]!.message));
});

Deno.test(
  "a refused error thrown from an MCP SDK tool handler reaches the buyer with no adcp_error, " +
    "and the documented fallback keeps it structured",
  async () => {
    const floor = {
      code: "FLOOR_NOT_MET",
      message: "Bid below the floor",
      recovery: "correctable",
    };
    const logged: string[] = [];
    // The pattern of docs/outgoing-errors.md, "When a helper refuses an error".
    const toolError = (error: unknown) => {
      try {
        return adcpErrorResult(error);
      } catch (refused) {
        if (!(refused instanceof TypeError || refused instanceof RangeError)) throw refused;
        logged.push(refused.message);
        return adcpErrorResult(translateUpstreamError(refused));
      }
    };
    const server = new Server({ name: "seller", version: "1.0.0" }, {
      capabilities: { tools: {} },
    });
    server.setRequestHandler(CallToolRequestSchema, (request: CallToolRequest) => {
      if (request.params.name === "unguarded") return adcpErrorResult(floor);
      return toolError(floor);
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "buyer", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      // Unguarded: the SDK's -32603, whose message is the TypeError's, and no AdCP error.
      const unguarded = await client.callTool({ name: "unguarded", arguments: {} }).then(
        () => undefined,
        (error: unknown) => error as { code: number; message: string },
      );
      strictEqual(unguarded?.code, -32603);
      match(unguarded.message, /got "FLOOR_NOT_MET"/);
      // Guarded: a standard error the buyer's extraction finds, with its recovery.
      const guarded = await client.callTool({ name: "guarded", arguments: {} });
      deepStrictEqual(handleMcpResponse(guarded), {
        kind: "error",
        error: {
          code: "SERVICE_UNAVAILABLE",
          message: "An internal error occurred",
          recovery: "transient",
        },
        path: "structured_content",
      });
      match(logged[0]!, /got "FLOOR_NOT_MET", which is in neither/);
    } finally {
      await client.close();
      await server.close();
    }
  },
);
