import { AdcpWireError } from "@adcp-wire/internal";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  AdcpSecurityError,
  type AnySecurityError,
  Base64SizeLimitError,
  DangerousKeyError,
  InvalidBase64Error,
  JsonDepthLimitError,
  JsonNodeLimitError,
} from "./errors.ts";

Deno.test("security errors carry literal codes and names, fields, and a cause", () => {
  const errors: AnySecurityError[] = [
    new JsonDepthLimitError(64, 65),
    new JsonNodeLimitError(10, 11),
    new DangerousKeyError("constructor", "/a/constructor"),
    new Base64SizeLimitError(4, 6),
    new InvalidBase64Error("invalid_length", 5),
  ];
  deepStrictEqual(errors.map((error) => [error.code, error.name]), [
    ["JSON_DEPTH_LIMIT", "JsonDepthLimitError"],
    ["JSON_NODE_LIMIT", "JsonNodeLimitError"],
    ["DANGEROUS_KEY", "DangerousKeyError"],
    ["BASE64_SIZE_LIMIT", "Base64SizeLimitError"],
    ["INVALID_BASE64", "InvalidBase64Error"],
  ]);
  for (const error of errors) {
    ok(error instanceof AdcpSecurityError);
    ok(error instanceof AdcpWireError);
    ok(error instanceof Error);
    ok(!error.message.endsWith("."));
  }
  deepStrictEqual(errors[0]!.cause, { limit: 64, observed: 65 });
  deepStrictEqual(errors[2]!.cause, { key: "constructor", pointer: "/a/constructor" });
  deepStrictEqual(errors[4]!.cause, { reason: "invalid_length", position: 5 });
  strictEqual(
    errors[3]!.message,
    "Cannot decode base64: decoded size would exceed 4 bytes (implied 6)",
  );
});

Deno.test("JSON limit errors state the limit and the value seen, in message and fields", () => {
  const depth = new JsonDepthLimitError(64, 65);
  strictEqual(depth.message, "Cannot accept JSON: nesting exceeded 64 levels (observed 65)");
  deepStrictEqual([depth.limit, depth.observed], [64, 65]);
  deepStrictEqual(depth.cause, { limit: 64, observed: 65 });
  const nodes = new JsonNodeLimitError(9, 10);
  strictEqual(nodes.message, "Cannot accept JSON: size exceeded 9 values (observed 10)");
  deepStrictEqual([nodes.limit, nodes.observed], [9, 10]);
  deepStrictEqual(nodes.cause, { limit: 9, observed: 10 });
});
