// Every public options object of @adcp-wire/core refuses an own key it does not know (a misspelled
// or misplaced option would otherwise pass silently, its limit left at the default), in the one
// option-error style with the nearest known option, before the input is looked at.
import { everyKey, exportedOptionTypes, outcome } from "adcp-testkit";
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  type A2AExtractOptions,
  detectAdcpError,
  extractAdcpErrorFromMcp,
  extractAdcpResponseFromA2A,
  extractAdcpResponseFromMcp,
  extractAdcpResponseFromWebhook,
  handleA2AResponse,
  handleMcpResponse,
  type McpExtractOptions,
} from "./mod.ts";

const MCP = "Cannot extract from an MCP tool result as ";
const A2A = "Cannot extract from an A2A response as ";

/** A tool result every MCP function accepts. */
const TOOL_RESULT = { structuredContent: { media_buy_id: "mb_1" } };
/** A completed task every A2A function accepts. */
const TASK = {
  id: "t1",
  status: { state: "completed" },
  artifacts: [{ parts: [{ kind: "data", data: { media_buy_id: "mb_1" } }] }],
};
/** An MCP webhook payload. */
const MCP_PUSH = { task_id: "t1", status: "completed", result: { ok: true } };

/**
 * An input whose every property read is counted: a refused call must not look at it (options are
 * checked before the input).
 */
class Probe {
  reads = 0;
  readonly input: object = new Proxy({}, {
    get: () => {
      this.reads++;
      return undefined;
    },
    has: () => {
      this.reads++;
      return false;
    },
    ownKeys: () => {
      this.reads++;
      return [];
    },
  });
}

const MCP_FUNCTIONS = {
  detectAdcpError,
  extractAdcpErrorFromMcp,
  extractAdcpResponseFromMcp,
  handleMcpResponse,
} as const;
const A2A_FUNCTIONS = {
  extractAdcpResponseFromA2A,
  handleA2AResponse,
  "extractAdcpResponseFromWebhook (a2a)": (input: unknown, options?: A2AExtractOptions) =>
    extractAdcpResponseFromWebhook(input, "a2a", options),
} as const;

/** A call that must be refused, and its exact message. */
type Case = readonly [call: (probe: Probe) => unknown, message: string];

interface Row {
  /** Calls with a misspelled or misplaced key, one per function that reads the options. */
  readonly refused: readonly Case[];
  /** Calls passing every known key of the interface as `undefined`. */
  readonly everyKey: readonly (() => unknown)[];
}

const ALL_MCP = everyKey<McpExtractOptions>({
  maxResponseBytes: undefined,
  sourceTextBytes: undefined,
});
const ALL_A2A = everyKey<A2AExtractOptions>({
  maxDataPartBytes: undefined,
  expectedDataParts: undefined,
  sourceJsonBytes: undefined,
});

/** One row per public options or limits interface of the entry point. */
const ROWS: Readonly<Record<string, Row>> = {
  McpExtractOptions: {
    refused: Object.values(MCP_FUNCTIONS).map((run): Case => [
      (p) => run(p.input, { maxResponseByte: 5 } as McpExtractOptions),
      `${MCP}'options.maxResponseByte' must be a known option (the nearest is ` +
      "'options.maxResponseBytes'): current value is 5",
    ]),
    everyKey: Object.values(MCP_FUNCTIONS).map((run) => () => run(TOOL_RESULT, ALL_MCP)),
  },
  A2AExtractOptions: {
    refused: [
      ...Object.values(A2A_FUNCTIONS).map((run): Case => [
        (p) => run(p.input, { expectedDataPart: 1 } as A2AExtractOptions),
        `${A2A}'options.expectedDataPart' must be a known option (the nearest is ` +
        "'options.expectedDataParts'): current value is 1",
      ]),
      // An MCP push does not read the A2A options, but a misspelled one is refused all the same.
      [
        (p) => extractAdcpResponseFromWebhook(p.input, "mcp", { maxDataPartByte: 1 } as never),
        `${A2A}'options.maxDataPartByte' must be a known option (the nearest is ` +
        "'options.maxDataPartBytes'): current value is 1",
      ],
    ],
    everyKey: [
      ...Object.values(A2A_FUNCTIONS).map((run) => () => run(TASK, ALL_A2A)),
      () => extractAdcpResponseFromWebhook(MCP_PUSH, "mcp", ALL_A2A),
    ],
  },
};

for (const [name, row] of Object.entries(ROWS)) {
  Deno.test(`${name}: an unknown key is refused, the nearest named, before any read`, () => {
    for (const [call, message] of row.refused) {
      const probe = new Probe();
      throws(() => call(probe), { name: "TypeError", message });
      strictEqual(probe.reads, 0, message);
    }
  });

  Deno.test(`${name}: every known key is accepted`, async () => {
    for (const call of row.everyKey) strictEqual(await outcome(call), undefined);
  });
}

Deno.test("the table has a row for every exported Options and Limits type", async () => {
  // Nothing skipped: `ResolvedA2AExtractOptions` is private (not exported by mod.ts).
  const exported = await exportedOptionTypes(new URL("./mod.ts", import.meta.url));
  deepStrictEqual(exported.toSorted(), ["A2AExtractOptions", "McpExtractOptions"]);
  deepStrictEqual(exported.filter((name) => !Object.hasOwn(ROWS, name)), []);
});

Deno.test("an option of the other transport is refused with the nearest of this one", () => {
  throws(() => extractAdcpResponseFromA2A(TASK, { maxResponseBytes: 4096 } as never), {
    name: "TypeError",
    message: `${A2A}'options.maxResponseBytes' must be a known option (the nearest is ` +
      "'options.maxDataPartBytes'): current value is 4096",
  });
  throws(() => handleMcpResponse(TOOL_RESULT, { maxDataPartBytes: 4096 } as never), {
    name: "TypeError",
    message: `${MCP}'options.maxDataPartBytes' must be a known option (the nearest is ` +
      "'options.maxResponseBytes'): current value is 4096",
  });
});

Deno.test("the unknown key is named by its first 64 characters", () => {
  const key = "x".repeat(200);
  throws(() => extractAdcpResponseFromMcp(TOOL_RESULT, { [key]: 1 } as McpExtractOptions), {
    name: "TypeError",
    message: `${MCP}'options.${"x".repeat(64)}' must be a known option (the nearest is ` +
      "'options.maxResponseBytes'): current value is 1",
  });
  throws(() => extractAdcpResponseFromA2A(TASK, { [key]: "y".repeat(100) } as never), {
    name: "TypeError",
    message: `${A2A}'options.${"x".repeat(64)}' must be a known option (the nearest is ` +
      `'options.maxDataPartBytes'): current value is "${"y".repeat(32)}…"`,
  });
});

Deno.test("inherited and symbol keys are not options", () => {
  const inherited = <T extends object>(own: T): T =>
    Object.assign(Object.create({ bogus: 1, maxResponseByte: 2 }), own, { [Symbol("tag")]: 3 });
  const big = { content: [{ type: "text", text: JSON.stringify({ media_buy_id: "mb_1" }) }] };
  // The own limit applies: the 25-byte text item is skipped.
  strictEqual(extractAdcpResponseFromMcp(big, inherited({ maxResponseBytes: 8 })), null);
  deepStrictEqual(extractAdcpResponseFromMcp(big, inherited({})), { media_buy_id: "mb_1" });
  ok(handleA2AResponse(TASK, inherited({ expectedDataParts: 1 })).kind === "success");
  throws(
    () => extractAdcpResponseFromA2A(TASK, inherited({ expectedDataParts: 2 })),
    { name: "UnexpectedPartCountError" },
  );
});
