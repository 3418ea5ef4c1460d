// Every public options and limits object of @adcp-wire/transports (but /seller and /testing, whose
// table is seller/unknown_option_keys_test.ts) refuses a key it does not define, in the one
// option-error style, naming the key and the nearest known one, before any request is sent: a
// misspelled or misplaced option (`connectAgent(url, { timeoutMs: 5 })`) must not pass silently
// with its limit left at the default. Data (headers, task inputs, cards, push configs) is not
// checked.
import { deepStrictEqual, fail, ok, rejects, strictEqual, throws } from "node:assert/strict";
import {
  A2AClient,
  AdcpAgent,
  adcpProfileInvocation,
  boundedFetch,
  checkAdcpProfileAdvertisement,
  checkAdcpProfileResponse,
  checkAuthChallenge,
  connectAgent,
  createSseBudget,
  discoverAdagents,
  fetchAdagentsJson,
  fetchAgentCard,
  fetchAuthoritativeAdagentsJson,
  McpClient,
  parseBoundedJson,
  readJsonResponse,
  readSseEvents,
  readStdioMessages,
  readTextResponse,
  resolveLimits,
} from "./mod.ts";
import { adcpSuccessResult } from "./seller/mod.ts";
import { fakeA2AAgent, fakeMcpAgent } from "./testing/mod.ts";

const MCP_URL = "https://seller.example/mcp";
const KNOWN = "must be a known option";

/** A `fetch` that records its calls and answers 404 (no agent card, no such resource). */
function fetchSpy(): { readonly fetch: typeof globalThis.fetch; readonly calls: string[] } {
  const calls: string[] = [];
  const fetch = (input: string | URL | Request): Promise<Response> => {
    calls.push(input instanceof Request ? input.url : String(input));
    return Promise.resolve(new Response("not found", { status: 404 }));
  };
  return { fetch, calls };
}

/** The message refusing `name.key` of `action`, the nearest being `name.nearest`, with `value`. */
function unknown(action: string, name: string, key: string, nearest: string, value: string) {
  return `Cannot ${action} as '${name}.${key}' ${KNOWN} (the nearest is '${name}.${nearest}'): ` +
    `current value is ${value}`;
}

/** Runs `run` and gives back what it threw or rejected with, or `undefined`. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The SSE response the readers take. */
const sse = () => new Response("data: x\n\n", { headers: { "content-type": "text/event-stream" } });
/** The A2A agent of the A2A rows (its card and card URL; requests go to the row's spy). */
const a2aAgent = fakeA2AAgent({ skills: {} });
const a2aClient = (fetch: typeof globalThis.fetch) =>
  new A2AClient(a2aAgent.card, { cardUrl: a2aAgent.cardUrl, fetch });

/** One options interface: how to call with it, every key it has, and a key it refuses. */
interface Row {
  /** Calls the public function with `options` as the object of this interface. */
  readonly call: (options: Record<string, unknown>, fetch: typeof globalThis.fetch) => unknown;
  /** Every key of the interface, inherited ones included (checked against `deno doc`). */
  readonly keys: readonly string[];
  /** An object with a misspelled or misplaced key, and the exact message refusing it. */
  readonly refused: Record<string, unknown>;
  readonly message: string;
}

const RESPONSE_LIMITS = [
  "maxResponseBytes",
  "maxDecodedBytes",
  "timeoutMs",
  "signal",
  "maxJsonDepth",
  "maxJsonNodes",
];
const CLIENT_LIMITS = [
  ...RESPONSE_LIMITS,
  "maxTools",
  "maxEvents",
  "maxArtifacts",
  "maxParts",
  "maxDataPartBytes",
];
const CLIENT_OPTIONS = [
  "headers",
  "defaultLimits",
  "agentLimits",
  "fetch",
  "retry",
  "signer",
  "allowHttp",
];
const ADAGENTS = ["fetch", "limits", "allowHttp", "allowReservedAddresses"];
const CREATE_MCP = "create an McpClient";

/** The table: one row per exported options or limits interface, by its exact name. */
const ROWS: Readonly<Record<string, Row>> = {
  // ---- read/ ----
  ResponseLimits: {
    call: (limits) => createSseBudget(limits),
    keys: RESPONSE_LIMITS,
    refused: { timeotMs: 5 },
    message: unknown("resolve limits", "limits", "timeotMs", "timeoutMs", "5"),
  },
  ResolveLimitsOptions: {
    call: (options) => resolveLimits(options),
    keys: ["defaultLimits", "agentLimits", "callLimits"],
    refused: { timeoutMs: 5 },
    message: unknown("resolve limits", "options", "timeoutMs", "agentLimits.timeoutMs", "5"),
  },
  BoundedFetchOptions: {
    call: (limits, fetch) => boundedFetch(limits, fetch),
    keys: [...RESPONSE_LIMITS, "onProgress"],
    refused: { onProgres: 5 },
    message: unknown("create a bounded fetch", "limits", "onProgres", "onProgress", "5"),
  },
  ParseBoundedJsonOptions: {
    call: (options) => parseBoundedJson("{}", options),
    keys: ["maxJsonDepth", "maxJsonNodes"],
    // Only the JSON bounds: a byte cap means nothing to text already read.
    refused: { maxResponseBytes: 5 },
    message: unknown("parse the JSON", "options", "maxResponseBytes", "maxJsonDepth", "5"),
  },
  ReadResponseOptions: {
    call: (options) => readJsonResponse(new Response("{}"), options),
    keys: [...RESPONSE_LIMITS, "contentDecoding", "onProgress"],
    refused: { contentDecode: true },
    message: unknown("read the response", "options", "contentDecode", "contentDecoding", "true"),
  },
  ReadSseEventsOptions: {
    call: (options) => readSseEvents(sse(), options),
    keys: ["budget", "limits", "contentDecoding", "onProgress"],
    refused: { maxResponseBytes: 5 },
    message: unknown(
      "read the response",
      "options",
      "maxResponseBytes",
      "limits.maxResponseBytes",
      "5",
    ),
  },
  ReadStdioMessagesOptions: {
    call: (options) => readStdioMessages(new ReadableStream(), options),
    keys: [...RESPONSE_LIMITS, "onProgress"],
    refused: { maxBytes: 5 },
    message: unknown("read the stdio messages", "options", "maxBytes", "maxResponseBytes", "5"),
  },
  AdagentsFetchOptions: {
    call: (options, fetch) =>
      fetchAuthoritativeAdagentsJson("https://pub.example/adagents.json", { fetch, ...options }),
    keys: ADAGENTS,
    refused: { timeoutMs: 5 },
    message: unknown(
      "fetch the authoritative adagents.json",
      "options",
      "timeoutMs",
      "limits.timeoutMs",
      "5",
    ),
  },
  FetchAdagentsJsonOptions: {
    call: (options, fetch) => fetchAdagentsJson("pub.example", { fetch, ...options }),
    keys: [...ADAGENTS, "maxRedirects"],
    refused: { maxRedirect: 2 },
    message: unknown("fetch adagents.json", "options", "maxRedirect", "maxRedirects", "2"),
  },
  DiscoverAdagentsOptions: {
    call: (options, fetch) => discoverAdagents("pub.example", { fetch, ...options }),
    keys: [...ADAGENTS, "maxRedirects", "authoritativeLimits"],
    refused: { authoritativeLimit: {} },
    message: unknown(
      "discover adagents.json",
      "options",
      "authoritativeLimit",
      "authoritativeLimits",
      "an object",
    ),
  },
  // ---- the shared client options, mcp/ ----
  ClientLimits: {
    call: (limits, fetch) => new McpClient(MCP_URL, { fetch, agentLimits: limits }),
    keys: CLIENT_LIMITS,
    refused: { maxTool: 5 },
    message: unknown(CREATE_MCP, "options.agentLimits", "maxTool", "maxTools", "5"),
  },
  ClientOptions: {
    call: (options, fetch) => new McpClient(MCP_URL, { fetch, ...options }),
    keys: CLIENT_OPTIONS,
    // Misplaced: a limit belongs in a layer, the agent's first.
    refused: { timeoutMs: 5 },
    message: unknown(CREATE_MCP, "options", "timeoutMs", "agentLimits.timeoutMs", "5"),
  },
  RetryPolicyOptions: {
    call: (retry, fetch) => new McpClient(MCP_URL, { fetch, retry }),
    keys: [
      "maxRetries",
      "maxElapsedSeconds",
      "initialDelaySeconds",
      "maxDelaySeconds",
      "jitter",
      "random",
      "now",
      "sleep",
      "unknownCodeRecovery",
    ],
    refused: { maxRetry: 1 },
    message: unknown(CREATE_MCP, "options.retry", "maxRetry", "maxRetries", "1"),
  },
  CallOptions: {
    call: (options, fetch) => new McpClient(MCP_URL, { fetch }).getTask("t1", options),
    keys: ["limits"],
    refused: { limts: {} },
    message: unknown("use the task", "options", "limts", "limits", "an object"),
  },
  McpClientOptions: {
    call: (options, fetch) => new McpClient(MCP_URL, { fetch, ...options }),
    keys: [
      ...CLIENT_OPTIONS,
      "protocolVersion",
      "clientInfo",
      "maxPages",
      "maxReconnects",
      "onNotification",
    ],
    refused: { maxPage: 5 },
    message: unknown(CREATE_MCP, "options", "maxPage", "maxPages", "5"),
  },
  McpCallOptions: {
    call: (options, fetch) => new McpClient(MCP_URL, { fetch }).callTool("t", {}, options),
    keys: ["limits", "idempotencyKey"],
    refused: { idempotencyKy: true },
    message: unknown("call the tool", "options", "idempotencyKy", "idempotencyKey", "true"),
  },
  McpTaskCallOptions: {
    call: (options, fetch) => new McpClient(MCP_URL, { fetch }).callToolAsTask("t", {}, options),
    keys: ["limits", "idempotencyKey", "ttl"],
    refused: { tll: 5 },
    message: unknown("call the tool", "options", "tll", "ttl", "5"),
  },
  McpWaitOptions: {
    call: (options, fetch) => new McpClient(MCP_URL, { fetch }).waitForTask("t1", options),
    keys: ["limits", "idempotencyKey", "maxWaitMs", "pollIntervalMs"],
    refused: { timeoutMs: 5 },
    message: unknown("use the task", "options", "timeoutMs", "limits.timeoutMs", "5"),
  },
  CheckAuthChallengeOptions: {
    call: (options) => checkAuthChallenge({}, options as never),
    keys: ["allowedHosts"],
    refused: { allowedHosts: [], authHosts: [] },
    message: unknown(
      "check the auth challenge",
      "options",
      "authHosts",
      "allowedHosts",
      "an array",
    ),
  },
  // ---- a2a/ ----
  A2AClientOptions: {
    call: (options, fetch) =>
      new A2AClient(a2aAgent.card, { cardUrl: a2aAgent.cardUrl, fetch, ...options }),
    keys: [
      ...CLIENT_OPTIONS,
      "protocolVersion",
      "extensions",
      "authHosts",
      "cardUrl",
      "allowedHosts",
      "allowReservedAddresses",
    ],
    refused: { allowedHost: [] },
    message: unknown("create an A2AClient", "options", "allowedHost", "allowedHosts", "an array"),
  },
  A2ACallOptions: {
    call: (options, fetch) => {
      const client = a2aClient(fetch);
      return client.sendMessage(client.invocation("get_products", {}), options);
    },
    keys: ["limits", "onEvent", "expectedDataParts"],
    refused: { expectedDataPart: 1 },
    message: unknown("send the message", "options", "expectedDataPart", "expectedDataParts", "1"),
  },
  A2AInvocationOptions: {
    call: (options, fetch) => a2aClient(fetch).invocation("get_products", {}, options),
    keys: ["idempotencyKey", "taskId", "contextId"],
    // Case folded: `taskID` is nearest to `taskId`.
    refused: { taskID: 7 },
    message: unknown("build the invocation", "options", "taskID", "taskId", "7"),
  },
  AdcpProfileInvocationOptions: {
    call: (options) => adcpProfileInvocation("get_products", {}, options),
    keys: ["messageId", "taskId", "contextId", "text"],
    refused: { messageID: 7 },
    message: unknown("build the AdCP profile invocation", "options", "messageID", "messageId", "7"),
  },
  CheckAdcpProfileAdvertisementOptions: {
    call: (options) => checkAdcpProfileAdvertisement({}, options),
    keys: ["requireTaskStatus"],
    refused: { requireTaskStatuses: true },
    message: unknown(
      "check the AdCP profile advertisement",
      "options",
      "requireTaskStatuses",
      "requireTaskStatus",
      "true",
    ),
  },
  CheckAdcpProfileResponseOptions: {
    call: (options) => checkAdcpProfileResponse({}, options),
    keys: ["handlerReturn"],
    refused: { handlerReturns: 1 },
    message: unknown(
      "check the AdCP profile response",
      "options",
      "handlerReturns",
      "handlerReturn",
      "1",
    ),
  },
  FetchAgentCardOptions: {
    call: (options, fetch) => fetchAgentCard(a2aAgent.cardUrl, { fetch, ...options }),
    keys: ["headers", "limits", "fetch", "allowHttp"],
    refused: { timeoutMs: 5 },
    message: unknown("fetch the agent card", "options", "timeoutMs", "limits.timeoutMs", "5"),
  },
  // ---- agent/ ----
  AgentCallOptions: {
    call: (options, fetch) =>
      new AdcpAgent(new McpClient(MCP_URL, { fetch })).call("own_task", {}, options),
    keys: [
      "limits",
      "idempotencyKey",
      "wait",
      "pollIntervalMs",
      "onStatus",
      "pushNotification",
      "contextId",
      "validate",
      "mcpTask",
    ],
    refused: { timeoutMs: 5 },
    message: unknown("call the task", "options", "timeoutMs", "limits.timeoutMs", "5"),
  },
  ConnectAgentOptions: {
    call: (options, fetch) => connectAgent(MCP_URL, { ...options, fetch }),
    keys: [...CLIENT_OPTIONS, "protocol", "cardLimits", "mcp", "a2a"],
    // The case of issue 29: a limit at the top level belongs in a layer, the agent's first.
    refused: { timeoutMs: 5 },
    message: unknown("connect to the agent", "options", "timeoutMs", "agentLimits.timeoutMs", "5"),
  },
};

/** Options objects of public methods that have no interface name: not in `deno doc`'s list. */
const UNNAMED: Readonly<Record<string, Row>> = {
  "A2AClient.textMessage options": {
    call: (options, fetch) => a2aClient(fetch).textMessage("Hello", options),
    keys: ["taskId", "contextId"],
    refused: { contextid: "ctx-1" },
    message: unknown(
      "build the text message",
      "options",
      "contextid",
      "contextId",
      '"(5 characters, not shown)"',
    ),
  },
  "AgentCallOptions.mcpTask": {
    call: (mcpTask, fetch) =>
      new AdcpAgent(new McpClient(MCP_URL, { fetch })).call("own_task", {}, { mcpTask }),
    keys: ["ttl"],
    refused: { tll: 60_000 },
    message: unknown("call the task", "options.mcpTask", "tll", "ttl", "60000"),
  },
};

/**
 * Exported names ending in `Options` or `Limits` that have no row here, each with why. The names
 * of /seller and /testing are checked there; the rest are never taken as options.
 */
const SKIPPED: Readonly<Record<string, string>> = {
  AdcpErrorResultOptions: "seller/mod.ts: in seller/unknown_option_keys_test.ts",
  AdcpFailedTaskOptions: "seller/mod.ts: in seller/unknown_option_keys_test.ts",
  AdcpJsonRpcErrorOptions: "seller/mod.ts: in seller/unknown_option_keys_test.ts",
  AdcpProfileInputRequiredOptions: "seller/mod.ts: in seller/unknown_option_keys_test.ts",
  AdcpProfileTaskResponseOptions: "seller/mod.ts: in seller/unknown_option_keys_test.ts",
  AdcpSuccessResultOptions: "seller/mod.ts: in seller/unknown_option_keys_test.ts",
  OutgoingErrorOptions: "seller/mod.ts: in seller/unknown_option_keys_test.ts",
  FakeMcpAgentOptions: "testing/mod.ts: in seller/unknown_option_keys_test.ts",
  FakeA2AAgentOptions: "testing/mod.ts: in seller/unknown_option_keys_test.ts",
  ResolvedLimits: "an output (of resolveLimits); given back to a reader, it is marked resolved " +
    "and taken as it is, and a look-alike the caller built is a ResponseLimits layer",
  ResolvedClientLimits: "an output of the clients, never taken as input",
  ClassifyRecoveryOptions: "re-exported from @adcp-wire/recovery for the docs: no function of " +
    "this package takes it (its one key is a key of RetryPolicyOptions, checked in that row)",
};

/** Every key of `row.keys`, each `undefined`. */
function everyKey(row: Row): Record<string, undefined> {
  return Object.fromEntries(row.keys.map((key) => [key, undefined]));
}

for (const [name, row] of [...Object.entries(ROWS), ...Object.entries(UNNAMED)]) {
  Deno.test(`${name}: a misspelled or misplaced key is refused, before any request`, async () => {
    const spy = fetchSpy();
    const error = await outcome(() => row.call(row.refused, spy.fetch));
    ok(error instanceof TypeError, `expected a TypeError, got ${error}`);
    strictEqual(error.message, row.message);
    deepStrictEqual(spy.calls, []);
  });

  Deno.test(`${name}: every known key is accepted`, async () => {
    const spy = fetchSpy();
    const error = await outcome(() => row.call(everyKey(row), spy.fetch));
    // Another failure (a required option left undefined, the spy's 404) is not this test's.
    if (error instanceof Error && error.message.includes(KNOWN)) fail(error.message);
  });
}

// ---- the exact case of the issue ----

Deno.test("connectAgent() refuses a top-level timeoutMs before the card is fetched", async () => {
  let fetched = 0;
  const fetch = () => {
    fetched++;
    return Promise.resolve(new Response(null, { status: 404 }));
  };
  await rejects(connectAgent("https://seller.example/mcp", { timeoutMs: 5, fetch } as never), {
    name: "TypeError",
    message: "Cannot connect to the agent as 'options.timeoutMs' must be a known option (the " +
      "nearest is 'options.agentLimits.timeoutMs'): current value is 5",
  });
  strictEqual(fetched, 0);
  // Where it belongs, it is taken: the agent's layer bounds the client's calls.
  const agent = await connectAgent(MCP_URL, { agentLimits: { timeoutMs: 5 }, fetch });
  strictEqual(agent.protocol, "mcp");
});

// ---- every layer of limits ----

Deno.test("a misspelled limit is refused at every layer, under the layer's name", async () => {
  const spy = fetchSpy();
  const fetch = spy.fetch;
  const bad = { maxResponseByte: 5 } as never;
  const refusedAs = (action: string, layer: string) =>
    unknown(action, layer, "maxResponseByte", "maxResponseBytes", "5");
  const cases: [() => unknown, string][] = [
    [() => resolveLimits({ defaultLimits: bad }), refusedAs("resolve limits", "defaultLimits")],
    [() => resolveLimits({ agentLimits: bad }), refusedAs("resolve limits", "agentLimits")],
    [() => resolveLimits({ callLimits: bad }), refusedAs("resolve limits", "callLimits")],
    [
      () => new McpClient(MCP_URL, { fetch, defaultLimits: bad }),
      refusedAs(CREATE_MCP, "options.defaultLimits"),
    ],
    [
      () => new McpClient(MCP_URL, { fetch, agentLimits: bad }),
      refusedAs(CREATE_MCP, "options.agentLimits"),
    ],
    [
      () => new McpClient(MCP_URL, { fetch }).callTool("t", {}, { limits: bad }),
      refusedAs("call the tool", "options.limits"),
    ],
    [
      () => new McpClient(MCP_URL, { fetch }).listTools({ limits: bad }),
      refusedAs("list the tools", "options.limits"),
    ],
    [
      () => new McpClient(MCP_URL, { fetch }).close({ limits: bad }),
      refusedAs("close the session", "options.limits"),
    ],
    [
      () => new A2AClient(a2aAgent.card, { cardUrl: a2aAgent.cardUrl, fetch, agentLimits: bad }),
      refusedAs("create an A2AClient", "options.agentLimits"),
    ],
    [
      () => a2aClient(fetch).getTask("t1", { limits: bad }),
      refusedAs("get the task", "options.limits"),
    ],
    [
      () => new AdcpAgent(new McpClient(MCP_URL, { fetch })).call("own_task", {}, { limits: bad }),
      refusedAs("call the task", "options.limits"),
    ],
    [
      () =>
        new AdcpAgent(a2aClient(fetch)).wait(
          {
            protocol: "a2a",
            task: "own_task",
            via: "a2a_task",
            taskId: "t1",
            contextId: "c1",
            state: "working",
          },
          { limits: bad },
        ),
      refusedAs("wait for the task", "options.limits"),
    ],
    [
      () => connectAgent(MCP_URL, { fetch, defaultLimits: bad }),
      refusedAs("connect to the agent", "options.defaultLimits"),
    ],
    [
      () => connectAgent(MCP_URL, { fetch, agentLimits: bad }),
      refusedAs("connect to the agent", "options.agentLimits"),
    ],
    [
      () => connectAgent(MCP_URL, { fetch, cardLimits: bad }),
      refusedAs("connect to the agent", "options.cardLimits"),
    ],
    [
      () => fetchAgentCard(a2aAgent.cardUrl, { fetch, limits: bad }),
      refusedAs("fetch the agent card", "options.limits"),
    ],
    [
      () => readSseEvents(sse(), { limits: bad }),
      refusedAs("read the response", "options.limits"),
    ],
    [
      () => fetchAdagentsJson("pub.example", { fetch, limits: bad }),
      refusedAs("fetch adagents.json", "options.limits"),
    ],
    [
      () => discoverAdagents("pub.example", { fetch, authoritativeLimits: bad }),
      refusedAs("discover adagents.json", "options.authoritativeLimits"),
    ],
  ];
  for (const [run, message] of cases) {
    const error = await outcome(run);
    ok(error instanceof TypeError, `expected a TypeError for ${message}`);
    strictEqual(error.message, message);
  }
  deepStrictEqual(spy.calls, []);
});

Deno.test("a client's item caps are refused where only response limits apply", async () => {
  const spy = fetchSpy();
  await rejects(
    fetchAgentCard(a2aAgent.cardUrl, { fetch: spy.fetch, limits: { maxTools: 5 } as never }),
    {
      name: "TypeError",
      message: unknown("fetch the agent card", "options.limits", "maxTools", "maxJsonNodes", "5"),
    },
  );
  await rejects(connectAgent(MCP_URL, { fetch: spy.fetch, cardLimits: { maxParts: 5 } as never }), {
    name: "TypeError",
    message: unknown("connect to the agent", "options.cardLimits", "maxParts", "timeoutMs", "5"),
  });
  throws(() => resolveLimits({ agentLimits: { maxEvents: 5 } as never }), TypeError);
  deepStrictEqual(spy.calls, []);
});

Deno.test("a key of a nested options object is refused under its dotted name", async () => {
  const spy = fetchSpy();
  const fetch = spy.fetch;
  await rejects(connectAgent(MCP_URL, { fetch, mcp: { maxPage: 5 } as never }), {
    name: "TypeError",
    message: unknown("connect to the agent", "options.mcp", "maxPage", "maxPages", "5"),
  });
  // The card URL is the probe's to set, not an `a2a` option.
  await rejects(connectAgent(MCP_URL, { fetch, a2a: { cardUrl: a2aAgent.cardUrl } as never }), {
    name: "TypeError",
    message: unknown(
      "connect to the agent",
      "options.a2a",
      "cardUrl",
      "authHosts",
      '"(49 characters, not shown)"',
    ),
  });
  // A top-level key that belongs in `mcp`, `a2a` or `retry` is suggested there.
  await rejects(connectAgent(MCP_URL, { fetch, maxPages: 5 } as never), {
    name: "TypeError",
    message: unknown("connect to the agent", "options", "maxPages", "mcp.maxPages", "5"),
  });
  await rejects(connectAgent(MCP_URL, { fetch, extensions: [] } as never), {
    name: "TypeError",
    message: unknown("connect to the agent", "options", "extensions", "a2a.extensions", "an array"),
  });
  await rejects(connectAgent(MCP_URL, { fetch, retry: { maxRetrys: 1 } as never }), {
    name: "TypeError",
    message: unknown("connect to the agent", "options.retry", "maxRetrys", "maxRetries", "1"),
  });
  throws(() => new McpClient(MCP_URL, { fetch, maxRetries: 2 } as never), {
    name: "TypeError",
    message: unknown(CREATE_MCP, "options", "maxRetries", "retry.maxRetries", "2"),
  });
  deepStrictEqual(spy.calls, []);
});

Deno.test("the key named is cut to 64 characters, and a string value shown by size only", () => {
  const key = `x${"y".repeat(99)}`;
  throws(() => new McpClient(MCP_URL, { [key]: "Bearer secret-token" } as never), {
    name: "TypeError",
    message: `Cannot ${CREATE_MCP} as 'options.${key.slice(0, 64)}' ${KNOWN} (the nearest is ` +
      `'options.retry'): current value is "(19 characters, not shown)"`,
  });
  // A misplaced credential (meant for `headers`) is never echoed.
  const error = (() => {
    try {
      new McpClient(MCP_URL, { authorization: "Bearer secret-token" } as never);
    } catch (error) {
      return error as Error;
    }
  })();
  ok(error instanceof TypeError);
  ok(!error.message.includes("secret"), error.message);
});

Deno.test("inherited and symbol keys are not options, and are not refused", async () => {
  const spy = fetchSpy();
  const fetch = spy.fetch;
  const inherited = Object.assign(Object.create({ timeoutMs: 5, maxPage: 1 }), { fetch });
  new McpClient(MCP_URL, inherited);
  const limits = Object.create({ timeotMs: 5 });
  deepStrictEqual(resolveLimits({ agentLimits: limits }), resolveLimits());
  const withSymbol = { fetch, [Symbol("timeoutMs")]: 5 };
  new McpClient(MCP_URL, withSymbol);
  deepStrictEqual(parseBoundedJson("[]", { [Symbol("x")]: 1 } as never), []);
  await connectAgent(MCP_URL, Object.assign(Object.create({ timeoutMs: 5 }), { fetch }));
});

Deno.test("limits resolved by resolveLimits() are taken as they are by every reader", async () => {
  const limits = resolveLimits({ agentLimits: { maxJsonDepth: 8 } });
  deepStrictEqual(parseBoundedJson("[1]", limits), [1]);
  deepStrictEqual(await readJsonResponse(new Response("[2]"), limits), [2]);
  strictEqual(await readTextResponse(new Response("x"), limits), "x");
  const stdio = ReadableStream.from([new TextEncoder().encode("[3]\n")]);
  deepStrictEqual(await Array.fromAsync(readStdioMessages(stdio, limits)), [[3]]);
  const events = await Array.fromAsync(readSseEvents(sse(), { limits }));
  deepStrictEqual(events.map((event) => event.data), ["x"]);
  const spy = fetchSpy();
  const response = await boundedFetch(limits, spy.fetch)(MCP_URL);
  strictEqual(response.status, 404);
  await response.body?.cancel();
});

Deno.test("connectAgent() hands every option to the A2A client made, none refused", async () => {
  const seller = fakeA2AAgent({ skills: { get_products: () => ({ data: { products: [] } }) } });
  const agent = await connectAgent(new URL(seller.cardUrl).origin, {
    headers: { "x-buyer": "b1" },
    defaultLimits: { timeoutMs: 10_000 },
    agentLimits: { maxResponseBytes: 100_000, maxParts: 100 },
    fetch: seller.fetch,
    retry: { maxRetries: 1 },
    allowHttp: false,
    protocol: "a2a",
    cardLimits: { maxResponseBytes: 50_000 },
    mcp: { maxPages: 2 },
    a2a: { protocolVersion: "1.0", authHosts: [], allowedHosts: [], extensions: undefined },
  });
  strictEqual(agent.protocol, "a2a");
  // The agent's own requests carry only the keys the A2A client defines (no idempotencyKey).
  const result = await agent.call("get_products", { buying_mode: "brief", brief: "CTV" }, {
    idempotencyKey: true,
    wait: 5_000,
    limits: { timeoutMs: 5_000 },
  });
  strictEqual(result.kind, "success");
});

Deno.test("connectAgent() hands every option to the MCP client made, none refused", async () => {
  const fetch = fakeMcpAgent({
    tools: { get_products: () => adcpSuccessResult({ products: [] }) },
  });
  const agent = await connectAgent(MCP_URL, {
    defaultLimits: { maxTools: 10 },
    agentLimits: { maxEvents: 10 },
    fetch,
    retry: true,
    mcp: { maxPages: 2, maxReconnects: 1, protocolVersion: "2025-11-25" },
    a2a: { extensions: [] },
  });
  strictEqual(agent.protocol, "mcp");
  const result = await agent.call("get_products", { buying_mode: "brief", brief: "CTV" }, {
    idempotencyKey: true,
    mcpTask: { ttl: 60_000 },
  });
  strictEqual(result.kind, "success");
});

// ---- the table covers the public API ----

/** The interfaces and type aliases of `deno doc --json` of the entry points, by name. */
async function exportedOptionTypes(): Promise<Map<string, string[] | undefined>> {
  const entries = ["mod.ts", "agent/mod.ts", "mcp/mod.ts", "a2a/mod.ts", "read/mod.ts"]
    .map((path) => new URL(path, import.meta.url).pathname);
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", "--no-lock", ...entries],
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(output.success, true, new TextDecoder().decode(output.stderr));
  interface Declaration {
    readonly kind: string;
    readonly def?: {
      readonly properties?: readonly { readonly name: string }[];
      readonly extends?: readonly { readonly repr: string }[];
    };
  }
  const doc = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    nodes: Record<string, { symbols: { name: string; declarations: Declaration[] }[] }>;
  };
  const interfaces = new Map<string, Declaration["def"]>();
  const names = new Set<string>();
  for (const node of Object.values(doc.nodes)) {
    for (const symbol of node.symbols) {
      for (const declaration of symbol.declarations) {
        if (declaration.kind === "interface") interfaces.set(symbol.name, declaration.def);
        if (declaration.kind === "interface" || declaration.kind === "typeAlias") {
          names.add(symbol.name);
        }
      }
    }
  }
  // The keys of an interface, those of the interfaces it extends included.
  const keysOf = (name: string): string[] => {
    const def = interfaces.get(name);
    ok(def !== undefined, `no interface ${name} in deno doc`);
    return [
      ...(def.extends ?? []).flatMap((parent) => keysOf(parent.repr)),
      ...(def.properties ?? []).map((property) => property.name),
    ];
  };
  const found = new Map<string, string[] | undefined>();
  for (const name of names) {
    if (!/(Options|Limits)$/.test(name)) continue;
    found.set(name, interfaces.has(name) ? keysOf(name) : undefined);
  }
  return found;
}

Deno.test("the table has a row for every exported options and limits interface", async () => {
  const exported = await exportedOptionTypes();
  const missing = [...exported.keys()].filter((name) => !(name in ROWS) && !(name in SKIPPED));
  deepStrictEqual(missing, [], `no row for ${missing.join(", ")}`);
  // No row or skip is stale.
  // (testing/mod.ts is not re-exported by the root module: its names are listed for the record.)
  const stale = [...Object.keys(ROWS), ...Object.keys(SKIPPED)].filter(
    (name) => !exported.has(name) && !SKIPPED[name]?.startsWith("testing/mod.ts"),
  );
  deepStrictEqual(stale, []);
  // Each row lists every key of its interface, so that "every known key" means every key.
  for (const [name, row] of Object.entries(ROWS)) {
    const keys = exported.get(name);
    ok(keys !== undefined, `${name} is not an interface`);
    deepStrictEqual([...row.keys].sort(), [...new Set(keys)].sort(), name);
  }
});
