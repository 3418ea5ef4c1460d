import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_JSON_NODES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  resolveLimits,
} from "./limits.ts";

Deno.test("resolveLimits() returns the built-in defaults when given nothing", () => {
  deepStrictEqual(resolveLimits(), {
    maxResponseBytes: 4_194_304,
    maxDecodedBytes: 4_194_304,
    timeoutMs: 30_000,
    signal: undefined,
    maxJsonDepth: 64,
    maxJsonNodes: 2_097_152,
  });
  strictEqual(DEFAULT_MAX_RESPONSE_BYTES, 4_194_304);
  strictEqual(DEFAULT_TIMEOUT_MS, 30_000);
  strictEqual(DEFAULT_MAX_JSON_DEPTH, 64);
  strictEqual(DEFAULT_MAX_JSON_NODES, 2_097_152);
});

Deno.test("resolveLimits() lets the call win over the agent and the agent over the defaults", () => {
  const limits = resolveLimits({
    defaults: { maxResponseBytes: 1_000, timeoutMs: 1_000, maxJsonDepth: 10, maxJsonNodes: 100 },
    agent: { maxResponseBytes: 2_000, timeoutMs: 2_000, maxJsonDepth: 20 },
    call: { maxResponseBytes: 3_000 },
  });
  strictEqual(limits.maxResponseBytes, 3_000);
  strictEqual(limits.timeoutMs, 2_000);
  strictEqual(limits.maxJsonDepth, 20);
  strictEqual(limits.maxJsonNodes, 100);
});

Deno.test("resolveLimits() makes maxDecodedBytes follow maxResponseBytes unless a layer sets it", () => {
  strictEqual(
    resolveLimits({ agent: { maxResponseBytes: 10_000_000 } }).maxDecodedBytes,
    10_000_000,
  );
  strictEqual(
    resolveLimits({ defaults: { maxDecodedBytes: 2_000 }, call: { maxResponseBytes: 10_000_000 } })
      .maxDecodedBytes,
    2_000,
  );
  strictEqual(
    resolveLimits({ agent: { maxDecodedBytes: 50_000_000 }, call: { maxResponseBytes: 1_000 } })
      .maxDecodedBytes,
    50_000_000,
  );
});

Deno.test("resolveLimits() refuses a default byte cap above 4 MiB and names the option", () => {
  throws(() => resolveLimits({ defaults: { maxResponseBytes: 4_194_305 } }), {
    name: "RangeError",
    message:
      "Expected defaults.maxResponseBytes to be at most 4194304 (the ceiling on a default; " +
      "raise the limit per agent or per call instead), got 4194305",
  });
  throws(() => resolveLimits({ defaults: { maxDecodedBytes: 8_388_608 } }), {
    name: "RangeError",
    message: /^Expected defaults\.maxDecodedBytes to be at most 4194304/,
  });
  // Exactly 4 MiB, lower defaults, and raised agent or call limits are all accepted.
  strictEqual(
    resolveLimits({ defaults: { maxResponseBytes: 4_194_304 } }).maxResponseBytes,
    4_194_304,
  );
  strictEqual(resolveLimits({ defaults: { maxResponseBytes: 1 } }).maxResponseBytes, 1);
  strictEqual(resolveLimits({ agent: { maxResponseBytes: 1 << 30 } }).maxResponseBytes, 1 << 30);
  strictEqual(resolveLimits({ call: { maxResponseBytes: 1 << 30 } }).maxResponseBytes, 1 << 30);
});

Deno.test("resolveLimits() rejects bad values with errors naming the option and the value", () => {
  throws(() => resolveLimits({ call: { maxResponseBytes: -1 } }), {
    name: "RangeError",
    message: "Expected call.maxResponseBytes to be a non-negative safe integer, got -1",
  });
  throws(() => resolveLimits({ agent: { maxJsonDepth: 1.5 } }), {
    name: "RangeError",
    message: "Expected agent.maxJsonDepth to be a non-negative safe integer, got 1.5",
  });
  throws(() => resolveLimits({ call: { maxJsonNodes: "10" as unknown as number } }), {
    name: "TypeError",
    message: "Expected call.maxJsonNodes to be a number, got a string",
  });
  throws(() => resolveLimits({ call: { timeoutMs: 0 } }), {
    name: "RangeError",
    message: "Expected call.timeoutMs to be a number of milliseconds in (0, 2147483647], got 0",
  });
  throws(() => resolveLimits({ call: { timeoutMs: Infinity } }), { name: "RangeError" });
  throws(() => resolveLimits({ call: { timeoutMs: Number.NaN } }), { name: "RangeError" });
  throws(() => resolveLimits({ call: { signal: {} as AbortSignal } }), {
    name: "TypeError",
    message: "Expected call.signal to be an AbortSignal, got an object",
  });
  throws(() => resolveLimits({ agent: null as unknown as undefined }), {
    name: "TypeError",
    message: "Expected agent to be an object, got null",
  });
  throws(() => resolveLimits(7 as unknown as undefined), {
    name: "TypeError",
    message: "Expected options to be an object, got number 7",
  });
});

Deno.test("resolveLimits() combines the signals of every layer", () => {
  const agent = new AbortController();
  const call = new AbortController();
  const limits = resolveLimits({ agent: { signal: agent.signal }, call: { signal: call.signal } });
  ok(limits.signal !== undefined);
  strictEqual(limits.signal.aborted, false);
  agent.abort(new Error("agent shut down"));
  strictEqual(limits.signal.aborted, true);
  strictEqual((limits.signal.reason as Error).message, "agent shut down");

  const only = new AbortController();
  strictEqual(resolveLimits({ call: { signal: only.signal } }).signal, only.signal);
});

Deno.test("resolveLimits() accepts its own result as a layer unchanged", () => {
  const first = resolveLimits({ agent: { maxResponseBytes: 9_000_000, timeoutMs: 5 } });
  deepStrictEqual(resolveLimits({ call: first }), first);
});
