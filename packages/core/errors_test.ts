import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { AdcpCoreError, type AdcpCoreErrors, WrapperDetectedError } from "./errors.ts";

Deno.test("WrapperDetectedError carries a literal code and name, and the part index", () => {
  const error = new WrapperDetectedError(3);
  ok(error instanceof AdcpCoreError);
  ok(error instanceof Error);
  strictEqual(error.code, "wrapper_detected");
  strictEqual(error.name, "WrapperDetectedError");
  strictEqual(error.partIndex, 3);
  deepStrictEqual(error.cause, { partIndex: 3 });
  strictEqual(
    error.message,
    'Cannot extract A2A response: artifacts[0].parts[3].data is a framework wrapper (expected the AdCP payload, saw a single "response" key holding an object)',
  );
  strictEqual(String(error).startsWith("WrapperDetectedError: Cannot extract"), true);
});

Deno.test("AdcpCoreErrors narrows on code", () => {
  const error: AdcpCoreErrors = new WrapperDetectedError(0);
  switch (error.code) {
    case "wrapper_detected":
      strictEqual(error.partIndex, 0);
      break;
    default: {
      const unreachable: never = error.code;
      throw new Error(`unexpected ${unreachable}`);
    }
  }
});
