import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { AdcpWireError } from "@adcp-wire/internal";
import {
  AdcpCoreError,
  type AnyCoreError,
  DataPartTooLargeError,
  UnexpectedPartCountError,
  WrapperDetectedError,
} from "./errors.ts";

Deno.test("WrapperDetectedError carries a literal code and name, and the part index", () => {
  const error = new WrapperDetectedError(3);
  ok(error instanceof AdcpCoreError);
  ok(error instanceof AdcpWireError);
  ok(error instanceof Error);
  strictEqual(error.code, "WRAPPER_DETECTED");
  strictEqual(error.name, "WrapperDetectedError");
  strictEqual(error.partIndex, 3);
  deepStrictEqual(error.cause, { partIndex: 3 });
  strictEqual(
    error.message,
    "Cannot extract A2A response: artifacts[0].parts[3].data is a framework wrapper (expected " +
      'the AdCP payload, saw a single "response" key holding an object)',
  );
  strictEqual(String(error).startsWith("WrapperDetectedError: Cannot extract"), true);
});

Deno.test("AnyCoreError narrows on code", () => {
  const errors: AnyCoreError[] = [
    new WrapperDetectedError(0),
    new DataPartTooLargeError(10, 11),
    new UnexpectedPartCountError(1, 2),
  ];
  const seen: string[] = [];
  for (const error of errors) {
    switch (error.code) {
      case "WRAPPER_DETECTED":
        seen.push(`wrapper ${error.partIndex}`);
        break;
      case "DATA_PART_TOO_LARGE":
        seen.push(`size ${error.limit}/${error.observed}`);
        break;
      case "UNEXPECTED_PART_COUNT":
        seen.push(`parts ${error.expected}/${error.observed}`);
        break;
      default: {
        const unreachable: never = error;
        throw new Error(`unexpected ${unreachable}`);
      }
    }
  }
  deepStrictEqual(seen, ["wrapper 0", "size 10/11", "parts 1/2"]);
});

Deno.test("every core error is an AdcpWireError with an upper-case code", () => {
  const errors: AnyCoreError[] = [
    new WrapperDetectedError(0),
    new DataPartTooLargeError(10, 11),
    new UnexpectedPartCountError(1, 2),
  ];
  for (const error of errors) {
    ok(error instanceof AdcpWireError, error.name);
    ok(/^[A-Z][A-Z_]*$/.test(error.code), error.code);
  }
});

Deno.test(
  "DataPartTooLargeError and UnexpectedPartCountError carry their fields and messages",
  () => {
    const size = new DataPartTooLargeError(1_048_576, 2_000_000);
    ok(size instanceof AdcpCoreError);
    strictEqual(size.name, "DataPartTooLargeError");
    strictEqual(
      size.message,
      "Cannot extract A2A response: DataPart exceeded 1048576 bytes (observed 2000000)",
    );
    deepStrictEqual(size.cause, { limit: 1_048_576, observed: 2_000_000 });
    const parts = new UnexpectedPartCountError(1, 3);
    ok(parts instanceof AdcpCoreError);
    strictEqual(parts.name, "UnexpectedPartCountError");
    strictEqual(parts.message, "Cannot extract A2A response: expected 1 DataPart(s), saw 3");
  },
);
