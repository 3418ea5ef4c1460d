import { DeadlineExceededError, MalformedJsonError, ResponseTooLargeError } from "../errors.ts";
import { abortError } from "./_deadline.ts";
import { parseJsonWithin } from "./_json.ts";
import { isResolved, resolveCallLimits, RESPONSE_LIMIT_NAMES } from "./_limits.ts";
import { concat } from "./_read_body.ts";
import { decodeUtf8 } from "./_utf8_decoder.ts";
import type { ResolvedLimits, ResponseLimits } from "./limits.ts";
import { notShown, optionError, type OptionKeys, optionKeys } from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/** What readStdioMessages does, for its option errors. */
const ACTION = "read the stdio messages";

const LF = 0x0a;
const CR = 0x0d;
const noop = (): void => {};

/** Byte counts reported by {@link readStdioMessages} after each chunk arrives. */
export interface StdioProgress {
  /** Bytes held for the unfinished message, this whole chunk included, before any is parsed. */
  readonly bufferedBytes: number;
  /** Size of the chunk just received. */
  readonly chunkBytes: number;
}

/**
 * Options of {@link readStdioMessages}: the {@link ResponseLimits}, with `maxResponseBytes`
 * bounding each message and `timeoutMs` each message's arrival (see the function), plus a progress
 * hook. `maxDecodedBytes` does not apply (stdio has no content coding).
 */
export interface ReadStdioMessagesOptions extends ResponseLimits {
  /**
   * Called after each chunk arrives, before it is split and checked: for monitoring, and for tests
   * that measure how much was buffered. An exception thrown here cancels the stream.
   * @default {undefined}
   */
  readonly onProgress?: ((progress: StdioProgress) => void) | undefined;
}

/** The keys of {@link ReadStdioMessagesOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<ReadStdioMessagesOptions>({
  ...RESPONSE_LIMIT_NAMES,
  onProgress: true,
});

/**
 * Reads newline-delimited JSON-RPC messages from a stdio stream (an MCP server's stdout), bounding
 * each message in bytes and time and each parsed value in depth and node count. The stream is
 * cancelled the moment a message passes `maxResponseBytes`, and `timeoutMs` bounds each message
 * from its first byte to its newline; the framing rules are in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param stream The byte stream; it is locked for the duration of the read.
 * @param options Limits and the progress hook.
 * @returns The parsed messages, in order (seller-controlled: validate them before use).
 * @throws {ResponseTooLargeError} While iterating, when a message passes `maxResponseBytes`.
 * @throws {DeadlineExceededError} While iterating, when a message takes longer than `timeoutMs` to
 * arrive, or `signal` times out.
 * @throws {MalformedUtf8Error | MalformedJsonError | JsonDepthLimitError | JsonNodeLimitError}
 * While iterating, for a line that is not UTF-8 JSON within the bounds, or an unterminated one.
 * @throws {TypeError} At once, when `stream` is not an unlocked ReadableStream or an option has the
 * wrong type or an unknown key; while iterating, for a chunk that is not a Uint8Array.
 * @throws {RangeError} At once, when a limit is out of range.
 *
 * @example Reading messages split across chunks
 * ```ts
 * import { readStdioMessages } from "@adcp-wire/transports/read";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('{"id":1}\n{"id":2}\n');
 * const stream = ReadableStream.from([bytes.subarray(0, 12), bytes.subarray(12)]);
 * deepStrictEqual(await Array.fromAsync(readStdioMessages(stream)), [{ id: 1 }, { id: 2 }]);
 * ```
 */
export function readStdioMessages(
  stream: ReadableStream<Uint8Array>,
  options?: ReadStdioMessagesOptions,
): AsyncGenerator<unknown, void, undefined> {
  if (!(stream instanceof ReadableStream)) {
    throw optionError(TypeError, ACTION, "stream", "a ReadableStream", notShown(stream));
  }
  if (stream.locked) {
    throw optionError(
      TypeError,
      ACTION,
      "stream.locked",
      "false (a locked stream is another reader's)",
      true,
    );
  }
  if (!isResolved(options)) checkKeys(ACTION, "options", options, OPTION_KEYS);
  const limits = resolveCallLimits(options, "options", null);
  const onProgress = options?.onProgress;
  if (onProgress !== undefined && typeof onProgress !== "function") {
    throw optionError(TypeError, ACTION, "options.onProgress", "a function", onProgress);
  }
  return iterateMessages(stream, limits, onProgress);
}

async function* iterateMessages(
  stream: ReadableStream<Uint8Array>,
  limits: ResolvedLimits,
  onProgress: ((progress: StdioProgress) => void) | undefined,
): AsyncGenerator<unknown, void, undefined> {
  const { maxResponseBytes: cap, timeoutMs, signal, maxJsonDepth, maxJsonNodes } = limits;
  const reader = stream.getReader();
  const startedAt = performance.now();
  let failure: unknown;
  let failed = false;
  let finished = false;
  const cancel = (reason: unknown): void => {
    if (failed) return;
    failed = true;
    failure = reason;
    reader.cancel(reason).catch(noop);
  };
  const fail = async (reason: unknown): Promise<unknown> => {
    if (!failed) {
      failed = true;
      failure = reason;
      await reader.cancel(reason).catch(noop);
    }
    return failure;
  };

  // The per-message deadline: runs from a message's first byte to its newline.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const startTimer = (): void => {
    const messageStartedAt = performance.now();
    timer = setTimeout(() => {
      timer = undefined;
      cancel(new DeadlineExceededError(timeoutMs, performance.now() - messageStartedAt));
    }, timeoutMs);
  };
  const stopTimer = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const onAbort = (): void => cancel(abortError(signal?.reason, startedAt));

  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  try {
    if (signal?.aborted) throw await fail(abortError(signal.reason, startedAt));
    signal?.addEventListener("abort", onAbort, { once: true });
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        throw failed ? failure : error;
      }
      if (failed) throw failure;
      if (result.done) {
        finished = true;
        break;
      }
      const chunk: unknown = result.value;
      if (!(chunk instanceof Uint8Array)) {
        throw await fail(
          optionError(TypeError, ACTION, "stream chunk", "a Uint8Array", notShown(chunk)),
        );
      }
      onProgress?.({ bufferedBytes: pendingBytes + chunk.length, chunkBytes: chunk.length });
      let start = 0;
      for (let newline = chunk.indexOf(LF); newline !== -1; newline = chunk.indexOf(LF, start)) {
        const size = pendingBytes + newline - start;
        if (size > cap) throw await fail(new ResponseTooLargeError(cap, size, "message"));
        let line = chunk.subarray(start, newline);
        if (pendingBytes > 0) {
          pending.push(line);
          line = concat(pending, size);
          pending.length = 0;
          pendingBytes = 0;
        }
        stopTimer();
        start = newline + 1;
        if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, -1);
        if (line.length === 0) continue;
        let message: unknown;
        try {
          message = parseJsonWithin(decodeUtf8(line), maxJsonDepth, maxJsonNodes);
        } catch (error) {
          throw await fail(error);
        }
        yield message;
        if (failed) throw failure;
      }
      const rest = chunk.length - start;
      if (rest > 0) {
        const size = pendingBytes + rest;
        if (size > cap) throw await fail(new ResponseTooLargeError(cap, size, "message"));
        pending.push(start === 0 ? chunk : chunk.subarray(start));
        pendingBytes = size;
        if (timer === undefined) startTimer();
      }
    }
    if (pendingBytes > 0) throw new MalformedJsonError("unterminated", pendingBytes);
  } finally {
    stopTimer();
    signal?.removeEventListener("abort", onAbort);
    if (!finished && !failed) await reader.cancel().catch(noop);
    reader.releaseLock();
  }
}
