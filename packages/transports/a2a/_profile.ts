// Shared by the AdCP A2A Profile Extension v3 checks: the failure shape, the Part classifier and
// the limits. Every reader here takes any JSON value and reads own properties only.
import { isJsonObject as isObject, type JsonRecord, own } from "@adcp-wire/internal";
import type { AdcpProfileViolation } from "./types.ts";

/**
 * A failed profile check before it is made public: what the rule expected and what was seen,
 * both written by this package (never seller text), so that the client can build an
 * `AgentProtocolError` from the same words.
 */
export interface RawViolation<Code extends string> {
  readonly valid: false;
  readonly code: Code;
  readonly expected: string;
  readonly seen: string;
}

/** A raw violation. */
export function violation<Code extends string>(
  code: Code,
  expected: string,
  seen: string,
): RawViolation<Code> {
  return { valid: false, code, expected, seen };
}

/** The public form of a raw violation: `Expected <expected>, saw <seen>`. */
export function publicViolation<Code extends string>(
  raw: RawViolation<Code>,
): AdcpProfileViolation<Code> {
  return { valid: false, code: raw.code, message: `Expected ${raw.expected}, saw ${raw.seen}` };
}

/**
 * Most Parts an invocation Message may hold: "Bound the number and size of Parts before parsing"
 * (AdCP A2A Profile Extension v3, "Security and validation"). A profile invocation needs one
 * DataPart and, at most, a short generated label; 64 leaves room for any honest sender.
 */
export const MAX_PROFILE_INVOCATION_PARTS = 64;

/**
 * Most `skills[]` and `capabilities.extensions[]` entries the advertisement check reads, as
 * `A2AClient` bounds a card's lists (`MAX_CARD_LIST_ENTRIES`): a card listing more is refused
 * whole, so the work a card costs is bounded.
 */
export const MAX_PROFILE_CARD_ENTRIES = 256;

/**
 * What a Part is, by the content field it sets (A2A 1.0 §4.1.6: "a Part is a strict `oneof` —
 * exactly one of `text`, `raw`, `url`, or `data` is set"; v0.3 `file` too):
 *
 * - `"text"`: a string `text`;
 * - `"data"`: `data` set to any value (the caller checks its shape);
 * - `"file"`: `raw` or `url` (1.0) or `file` (v0.3);
 * - `"malformed"`: not an object, no content field, several, or a `text` that is no string.
 *
 * A field counts as set when it is an own property whose value is neither `undefined` nor `null`
 * (ProtoJSON omits unset fields and reads `null` as unset), as `@adcp-wire/core` reads Parts.
 * `kind` is not read: Parts are told apart by field presence (A2A Response Extraction,
 * "Wire-Format Compatibility").
 */
export type PartKind = "text" | "data" | "file" | "malformed";

const CONTENT_FIELDS = ["text", "raw", "url", "data", "file"] as const;

/** The kind of `part`; see {@link PartKind}. */
export function partKind(part: unknown): PartKind {
  if (!isObject(part)) return "malformed";
  let found: (typeof CONTENT_FIELDS)[number] | undefined;
  for (const field of CONTENT_FIELDS) {
    if (own(part, field) == null) continue;
    if (found !== undefined) return "malformed";
    found = field;
  }
  if (found === undefined) return "malformed";
  if (found === "text") return typeof own(part, "text") === "string" ? "text" : "malformed";
  return found === "data" ? "data" : "file";
}

/** The own `data` of a Part already classified as `"data"`. */
export function partData(part: unknown): unknown {
  return isObject(part) ? own(part, "data") : undefined;
}

/** Whether `value` is a non-empty string. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/** The own `key` of `object` when it is set (neither `undefined` nor `null`), else `undefined`. */
export function setField(object: JsonRecord, key: string): unknown {
  const value = own(object, key);
  return value === null ? undefined : value;
}
