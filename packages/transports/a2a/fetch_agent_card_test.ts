// fetchAgentCard() stops an endless card body at its 4 MiB cap and cancels it, its heap growing by
// less than 16 times that budget.
import { ok, strictEqual } from "node:assert/strict";
import { BOUND_MS, netTest, within } from "../_test_utils.ts";
import {
  CAP,
  type Flood,
  flood,
  JSON_HEADERS,
  MEMORY_MULTIPLE,
  PAD_BYTES,
  peakGrowth,
  report,
  withHostileServer,
} from "../_test_bounds.ts";
import { fetchAgentCard } from "./fetch_agent_card.ts";
import { ResponseTooLargeError } from "../errors.ts";

netTest(
  "fetchAgentCard() against an endless card body grows the heap by < 16x its 4 MiB budget",
  async () => {
    let stream: Flood | undefined;
    const agent = (_request: Request, stop: AbortSignal): Response => {
      stream = flood((index) => index === 0 ? '{"name":"' : PAD_BYTES.slice(0, 65_536), stop);
      return new Response(stream.body, { headers: JSON_HEADERS });
    };
    await within(
      BOUND_MS,
      withHostileServer(agent, async (base) => {
        const { error, growth } = await peakGrowth(() =>
          fetchAgentCard(`${base}/.well-known/agent-card.json`)
        );
        ok(error instanceof ResponseTooLargeError, `expected ResponseTooLargeError, got ${error}`);
        strictEqual(error.phase, "raw"); // one body: its own cap, before the operation's budget
        strictEqual(error.limit, CAP);
        ok(error.observed <= CAP + 256 * 1024, `observed ${error.observed}`);
        await stream!.cancelled;
        report(`fetchAgentCard heap growth ${(growth / CAP).toFixed(2)}x the budget`);
        ok(growth < MEMORY_MULTIPLE * CAP, `heap grew ${growth} bytes`);
      }),
    );
  },
);
