// McpClient's retry resends only what failed on the seller's side, byte for byte: refused
// connections, a transient JSON-RPC error or an HTTP 503 are retried under one idempotency key,
// while whatever the caller's own onNotification throws reaches the caller at once, unretried.
import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { withRetry } from "@adcp-wire/recovery";
import { BOUND_MS, netTest, rejection, within, withServer } from "../_test_utils.ts";
import {
  brokenOff,
  flakyFetch,
  mcpClient,
  mcpSeller,
  parseRpc,
  recording,
  recordingSleep,
  rpcResult,
  type Seen,
  sse,
  TOOL_SUCCESS,
  UUID_V4,
} from "../_test_sellers.ts";
import { withIdempotencyKey } from "../client/idempotency_key.ts";
import { NetworkError } from "../errors.ts";

/** The `tools/call` bodies a server received. */
function toolCallBodies(seen: readonly Seen[]): string[] {
  return seen.filter((entry) => parseRpc(entry.body).method === "tools/call").map((entry) =>
    entry.body
  );
}

function argumentsOf(body: string): Record<string, unknown> {
  return parseRpc(body).params!.arguments as Record<string, unknown>;
}

netTest(
  "McpClient.callTool with retry retries two refused connections and succeeds on the third attempt",
  async () => {
    const seller = recording(mcpSeller((id) => rpcResult(id, TOOL_SUCCESS)));
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { waits, sleep } = recordingSleep();
        const flaky = flakyFetch(2);
        const client = mcpClient(base, { fetch: flaky.fetch, retry: { maxRetries: 2, sleep } });
        const result = await client.callTool("get_products", { brief: "CTV" });
        deepStrictEqual(result, { kind: "success", data: TOOL_SUCCESS.structuredContent });
        strictEqual(waits.length, 2); // three attempts: two failed, two waits
        // Attempts 1 and 2 failed on initialize; attempt 3 ran initialize, the notification and
        // tools/call.
        strictEqual(flaky.calls.count, 5);
        deepStrictEqual(
          seller.seen.map((seen) => parseRpc(seen.body).method),
          ["initialize", "notifications/initialized", "tools/call"],
        );
      }),
    );
  },
);

for (const retry of [false, true]) {
  netTest(
    `McpClient passes the very object its onNotification throws to the caller, with no reconnect${
      retry ? " (retry on)" : ""
    }`,
    async () => {
      const progress = {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 1, progress: 50 },
      };
      const seller = recording(mcpSeller(
        () => sse(`retry: 1\nid: n-1\ndata: ${JSON.stringify(progress)}\n\n`),
        () => new Response("reconnected", { status: 500 }),
      ));
      await within(
        BOUND_MS,
        withServer(seller.serve, async (base) => {
          const thrown = new Error("the caller's own failure");
          const { waits, sleep } = recordingSleep();
          const client = mcpClient(base, {
            onNotification: () => {
              throw thrown;
            },
            ...(retry ? { retry: { sleep } } : {}),
          });
          const error = await rejection(client.callTool("get_products", {}));
          strictEqual(error, thrown);
          deepStrictEqual(waits, []);
          deepStrictEqual(
            seller.seen.map((seen) => `${seen.method} ${parseRpc(seen.body).method ?? ""}`),
            ["POST initialize", "POST notifications/initialized", "POST tools/call"],
          );
        }),
      );
    },
  );
}

netTest(
  "McpClient with retry never resends a tools/call because its own onNotification threw",
  async () => {
    // The caller's callback fails with an error that happens to look transient (it came from the
    // caller's own network call): it is the caller's failure, not the seller's, so it must reach
    // the caller at once, and the mutating call must not be sent again.
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } };
    const seller = recording(mcpSeller(
      () => sse(`data: ${JSON.stringify(progress)}\n\n`),
      () => new Response("reconnected", { status: 500 }),
    ));
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const thrown = new NetworkError(new TypeError("the caller's own request failed"));
        const { waits, sleep } = recordingSleep();
        const client = mcpClient(base, {
          retry: { sleep },
          onNotification: () => {
            throw thrown;
          },
        });
        const error = await rejection(
          client.callTool("create_media_buy", { buyer_ref: "x" }, { idempotencyKey: true }),
        );
        strictEqual(error, thrown);
        deepStrictEqual(waits, []);
        strictEqual(toolCallBodies(seller.seen).length, 1);
      }),
    );
  },
);

const TRANSIENT_ANSWERS: readonly [string, (id: number | string) => Response][] = [
  [
    "a -32029 JSON-RPC error with a transient adcp_error",
    (id) =>
      Response.json({
        jsonrpc: "2.0",
        id,
        error: {
          code: -32029,
          message: "Rate limited",
          data: {
            adcp_error: {
              code: "RATE_LIMITED",
              message: "x",
              recovery: "transient",
              retry_after: 1,
            },
          },
        },
      }),
  ],
  [
    "an HTTP 503",
    () => new Response("Busy", { status: 503, headers: { "content-type": "text/plain" } }),
  ],
];

for (const [what, transient] of TRANSIENT_ANSWERS) {
  netTest(
    `McpClient retry after ${what} resends the tools/call byte for byte, with one UUID v4 key`,
    async () => {
      const seller = recording(
        mcpSeller((id, _seen, index) => index === 0 ? transient(id) : rpcResult(id, TOOL_SUCCESS)),
      );
      await within(
        BOUND_MS,
        withServer(seller.serve, async (base) => {
          const { waits, sleep } = recordingSleep();
          const client = mcpClient(base, { retry: { sleep } });
          const result = await client.callTool("create_media_buy", { buyer_ref: "x" }, {
            idempotencyKey: true,
          });
          strictEqual(result.kind, "success");
          strictEqual(waits.length, 1);
          const [first, second, ...rest] = toolCallBodies(seller.seen);
          deepStrictEqual(rest, []);
          strictEqual(second, first);
          const args = argumentsOf(first!);
          strictEqual(args.buyer_ref, "x");
          ok(UUID_V4.test(String(args.idempotency_key)), `key ${args.idempotency_key}`);
          ok(first!.includes(`"idempotency_key":"${args.idempotency_key}"`));

          await client.callTool("create_media_buy", { buyer_ref: "x" }, { idempotencyKey: true });
          const third = toolCallBodies(seller.seen)[2]!;
          const key = argumentsOf(third).idempotency_key;
          ok(UUID_V4.test(String(key)), `key ${key}`);
          notStrictEqual(key, args.idempotency_key);
        }),
      );
    },
  );
}

netTest(
  "withRetry around McpClient.callTool after a NetworkError resends the same arguments bytes",
  async () => {
    const seller = recording(mcpSeller((id, _seen, index) =>
      index === 0
        // The seller received the call, then the answer broke off: the outcome is unknown.
        ? brokenOff(
          JSON.stringify({ jsonrpc: "2.0", id, result: TOOL_SUCCESS }),
          "application/json",
        )
        : rpcResult(id, TOOL_SUCCESS)
    ));
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { waits, sleep } = recordingSleep();
        const client = mcpClient(base);
        const args = withIdempotencyKey({ buyer_ref: "x", packages: [{ budget: 1_000 }] });
        const thrown: unknown[] = [];
        const result = await withRetry(() => client.callTool("create_media_buy", args), {
          policy: { sleep },
          onDecision: (event) => thrown.push(event.thrown),
        });
        strictEqual(result.kind, "success");
        strictEqual(thrown.length, 1);
        ok(thrown[0] instanceof NetworkError, String(thrown[0]));
        strictEqual(waits.length, 1);
        const [first, second, ...rest] = toolCallBodies(seller.seen);
        deepStrictEqual(rest, []);
        const paramsText = (body: string) => body.slice(body.indexOf('"params":'));
        strictEqual(paramsText(second!), paramsText(first!));
        strictEqual(
          JSON.stringify(argumentsOf(second!)),
          JSON.stringify(argumentsOf(first!)),
        );
        strictEqual(argumentsOf(first!).idempotency_key, args.idempotency_key);
        ok(UUID_V4.test(args.idempotency_key));
      }),
    );
  },
);
