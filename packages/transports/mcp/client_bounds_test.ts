// One McpClient operation (a listTools over all its pages, a waitForTask over all its polls, a
// call over all its SSE events and reconnects) reads at most one byte budget, ends within one
// deadline and collects at most its item caps, against real HTTP servers on 127.0.0.1 that page,
// poll or stream forever; its heap grows by less than 16 times the budget.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { BOUND_MS, encoder, netTest, rejection, within } from "../_test_utils.ts";
import {
  assertCumulative,
  assertItemLimit,
  CAP,
  type Flood,
  flood,
  JSON_HEADERS,
  mcpAgent,
  MEMORY_MULTIPLE,
  MiB,
  PAD,
  PAD_BYTES,
  peakGrowth,
  report,
  SSE_HEADERS,
  until,
  withHostileServer,
} from "../_test_bounds.ts";
import { AgentProtocolError, DeadlineExceededError } from "../errors.ts";
import { McpClient } from "./mod.ts";

/** Waits `ms`, or less when `signal` aborts first; never rejects and leaves no timer behind. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** A JSON body built from text (so the server never re-serializes the padding). */
function jsonText(text: string): Response {
  return new Response(text, { headers: JSON_HEADERS });
}

/** Awaits `promise`, which must reject, and returns the reason and the milliseconds it took. */
async function timedRejection(promise: Promise<unknown>): Promise<[unknown, number]> {
  const started = performance.now();
  const error = await rejection(promise);
  return [error, performance.now() - started];
}

/** A tools/list page of one tool carrying 1 MiB of description, always with a fresh cursor. */
function bigPage(id: number, page: number): string {
  return `{"jsonrpc":"2.0","id":${id},"result":{"tools":[{"name":"t${page}",` +
    `"description":"${PAD}"}],"nextCursor":"c${page}"}}`;
}

netTest(
  "McpClient.listTools() holds endless 1 MiB pages to one cumulative 4 MiB budget (by page 5)",
  async () => {
    let pages = 0;
    const agent = mcpAgent((message) => {
      pages++;
      return jsonText(bigPage(message.id, pages)); // with a Content-Length
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const error = await rejection(new McpClient(`${base}/mcp`).listTools());
        assertCumulative(error, CAP, MiB + 256);
        ok(pages <= 5, `server served ${pages} pages`);
      }),
    );
  },
);

netTest(
  "McpClient.listTools() holds endless chunked 1 MiB pages to a per-call 2,000,000-byte budget",
  async () => {
    let pages = 0;
    const agent = mcpAgent((message, stop) => {
      pages++;
      const [head, tail] = bigPage(message.id, pages).split(PAD) as [string, string];
      const parts = [encoder.encode(head), PAD_BYTES.slice(), encoder.encode(tail)];
      const { body } = flood((index) => parts[index], stop); // chunked: no Content-Length
      return new Response(body, { headers: JSON_HEADERS });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const error = await rejection(
          new McpClient(`${base}/mcp`).listTools({ limits: { maxResponseBytes: 2_000_000 } }),
        );
        assertCumulative(error, 2_000_000, MiB + 256);
        ok(pages <= 2, `server served ${pages} pages`);
      }),
    );
  },
);

netTest(
  "McpClient.listTools() runs every page under one 500 ms deadline, not one per page",
  async () => {
    let pages = 0;
    const agent = mcpAgent(async (message, stop) => {
      pages++;
      await pause(150, stop);
      const result = { tools: [{ name: `t${pages}` }], nextCursor: `c${pages}` };
      return Response.json({ jsonrpc: "2.0", id: message.id, result });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const client = new McpClient(`${base}/mcp`);
        const [error, elapsed] = await timedRejection(
          client.listTools({ limits: { timeoutMs: 500 } }),
        );
        ok(error instanceof DeadlineExceededError, `expected a deadline, got ${error}`);
        strictEqual(error.timeoutMs, 500);
        ok(elapsed < 1_500, `listTools took ${elapsed.toFixed(0)} ms`);
        ok(pages <= 5, `server served ${pages} pages`);
        report(`listTools 150 ms pages, timeoutMs 500: ${elapsed.toFixed(0)} ms, ${pages} pages`);
      }),
    );
  },
);

netTest(
  "McpClient.listTools() caps the tools of one call: 4096 by default, maxTools per call",
  async () => {
    let pages = 0;
    let perPage = 1_000;
    let endless = true;
    const agent = mcpAgent((message) => {
      pages++;
      const tools = Array.from({ length: perPage }, (_, index) => ({ name: `t${pages}_${index}` }));
      const result = endless ? { tools, nextCursor: `c${pages}` } : { tools };
      return Response.json({ jsonrpc: "2.0", id: message.id, result });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const error = await rejection(new McpClient(`${base}/mcp`).listTools());
        assertItemLimit(error, "tools", 4_096, 5_000);
        strictEqual(pages, 5);

        pages = 0;
        perPage = 11;
        endless = false;
        const client = new McpClient(`${base}/mcp`);
        assertItemLimit(
          await rejection(client.listTools({ limits: { maxTools: 10 } })),
          "tools",
          10,
          11,
        );
        strictEqual((await client.listTools({ limits: { maxTools: 11 } })).length, 11);
      }),
    );
  },
);

netTest(
  "McpClient.waitForTask() ends at maxWaitMs when each tasks/get answers after 400 ms",
  async () => {
    let polls = 0;
    const agent = mcpAgent(async (message, stop) => {
      polls++;
      await pause(400, stop);
      const result = { taskId: "t1", status: "working", pollInterval: 50 };
      return Response.json({ jsonrpc: "2.0", id: message.id, result });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const [error, elapsed] = await timedRejection(
          new McpClient(`${base}/mcp`).waitForTask("t1", {
            maxWaitMs: 600,
            limits: { timeoutMs: 10_000 },
          }),
        );
        ok(error instanceof DeadlineExceededError, `expected a deadline, got ${error}`);
        strictEqual(error.timeoutMs, 600);
        ok(elapsed < 1_000, `waitForTask took ${elapsed.toFixed(0)} ms`);
        ok(polls <= 2, `server saw ${polls} polls`);
        report(`waitForTask 400 ms polls, maxWaitMs 600: ${elapsed.toFixed(0)} ms`);
      }),
    );
  },
);

netTest("McpClient.waitForTask() ends at maxWaitMs when tasks/get never answers", async () => {
  let polls = 0;
  const agent = mcpAgent(async (_message, stop) => {
    polls++;
    await until(stop);
    return new Response(null, { status: 503 });
  });
  await within(
    BOUND_MS,
    withHostileServer(agent, async (base) => {
      const [error, elapsed] = await timedRejection(
        new McpClient(`${base}/mcp`).waitForTask("t1", {
          maxWaitMs: 600,
          limits: { timeoutMs: 10_000 },
        }),
      );
      ok(error instanceof DeadlineExceededError, `expected a deadline, got ${error}`);
      strictEqual(error.timeoutMs, 600);
      ok(elapsed < 1_000, `waitForTask took ${elapsed.toFixed(0)} ms`);
      strictEqual(polls, 1);
    }),
  );
});

netTest(
  "McpClient.waitForTask() holds 1 MiB polls to one cumulative 4 MiB budget (by poll 5)",
  async () => {
    let polls = 0;
    const agent = mcpAgent((message) => {
      polls++;
      return jsonText(
        `{"jsonrpc":"2.0","id":${message.id},"result":{"taskId":"t1","status":"working",` +
          `"pollInterval":50,"statusMessage":"${PAD}"}}`,
      );
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const error = await rejection(
          new McpClient(`${base}/mcp`).waitForTask("t1", { maxWaitMs: 60_000 }),
        );
        assertCumulative(error, CAP, MiB + 256);
        ok(polls <= 5, `server saw ${polls} polls`);
      }),
    );
  },
);

/** 1,000 tiny progress notifications (59 bytes each) as SSE. */
const PROGRESS_CHUNK = 'data: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n'.repeat(
  1_000,
);

netTest(
  "McpClient.callTool() stops an SSE flood of 70,000 notifications at 65,536 events",
  async () => {
    const floods: Flood[] = [];
    const agent = mcpAgent((_message, stop) => {
      // 70,000 events, then the stream stays open and the response never comes.
      const answer = flood((index) => index < 70 ? PROGRESS_CHUNK : undefined, stop, true);
      floods.push(answer);
      return new Response(answer.body, { headers: SSE_HEADERS });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        let notifications = 0;
        const client = new McpClient(`${base}/mcp`, { onNotification: () => notifications++ });
        const [error, elapsed] = await timedRejection(client.callTool("get_products"));
        assertItemLimit(error, "events", 65_536, 65_537);
        strictEqual(notifications, 65_536);
        await floods[0]!.cancelled;
        report(`70,000-event SSE flood: events cap after ${elapsed.toFixed(0)} ms`);

        notifications = 0;
        const [capped, quick] = await timedRejection(
          client.callTool("get_products", {}, { limits: { maxEvents: 100 } }),
        );
        assertItemLimit(capped, "events", 100, 101);
        strictEqual(notifications, 100);
        await floods[1]!.cancelled;
        ok(floods[1]!.stats.cancelled, "the flood was not cancelled");
        ok(floods[1]!.stats.chunks < 70, `server sent ${floods[1]!.stats.chunks} of 70 chunks`);
        ok(quick < 2_000, `maxEvents 100 took ${quick.toFixed(0)} ms`);
      }),
    );
  },
);

netTest(
  "McpClient.callTool() gives up after maxReconnects streams that each end after an id",
  async () => {
    let streams = 0;
    const resumedFrom: (string | null)[] = [];
    const priming = (): Response => {
      streams++;
      return new Response(`retry: 10\nid: ${streams}\ndata: \n\n`, { headers: SSE_HEADERS });
    };
    const agent = mcpAgent(priming, (request) => {
      resumedFrom.push(request.headers.get("last-event-id"));
      return priming();
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const error = await rejection(new McpClient(`${base}/mcp`).callTool("get_products"));
        ok(error instanceof AgentProtocolError, `expected AgentProtocolError, got ${error}`);
        strictEqual(error.reason, "reconnect_limit");
        strictEqual(streams, 4); // the POST's stream and 3 reconnects
        deepStrictEqual(resumedFrom, ["1", "2", "3"]);

        streams = 0;
        resumedFrom.length = 0;
        const once = new McpClient(`${base}/mcp`, { maxReconnects: 1 });
        const limited = await rejection(once.callTool("get_products"));
        ok(limited instanceof AgentProtocolError && limited.reason === "reconnect_limit");
        deepStrictEqual(resumedFrom, ["1"]);
      }),
    );
  },
);

netTest(
  "McpClient.callTool() counts SSE bytes across reconnects toward one budget (fails in stream 3)",
  async () => {
    let streams = 0;
    const floods: Flood[] = [];
    const resumedFrom: (string | null)[] = [];
    // 24 events of 64 KiB (1.5 MiB) that never answer the request, each with an id; then the end.
    const padding = "y".repeat(65_536 - 120);
    const stream = (stop: AbortSignal): Response => {
      const number = ++streams;
      const answer = flood(
        (index) =>
          index === 0
            ? "retry: 10\n\n"
            : index <= 24
            ? `id: s${number}e${index}\ndata: {"jsonrpc":"2.0","id":999999,` +
              `"result":{"pad":"${padding}"}}\n\n`
            : undefined,
        stop,
      );
      floods.push(answer);
      return new Response(answer.body, { headers: SSE_HEADERS });
    };
    const agent = mcpAgent((_message, stop) => stream(stop), (request, stop) => {
      resumedFrom.push(request.headers.get("last-event-id"));
      return stream(stop);
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const error = await rejection(new McpClient(`${base}/mcp`).callTool("get_products"));
        assertCumulative(error, CAP, 256 * 1024);
        strictEqual(streams, 3);
        deepStrictEqual(resumedFrom, ["s1e24", "s2e24"]);
        await floods[2]!.cancelled;
      }),
    );
  },
);

netTest(
  "McpClient.listTools() against endless 1 MiB pages grows the heap by < 16x its 4 MiB budget",
  async () => {
    let pages = 0;
    const agent = mcpAgent((message) => {
      pages++;
      return jsonText(bigPage(message.id, pages));
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const client = new McpClient(`${base}/mcp`);
        const { error, growth } = await peakGrowth(() => client.listTools());
        assertCumulative(error, CAP, MiB + 256);
        report(`McpClient.listTools heap growth ${(growth / CAP).toFixed(2)}x the budget`);
        ok(growth < MEMORY_MULTIPLE * CAP, `heap grew ${growth} bytes`);
      }),
    );
  },
);
