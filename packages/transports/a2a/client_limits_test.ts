// One A2AClient stream reads at most one byte budget and collects at most its item caps (artifacts,
// parts, events) over all its frames, cancelling the seller's endless stream; its heap grows by
// less than 16 times the budget.
import { ok } from "node:assert/strict";
import { BOUND_MS, netTest, rejection, within } from "../_test_utils.ts";
import {
  a2aAgent,
  a2aClientAt,
  assertCumulative,
  assertItemLimit,
  CAP,
  type Flood,
  flood,
  IDS,
  MEMORY_MULTIPLE,
  peakGrowth,
  report,
  SSE_HEADERS,
  withHostileServer,
} from "../_test_bounds.ts";

/** One SSE event carrying a JSON-RPC message. */
function sseFrame(id: number, result: unknown): string {
  return `data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`;
}

netTest(
  "A2AClient.sendStreamingMessage() stops a flood of distinct artifacts at artifact 1025",
  async () => {
    const floods: Flood[] = [];
    const agent = a2aAgent((id, stop) => {
      const answer = flood(
        (index) =>
          Array.from({ length: 100 }, (_, k) =>
            sseFrame(id, {
              artifactUpdate: {
                ...IDS,
                artifact: { artifactId: `a${index * 100 + k}`, parts: [{ text: "x" }] },
              },
            })).join(""),
        stop,
      );
      floods.push(answer);
      return new Response(answer.body, { headers: SSE_HEADERS });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const client = a2aClientAt(base);
        const error = await rejection(
          client.sendStreamingMessage(client.invocation("get_products", {})),
        );
        assertItemLimit(error, "artifacts", 1_024, 1_025);
        await floods[0]!.cancelled;
        ok(floods[0]!.stats.cancelled, "the flood was not cancelled");
      }),
    );
  },
);

netTest(
  "A2AClient.sendStreamingMessage() stops append frames past maxParts over all artifacts",
  async () => {
    const floods: Flood[] = [];
    const tenParts = Array.from({ length: 10 }, (_, k) => ({ text: `p${k}` }));
    const agent = a2aAgent((id, stop) => {
      const answer = flood(
        (index) =>
          index === 0
            ? sseFrame(id, {
              artifactUpdate: { ...IDS, artifact: { artifactId: "a", parts: [{ text: "p" }] } },
            })
            : sseFrame(id, {
              artifactUpdate: {
                ...IDS,
                append: true,
                artifact: { artifactId: "a", parts: tenParts },
              },
            }),
        stop,
      );
      floods.push(answer);
      return new Response(answer.body, { headers: SSE_HEADERS });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const client = a2aClientAt(base);
        const error = await rejection(
          client.sendStreamingMessage(client.invocation("get_products", {}), {
            limits: { maxParts: 1_000 },
          }),
        );
        assertItemLimit(error, "parts", 1_000, 1_001); // 1 part, then 10 per append
        await floods[0]!.cancelled;
      }),
    );
  },
);

netTest(
  "A2AClient.sendStreamingMessage() ends an endless 'working' stream at the budget or maxEvents",
  async () => {
    const floods: Flood[] = [];
    const agent = a2aAgent((id, stop) => {
      const working = sseFrame(id, {
        statusUpdate: { ...IDS, status: { state: "TASK_STATE_WORKING" } },
      }).repeat(100);
      const answer = flood(() => working, stop);
      floods.push(answer);
      return new Response(answer.body, { headers: SSE_HEADERS });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const client = a2aClientAt(base);
        // About 110 bytes a frame: the 4 MiB budget runs out before 65,536 events.
        let seen = 0;
        const error = await rejection(
          client.sendStreamingMessage(client.invocation("get_products", {}), {
            onEvent: () => seen++,
          }),
        );
        assertCumulative(error, CAP, 256 * 1024);
        ok(seen > 30_000 && seen < 65_536, `${seen} frames seen`);
        await floods[0]!.cancelled;

        const capped = await rejection(
          client.sendStreamingMessage(client.invocation("get_products", {}), {
            limits: { maxEvents: 500 },
          }),
        );
        assertItemLimit(capped, "events", 500, 501);
        await floods[1]!.cancelled;
      }),
    );
  },
);

netTest(
  "A2AClient.sendStreamingMessage() against 64 KiB artifact frames grows the heap by < 16x its " +
    "budget",
  async () => {
    const padding = "z".repeat(65_536);
    const agent = a2aAgent((id, stop) => {
      const { body } = flood(
        (index) =>
          sseFrame(id, {
            artifactUpdate: {
              ...IDS,
              artifact: { artifactId: `a${index}`, parts: [{ text: padding }] },
            },
          }),
        stop,
      );
      return new Response(body, { headers: SSE_HEADERS });
    });
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const client = a2aClientAt(base);
        const { error, growth } = await peakGrowth(() =>
          client.sendStreamingMessage(client.invocation("get_products", {}))
        );
        assertCumulative(error, CAP, 256 * 1024);
        report(
          `A2AClient.sendStreamingMessage heap growth ${(growth / CAP).toFixed(2)}x the budget`,
        );
        ok(growth < MEMORY_MULTIPLE * CAP, `heap grew ${growth} bytes`);
      }),
    );
  },
);
