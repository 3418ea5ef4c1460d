import { DeadlineExceededError, MalformedJsonError, ResponseTooLargeError } from "../errors.ts";
import { abortError } from "./_deadline.ts";
import { parseJsonWithin } from "./_json.ts";
import { resolveCallLimits } from "./_limits.ts";
import { concat } from "./_read_body.ts";
import { decodeUtf8 } from "./_utf8_decoder.ts";
import type { ResolvedLimits, ResponseLimits } from "./limits.ts";
import { notShown } from "./_not_shown.ts";
import { optionError } from "@adcp-wire/internal";

/** What readStdioMessages does, for its option errors. */
const ACTION = "read the stdio messages";

const LF = 0x0a;
const CR = 0x0d;
const noop = (): void => {};

/**
 * Byte counts reported by {@linkcode readStdioMessages} after each chunk arrives.
 *
 * @example Watching the bytes held for an unfinished message
 * ```ts
 * import { readStdioMessages, type StdioProgress } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const encoder = new TextEncoder();
 * const stream = ReadableStream.from([encoder.encode('{"id":'), encoder.encode("1}\n")]);
 * const seen: StdioProgress[] = [];
 * const reading = readStdioMessages(stream, { onProgress: (progress) => seen.push(progress) });
 * deepStrictEqual(await Array.fromAsync(reading), [{ id: 1 }]);
 * deepStrictEqual(seen, [
 *   { bufferedBytes: 6, chunkBytes: 6 },
 *   { bufferedBytes: 9, chunkBytes: 3 },
 * ]);
 * ```
 */
export interface StdioProgress {
  /** Bytes held for the unfinished message, this whole chunk included, before any is parsed. */
  readonly bufferedBytes: number;
  /** Size of the chunk just received. */
  readonly chunkBytes: number;
}

/**
 * Options of {@linkcode readStdioMessages}: the {@linkcode ResponseLimits}, with `maxResponseBytes`
 * bounding each message and `timeoutMs` each message's arrival (see the function), plus a progress
 * hook. `maxDecodedBytes` does not apply (stdio has no content coding).
 *
 * @example Messages before an oversized one are delivered, then the read fails
 * ```ts
 * import { readStdioMessages, type ReadStdioMessagesOptions } from "@adcp-wire/transports";
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 *
 * const options: ReadStdioMessagesOptions = { maxResponseBytes: 32, timeoutMs: 5_000 };
 * const stream = new Response(`{"id":1}\n{"blob":"${"x".repeat(64)}"}\n`).body!;
 * const messages: unknown[] = [];
 * await rejects(async () => {
 *   for await (const message of readStdioMessages(stream, options)) messages.push(message);
 * }, { code: "RESPONSE_TOO_LARGE", phase: "message" });
 * deepStrictEqual(messages, [{ id: 1 }]);
 * ```
 */
export interface ReadStdioMessagesOptions extends ResponseLimits {
  /**
   * Called after each chunk arrives, before it is split and checked: for monitoring, and for tests
   * that measure how much was buffered. An exception thrown here cancels the stream.
   * @default {undefined}
   */
  readonly onProgress?: ((progress: StdioProgress) => void) | undefined;
}

/**
 * Reads newline-delimited JSON-RPC messages from a stdio stream (an MCP server's stdout), bounding
 * each message in bytes and time and each parsed value in depth and node count.
 *
 * Implements "On a non-HTTP transport (stdio) there is no `Content-Length` to pre-reject; the
 * streaming count and the per-message bound still apply" (MCP Response Extraction 3.3.0-beta.0,
 * Security Considerations, Size Limits): the bytes since the last newline are counted as chunks
 * arrive and the stream is cancelled as soon as they pass `maxResponseBytes` (phase `"message"`),
 * so at most the limit plus one chunk is held.
 *
 * Choices where the texts are silent, each the safer reading:
 * - Deadline: a stdio stream lives for the whole session and may sit idle between messages, so
 *   `timeoutMs` bounds each message from its first byte to its newline (a server cannot drip one
 *   message forever); waiting for a response is the caller's own request timeout. `signal` aborts the
 *   whole read at any time.
 * - Framing: a trailing CR before the newline is dropped; empty lines are skipped; a line that is not
 *   UTF-8 or not JSON ends the read with {@linkcode MalformedUtf8Error} / {@linkcode MalformedJsonError}
 *   (a server must not write anything else to stdout); a stream that ends inside a message is a
 *   `MalformedJsonError` with reason `"unterminated"`, not a silently dropped message.
 * - On any error the stream is cancelled; the caller should then end the server process.
 *
 * @param stream The byte stream; it is locked for the duration of the read.
 * @param options Limits and the progress hook.
 * @returns The parsed messages, in order (validate them before use: they are seller-controlled).
 * @throws {ResponseTooLargeError} While iterating, when a message passes `maxResponseBytes`.
 * @throws {DeadlineExceededError} While iterating, when a message takes longer than `timeoutMs` to
 * arrive, or `signal` times out.
 * @throws {MalformedUtf8Error} While iterating, for a line that is not UTF-8.
 * @throws {JsonDepthLimitError} While iterating, for a message nested deeper than `maxJsonDepth`.
 * @throws {JsonNodeLimitError} While iterating, for a message with more than `maxJsonNodes` values.
 * @throws {MalformedJsonError} While iterating, for a line that is not JSON or an unterminated one.
 * @throws {TypeError} At once, when `stream` is not an unlocked ReadableStream or an option has the
 * wrong type; while iterating, for chunks that are not Uint8Array.
 * @throws {RangeError} At once, when a limit is out of range.
 *
 * @example Reading messages split across chunks
 * ```ts
 * import { readStdioMessages } from "@adcp-wire/transports";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","method":"x"}\n');
 * const stream = new ReadableStream<Uint8Array>({
 *   start(controller) {
 *     controller.enqueue(bytes.subarray(0, 10));
 *     controller.enqueue(bytes.subarray(10));
 *     controller.close();
 *   },
 * });
 * const messages: unknown[] = [];
 * for await (const message of readStdioMessages(stream)) messages.push(message);
 * deepStrictEqual(messages, [
 *   { jsonrpc: "2.0", id: 1, result: {} },
 *   { jsonrpc: "2.0", method: "x" },
 * ]);
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
  const limits = resolveCallLimits(options, "options");
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
