// `field` is never a path (Transport Error Mapping, Security Considerations, "Buyer Agent
// Requirements": "Never use `field` as a dynamic property path in object mutation operations
// (e.g., `lodash.set`, bracket notation chains)"). Every public API that reads `field`, seller side
// (the helpers, the checker, the pointer-to-field fill) and buyer side (extraction in
// @adcp-wire/core, recovery decisions in @adcp-wire/recovery, sanitizing and merging in
// @adcp-wire/security), is fed hostile values: each must come back as a plain string, nothing may
// be written at the path it spells, and no prototype may change.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  detectAdcpError,
  extractAdcpErrorFromA2A,
  extractAdcpErrorFromJsonRpcError,
  extractAdcpErrorFromMcp,
  handleA2AResponse,
  handleMcpResponse,
  validateAdcpError,
} from "@adcp-wire/core";
import { classifyRecovery, decideRecovery } from "@adcp-wire/recovery";
import {
  mergeSafe,
  sanitizeAdcpError,
  sanitizeSellerString,
  toSafeJson,
  wrapUntrustedSellerData,
} from "@adcp-wire/security";
import { adcpErrorResult } from "./adcp_error_result.ts";
import { adcpFailedTask } from "./adcp_failed_task.ts";
import { adcpJsonRpcError } from "./adcp_jsonrpc_error.ts";
import { checkOutgoingAdcpError } from "./check_outgoing_adcp_error.ts";
import { forwardAdcpError } from "./forward_adcp_error.ts";

/** Values a path setter would turn into prototype pollution or nested writes. */
const HOSTILE_FIELDS = [
  "__proto__.polluted",
  "constructor.prototype.x",
  "a[0].b",
  "__proto__",
  "constructor",
  "prototype",
  "__proto__[polluted]",
  "constructor[prototype][x]",
  "a.__proto__.polluted",
  "toString",
];

/** RFC 6901 pointers whose JSONPath-lite form is a hostile field, and that form. */
const HOSTILE_POINTERS: readonly [string, string][] = [
  ["/__proto__/polluted", "__proto__.polluted"],
  ["/constructor/prototype/x", "constructor.prototype.x"],
  ["/a/0/b", "a[0].b"],
  ["/__proto__", "__proto__"],
];

/** The keys a path setter would write, on any object it reached. */
const WRITTEN_KEYS = ["polluted", "x", "a", "b", "0", "prototype"];

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const BASELINE = PROTOTYPES.map((prototype) => Reflect.ownKeys(prototype).map(String).sort());

/** No prototype gained a property, and a fresh object reads none of the written keys. */
function assertUnpolluted(label: string): void {
  PROTOTYPES.forEach((prototype, index) => {
    deepStrictEqual(Reflect.ownKeys(prototype).map(String).sort(), BASELINE[index], label);
  });
  const fresh: Record<string, unknown> = {};
  for (const key of WRITTEN_KEYS) strictEqual(fresh[key], undefined, `${label}: ({}).${key}`);
  strictEqual(({} as Record<string, unknown>).polluted, undefined, label);
  strictEqual(Object.getPrototypeOf({}), Object.prototype, label);
  strictEqual(typeof ({}).toString, "function", label);
}

/**
 * Nothing was written along the path: every object in `value` has a standard prototype and none of
 * the keys a setter would create, `constructor` and `__proto__` included.
 */
function assertNotWritten(value: unknown, label: string, seen = new Set<object>()): void {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  const prototype = Object.getPrototypeOf(value);
  ok(
    prototype === Object.prototype || prototype === Array.prototype || prototype === null,
    `${label}: prototype replaced`,
  );
  for (const key of [...WRITTEN_KEYS, "constructor", "__proto__"]) {
    if (Array.isArray(value) && key === "0") continue;
    ok(!Object.hasOwn(value, key), `${label}: wrote ${key}`);
  }
  for (const key of Object.keys(value)) {
    assertNotWritten((value as Record<string, unknown>)[key], label, seen);
  }
}

function errorWith(field: string): Record<string, unknown> {
  return {
    code: "FIELD_NOT_PERMITTED",
    message: "Field not permitted",
    recovery: "correctable",
    field,
  };
}

Deno.test(
  "seller helpers and the checker send a " +
    "hostile field as a string, writing nothing",
  () => {
    for (const field of HOSTILE_FIELDS) {
      const input = errorWith(field);
      const before = JSON.stringify(input);
      const label = `field ${JSON.stringify(field)}`;

      const checked = checkOutgoingAdcpError(input);
      ok(checked.valid, label);
      strictEqual(checked.error.field, field, label);
      deepStrictEqual(Object.keys(checked.error), ["code", "message", "recovery", "field"], label);
      assertNotWritten(checked.error, label);

      const result = adcpErrorResult(input, { payload: true, summary: `Field ${field} refused.` });
      strictEqual(result.structuredContent.adcp_error.field, field, label);
      strictEqual(JSON.parse(result.content[0]!.text).adcp_error.field, field, label);
      assertNotWritten(result, label);

      const task = adcpFailedTask({ id: "t", contextId: "c" }, input, { payload: true });
      strictEqual(extractAdcpErrorFromA2A(task)?.field, field, label);
      assertNotWritten(task, label);

      const rpc = adcpJsonRpcError({ code: "RATE_LIMITED", message: "Slow", field });
      strictEqual(rpc.data.adcp_error.field, field, label);
      assertNotWritten(rpc, label);

      const forwarded = forwardAdcpError(input);
      strictEqual(forwarded.field, field, label);
      assertNotWritten(adcpErrorResult(forwarded), label);

      strictEqual(JSON.stringify(input), before, `${label}: input modified`);
      assertUnpolluted(label);
    }
  },
);

Deno.test(
  "checkOutgoingAdcpError() fills field from " +
    "a hostile issues[0].pointer as a string only",
  () => {
    for (const [pointer, field] of HOSTILE_POINTERS) {
      const label = `pointer ${pointer}`;
      const input = {
        code: "VALIDATION_ERROR",
        message: "Invalid request",
        issues: [{ pointer, message: "Not allowed", keyword: "not" }],
      };
      const checked = checkOutgoingAdcpError(input);
      ok(checked.valid, label);
      strictEqual(checked.error.field, field, label);
      deepStrictEqual(
        Object.keys(checked.error),
        ["code", "message", "recovery", "issues", "field"],
        label,
      );
      assertNotWritten(checked.error, label);
      const result = adcpErrorResult(input);
      strictEqual(result.structuredContent.adcp_error.field, field, label);
      assertNotWritten(result, label);
      assertUnpolluted(label);
    }
  },
);

Deno.test(
  "buyer-side extraction, recovery and sanitizing " +
    "read a hostile field as a string, writing nothing",
  () => {
    for (const field of HOSTILE_FIELDS) {
      const label = `field ${JSON.stringify(field)}`;
      const errorText = JSON.stringify(errorWith(field));
      // Responses as they come off the wire: parsed JSON text.
      const mcp = JSON.parse(
        `{"isError":true,"content":[{"type":"text","text":${
          JSON.stringify(`{"adcp_error":${errorText}}`)
        }}],"structuredContent":{"adcp_error":${errorText}}}`,
      );
      const legacy = { isError: true, content: mcp.content };
      const rpc = JSON.parse(
        `{"jsonrpc":"2.0","id":1,"error":{"code":-32029,"message":"x",` +
          `"data":{"adcp_error":${errorText}}}}`,
      );
      const a2a = JSON.parse(
        `{"id":"t","status":{"state":"failed"},"artifacts":[{"artifactId":"e",` +
          `"parts":[{"kind":"data","data":{"adcp_error":${errorText}}}]}]}`,
      );
      const payload = JSON.parse(`{"status":"failed","errors":[${errorText}]}`);

      const found = [
        validateAdcpError(JSON.parse(errorText)),
        extractAdcpErrorFromMcp(mcp),
        extractAdcpErrorFromMcp(legacy),
        extractAdcpErrorFromJsonRpcError(rpc),
        extractAdcpErrorFromA2A(a2a),
        detectAdcpError(mcp)?.error,
        detectAdcpError(rpc)?.error,
        detectAdcpError(a2a)?.error,
        detectAdcpError(payload)?.error,
      ];
      const mcpOutcome = handleMcpResponse(mcp);
      const a2aOutcome = handleA2AResponse(a2a);
      ok(mcpOutcome.kind === "error" && a2aOutcome.kind === "error", label);
      found.push(mcpOutcome.error, a2aOutcome.error);
      for (const error of found) {
        strictEqual(error?.field, field, label);
        assertNotWritten(error, label);
      }

      // Recovery: the field is surfaced for display, as a string.
      const error = found[0]!;
      strictEqual(classifyRecovery(error), "correctable", label);
      const decision = decideRecovery(error);
      deepStrictEqual(decision, { action: "surface_to_caller", field }, label);
      assertNotWritten(decision, label);

      // Security: sanitizing, wrapping and merging keep it a string value under the key "field".
      const sanitized = sanitizeAdcpError(error);
      strictEqual(sanitized.field, field, label);
      assertNotWritten(sanitized, label);
      strictEqual(sanitizeSellerString(field, { maxBytes: 256 }), field, label);
      const wrapped = wrapUntrustedSellerData({ field: sanitized.field }, {
        nonce: "0123456789abcdef",
      });
      ok(wrapped.includes(JSON.stringify({ field })), label);
      const state: Record<string, unknown> = {};
      mergeSafe(state, sanitized);
      strictEqual(state.field, field, label);
      assertNotWritten(state, label);
      const safe = toSafeJson(error) as Record<string, unknown>;
      strictEqual(safe.field, field, label);
      assertNotWritten(safe, label);

      assertUnpolluted(label);
    }
  },
);
