// One set of buyer scenarios, run unchanged against an MCP seller built on
// @modelcontextprotocol/sdk (SSE and JSON answers) and an A2A seller built on @a2a-js/sdk
// (testdata/sdk_sellers.ts), through connectAgent's protocol discovery: the same buyer code and
// the same expected outcome for each — success, every recovery class, a retried transient error,
// pending then completed, input-required then continued, oversize, and a deadline.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { decideRecovery } from "@adcp-wire/recovery";
import { netTest, within } from "../_test_utils.ts";
import { DeadlineExceededError, ResponseTooLargeError } from "../errors.ts";
import {
  CORRECTABLE_ERROR,
  INPUT_QUESTION,
  INPUT_RESULT,
  PENDING_RESULT,
  PRODUCTS_OK,
  QUEUED_RESULT,
  type SdkSeller,
  startA2ASdkSeller,
  startMcpSdkSeller,
  TERMINAL_ERROR,
  TRANSIENT_ERROR,
} from "../testdata/sdk_sellers.ts";
import type { AdcpAgent } from "./agent.ts";
import { connectAgent } from "./connect_agent.ts";
import type { AgentCallResult, AgentStatusEvent, ConnectAgentOptions } from "./types.ts";
import { MEDIA_BUY } from "./_test_agent.ts";

const BOUND_MS = 30_000;

/** The sellers every scenario runs against, and the protocol each must be found to speak. */
const SELLERS: readonly (readonly [string, () => Promise<SdkSeller>, "mcp" | "a2a"])[] = [
  ["MCP SDK, SSE", () => startMcpSdkSeller(), "mcp"],
  ["MCP SDK, JSON", () => startMcpSdkSeller({ jsonResponse: true }), "mcp"],
  ["A2A SDK", () => startA2ASdkSeller(), "a2a"],
];

/** A scenario: the buyer's code against an agent, the same for every seller. */
type Scenario = (agent: AdcpAgent, seller: SdkSeller) => Promise<void>;

function scenario(name: string, body: Scenario, options: ConnectAgentOptions = {}): void {
  for (const [label, start, protocol] of SELLERS) {
    netTest(`buyer scenario, ${name} (${label})`, async () => {
      const seller = await start();
      try {
        await within(
          BOUND_MS,
          (async () => {
            const agent = await connectAgent(seller.url, options);
            strictEqual(agent.protocol, protocol);
            try {
              await body(agent, seller);
            } finally {
              await agent.close();
            }
          })(),
        );
      } finally {
        await seller.close();
      }
    });
  }
}

function brief(text: string) {
  return { buying_mode: "brief", brief: text } as const;
}

function assertAdcpError(
  result: AgentCallResult,
  expected: { readonly code: string; readonly recovery: string },
): void {
  ok(result.kind === "error", `expected an error, got ${result.kind}`);
  strictEqual(result.error.code, expected.code);
  strictEqual(result.error.recovery, expected.recovery);
  deepStrictEqual(result.decision, decideRecovery(result.error));
}

scenario("success: the typed data of get_products", async (agent) => {
  const result = await agent.call("get_products", brief("ok"));
  ok(result.kind === "success", result.kind);
  deepStrictEqual(result.data, PRODUCTS_OK);
});

scenario("every recovery class: transient, correctable, terminal", async (agent) => {
  const transient = await agent.call("get_products", brief("transient"));
  assertAdcpError(transient, TRANSIENT_ERROR);
  ok(transient.kind === "error" && transient.decision.action === "retry");
  const correctable = await agent.call("get_products", brief("correctable"));
  assertAdcpError(correctable, CORRECTABLE_ERROR);
  const terminal = await agent.call("get_products", brief("terminal"));
  assertAdcpError(terminal, TERMINAL_ERROR);
  const actions = [transient, correctable, terminal].map((result) =>
    result.kind === "error" ? result.decision.action : result.kind
  );
  strictEqual(new Set(actions).size, 3, `three different decisions: ${actions}`);
});

scenario("a transient error retried by the client's retry option", async (agent, seller) => {
  const result = await agent.call("get_products", brief("flaky"));
  ok(result.kind === "success", result.kind);
  deepStrictEqual(result.data, PRODUCTS_OK);
  strictEqual(seller.invocations.get_products, 2);
}, { retry: { sleep: () => Promise.resolve() } });

scenario("pending, then completed, followed by wait", async (agent) => {
  const events: AgentStatusEvent[] = [];
  const result = await agent.call("create_media_buy", { ...MEDIA_BUY, buyer_ref: "pending" }, {
    wait: 10_000,
    pollIntervalMs: 20,
    onStatus: (event) => events.push(event),
  });
  ok(result.kind === "success", result.kind);
  deepStrictEqual(result.data, PENDING_RESULT);
  const kinds = events.map((event) => event.result.kind);
  strictEqual(kinds[0], "pending");
  strictEqual(kinds.at(-1), "success");
  ok(kinds.length >= 3, `answers: ${kinds}`);
});

scenario("pending returned, then waited for through its handle", async (agent) => {
  const first = await agent.call("create_media_buy", { ...MEDIA_BUY, buyer_ref: "pending" });
  ok(first.kind === "pending", first.kind);
  ok(first.task.taskId !== undefined);
  const done = await agent.wait(first.task, { pollIntervalMs: 20, wait: 10_000 });
  ok(done.kind === "success", done.kind);
  deepStrictEqual(done.data, PENDING_RESULT);
});

scenario("AdCP Submitted work, polled with get_task_status to its result", async (agent) => {
  const first = await agent.call("create_media_buy", { ...MEDIA_BUY, buyer_ref: "queued" });
  ok(first.kind === "pending", first.kind);
  deepStrictEqual([first.task.via, first.task.state], ["adcp_task", "submitted"]);
  ok(first.task.taskId?.startsWith("task_queued_"), first.task.taskId);
  const done = await agent.wait(first.task, { pollIntervalMs: 20, wait: 10_000 });
  ok(done.kind === "success", done.kind === "failed" ? done.error.message : done.kind);
  deepStrictEqual(done.data, QUEUED_RESULT);
});

scenario("input required, then continued in the same task", async (agent) => {
  const request = { ...MEDIA_BUY, buyer_ref: "needs_input" };
  const first = await agent.call("create_media_buy", request);
  ok(first.kind === "input_required", first.kind);
  ok(first.text.includes(INPUT_QUESTION), first.text);
  const again = await agent.continue(first.task, request);
  ok(again.kind === "input_required", `asked again: ${again.kind}`);
  const next = await agent.continue(again.task, {
    ...request,
    total_budget: { amount: 5000, currency: "USD" },
  });
  ok(next.kind === "success", next.kind);
  deepStrictEqual(next.data, INPUT_RESULT);
});

scenario("oversize: an answer past the byte cap fails, with no retry decision", async (agent) => {
  const result = await agent.call("get_products", brief("oversize"), {
    limits: { maxResponseBytes: 1_048_576 },
  });
  ok(result.kind === "failed", result.kind);
  ok(result.error instanceof ResponseTooLargeError, result.error.name);
  strictEqual(result.decision, null);
  // The agent is still usable after the refused answer.
  strictEqual((await agent.call("get_products", brief("ok"))).kind, "success");
});

scenario("deadline: a stalled answer fails on time, decided transient", async (agent) => {
  const started = performance.now();
  const result = await agent.call("get_products", brief("slow"), { limits: { timeoutMs: 300 } });
  const elapsed = performance.now() - started;
  ok(result.kind === "failed", result.kind);
  ok(result.error instanceof DeadlineExceededError, result.error.name);
  strictEqual(result.decision?.action, "retry");
  ok(elapsed < 2_000, `ended after ${Math.round(elapsed)} ms`);
});
