import { isJsonObject } from "@adcp-wire/internal";

/**
 * The four `StreamResponse` oneof keys (A2A Response Extraction, "Extraction Algorithm" step 0).
 */
const ENVELOPE_KEYS: readonly string[] = ["task", "message", "statusUpdate", "artifactUpdate"];

/** The single own key of an envelope, or `undefined` when `value` is none. */
function envelopeKeyOf(value: unknown): string | undefined {
  if (!isJsonObject(value)) return undefined;
  // `in` (answered by the inline cache) proves that a bare task is no envelope without listing its
  // keys; the keys are listed only when one of the four may be an own key.
  if (
    !("task" in value || "message" in value || "statusUpdate" in value || "artifactUpdate" in value)
  ) {
    return undefined;
  }
  const keys = Object.keys(value);
  return keys.length === 1 && ENVELOPE_KEYS.includes(keys[0]!) ? keys[0] : undefined;
}

/**
 * Whether `value` has the shape of an A2A 1.0 `StreamResponse` envelope: an object whose single own
 * key is `task`, `message`, `statusUpdate` or `artifactUpdate`, whatever that key holds.
 *
 * A2A Response Extraction, "Wire-Format Compatibility" (streaming envelopes).
 *
 * @param value Any value.
 * @returns `true` for a single-key envelope.
 *
 * @example Envelopes and bare tasks
 * ```ts
 * import { isA2AStreamEnvelope } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isA2AStreamEnvelope({ statusUpdate: { status: { state: "working" } } }), true);
 * strictEqual(isA2AStreamEnvelope({ id: "t1", status: { state: "working" } }), false);
 * strictEqual(isA2AStreamEnvelope({ task: {}, id: "t1" }), false); // two keys
 * ```
 */
export function isA2AStreamEnvelope(value: unknown): boolean {
  return envelopeKeyOf(value) !== undefined;
}

/**
 * Unwraps one A2A 1.0 `StreamResponse` envelope holding an object, exactly once, and refuses a
 * nested envelope (smuggling) with `undefined`. Anything that is not an envelope is returned
 * unchanged.
 *
 * A2A Response Extraction, "Extraction Algorithm" step 0.
 *
 * @param input An A2A response: any value.
 * @returns The inner object, `input` itself when it is no envelope, or `undefined` when nested.
 *
 * @example One level, never two
 * ```ts
 * import { unwrapA2AStreamEnvelope } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * const task = { id: "t1", status: { state: "TASK_STATE_WORKING" } };
 * strictEqual(unwrapA2AStreamEnvelope({ task }), task);
 * strictEqual(unwrapA2AStreamEnvelope(task), task); // a bare task passes through
 * strictEqual(unwrapA2AStreamEnvelope({ task: { task } }), undefined); // nested: malformed
 * ```
 */
export function unwrapA2AStreamEnvelope(input: unknown): unknown {
  const key = envelopeKeyOf(input);
  if (key === undefined) return input;
  const inner = (input as Record<string, unknown>)[key];
  if (!isJsonObject(inner)) return input;
  for (const envelopeKey of ENVELOPE_KEYS) {
    if (Object.hasOwn(inner, envelopeKey)) return undefined; // nested envelope: malformed
  }
  return inner;
}
