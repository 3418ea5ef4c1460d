// Every public function and constructor of @adcp-wire/transports that validates its arguments
// reports a bad one in the one option-error style of issue #14: `Cannot <action> as '<name>' must
// be <requirement>: current value is <value>`, a TypeError for a wrong type and a RangeError for a
// value out of range. Strings that may hold seller text or internal names are shown by size only.
//
// Cases marked NOT IN STYLE pin what the code does now for an error that does not follow the
// style; they are listed in the report of this test file and should be updated when fixed.
// The limit layers of a client are reported under the action of the call or constructor.
import fc from "fast-check";
import { deepStrictEqual, doesNotThrow, rejects, strictEqual, throws } from "node:assert/strict";
import {
  createSseBudget,
  parseBoundedJson,
  readJsonResponse,
  readSseEventBatches,
  readSseEvents,
  readStdioMessages,
  readTextResponse,
  resolveLimits,
  type ResponseLimits,
  SseBudget,
} from "./read/mod.ts";
import { boundedFetch } from "./read/mod.ts";
import { type McpCallOptions, McpClient, withIdempotencyKey } from "./mcp/mod.ts";
import {
  type A2ACallOptions,
  A2AClient,
  checkAuthChallenge,
  fetchAgentCard,
  FetchedAgentCard,
} from "./a2a/mod.ts";
import {
  adcpErrorResult,
  adcpFailedTask,
  adcpJsonRpcError,
  adcpSuccessResult,
  checkOutgoingAdcpError,
  forwardAdcpError,
  type OutgoingErrorOptions,
} from "./seller/mod.ts";
import { fakeA2AAgent, fakeMcpAgent } from "./testing/mod.ts";
import { createRetryPolicy } from "@adcp-wire/recovery";

/** The action of the option checks shared by the whole package. */
/** The action of the checks of every limit layer. */
const LIMITS = "Cannot resolve limits as ";
const TIMEOUT = "a number of milliseconds in (0, 2147483647]";
const COUNT = "a non-negative safe integer";
const CEILING = "at most 4194304 (the ceiling on a default; raise the limit per agent or per " +
  "call instead)";
const MCP_URL = "https://agent.example/mcp";
const ERROR = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient" } as const;

/** A fetch for clients whose calls must fail before any request. */
const noFetch = () => Promise.reject(new Error("no request expected in this test"));

/** The checks of one `ResponseLimits` layer named `layer`. */
function assertLayerErrors(layer: string, run: (limits: ResponseLimits) => unknown): void {
  throws(() => run(5 as never), {
    name: "TypeError",
    message: `${LIMITS}'${layer}' must be an object: current value is 5`,
  });
  throws(() => run({ maxResponseBytes: "1" as never }), {
    name: "TypeError",
    message: `${LIMITS}'${layer}.maxResponseBytes' must be a number: current value is "1"`,
  });
  throws(() => run({ maxResponseBytes: -1 }), {
    name: "RangeError",
    message: `${LIMITS}'${layer}.maxResponseBytes' must be ${COUNT}: current value is -1`,
  });
  throws(() => run({ maxDecodedBytes: 0.5 }), {
    name: "RangeError",
    message: `${LIMITS}'${layer}.maxDecodedBytes' must be ${COUNT}: current value is 0.5`,
  });
  throws(() => run({ timeoutMs: "30000" as never }), {
    name: "TypeError",
    message: `${LIMITS}'${layer}.timeoutMs' must be a number: current value is "30000"`,
  });
  throws(() => run({ timeoutMs: 0 }), {
    name: "RangeError",
    message: `${LIMITS}'${layer}.timeoutMs' must be ${TIMEOUT}: current value is 0`,
  });
  throws(() => run({ timeoutMs: 2 ** 31 }), {
    name: "RangeError",
    message: `${LIMITS}'${layer}.timeoutMs' must be ${TIMEOUT}: current value is 2147483648`,
  });
  throws(() => run({ timeoutMs: NaN }), {
    name: "RangeError",
    message: `${LIMITS}'${layer}.timeoutMs' must be ${TIMEOUT}: current value is NaN`,
  });
  throws(() => run({ maxJsonDepth: -1 }), {
    name: "RangeError",
    message: `${LIMITS}'${layer}.maxJsonDepth' must be ${COUNT}: current value is -1`,
  });
  throws(() => run({ maxJsonNodes: Infinity }), {
    name: "RangeError",
    message: `${LIMITS}'${layer}.maxJsonNodes' must be ${COUNT}: current value is Infinity`,
  });
  throws(() => run({ signal: "abort" as never }), {
    name: "TypeError",
    message: `${LIMITS}'${layer}.signal' must be an AbortSignal: current value is "abort"`,
  });
}

/**
 * The checks of the per-call options of a client method (`options`, `options.limits`); `action` is
 * the method's, under which its limit layers are reported.
 */
async function assertCallOptionErrors(
  action: string,
  run: (options: McpCallOptions & A2ACallOptions) => unknown,
): Promise<void> {
  const cannot = `Cannot ${action} as `;
  await rejects(async () => await run(5 as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is 5`,
  });
  await rejects(async () => await run({ limits: "tight" as never }), {
    name: "TypeError",
    message: `${cannot}'options.limits' must be an object: current value is "tight"`,
  });
  await rejects(async () => await run({ limits: { timeoutMs: -1 } }), {
    name: "RangeError",
    message: `${cannot}'options.limits.timeoutMs' must be ${TIMEOUT}: current value is -1`,
  });
  await rejects(async () => await run({ limits: { maxEvents: "9" as never } }), {
    name: "TypeError",
    message: `${cannot}'options.limits.maxEvents' must be a number: current value is "9"`,
  });
  await rejects(async () => await run({ limits: { maxDataPartBytes: 0 } }), {
    name: "RangeError",
    message: `${cannot}'options.limits.maxDataPartBytes' must be a positive safe integer: ` +
      "current value is 0",
  });
  await rejects(async () => await run({ limits: { signal: {} as never } }), {
    name: "TypeError",
    message: `${cannot}'options.limits.signal' must be an AbortSignal: current value is an object`,
  });
}

/** The checks of the client-wide limit layers of a client constructor. */
function assertClientLayerErrors(action: string, run: (options: object) => unknown): void {
  const cannot = `Cannot ${action} as `;
  throws(() => run({ defaultLimits: 5 }), {
    name: "TypeError",
    message: `${cannot}'options.defaultLimits' must be an object: current value is 5`,
  });
  throws(() => run({ agentLimits: [] }), {
    name: "TypeError",
    message: `${cannot}'options.agentLimits' must be an object: current value is an array`,
  });
  throws(() => run({ defaultLimits: { maxResponseBytes: 4_194_305 } }), {
    name: "RangeError",
    message: `${cannot}'options.defaultLimits.maxResponseBytes' must be ${CEILING}: ` +
      "current value is 4194305",
  });
  throws(() => run({ defaultLimits: { maxDecodedBytes: 5_000_000 } }), {
    name: "RangeError",
    message: `${cannot}'options.defaultLimits.maxDecodedBytes' must be ${CEILING}: ` +
      "current value is 5000000",
  });
  throws(() => run({ agentLimits: { maxTools: -1 } }), {
    name: "RangeError",
    message: `${cannot}'options.agentLimits.maxTools' must be ${COUNT}: current value is -1`,
  });
  throws(() => run({ agentLimits: { maxParts: "1" } }), {
    name: "TypeError",
    message: `${cannot}'options.agentLimits.maxParts' must be a number: current value is "1"`,
  });
  throws(() => run({ defaultLimits: { maxArtifacts: 1.5 } }), {
    name: "RangeError",
    message: `${cannot}'options.defaultLimits.maxArtifacts' must be ${COUNT}: ` +
      "current value is 1.5",
  });
}

/** The checks of the `headers` option: refused by kind or size, never echoing a header value. */
function assertHeadersErrors(action: string, run: (headers: unknown) => unknown): void {
  const cannot = `Cannot ${action} as 'options.headers' must be a HeadersInit (an object, an ` +
    "array of pairs or Headers): current value is ";
  throws(() => run("Bearer secret-token"), {
    name: "TypeError",
    message: `${cannot}"(19 characters, not shown)"`,
  });
  throws(() => run(5), { name: "TypeError", message: `${cannot}5` });
  throws(() => run(null), { name: "TypeError", message: `${cannot}null` });
  throws(() => run([["authorization"]]), { name: "TypeError", message: `${cannot}an array` });
  // An invalid header value is refused without the runtime's message, which would echo it.
  throws(() => run({ authorization: "Bearer secret\ntoken" }), {
    name: "TypeError",
    message: `${cannot}an object`,
  });
  throws(() => run({ "bad name": "x" }), { name: "TypeError", message: `${cannot}an object` });
}

/** The checks of the `retry` option, made when the client is created. */
function assertRetryErrors(action: string, run: (retry: unknown) => unknown): void {
  const cannot = `Cannot ${action} as `;
  throws(() => run("always"), {
    name: "TypeError",
    message: `${cannot}'options.retry' must be a boolean, a RetryPolicy or RetryPolicyOptions: ` +
      'current value is "always"',
  });
  throws(() => run(null), {
    name: "TypeError",
    message: `${cannot}'options.retry' must be a boolean, a RetryPolicy or RetryPolicyOptions: ` +
      "current value is null",
  });
  throws(() => run(3), {
    name: "TypeError",
    message: `${cannot}'options.retry' must be a boolean, a RetryPolicy or RetryPolicyOptions: ` +
      "current value is 3",
  });
  throws(() => run({ maxRetries: -1 }), {
    name: "RangeError",
    message: `${cannot}'options.retry.maxRetries' must be a non-negative safe integer: ` +
      "current value is -1",
  });
  throws(() => run({ jitter: "0.1" }), {
    name: "TypeError",
    message: `${cannot}'options.retry.jitter' must be a number >= 0 and < 1: ` +
      'current value is "0.1"',
  });
  throws(() => run({ sleep: 5 }), {
    name: "TypeError",
    message: `${cannot}'options.retry.sleep' must be a function: current value is 5`,
  });
  doesNotThrow(() => run(true));
  doesNotThrow(() => run(false));
  doesNotThrow(() => run({ maxRetries: 0 }));
  doesNotThrow(() => run(createRetryPolicy({ maxRetries: 1 })));
}

/** The checks of the options every outgoing-error helper takes. */
function assertOutgoingOptionErrors(
  action: string,
  run: (options: OutgoingErrorOptions) => unknown,
): void {
  const cannot = `Cannot ${action} as `;
  throws(() => run(5 as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is 5`,
  });
  throws(() => run(null as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is null`,
  });
  throws(() => run({ strict: "yes" as never }), {
    name: "TypeError",
    message: `${cannot}'options.strict' must be a boolean: current value is "yes"`,
  });
  throws(() => run({ onWarning: "log" as never }), {
    name: "TypeError",
    message: `${cannot}'options.onWarning' must be a function: current value is "log"`,
  });
  throws(() => run({ allowUnlistedCode: 1 as never }), {
    name: "TypeError",
    message: `${cannot}'options.allowUnlistedCode' must be a boolean: current value is 1`,
  });
  // Internal service names are never shown: a string is described by its size.
  throws(() => run({ internalServiceNames: "billing-db" as never }), {
    name: "TypeError",
    message: `${cannot}'options.internalServiceNames' must be an array of strings: ` +
      'current value is "(10 characters, not shown)"',
  });
  throws(() => run({ internalServiceNames: new Array(1025).fill("db") }), {
    name: "RangeError",
    message: `${cannot}'options.internalServiceNames.length' must be at most 1024: ` +
      "current value is 1025",
  });
  throws(() => run({ internalServiceNames: ["db", " "] }), {
    name: "TypeError",
    message: `${cannot}'options.internalServiceNames[1]' must be a non-empty string: ` +
      'current value is " "',
  });
  throws(() => run({ internalServiceNames: [7 as never] }), {
    name: "TypeError",
    message: `${cannot}'options.internalServiceNames[0]' must be a non-empty string: ` +
      "current value is 7",
  });
  throws(() => run({ internalServiceNames: ["x".repeat(257)] }), {
    name: "RangeError",
    message: `${cannot}'options.internalServiceNames[0].length' must be at most 256: ` +
      "current value is 257",
  });
}

/** The checks of a one-line human summary option named `name`. */
function assertSummaryErrors(action: string, name: string, run: (summary: string) => unknown) {
  const cannot = `Cannot ${action} as '${name}' must be `;
  throws(() => run(5 as never), {
    name: "TypeError",
    message: `${cannot}a non-empty string: current value is 5`,
  });
  throws(() => run("  "), {
    name: "TypeError",
    message: `${cannot}a non-empty string: current value is "  "`,
  });
  throws(() => run("first\nsecond"), {
    name: "TypeError",
    message: `${cannot}one line: current value is "(12 characters, not shown)"`,
  });
  // A summary over the byte limit is a string out of range.
  throws(() => run("é".repeat(129)), {
    name: "RangeError",
    message: `${cannot}at most 256 UTF-8 bytes: current value is "(258 UTF-8 bytes, not shown)"`,
  });
  throws(() => run('{"status":"failed"}'), {
    name: "TypeError",
    message: `${cannot}prose, not JSON text: current value is "(19 characters, not shown)"`,
  });
}

// ---- read/ ----

Deno.test("resolveLimits() reports every bad layer in the one option-error style", () => {
  throws(() => resolveLimits(5 as never), {
    name: "TypeError",
    message: `${LIMITS}'options' must be an object: current value is 5`,
  });
  assertLayerErrors("defaultLimits", (limits) => resolveLimits({ defaultLimits: limits }));
  assertLayerErrors("agentLimits", (limits) => resolveLimits({ agentLimits: limits }));
  assertLayerErrors("callLimits", (limits) => resolveLimits({ callLimits: limits }));
  throws(() => resolveLimits({ defaultLimits: { maxResponseBytes: 8_388_608 } }), {
    name: "RangeError",
    message: `${LIMITS}'defaultLimits.maxResponseBytes' must be ${CEILING}: ` +
      "current value is 8388608",
  });

  doesNotThrow(() => resolveLimits({ agentLimits: { maxResponseBytes: 16_777_216 } }));
});

Deno.test("boundedFetch() reports bad limits, onProgress or fetchImpl in the style", async () => {
  assertLayerErrors("limits", (limits) => boundedFetch(limits, noFetch));
  throws(() => boundedFetch({ onProgress: "log" as never }), {
    name: "TypeError",
    message: "Cannot create a bounded fetch as 'limits.onProgress' must be a function: " +
      'current value is "log"',
  });
  throws(() => boundedFetch({}, "fetch" as never), {
    name: "TypeError",
    message: "Cannot create a bounded fetch as 'fetchImpl' must be a function: " +
      'current value is "fetch"',
  });
  // What fetchImpl gives back is checked too; a string is shown by size only.
  const cannot = "Cannot fetch the response as 'fetchImpl(input, init)' must be a Response or " +
    "a promise of one: current value is ";
  await rejects(boundedFetch({}, () => Promise.resolve("hello" as never))(MCP_URL), {
    name: "TypeError",
    message: `${cannot}"(5 characters, not shown)"`,
  });
  await rejects(boundedFetch({}, () => Promise.resolve({ status: 200 } as never))(MCP_URL), {
    name: "TypeError",
    message: `${cannot}an object`,
  });
});

Deno.test("parseBoundedJson() reports a bad text or limits in the one option-error style", () => {
  throws(() => parseBoundedJson(new Uint8Array(2) as never), {
    name: "TypeError",
    message: "Cannot parse the JSON as 'text' must be a string: current value is an object",
  });
  throws(() => parseBoundedJson(null as never), {
    name: "TypeError",
    message: "Cannot parse the JSON as 'text' must be a string: current value is null",
  });
  // Only its own two bounds: another limit is not one of its options (refused as unknown).
  throws(() => parseBoundedJson("{}", 5 as never), {
    name: "TypeError",
    message: `${LIMITS}'options' must be an object: current value is 5`,
  });
  throws(() => parseBoundedJson("{}", { maxJsonDepth: -1 }), {
    name: "RangeError",
    message: `${LIMITS}'options.maxJsonDepth' must be ${COUNT}: current value is -1`,
  });
  throws(() => parseBoundedJson("{}", { maxJsonNodes: Infinity }), {
    name: "RangeError",
    message: `${LIMITS}'options.maxJsonNodes' must be ${COUNT}: current value is Infinity`,
  });
  throws(() => parseBoundedJson("{}", { maxJsonNodes: "9" as never }), {
    name: "TypeError",
    message: `${LIMITS}'options.maxJsonNodes' must be a number: current value is "9"`,
  });
});

/** The checks of a reader of a whole response: the response, its options and limits. */
async function assertResponseReaderErrors(
  run: (response: Response, options?: object) => Promise<unknown>,
): Promise<void> {
  const cannot = "Cannot read the response as ";
  await rejects(run("body" as never), {
    name: "TypeError",
    message: `${cannot}'response' must be a Response: current value is "(4 characters, not shown)"`,
  });
  await rejects(run(new Request(MCP_URL) as never), {
    name: "TypeError",
    message: `${cannot}'response' must be a Response: current value is an object`,
  });
  const used = new Response("{}");
  await used.text();
  await rejects(run(used), {
    name: "TypeError",
    message: `${cannot}'response.bodyUsed' must be false (a body can be read once): ` +
      "current value is true",
  });
  await rejects(run(new Response("{}"), { contentDecoding: "gzip" }), {
    name: "TypeError",
    message: `${cannot}'options.contentDecoding' must be "runtime" or "manual": ` +
      'current value is "gzip"',
  });
  await rejects(run(new Response("{}"), { onProgress: 1 }), {
    name: "TypeError",
    message: `${cannot}'options.onProgress' must be a function: current value is 1`,
  });
  await rejects(run(new Response("{}"), { timeoutMs: -5 }), {
    name: "RangeError",
    message: `${LIMITS}'options.timeoutMs' must be ${TIMEOUT}: current value is -5`,
  });
  await rejects(run(new Response("{}"), { maxResponseBytes: "4 MiB" }), {
    name: "TypeError",
    message: `${LIMITS}'options.maxResponseBytes' must be a number: current value is "4 MiB"`,
  });
  await rejects(run(new Response("{}"), 5 as never), {
    name: "TypeError",
    message: `${LIMITS}'options' must be an object: current value is 5`,
  });
}

Deno.test("readTextResponse() rejects a bad response or options in the one style", async () => {
  await assertResponseReaderErrors(readTextResponse);
});

Deno.test("readJsonResponse() rejects a bad response or options in the one style", async () => {
  await assertResponseReaderErrors(readJsonResponse);
});

Deno.test("new SseBudget() reports bad limits in the one option-error style", () => {
  assertLayerErrors("limits", (limits) => new SseBudget(limits));
});

Deno.test("createSseBudget() reports bad limits in the one option-error style", () => {
  assertLayerErrors("limits", (limits) => createSseBudget(limits));
});

Deno.test("SseBudget.charge() reports a bad byte count in the one option-error style", () => {
  const budget = createSseBudget({ maxResponseBytes: 10 });
  const cannot = "Cannot charge the SSE budget as 'bytes' must be a non-negative safe integer: ";
  throws(() => budget.charge(-1), { name: "RangeError", message: `${cannot}current value is -1` });
  throws(() => budget.charge(1.5), {
    name: "RangeError",
    message: `${cannot}current value is 1.5`,
  });
  throws(() => budget.charge("5" as never), {
    name: "TypeError",
    message: "Cannot charge the SSE budget as 'bytes' must be a number: current value is \"5\"",
  });
  strictEqual(budget.used, 0);
});

/** The checks of the SSE readers' arguments. */
function assertSseReaderErrors(run: (response: Response, options?: object) => unknown): void {
  const cannot = "Cannot read the response as ";
  const sse = () => new Response("", { headers: { "content-type": "text/event-stream" } });
  throws(() => run({} as never), {
    name: "TypeError",
    message: `${cannot}'response' must be a Response: current value is an object`,
  });
  throws(() => run(sse(), null as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is null`,
  });
  throws(() => run(sse(), { budget: { used: 0 } }), {
    name: "TypeError",
    message: `${cannot}'options.budget' must be an SseBudget: current value is an object`,
  });
  throws(() => run(sse(), { budget: createSseBudget(), limits: {} }), {
    name: "TypeError",
    message: `${cannot}'options.limits' must be undefined when 'options.budget' is set (pass ` +
      "the limits to createSseBudget): current value is an object",
  });
  throws(() => run(sse(), { contentDecoding: "identity" }), {
    name: "TypeError",
    message: `${cannot}'options.contentDecoding' must be "runtime" or "manual": ` +
      'current value is "identity"',
  });
  throws(() => run(sse(), { onProgress: {} }), {
    name: "TypeError",
    message: `${cannot}'options.onProgress' must be a function: current value is an object`,
  });
  // The name lacks its 'options.' prefix: the limits go to an SseBudget, whose layer is 'limits'.
  throws(() => run(sse(), { limits: { maxResponseBytes: -1 } }), {
    name: "RangeError",
    message: `${LIMITS}'limits.maxResponseBytes' must be ${COUNT}: current value is -1`,
  });
}

Deno.test("readSseEvents() reports a bad response or options in the one style", () => {
  assertSseReaderErrors(readSseEvents);
});

Deno.test("readSseEventBatches() reports a bad response or options in the one style", () => {
  assertSseReaderErrors(readSseEventBatches);
});

Deno.test("readStdioMessages() reports a bad stream or options in the one style", async () => {
  const cannot = "Cannot read the stdio messages as ";
  throws(() => readStdioMessages("line\n" as never), {
    name: "TypeError",
    message: `${cannot}'stream' must be a ReadableStream: current value is ` +
      '"(5 characters, not shown)"',
  });
  const locked = new ReadableStream<Uint8Array>();
  const reader = locked.getReader();
  throws(() => readStdioMessages(locked), {
    name: "TypeError",
    message: `${cannot}'stream.locked' must be false (a locked stream is another reader's): ` +
      "current value is true",
  });
  reader.releaseLock();
  assertLayerErrors("options", (limits) => readStdioMessages(new ReadableStream(), limits));
  throws(() => readStdioMessages(new ReadableStream(), { onProgress: true as never }), {
    name: "TypeError",
    message: `${cannot}'options.onProgress' must be a function: current value is true`,
  });
  // A chunk that is not bytes fails the iteration, and is shown by size only.
  const strings = new ReadableStream<string>({
    start(controller) {
      controller.enqueue("abc");
      controller.close();
    },
  });
  await rejects(
    async () => {
      for await (const _ of readStdioMessages(strings as never)) {
        // The first chunk fails.
      }
    },
    {
      name: "TypeError",
      message: `${cannot}'stream chunk' must be a Uint8Array: current value is ` +
        '"(3 characters, not shown)"',
    },
  );
});

// ---- mcp/ and the shared client helpers ----

Deno.test("new McpClient() reports a bad url or option in the one option-error style", () => {
  const cannot = "Cannot create an McpClient as ";
  const create = (options: object) => new McpClient(MCP_URL, options);
  throws(() => new McpClient("agent.example/mcp"), {
    name: "TypeError",
    message: `${cannot}'url' must be an absolute http: or https: URL: ` +
      'current value is "(17 characters, not shown)"',
  });
  // The value shown is the URL, cut as describe() cuts any string.
  throws(() => new McpClient("wss://agent.example/mcp"), {
    name: "TypeError",
    message: `${cannot}'url' must be an http: or https: URL: ` +
      'current value is "wss://agent.example/mcp"',
  });
  throws(() => new McpClient(`ftp://agent.example/${"x".repeat(40)}`), {
    name: "TypeError",
    message: `${cannot}'url' must be an http: or https: URL: ` +
      'current value is "ftp://agent.example/xxxxxxxxxxxx…"',
  });
  throws(() => new McpClient(new URL("wss://agent.example/")), {
    name: "TypeError",
    message:
      `${cannot}'url' must be an http: or https: URL: current value is "wss://agent.example/"`,
  });
  // A URL of the wrong type is shown by kind, not as String() makes it.
  throws(() => new McpClient(42 as never), {
    name: "TypeError",
    message: `${cannot}'url' must be an absolute http: or https: URL: current value is 42`,
  });
  throws(() => new McpClient({} as never), {
    name: "TypeError",
    message: `${cannot}'url' must be an absolute http: or https: URL: current value is an object`,
  });
  throws(() => new McpClient(MCP_URL, "options" as never), {
    name: "TypeError",
    message:
      `Cannot create an McpClient as 'options' must be an object: current value is "options"`,
  });
  assertClientLayerErrors("create an McpClient", create);
  throws(() => create({ fetch: "fetch" }), {
    name: "TypeError",
    message:
      `Cannot create an McpClient as 'options.fetch' must be a function: current value is "fetch"`,
  });
  throws(() => create({ protocolVersion: "" }), {
    name: "TypeError",
    message: `${cannot}'options.protocolVersion' must be a non-empty string: current value is ""`,
  });
  throws(() => create({ protocolVersion: 20251125 }), {
    name: "TypeError",
    message: `${cannot}'options.protocolVersion' must be a non-empty string: ` +
      "current value is 20251125",
  });
  throws(() => create({ clientInfo: { name: "app" } }), {
    name: "TypeError",
    message: `${cannot}'options.clientInfo' must be { name: string, version: string }: ` +
      "current value is an object",
  });
  throws(() => create({ maxPages: "100" }), {
    name: "TypeError",
    message:
      `Cannot create an McpClient as 'options.maxPages' must be ${COUNT}: current value is "100"`,
  });
  throws(() => create({ maxPages: -1 }), {
    name: "RangeError",
    message:
      `Cannot create an McpClient as 'options.maxPages' must be ${COUNT}: current value is -1`,
  });
  throws(() => create({ maxReconnects: 2.5 }), {
    name: "RangeError",
    message: `Cannot create an McpClient as 'options.maxReconnects' must be ${COUNT}: ` +
      "current value is 2.5",
  });
  throws(() => create({ onNotification: [] }), {
    name: "TypeError",
    message: "Cannot create an McpClient as 'options.onNotification' must be a function: " +
      "current value is an array",
  });
  // The retry and headers options are checked here, not at the first call.
  assertRetryErrors("create an McpClient", (retry) => create({ retry }));
  assertHeadersErrors("create an McpClient", (headers) => create({ headers }));
  doesNotThrow(() => create({}));
});

Deno.test("McpClient.connect() rejects bad call options in the one style", async () => {
  const client = new McpClient(MCP_URL, { fetch: noFetch });
  await assertCallOptionErrors("connect to the agent", (options) => client.connect(options));
});

Deno.test("McpClient.listTools() rejects bad call options in the one style", async () => {
  const client = new McpClient(MCP_URL, { fetch: noFetch });
  await assertCallOptionErrors("list the tools", (options) => client.listTools(options));
});

Deno.test("McpClient.callTool() reports a bad name, args or options in the one style", async () => {
  const client = new McpClient(MCP_URL, { fetch: noFetch });
  // Bad arguments reject the returned promise, as in every other method.
  await rejects(client.callTool("", {}), {
    name: "TypeError",
    message: "Cannot call the tool as 'name' must be a non-empty string: current value is \"\"",
  });
  await rejects(client.callTool(7 as never), {
    name: "TypeError",
    message: "Cannot call the tool as 'name' must be a non-empty string: current value is 7",
  });
  await rejects(client.callTool("get_products", [] as never), {
    name: "TypeError",
    message: "Cannot call the tool as 'args' must be an object: current value is an array",
  });
  await rejects(client.callTool("get_products", null as never), {
    name: "TypeError",
    message: "Cannot call the tool as 'args' must be an object: current value is null",
  });
  await assertCallOptionErrors(
    "call the tool",
    (options) => client.callTool("get_products", {}, options),
  );
  await rejects(client.callTool("get_products", {}, { idempotencyKey: 1 as never }), {
    name: "TypeError",
    message: "Cannot call the tool as 'options.idempotencyKey' must be a boolean or a string: " +
      "current value is 1",
  });
  // A given key is held to the schemas' pattern, under the call's action and option name.
  const pattern = "a string matching ^[A-Za-z0-9_.:-]{16,255}$";
  await rejects(client.callTool("get_products", {}, { idempotencyKey: "" }), {
    name: "TypeError",
    message: `Cannot call the tool as 'options.idempotencyKey' must be ${pattern}: ` +
      'current value is ""',
  });
  await rejects(client.callTool("get_products", { idempotency_key: 5 }, { idempotencyKey: true }), {
    name: "TypeError",
    message: `Cannot call the tool as 'args.idempotency_key' must be ${pattern}: ` +
      "current value is 5",
  });
});

Deno.test("McpClient.callTool() rejects its promise for a bad name, without a throw", async () => {
  const client = new McpClient(MCP_URL, { fetch: noFetch });
  let result: Promise<unknown> | undefined;
  doesNotThrow(() => {
    result = client.callTool(123 as never, {});
  });
  strictEqual(result instanceof Promise, true);
  await rejects(result!, {
    name: "TypeError",
    message: "Cannot call the tool as 'name' must be a non-empty string: current value is 123",
  });
});

Deno.test("McpClient.callToolAsTask() rejects a bad name, args or ttl in the style", async () => {
  const client = new McpClient(MCP_URL, { fetch: noFetch });
  await rejects(client.callToolAsTask(""), {
    name: "TypeError",
    message: "Cannot call the tool as 'name' must be a non-empty string: current value is \"\"",
  });
  await rejects(client.callToolAsTask("create_media_buy", "{}" as never), {
    name: "TypeError",
    message: "Cannot call the tool as 'args' must be an object: current value is \"{}\"",
  });
  await assertCallOptionErrors(
    "call the tool",
    (options) => client.callToolAsTask("create_media_buy", {}, options),
  );
  await rejects(client.callToolAsTask("create_media_buy", {}, { ttl: "60000" as never }), {
    name: "TypeError",
    message: `Cannot call the tool as 'options.ttl' must be ${COUNT}: current value is "60000"`,
  });
  await rejects(client.callToolAsTask("create_media_buy", {}, { ttl: -1 }), {
    name: "RangeError",
    message: `Cannot call the tool as 'options.ttl' must be ${COUNT}: current value is -1`,
  });
});

Deno.test("McpClient.getTask() rejects a bad taskId or options in the one style", async () => {
  const client = new McpClient(MCP_URL, { fetch: noFetch });
  await rejects(client.getTask(""), {
    name: "TypeError",
    message: "Cannot use the task as 'taskId' must be a non-empty string: current value is \"\"",
  });
  await rejects(client.getTask({ id: "t1" } as never), {
    name: "TypeError",
    message: "Cannot use the task as 'taskId' must be a non-empty string: " +
      "current value is an object",
  });
  await assertCallOptionErrors("use the task", (options) => client.getTask("t1", options));
});

Deno.test("McpClient.waitForTask() rejects a bad taskId, maxWaitMs or options", async () => {
  const client = new McpClient(MCP_URL, { fetch: noFetch });
  await rejects(client.waitForTask(undefined as never), {
    name: "TypeError",
    message: "Cannot use the task as 'taskId' must be a non-empty string: " +
      "current value is undefined",
  });
  await assertCallOptionErrors("use the task", (options) => client.waitForTask("t1", options));
  const cannot = "Cannot use the task as 'options.maxWaitMs' must be ";
  for (const value of [0, -1, NaN, Infinity, 2 ** 31]) {
    await rejects(client.waitForTask("t1", { maxWaitMs: value }), {
      name: "RangeError",
      message: `${cannot}${TIMEOUT}: current value is ${value}`,
    });
  }
  await rejects(client.waitForTask("t1", { maxWaitMs: "1000" as never }), {
    name: "TypeError",
    message: `${cannot}a number: current value is "1000"`,
  });
  await rejects(client.waitForTask("t1", { maxWaitMs: null as never }), {
    name: "TypeError",
    message: `${cannot}a number: current value is null`,
  });
});

Deno.test("McpClient.getTaskResult() rejects a bad taskId or options in the style", async () => {
  const client = new McpClient(MCP_URL, { fetch: noFetch });
  await rejects(client.getTaskResult(""), {
    name: "TypeError",
    message: "Cannot use the task as 'taskId' must be a non-empty string: current value is \"\"",
  });
  await assertCallOptionErrors("use the task", (options) => client.getTaskResult("t1", options));
});

Deno.test("McpClient.close() rejects bad call options before it drops the session", async () => {
  // A fake agent that opens a session, so that close() has a DELETE to send (answered 405).
  const agent = fakeMcpAgent({ tools: {} });
  const deleted: string[] = [];
  const withSession = async (input: string | URL | Request, init?: RequestInit) => {
    if (init?.method === "DELETE") {
      deleted.push(new Headers(init.headers).get("mcp-session-id") ?? "");
      return new Response(null, { status: 405 });
    }
    const response = await agent(input, init);
    const headers = new Headers(response.headers);
    headers.set("mcp-session-id", "session-1");
    return new Response(response.body, { status: response.status, headers });
  };
  const client = new McpClient(MCP_URL, { fetch: withSession });
  await client.connect();
  strictEqual(client.sessionId, "session-1");
  await rejects(client.close({ limits: 5 } as never), {
    name: "TypeError",
    message: `Cannot close the session as 'options.limits' must be an object: current value is 5`,
  });
  await rejects(client.close({ limits: { timeoutMs: 0 } }), {
    name: "RangeError",
    message: `Cannot close the session as 'options.limits.timeoutMs' must be ${TIMEOUT}: ` +
      "current value is 0",
  });
  // The refused close() kept the session and sent nothing; a good one then ends it.
  strictEqual(client.sessionId, "session-1");
  deepStrictEqual(deleted, []);
  await client.close();
  strictEqual(client.sessionId, undefined);
  deepStrictEqual(deleted, ["session-1"]);
  // Without a session the options are still checked.
  await rejects(client.close({ limits: 5 } as never), {
    name: "TypeError",
    message: `Cannot close the session as 'options.limits' must be an object: current value is 5`,
  });
});

Deno.test("withIdempotencyKey() reports bad args or key in the one option-error style", () => {
  const cannot = "Cannot add an idempotency key as ";
  const pattern = "a string matching ^[A-Za-z0-9_.:-]{16,255}$";
  throws(() => withIdempotencyKey(null as never), {
    name: "TypeError",
    message: `${cannot}'args' must be an object: current value is null`,
  });
  throws(() => withIdempotencyKey([] as never), {
    name: "TypeError",
    message: `${cannot}'args' must be an object: current value is an array`,
  });
  throws(() => withIdempotencyKey({ idempotency_key: "short" }), {
    name: "TypeError",
    message: `${cannot}'args.idempotency_key' must be ${pattern}: current value is "short"`,
  });
  throws(() => withIdempotencyKey({ idempotency_key: 12 }), {
    name: "TypeError",
    message: `${cannot}'args.idempotency_key' must be ${pattern}: current value is 12`,
  });
  throws(() => withIdempotencyKey({}, 5 as never), {
    name: "TypeError",
    message: `${cannot}'key' must be ${pattern}: current value is 5`,
  });
  // A given key is held to the same pattern as an existing one.
  throws(() => withIdempotencyKey({}, "short"), {
    name: "TypeError",
    message: `${cannot}'key' must be ${pattern}: current value is "short"`,
  });
  throws(() => withIdempotencyKey({}, ""), {
    name: "TypeError",
    message: `${cannot}'key' must be ${pattern}: current value is ""`,
  });
  throws(() => withIdempotencyKey({}, "order 7 of campaign 12"), {
    name: "TypeError",
    message: `${cannot}'key' must be ${pattern}: current value is "order 7 of campaign 12"`,
  });
  throws(() => withIdempotencyKey({}, "k".repeat(256)), {
    name: "TypeError",
    message: `${cannot}'key' must be ${pattern}: current value is "${"k".repeat(32)}…"`,
  });
  // Even when the arguments already have a key, so that a bad key is never silently accepted.
  throws(() => withIdempotencyKey({ idempotency_key: "order-7:campaign-12" }, "short"), {
    name: "TypeError",
    message: `${cannot}'key' must be ${pattern}: current value is "short"`,
  });
  strictEqual(withIdempotencyKey({}, "order-7:campaign-12").idempotency_key, "order-7:campaign-12");
  strictEqual(withIdempotencyKey({}, "k".repeat(255)).idempotency_key, "k".repeat(255));
});

Deno.test("checkAuthChallenge() reports bad options in the one option-error style", () => {
  const data = { challenge_url: "https://auth.seller.example/login" };
  const cannot = "Cannot check the auth challenge as ";
  throws(() => checkAuthChallenge(data, null as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is null`,
  });
  throws(() => checkAuthChallenge(data, undefined as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is undefined`,
  });
  throws(() => checkAuthChallenge(data, {} as never), {
    name: "TypeError",
    message:
      `${cannot}'options.allowedHosts' must be an array of hosts: current value is undefined`,
  });
  throws(() => checkAuthChallenge(data, { allowedHosts: "auth.seller.example" as never }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts' must be an array of hosts: ` +
      'current value is "auth.seller.example"',
  });
  // A bad entry is reported by validateSellerUrl of @adcp-wire/security, in the style.
  throws(() => checkAuthChallenge(data, { allowedHosts: ["https://auth.seller.example"] }), {
    name: "TypeError",
    message: "Cannot validate a seller URL as 'options.allowedHosts[0]' must be a host, " +
      "host:port or *.domain pattern (empty, or contains a scheme, path, userinfo, wildcard " +
      'or whitespace): current value is "https://auth.seller.example"',
  });
});

// ---- a2a/ ----

Deno.test("new A2AClient() reports a bad option in the one option-error style", () => {
  const agent = fakeA2AAgent({ skills: {} });
  const cannot = "Cannot create an A2AClient as ";
  const create = (options: object) =>
    new A2AClient(agent.card, { cardUrl: agent.cardUrl, ...options });
  throws(() => new A2AClient(agent.card, 5 as never), {
    name: "TypeError",
    message: `Cannot create an A2AClient as 'options' must be an object: current value is 5`,
  });
  // The card URL is reported under the option's own name, and shown.
  throws(() => create({ cardUrl: "ftp://agent.example/card.json" }), {
    name: "TypeError",
    message: `${cannot}'options.cardUrl' must be an http: or https: URL: ` +
      'current value is "ftp://agent.example/card.json"',
  });
  throws(() => create({ cardUrl: 7 }), {
    name: "TypeError",
    message: `${cannot}'options.cardUrl' must be an absolute http: or https: URL: ` +
      "current value is 7",
  });
  throws(() => create({ allowHttp: "yes" }), {
    name: "TypeError",
    message:
      `Cannot create an A2AClient as 'options.allowHttp' must be a boolean: current value is "yes"`,
  });
  throws(() => create({ allowReservedAddresses: 1 }), {
    name: "TypeError",
    message: "Cannot create an A2AClient as 'options.allowReservedAddresses' must be a boolean: " +
      "current value is 1",
  });
  assertClientLayerErrors("create an A2AClient", create);
  throws(() => create({ protocolVersion: "2.0" }), {
    name: "TypeError",
    message: `${cannot}'options.protocolVersion' must be "1.0" or "0.3": current value is "2.0"`,
  });
  throws(() => create({ extensions: "https://x.example/ext" }), {
    name: "TypeError",
    message: `${cannot}'options.extensions' must be an array of absolute URIs: ` +
      'current value is "https://x.example/ext"',
  });
  throws(() => create({ extensions: ["not a uri"] }), {
    name: "TypeError",
    message: `${cannot}'options.extensions' must be an array of absolute URIs: ` +
      "current value is an array",
  });
  throws(() => create({ authHosts: "auth.example" }), {
    name: "TypeError",
    message: `${cannot}'options.authHosts' must be an array of hosts: ` +
      'current value is "auth.example"',
  });
  throws(() => create({ authHosts: ["auth.example", "https://auth.example"] }), {
    name: "TypeError",
    message: `${cannot}'options.authHosts[1]' must be a host: ` +
      'current value is "https://auth.example"',
  });
  throws(() => create({ fetch: {} }), {
    name: "TypeError",
    message: "Cannot create an A2AClient as 'options.fetch' must be a function: " +
      "current value is an object",
  });
  throws(() => create({ allowedHosts: "agent.example" }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts' must be an array of hosts: ` +
      'current value is "agent.example"',
  });
  throws(() => create({ allowedHosts: ["agent.example", "a/b"] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts[1]' must be a host, host:port or *.domain pattern: ` +
      'current value is "a/b"',
  });
  throws(() => create({ allowedHosts: [443] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts[0]' must be a host, host:port or *.domain pattern: ` +
      "current value is 443",
  });
  throws(() => create({ allowedHosts: ["agent.example:70000"] }), {
    name: "TypeError",
    message: `${cannot}'options.allowedHosts[0]' must be a host, host:port or *.domain pattern: ` +
      'current value is "agent.example:70000"',
  });
  // The retry and headers options are checked here, not at the first call.
  assertRetryErrors("create an A2AClient", (retry) => create({ retry }));
  assertHeadersErrors("create an A2AClient", (headers) => create({ headers }));
  doesNotThrow(() => create({}));
});

Deno.test("A2AClient.invocation() reports a bad skill, input or options in the one style", () => {
  const agent = fakeA2AAgent({ skills: {} });
  const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: agent.fetch });
  const cannot = "Cannot build the invocation as ";
  throws(() => client.invocation("", {}), {
    name: "TypeError",
    message: `${cannot}'skill' must be a non-empty string: current value is ""`,
  });
  throws(() => client.invocation(["get_products"] as never, {}), {
    name: "TypeError",
    message: `${cannot}'skill' must be a non-empty string: current value is an array`,
  });
  throws(() => client.invocation("get_products", "brief" as never), {
    name: "TypeError",
    message: `${cannot}'input' must be an object: current value is "brief"`,
  });
  throws(() => client.invocation("get_products", {}, 1 as never), {
    name: "TypeError",
    message: `Cannot build the invocation as 'options' must be an object: current value is 1`,
  });
  throws(() => client.invocation("get_products", {}, { idempotencyKey: null as never }), {
    name: "TypeError",
    message: `${cannot}'options.idempotencyKey' must be a boolean or a string: ` +
      "current value is null",
  });
  const pattern = "a string matching ^[A-Za-z0-9_.:-]{16,255}$";
  throws(() => client.invocation("get_products", {}, { idempotencyKey: "key-1" }), {
    name: "TypeError",
    message: `${cannot}'options.idempotencyKey' must be ${pattern}: current value is "key-1"`,
  });
  // A key already in the input is named as the input's.
  throws(
    () => client.invocation("get_products", { idempotency_key: "x" }, { idempotencyKey: true }),
    {
      name: "TypeError",
      message: `${cannot}'input.idempotency_key' must be ${pattern}: current value is "x"`,
    },
  );
});

/** The checks of the per-call options of an A2A method, `expectedDataParts` included. */
async function assertA2ACallOptionErrors(
  action: string,
  run: (options: A2ACallOptions) => unknown,
): Promise<void> {
  await assertCallOptionErrors(action, run);
  await rejects(async () => await run({ expectedDataParts: "1" as never }), {
    name: "TypeError",
    message:
      `Cannot ${action} as 'options.expectedDataParts' must be ${COUNT}: current value is "1"`,
  });
  await rejects(async () => await run({ expectedDataParts: -1 }), {
    name: "RangeError",
    message:
      `Cannot ${action} as 'options.expectedDataParts' must be ${COUNT}: current value is -1`,
  });
}

Deno.test("A2AClient.sendMessage() reports a bad message or options in the one style", async () => {
  const agent = fakeA2AAgent({ skills: {} });
  const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: noFetch });
  // Bad arguments reject the returned promise, as in every other method.
  await rejects(client.sendMessage(null as never), {
    name: "TypeError",
    message: "Cannot send the message as 'message' must be an object: current value is null",
  });
  await rejects(client.sendMessage([] as never), {
    name: "TypeError",
    message: "Cannot send the message as 'message' must be an object: current value is an array",
  });
  const message = client.invocation("get_products", {});
  await assertA2ACallOptionErrors(
    "send the message",
    (options) => client.sendMessage(message, options),
  );
});

Deno.test("A2AClient.sendStreamingMessage() reports a bad message or options", async () => {
  const agent = fakeA2AAgent({ skills: {} });
  const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: noFetch });
  await rejects(client.sendStreamingMessage("hello" as never), {
    name: "TypeError",
    message: "Cannot send the message as 'message' must be an object: current value is \"hello\"",
  });
  const message = client.invocation("get_products", {});
  await assertA2ACallOptionErrors(
    "send the message",
    (options) => client.sendStreamingMessage(message, options),
  );
  await rejects(client.sendStreamingMessage(message, { onEvent: "log" as never }), {
    name: "TypeError",
    message:
      `Cannot send the message as 'options.onEvent' must be a function: current value is "log"`,
  });
});

Deno.test("A2AClient.getTask() reports a bad taskId or options in the one style", async () => {
  const agent = fakeA2AAgent({ skills: {} });
  const client = new A2AClient(agent.card, { cardUrl: agent.cardUrl, fetch: noFetch });
  await rejects(client.getTask(""), {
    name: "TypeError",
    message: "Cannot get the task as 'taskId' must be a non-empty string: current value is \"\"",
  });
  await rejects(client.getTask(12 as never), {
    name: "TypeError",
    message: "Cannot get the task as 'taskId' must be a non-empty string: current value is 12",
  });
  await assertA2ACallOptionErrors("get the task", (options) => client.getTask("task-1", options));
});

Deno.test("fetchAgentCard() rejects a bad url or options in the one style", async () => {
  const url = "https://agent.example/.well-known/agent-card.json";
  const cannot = "Cannot fetch the agent card as ";
  await rejects(fetchAgentCard("agent.example"), {
    name: "TypeError",
    message: `${cannot}'url' must be an absolute http: or https: URL: ` +
      'current value is "(13 characters, not shown)"',
  });
  await rejects(fetchAgentCard("file:///etc/passwd"), {
    name: "TypeError",
    message: `${cannot}'url' must be an http: or https: URL: current value is "file:///etc/passwd"`,
  });
  await rejects(fetchAgentCard(undefined as never), {
    name: "TypeError",
    message: `${cannot}'url' must be an absolute http: or https: URL: current value is undefined`,
  });
  await rejects(fetchAgentCard(url, null as never), {
    name: "TypeError",
    message: `Cannot fetch the agent card as 'options' must be an object: current value is null`,
  });
  await rejects(fetchAgentCard(url, { limits: 5 as never }), {
    name: "TypeError",
    message:
      `Cannot fetch the agent card as 'options.limits' must be an object: current value is 5`,
  });
  await rejects(fetchAgentCard(url, { fetch: "fetch" as never }), {
    name: "TypeError",
    message:
      `Cannot fetch the agent card as 'options.fetch' must be a function: current value is "fetch"`,
  });
  await rejects(fetchAgentCard(url, { fetch: noFetch, limits: { timeoutMs: Infinity } }), {
    name: "RangeError",
    message: `${cannot}'options.limits.timeoutMs' must be ${TIMEOUT}: current value is Infinity`,
  });
  await rejects(fetchAgentCard(url, { fetch: noFetch, limits: { maxJsonNodes: -2 } }), {
    name: "RangeError",
    message: `${cannot}'options.limits.maxJsonNodes' must be ${COUNT}: current value is -2`,
  });
  // A bad headers option never shows a header value.
  const headers = `${cannot}'options.headers' must be a HeadersInit (an object, an array of ` +
    "pairs or Headers): current value is ";
  await rejects(fetchAgentCard(url, { fetch: noFetch, headers: "x-api-key: k" as never }), {
    name: "TypeError",
    message: `${headers}"(12 characters, not shown)"`,
  });
  await rejects(fetchAgentCard(url, { fetch: noFetch, headers: { "x-api-key": "k\nv" } }), {
    name: "TypeError",
    message: `${headers}an object`,
  });
});

Deno.test("new FetchedAgentCard() reports a bad card or url in the one style", () => {
  const cannot = "Cannot create a FetchedAgentCard as ";
  throws(() => new FetchedAgentCard([] as never, "https://agent.example/card.json"), {
    name: "TypeError",
    message: `${cannot}'card' must be an object: current value is an array`,
  });
  throws(() => new FetchedAgentCard(null as never, "https://agent.example/card.json"), {
    name: "TypeError",
    message: `${cannot}'card' must be an object: current value is null`,
  });
  throws(() => new FetchedAgentCard({}, "/card.json"), {
    name: "TypeError",
    message: `${cannot}'url' must be an absolute http: or https: URL: ` +
      'current value is "(10 characters, not shown)"',
  });
  throws(() => new FetchedAgentCard({}, "data:text/plain,card"), {
    name: "TypeError",
    message: `${cannot}'url' must be an http: or https: URL: current value is ` +
      '"data:text/plain,card"',
  });
  throws(() => new FetchedAgentCard({}, {} as never), {
    name: "TypeError",
    message: `${cannot}'url' must be an absolute http: or https: URL: current value is an object`,
  });
});

// ---- seller/ ----

Deno.test("adcpErrorResult() reports bad options in the one option-error style", () => {
  const cannot = "Cannot build the error result as ";
  assertOutgoingOptionErrors(
    "build the error result",
    (options) => adcpErrorResult(ERROR, options),
  );
  assertSummaryErrors(
    "build the error result",
    "options.summary",
    (summary) => adcpErrorResult(ERROR, { summary }),
  );
  throws(
    () => adcpErrorResult(ERROR, { strict: true, summary: "see /etc/passwd on 10.0.0.1" }),
    {
      name: "TypeError",
      message: `${cannot}'options.summary' must be free of file_path, ip_address (strict mode): ` +
        'current value is "(27 characters, not shown)"',
    },
  );
  throws(() => adcpErrorResult(ERROR, { payload: "yes" as never }), {
    name: "TypeError",
    message: `${cannot}'options.payload' must be a boolean or a plain object: ` +
      'current value is "(3 characters, not shown)"',
  });
  throws(() => adcpErrorResult(ERROR, { payload: { adcp_error: ERROR } }), {
    name: "TypeError",
    message: `${cannot}'options.payload' must be an object with no adcp_error key (the helper ` +
      "sets the envelope): current value is an object",
  });
  throws(() => adcpErrorResult(ERROR, { payload: { status: "completed" } }), {
    name: "TypeError",
    message: `${cannot}'options.payload.status' must be "failed" (adcp_error marks a failed ` +
      'task): current value is "(9 characters, not shown)"',
  });
  throws(() => adcpErrorResult(ERROR, { payload: { errors: [] } }), {
    name: "TypeError",
    message: `${cannot}'options.payload.errors' must be a non-empty array: ` +
      "current value is an array",
  });
  const other = { code: "SERVICE_UNAVAILABLE", message: "Down", recovery: "transient" };
  throws(() => adcpErrorResult(ERROR, { payload: { errors: [other] } }), {
    name: "TypeError",
    message: `${cannot}'options.payload.errors[0].code' must be the code of error, ` +
      '"RATE_LIMITED" (the transport and payload layers must agree): current value is ' +
      '"SERVICE_UNAVAILABLE"',
  });
  throws(() => adcpErrorResult(ERROR, { payload: { big: 1n } }), {
    name: "TypeError",
    message: `${cannot}'options.payload' must be a value that serializes as JSON: ` +
      "current value is an object",
  });
  // NOT IN STYLE (reported): a bad error is refused with the first issue of
  // checkOutgoingAdcpError, `Expected <field> to be ..., got <value>`, and a payload error
  // wraps that message.
  throws(() => adcpErrorResult("RATE_LIMITED"), {
    name: "TypeError",
    message: 'Expected error to be an object, got "(12 characters, not shown)"',
  });
  throws(() => adcpErrorResult({ ...ERROR, retry_after: "soon" }), {
    name: "TypeError",
    message: "Expected retry_after to be a finite number of seconds, got " +
      '"(4 characters, not shown)"',
  });
  throws(() => adcpErrorResult({ ...ERROR, details: { blob: "x".repeat(5000) } }), {
    name: "RangeError",
    message: "Expected the error to serialize to at most 4096 UTF-8 bytes, got more",
  });
  throws(() => adcpErrorResult(ERROR, { payload: { errors: ["bad"] } }), {
    name: "TypeError",
    message: `${cannot}'options.payload.errors[0]' must be a sendable AdCP error (Expected ` +
      'error to be an object, got "(3 characters, not shown)"): ' +
      'current value is "(3 characters, not shown)"',
  });
});

Deno.test("adcpFailedTask() reports bad ids or options in the one option-error style", () => {
  const cannot = "Cannot build the failed task as ";
  const ids = { id: "task-1", contextId: "context-1" };
  throws(() => adcpFailedTask(null as never, ERROR), {
    name: "TypeError",
    message: `${cannot}'ids' must be an object: current value is null`,
  });
  throws(() => adcpFailedTask({ id: "", contextId: "c" }, ERROR), {
    name: "TypeError",
    message: `${cannot}'ids.id' must be a non-empty string: current value is ""`,
  });
  throws(() => adcpFailedTask({ id: "t", contextId: 5 } as never, ERROR), {
    name: "TypeError",
    message: `${cannot}'ids.contextId' must be a non-empty string: current value is 5`,
  });
  assertOutgoingOptionErrors(
    "build the failed task",
    (options) => adcpFailedTask(ids, ERROR, options),
  );
  throws(() => adcpFailedTask(ids, ERROR, { protocolVersion: "1" as never }), {
    name: "TypeError",
    message: `${cannot}'options.protocolVersion' must be "1.0" or "0.3": current value is "1"`,
  });
  throws(() => adcpFailedTask(ids, ERROR, { timestamp: "yesterday" }), {
    name: "TypeError",
    message: `${cannot}'options.timestamp' must be an ISO 8601 date-time: ` +
      'current value is "yesterday"',
  });
  throws(() => adcpFailedTask(ids, ERROR, { timestamp: 0 as never }), {
    name: "TypeError",
    message: `${cannot}'options.timestamp' must be an ISO 8601 date-time: current value is 0`,
  });
  throws(() => adcpFailedTask(ids, ERROR, { artifactId: "" }), {
    name: "TypeError",
    message: `${cannot}'options.artifactId' must be a non-empty string: current value is ""`,
  });
  throws(() => adcpFailedTask(ids, ERROR, { mimeType: "application/json" as never }), {
    name: "TypeError",
    message: `${cannot}'options.mimeType' must be a boolean: current value is "application/json"`,
  });
  assertSummaryErrors(
    "build the failed task",
    "options.summary",
    (summary) => adcpFailedTask(ids, ERROR, { summary }),
  );
  throws(() => adcpFailedTask(ids, ERROR, { payload: 1 as never }), {
    name: "TypeError",
    message: `${cannot}'options.payload' must be a boolean or a plain object: current value is 1`,
  });
});

Deno.test("adcpJsonRpcError() reports a bad code or options in the one option-error style", () => {
  const cannot = "Cannot build the JSON-RPC error as ";
  const codes = "RATE_LIMITED, AUTH_MISSING (or AUTH_REQUIRED) or SERVICE_UNAVAILABLE (send " +
    "any other code by the tool-level path)";
  assertOutgoingOptionErrors(
    "build the JSON-RPC error",
    (options) => adcpJsonRpcError(ERROR, options),
  );
  throws(() => adcpJsonRpcError({ ...ERROR, code: "BUDGET_TOO_LOW" }), {
    name: "TypeError",
    message: `${cannot}'error.code' must be ${codes}: current value is "BUDGET_TOO_LOW"`,
  });
  throws(() => adcpJsonRpcError(null), {
    name: "TypeError",
    message: `${cannot}'error.code' must be ${codes}: current value is undefined`,
  });
  throws(() => adcpJsonRpcError({ code: "toString" }), {
    name: "TypeError",
    message: `${cannot}'error.code' must be ${codes}: current value is "toString"`,
  });
  assertSummaryErrors(
    "build the JSON-RPC error",
    "options.message",
    (message) => adcpJsonRpcError(ERROR, { message }),
  );
});

Deno.test("adcpSuccessResult() reports bad data, summary or options in the one style", () => {
  const cannot = "Cannot build the success result as ";
  throws(() => adcpSuccessResult({}, undefined, 5 as never), {
    name: "TypeError",
    message: `${cannot}'options' must be an object: current value is 5`,
  });
  throws(() => adcpSuccessResult({}, undefined, { onWarning: true as never }), {
    name: "TypeError",
    message: `${cannot}'options.onWarning' must be a function: current value is true`,
  });
  throws(() => adcpSuccessResult([] as never), {
    name: "TypeError",
    message: `${cannot}'data' must be a plain object: current value is an array`,
  });
  throws(() => adcpSuccessResult('{"ok":true}' as never), {
    name: "TypeError",
    message: `${cannot}'data' must be a plain object: current value is ` +
      '"(11 characters, not shown)"',
  });
  throws(() => adcpSuccessResult(new Date(0) as never), {
    name: "TypeError",
    message: `${cannot}'data' must be a plain object: current value is an object`,
  });
  throws(() => adcpSuccessResult({ adcp_error: ERROR }), {
    name: "TypeError",
    message: `${cannot}'data' must be a success payload, with no adcp_error key (send errors ` +
      "with adcpErrorResult): current value is an object",
  });
  throws(() => adcpSuccessResult({ big: 1n }), {
    name: "TypeError",
    message: `${cannot}'data' must be a value that serializes as JSON: current value is an object`,
  });
  assertSummaryErrors(
    "build the success result",
    "summary",
    (summary) => adcpSuccessResult({}, summary),
  );
});

Deno.test("checkOutgoingAdcpError() reports bad options in the one option-error style", () => {
  assertOutgoingOptionErrors(
    "check the outgoing error",
    (options) => checkOutgoingAdcpError(ERROR, options),
  );
  // A bad error is a result, not a throw.
  strictEqual(checkOutgoingAdcpError("RATE_LIMITED").valid, false);
});

Deno.test("forwardAdcpError() reports an upstream that is no AdCP error in the one style", () => {
  const cannot = "Cannot forward the error as 'upstream' must be an AdCP error (an object whose " +
    "code is a string of 1 to 64 characters, at most 4096 serialized UTF-8 bytes): " +
    "current value is ";
  throws(() => forwardAdcpError(null), { name: "TypeError", message: `${cannot}null` });
  throws(() => forwardAdcpError({ code: "" }), {
    name: "TypeError",
    message: `${cannot}an object`,
  });
  throws(() => forwardAdcpError([ERROR]), { name: "TypeError", message: `${cannot}an array` });
  throws(() => forwardAdcpError("RATE_LIMITED"), {
    name: "TypeError",
    message: `${cannot}"(12 characters, not shown)"`,
  });
  throws(() => forwardAdcpError({ code: "X".repeat(65) }), {
    name: "TypeError",
    message: `${cannot}an object`,
  });
});

Deno.test("the seller helpers never show a bad string option, only its size", () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 300 }), (secret) => {
      const size = `${secret.length} character${secret.length === 1 ? "" : "s"}`;
      throws(() => adcpErrorResult(ERROR, { internalServiceNames: secret as never }), {
        name: "TypeError",
        message: "Cannot build the error result as 'options.internalServiceNames' must be an " +
          `array of strings: current value is "(${size}, not shown)"`,
      });
      throws(() => forwardAdcpError(secret), {
        name: "TypeError",
        message: "Cannot forward the error as 'upstream' must be an AdCP error (an object whose " +
          "code is a string of 1 to 64 characters, at most 4096 serialized UTF-8 bytes): " +
          `current value is "(${size}, not shown)"`,
      });
    }),
    { numRuns: 200 },
  );
});

Deno.test("a refused client URL never shows its userinfo, query or fragment", () => {
  throws(() => new McpClient("wss://user:secret@agent.example/mcp?api_key=k1#t"), {
    name: "TypeError",
    message: "Cannot create an McpClient as 'url' must be an http: or https: URL: current value " +
      'is "wss://agent.example/mcp"',
  });
  throws(() => new McpClient("not a url with token=abc"), {
    name: "TypeError",
    message: "Cannot create an McpClient as 'url' must be an absolute http: or https: URL: " +
      'current value is "(24 characters, not shown)"',
  });
});

// ---- limit layers are read once ----

Deno.test("limit layers are read once: changing the objects later changes no call", async () => {
  const mcpAgent = fakeMcpAgent({
    tools: { get_products: () => adcpSuccessResult({ products: ["p1"] }) },
  });
  const a2aAgent = fakeA2AAgent({
    skills: { get_products: () => ({ data: { products: ["p1"] } }) },
  });
  const defaultLimits = { maxResponseBytes: 100_000 };
  const agentLimits = { maxJsonDepth: 64 };
  const mcp = new McpClient(MCP_URL, { fetch: mcpAgent, defaultLimits, agentLimits });
  const a2a = new A2AClient(a2aAgent.card, {
    cardUrl: a2aAgent.cardUrl,
    fetch: a2aAgent.fetch,
    defaultLimits,
    agentLimits,
  });
  // Tightened after construction: a body of 10 bytes or a depth of 1 would refuse every answer.
  defaultLimits.maxResponseBytes = 10;
  agentLimits.maxJsonDepth = 1;
  for (const options of [undefined, { limits: { timeoutMs: 5_000 } }]) {
    const called = await mcp.callTool("get_products", {}, options);
    strictEqual(called.kind, "success", JSON.stringify(called).slice(0, 300));
    const sent = await a2a.sendMessage(a2a.invocation("get_products", {}), options);
    strictEqual(sent.kind, "success", JSON.stringify(sent).slice(0, 300));
  }
  // A call's own limits still apply on top of the layers read at construction.
  await rejects(mcp.callTool("get_products", {}, { limits: { maxResponseBytes: 10 } }), {
    code: "RESPONSE_TOO_LARGE",
  });
  await rejects(
    a2a.sendMessage(a2a.invocation("get_products", {}), { limits: { maxJsonDepth: 1 } }),
    { code: "JSON_DEPTH_LIMIT" },
  );
});
