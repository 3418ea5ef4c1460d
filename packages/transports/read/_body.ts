// The bounded byte pump under every reader: counts raw and decoded bytes as chunks arrive, cancels
// the body the moment a bound is passed or the deadline fires, and optionally decodes a content
// coding itself so raw bytes can be counted too.
import { ContentEncodingError, ResponseTooLargeError } from "../errors.ts";
import { type Deadline, networkFailure } from "./_deadline.ts";
import type { SseEventSizer } from "./_sse_sizer.ts";
import type { ResolvedLimits } from "./limits.ts";
import { AdcpWireError, concatBytes, notShown, optionError } from "@adcp-wire/internal";

/**
 * Who decodes a body sent with a `Content-Encoding` (gzip, deflate, br): `"runtime"` when `fetch`
 * already did, so only decoded bytes are seen and capped at `maxDecodedBytes`; `"manual"` when the
 * body is still encoded, so the reader counts raw bytes against `maxResponseBytes`, decodes, and
 * counts decoded bytes against `maxDecodedBytes`. The rules are in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 */
export type ContentDecoding = "runtime" | "manual";

/** Byte counts reported after each chunk is counted, before it is checked against the limits. */
export interface ReadProgress {
  /** Bytes received on the wire so far, or `undefined` when the runtime decoded the body. */
  readonly rawBytes: number | undefined;
  /** Bytes after content decoding so far (equal to `rawBytes` without a content coding). */
  readonly decodedBytes: number;
  /** Decoded size of the chunk just counted. */
  readonly chunkBytes: number;
}

/**
 * Raw chunks are handed to a DecompressionStream at most this many bytes at a time. Deno's
 * DecompressionStream inflates each written chunk in one go, and deflate expands at most about
 * 1032:1, so one 1 KiB slice yields at most about 1 MiB: the decoded cap is overshot by at most
 * that much, instead of by 64 MiB for a 64 KiB network chunk of a gzip bomb.
 */
const INFLATE_SLICE = 1024;

const noop = (): void => {};

/**
 * What the readers do, for their option errors (a bad argument, a body chunk that is not bytes).
 */
export const ACTION = "read the response";

/** Options of {@link BoundedBody.open}. */
export interface BoundedBodyOptions {
  readonly limits: ResolvedLimits;
  readonly deadline: Deadline;
  /** `Content-Encoding` of the response, or `null`. */
  readonly contentEncoding: string | null;
  readonly contentDecoding: ContentDecoding;
  readonly onProgress: ((progress: ReadProgress) => void) | undefined;
  /**
   * Per-event counter for a `text/event-stream` body, checked on each decoded chunk before the
   * whole-body caps, so that one oversized event is reported as phase `"event"`.
   * @default {undefined}
   */
  readonly eventSizer?: SseEventSizer | undefined;
  /**
   * Charges each chunk's bytes to an operation-wide budget (a client call reading several
   * responses); a throw fails the read and cancels the body.
   */
  readonly charge?: ((bytes: number) => void) | undefined;
  /**
   * Whether to enforce `maxResponseBytes` / `maxDecodedBytes` on the whole body (false for SSE,
   * whose per-request budget takes that role, unless raw bytes are counted separately).
   * @default {true}
   */
  readonly capWholeBody?: boolean;
  /**
   * Read a plain (not content-coded) byte-stream body with a BYOB reader into one buffer of the
   * reader's own, sized from `Content-Length` within the caps and grown by doubling, instead of
   * a runtime buffer per chunk (Deno allocates 64 KiB per read, the final empty one included).
   * Only {@link BoundedBody.readAll} then reads the body. A byte source of the caller's own must
   * answer BYOB requests (`controller.byobRequest.respond`, or `close()` then `respond(0)`): one
   * that only enqueues leaves the read after its end pending until the deadline (Streams,
   * ReadableByteStreamControllerClose). Runtime bodies (fetch) answer them.
   * @default {false}
   */
  readonly wholeBody?: boolean;
  /** The `Content-Length` the response declared, when it is a number within the caps. */
  readonly declaredLength?: number | undefined;
}

/** First buffer of a whole-body read without a usable `Content-Length`: 16 KiB. */
const FIRST_BUFFER = 16_384;

/** The content codings of a `Content-Encoding` value, in the order they were applied. */
export function parseContentCodings(value: string | null): string[] {
  if (value === null) return [];
  const codings: string[] = [];
  for (const part of value.split(",")) {
    const token = part.trim().toLowerCase();
    if (token !== "" && token !== "identity") codings.push(token);
  }
  return codings;
}

/**
 * The declared `Content-Length`, or `undefined` when absent or malformed (the streaming count still
 * applies then). A list of values (RFC 9110 allows repeated identical values) yields the largest.
 */
export function declaredLength(headers: Headers): number | undefined {
  const value = headers.get("content-length");
  if (value === null) return undefined;
  if (/^[0-9]{1,15}$/.test(value)) return Number(value); // one value: the common case
  let largest: number | undefined;
  for (const part of value.split(",")) {
    const token = part.trim();
    if (!/^[0-9]+$/.test(token)) return undefined;
    const length = Number(token);
    if (largest === undefined || length > largest) largest = length;
  }
  return largest;
}

/**
 * The error for a declared `Content-Length` over the byte limit, or `undefined`: checked before any
 * body byte is read (the caller cancels the body and throws). The limit is `maxResponseBytes` (the
 * declared length counts raw bytes), or `maxDecodedBytes` when smaller and the body has no content
 * coding (raw and decoded bytes are then the same).
 * With `budgetUsed` (SSE), a declared length that would take the request's cumulative bytes past
 * `maxResponseBytes` is rejected too, as phase `"cumulative"`.
 */
export function contentLengthError(
  response: Response,
  limits: ResolvedLimits,
  budgetUsed?: number,
): ResponseTooLargeError | undefined {
  if (response.body === null) return undefined;
  const length = declaredLength(response.headers);
  if (length === undefined) return undefined;
  const coded = parseContentCodings(response.headers.get("content-encoding")).length > 0;
  return declaredLengthError(length, coded, limits, budgetUsed);
}

/**
 * {@link contentLengthError} of a declared `length` already read, `coded` when the body has a
 * content coding.
 */
export function declaredLengthError(
  length: number,
  coded: boolean,
  limits: ResolvedLimits,
  budgetUsed?: number,
): ResponseTooLargeError | undefined {
  const limit = coded
    ? limits.maxResponseBytes
    : Math.min(limits.maxResponseBytes, limits.maxDecodedBytes);
  if (length > limit) return new ResponseTooLargeError(limit, length, "content-length");
  if (budgetUsed !== undefined && budgetUsed + length > limits.maxResponseBytes) {
    return new ResponseTooLargeError(limits.maxResponseBytes, budgetUsed + length, "cumulative");
  }
  return undefined;
}

/** Shared state between the raw-counting source and the reader, for manual decoding. */
interface RawState {
  raw: number;
  sourceError: unknown;
  hasSourceError: boolean;
}

/**
 * A body being read under bounds. `read()` returns the next decoded chunk or `undefined` at the
 * end; it throws the bound's error (after cancelling the body) when a bound is passed or the
 * deadline fires. Call `close()` when done reading (it does not cancel).
 */
export class BoundedBody {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader;
  readonly #byob: ReadableStreamBYOBReader | undefined;
  readonly #declared: number | undefined;
  readonly #rawReader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #rawState: RawState | undefined;
  readonly #deadline: Deadline;
  readonly #onProgress: ((progress: ReadProgress) => void) | undefined;
  readonly #charge: ((bytes: number) => void) | undefined;
  readonly #coding: string | undefined;
  /** Bytes seen are raw bytes too (no content coding): report and cap them as raw. */
  readonly #seesRaw: boolean;
  readonly #rawLimit: number;
  readonly #decodedLimit: number;
  readonly #onAbort: () => void;
  readonly #sizer: SseEventSizer | undefined;
  readonly #eventLimit: number;
  #decoded = 0;
  #finished = false;
  #cancelling: Promise<void> | undefined;

  private constructor(
    reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader,
    rawReader: ReadableStreamDefaultReader<Uint8Array> | undefined,
    rawState: RawState | undefined,
    coding: string | undefined,
    seesRaw: boolean,
    rawLimit: number,
    decodedLimit: number,
    options: BoundedBodyOptions,
  ) {
    this.#reader = reader;
    this.#byob = reader instanceof ReadableStreamBYOBReader ? reader : undefined;
    this.#declared = options.declaredLength;
    this.#rawReader = rawReader;
    this.#rawState = rawState;
    this.#coding = coding;
    this.#seesRaw = seesRaw;
    this.#rawLimit = rawLimit;
    this.#decodedLimit = decodedLimit;
    this.#deadline = options.deadline;
    this.#onProgress = options.onProgress;
    this.#charge = options.charge;
    this.#sizer = options.eventSizer;
    this.#eventLimit = options.limits.maxResponseBytes;
    this.#onAbort = () => {
      this.#cancelAll(options.deadline.error);
    };
    if (options.deadline.expired) this.#onAbort();
    else options.deadline.onExpire(this.#onAbort);
  }

  /**
   * Starts reading `body` under `options`.
   *
   * @throws {ContentEncodingError} When manual decoding meets a coding it cannot decode (the
   * caller cancels the body).
   */
  static open(body: ReadableStream<Uint8Array>, options: BoundedBodyOptions): BoundedBody {
    const { limits } = options;
    const cap = options.capWholeBody ?? true;
    const codings = parseContentCodings(options.contentEncoding);
    const decodedLimit = cap ? limits.maxDecodedBytes : Infinity;
    if (codings.length === 0) {
      const rawLimit = cap ? limits.maxResponseBytes : Infinity;
      return new BoundedBody(
        (options.wholeBody === true ? byobReader(body) : undefined) ?? body.getReader(),
        undefined,
        undefined,
        undefined,
        true,
        rawLimit,
        decodedLimit,
        options,
      );
    }
    const coding = codings.join(", ");
    if (options.contentDecoding === "runtime") {
      // The runtime (fetch) already decoded the body: only decoded bytes are observable.
      return new BoundedBody(
        body.getReader(),
        undefined,
        undefined,
        coding,
        false,
        Infinity,
        decodedLimit,
        options,
      );
    }
    const format = codings.length === 1 ? decompressionFormat(codings[0]!) : undefined;
    let decompressor: DecompressionStream | undefined;
    try {
      // Not every runtime's DecompressionStream knows "brotli": construction throws then.
      if (format !== undefined) decompressor = new DecompressionStream(format);
    } catch {
      decompressor = undefined;
    }
    if (decompressor === undefined) throw new ContentEncodingError(coding, "unsupported");
    // Manual decoding: raw bytes are always capped at maxResponseBytes, whatever `capWholeBody`.
    const rawReader = body.getReader();
    const state: RawState = { raw: 0, sourceError: undefined, hasSourceError: false };
    const rawLimit = limits.maxResponseBytes;
    const counted = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await rawReader.read();
        } catch (error) {
          state.sourceError = error;
          state.hasSourceError = true;
          throw error;
        }
        if (result.done) {
          controller.close();
          return;
        }
        const chunk = result.value;
        if (!(chunk instanceof Uint8Array)) {
          const error = notBytes(chunk);
          await rawReader.cancel(error).catch(noop);
          throw error;
        }
        state.raw += chunk.length;
        if (state.raw > rawLimit) {
          const error = new ResponseTooLargeError(rawLimit, state.raw, "raw");
          await rawReader.cancel(error).catch(noop);
          throw error;
        }
        for (let start = 0; start < chunk.length; start += INFLATE_SLICE) {
          controller.enqueue(chunk.subarray(start, start + INFLATE_SLICE));
        }
      },
      cancel(reason) {
        return rawReader.cancel(reason);
      },
    }, { highWaterMark: 0 });
    const decoded = counted.pipeThrough(
      decompressor as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
    );
    return new BoundedBody(
      decoded.getReader(),
      rawReader,
      state,
      coding,
      false,
      rawLimit,
      decodedLimit,
      options,
    );
  }

  /** Raw bytes read so far, or `undefined` when the runtime decoded the body (not observable). */
  get rawBytes(): number | undefined {
    if (this.#rawState !== undefined) return this.#rawState.raw;
    return this.#seesRaw ? this.#decoded : undefined;
  }

  /** Decoded bytes read so far. */
  get decodedBytes(): number {
    return this.#decoded;
  }

  /**
   * The next decoded chunk, or `undefined` at the end of the body.
   *
   * @throws {ResponseTooLargeError} When a bound is passed (the body is cancelled first).
   * @throws {DeadlineExceededError} When the deadline fires (the body is cancelled).
   */
  async read(): Promise<Uint8Array | undefined> {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await (this.#reader as ReadableStreamDefaultReader<Uint8Array>).read();
    } catch (error) {
      throw await this.#fail(this.#mapReadError(error));
    }
    // Once per chunk: buffered chunks arrive without a turn of the event loop, so the timer alone
    // could not fire before the whole body was read.
    if (this.#deadline.checkClock()) {
      // The deadline cancelled the body (its timer, which ended the pending read, or the clock
      // check just now): let that finish first.
      await this.#cancelling;
      throw this.#deadline.error;
    }
    if (result.done) {
      this.#finished = true;
      return undefined;
    }
    const chunk = result.value;
    if (!(chunk instanceof Uint8Array)) throw await this.#fail(notBytes(chunk));
    await this.#account(chunk);
    return chunk;
  }

  /** The bounds of one chunk read: progress, the event sizer, the caps, the operation budget. */
  async #account(chunk: Uint8Array): Promise<void> {
    const decoded = this.#decoded += chunk.length;
    this.#onProgress?.({
      rawBytes: this.rawBytes,
      decodedBytes: decoded,
      chunkBytes: chunk.length,
    });
    if (this.#sizer !== undefined) {
      const over = this.#sizer.push(chunk);
      if (over >= 0) {
        throw await this.#fail(new ResponseTooLargeError(this.#eventLimit, over, "event"));
      }
    }
    if (this.#seesRaw && decoded > this.#rawLimit) {
      throw await this.#fail(new ResponseTooLargeError(this.#rawLimit, decoded, "raw"));
    }
    if (decoded > this.#decodedLimit) {
      throw await this.#fail(new ResponseTooLargeError(this.#decodedLimit, decoded, "decoded"));
    }
    if (this.#charge !== undefined) {
      try {
        this.#charge(chunk.length);
      } catch (error) {
        throw await this.#fail(error);
      }
    }
  }

  /**
   * The whole rest of the body as one array, under the same bounds as {@link BoundedBody.read}.
   * With a BYOB reader (`wholeBody`), the bytes go straight into one buffer of ours: sized from
   * `Content-Length` (plus one byte, to see a body longer than declared at once), else 16 KiB,
   * doubled when full, never beyond the cap plus one byte.
   */
  async readAll(): Promise<Uint8Array> {
    const reader = this.#byob;
    if (reader === undefined) {
      const chunks: Uint8Array[] = [];
      let total = 0;
      for (;;) {
        const chunk = await this.read();
        if (chunk === undefined) break;
        chunks.push(chunk);
        total += chunk.length;
      }
      return concatBytes(chunks, total);
    }
    const ceiling = Math.min(this.#rawLimit, this.#decodedLimit, MAX_BUFFER) + 1;
    let buffer: Uint8Array = new Uint8Array(
      Math.min(ceiling, (this.#declared ?? FIRST_BUFFER - 1) + 1),
    );
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        const grown: Uint8Array = new Uint8Array(Math.min(ceiling, buffer.length * 2));
        if (grown.length === buffer.length) {
          // Full at the cap plus one byte: the cap check below has already failed the read.
          throw await this.#fail(new ResponseTooLargeError(this.#rawLimit, total, "raw"));
        }
        grown.set(buffer);
        buffer = grown;
      }
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read(new Uint8Array(buffer.buffer, total, buffer.length - total));
      } catch (error) {
        throw await this.#fail(this.#mapReadError(error));
      }
      if (this.#deadline.checkClock()) {
        await this.#cancelling;
        throw this.#deadline.error;
      }
      const view = result.value;
      if (view !== undefined) buffer = new Uint8Array(view.buffer, 0, view.buffer.byteLength);
      if (result.done) {
        this.#finished = true;
        break;
      }
      const chunk = view!;
      total += chunk.length;
      await this.#account(chunk);
    }
    return total === buffer.length ? buffer : buffer.subarray(0, total);
  }

  /** Cancels the body with `reason` (for errors found by the caller) and returns `reason`. */
  async fail<E>(reason: E): Promise<E> {
    return await this.#fail(reason);
  }

  /**
   * Stops listening to the deadline. Cancels the body if it was not read to the end, returning the
   * promise of that (`undefined` otherwise, so the common path costs no extra tick).
   */
  close(): Promise<void> | undefined {
    this.#deadline.offExpire(this.#onAbort);
    return this.#finished ? undefined : this.#cancelAll(undefined);
  }

  async #fail<E>(reason: E): Promise<E> {
    await this.#cancelAll(reason);
    return reason;
  }

  #cancelAll(reason: unknown): Promise<void> {
    this.#finished = true;
    const done = [this.#reader.cancel(reason).catch(noop)];
    if (this.#rawReader !== undefined) done.push(this.#rawReader.cancel(reason).catch(noop));
    return this.#cancelling = Promise.all(done).then(noop);
  }

  #mapReadError(error: unknown): unknown {
    if (this.#deadline.expired || error instanceof AdcpWireError) {
      return networkFailure(error, this.#deadline);
    }
    const state = this.#rawState;
    // Anything raised inside the decompression pipeline but the source's own failure is corrupt
    // compressed data.
    if (state !== undefined && !state.hasSourceError) {
      return new ContentEncodingError(this.#coding ?? "", "corrupt");
    }
    // The body broke off (a reset connection, a truncated chunked body): a network failure.
    return networkFailure(state === undefined ? error : state.sourceError, this.#deadline);
  }
}

function notBytes(value: unknown): TypeError {
  return optionError(TypeError, ACTION, "response.body chunk", "a Uint8Array", notShown(value));
}

function decompressionFormat(coding: string): CompressionFormat | undefined {
  if (coding === "gzip" || coding === "x-gzip") return "gzip";
  if (coding === "deflate") return "deflate";
  if (coding === "br") return "brotli" as CompressionFormat;
  return undefined;
}

/**
 * Opens `body` under bounds after the `Content-Length` check. When the check or the opening fails,
 * returns a promise that cancels the body and then rejects (so the success path stays synchronous).
 * Shared by every HTTP reader: `await` the result.
 *
 * @throws {ResponseTooLargeError | ContentEncodingError | DeadlineExceededError}
 */
export function openResponseBody(
  response: Response,
  body: ReadableStream<Uint8Array>,
  options: BoundedBodyOptions,
  budgetUsed?: number,
): BoundedBody | Promise<never> {
  try {
    const tooLarge = contentLengthError(response, options.limits, budgetUsed);
    if (tooLarge !== undefined) throw tooLarge;
    options.deadline.throwIfExpired();
    return BoundedBody.open(body, options);
  } catch (error) {
    return body.cancel(error).catch(noop).then(() => {
      throw error;
    });
  }
}

/** Largest buffer a whole-body read allocates at once: 1 GiB (far above any byte cap). */
const MAX_BUFFER = 1_073_741_824;

/** A BYOB reader of `body` when it is a byte stream (fetch bodies are), else `undefined`. */
function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return undefined; // not a byte stream: the stream is not locked
  }
}
