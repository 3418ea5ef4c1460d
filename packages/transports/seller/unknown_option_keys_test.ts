// Every public options object of @adcp-wire/transports/seller and /testing refuses an unknown key,
// in the one option-error style, naming it and the nearest known key; data (AdCP errors, task
// payloads, `ids`, the fake agents' tool and skill maps) keeps its keys.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  adcpErrorResult,
  adcpFailedTask,
  adcpJsonRpcError,
  adcpProfileInputRequired,
  adcpProfileTaskResponse,
  adcpSuccessResult,
  checkOutgoingAdcpError,
  forwardAdcpError,
} from "./mod.ts";
import { fakeA2AAgent, fakeMcpAgent } from "../testing/mod.ts";

const ERROR = { code: "RATE_LIMITED", message: "Slow down", recovery: "transient" } as const;
/** An error that makes a warning (retry_after is rounded up), so that onWarning would be called. */
const WARNING_ERROR = { ...ERROR, retry_after: 2.5 } as const;
const IDS = { id: "task-1", contextId: "context-1" } as const;

/** The start of the message of an unknown key `key` of `options`, whose nearest is `nearest`. */
function unknownKey(action: string, key: string, nearest: string): string {
  return `Cannot ${action} as 'options.${key}' must be a known option (the nearest is ` +
    `'options.${nearest}'): current value is `;
}

/** One public options interface: how to call with it, its keys, and refused keys. */
interface Row {
  /** Calls the function that takes the options. */
  readonly call: (options: Record<string, unknown>) => unknown;
  /** Every key of the interface, inherited ones included. */
  readonly keys: readonly string[];
  /** Options with a misspelled or misplaced key, and the exact message they are refused with. */
  readonly refused: readonly (readonly [Record<string, unknown>, string])[];
  /** The key of a callback the function would call (a side effect), if it has one. */
  readonly callback?: string;
}

const OUTGOING_KEYS = ["strict", "onWarning", "internalServiceNames", "allowUnlistedCode"];

/** The table: one row per exported options interface, by its exact name. */
const ROWS: Readonly<Record<string, Row>> = {
  OutgoingErrorOptions: {
    call: (options) => checkOutgoingAdcpError(WARNING_ERROR, options),
    keys: OUTGOING_KEYS,
    callback: "onWarning",
    refused: [
      [
        { strictMode: true },
        unknownKey("check the outgoing error", "strictMode", "strict") + "true",
      ],
      [
        { serviceNames: ["billing-db"] },
        unknownKey("check the outgoing error", "serviceNames", "internalServiceNames") +
        "an array",
      ],
      // Misplaced: the summary is adcpErrorResult's; seller text is shown by its size only.
      [
        { summary: "Rate limited on billing-db" },
        unknownKey("check the outgoing error", "summary", "strict") +
        '"(26 characters, not shown)"',
      ],
    ],
  },
  AdcpErrorResultOptions: {
    call: (options) => adcpErrorResult(WARNING_ERROR, options),
    keys: [...OUTGOING_KEYS, "summary", "payload"],
    callback: "onWarning",
    refused: [
      [
        { sumary: "Rate limited" },
        unknownKey("build the error result", "sumary", "summary") +
        '"(12 characters, not shown)"',
      ],
      [
        { onwarning: () => {} },
        unknownKey("build the error result", "onwarning", "onWarning") + "a function",
      ],
      // Misplaced: the wire form is adcpFailedTask's.
      [
        { protocolVersion: "0.3" },
        unknownKey("build the error result", "protocolVersion", "strict") +
        '"(3 characters, not shown)"',
      ],
    ],
  },
  AdcpFailedTaskOptions: {
    call: (options) => adcpFailedTask(IDS, WARNING_ERROR, options),
    keys: [
      ...OUTGOING_KEYS,
      "protocolVersion",
      "summary",
      "timestamp",
      "artifactId",
      "mimeType",
      "payload",
    ],
    callback: "onWarning",
    refused: [
      [
        { version: "0.3" },
        unknownKey("build the failed task", "version", "protocolVersion") +
        '"(3 characters, not shown)"',
      ],
      [{ mimetype: false }, unknownKey("build the failed task", "mimetype", "mimeType") + "false"],
      // Misplaced: the task ids are the first argument.
      [
        { contextId: "context-1" },
        unknownKey("build the failed task", "contextId", "onWarning") +
        '"(9 characters, not shown)"',
      ],
    ],
  },
  AdcpJsonRpcErrorOptions: {
    call: (options) => adcpJsonRpcError(WARNING_ERROR, options),
    keys: [...OUTGOING_KEYS, "message"],
    callback: "onWarning",
    refused: [
      [
        { msg: "Rate limit exceeded" },
        unknownKey("build the JSON-RPC error", "msg", "message") +
        '"(19 characters, not shown)"',
      ],
      // Misplaced: a summary is the tool-level path's.
      [
        { summary: "Slow down" },
        unknownKey("build the JSON-RPC error", "summary", "strict") +
        '"(9 characters, not shown)"',
      ],
    ],
  },
  AdcpSuccessResultOptions: {
    call: (options) => adcpSuccessResult({ products: [] }, undefined, options),
    keys: ["onWarning"],
    callback: "onWarning",
    refused: [
      [
        { onWarn: () => {} },
        unknownKey("build the success result", "onWarn", "onWarning") + "a function",
      ],
      // Misplaced: the summary is the second argument.
      [
        { summary: "Found 1 product." },
        unknownKey("build the success result", "summary", "onWarning") +
        '"(16 characters, not shown)"',
      ],
    ],
  },
  AdcpProfileInputRequiredOptions: {
    call: (options) => adcpProfileInputRequired(IDS, options),
    keys: ["summary", "data", "messageId"],
    refused: [
      [
        { message_id: "msg-1" },
        unknownKey("build the AdCP profile input-required response", "message_id", "messageId") +
        '"(5 characters, not shown)"',
      ],
      // Misplaced: the artifact id is adcpProfileTaskResponse's.
      [
        { summary: "Pick a start time", artifactId: "adcp-result" },
        unknownKey("build the AdCP profile input-required response", "artifactId", "messageId") +
        '"(11 characters, not shown)"',
      ],
    ],
  },
  AdcpProfileTaskResponseOptions: {
    call: (options) => adcpProfileTaskResponse({ products: [] }, IDS, options),
    keys: ["summary", "artifactId", "timestamp"],
    refused: [
      [
        { artifactID: "result-1" },
        unknownKey("build the AdCP profile task response", "artifactID", "artifactId") +
        '"(8 characters, not shown)"',
      ],
      // Misplaced: the message id is adcpProfileInputRequired's.
      [
        { messageId: "msg-1" },
        unknownKey("build the AdCP profile task response", "messageId", "artifactId") +
        '"(5 characters, not shown)"',
      ],
    ],
  },
  FakeMcpAgentOptions: {
    call: (options) => fakeMcpAgent(options as never),
    keys: ["tools"],
    refused: [
      [
        { tools: {}, tool: {} },
        unknownKey("create the fake MCP agent", "tool", "tools") + "an object",
      ],
      // Misplaced: skills are an A2A agent's.
      [{ skills: {} }, unknownKey("create the fake MCP agent", "skills", "tools") + "an object"],
    ],
  },
  FakeA2AAgentOptions: {
    call: (options) => fakeA2AAgent(options as never),
    keys: ["skills"],
    refused: [
      [{ skill: {} }, unknownKey("create the fake A2A agent", "skill", "skills") + "an object"],
      // Misplaced: tools are an MCP agent's.
      [
        { skills: {}, tools: {} },
        unknownKey("create the fake A2A agent", "tools", "skills") + "an object",
      ],
    ],
  },
};

/**
 * Exported names ending in `Options` or `Limits` that are not options a caller passes, each with
 * the reason: none in these entry points (no `Resolved*` type is exported from them).
 */
const SKIPPED: Readonly<Record<string, string>> = {};

/** Whether `error` is the refusal of an unknown option key. */
function isUnknownKeyRefusal(error: unknown): boolean {
  return error instanceof TypeError &&
    (error.message.includes("must be a known option") ||
      error.message.includes("this object takes no options"));
}

for (const [name, row] of Object.entries(ROWS)) {
  Deno.test(`${name}: a misspelled or misplaced key is refused with the nearest known one`, () => {
    for (const [options, message] of row.refused) {
      let calls = 0;
      const spied = row.callback === undefined
        ? options
        : { ...options, [row.callback]: () => calls++ };
      throws(() => row.call(spied), { name: "TypeError", message });
      // Refused before anything is done: the callback is never called.
      strictEqual(calls, 0, message);
    }
  });

  Deno.test(`${name}: every known key, set to undefined, is accepted as a key`, () => {
    const options = Object.fromEntries(row.keys.map((key) => [key, undefined]));
    try {
      row.call(options);
    } catch (error) {
      // Another refusal is allowed (adcpProfileInputRequired needs a summary or data): not this.
      ok(!isUnknownKeyRefusal(error), (error as Error).message);
    }
  });
}

Deno.test("the table covers every exported options interface of seller/ and testing/", async () => {
  const entries = ["./mod.ts", "../testing/mod.ts"].map((path) =>
    new URL(path, import.meta.url).href
  );
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...entries],
    stdout: "piped",
    stderr: "null",
  }).output();
  strictEqual(success, true);
  const doc = JSON.parse(new TextDecoder().decode(stdout)) as {
    nodes: Record<string, { symbols: DocSymbol[] }>;
  };
  const symbols = Object.values(doc.nodes).flatMap((node) => node.symbols);
  const interfaces = new Map<string, DocDeclaration["def"]>();
  for (const symbol of symbols) {
    for (const declaration of symbol.declarations) {
      if (declaration.kind === "interface") interfaces.set(symbol.name, declaration.def);
    }
  }
  const exported = symbols
    .filter((symbol) =>
      /(?:Options|Limits)$/.test(symbol.name) &&
      symbol.declarations.some((d) => d.kind === "interface" || d.kind === "typeAlias")
    )
    .map((symbol) => symbol.name)
    .filter((symbolName) => !Object.hasOwn(SKIPPED, symbolName));
  deepStrictEqual([...new Set(exported)].sort(), Object.keys(ROWS).sort());
  // Each row lists every key of its interface, inherited ones included, so that row (b) passes
  // all of them.
  const keysOf = (interfaceName: string): string[] => {
    const def = interfaces.get(interfaceName);
    ok(def !== undefined, `${interfaceName} is an exported interface`);
    return [
      ...(def.extends ?? []).flatMap((parent) => keysOf(parent.repr)),
      ...def.properties.map((property) => property.name),
    ];
  };
  for (const [interfaceName, row] of Object.entries(ROWS)) {
    deepStrictEqual([...row.keys].sort(), keysOf(interfaceName).sort(), interfaceName);
  }
});

interface DocDeclaration {
  readonly kind: string;
  readonly def: {
    readonly properties: readonly { readonly name: string }[];
    readonly extends?: readonly { readonly repr: string }[];
  };
}

interface DocSymbol {
  readonly name: string;
  readonly declarations: readonly DocDeclaration[];
}

Deno.test("a refused key is cut to 64 characters, and its string value is not shown", () => {
  const key = "k".repeat(100);
  throws(() => adcpErrorResult(ERROR, { [key]: "internal: billing-db at 10.0.0.7" }), {
    name: "TypeError",
    message: `Cannot build the error result as 'options.${"k".repeat(64)}' must be a known ` +
      "option (the nearest is 'options.strict'): current value is " +
      '"(32 characters, not shown)"',
  });
  // A fake agent is test code: its values are shown, cut as every option error cuts them.
  throws(() => fakeMcpAgent({ tools: {}, [key]: "x".repeat(200) } as never), {
    name: "TypeError",
    message: /^Cannot create the fake MCP agent as 'options\.k{64}' must be a known option /,
  });
});

Deno.test("an own __proto__ key is refused; inherited and symbol keys are not options", () => {
  const parsed = JSON.parse('{"__proto__": 1}');
  throws(() => checkOutgoingAdcpError(ERROR, parsed), {
    name: "TypeError",
    message: unknownKey("check the outgoing error", "__proto__", "strict") + "1",
  });
  throws(() => fakeA2AAgent(JSON.parse('{"skills": {}, "__proto__": {}}')), {
    name: "TypeError",
    message: unknownKey("create the fake A2A agent", "__proto__", "skills") + "an object",
  });
  const inherited = Object.assign(Object.create({ stric: true, sumary: "x" }), { strict: true });
  strictEqual(adcpErrorResult(ERROR, inherited).isError, true);
  strictEqual(checkOutgoingAdcpError(ERROR, inherited).valid, true);
  const mcpInherited = Object.assign(Object.create({ tool: {} }), { tools: {} });
  strictEqual(typeof fakeMcpAgent(mcpInherited), "function");
  const symbol = { [Symbol("trace")]: true };
  strictEqual(adcpSuccessResult({}, undefined, symbol).content.length, 0);
  strictEqual(adcpProfileTaskResponse({}, IDS, symbol).task.id, "task-1");
});

Deno.test("options with every key set are accepted, payload errors included", () => {
  const warnings: string[] = [];
  const shared = {
    strict: false,
    onWarning: (warning: { field: string }) => warnings.push(warning.field),
    internalServiceNames: ["billing-db"],
    allowUnlistedCode: false,
  };
  // The payload errors are checked with the helper's own options, never re-checked for keys.
  const payload = { errors: [WARNING_ERROR], context: "c1" };
  const result = adcpErrorResult(WARNING_ERROR, { ...shared, summary: "Slow down.", payload });
  strictEqual(result.structuredContent.errors?.[0]?.retry_after, 3);
  const task = adcpFailedTask(IDS, WARNING_ERROR, {
    ...shared,
    protocolVersion: "0.3",
    summary: "Slow down.",
    timestamp: "2026-01-01T00:00:00.000Z",
    artifactId: "error-1",
    mimeType: false,
    payload,
  });
  strictEqual(task.kind, "task");
  strictEqual(adcpJsonRpcError(WARNING_ERROR, { ...shared, message: "Slow down" }).code, -32029);
  strictEqual(checkOutgoingAdcpError(WARNING_ERROR, shared).valid, true);
  deepStrictEqual(warnings, [
    "retry_after",
    "payload.errors[0].retry_after",
    "retry_after",
    "payload.errors[0].retry_after",
    "retry_after",
    "retry_after",
  ]);
});

Deno.test("the keys of data are not refused: errors, payloads, ids, tool and skill maps", () => {
  // An AdCP error's unknown field is dropped with a warning, as before, not refused.
  const kinds: string[] = [];
  const checked = checkOutgoingAdcpError({ ...ERROR, sugestion: "Wait" }, {
    onWarning: (warning) => kinds.push(warning.kind),
  });
  strictEqual(checked.valid, true);
  deepStrictEqual(kinds, ["field_dropped"]);
  // A forwarded error keeps every field.
  const forwarded = adcpErrorResult(forwardAdcpError({ ...ERROR, trace: "t1" }));
  strictEqual(forwarded.structuredContent.adcp_error.trace, "t1");
  // Task payloads and the profile's data are the seller's own fields.
  const result = adcpErrorResult(ERROR, { payload: { stric: true, summry: "x" } });
  strictEqual(result.structuredContent.stric, true);
  deepStrictEqual(adcpSuccessResult({ onWarnig: 1 }).structuredContent, { onWarnig: 1 });
  const input = adcpProfileInputRequired(IDS, { data: { mesageId: "m", reason: "R" } });
  deepStrictEqual(input.task.status.message.parts, [{ data: { mesageId: "m", reason: "R" } }]);
  deepStrictEqual(adcpProfileTaskResponse({ artifactID: "x" }, IDS).task.artifacts[0].parts, [
    { data: { artifactID: "x" } },
  ]);
  // Extra ids fields are ignored as before.
  strictEqual(adcpFailedTask({ ...IDS, taskId: "t" } as never, ERROR).id, "task-1");
  // Tools and skills are named by the seller: any name is a tool, not an option.
  const tools = { tool: () => ({ content: [] }), toolz: () => ({ content: [] }) };
  strictEqual(typeof fakeMcpAgent({ tools }), "function");
  deepStrictEqual(
    (fakeA2AAgent({ skills: { skill: () => ({ data: {} }) } }).card.skills as { id: string }[])
      .map((skill) => skill.id),
    ["skill"],
  );
});
