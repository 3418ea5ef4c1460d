// Every extractor reads own properties only: a polluted Object.prototype or Array.prototype
// (any key an extractor reads, set to a value that would change the answer if it were read)
// changes no answer. The fast paths read a property first and check ownership after (see
// _json.ts), so this holds them to the answers of the clean run on random responses.
import fc from "fast-check";
import { strictEqual } from "node:assert/strict";
import {
  detectAdcpError,
  extractAdcpErrorFromA2A,
  extractAdcpErrorFromMcp,
  extractAdcpResponseFromA2A,
  extractAdcpResponseFromMcp,
  handleA2AResponse,
  handleMcpResponse,
  knownA2ATaskState,
  validateAdcpError,
} from "./mod.ts";
import { anyResponse } from "./_test_utils.ts";

/** What a polluter sets each key to: values that mean something where the key is read. */
const POLLUTION: Readonly<Record<string, unknown>> = {
  isError: true,
  structuredContent: { status: "completed", polluted: true },
  content: [{ type: "text", text: '{"polluted":true}' }],
  type: "text",
  text: '{"adcp_error":{"code":"POLLUTED"}}',
  adcp_error: { code: "POLLUTED" },
  code: "POLLUTED",
  status: { state: "completed", message: { parts: [{ data: { polluted: true } }] } },
  state: "completed",
  message: { parts: [{ data: { polluted: true } }] },
  artifacts: [{ parts: [{ data: { polluted: true } }] }],
  parts: [{ data: { polluted: true } }],
  data: { polluted: true },
  raw: "cG9sbHV0ZWQ=",
  url: "https://polluted.example/",
  file: { uri: "https://polluted.example/" },
  response: { polluted: true },
  task: { status: { state: "completed" } },
  statusUpdate: { status: { state: "completed" } },
  artifactUpdate: { status: { state: "completed" } },
  toJSON: "not a function",
  constructor: { polluted: true },
  0: { type: "text", text: '{"polluted":true}' },
};

/** Every extractor's answer as one string (a thrown error by its code). */
function answers(input: unknown): string {
  const run = (f: () => unknown) => {
    try {
      return JSON.stringify(f()) ?? "undefined";
    } catch (error) {
      return `throws ${(error as { code?: string }).code}`;
    }
  };
  return [
    run(() => extractAdcpResponseFromMcp(input)),
    run(() => extractAdcpResponseFromMcp(input, { sourceTextBytes: 0 })),
    run(() => extractAdcpErrorFromMcp(input)),
    run(() => handleMcpResponse(input)),
    run(() => handleMcpResponse(input, { sourceTextBytes: 100 })),
    run(() => detectAdcpError(input)),
    run(() => extractAdcpResponseFromA2A(input)),
    run(() => extractAdcpErrorFromA2A(input)),
    run(() => handleA2AResponse(input)),
    run(() => validateAdcpError(input)),
  ].join("\n");
}

/** Runs `check` with `target[key]` set to `value`, then puts back what was there. */
function withPollution(target: object, key: string, value: unknown, check: () => void): void {
  const original = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, configurable: true, writable: true });
  try {
    check();
  } finally {
    if (original === undefined) delete (target as Record<string, unknown>)[key];
    else Object.defineProperty(target, key, original);
  }
}

Deno.test("every extractor answers the same with Object.prototype polluted", () => {
  fc.assert(
    fc.property(anyResponse, fc.constantFrom(...Object.keys(POLLUTION)), (input, key) => {
      const clean = answers(input);
      withPollution(Object.prototype, key, POLLUTION[key], () => {
        strictEqual(answers(input), clean, key);
      });
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("every extractor answers the same with Array.prototype polluted", () => {
  fc.assert(
    fc.property(anyResponse, fc.nat({ max: 2 }), (input, index) => {
      const clean = answers(input);
      withPollution(Array.prototype, String(index), POLLUTION[0], () => {
        strictEqual(answers(input), clean);
      });
    }),
    { numRuns: 1_000 },
  );
});

Deno.test("knownA2ATaskState() reads no table entry from a polluted Object.prototype", () => {
  withPollution(Object.prototype, "paused", "completed", () => {
    strictEqual(knownA2ATaskState("paused"), null);
    strictEqual(knownA2ATaskState("TASK_STATE_PAUSED"), null);
  });
});
