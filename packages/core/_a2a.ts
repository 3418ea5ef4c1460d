// A2A Task internals shared by the success and error extractors (A2A Response Extraction).

import {
  checkOptionKeys,
  isJsonObject,
  type JsonRecord,
  optionError,
  optionKeys,
  own,
  ownArray,
  ownElement,
  ownObject,
} from "@adcp-wire/internal";
import {
  adcpErrorOf,
  carriesAdcpError,
  fastOwnElement,
  isOwnValue,
  onlyKeyIs,
  PROTO,
} from "./_json.ts";
import { type A2ATaskState, isFinalA2ATaskState, knownA2ATaskState } from "./a2a_task_state.ts";
import { UnexpectedPartCountError } from "./errors.ts";

/** The default DataPart size limit, 1 MiB (exported as `DEFAULT_MAX_DATA_PART_BYTES`). */
export const DATA_PART_BYTES_DEFAULT = 1_048_576;

/** The known, normalized `status.state` of an (unwrapped) task, or `null`. */
export function taskStateOf(task: JsonRecord): A2ATaskState | null {
  const status = task.status;
  if (!isJsonObject(status) || !isOwnValue(task, "status", PROTO.status)) return null;
  const state = status.state;
  return typeof state === "string" && isOwnValue(status, "state", PROTO.state)
    ? knownA2ATaskState(state)
    : null;
}

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
export function dataOf(part: unknown): JsonRecord | undefined {
  if (!isJsonObject(part)) return undefined;
  const data = part.data;
  if (!isJsonObject(data) || !isOwnValue(part, "data", PROTO.data)) return undefined;
  // The other content fields of a Part (A2A 1.0 `text`, `raw`, `url`; v0.3 `text`, `file`), each
  // read once at its own inline cache.
  const { text, raw, url, file } = part;
  if (text != null && isOwnValue(part, "text", PROTO.text)) return undefined;
  if (raw != null && isOwnValue(part, "raw", PROTO.raw)) return undefined;
  if (url != null && isOwnValue(part, "url", PROTO.url)) return undefined;
  if (file != null && isOwnValue(part, "file", PROTO.file)) return undefined;
  return data;
}

/** The own `parts` array of `artifacts[0]`, or `undefined`. */
export function firstArtifactParts(task: JsonRecord): readonly unknown[] | undefined {
  const artifacts = task.artifacts;
  if (!Array.isArray(artifacts) || artifacts.length === 0) return undefined;
  if (!isOwnValue(task, "artifacts", PROTO.artifacts)) return undefined;
  const first = fastOwnElement(artifacts, 0);
  if (!isJsonObject(first)) return undefined;
  const parts = first.parts;
  return Array.isArray(parts) && isOwnValue(first, "parts", PROTO.parts) ? parts : undefined;
}

/** The own `parts` array of every `artifacts[]` entry, in order. */
export function* allArtifactParts(
  task: JsonRecord,
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
export function statusMessageParts(task: JsonRecord): readonly unknown[] | undefined {
  const status = ownObject(task, "status");
  const message = status === undefined ? undefined : ownObject(status, "message");
  return message === undefined ? undefined : ownArray(message, "parts");
}

/** The `data` of the first DataPart of `status.message.parts`, or `null` (step 3). */
export function firstStatusMessageData(task: JsonRecord): JsonRecord | null {
  const parts = statusMessageParts(task);
  if (parts === undefined) return null;
  for (let index = 0; index < parts.length; index++) {
    const data = dataOf(fastOwnElement(parts, index));
    if (data !== undefined) return data;
  }
  return null;
}

/**
 * Whether `data` is a framework wrapper: exactly one own key, `response`, whose value is a
 * non-null, non-array object (A2A Response Extraction, "Wrapper Rejection").
 */
export function isWrapper(data: JsonRecord): boolean {
  // `in`, answered by the inline cache, spares listing the keys of every payload.
  return "response" in data && onlyKeyIs(data, "response") && isJsonObject(data["response"]);
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
    if (data !== undefined && carriesAdcpError(data)) return { value: adcpErrorOf(data) };
  }
  return undefined;
}

/**
 * The first `adcp_error` carried by a DataPart of an (unwrapped) task: all `artifacts[].parts[]`
 * in order, then `status.message.parts[]` (Transport Error Mapping, "Client Detection Order"
 * steps 2 and 3). The first DataPart carrying an own, truthy `adcp_error` decides, valid or not.
 */
export function a2aErrorCandidate(task: JsonRecord): A2AErrorCandidate | undefined {
  for (const parts of allArtifactParts(task)) {
    const found = firstErrorIn(parts);
    if (found !== undefined) return { value: found.value, path: "artifact" };
  }
  const parts = statusMessageParts(task);
  const found = parts === undefined ? undefined : firstErrorIn(parts);
  return found === undefined ? undefined : { value: found.value, path: "status_message" };
}

/** Validated A2A extraction options. */
export interface ResolvedA2AExtractOptions {
  readonly maxDataPartBytes: number;
  readonly expectedDataParts: number | undefined;
  /** Whether the selected DataPart must be measured: `sourceJsonBytes` did not bound it. */
  readonly measure: boolean;
}

/** The options when none are given: one shared, frozen object. */
const DEFAULT_A2A_OPTIONS: ResolvedA2AExtractOptions = Object.freeze({
  maxDataPartBytes: DATA_PART_BYTES_DEFAULT,
  expectedDataParts: undefined,
  measure: true,
});

/**
 * Options of {@link extractAdcpResponseFromA2A}, {@link handleA2AResponse} and, for A2A pushes,
 * {@link extractAdcpResponseFromWebhook}.
 */
export interface A2AExtractOptions {
  /**
   * Largest DataPart accepted, as the UTF-8 bytes of its `data` serialized as JSON; a larger one
   * throws {@link DataPartTooLargeError}. A positive safe integer.
   * @default {1048576}
   */
  readonly maxDataPartBytes?: number | undefined;
  /**
   * The number of DataParts the task must carry: for a final state every DataPart of every
   * artifact (or of the status message when the artifacts hold none), otherwise the status
   * message's; another number throws {@link UnexpectedPartCountError}, before anything is
   * extracted. Unset: any number.
   * @default {undefined}
   */
  readonly expectedDataParts?: number | undefined;
  /**
   * An upper bound the caller already holds of the serialized size (UTF-8 bytes of
   * `JSON.stringify`) of every value inside the input, such as what {@link jsonSerializedBound}
   * returns for the JSON text the input was parsed from. When it is within `maxDataPartBytes`, the
   * selected DataPart cannot be larger and is not measured again; otherwise it is. A non-negative
   * safe integer; a wrong bound lets an oversized DataPart through, so give only a proved one.
   * @default {undefined} (the selected DataPart is measured)
   */
  readonly sourceJsonBytes?: number | undefined;
}

/** What the option errors of the A2A extractors say could not be done. */
const A2A_ACTION = "extract from an A2A response";

/** The keys of {@link A2AExtractOptions}: any other is refused. */
const A2A_EXTRACT_KEYS = optionKeys<A2AExtractOptions>({
  maxDataPartBytes: true,
  expectedDataParts: true,
  sourceJsonBytes: true,
});

/**
 * Refuses an own key of `options` that {@link A2AExtractOptions} does not name; anything but an
 * object is left to {@link resolveA2AExtractOptions}.
 *
 * @throws {TypeError} When `options` has an unknown key.
 */
export function checkA2AExtractKeys(options: A2AExtractOptions | undefined): void {
  checkOptionKeys(A2A_ACTION, "options", options, A2A_EXTRACT_KEYS);
}

/** Validated options. @throws {TypeError | RangeError} */
export function resolveA2AExtractOptions(
  options: A2AExtractOptions | undefined,
): ResolvedA2AExtractOptions {
  if (options === undefined) return DEFAULT_A2A_OPTIONS;
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, A2A_ACTION, "options", "an object or undefined", options);
  }
  checkA2AExtractKeys(options);
  // Only `undefined` means the default: a null limit is refused like any other wrong type.
  const maxDataPartBytes = options.maxDataPartBytes === undefined
    ? DATA_PART_BYTES_DEFAULT
    : checkCount("maxDataPartBytes", options.maxDataPartBytes, 1);
  const expectedDataParts = options.expectedDataParts === undefined
    ? undefined
    : checkCount("expectedDataParts", options.expectedDataParts, 0);
  const sourceJsonBytes = options.sourceJsonBytes === undefined
    ? undefined
    : checkCount("sourceJsonBytes", options.sourceJsonBytes, 0);
  const measure = sourceJsonBytes === undefined || sourceJsonBytes > maxDataPartBytes;
  return { maxDataPartBytes, expectedDataParts, measure };
}

/**
 * Checks an A2A extraction count named `name`: a number (else a `TypeError`) that is a safe
 * integer of at least `min` (else a `RangeError`).
 */
function checkCount(name: string, value: unknown, min: 0 | 1): number {
  if (typeof value !== "number") throw optionError(TypeError, A2A_ACTION, name, "a number", value);
  if (!Number.isSafeInteger(value) || value < min) {
    const requirement = min === 1 ? "a positive safe integer" : "a non-negative safe integer";
    throw optionError(RangeError, A2A_ACTION, name, requirement, value);
  }
  return value;
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
export function checkDataPartCount(task: JsonRecord, expected: number): void {
  const state = taskStateOf(task);
  let count = 0;
  if (state !== null && isFinalA2ATaskState(state)) {
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
