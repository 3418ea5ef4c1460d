/**
 * The `a2a-profile-extension` suite: the AdCP A2A Profile Extension v3 (advertisement, activation
 * and invocation, response mapping). Reads upstream's `a2a-profile-extension-v3.json`, whose
 * vectors sit in three sections, and local files of one flat `vectors` array whose entries carry
 * their `kind`.
 *
 * Kinds, requests and what passes (every vector has `valid`; an invalid one may have
 * `expected_error`):
 *
 * - `advertisement` (upstream `advertisement_vectors`): `{kind, agent_card}`, plus
 *   `require_task_status: true` when a local vector sets it (the agent is known to return AdCP
 *   Submitted work, so `get_task_status` must be advertised).
 * - `invocation` (upstream `invocation_vectors`): `{kind, headers, message}`.
 * - `response` (upstream `response_vectors`): `{kind, response, handler_return}`, the handler
 *   return (`"completed"`, `"submitted"`, `"get_task_status"`) or `null` when the vector has none
 *   (the buyer's view).
 *
 * The reply's result is `{valid: true, adcp_task_id?}` or `{valid: false, error}`. It passes when
 * `valid` equals the vector's, `error` equals `expected_error` when the vector has one, and
 * `adcp_task_id` equals `expected_adcp_task_id` when the vector has one. A valid invocation's
 * reply may also carry `rebuilt_equal`: whether the implementation's own builder, given the
 * vector's skill, input and ids, rebuilt the same Message and headers (the optional TextPart and
 * other activated extensions aside); when present it must be `true`.
 *
 * Upstream vectors all have ids; one without is given `<section>#<n>` (n from 1).
 *
 * @module
 */
import { isObject, objectResult, pretty, type SuiteDef } from "./_def.ts";

/** The vector kinds of this suite. */
export const A2A_PROFILE_KINDS = ["advertisement", "invocation", "response"] as const;

/** The upstream sections, by kind. */
const SECTIONS = [
  ["advertisement_vectors", "advertisement"],
  ["invocation_vectors", "invocation"],
  ["response_vectors", "response"],
] as const;

/** The fields each kind's vectors must carry. */
const KIND_FIELDS: Record<(typeof A2A_PROFILE_KINDS)[number], readonly string[]> = {
  advertisement: ["agent_card"],
  invocation: ["headers", "message"],
  response: ["response"],
};

/** Why vector `where` lacks a field its kind needs, or `undefined`. */
function missingField(v: Record<string, unknown>, where: string): string | undefined {
  const kind = v.kind as (typeof A2A_PROFILE_KINDS)[number];
  for (const field of KIND_FIELDS[kind]) {
    if (!Object.hasOwn(v, field)) return `a2a-profile-extension file: ${where} lacks \`${field}\``;
  }
  if (typeof v.valid !== "boolean") {
    return `a2a-profile-extension file: ${where}.valid must be a boolean`;
  }
  return undefined;
}

/** The sections of an upstream file, flattened; or why the file is malformed. */
function collectUpstream(doc: Record<string, unknown>): unknown[] | string {
  const out: unknown[] = [];
  for (const [section, kind] of SECTIONS) {
    const value = doc[section];
    if (value === undefined) continue;
    if (!Array.isArray(value)) return `a2a-profile-extension file: \`${section}\` must be an array`;
    for (const [index, entry] of value.entries()) {
      if (!isObject(entry)) return `a2a-profile-extension file: ${section}[${index}] is no object`;
      const id = typeof entry.id === "string" ? entry.id : `${section}#${index + 1}`;
      const vector = { ...entry, id, kind };
      const why = missingField(vector, `${section}[${index}]`);
      if (why !== undefined) return why;
      out.push(vector);
    }
  }
  return out;
}

/** A local file's flat vectors, each with a known `kind`; or why the file is malformed. */
function collectLocal(doc: Record<string, unknown>): unknown[] | string {
  if (!Array.isArray(doc.vectors)) {
    return "a2a-profile-extension file: expected the upstream sections or a `vectors` array";
  }
  for (const [index, v] of doc.vectors.entries()) {
    const kind = isObject(v) ? v.kind : undefined;
    if (!(A2A_PROFILE_KINDS as readonly unknown[]).includes(kind)) {
      return `a2a-profile-extension file: vectors[${index}].kind must be one of ${
        A2A_PROFILE_KINDS.join(", ")
      }`;
    }
    const why = missingField(v as Record<string, unknown>, `vectors[${index}]`);
    if (why !== undefined) return why;
  }
  return doc.vectors;
}

/** The `a2a-profile-extension` suite. */
export const suite: SuiteDef = {
  required: ["kind", "valid"],
  collect: (doc) =>
    SECTIONS.some(([section]) => Object.hasOwn(doc, section))
      ? collectUpstream(doc)
      : collectLocal(doc),
  input(v) {
    switch (v.kind) {
      case "advertisement":
        return v.require_task_status === true
          ? { kind: v.kind, agent_card: v.agent_card, require_task_status: true }
          : { kind: v.kind, agent_card: v.agent_card };
      case "invocation":
        return { kind: v.kind, headers: v.headers, message: v.message };
      default:
        return {
          kind: v.kind,
          response: v.response,
          handler_return: Object.hasOwn(v, "handler_return") ? v.handler_return : null,
        };
    }
  },
  judge(v, reply) {
    if (!(A2A_PROFILE_KINDS as readonly unknown[]).includes(v.kind)) {
      return { reason: `unknown kind ${pretty(v.kind)}` };
    }
    const r = objectResult(reply);
    if (!r.ok) return r.verdict;
    const result = r.value;
    if (result.valid !== v.valid) {
      return {
        reason: v.valid === true ? "expected the vector to be accepted" : "expected a rejection",
        expected: { valid: v.valid },
        actual: result,
      };
    }
    if (v.valid !== true) {
      return Object.hasOwn(v, "expected_error") && result.error !== v.expected_error
        ? { reason: "rejection code differs", expected: v.expected_error, actual: result.error }
        : undefined;
    }
    if (
      Object.hasOwn(v, "expected_adcp_task_id") && result.adcp_task_id !== v.expected_adcp_task_id
    ) {
      return {
        reason: "AdCP task_id differs",
        expected: v.expected_adcp_task_id,
        actual: result.adcp_task_id,
      };
    }
    if (v.kind === "invocation" && Object.hasOwn(result, "rebuilt_equal")) {
      if (result.rebuilt_equal !== true) {
        return {
          reason: "the implementation's builder did not rebuild the vector's Message and headers",
          expected: { rebuilt_equal: true },
          actual: result,
        };
      }
    }
    return undefined;
  },
};
