// A throttled or refused answer (429, 503, 401) reaches the caller of any client or of
// fetchAgentCard as an HttpStatusError with its status and Retry-After (delta-seconds or an
// HTTP-date, even under a JSON label whose body does not parse), and retry waits exactly that long,
// or sends a 401 once.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  BOUND_MS,
  isAnyTransportError,
  netTest,
  rejection,
  within,
  withServer,
} from "../_test_utils.ts";
import {
  a2aClient,
  COMPLETED_FRAME,
  type Handler,
  mcpClient,
  mcpSeller,
  parseRpc,
  recording,
  recordingSleep,
  rpcResult,
  TOOL_SUCCESS,
  withTwoServers,
} from "../_test_sellers.ts";
import { fetchAgentCard } from "../a2a/fetch_agent_card.ts";
import { HttpStatusError } from "../errors.ts";

/** A throttling answer: `status`, a `Retry-After` of `retryAfter()`, a text/plain body. */
function throttled(status: number, retryAfter: () => string): Response {
  return new Response("Slow down, buyer", {
    status,
    headers: { "retry-after": retryAfter(), "content-type": "text/plain; charset=utf-8" },
  });
}

const RETRY_AFTER_FORMS: readonly {
  readonly name: string;
  readonly value: () => string;
  /** The seconds the header may stand for (an HTTP-date has whole seconds: allow a tick). */
  readonly seconds: readonly number[];
}[] = [
  { name: "delta-seconds 7", value: () => "7", seconds: [7] }, // a 7_000 ms wait, exactly
  {
    name: "an HTTP-date 30 s ahead",
    value: () => new Date(Date.now() + 30_000).toUTCString(),
    seconds: [29, 30, 31],
  },
];

const THROTTLED_RUNS: readonly {
  readonly name: string;
  /** The seller, answering the request under test with `answer()`. */
  readonly seller: (answer: () => Response) => Handler;
  readonly run: (base: string) => Promise<unknown>;
}[] = [
  {
    name: "McpClient.connect",
    seller: (answer) => () => answer(),
    run: (base) => mcpClient(base).connect(),
  },
  {
    name: "McpClient.callTool",
    seller: (answer) => mcpSeller(() => answer()),
    run: (base) => mcpClient(base).callTool("get_products", {}),
  },
  {
    name: "A2AClient.sendMessage",
    seller: (answer) => () => answer(),
    run: (base) => {
      const client = a2aClient(base);
      return client.sendMessage(client.invocation("get_products", {}));
    },
  },
  {
    name: "A2AClient.sendStreamingMessage",
    seller: (answer) => () => answer(),
    run: (base) => {
      const client = a2aClient(base);
      return client.sendStreamingMessage(client.invocation("get_products", {}));
    },
  },
  {
    name: "fetchAgentCard",
    seller: (answer) => () => answer(),
    run: (base) => fetchAgentCard(`${base}/.well-known/agent-card.json`),
  },
];

for (const { name, seller, run } of THROTTLED_RUNS) {
  netTest(
    `${name} turns 429 and 503 with Retry-After into an HttpStatusError carrying retry_after`,
    async () => {
      let answer: () => Response = () => new Response(null, { status: 500 });
      const server = recording(seller(() => answer()));
      await within(
        BOUND_MS,
        withServer(server.serve, async (base) => {
          for (const status of [429, 503]) {
            for (const form of RETRY_AFTER_FORMS) {
              const label = `${status} with ${form.name}`;
              answer = () => throttled(status, form.value);
              const error = await rejection(run(base));
              ok(error instanceof HttpStatusError, `${label}: ${String(error)}`);
              ok(isAnyTransportError(error));
              strictEqual(error.code, "HTTP_STATUS", label);
              strictEqual(error.status, status, label);
              ok(
                form.seconds.includes(error.retryAfterSeconds!),
                `${label}: retryAfterSeconds ${error.retryAfterSeconds}`,
              );
              ok(error.adcpError !== null, label);
              strictEqual(
                error.adcpError.code,
                status === 429 ? "RATE_LIMITED" : "SERVICE_UNAVAILABLE",
                label,
              );
              strictEqual(error.adcpError.recovery, "transient", label);
              strictEqual(error.adcpError.retry_after, error.retryAfterSeconds, label);
              ok(!error.message.includes("Slow down"), `${label}: seller text in the message`);
            }
          }
        }),
      );
    },
  );
}

netTest(
  "McpClient.callTool and A2AClient.sendMessage with retry wait the Retry-After of a 429 or 503",
  async () => {
    let form = RETRY_AFTER_FORMS[0]!;
    let status = 429;
    const mcp = recording(
      mcpSeller((id, _seen, index) =>
        index % 2 === 0 ? throttled(status, form.value) : rpcResult(id, TOOL_SUCCESS)
      ),
    );
    let a2aCalls = 0;
    const a2a = recording((_request, seen) =>
      a2aCalls++ % 2 === 0
        ? throttled(status, form.value)
        : rpcResult(parseRpc(seen.body).id, COMPLETED_FRAME)
    );
    await within(
      BOUND_MS,
      withTwoServers(mcp.serve, a2a.serve, async (mcpBase, a2aBase) => {
        for (status of [429, 503]) {
          for (form of RETRY_AFTER_FORMS) {
            const label = `${status} with ${form.name}`;
            const mcpSleep = recordingSleep();
            const mcpResult = await mcpClient(mcpBase, { retry: { sleep: mcpSleep.sleep } })
              .callTool("get_products", {});
            strictEqual(mcpResult.kind, "success", label);
            strictEqual(mcpSleep.waits.length, 1, label);
            ok(
              form.seconds.map((seconds) => seconds * 1_000).includes(mcpSleep.waits[0]!),
              `${label}: McpClient waited ${mcpSleep.waits}`,
            );
            const a2aSleep = recordingSleep();
            const client = a2aClient(a2aBase, { retry: { sleep: a2aSleep.sleep } });
            const a2aResult = await client.sendMessage(client.invocation("get_products", {}));
            strictEqual(a2aResult.kind, "success", label);
            strictEqual(a2aSleep.waits.length, 1, label);
            ok(
              form.seconds.map((seconds) => seconds * 1_000).includes(a2aSleep.waits[0]!),
              `${label}: A2AClient waited ${a2aSleep.waits}`,
            );
          }
        }
      }),
    );
  },
);

netTest(
  "a 401 is an HttpStatusError without an AdCP error, and retry sends it once",
  async () => {
    const unauthorized = () =>
      new Response("Who are you?", {
        status: 401,
        headers: { "content-type": "text/plain", "www-authenticate": "Bearer" },
      });
    const mcp = recording(mcpSeller(() => unauthorized()));
    const other = recording(() => unauthorized());
    await within(
      BOUND_MS,
      withTwoServers(mcp.serve, other.serve, async (mcpBase, otherBase) => {
        const { waits, sleep } = recordingSleep();
        const errors: [string, unknown][] = [];
        errors.push([
          "McpClient.callTool",
          await rejection(mcpClient(mcpBase, { retry: { sleep } }).callTool("get_products", {})),
        ]);
        const client = a2aClient(otherBase, { retry: { sleep } });
        errors.push([
          "A2AClient.sendMessage",
          await rejection(client.sendMessage(client.invocation("get_products", {}))),
        ]);
        errors.push([
          "fetchAgentCard",
          await rejection(fetchAgentCard(`${otherBase}/.well-known/agent-card.json`)),
        ]);
        for (const [name, error] of errors) {
          ok(error instanceof HttpStatusError, `${name}: ${String(error)}`);
          strictEqual(error.status, 401, name);
          strictEqual(error.adcpError, null, name);
          strictEqual(error.retryAfterSeconds, undefined, name);
        }
        deepStrictEqual(waits, []);
        strictEqual(
          mcp.seen.filter((seen) => parseRpc(seen.body).method === "tools/call").length,
          1,
        );
        deepStrictEqual(other.seen.map((seen) => seen.path), [
          "/a2a",
          "/.well-known/agent-card.json",
        ]);
      }),
    );
  },
);

/** A throttling answer that claims JSON but whose body is empty or not JSON (a gateway's page). */
const JSON_LABELLED_BODIES: readonly [string, string][] = [
  ["an empty body", ""],
  ["an HTML page", "<html><body>503 Service Temporarily Unavailable</body></html>"],
];

for (
  const [name, seller, run] of [
    [
      "McpClient.callTool",
      (answer: () => Response) => mcpSeller(() => answer()),
      (base: string) => mcpClient(base).callTool("get_products", {}),
    ],
    [
      "A2AClient.sendMessage",
      (answer: () => Response) => () => answer(),
      (base: string) => {
        const client = a2aClient(base);
        return client.sendMessage(client.invocation("get_products", {}));
      },
    ],
  ] as const
) {
  netTest(
    `${name} keeps the status and Retry-After of a 429 or 503 labelled JSON whose body does not ` +
      `parse`,
    async () => {
      let answer: () => Response = () => new Response(null, { status: 500 });
      const server = recording(seller(() => answer()));
      await within(
        BOUND_MS,
        withServer(server.serve, async (base) => {
          for (const status of [429, 503]) {
            for (const [what, body] of JSON_LABELLED_BODIES) {
              const label = `${status} with ${what}`;
              answer = () =>
                new Response(body, {
                  status,
                  headers: { "content-type": "application/json", "retry-after": "7" },
                });
              const error = await rejection(run(base));
              ok(error instanceof HttpStatusError, `${label}: ${String(error)}`);
              strictEqual(error.status, status, label);
              strictEqual(error.retryAfterSeconds, 7, label);
              strictEqual(error.adcpError?.retry_after, 7, label);
            }
          }
        }),
      );
    },
  );
}
