import { combineSignals } from "./_limits.ts";
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

Deno.test("resolveLimits() lets the call win over the agent, the agent over the defaults", () => {
  const limits = resolveLimits({
    defaultLimits: {
      maxResponseBytes: 1_000,
      timeoutMs: 1_000,
      maxJsonDepth: 10,
      maxJsonNodes: 100,
    },
    agentLimits: { maxResponseBytes: 2_000, timeoutMs: 2_000, maxJsonDepth: 20 },
    callLimits: { maxResponseBytes: 3_000 },
  });
  strictEqual(limits.maxResponseBytes, 3_000);
  strictEqual(limits.timeoutMs, 2_000);
  strictEqual(limits.maxJsonDepth, 20);
  strictEqual(limits.maxJsonNodes, 100);
});

Deno.test("resolveLimits() makes maxDecodedBytes follow maxResponseBytes unless set", () => {
  strictEqual(
    resolveLimits({ agentLimits: { maxResponseBytes: 10_000_000 } }).maxDecodedBytes,
    10_000_000,
  );
  strictEqual(
    resolveLimits({
      defaultLimits: { maxDecodedBytes: 2_000 },
      callLimits: { maxResponseBytes: 10_000_000 },
    })
      .maxDecodedBytes,
    2_000,
  );
  strictEqual(
    resolveLimits({
      agentLimits: { maxDecodedBytes: 50_000_000 },
      callLimits: { maxResponseBytes: 1_000 },
    })
      .maxDecodedBytes,
    50_000_000,
  );
});

Deno.test("resolveLimits() refuses a default byte cap above 4 MiB and names the option", () => {
  throws(() => resolveLimits({ defaultLimits: { maxResponseBytes: 4_194_305 } }), {
    name: "RangeError",
    message:
      "Cannot resolve limits as 'defaultLimits.maxResponseBytes' must be at most 4194304 (the " +
      "ceiling on a default; raise the limit per agent or per call instead): current value is " +
      "4194305",
  });
  throws(() => resolveLimits({ defaultLimits: { maxDecodedBytes: 8_388_608 } }), {
    name: "RangeError",
    message: /^Cannot resolve limits as 'defaultLimits\.maxDecodedBytes' must be at most 4194304/,
  });
  // Exactly 4 MiB, lower defaults, and raised agent or call limits are all accepted.
  strictEqual(
    resolveLimits({ defaultLimits: { maxResponseBytes: 4_194_304 } }).maxResponseBytes,
    4_194_304,
  );
  strictEqual(resolveLimits({ defaultLimits: { maxResponseBytes: 1 } }).maxResponseBytes, 1);
  strictEqual(
    resolveLimits({ agentLimits: { maxResponseBytes: 1 << 30 } }).maxResponseBytes,
    1 << 30,
  );
  strictEqual(
    resolveLimits({ callLimits: { maxResponseBytes: 1 << 30 } }).maxResponseBytes,
    1 << 30,
  );
});

Deno.test("resolveLimits() rejects bad values with errors naming the option and the value", () => {
  throws(() => resolveLimits({ callLimits: { maxResponseBytes: -1 } }), {
    name: "RangeError",
    message: "Cannot resolve limits as 'callLimits.maxResponseBytes' must be a non-negative safe " +
      "integer: current value is -1",
  });
  throws(() => resolveLimits({ agentLimits: { maxJsonDepth: 1.5 } }), {
    name: "RangeError",
    message:
      "Cannot resolve limits as 'agentLimits.maxJsonDepth' must be a non-negative safe integer: " +
      "current value is 1.5",
  });
  throws(() => resolveLimits({ callLimits: { maxJsonNodes: "10" as unknown as number } }), {
    name: "TypeError",
    message: "Cannot resolve limits as 'callLimits.maxJsonNodes' must be a number: " +
      'current value is "10"',
  });
  throws(() => resolveLimits({ callLimits: { timeoutMs: 0 } }), {
    name: "RangeError",
    message:
      "Cannot resolve limits as 'callLimits.timeoutMs' must be a number of milliseconds in " +
      "(0, 2147483647]: current value is 0",
  });
  throws(() => resolveLimits({ callLimits: { timeoutMs: Infinity } }), { name: "RangeError" });
  throws(() => resolveLimits({ callLimits: { timeoutMs: Number.NaN } }), { name: "RangeError" });
  throws(() => resolveLimits({ callLimits: { signal: {} as AbortSignal } }), {
    name: "TypeError",
    message: "Cannot resolve limits as 'callLimits.signal' must be an AbortSignal: " +
      "current value is an object",
  });
  throws(() => resolveLimits({ agentLimits: null as unknown as undefined }), {
    name: "TypeError",
    message: "Cannot resolve limits as 'agentLimits' must be an object: current value is null",
  });
  throws(() => resolveLimits(7 as unknown as undefined), {
    name: "TypeError",
    message: "Cannot resolve limits as 'options' must be an object: current value is 7",
  });
});

Deno.test("resolveLimits() combines the signals of every layer", () => {
  const agent = new AbortController();
  const call = new AbortController();
  const limits = resolveLimits({
    agentLimits: { signal: agent.signal },
    callLimits: { signal: call.signal },
  });
  ok(limits.signal !== undefined);
  strictEqual(limits.signal.aborted, false);
  agent.abort(new Error("agent shut down"));
  strictEqual(limits.signal.aborted, true);
  strictEqual((limits.signal.reason as Error).message, "agent shut down");

  const only = new AbortController();
  strictEqual(resolveLimits({ callLimits: { signal: only.signal } }).signal, only.signal);
});

Deno.test("resolveLimits() accepts its own result as a layer unchanged", () => {
  const first = resolveLimits({ agentLimits: { maxResponseBytes: 9_000_000, timeoutMs: 5 } });
  deepStrictEqual(resolveLimits({ callLimits: first }), first);
});

Deno.test("resolveLimits() takes its three layers, the last over the others", () => {
  const limits = resolveLimits({
    defaultLimits: { timeoutMs: 1_000, maxJsonDepth: 16 },
    agentLimits: { maxResponseBytes: 8_388_608, timeoutMs: 2_000 },
    callLimits: { maxJsonDepth: 8 },
  });
  strictEqual(limits.timeoutMs, 2_000);
  strictEqual(limits.maxResponseBytes, 8_388_608);
  strictEqual(limits.maxJsonDepth, 8);
  throws(() => resolveLimits({ callLimits: null as unknown as undefined }), {
    name: "TypeError",
  });
});

Deno.test("combineSignals() aborts with the first reason, as AbortSignal.any does", () => {
  const first = new AbortController();
  const second = new AbortController();
  const combined = combineSignals([first.signal, second.signal]);
  strictEqual(combined.aborted, false);
  second.abort("second");
  strictEqual(combined.aborted, true);
  strictEqual(combined.reason, "second");
  first.abort("first");
  strictEqual(combined.reason, "second");
  const already = new AbortController();
  already.abort("early");
  strictEqual(combineSignals([new AbortController().signal, already.signal]).reason, "early");
});
