/**
 * The `webhook-receiver-envelope` suite: the receiver-side check of an MCP webhook POST body before
 * dispatch, and `idempotency_key` dedup of a retry. Reads upstream's
 * `webhook-receiver-envelope.json` (sections `positive` and `negative`) and local files of one flat
 * `vectors` array whose entries carry `kind` (`positive` or `negative`).
 *
 * Request input: `{payload, previous}`, `previous` being the payload of the vector named by
 * `same_event_as` (or `null`). Reply: `{valid: true, idempotency_key, duplicate}` (`duplicate`: a
 * fresh dedup claimed `previous`'s key for one sender, then this one's) or
 * `{valid: false, error}`. A negative vector passes with `error` equal to `expected_error`; a
 * positive one with the payload's `idempotency_key` and `duplicate` true exactly when the vector
 * has `same_event_as`.
 *
 * @module
 */
import { expectResult, isObject, resultOf, type SuiteDef } from "./_def.ts";

const KINDS = ["positive", "negative"];

function collect(doc: Record<string, unknown>): unknown[] | string {
  if (Array.isArray(doc.vectors)) {
    for (const [i, v] of doc.vectors.entries()) {
      if (!isObject(v) || !KINDS.includes(v.kind as string)) {
        return `webhook-receiver-envelope file: vectors[${i}].kind must be positive or negative`;
      }
    }
    return doc.vectors;
  }
  if (!Array.isArray(doc.positive) || !Array.isArray(doc.negative)) {
    return "webhook-receiver-envelope file: expected `positive` and `negative` arrays or `vectors`";
  }
  return [
    ...doc.positive.map((v) => ({ ...(isObject(v) ? v : {}), kind: "positive" })),
    ...doc.negative.map((v) => ({ ...(isObject(v) ? v : {}), kind: "negative" })),
  ];
}

/** The suite; `same_event_as` is resolved against the file's vectors by `collect`'s output. */
export const suite: SuiteDef = {
  required: ["kind", "payload"],
  collect(doc) {
    const vectors = collect(doc);
    if (typeof vectors === "string") return vectors;
    const byId = new Map<string, unknown>();
    for (const v of vectors) if (isObject(v) && typeof v.id === "string") byId.set(v.id, v.payload);
    return vectors.map((v) => {
      if (!isObject(v) || typeof v.same_event_as !== "string") return v;
      // An unknown reference leaves `previous` out: the vector then fails as malformed.
      return byId.has(v.same_event_as) ? { ...v, previous: byId.get(v.same_event_as) } : v;
    });
  },
  input: (v) => ({
    payload: v.payload,
    previous: Object.hasOwn(v, "previous") ? v.previous : null,
  }),
  judge(v, reply) {
    if (v.kind === "negative") {
      if (typeof v.expected_error !== "string") {
        return { reason: "malformed vector: a negative vector needs a string expected_error" };
      }
      return expectResult({ valid: false, error: v.expected_error }, reply);
    }
    if (Object.hasOwn(v, "same_event_as") && !Object.hasOwn(v, "previous")) {
      return { reason: "malformed vector: same_event_as names no vector of this file" };
    }
    const key = isObject(v.payload) ? v.payload.idempotency_key : undefined;
    const r = resultOf(reply);
    if (!r.ok) {
      return { reason: `threw an error with code ${JSON.stringify(r.code)}`, actual: reply };
    }
    return expectResult(
      { valid: true, idempotency_key: key, duplicate: Object.hasOwn(v, "same_event_as") },
      reply,
    );
  },
};
