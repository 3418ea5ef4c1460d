// Reads a whole Response body under bounds into one Uint8Array: the core of readTextResponse and
// readJsonResponse (and of the benchmarks).
import {
  ACTION,
  declaredLength,
  declaredLengthError,
  openResponseBody,
  parseContentCodings,
} from "./_body.ts";
import { Deadline, networkFailure, untilDeadline } from "./_deadline.ts";
import { ResponseTooLargeError } from "../errors.ts";
import { isResolved, resolveCallLimits, RESPONSE_LIMIT_NAMES } from "./_limits.ts";
import type { ResolvedLimits, ResponseLimits } from "./_limits.ts";
import type { ContentDecoding, ReadProgress } from "./_body.ts";
import {
  concatBytes,
  notShown,
  optionError,
  type OptionKeys,
  optionKeys,
} from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/** Options of {@link readTextResponse} and {@link readJsonResponse}. */
export interface ReadResponseOptions extends ResponseLimits {
  /**
   * Who decodes a body with a `Content-Encoding`; see {@link ContentDecoding}.
   * @default {"runtime"}
   */
  readonly contentDecoding?: ContentDecoding | undefined;
  /**
   * Called after each chunk is counted, before the bounds are checked: for monitoring, and for
   * tests that measure how much was buffered. An exception thrown here cancels the read.
   * @default {undefined}
   */
  readonly onProgress?: ((progress: ReadProgress) => void) | undefined;
}

/** The keys of {@link ReadResponseOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<ReadResponseOptions>({
  ...RESPONSE_LIMIT_NAMES,
  contentDecoding: true,
  onProgress: true,
});

const EMPTY = new Uint8Array(0);

/** Validated reader options. */
export interface ReaderSettings {
  readonly limits: ResolvedLimits;
  readonly contentDecoding: ContentDecoding;
  readonly onProgress: ((progress: ReadProgress) => void) | undefined;
}

/**
 * Validates the options every reader shares: an unknown key is refused, except in limits resolved
 * already (by resolveLimits), which are taken as they are.
 */
export function readerSettings(options: ReadResponseOptions | undefined): ReaderSettings {
  if (!isResolved(options)) checkKeys(ACTION, "options", options, OPTION_KEYS);
  const limits = resolveCallLimits(options, "options", null);
  const contentDecoding = options?.contentDecoding ?? "runtime";
  if (contentDecoding !== "runtime" && contentDecoding !== "manual") {
    throw optionError(
      TypeError,
      ACTION,
      "options.contentDecoding",
      '"runtime" or "manual"',
      contentDecoding,
    );
  }
  const onProgress = options?.onProgress;
  if (onProgress !== undefined && typeof onProgress !== "function") {
    throw optionError(TypeError, ACTION, "options.onProgress", "a function", onProgress);
  }
  return { limits, contentDecoding, onProgress };
}

/** Checks that `response` is a Response whose body can still be read. */
export function assertReadable(response: unknown): asserts response is Response {
  if (!(response instanceof Response)) {
    throw optionError(TypeError, ACTION, "response", "a Response", notShown(response));
  }
  if (response.bodyUsed) {
    throw optionError(
      TypeError,
      ACTION,
      "response.bodyUsed",
      "false (a body can be read once)",
      true,
    );
  }
}

/**
 * Reads the whole body of `response` under `settings`. The deadline runs from `startedAt` (a
 * `performance.now()` value; now when omitted), so a caller can make it cover the request too; or
 * it is `callDeadline`, the caller's own (started at `startedAt` with the same limits), which is
 * then left running.
 *
 * @throws {ResponseTooLargeError | DeadlineExceededError | ContentEncodingError}
 */
export async function readBody(
  response: Response,
  settings: ReaderSettings,
  startedAt?: number,
  budget?: { readonly used: number; charge(bytes: number): void },
  callDeadline?: Deadline,
): Promise<Uint8Array> {
  const { limits } = settings;
  const body = response.body;
  if (body === null) return EMPTY;
  // A client call hands its own deadline (same limits, same start): one timer per call, not two.
  const deadline = callDeadline ?? new Deadline(limits.timeoutMs, limits.signal, startedAt);
  try {
    const declared = nativeLength(response, settings, deadline, budget?.used);
    if (declared !== undefined) {
      return await readNatively(response, declared, limits, deadline, budget);
    }
    const reader = await openResponseBody(response, body, {
      limits,
      deadline,
      contentEncoding: response.headers.get("content-encoding"),
      contentDecoding: settings.contentDecoding,
      onProgress: settings.onProgress,
      charge: budget === undefined ? undefined : (bytes) => budget.charge(bytes),
      wholeBody: true,
      declaredLength: declaredLength(response.headers),
    }, budget?.used);
    try {
      const bytes = await reader.readAll();
      return bytes.length === 0 ? EMPTY : bytes;
    } finally {
      const cancelling = reader.close();
      if (cancelling !== undefined) await cancelling;
    }
  } finally {
    if (callDeadline === undefined) deadline.dispose();
  }
}

/**
 * The declared length of a body the runtime may read whole by itself (`bytes()`), or `undefined`
 * when the bounded reader must read it chunk by chunk. The runtime's own read holds every bound
 * only when all of these hold:
 *
 * - the response came from the runtime's `fetch` (`type` `"basic"`: a constructed Response is
 *   `"default"`, and a CORS one may hide its `Content-Encoding`), whose HTTP framing delivers no
 *   more bytes than the `Content-Length` it carries (a longer body is cut there, a shorter one
 *   fails the read; HTTP/2 refuses a mismatch);
 * - it has a `Content-Length` within the byte caps and the operation's budget, no
 *   `Transfer-Encoding` (which would frame the body instead) and no content coding (so the bytes
 *   read are the bytes counted);
 * - no progress callback waits for chunks;
 * - the deadline's signal went to the request's `fetch` (a client call), so the read ends when the
 *   deadline fires even though a body being read natively cannot be cancelled.
 *
 * This is the common case of a client call, and it costs no stream reads at all.
 */
function nativeLength(
  response: Response,
  settings: ReaderSettings,
  deadline: Deadline,
  budgetUsed: number | undefined,
): number | undefined {
  if (response.type !== "basic" || settings.onProgress !== undefined || !deadline.signalled) {
    return undefined;
  }
  const headers = response.headers;
  if (headers.has("transfer-encoding")) return undefined;
  if (parseContentCodings(headers.get("content-encoding")).length > 0) return undefined;
  const declared = declaredLength(headers);
  if (declared === undefined) return undefined;
  // Over a cap: the bounded reader refuses it before reading, with its usual error.
  if (declaredLengthError(declared, false, settings.limits, budgetUsed) !== undefined) {
    return undefined;
  }
  return declared;
}

/**
 * Reads a body whole with the runtime's `bytes()` (see {@link nativeLength}), under the deadline,
 * charging its declared length to the budget first (a refusal cancels the body unread). A body
 * longer than declared, which the runtime's framing does not deliver, is held to the caps and the
 * budget all the same.
 */
async function readNatively(
  response: Response,
  declared: number,
  limits: ResolvedLimits,
  deadline: Deadline,
  budget: { charge(bytes: number): void } | undefined,
): Promise<Uint8Array> {
  try {
    deadline.throwIfExpired();
    budget?.charge(declared);
  } catch (error) {
    await response.body?.cancel(error).catch(() => {});
    throw error;
  }
  let bytes: Uint8Array;
  try {
    bytes = await untilDeadline(readAllBytes(response), deadline);
  } catch (error) {
    throw networkFailure(error, deadline);
  }
  if (bytes.byteLength > declared) {
    const cap = Math.min(limits.maxResponseBytes, limits.maxDecodedBytes);
    if (bytes.byteLength > cap) throw new ResponseTooLargeError(cap, bytes.byteLength, "raw");
    budget?.charge(bytes.byteLength - declared);
  }
  return bytes.byteLength === 0 ? EMPTY : bytes;
}

/** The whole body, by `bytes()` where the runtime has it (Deno, Node 22), else `arrayBuffer()`. */
async function readAllBytes(response: Response): Promise<Uint8Array> {
  return typeof response.bytes === "function"
    ? await response.bytes()
    : new Uint8Array(await response.arrayBuffer());
}

/** Joins chunks into one array (no copy for a single chunk). */
export function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  return chunks.length === 0 ? EMPTY : concatBytes(chunks, total);
}
