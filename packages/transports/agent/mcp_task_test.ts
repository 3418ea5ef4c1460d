// AdcpAgent following an MCP task (MCP 2025-11-25 tasks, the `mcpTask` option) against a server
// built on @modelcontextprotocol/sdk with its InMemoryTaskStore: pending with an "mcp_task"
// handle, then `wait` polls tasks/get and reads tasks/result.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
import { InMemoryTaskStore } from "npm:@modelcontextprotocol/sdk@1.32.2/experimental/tasks";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ListToolsRequestSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { netTest, within } from "../_test_utils.ts";
import { McpClient } from "../mcp/client.ts";
import { startMcpAgent } from "../mcp/_test_mcp.ts";
import { adcpSuccessResult } from "../seller/adcp_success_result.ts";
import { AdcpAgent } from "./agent.ts";
import type { AgentStatusEvent } from "./types.ts";

/** The part of the SDK handler's `extra` used here. */
interface TaskExtra {
  readonly taskStore?: {
    createTask(
      options: { ttl?: number | null; pollInterval?: number },
    ): Promise<{ taskId: string }>;
    storeTaskResult(taskId: string, status: "completed", result: unknown): Promise<void>;
  } | undefined;
}

const MEDIA_BUY = {
  account: { account_id: "acct_1" },
  brand: { domain: "brand.example" },
  start_time: "2027-01-01T00:00:00Z",
  end_time: "2027-02-01T00:00:00Z",
};

netTest("AdcpAgent follows an MCP task: pending, then tasks/get and tasks/result", async () => {
  const taskStore = new InMemoryTaskStore();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const create = () => {
    const server = new Server({ name: "tasks", version: "1.0.0" }, {
      capabilities: {
        tools: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    server.setRequestHandler(
      CallToolRequestSchema,
      async (request: CallToolRequest, extra: TaskExtra) => {
        const result = adcpSuccessResult({ media_buy_id: "mb_1", packages: [] });
        if (!request.params.task) return result;
        const task = await extra.taskStore!.createTask({ ttl: 60_000, pollInterval: 20 });
        const timer = setTimeout(() => {
          timers.delete(timer);
          extra.taskStore!.storeTaskResult(task.taskId, "completed", result).catch(() => {});
        }, 150);
        timers.add(timer);
        return { task };
      },
    );
    return server;
  };
  const agent = await startMcpAgent(create, { json: true });
  try {
    await within(
      20_000,
      (async () => {
        const adcp = new AdcpAgent(new McpClient(agent.url));
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
        await adcp.close();
      })(),
    );
  } finally {
    for (const timer of timers) clearTimeout(timer);
    taskStore.cleanup();
    await agent.close();
  }
});
