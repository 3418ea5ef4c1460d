import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { ensureSynced } from "../_test_sync.ts";
import { advisoryDetailsVariant, planTasks } from "./plan.ts";

Deno.test(
  "planTasks() reads the tools, their interim schemas and the terminal overrides",
  async () => {
    const plans = await planTasks(await ensureSynced("3.2.0-beta.5"));
    const byTask = new Map(plans.map((plan) => [plan.task, plan]));
    deepStrictEqual(byTask.get("get_products"), {
      task: "get_products",
      response: "media-buy/get-products-response.json",
      interim: {
        "input-required": "media-buy/get-products-async-response-input-required.json",
        submitted: "media-buy/get-products-async-response-submitted.json",
        working: "media-buy/get-products-async-response-working.json",
      },
    });
    deepStrictEqual(byTask.get("media_buy_delivery"), {
      task: "media_buy_delivery",
      response: "media-buy/media-buy-delivery-webhook-result.json",
      interim: {},
    });
    strictEqual(plans.length, 73);
    deepStrictEqual(plans.map((plan) => plan.task), [...plans.map((plan) => plan.task)].sort());

    const old = await planTasks(await ensureSynced("3.1.19"));
    strictEqual(old.length, 64);
    ok(!old.some((plan) => plan.task === "media_buy_delivery"));
  },
);

Deno.test("advisoryDetailsVariant() drops only the root additionalProperties", () => {
  const schema = {
    $id: "https://adcontextprotocol.org/schemas/x/error-details/a.json",
    type: "object",
    additionalProperties: false,
    properties: { nested: { type: "object", additionalProperties: false } },
  };
  const copy = advisoryDetailsVariant(
    schema,
    "https://adcontextprotocol.org/schemas/x/_adcp-wire/a.json",
  );
  deepStrictEqual(copy, {
    $id: "https://adcontextprotocol.org/schemas/x/_adcp-wire/a.json",
    type: "object",
    properties: { nested: { type: "object", additionalProperties: false } },
  });
  strictEqual(schema.additionalProperties, false);
});
