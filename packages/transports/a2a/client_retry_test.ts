// A2AClient's retry resends only what failed on the seller's side, byte for byte: refused
// connections and a failed task with a transient error are retried with the same message, while
// whatever the caller's own onEvent throws reaches the caller at once, unretried.
import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { withRetry } from "@adcp-wire/recovery";
import { BOUND_MS, netTest, rejection, within, withServer } from "../_test_utils.ts";
import {
  a2aClient,
  brokenOff,
  COMPLETED_FRAME,
  COMPLETED_TASK,
  flakyFetch,
  parseRpc,
  RATE_LIMITED_TASK,
  recording,
  recordingSleep,
  rpcResult,
  sse,
  sseFrames,
  UUID_V4,
  WORKING_FRAME,
} from "../_test_sellers.ts";
import { NetworkError } from "../errors.ts";

netTest(
  "A2AClient.sendMessage with retry retries two refused connections and succeeds on the third " +
    "attempt",
  async () => {
    const seller = recording((_request, seen) =>
      rpcResult(parseRpc(seen.body).id, COMPLETED_FRAME)
    );
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { waits, sleep } = recordingSleep();
        const flaky = flakyFetch(2);
        const client = a2aClient(base, { fetch: flaky.fetch, retry: { maxRetries: 2, sleep } });
        const result = await client.sendMessage(client.invocation("get_products", {}));
        strictEqual(result.kind, "success");
        strictEqual(flaky.calls.count, 3);
        strictEqual(waits.length, 2);
        strictEqual(seller.seen.length, 1);
      }),
    );
  },
);

for (const retry of [false, true]) {
  netTest(
    `A2AClient passes the very object its onEvent throws to the caller${
      retry ? " (retry on)" : ""
    }`,
    async () => {
      const seller = recording((_request, seen) =>
        sse(sseFrames(parseRpc(seen.body).id, [WORKING_FRAME, COMPLETED_FRAME]))
      );
      await within(
        BOUND_MS,
        withServer(seller.serve, async (base) => {
          const thrown = new Error("the caller's own failure");
          const { waits, sleep } = recordingSleep();
          const client = a2aClient(base, retry ? { retry: { sleep } } : {});
          const error = await rejection(
            client.sendStreamingMessage(client.invocation("get_products", {}), {
              onEvent: () => {
                throw thrown;
              },
            }),
          );
          strictEqual(error, thrown);
          deepStrictEqual(waits, []);
          strictEqual(seller.seen.length, 1);
        }),
      );
    },
  );
}

netTest(
  "A2AClient with retry never resends SendStreamingMessage because its own onEvent threw",
  async () => {
    const seller = recording((_request, seen) =>
      sse(sseFrames(parseRpc(seen.body).id, [WORKING_FRAME, COMPLETED_FRAME]))
    );
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const thrown = new NetworkError(new TypeError("the caller's own request failed"));
        const { waits, sleep } = recordingSleep();
        const client = a2aClient(base, { retry: { sleep } });
        const error = await rejection(
          client.sendStreamingMessage(client.invocation("create_media_buy", {}), {
            onEvent: () => {
              throw thrown;
            },
          }),
        );
        strictEqual(error, thrown);
        deepStrictEqual(waits, []);
        strictEqual(seller.seen.length, 1);
      }),
    );
  },
);

netTest(
  "A2AClient retry after a failed task with a transient error resends SendMessage byte for byte",
  async () => {
    let calls = 0;
    const seller = recording((_request, seen) =>
      rpcResult(parseRpc(seen.body).id, {
        task: calls++ === 0 ? RATE_LIMITED_TASK : COMPLETED_TASK,
      })
    );
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { waits, sleep } = recordingSleep();
        const client = a2aClient(base, { retry: { sleep } });
        const result = await client.sendMessage(
          client.invocation("create_media_buy", { buyer_ref: "x" }, { idempotencyKey: true }),
        );
        strictEqual(result.kind, "success");
        deepStrictEqual(waits, [1_000]);
        const [first, second, ...rest] = seller.seen.map((seen) => seen.body);
        deepStrictEqual(rest, []);
        strictEqual(second, first);
        const inputOf = (body: string) => {
          const params = parseRpc(body).params as {
            message: { messageId: string; parts: { data: { input: Record<string, unknown> } }[] };
          };
          return {
            messageId: params.message.messageId,
            input: params.message.parts[0]!.data.input,
          };
        };
        const sent = inputOf(first!);
        strictEqual(sent.input.buyer_ref, "x");
        ok(UUID_V4.test(String(sent.input.idempotency_key)), `key ${sent.input.idempotency_key}`);

        await client.sendMessage(
          client.invocation("create_media_buy", { buyer_ref: "x" }, { idempotencyKey: true }),
        );
        const again = inputOf(seller.seen[2]!.body);
        ok(UUID_V4.test(String(again.input.idempotency_key)));
        notStrictEqual(again.input.idempotency_key, sent.input.idempotency_key);
        notStrictEqual(again.messageId, sent.messageId);
      }),
    );
  },
);

netTest(
  "withRetry around A2AClient.sendMessage after a NetworkError resends the same message",
  async () => {
    let calls = 0;
    const seller = recording((_request, seen) => {
      const id = parseRpc(seen.body).id;
      return calls++ === 0
        ? brokenOff(
          JSON.stringify({ jsonrpc: "2.0", id, result: COMPLETED_FRAME }),
          "application/json",
        )
        : rpcResult(id, COMPLETED_FRAME);
    });
    await within(
      BOUND_MS,
      withServer(seller.serve, async (base) => {
        const { sleep } = recordingSleep();
        const client = a2aClient(base);
        const message = client.invocation("create_media_buy", { buyer_ref: "x" }, {
          idempotencyKey: true,
        });
        const result = await withRetry(() => client.sendMessage(message), { policy: { sleep } });
        strictEqual(result.kind, "success");
        const [first, second, ...rest] = seller.seen.map((seen) => seen.body);
        deepStrictEqual(rest, []);
        const paramsText = (body: string) => body.slice(body.indexOf('"params":'));
        strictEqual(paramsText(second!), paramsText(first!));
      }),
    );
  },
);
