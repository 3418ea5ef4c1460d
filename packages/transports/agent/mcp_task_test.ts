// AdcpAgent following an MCP task (MCP 2025-11-25 tasks, the `mcpTask` option) against a server
// built on @modelcontextprotocol/sdk with its InMemoryTaskStore (`taskAgent` of mcp/_test_mcp.ts):
// pending with an "mcp_task" handle, then `wait` polls tasks/get and reads tasks/result.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { netTest, within } from "../_test_utils.ts";
import { McpClient } from "../mcp/client.ts";
import { startMcpAgent, taskAgent } from "../mcp/_test_mcp.ts";
import { adcpSuccessResult } from "../seller/adcp_success_result.ts";
import { AdcpAgent } from "./agent.ts";
import type { AgentStatusEvent } from "./types.ts";
import { MEDIA_BUY } from "./_test_agent.ts";

/** Runs `fn` with an agent on a task server whose tasks complete after `delayMs`. */
async function withTaskAgent(
  delayMs: number,
  fn: (adcp: AdcpAgent) => Promise<void>,
): Promise<void> {
  const tasks = taskAgent(adcpSuccessResult({ media_buy_id: "mb_1", packages: [] }), delayMs);
  const agent = await startMcpAgent(tasks.create, { json: true });
  const adcp = new AdcpAgent(new McpClient(agent.url));
  try {
    await within(20_000, fn(adcp));
  } finally {
    await adcp.close();
    tasks.cleanup();
    await agent.close();
  }
}

netTest("AdcpAgent follows an MCP task: pending, then tasks/get and tasks/result", async () => {
  await withTaskAgent(150, async (adcp) => {
    const first = await adcp.call("create_media_buy", MEDIA_BUY, { mcpTask: { ttl: 60_000 } });
    ok(first.kind === "pending");
    deepStrictEqual([first.task.via, first.task.state], ["mcp_task", "working"]);
    const events: AgentStatusEvent[] = [];
    const done = await adcp.wait(first.task, {
      pollIntervalMs: 20,
      onStatus: (event) => events.push(event),
    });
    deepStrictEqual(done.kind === "success" && done.data, {
      media_buy_id: "mb_1",
      packages: [],
    });
    strictEqual(events.at(-1)?.result.kind, "success");
    ok(events.length >= 2, `${events.length} answers`);
    // Without the option the same server answers the call at once.
    const direct = await adcp.call("create_media_buy", MEDIA_BUY);
    strictEqual(direct.kind, "success");
    // An MCP task cannot be continued (its input_required is an elicitation).
    await rejects(() => adcp.continue(first.task, MEDIA_BUY), TypeError);
  });
});

netTest("AdcpAgent: waiting for an MCP task ends on time, the handle kept", async () => {
  await withTaskAgent(4_000, async (adcp) => {
    const started = performance.now();
    const result = await adcp.call("create_media_buy", MEDIA_BUY, { mcpTask: true, wait: 500 });
    const elapsed = performance.now() - started;
    ok(result.kind === "pending", result.kind);
    strictEqual(result.task.via, "mcp_task");
    strictEqual(result.task.pollIntervalMs, 50); // the task's own pollInterval
    ok(elapsed < 1_500, `took ${Math.round(elapsed)} ms`);
  });
});
