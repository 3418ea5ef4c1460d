import fc from "fast-check";
import { strictEqual } from "node:assert/strict";
import { json, runPure } from "./_test_utils.ts";
import { isA2AStreamEnvelope, unwrapA2AStreamEnvelope } from "./unwrap_a2a_stream_envelope.ts";

const ENVELOPE_KEYS = ["task", "message", "statusUpdate", "artifactUpdate"];

Deno.test("unwrapA2AStreamEnvelope() unwraps exactly one envelope level", () => {
  const task = { status: { state: "working" } };
  for (const key of ENVELOPE_KEYS) {
    strictEqual(unwrapA2AStreamEnvelope({ [key]: task }), task, key);
    strictEqual(unwrapA2AStreamEnvelope({ [key]: { [key]: task } }), undefined, `${key} nested`);
    strictEqual(
      unwrapA2AStreamEnvelope({ [key]: { task, id: "t" } }),
      undefined,
      `${key} inner with an envelope key among others`,
    );
  }
  strictEqual(unwrapA2AStreamEnvelope(task), task);
});

Deno.test("unwrapA2AStreamEnvelope() passes non-envelopes through unchanged", () => {
  const twoKeys = { task: {}, id: "x" };
  strictEqual(unwrapA2AStreamEnvelope(twoKeys), twoKeys);
  const nullTask = { task: null };
  strictEqual(unwrapA2AStreamEnvelope(nullTask), nullTask);
  const arrayTask = { task: [] };
  strictEqual(unwrapA2AStreamEnvelope(arrayTask), arrayTask);
  const other = { result: {} };
  strictEqual(unwrapA2AStreamEnvelope(other), other);
  const inherited = Object.create({ task: {} });
  strictEqual(unwrapA2AStreamEnvelope(inherited), inherited);
  strictEqual(unwrapA2AStreamEnvelope("task"), "task");
  strictEqual(unwrapA2AStreamEnvelope(undefined), undefined);
});

Deno.test("isA2AStreamEnvelope() needs a single own envelope key, whatever it holds", () => {
  for (const key of ENVELOPE_KEYS) {
    strictEqual(isA2AStreamEnvelope({ [key]: {} }), true, key);
    strictEqual(isA2AStreamEnvelope({ [key]: null }), true, `${key}: null`);
    strictEqual(isA2AStreamEnvelope({ [key]: {}, id: "t" }), false, `${key} and id`);
  }
  strictEqual(isA2AStreamEnvelope({}), false);
  strictEqual(isA2AStreamEnvelope({ Task: {} }), false);
  strictEqual(isA2AStreamEnvelope({ result: {} }), false);
  strictEqual(isA2AStreamEnvelope(Object.create({ task: {} })), false);
  strictEqual(isA2AStreamEnvelope(json('{"__proto__":{}}')), false);
  strictEqual(isA2AStreamEnvelope(["task"]), false);
  strictEqual(isA2AStreamEnvelope("task"), false);
  strictEqual(isA2AStreamEnvelope(null), false);
});

Deno.test("unwrapA2AStreamEnvelope() follows step 0 on any JSON value (property)", () => {
  const inner = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom(...ENVELOPE_KEYS, "id"), fc.jsonValue(), {
      noNullPrototype: true,
    }),
  );
  const value = fc.oneof(
    fc.jsonValue(),
    fc.tuple(fc.constantFrom(...ENVELOPE_KEYS), inner).map(([key, v]) => ({ [key]: v })),
  );
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  fc.assert(
    fc.property(value, (input) => {
      const out = runPure(input, unwrapA2AStreamEnvelope);
      if (!isA2AStreamEnvelope(input)) return strictEqual(out, input);
      const held = (input as Record<string, unknown>)[Object.keys(input as object)[0]!];
      if (!isObject(held)) return strictEqual(out, input);
      const nested = ENVELOPE_KEYS.some((key) => Object.hasOwn(held, key));
      strictEqual(out, nested ? undefined : held);
    }),
  );
});
