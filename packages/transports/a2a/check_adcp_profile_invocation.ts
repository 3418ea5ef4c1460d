import { describeShape, isJsonObject as isObject, type JsonRecord, own } from "@adcp-wire/internal";
import {
  isNonEmptyString,
  MAX_PROFILE_INVOCATION_PARTS,
  partData,
  partKind,
  publicViolation,
  type RawViolation,
  setField,
  violation,
} from "./_profile.ts";
import { ADCP_A2A_PROFILE, type AdcpProfileViolation } from "./types.ts";

export { MAX_PROFILE_INVOCATION_PARTS } from "./_profile.ts";

/**
 * Why {@link checkAdcpProfileInvocation} refused a request (AdCP A2A Profile Extension v3,
 * "Advertisement and activation" and "Invocation message"):
 *
 * - `invalid_headers`: `headers` is not a `Headers`, a record of strings or a list of pairs, or
 *   an `A2A-Extensions`/`A2A-Version` value is not a string.
 * - `extension_not_activated`: no `A2A-Extensions` element is the profile URI ("An agent that
 *   declares the profile `required: true` MUST reject a request that does not activate it").
 * - `unsupported_a2a_version`: `A2A-Version` is not `1.0` (absent means A2A 0.3): the profile
 *   is defined for A2A 1.0.
 * - `invalid_a2a_message`: the request is not `{ headers, message }`, or the Message breaks an
 *   A2A 1.0 rule: no non-empty string `messageId`, a `role` other than `ROLE_USER`, no non-empty
 *   `parts` array, an empty `taskId`/`contextId`, or a Part that sets no content field, several,
 *   or a `text` that is not a string.
 * - `invalid_continuation`: `taskId` without `contextId` (a continuation "MUST carry ... the
 *   existing A2A `taskId` and `contextId`").
 * - `limit_exceeded`: more than {@link MAX_PROFILE_INVOCATION_PARTS} Parts.
 * - `unsupported_part_type`: a FilePart (`raw`, `url`, v0.3 `file`): "FileParts and additional
 *   DataParts are outside this v3 invocation profile".
 * - `multiple_invocation_dataparts`: more than one DataPart ("Reject duplicate invocation
 *   DataParts rather than selecting the first or last").
 * - `missing_invocation_datapart`: no DataPart.
 * - `invalid_invocation_shape`: the DataPart's `data` is not exactly `{ skill, input }` with a
 *   non-empty string `skill` and an object `input` (`parameters` "is not an alias for `input`").
 */
export type AdcpProfileInvocationCode =
  | "invalid_headers"
  | "extension_not_activated"
  | "unsupported_a2a_version"
  | "invalid_a2a_message"
  | "invalid_continuation"
  | "limit_exceeded"
  | "unsupported_part_type"
  | "multiple_invocation_dataparts"
  | "missing_invocation_datapart"
  | "invalid_invocation_shape";

/**
 * The request headers {@link checkAdcpProfileInvocation} reads: a `Headers`, a record of strings
 * (names compared case-insensitively; two spellings of one name are combined with `, `, as HTTP
 * combines repeated fields), or a list of `[name, value]` pairs.
 */
export type AdcpProfileRequestHeaders =
  | Headers
  | Readonly<Record<string, string>>
  | readonly (readonly [string, string])[];

/** A request to check: its service parameters (HTTP headers) and its A2A Message. */
export interface AdcpProfileInvocationRequest {
  /** The request headers. */
  readonly headers: AdcpProfileRequestHeaders;
  /** The A2A 1.0 Message (`params.message` of `SendMessage`). */
  readonly message: unknown;
}

/** A request that is a profile invocation, as {@link checkAdcpProfileInvocation} read it. */
export interface CheckedAdcpProfileInvocation {
  /** Always `true`. */
  readonly valid: true;
  /** The AdCP task to dispatch (`AgentSkill.id`). */
  readonly skill: string;
  /** The task request, unchanged: validate it against the task's request schema next. */
  readonly input: Record<string, unknown>;
  /** The Message's `messageId`. */
  readonly messageId: string;
  /** The A2A task continued, for a continuation. */
  readonly taskId?: string;
  /** The A2A context. */
  readonly contextId?: string;
  /**
   * How many advisory TextParts came with the DataPart. Their text is not returned: receivers
   * "MUST NOT merge it into `input`, pass it to the task handler as an instruction, or use it to
   * override structured data".
   */
  readonly textParts: number;
}

/** What {@link checkAdcpProfileInvocation} returns. */
export type AdcpProfileInvocationCheck =
  | CheckedAdcpProfileInvocation
  | AdcpProfileViolation<AdcpProfileInvocationCode>;

/**
 * Checks that a request is an activated AdCP A2A Profile Extension v3 invocation: `A2A-Extensions`
 * lists the profile URI and `A2A-Version` is `1.0`, and the A2A 1.0 Message holds exactly one
 * DataPart `{ skill, input }`, no FilePart, and otherwise only advisory TextParts (marked
 * `metadata.generated` or not: the page's own example carries none, so the mark is not required).
 * For a seller verifying activation before dispatch, and for a buyer checking what it sends.
 * Never throws, whatever JSON value it is given; the codes are {@link AdcpProfileInvocationCode}.
 *
 * `A2A-Extensions` is a comma-separated list (RFC 9110 §5.6.1): empty elements and spaces or tabs
 * around an element are ignored, and an element activates the profile only when it equals the URI
 * exactly (case-sensitive: an extension identifier is compared as a string, never normalized).
 * Header names are case-insensitive. The v0.3 `X-A2A-Extensions` header does not count: the
 * profile is defined for A2A 1.0.
 *
 * Spec: AdCP A2A Profile Extension v3, "Advertisement and activation", "Invocation message".
 *
 * @param request The headers and the Message: any JSON value.
 * @returns The invocation read, or the first rule broken.
 *
 * @example An activated invocation, and one that sends parameters instead of input
 * ```ts
 * import { ADCP_A2A_PROFILE, checkAdcpProfileInvocation } from "@adcp-wire/transports/a2a";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const headers = { "A2A-Version": "1.0", "A2A-Extensions": ADCP_A2A_PROFILE };
 * const message = {
 *   messageId: "msg-1",
 *   role: "ROLE_USER",
 *   parts: [{ data: { skill: "get_products", input: { brief: "CTV" } } }],
 * };
 * deepStrictEqual(checkAdcpProfileInvocation({ headers, message }), {
 *   valid: true,
 *   skill: "get_products",
 *   input: { brief: "CTV" },
 *   messageId: "msg-1",
 *   textParts: 0,
 * });
 * const legacy = { ...message, parts: [{ data: { skill: "get_products", parameters: {} } }] };
 * const result = checkAdcpProfileInvocation({ headers, message: legacy });
 * strictEqual(result.valid === false && result.code, "invalid_invocation_shape");
 * ```
 */
export function checkAdcpProfileInvocation(request: unknown): AdcpProfileInvocationCheck {
  const checked = invocation(request);
  return checked.valid ? checked : publicViolation(checked);
}

type Raw = RawViolation<AdcpProfileInvocationCode>;

function invocation(request: unknown): CheckedAdcpProfileInvocation | Raw {
  if (!isObject(request)) {
    return violation(
      "invalid_a2a_message",
      "a { headers, message } request",
      describeShape(request),
    );
  }
  const headers = activation(own(request, "headers"));
  if (headers !== undefined) return headers;
  return messageInvocation(own(request, "message"));
}

/** Whether the headers activate the profile on A2A 1.0; `undefined` when they do. */
function activation(headers: unknown): Raw | undefined {
  const extensions = headerValue(headers, "a2a-extensions");
  if (extensions === false) {
    return violation(
      "invalid_headers",
      "headers as a Headers, a record of strings or a list of pairs",
      describeShape(headers),
    );
  }
  if (extensions === undefined || !listIncludes(extensions, ADCP_A2A_PROFILE)) {
    return violation(
      "extension_not_activated",
      "the AdCP profile URI in A2A-Extensions",
      extensions === undefined ? "no A2A-Extensions header" : "a list without it",
    );
  }
  const version = headerValue(headers, "a2a-version");
  if (version === false) {
    return violation("invalid_headers", "A2A-Version as a string", "another value");
  }
  if (version === undefined || trimOws(version) !== "1.0") {
    return violation(
      "unsupported_a2a_version",
      "A2A-Version 1.0 (the profile is defined for A2A 1.0)",
      version === undefined ? "no A2A-Version header (A2A 0.3)" : "another version",
    );
  }
  return undefined;
}

/**
 * The value of header `name` (lower case): `undefined` when absent, `false` when `headers` cannot
 * be read or a value for `name` is not a string. Repeated spellings are combined with `, `.
 */
function headerValue(headers: unknown, name: string): string | undefined | false {
  if (typeof Headers === "function" && headers instanceof Headers) {
    return headers.get(name) ?? undefined;
  }
  const values: string[] = [];
  if (Array.isArray(headers)) {
    for (let index = 0; index < headers.length; index++) {
      const pair = Object.hasOwn(headers, index) ? headers[index] : undefined;
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") return false;
      if (pair[0].toLowerCase() !== name) continue;
      if (typeof pair[1] !== "string") return false;
      values.push(pair[1]);
    }
  } else if (isObject(headers)) {
    for (const key of Object.keys(headers)) {
      if (key.length !== name.length || key.toLowerCase() !== name) continue;
      const value = headers[key];
      if (typeof value !== "string") return false;
      values.push(value);
    }
  } else {
    return false;
  }
  return values.length === 0 ? undefined : values.join(", ");
}

/** Spaces and tabs around `value` removed (HTTP optional whitespace, nothing else). */
function trimOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value[start] === " " || value[start] === "\t")) start++;
  while (end > start && (value[end - 1] === " " || value[end - 1] === "\t")) end--;
  return value.slice(start, end);
}

/** Whether the comma-separated list `value` has an element equal to `item`. */
function listIncludes(value: string, item: string): boolean {
  return value.split(",").some((element) => trimOws(element) === item);
}

function messageInvocation(message: unknown): CheckedAdcpProfileInvocation | Raw {
  if (!isObject(message)) {
    return violation("invalid_a2a_message", "an A2A Message object", describeShape(message));
  }
  const messageId = own(message, "messageId");
  if (!isNonEmptyString(messageId)) {
    return violation(
      "invalid_a2a_message",
      "a non-empty string messageId (A2A 1.0 requires one on every Message)",
      describeShape(messageId),
    );
  }
  const role = own(message, "role");
  if (role !== "ROLE_USER") {
    return violation(
      "invalid_a2a_message",
      'role "ROLE_USER" (A2A 1.0 ProtoJSON)',
      typeof role === "string" ? "another role" : describeShape(role),
    );
  }
  const ids: { taskId?: string; contextId?: string } = {};
  for (const key of ["taskId", "contextId"] as const) {
    const value = setField(message, key);
    if (value === undefined) continue;
    if (!isNonEmptyString(value)) {
      return violation("invalid_a2a_message", `${key} as a non-empty string`, describeShape(value));
    }
    ids[key] = value;
  }
  if (ids.taskId !== undefined && ids.contextId === undefined) {
    return violation(
      "invalid_continuation",
      "a continuation carrying both the A2A taskId and contextId",
      "a taskId without a contextId",
    );
  }
  const parts = own(message, "parts");
  if (!Array.isArray(parts) || parts.length === 0) {
    return violation("invalid_a2a_message", "a non-empty parts array", describeShape(parts));
  }
  if (parts.length > MAX_PROFILE_INVOCATION_PARTS) {
    return violation(
      "limit_exceeded",
      `at most ${MAX_PROFILE_INVOCATION_PARTS} Parts`,
      `${parts.length}`,
    );
  }
  let data: unknown;
  let dataParts = 0;
  let textParts = 0;
  for (let index = 0; index < parts.length; index++) {
    const part = Object.hasOwn(parts, index) ? parts[index] : undefined;
    const kind = partKind(part);
    if (kind === "malformed") {
      return violation(
        "invalid_a2a_message",
        `parts[${index}] setting exactly one content field (text, raw, url or data)`,
        isObject(part) ? "none, several, or a text that is not a string" : describeShape(part),
      );
    }
    if (kind === "file") {
      return violation(
        "unsupported_part_type",
        "only DataParts and TextParts (FileParts are outside the v3 invocation profile)",
        `a FilePart at parts[${index}]`,
      );
    }
    if (kind === "text") {
      textParts++;
    } else {
      dataParts++;
      data = partData(part);
    }
  }
  if (dataParts > 1) {
    return violation(
      "multiple_invocation_dataparts",
      "exactly one invocation DataPart",
      `${dataParts}`,
    );
  }
  if (dataParts === 0) {
    return violation("missing_invocation_datapart", "one invocation DataPart", "none");
  }
  const shape = invocationShape(data);
  if (!shape.valid) return shape;
  return { valid: true, skill: shape.skill, input: shape.input, messageId, ...ids, textParts };
}

/** The `{ skill, input }` of the DataPart, or the shape rule it breaks. */
function invocationShape(
  data: unknown,
): { valid: true; skill: string; input: JsonRecord } | Raw {
  if (!isObject(data)) {
    return violation(
      "invalid_invocation_shape",
      "the DataPart's data as an object { skill, input }",
      describeShape(data),
    );
  }
  const skill = own(data, "skill");
  const input = own(data, "input");
  const keys = Object.keys(data);
  const extra = keys.filter((key) => key !== "skill" && key !== "input");
  if (extra.length > 0) {
    return violation(
      "invalid_invocation_shape",
      "exactly the members skill and input (parameters is not an alias for input)",
      Object.hasOwn(data, "parameters") ? "parameters" : `${extra.length} other members`,
    );
  }
  if (!isNonEmptyString(skill)) {
    return violation(
      "invalid_invocation_shape",
      "skill as a non-empty string (the AgentSkill.id)",
      describeShape(skill),
    );
  }
  if (!isObject(input)) {
    return violation("invalid_invocation_shape", "input as an object", describeShape(input));
  }
  return { valid: true, skill, input };
}
