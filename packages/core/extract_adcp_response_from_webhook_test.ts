import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { a2aResponseText, anyResponse, runPure } from "./_test_utils.ts";
import { WrapperDetectedError } from "./errors.ts";
import { extractAdcpResponseFromA2A } from "./extract_adcp_response_from_a2a.ts";
import {
  detectWebhookFormat,
  extractAdcpResponseFromWebhook,
} from "./extract_adcp_response_from_webhook.ts";

Deno.test("detectWebhookFormat() follows the spec's signals, own properties only", () => {
  strictEqual(detectWebhookFormat({ task_id: "t", status: "completed" }), "mcp");
  strictEqual(
    detectWebhookFormat({ task_id: "", status: "completed" }),
    null,
    "task_id must be truthy",
  );
  strictEqual(detectWebhookFormat({ status: "completed" }), null);
  strictEqual(detectWebhookFormat({ status: { state: "completed" } }), "a2a");
  strictEqual(detectWebhookFormat({ status: { state: "" } }), null, "state must be truthy");
  strictEqual(detectWebhookFormat({ status: [] }), null);
  strictEqual(detectWebhookFormat({ task: { id: "t" } }), "a2a");
  strictEqual(detectWebhookFormat({ artifactUpdate: { artifact: {} } }), "a2a");
  strictEqual(detectWebhookFormat({ task: "x" }), null);
  strictEqual(detectWebhookFormat(Object.create({ status: "completed", task_id: "t" })), null);
  for (const value of [undefined, null, 1, "mcp", [], {}]) {
    strictEqual(detectWebhookFormat(value), null);
  }
});

Deno.test(
  "extractAdcpResponseFromWebhook() returns the MCP result object by identity, nothing else",
  () => {
    const result = { media_buy_id: "mb_1" };
    strictEqual(
      extractAdcpResponseFromWebhook({ task_id: "t", status: "completed", result }),
      result,
    );
    for (const bad of [null, [], "ok", 3, true]) {
      strictEqual(
        extractAdcpResponseFromWebhook({ task_id: "t", status: "completed", result: bad }),
        null,
      );
    }
    strictEqual(extractAdcpResponseFromWebhook({ task_id: "t", status: "canceled" }), null);
    const polluted = JSON.parse(
      '{"task_id":"t","status":"completed","result":{"__proto__":{"x":1}}}',
    );
    const data = extractAdcpResponseFromWebhook(polluted);
    ok(data !== null && Object.hasOwn(data, "__proto__"));
    strictEqual(({} as Record<string, unknown>).x, undefined);
  },
);

Deno.test(
  "extractAdcpResponseFromWebhook() lets the configured format decide, never the payload",
  () => {
    const a2a = {
      id: "t",
      status: { state: "completed" },
      artifacts: [{ parts: [{ data: { a: 1 } }] }],
    };
    deepStrictEqual(extractAdcpResponseFromWebhook(a2a), { a: 1 });
    strictEqual(extractAdcpResponseFromWebhook(a2a, "mcp"), null);
    // A payload shaped for both paths goes where the receiver configured it.
    const both = { task_id: "t", status: "completed", result: { from: "mcp" } };
    deepStrictEqual(extractAdcpResponseFromWebhook(both, "mcp"), { from: "mcp" });
    strictEqual(extractAdcpResponseFromWebhook(both, "a2a"), null);
    throws(
      () => extractAdcpResponseFromWebhook(both, "json" as never),
      new TypeError(
        'Cannot extract from a webhook payload as \'knownFormat\' must be "mcp", "a2a" or ' +
          'undefined: current value is "json"',
      ),
    );
  },
);

Deno.test("extractAdcpResponseFromWebhook() applies the A2A rules to A2A payloads", () => {
  const wrapped = {
    status: { state: "completed" },
    artifacts: [{ parts: [{ data: { response: { a: 1 } } }] }],
  };
  throws(() => extractAdcpResponseFromWebhook(wrapped), WrapperDetectedError);
  const nested = {
    task: { task: { status: { state: "completed" }, artifacts: [{ parts: [{ data: {} }] }] } },
  };
  strictEqual(extractAdcpResponseFromWebhook(nested), null);
  const envelope = {
    statusUpdate: {
      status: { state: "TASK_STATE_INPUT_REQUIRED", message: { parts: [{ data: { q: 1 } }] } },
    },
  };
  deepStrictEqual(extractAdcpResponseFromWebhook(envelope), { q: 1 });
});

Deno.test(
  "extractAdcpResponseFromWebhook() is total and agrees with the A2A extractor on A2A " +
    "payloads",
  () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), anyResponse, a2aResponseText.map((t) => JSON.parse(t))),
        (payload) => {
          let viaWebhook: unknown;
          let viaA2A: unknown;
          try {
            viaWebhook = runPure(payload, (p) => extractAdcpResponseFromWebhook(p, "a2a"));
          } catch (e) {
            viaWebhook = e instanceof WrapperDetectedError ? "wrapper" : e;
          }
          try {
            viaA2A = extractAdcpResponseFromA2A(payload);
          } catch (e) {
            viaA2A = e instanceof WrapperDetectedError ? "wrapper" : e;
          }
          strictEqual(viaWebhook, viaA2A);
          const auto = (() => {
            try {
              return extractAdcpResponseFromWebhook(payload);
            } catch (e) {
              ok(e instanceof WrapperDetectedError);
              return "wrapper";
            }
          })();
          ok(
            auto === null || auto === "wrapper" ||
              (typeof auto === "object" && !Array.isArray(auto)),
          );
        },
      ),
      { numRuns: 500 },
    );
  },
);
