import fc from "fast-check";
import { ok, strictEqual } from "node:assert/strict";
import { anyResponse, json, runPure } from "./_test_utils.ts";
import { validateAdcpError } from "./validate_adcp_error.ts";

Deno.test("validateAdcpError() returns the very object, raw fields untouched", () => {
  const raw = json(
    '{"code":"RATE_LIMITED","retry_after":86400,"recovery":"deferred","details":{"a":[1]}}',
  );
  strictEqual(validateAdcpError(raw), raw);
  const minimal = { code: "X" };
  strictEqual(validateAdcpError(minimal), minimal);
});

Deno.test("validateAdcpError() rejects non-objects and arrays", () => {
  for (const value of [undefined, null, true, 0, "RATE_LIMITED", [], [{ code: "X" }]]) {
    strictEqual(validateAdcpError(value), null);
  }
});

Deno.test("validateAdcpError() requires an own string code of 1 to 64 UTF-16 units", () => {
  strictEqual(validateAdcpError({}), null);
  strictEqual(validateAdcpError({ code: 429 }), null);
  strictEqual(validateAdcpError({ code: null }), null);
  strictEqual(validateAdcpError({ code: ["X"] }), null);
  strictEqual(validateAdcpError({ code: "" }), null);
  const at64 = { code: "C".repeat(64) };
  strictEqual(validateAdcpError(at64), at64);
  strictEqual(validateAdcpError({ code: "C".repeat(65) }), null);
  // 32 astral characters are 64 UTF-16 units; 33 are 66.
  const astral64 = { code: "\u{1F600}".repeat(32) };
  strictEqual(validateAdcpError(astral64), astral64);
  strictEqual(validateAdcpError({ code: "\u{1F600}".repeat(33) }), null);
  strictEqual(validateAdcpError(Object.create({ code: "INHERITED" })), null);
});

Deno.test("validateAdcpError() caps JSON.stringify at 4096 UTF-8 bytes, not UTF-16 units", () => {
  // {"code":"X","message":"…"} has 25 bytes of framing around the message.
  const framing = JSON.stringify({ code: "X", message: "" }).length;
  strictEqual(framing, 25);
  const atCap = { code: "X", message: "a".repeat(4096 - framing) };
  strictEqual(validateAdcpError(atCap), atCap);
  strictEqual(validateAdcpError({ code: "X", message: "a".repeat(4097 - framing) }), null);
  // 1,357 euro signs: 1,383 UTF-16 units of JSON but 4,097 UTF-8 bytes.
  const euros = { code: "X", message: "€".repeat(1357) + "a" };
  strictEqual(JSON.stringify(euros).length, 1383);
  strictEqual(new TextEncoder().encode(JSON.stringify(euros)).length, 4097);
  strictEqual(validateAdcpError(euros), null);
  const eurosAtCap = { code: "X", message: "€".repeat(1357) };
  strictEqual(validateAdcpError(eurosAtCap), eurosAtCap);
});

Deno.test("validateAdcpError() treats values JSON.stringify cannot serialize as no error", () => {
  strictEqual(validateAdcpError({ code: "X", details: 1n }), null);
  const cyclic: Record<string, unknown> = { code: "X" };
  cyclic["self"] = cyclic;
  strictEqual(validateAdcpError(cyclic), null);
  strictEqual(validateAdcpError({ code: "X", toJSON: () => undefined }), null);
  let deep: unknown = { code: "X" };
  for (let i = 0; i < 200_000; i++) deep = { code: "X", next: deep };
  strictEqual(validateAdcpError(deep), null); // too deep for JSON.stringify, or over the cap
});

Deno.test("validateAdcpError() keeps own __proto__ and constructor keys as data", () => {
  const raw = json('{"code":"X","__proto__":{"isAdmin":true},"constructor":"c"}');
  strictEqual(validateAdcpError(raw), raw);
  strictEqual(({} as Record<string, unknown>)["isAdmin"], undefined);
});

Deno.test("validateAdcpError() is total, pure and idempotent on any JSON value", () => {
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue(), anyResponse), (value) => {
      const result = runPure(value, validateAdcpError);
      if (result === null) return;
      strictEqual(result, value);
      ok(!Array.isArray(result));
      strictEqual(validateAdcpError(result), result);
    }),
  );
});
