import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { AdcpWireError } from "@adcp-wire/internal";
import * as security from "@adcp-wire/security";
import {
  AdcpTransportError,
  type AnyTransportError,
  ContentEncodingError,
  DeadlineExceededError,
  JsonDepthLimitError,
  JsonNodeLimitError,
  MalformedJsonError,
  MalformedUtf8Error,
  ResponseTooLargeError,
} from "./errors.ts";

Deno.test("every transport error has a literal code and name and shares the base class", () => {
  const cases: [AnyTransportError, string, string][] = [
    [new ResponseTooLargeError(1, 2, "raw"), "RESPONSE_TOO_LARGE", "ResponseTooLargeError"],
    [new DeadlineExceededError(10, 11), "DEADLINE_EXCEEDED", "DeadlineExceededError"],
    [new JsonDepthLimitError(64, 65), "JSON_DEPTH_LIMIT", "JsonDepthLimitError"],
    [new JsonNodeLimitError(9, 10), "JSON_NODE_LIMIT", "JsonNodeLimitError"],
    [new MalformedJsonError("syntax", 3), "MALFORMED_JSON", "MalformedJsonError"],
    [new MalformedUtf8Error(), "MALFORMED_UTF8", "MalformedUtf8Error"],
    [new ContentEncodingError("zstd", "unsupported"), "CONTENT_ENCODING", "ContentEncodingError"],
  ];
  for (const [error, code, name] of cases) {
    ok(error instanceof AdcpWireError);
    ok(error instanceof AdcpTransportError || error instanceof security.AdcpSecurityError);
    ok(error instanceof Error);
    strictEqual(error.code, code);
    strictEqual(error.name, name);
    ok(!error.message.endsWith("."), error.message);
  }
});

Deno.test("ResponseTooLargeError names each phase in its message and cause", () => {
  const messages = {
    "content-length":
      "Cannot read response: declared Content-Length exceeded 10 bytes (observed 99)",
    raw: "Cannot read response: body exceeded 10 bytes (observed 99)",
    decoded: "Cannot read response: decoded body exceeded 10 bytes (observed 99)",
    event: "Cannot read response: one SSE event exceeded 10 bytes (observed 99)",
    cumulative: "Cannot read response: bytes for one operation exceeded 10 bytes (observed 99)",
    message: "Cannot read response: one stdio message exceeded 10 bytes (observed 99)",
  } as const;
  for (const [phase, message] of Object.entries(messages)) {
    const error = new ResponseTooLargeError(10, 99, phase as keyof typeof messages);
    strictEqual(error.message, message);
    deepStrictEqual(error.cause, { limit: 10, observed: 99, phase });
    strictEqual(error.phase, phase);
  }
});

Deno.test("DeadlineExceededError reports a signal timeout without a timeoutMs", () => {
  const reason = new DOMException("timed out", "TimeoutError");
  const error = new DeadlineExceededError(undefined, 12.6, reason);
  strictEqual(error.timeoutMs, undefined);
  strictEqual(error.elapsedMs, 13);
  strictEqual(error.cause, reason);
  strictEqual(
    error.message,
    "Cannot read response: the caller's timeout signal fired (elapsed 13 ms)",
  );
  deepStrictEqual(new DeadlineExceededError(5, 7).cause, { timeoutMs: 5, elapsedMs: 7 });
});

Deno.test(
  "the JSON limit errors are declared once, in @adcp-wire/security, and re-exported",
  () => {
    strictEqual(JsonDepthLimitError, security.JsonDepthLimitError);
    strictEqual(JsonNodeLimitError, security.JsonNodeLimitError);
    const error = new JsonDepthLimitError(64, 65);
    ok(error instanceof security.AdcpSecurityError);
    ok(error instanceof AdcpWireError);
    ok(!(error instanceof AdcpTransportError));
    ok(new ResponseTooLargeError(1, 2, "raw") instanceof AdcpWireError);
  },
);

Deno.test("MalformedJsonError distinguishes syntax from an unterminated stdio message", () => {
  strictEqual(
    new MalformedJsonError("unterminated", 40).message,
    "Cannot read response: expected a newline after each message, saw the stream end after 40 " +
      "bytes of an unterminated message",
  );
  deepStrictEqual(new MalformedJsonError("syntax", 2).cause, { reason: "syntax", length: 2 });
});

Deno.test("ContentEncodingError sanitizes the seller's coding before storing it", () => {
  const error = new ContentEncodingError("x\u001b[31m\nzstd" + "a".repeat(100), "corrupt");
  strictEqual(error.encoding, "x?[31m?zstd" + "a".repeat(53));
  strictEqual(error.encoding.length, 64);
  strictEqual(error.message, `Cannot read response: body is not valid "${error.encoding}" data`);
  strictEqual(error.reason, "corrupt");
});
