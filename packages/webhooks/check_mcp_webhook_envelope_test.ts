import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { checkMcpWebhookEnvelope } from "./check_mcp_webhook_envelope.ts";

const envelope = {
  idempotency_key: "whk_01HW9D3H8FZP2N6R8T0V4X6Z9B",
  operation_id: "op_456",
  task_id: "task_456",
  task_type: "create_media_buy",
  status: "completed",
  timestamp: "2026-11-30T10:00:00Z",
};

Deno.test("checkMcpWebhookEnvelope() accepts every task status of the pinned schema", async () => {
  const schema = JSON.parse(
    await Deno.readTextFile(
      new URL("../../spec/schemas/3.2.0-beta.5/enums/task-status.json", import.meta.url),
    ),
  );
  for (const status of schema.enum as string[]) {
    ok(checkMcpWebhookEnvelope({ ...envelope, status }).valid, status);
  }
  for (const status of ["active", "paused", "pending_activation", "COMPLETED", " completed"]) {
    const checked = checkMcpWebhookEnvelope({ ...envelope, status });
    strictEqual(!checked.valid && checked.code, "invalid_envelope_status", status);
  }
});

Deno.test("checkMcpWebhookEnvelope() names missing fields, never seller values", () => {
  const secret = "sk_live_0123456789abcdef0123456789";
  const checked = checkMcpWebhookEnvelope({ ...envelope, task_id: undefined, status: secret });
  ok(!checked.valid);
  strictEqual(checked.code, "missing_envelope_fields");
  ok(checked.message.includes("task_id"), checked.message);
  const wrong = checkMcpWebhookEnvelope({ ...envelope, status: secret });
  ok(!wrong.valid && !wrong.message.includes(secret), "a bad status is not echoed");
  const key = checkMcpWebhookEnvelope({ ...envelope, idempotency_key: `${secret} x` });
  ok(!key.valid && key.code === "invalid_idempotency_key" && !key.message.includes(secret));
});

Deno.test("checkMcpWebhookEnvelope() reads own fields only", () => {
  const inherited = Object.create({ ...envelope });
  const checked = checkMcpWebhookEnvelope(inherited);
  strictEqual(!checked.valid && checked.code, "missing_envelope_fields");
  const parsed = JSON.parse(
    `{"__proto__": {"status": "completed"}, ${
      JSON.stringify(envelope).slice(1, -1).replace('"status":"completed",', "")
    }}`,
  );
  strictEqual(!checkMcpWebhookEnvelope(parsed).valid, true, "__proto__ is not the status");
});

Deno.test("checkMcpWebhookEnvelope() returns the envelope and key it checked", () => {
  const checked = checkMcpWebhookEnvelope({ ...envelope, result: { media_buy_id: "mb_1" } });
  ok(checked.valid);
  strictEqual(checked.idempotencyKey, envelope.idempotency_key);
  deepStrictEqual(checked.envelope.result, { media_buy_id: "mb_1" });
});

Deno.test("checkMcpWebhookEnvelope() never throws and only accepts objects", () => {
  fc.assert(
    fc.property(fc.anything(), (value) => {
      const checked = checkMcpWebhookEnvelope(value);
      return typeof checked.valid === "boolean" &&
        (!checked.valid || (typeof value === "object" && value !== null));
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom(...Object.keys(envelope)), fc.jsonValue()), (p) => {
      const checked = checkMcpWebhookEnvelope({ ...envelope, ...p });
      return checked.valid || typeof checked.code === "string";
    }),
    { numRuns: 500 },
  );
});

Deno.test("checkMcpWebhookEnvelope() describes bad seller strings by length, never content", () => {
  // Short strings too: a rendering that only cuts long values would still echo these.
  const fields = ["idempotency_key", "status", "timestamp", "token"];
  fc.assert(
    fc.property(fc.constantFrom(...fields), fc.string({ maxLength: 10 }), (field, tail) => {
      const value = `ZQX ${tail}`; // never a valid key, status, timestamp or 16-character token
      const checked = checkMcpWebhookEnvelope({ ...envelope, [field]: value });
      return !checked.valid && !checked.message.includes("ZQX") &&
        checked.message.includes(`${value.length}-character string`);
    }),
    { numRuns: 300 },
  );
  const token = checkMcpWebhookEnvelope({ ...envelope, token: "secret-token" });
  ok(!token.valid && !token.message.includes("secret-token"), "a short token is not echoed");
});
