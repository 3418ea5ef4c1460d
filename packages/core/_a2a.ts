// A2A Task internals shared by the success and error extractors (A2A Response Extraction).

import {
  carriesAdcpError,
  isJsonObject,
  type JsonObject,
  own,
  ownArray,
  ownElement,
  ownObject,
} from "./_json.ts";
import { UnexpectedPartCountError } from "./errors.ts";

/** The default DataPart size limit, 1 MiB (exported as `DEFAULT_MAX_DATA_PART_BYTES`). */
export const DATA_PART_BYTES_DEFAULT = 1_048_576;

/** The four `StreamResponse` oneof keys (A2A Response Extraction, "Extraction Algorithm" step 0). */
const ENVELOPE_KEYS: readonly string[] = ["task", "message", "statusUpdate", "artifactUpdate"];

/**
 * Step 0 of A2A Response Extraction, "Extraction Algorithm": unwraps a single-key response
 * envelope exactly once.
 *
 * An envelope is an object with exactly one own key, one of `task`, `message`, `statusUpdate`,
 * `artifactUpdate`, whose value is a non-null, non-array object. Its value replaces the input,
 * unless that value itself has any of the four keys as an own top-level key: that is a nested
 * envelope ("smuggling"), rejected as malformed, and this returns `undefined`. Anything that is
 * not an envelope is returned unchanged (a bare Task, a v0.3 object, or a non-object).
 */
export function unwrapStreamEnvelope(input: unknown): unknown {
  if (!isJsonObject(input)) return input;
  const keys = Object.keys(input);
  if (keys.length !== 1) return input;
  const key = keys[0] as string;
  if (!ENVELOPE_KEYS.includes(key)) return input;
  const inner = input[key];
  if (!isJsonObject(inner)) return input;
  for (const envelopeKey of ENVELOPE_KEYS) {
    if (Object.hasOwn(inner, envelopeKey)) return undefined; // nested envelope: malformed
  }
  return inner;
}

/** Final task states (A2A Response Extraction, "Status-Based Extraction"). */
export type FinalTaskState = "completed" | "failed" | "canceled" | "rejected";
/** Interim task states (A2A Response Extraction, "Status-Based Extraction"). */
export type InterimTaskState = "working" | "submitted" | "input-required" | "auth-required";
/** A recognized, normalized task state. */
export type KnownTaskState = FinalTaskState | InterimTaskState;

const FINAL_STATES: ReadonlySet<string> = new Set(["completed", "failed", "canceled", "rejected"]);
const KNOWN_STATES: ReadonlySet<string> = new Set([
  ...FINAL_STATES,
  "working",
  "submitted",
  "input-required",
  "auth-required",
]);
/** Longest known token, `input-required`: normalization keeps the length, so longer is unknown. */
const LONGEST_STATE = 14;
const STATE_PREFIX = "TASK_STATE_";

/**
 * Normalizes a raw `status.state` and matches it against the known tokens (A2A Response
 * Extraction, "Extraction Algorithm" step 1 and "State normalization").
 *
 * Strips one leading, case-sensitive `TASK_STATE_`, maps ASCII `A`-`Z` to `a`-`z` and `_` to `-`,
 * and nothing else: no trimming, no collapsing of repeated separators, no Unicode case folding
 * (`String.prototype.toLowerCase` would fold U+212A KELVIN SIGN to `k`). The result must then
 * equal a known token exactly; anything else, including any non-string, is unknown: `null`.
 */
export function knownTaskState(raw: unknown): KnownTaskState | null {
  if (typeof raw !== "string") return null;
  const start = raw.startsWith(STATE_PREFIX) ? STATE_PREFIX.length : 0;
  if (raw.length - start > LONGEST_STATE) return null;
  let normalized = "";
  for (let index = start; index < raw.length; index++) {
    const unit = raw.charCodeAt(index);
    if (unit >= 0x41 && unit <= 0x5a) normalized += String.fromCharCode(unit + 0x20);
    else if (unit === 0x5f) normalized += "-";
    else normalized += raw[index];
  }
  return KNOWN_STATES.has(normalized) ? normalized as KnownTaskState : null;
}

/** Whether a known state is final. */
export function isFinalState(state: KnownTaskState): state is FinalTaskState {
  return FINAL_STATES.has(state);
}

/** The known, normalized `status.state` of an (unwrapped) task, or `null`. */
export function taskStateOf(task: JsonObject): KnownTaskState | null {
  const status = ownObject(task, "status");
  return status === undefined ? null : knownTaskState(own(status, "state"));
}

/**
 * The other content fields of a Part: A2A 1.0 `text`, `raw`, `url`; v0.3 `text`, `file`.
 */
const OTHER_CONTENT_FIELDS = ["text", "raw", "url", "file"] as const;

/**
 * The DataPart's `data` when `part` is a DataPart, else `undefined`.
 *
 * A DataPart is a Part whose own `data` is a non-null, non-array object, with or without `kind`
 * (A2A Response Extraction, step 2a), and which sets no other content field: "a Part is a strict
 * `oneof` — exactly one of `text`, `raw`, `url`, or `data` is set. Clients receiving a Part with
 * multiple content fields SHOULD treat it as malformed" (A2A Response Extraction, Wire-Format
 * Compatibility). A malformed Part is skipped like any Part that is not a DataPart, so a seller
 * cannot slip data past a reader that shows the Part's text. A content field counts as set when
 * it is an own property whose value is neither `undefined` nor `null` (ProtoJSON omits unset
 * fields; `null` is read as unset).
 */
export function dataOf(part: unknown): JsonObject | undefined {
  if (!isJsonObject(part)) return undefined;
  const data = ownObject(part, "data");
  if (data === undefined) return undefined;
  for (const field of OTHER_CONTENT_FIELDS) {
    if (own(part, field) != null) return undefined;
  }
  return data;
}

/** The own `parts` array of `artifacts[0]`, or `undefined`. */
export function firstArtifactParts(task: JsonObject): readonly unknown[] | undefined {
  const artifacts = ownArray(task, "artifacts");
  if (artifacts === undefined || artifacts.length === 0) return undefined;
  const first = ownElement(artifacts, 0);
  return isJsonObject(first) ? ownArray(first, "parts") : undefined;
}

/** The own `parts` array of every `artifacts[]` entry, in order. */
export function* allArtifactParts(
  task: JsonObject,
): Generator<readonly unknown[], void, undefined> {
  const artifacts = ownArray(task, "artifacts");
  if (artifacts === undefined) return;
  for (let index = 0; index < artifacts.length; index++) {
    const artifact = ownElement(artifacts, index);
    if (!isJsonObject(artifact)) continue;
    const parts = ownArray(artifact, "parts");
    if (parts !== undefined) yield parts;
  }
}

/** The own `status.message.parts` array, or `undefined`. */
export function statusMessageParts(task: JsonObject): readonly unknown[] | undefined {
  const status = ownObject(task, "status");
  const message = status === undefined ? undefined : ownObject(status, "message");
  return message === undefined ? undefined : ownArray(message, "parts");
}

/** The `data` of the first DataPart of `status.message.parts`, or `null` (step 3). */
export function firstStatusMessageData(task: JsonObject): JsonObject | null {
  const parts = statusMessageParts(task);
  if (parts === undefined) return null;
  for (let index = 0; index < parts.length; index++) {
    const data = dataOf(ownElement(parts, index));
    if (data !== undefined) return data;
  }
  return null;
}

/**
 * Whether `data` is a framework wrapper: exactly one own key, `response`, whose value is a
 * non-null, non-array object (A2A Response Extraction, "Wrapper Rejection").
 */
export function isWrapper(data: JsonObject): boolean {
  const keys = Object.keys(data);
  return keys.length === 1 && keys[0] === "response" && isJsonObject(data["response"]);
}

/** The `text` of every TextPart (own string `text`, with or without `kind`) in `parts`. */
export function textsOf(parts: readonly unknown[] | undefined): string[] {
  const texts: string[] = [];
  if (parts === undefined) return texts;
  for (let index = 0; index < parts.length; index++) {
    const part = ownElement(parts, index);
    if (!isJsonObject(part)) continue;
    const text = own(part, "text");
    if (typeof text === "string" && text.length > 0) texts.push(text);
  }
  return texts;
}

/** Where an A2A response carries an `adcp_error`, before validation. */
export interface A2AErrorCandidate {
  /** The raw `adcp_error` value. */
  readonly value: unknown;
  /** The path it was found on. */
  readonly path: "artifact" | "status_message";
}

/** The `adcp_error` of the first DataPart in `parts` that carries one. */
function firstErrorIn(parts: readonly unknown[]): { value: unknown } | undefined {
  for (let index = 0; index < parts.length; index++) {
    const data = dataOf(ownElement(parts, index));
    if (data !== undefined && carriesAdcpError(data)) return { value: own(data, "adcp_error") };
  }
  return undefined;
}

/**
 * The first `adcp_error` carried by a DataPart of an (unwrapped) task: all `artifacts[].parts[]`
 * in order, then `status.message.parts[]` (Transport Error Mapping, "Client Detection Order"
 * steps 2 and 3). The first DataPart carrying an own, truthy `adcp_error` decides, valid or not.
 */
export function a2aErrorCandidate(task: JsonObject): A2AErrorCandidate | undefined {
  for (const parts of allArtifactParts(task)) {
    const found = firstErrorIn(parts);
    if (found !== undefined) return { value: found.value, path: "artifact" };
  }
  const parts = statusMessageParts(task);
  const found = parts === undefined ? undefined : firstErrorIn(parts);
  return found === undefined ? undefined : { value: found.value, path: "status_message" };
}

/** Validated options. @throws {TypeError | RangeError} */
export function resolveA2AExtractOptions(
  options: {
    readonly maxDataPartBytes?: number | undefined;
    readonly expectedDataParts?: number | undefined;
  } | undefined,
): { maxDataPartBytes: number; expectedDataParts: number | undefined } {
  if (options === undefined) {
    return { maxDataPartBytes: DATA_PART_BYTES_DEFAULT, expectedDataParts: undefined };
  }
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`Expected options to be an object, got ${describeValue(options)}`);
  }
  const maxDataPartBytes = options.maxDataPartBytes ?? DATA_PART_BYTES_DEFAULT;
  if (
    typeof maxDataPartBytes !== "number" || !Number.isSafeInteger(maxDataPartBytes) ||
    maxDataPartBytes < 1
  ) {
    throw new RangeError(
      `Expected options.maxDataPartBytes to be a positive safe integer, got ${
        describeValue(maxDataPartBytes)
      }`,
    );
  }
  const expectedDataParts = options.expectedDataParts;
  if (
    expectedDataParts !== undefined &&
    (typeof expectedDataParts !== "number" || !Number.isSafeInteger(expectedDataParts) ||
      expectedDataParts < 0)
  ) {
    throw new RangeError(
      `Expected options.expectedDataParts to be a non-negative safe integer, got ${
        describeValue(expectedDataParts)
      }`,
    );
  }
  return { maxDataPartBytes, expectedDataParts };
}

function describeValue(value: unknown): string {
  return value === null ? "null" : typeof value === "number" ? String(value) : typeof value;
}

/**
 * Checks the DataParts a task carries against the expected count (A2A Response Extraction,
 * Security Considerations, Intermediary Injection): for a final state every DataPart of every
 * artifact (an injected part or artifact, data or `adcp_error`, changes the count), or the status
 * message's when the artifacts hold none (what the fallback extraction reads); otherwise the
 * status message's. Callers run it before extracting anything, so an injected error is caught too.
 *
 * @throws {UnexpectedPartCountError} When the count differs.
 */
export function checkDataPartCount(task: JsonObject, expected: number): void {
  const state = taskStateOf(task);
  let count = 0;
  if (state !== null && isFinalState(state)) {
    for (const parts of allArtifactParts(task)) count += dataPartCount(parts);
  }
  if (count === 0) count = dataPartCount(statusMessageParts(task));
  if (count !== expected) throw new UnexpectedPartCountError(expected, count);
}

function dataPartCount(parts: readonly unknown[] | undefined): number {
  let count = 0;
  if (parts !== undefined) {
    for (let index = 0; index < parts.length; index++) {
      if (dataOf(ownElement(parts, index)) !== undefined) count++;
    }
  }
  return count;
}
