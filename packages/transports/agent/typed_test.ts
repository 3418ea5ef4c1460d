// The typed overload of AdcpAgent.call, checked by `deno check` (the test task type-checks this
// file): the inputs and results of tasks the pinned schemas define are typed by their generated
// request and response types, a wrong input does not compile (each `@ts-expect-error` below is
// itself an error once the typing is gone), and a task the schemas do not define stays untyped.
import { deepStrictEqual, ok } from "node:assert/strict";
import type { AdcpTaskResponse, GetProductsRequest } from "@adcp-wire/schemas/tasks";
import { McpClient } from "../mcp/client.ts";
import { adcpSuccessResult } from "../seller/adcp_success_result.ts";
import { fakeMcpAgent } from "../testing/fake_agent.ts";
import { AdcpAgent } from "./agent.ts";
import type { AgentCallResult, AgentTaskInput } from "./types.ts";

/** `true` when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

const products = { products: [{ product_id: "p1", name: "CTV" }] };
const agent = new AdcpAgent(
  new McpClient("https://seller.example/mcp", {
    fetch: fakeMcpAgent({
      tools: {
        get_products: () => adcpSuccessResult(products),
        vendor_tool: () => adcpSuccessResult({ anything: true }),
      },
    }),
  }),
);

Deno.test("typed call: the request and response types of get_products", async () => {
  const request: GetProductsRequest = { buying_mode: "brief", brief: "CTV" };
  const result: AgentCallResult<AdcpTaskResponse<"get_products">> = await agent.call(
    "get_products",
    request,
  );
  ok(result.kind === "success");
  // `data` is the generated response type: `products` is known to it.
  const listed: unknown = result.data.products;
  deepStrictEqual(listed, products.products);
});

Deno.test("typed call: idempotency_key is optional (the option can mint it)", () => {
  const input: AgentTaskInput<"create_media_buy"> = {
    account: { account_id: "acct_1" },
    brand: { domain: "brand.example" },
    start_time: "2027-01-01T00:00:00Z",
    end_time: "2027-02-01T00:00:00Z",
  };
  ok(input.end_time.length > 0);
});

Deno.test("typed call: a wrong input does not compile", () => {
  // Never called: these lines exist for the type checker.
  const unused = () => {
    // @ts-expect-error brief is a string
    agent.call("get_products", { buying_mode: "brief", brief: 42 });
    // @ts-expect-error buying_mode is required
    agent.call("get_products", { brief: "CTV" });
    // @ts-expect-error buying_mode is one of the schema's values
    agent.call("get_products", { buying_mode: "cheap" });
    // @ts-expect-error create_media_buy needs account, brand and its dates
    agent.call("create_media_buy", { buyer_ref: "b1" });
    const handle = {
      protocol: "mcp",
      task: "create_media_buy",
      via: "adcp_task",
      taskId: "t1",
      contextId: "c1",
      state: "input-required",
    } as const;
    // @ts-expect-error a typed continuation takes the task's request
    agent.continue<"create_media_buy">(handle, { buyer_ref: "b1" });
    // The typed result's data is exactly the task's response type (not any object).
    type Waited = Awaited<ReturnType<typeof agent.wait<"create_media_buy">>>;
    type Data = Extract<Waited, { kind: "success" }>["data"];
    const exact: Same<Data, AdcpTaskResponse<"create_media_buy">> = true;
    const untyped: Same<
      Extract<Awaited<ReturnType<typeof agent.wait<never>>>, { kind: "success" }>["data"],
      Record<string, unknown>
    > = true;
    ok(exact && untyped);
  };
  ok(typeof unused === "function");
});

Deno.test("untyped call: a task the schemas do not define takes any object", async () => {
  const result = await agent.call("vendor_tool", { free: "form" });
  ok(result.kind === "success");
  const data: Record<string, unknown> = result.data;
  deepStrictEqual(data, { anything: true });
});
