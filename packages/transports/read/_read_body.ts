// Reads a whole Response body under bounds into one Uint8Array: the core of readTextResponse and
// readJsonResponse (and of the benchmarks).
import { ACTION, concatChunks, declaredLength, openResponseBody } from "./_body.ts";
import { Deadline } from "./_deadline.ts";
import { resolveCallLimits } from "./_limits.ts";
import type { ResolvedLimits, ResponseLimits } from "./_limits.ts";
import type { ContentDecoding, ReadProgress } from "./_body.ts";
import { notShown } from "./_not_shown.ts";
import { optionError } from "@adcp-wire/internal";

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

const EMPTY = new Uint8Array(0);

/** Validated reader options. */
export interface ReaderSettings {
  readonly limits: ResolvedLimits;
  readonly contentDecoding: ContentDecoding;
  readonly onProgress: ((progress: ReadProgress) => void) | undefined;
}

/** Validates the options every reader shares. */
export function readerSettings(options: ReadResponseOptions | undefined): ReaderSettings {
  const limits = resolveCallLimits(options, "options");
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

/** Joins chunks into one array (no copy for a single chunk). */
export function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  return chunks.length === 0 ? EMPTY : concatChunks(chunks, total);
}
