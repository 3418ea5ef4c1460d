// Every public function of @adcp-wire/core that validates options reports a bad one in the one
// option-error style of issue #14: `Cannot <action> as '<name>' must be <requirement>: current
// value is <value>`, a TypeError for a wrong type and a RangeError for a value out of range.
import fc from "fast-check";
import { doesNotThrow, strictEqual, throws } from "node:assert/strict";
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
  type WebhookFormat,
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

type McpFunction = (input: unknown, options?: McpExtractOptions) => unknown;
type A2AFunction = (input: unknown, options?: A2AExtractOptions) => unknown;

/** The checks every MCP extractor makes of its options, in the one style. */
function assertMcpOptionErrors(run: McpFunction): void {
  throws(() => run(TOOL_RESULT, 5 as never), {
    name: "TypeError",
    message: `${MCP}'options' must be an object or undefined: current value is 5`,
  });
  throws(() => run(TOOL_RESULT, null as never), {
    name: "TypeError",
    message: `${MCP}'options' must be an object or undefined: current value is null`,
  });
  throws(() => run(TOOL_RESULT, { maxResponseBytes: 0 }), {
    name: "RangeError",
    message: `${MCP}'maxResponseBytes' must be a positive safe integer: current value is 0`,
  });
  throws(() => run(TOOL_RESULT, { maxResponseBytes: -0 }), {
    name: "RangeError",
    message: `${MCP}'maxResponseBytes' must be a positive safe integer: current value is -0`,
  });
  throws(() => run(TOOL_RESULT, { maxResponseBytes: 1.5 }), {
    name: "RangeError",
    message: `${MCP}'maxResponseBytes' must be a positive safe integer: current value is 1.5`,
  });
  throws(() => run(TOOL_RESULT, { maxResponseBytes: 2 ** 53 }), {
    name: "RangeError",
    message: `${MCP}'maxResponseBytes' must be a positive safe integer: ` +
      "current value is 9007199254740992",
  });
  // A value of the wrong type, null included, is a TypeError.
  throws(() => run(TOOL_RESULT, { maxResponseBytes: "4096" as never }), {
    name: "TypeError",
    message: `${MCP}'maxResponseBytes' must be a number: current value is "4096"`,
  });
  throws(() => run(TOOL_RESULT, { maxResponseBytes: null as never }), {
    name: "TypeError",
    message: `${MCP}'maxResponseBytes' must be a number: current value is null`,
  });
  // Options are checked before the input is looked at.
  throws(() => run(null, { maxResponseBytes: -1 }), {
    name: "RangeError",
    message: `${MCP}'maxResponseBytes' must be a positive safe integer: current value is -1`,
  });
  doesNotThrow(() => run(TOOL_RESULT, { maxResponseBytes: 1 }));
  doesNotThrow(() => run(TOOL_RESULT, {}));
}

/** The checks every A2A extractor makes of its options, in the one style. */
function assertA2AOptionErrors(run: A2AFunction): void {
  throws(() => run(TASK, "options" as never), {
    name: "TypeError",
    message: `${A2A}'options' must be an object or undefined: current value is "options"`,
  });
  throws(() => run(TASK, null as never), {
    name: "TypeError",
    message: `${A2A}'options' must be an object or undefined: current value is null`,
  });
  throws(() => run(TASK, { maxDataPartBytes: 0 }), {
    name: "RangeError",
    message: `${A2A}'maxDataPartBytes' must be a positive safe integer: current value is 0`,
  });
  throws(() => run(TASK, { maxDataPartBytes: Infinity }), {
    name: "RangeError",
    message: `${A2A}'maxDataPartBytes' must be a positive safe integer: current value is Infinity`,
  });
  throws(() => run(TASK, { maxDataPartBytes: [1] as never }), {
    name: "TypeError",
    message: `${A2A}'maxDataPartBytes' must be a number: current value is an array`,
  });
  throws(() => run(TASK, { expectedDataParts: -1 }), {
    name: "RangeError",
    message: `${A2A}'expectedDataParts' must be a non-negative safe integer: current value is -1`,
  });
  throws(() => run(TASK, { expectedDataParts: NaN }), {
    name: "RangeError",
    message: `${A2A}'expectedDataParts' must be a non-negative safe integer: ` +
      "current value is NaN",
  });
  throws(() => run(TASK, { expectedDataParts: "1" as never }), {
    name: "TypeError",
    message: `${A2A}'expectedDataParts' must be a number: current value is "1"`,
  });
  // Options are checked before the input is looked at.
  throws(() => run(undefined, { expectedDataParts: 0.5 }), {
    name: "RangeError",
    message: `${A2A}'expectedDataParts' must be a non-negative safe integer: ` +
      "current value is 0.5",
  });
  doesNotThrow(() => run(TASK, { maxDataPartBytes: 1_048_576, expectedDataParts: 1 }));
  // Only undefined means the default: null is refused like any other wrong type.
  throws(() => run(TASK, { maxDataPartBytes: null as never }), {
    name: "TypeError",
    message: `${A2A}'maxDataPartBytes' must be a number: current value is null`,
  });
  throws(() => run(TASK, { expectedDataParts: null as never }), {
    name: "TypeError",
    message: `${A2A}'expectedDataParts' must be a number: current value is null`,
  });
  doesNotThrow(() => run(TASK, { maxDataPartBytes: undefined, expectedDataParts: undefined }));
}

Deno.test("detectAdcpError() reports bad options in the one option-error style", () => {
  assertMcpOptionErrors(detectAdcpError);
});

Deno.test("extractAdcpErrorFromMcp() reports bad options in the one option-error style", () => {
  assertMcpOptionErrors(extractAdcpErrorFromMcp);
});

Deno.test("extractAdcpResponseFromMcp() reports bad options in the one option-error style", () => {
  assertMcpOptionErrors(extractAdcpResponseFromMcp);
});

Deno.test("handleMcpResponse() reports bad options in the one option-error style", () => {
  assertMcpOptionErrors(handleMcpResponse);
});

Deno.test("extractAdcpResponseFromA2A() reports bad options in the one option-error style", () => {
  assertA2AOptionErrors(extractAdcpResponseFromA2A);
});

Deno.test("handleA2AResponse() reports bad options in the one option-error style", () => {
  assertA2AOptionErrors(handleA2AResponse);
});

Deno.test(
  "extractAdcpResponseFromWebhook() reports a bad knownFormat and A2A options in the one style",
  () => {
    const mcp = { task_id: "t1", status: "completed", result: { ok: true } };
    const format = "Cannot extract from a webhook payload as 'knownFormat' must be " +
      '"mcp", "a2a" or undefined: current value is ';
    throws(() => extractAdcpResponseFromWebhook(mcp, "MCP" as WebhookFormat), {
      name: "TypeError",
      message: `${format}"MCP"`,
    });
    throws(() => extractAdcpResponseFromWebhook(mcp, null as never), {
      name: "TypeError",
      message: `${format}null`,
    });
    throws(() => extractAdcpResponseFromWebhook(mcp, 1 as never), {
      name: "TypeError",
      message: `${format}1`,
    });
    // The format is checked before the payload is looked at.
    throws(() => extractAdcpResponseFromWebhook(undefined, "sse" as WebhookFormat), {
      name: "TypeError",
      message: `${format}"sse"`,
    });
    // An A2A push goes through extractAdcpResponseFromA2A, options and all.
    throws(() => extractAdcpResponseFromWebhook(TASK, "a2a", { maxDataPartBytes: -1 }), {
      name: "RangeError",
      message: `${A2A}'maxDataPartBytes' must be a positive safe integer: current value is -1`,
    });
    throws(() => extractAdcpResponseFromWebhook(TASK, undefined, 7 as never), {
      name: "TypeError",
      message: `${A2A}'options' must be an object or undefined: current value is 7`,
    });
    // NOT CHECKED AT THE BOUNDARY (reported): options are only read for an A2A payload, so bad
    // ones pass silently when the format is (or is detected as) MCP.
    strictEqual(
      JSON.stringify(extractAdcpResponseFromWebhook(mcp, "mcp", { maxDataPartBytes: -1 })),
      '{"ok":true}',
    );
  },
);

Deno.test("every extractor shows any bad byte limit as describe() renders it", () => {
  const mcpFunctions: McpFunction[] = [
    detectAdcpError,
    extractAdcpErrorFromMcp,
    extractAdcpResponseFromMcp,
    handleMcpResponse,
  ];
  const a2aFunctions: A2AFunction[] = [extractAdcpResponseFromA2A, handleA2AResponse];
  const bad = fc.oneof(
    fc.integer({ max: 0 }),
    fc.double().filter((n) => !Number.isSafeInteger(n)),
    fc.constantFrom(-0, NaN, Infinity, 2 ** 53),
  );
  fc.assert(
    fc.property(bad, (value) => {
      const shown = Object.is(value, -0) ? "-0" : String(value);
      for (const run of mcpFunctions) {
        throws(() => run(TOOL_RESULT, { maxResponseBytes: value }), {
          name: "RangeError",
          message: `${MCP}'maxResponseBytes' must be a positive safe integer: ` +
            `current value is ${shown}`,
        });
      }
      for (const run of a2aFunctions) {
        throws(() => run(TASK, { maxDataPartBytes: value }), {
          name: "RangeError",
          message: `${A2A}'maxDataPartBytes' must be a positive safe integer: ` +
            `current value is ${shown}`,
        });
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("every MCP extractor reports a bad sourceTextBytes in the one option-error style", () => {
  const runs: [string, McpFunction][] = [
    ["detectAdcpError", detectAdcpError],
    ["extractAdcpErrorFromMcp", extractAdcpErrorFromMcp],
    ["extractAdcpResponseFromMcp", extractAdcpResponseFromMcp],
    ["handleMcpResponse", handleMcpResponse],
  ];
  for (const [name, run] of runs) {
    for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 53]) {
      throws(() => run(TOOL_RESULT, { sourceTextBytes: bad }), {
        name: "RangeError",
        message: `${MCP}'sourceTextBytes' must be a non-negative safe integer: ` +
          `current value is ${bad}`,
      }, name);
    }
    for (const [bad, shown] of [["10", '"10"'], [null, "null"], [10n, "10n"]] as const) {
      throws(() => run(TOOL_RESULT, { sourceTextBytes: bad as never }), {
        name: "TypeError",
        message: `${MCP}'sourceTextBytes' must be a number: current value is ${shown}`,
      }, name);
    }
    // maxResponseBytes is checked first, and both before the input is looked at.
    throws(() => run(null, { maxResponseBytes: 0, sourceTextBytes: -1 }), {
      name: "RangeError",
      message: `${MCP}'maxResponseBytes' must be a positive safe integer: current value is 0`,
    }, name);
    doesNotThrow(() => run(TOOL_RESULT, { sourceTextBytes: 0 }), name);
    doesNotThrow(() => run(TOOL_RESULT, { sourceTextBytes: undefined }), name);
  }
});
