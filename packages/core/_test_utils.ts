// Test helpers: fast-check arbitraries for seller-controlled transport responses, and a purity
// check. Arbitraries build JSON *text* and parse it, so that generated objects hold own
// `__proto__` keys exactly as JSON.parse makes them.

import fc from "fast-check";
import { deepStrictEqual } from "node:assert/strict";

/** Keys that confuse naive code: prototype members and every key the extractors look at. */
export const TRICKY_KEYS: readonly string[] = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "toJSON",
  "isError",
  "structuredContent",
  "content",
  "type",
  "text",
  "adcp_error",
  "code",
  "message",
  "data",
  "kind",
  "parts",
  "status",
  "state",
  "artifacts",
  "task",
  "statusUpdate",
  "artifactUpdate",
  "response",
  "error",
  "payload",
  "errors",
];

const keyText = fc.oneof(fc.constantFrom(...TRICKY_KEYS), fc.string({ maxLength: 6 }));

const stringText: fc.Arbitrary<string> = fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s));

/** Any JSON value as text, objects possibly holding own `__proto__` keys. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("null", "true", "false", "0", "1", "-1.5", "1e300", '""', '"text"'),
    stringText,
    fc.array(fc.tuple(keyText, tie("value")), { maxLength: 4 }).map(objectFromEntries),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
  ),
})).value;

function objectFromEntries(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(",")}}`;
}

/**
 * JSON object text with the `required` fields, any subset of the other `fields` (values are JSON
 * texts), and sometimes up to two extra entries with tricky keys (which may repeat a field key:
 * JSON.parse keeps the last).
 */
export function objectText(
  fields: Record<string, fc.Arbitrary<string>>,
  required: readonly string[] = [],
): fc.Arbitrary<string> {
  return fc.tuple(
    fc.record(fields, { requiredKeys: required as string[] }),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as [string, string][]) },
      { weight: 1, arbitrary: fc.array(fc.tuple(keyText, jsonText), { maxLength: 2 }) },
    ),
  ).map(([record, extra]) =>
    objectFromEntries([...Object.entries(record) as [string, string][], ...extra])
  );
}

/** JSON array text of up to four items. */
export function arrayText(item: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.array(item, { maxLength: 4 }).map((items) => `[${items.join(",")}]`);
}

const codeText = fc.oneof(
  fc.constantFrom('"RATE_LIMITED"', '"X_VENDOR_CODE"', '""', "429", "null"),
  fc.string({ maxLength: 70 }).map((s) => JSON.stringify(s)),
);

/** A candidate `adcp_error` value: usually error-shaped, sometimes anything. */
export const adcpErrorText: fc.Arbitrary<string> = fc.oneof(
  objectText({
    code: codeText,
    message: stringText,
    recovery: fc.constantFrom('"transient"', '"correctable"', '"terminal"', '"deferred"'),
    retry_after: fc.constantFrom("5", "86400", "-1", '"soon"'),
    details: jsonText,
  }),
  jsonText,
);

const truthyOrNot = fc.constantFrom("true", "false", "1", "0", '"yes"', '""', '"false"', "null");

const payloadText = objectText({
  status: fc.constantFrom('"completed"', '"input-required"'),
  errors: arrayText(adcpErrorText),
  payload: objectText({ errors: arrayText(adcpErrorText) }),
  products: jsonText,
});

const structuredText = fc.oneof(
  objectText({ adcp_error: adcpErrorText }),
  payloadText,
  jsonText,
);

const contentItemText = fc.oneof(
  {
    weight: 4,
    arbitrary: objectText({
      type: fc.constantFrom('"text"', '"text"', '"image"', "null"),
      text: fc.oneof(
        stringText,
        structuredText.map((t) => JSON.stringify(t)),
        jsonText.map((t) => JSON.stringify(t)),
        jsonText,
      ),
    }, ["type", "text"]),
  },
  { weight: 1, arbitrary: jsonText },
);

/** An MCP tool result, as text. */
export const mcpResultText: fc.Arbitrary<string> = objectText({
  isError: truthyOrNot,
  structuredContent: structuredText,
  content: fc.oneof(
    { weight: 4, arbitrary: arrayText(contentItemText) },
    { weight: 1, arbitrary: jsonText },
  ),
});

const stateText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '"completed"',
      '"TASK_STATE_COMPLETED"',
      '"failed"',
      '"TASK_STATE_FAILED"',
      '"canceled"',
      '"rejected"',
      '"working"',
      '"submitted"',
      '"input-required"',
      '"TASK_STATE_INPUT_REQUIRED"',
      '"auth-required"',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '"wor\u212Aing"',
      '" completed"',
      '"Task_State_Completed"',
      '"TASK_STATE_UNKNOWN"',
    ),
  },
  { weight: 1, arbitrary: jsonText },
);

const dataText = fc.oneof(
  { weight: 3, arbitrary: payloadText },
  { weight: 2, arbitrary: objectText({ adcp_error: adcpErrorText }, ["adcp_error"]) },
  { weight: 1, arbitrary: objectText({ response: jsonText }, ["response"]) },
  { weight: 1, arbitrary: fc.constant('{"response":{"products":[]}}') },
  { weight: 1, arbitrary: jsonText },
);

const partText = fc.oneof(
  { weight: 3, arbitrary: objectText({ data: dataText }, ["data"]) },
  {
    weight: 2,
    arbitrary: objectText({
      kind: fc.constantFrom('"data"', '"text"'),
      data: dataText,
      text: stringText,
    }),
  },
  { weight: 1, arbitrary: jsonText },
);

const partsText = fc.oneof(
  { weight: 4, arbitrary: arrayText(partText) },
  { weight: 1, arbitrary: jsonText },
);

/** A bare A2A Task or TaskStatusUpdateEvent, as text. */
export const a2aTaskText: fc.Arbitrary<string> = objectText({
  status: fc.oneof(
    {
      weight: 4,
      arbitrary: objectText({ state: stateText, message: objectText({ parts: partsText }) }, [
        "state",
      ]),
    },
    { weight: 1, arbitrary: jsonText },
  ),
  artifacts: fc.oneof(
    { weight: 4, arbitrary: arrayText(objectText({ parts: partsText }, ["parts"])) },
    { weight: 1, arbitrary: jsonText },
  ),
}, ["status"]);

const envelopeKey = fc.constantFrom("task", "message", "statusUpdate", "artifactUpdate");

/** An A2A response, as text: bare, in one envelope, or in nested envelopes. */
export const a2aResponseText: fc.Arbitrary<string> = fc.oneof(
  a2aTaskText,
  fc.tuple(envelopeKey, a2aTaskText).map(([key, task]) => `{"${key}":${task}}`),
  fc.tuple(envelopeKey, envelopeKey, a2aTaskText).map(([outer, inner, task]) =>
    `{"${outer}":{"${inner}":${task}}}`
  ),
);

/** A JSON-RPC response or error object, as text. */
export const jsonRpcText: fc.Arbitrary<string> = fc.oneof(
  objectText({
    jsonrpc: fc.constant('"2.0"'),
    id: fc.constantFrom("1", '"req-1"', "null"),
    error: fc.oneof(
      objectText({
        code: fc.constantFrom("-32029", "-32600"),
        message: stringText,
        data: objectText({ adcp_error: adcpErrorText }),
      }),
      jsonText,
    ),
  }),
  objectText({ code: fc.constant("-32029"), data: objectText({ adcp_error: adcpErrorText }) }),
);

/** Any transport response, parsed: MCP, A2A, JSON-RPC, or any JSON value. */
export const anyResponse: fc.Arbitrary<unknown> = fc.oneof(
  mcpResultText,
  a2aResponseText,
  jsonRpcText,
  jsonText,
).map((text) => JSON.parse(text));

/**
 * Runs `fn(input)` and asserts it left `input` and `Object.prototype` unchanged. Returns what `fn`
 * returned, or rethrows what it threw after the same checks.
 */
export function runPure<T>(input: unknown, fn: (input: unknown) => T): T {
  const before = input === undefined ? undefined : structuredClone(input);
  const prototypeKeys = Reflect.ownKeys(Object.prototype);
  try {
    return fn(input);
  } finally {
    deepStrictEqual(input, before);
    deepStrictEqual(Reflect.ownKeys(Object.prototype), prototypeKeys);
  }
}

/** Parses JSON text (vectors in tests read like the wire). */
export function json(text: string): unknown {
  return JSON.parse(text);
}
