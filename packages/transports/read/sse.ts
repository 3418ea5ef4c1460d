import { ResponseTooLargeError } from "../errors.ts";
import { ACTION, type BoundedBody, openResponseBody } from "./_body.ts";
import { Deadline } from "./_deadline.ts";
import { isResolved, resolveCallLimits, RESPONSE_LIMIT_KEYS } from "./_limits.ts";
import { assertReadable, readerSettings } from "./_read_body.ts";
import { SseParser } from "./_sse_parser.ts";
import { SseEventSizer } from "./_sse_sizer.ts";
import { Utf8StreamDecoder } from "./_utf8_decoder.ts";
import type { ResolvedLimits, ResponseLimits } from "./limits.ts";
import type { ContentDecoding, ReadProgress } from "./read_response.ts";
import { optionError, type OptionKeys, optionKeys } from "@adcp-wire/internal";
import { checkKeys } from "../_options.ts";

/** One Server-Sent Event, as {@link readSseEvents} yields it. */
export interface SseEvent {
  /** The event's `data` lines joined with `"\n"` (an event without `data` lines is not yielded). */
  readonly data: string;
  /** The `event` field, or `undefined` for the default type (`"message"`). */
  readonly event: string | undefined;
  /** This event's own `id` field, or `undefined` when it has none. */
  readonly id: string | undefined;
  /**
   * The last event ID once this event is processed: the most recent `id` seen on this request,
   * across reconnects (kept by the {@link SseBudget}); `undefined` when none was seen or the
   * last one was empty (which clears it).
   */
  readonly lastEventId: string | undefined;
}

/**
 * The byte budget of one request answered over Server-Sent Events, with its deadline and last event
 * ID: shared by the first response and every `Last-Event-ID` reconnect, so that an oversized result
 * cannot be split across frames or reconnects. It counts every byte received, and a reconnect does
 * not renew its deadline; see `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @example Every byte of a stream is charged
 * ```ts
 * import { readSseEvents, SseBudget } from "@adcp-wire/transports/read";
 * import { strictEqual } from "node:assert/strict";
 *
 * const budget = new SseBudget({ maxResponseBytes: 100 });
 * await Array.fromAsync(readSseEvents(new Response(": hi\ndata: x\n\n"), { budget }));
 * strictEqual(budget.used, 14);
 * strictEqual(budget.remaining, 86);
 * ```
 */
export class SseBudget {
  /** The bounds of the request: byte caps, deadline, signal. */
  readonly limits: ResolvedLimits;
  /** When the request's deadline started (a `performance.now()` value). */
  readonly startedAt: number;
  #used = 0;
  #lastEventId: string | undefined;
  #retryMs: number | undefined;

  /**
   * Creates a budget; the deadline starts now.
   *
   * @param limits The request's limits (defaults as in {@link resolveLimits}).
   * @throws {TypeError} When `limits` or a field has the wrong type, or `limits` an unknown key.
   * @throws {RangeError} When a limit is out of range.
   */
  constructor(limits?: ResponseLimits) {
    // Limits resolved already (a client call's) are not checked again.
    this.limits = isResolved(limits) ? limits : resolveCallLimits(limits, "limits");
    this.startedAt = performance.now();
  }

  /**
   * Bytes charged so far, over every stream of the request.
   *
   * @example After two charges
   * ```ts
   * import { SseBudget } from "@adcp-wire/transports/read";
   * import { strictEqual } from "node:assert/strict";
   *
   * const budget = new SseBudget();
   * budget.charge(10);
   * budget.charge(5);
   * strictEqual(budget.used, 15);
   * ```
   */
  get used(): number {
    return this.#used;
  }

  /**
   * Bytes left before the cumulative bound (`maxResponseBytes`); never negative.
   *
   * @example What a charge leaves
   * ```ts
   * import { SseBudget } from "@adcp-wire/transports/read";
   * import { strictEqual } from "node:assert/strict";
   *
   * const budget = new SseBudget({ maxResponseBytes: 100 });
   * budget.charge(30);
   * strictEqual(budget.remaining, 70);
   * ```
   */
  get remaining(): number {
    return Math.max(0, this.limits.maxResponseBytes - this.#used);
  }

  /**
   * The last event ID seen on the request, for the `Last-Event-ID` header of a reconnect.
   *
   * @example The id of the last event read
   * ```ts
   * import { createSseBudget, readSseEvents } from "@adcp-wire/transports/read";
   * import { strictEqual } from "node:assert/strict";
   *
   * const budget = createSseBudget();
   * await Array.fromAsync(readSseEvents(new Response("id: 7\ndata: x\n\n"), { budget }));
   * strictEqual(budget.lastEventId, "7");
   * ```
   */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /**
   * The last `retry` interval the server sent, in milliseconds, if any.
   *
   * @example The server's reconnection delay
   * ```ts
   * import { createSseBudget, readSseEvents } from "@adcp-wire/transports/read";
   * import { strictEqual } from "node:assert/strict";
   *
   * const budget = createSseBudget();
   * strictEqual(budget.retryMs, undefined);
   * await Array.fromAsync(readSseEvents(new Response("retry: 500\n\n"), { budget }));
   * strictEqual(budget.retryMs, 500);
   * ```
   */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /**
   * Charges `bytes` received for the request.
   *
   * @param bytes A non-negative safe integer.
   * @throws {ResponseTooLargeError} With phase `"cumulative"` when the total passes
   * `maxResponseBytes` (the bytes stay charged).
   * @throws {TypeError} When `bytes` is not a number.
   * @throws {RangeError} When `bytes` is not a non-negative safe integer.
   *
   * @example Passing the cumulative bound
   * ```ts
   * import { SseBudget } from "@adcp-wire/transports/read";
   * import { strictEqual, throws } from "node:assert/strict";
   *
   * const budget = new SseBudget({ maxResponseBytes: 10 });
   * budget.charge(10);
   * throws(() => budget.charge(1), { code: "RESPONSE_TOO_LARGE", phase: "cumulative" });
   * strictEqual(budget.used, 11);
   * ```
   */
  charge(bytes: number): void {
    if (typeof bytes !== "number") {
      throw optionError(TypeError, "charge the SSE budget", "bytes", "a number", bytes);
    }
    if (!Number.isSafeInteger(bytes) || bytes < 0) {
      throw optionError(
        RangeError,
        "charge the SSE budget",
        "bytes",
        "a non-negative safe integer",
        bytes,
      );
    }
    const used = this.#used += bytes;
    const limit = this.limits.maxResponseBytes;
    if (used > limit) throw new ResponseTooLargeError(limit, used, "cumulative");
  }

  /**
   * Records an event's `id` field: a non-empty id becomes the last event ID, an empty one clears it
   * (WHATWG HTML, Server-sent events, "id" field).
   *
   * @param id The field's value.
   *
   * @example Setting and clearing the last event ID
   * ```ts
   * import { SseBudget } from "@adcp-wire/transports/read";
   * import { strictEqual } from "node:assert/strict";
   *
   * const budget = new SseBudget();
   * budget.recordEventId("42");
   * strictEqual(budget.lastEventId, "42");
   * budget.recordEventId("");
   * strictEqual(budget.lastEventId, undefined);
   * ```
   */
  recordEventId(id: string): void {
    this.#lastEventId = id === "" ? undefined : id;
  }

  /**
   * Records a `retry` field: the server's reconnection delay in milliseconds.
   *
   * @param ms The delay.
   *
   * @example Recording a delay
   * ```ts
   * import { SseBudget } from "@adcp-wire/transports/read";
   * import { strictEqual } from "node:assert/strict";
   *
   * const budget = new SseBudget();
   * budget.recordRetry(3_000);
   * strictEqual(budget.retryMs, 3_000);
   * ```
   */
  recordRetry(ms: number): void {
    this.#retryMs = ms;
  }
}

/**
 * Creates the budget of one SSE request: create it before sending the request, and pass it to
 * {@link readSseEvents} for the first response and for every `Last-Event-ID` reconnect. The
 * deadline (`timeoutMs`) starts now and covers the whole request, reconnects included.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param limits The request's limits (per call; combine layers with {@link resolveLimits}).
 * @returns A fresh budget.
 * @throws {TypeError} When `limits` or a field has the wrong type, or `limits` an unknown key.
 * @throws {RangeError} When a limit is out of range.
 *
 * @example A fresh budget
 * ```ts
 * import { createSseBudget } from "@adcp-wire/transports/read";
 * import { strictEqual } from "node:assert/strict";
 *
 * const budget = createSseBudget({ maxResponseBytes: 1_048_576 });
 * strictEqual(budget.remaining, 1_048_576);
 * strictEqual(budget.lastEventId, undefined);
 * ```
 */
export function createSseBudget(limits?: ResponseLimits): SseBudget {
  return new SseBudget(limits);
}

/** Options of {@link readSseEvents}. */
export interface ReadSseEventsOptions {
  /**
   * The request's budget; pass the same one to every reconnect. Give either `budget` or `limits`.
   * @default {createSseBudget(limits)}
   */
  readonly budget?: SseBudget | undefined;
  /**
   * Limits for a new budget, when `budget` is not given. Default: none of its own (the built-in
   * values apply).
   */
  readonly limits?: ResponseLimits | undefined;
  /**
   * Who decodes a body with a `Content-Encoding`; see {@link ContentDecoding}.
   * @default {"runtime"}
   */
  readonly contentDecoding?: ContentDecoding | undefined;
  /**
   * Called after each chunk is counted; see {@link ReadResponseOptions.onProgress}.
   * @default {undefined}
   */
  readonly onProgress?: ((progress: ReadProgress) => void) | undefined;
}

/** The keys of {@link ReadSseEventsOptions}. */
const OPTION_KEYS: OptionKeys = optionKeys<ReadSseEventsOptions>({
  budget: true,
  limits: true,
  contentDecoding: true,
  onProgress: true,
});

/** Where a top-level limit belongs. */
const NESTED: Readonly<Record<string, OptionKeys>> = { limits: RESPONSE_LIMIT_KEYS };

/**
 * Reads a `text/event-stream` response as Server-Sent Events (parsed by the WHATWG rules), bounded
 * per event, per request and in time: each event may hold at most `maxResponseBytes`, and every
 * byte is charged to the {@link SseBudget}, whose cumulative bound and deadline a `Last-Event-ID`
 * reconnect does not reset. How events are counted and parsed is in `docs/bounded-reading.md`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param response The response; its body must not have been read.
 * @param options The budget (or limits for a new one) and reader options.
 * @returns The events, in order; nothing is read before iteration, and `break` cancels the body.
 * @throws {ResponseTooLargeError} While iterating: phase `"event"`, `"cumulative"` or
 * `"content-length"` (`"raw"` too with manual decoding).
 * @throws {DeadlineExceededError | MalformedUtf8Error | ContentEncodingError | NetworkError} While
 * iterating: the deadline passes, the stream is not UTF-8 or not decodable, or it breaks off.
 * @throws {TypeError | RangeError} At once, for a bad argument (`budget` and `limits` together,
 * or an unknown key of `options` or `options.limits`, included) or a limit out of range.
 *
 * @example Resuming with the same budget after a dropped connection
 * ```ts
 * import { createSseBudget, readSseEvents } from "@adcp-wire/transports/read";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const budget = createSseBudget({ maxResponseBytes: 1_000 });
 * const first = new Response("id: 1\ndata: a\n\nid: 2\nda"); // cut off mid-event
 * await Array.fromAsync(readSseEvents(first, { budget }));
 * strictEqual(budget.lastEventId, "1"); // the reconnect sends Last-Event-ID: 1
 * const resumed = readSseEvents(new Response("id: 2\ndata: b\n\n"), { budget });
 * deepStrictEqual((await Array.fromAsync(resumed)).map((event) => event.data), ["b"]);
 * ```
 */
export function readSseEvents(
  response: Response,
  options: ReadSseEventsOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  return new EventIterator(iterateBatches(...sseArguments(response, options)));
}

/**
 * {@link readSseEvents}, delivering the events that each network chunk completes as one array: the
 * same bounds, errors and options, with one asynchronous step per chunk instead of per event. Use
 * it for throughput when a server streams many small events (see `docs/bounded-reading.md`).
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @param response The response; its body must not have been read.
 * @param options The budget (or limits for a new one) and reader options.
 * @returns Non-empty arrays of events, in order.
 * @throws {ResponseTooLargeError | DeadlineExceededError | MalformedUtf8Error} While iterating, as
 * {@link readSseEvents}; so are `ContentEncodingError` and `NetworkError`.
 * @throws {TypeError | RangeError} At once, for a bad argument, as {@link readSseEvents}.
 *
 * @example Events in batches
 * ```ts
 * import { readSseEventBatches } from "@adcp-wire/transports/read";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const response = new Response("data: 1\n\ndata: 2\n\ndata: 3\n\n");
 * const sizes: number[] = [];
 * for await (const batch of readSseEventBatches(response)) sizes.push(batch.length);
 * deepStrictEqual(sizes, [3]);
 * ```
 */
export function readSseEventBatches(
  response: Response,
  options: ReadSseEventsOptions = {},
): AsyncGenerator<SseEvent[], void, undefined> {
  return iterateBatches(...sseArguments(response, options));
}

type SseArguments = [
  response: Response,
  budget: SseBudget,
  contentDecoding: ContentDecoding,
  onProgress: ((progress: ReadProgress) => void) | undefined,
];

/** Validates the arguments of the SSE readers, eagerly (before iteration starts). */
function sseArguments(response: Response, options: ReadSseEventsOptions): SseArguments {
  assertReadable(response);
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, ACTION, "options", "an object", options);
  }
  checkKeys(ACTION, "options", options, OPTION_KEYS, NESTED);
  const { budget, limits } = options;
  if (budget !== undefined && !(budget instanceof SseBudget)) {
    throw optionError(TypeError, ACTION, "options.budget", "an SseBudget", budget);
  }
  if (budget !== undefined && limits !== undefined) {
    throw optionError(
      TypeError,
      ACTION,
      "options.limits",
      "undefined when 'options.budget' is set (pass the limits to createSseBudget)",
      limits,
    );
  }
  // Named here as the caller named it; the budget then checks the values (as `limits.<field>`).
  if (!isResolved(limits)) checkKeys(ACTION, "options.limits", limits, RESPONSE_LIMIT_KEYS);
  const { contentDecoding, onProgress } = readerSettings({
    contentDecoding: options.contentDecoding,
    onProgress: options.onProgress,
  });
  return [response, budget ?? new SseBudget(limits), contentDecoding, onProgress];
}

/**
 * The events of a batch generator one at a time, as an async generator object. Hand-written because
 * an async generator function costs about three times as much per event (Deno 2.9: about 90 ns
 * against 30 ns, as much as parsing a 200-byte event): an event already in the current batch is
 * handed out as an already-resolved promise. Calls made while a batch is being read wait for it in
 * order, as a generator queues them. `return()` (a `break` out of `for await`) and `throw()` close
 * the batch generator, which cancels the body; after an error or the end, every call reports done.
 */
class EventIterator implements AsyncGenerator<SseEvent, void, undefined> {
  readonly #batches: AsyncGenerator<SseEvent[], void, undefined>;
  #batch: SseEvent[] = [];
  #index = 0;
  #done = false;
  /** The last queued operation, while one is pending. */
  #pending: Promise<unknown> | undefined;

  constructor(batches: AsyncGenerator<SseEvent[], void, undefined>) {
    this.#batches = batches;
  }

  next(): Promise<IteratorResult<SseEvent, void>> {
    if (this.#pending === undefined && this.#index < this.#batch.length) {
      return Promise.resolve({ value: this.#batch[this.#index++]!, done: false });
    }
    return this.#queue(() => this.#pull());
  }

  return(): Promise<IteratorResult<SseEvent, void>> {
    return this.#queue(() => this.#close());
  }

  throw(error: unknown): Promise<IteratorResult<SseEvent, void>> {
    return this.#queue(async () => {
      await this.#close();
      throw error;
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }

  /** Runs `step` after every operation queued before it. */
  #queue<T>(step: () => Promise<T>): Promise<T> {
    const result = this.#pending === undefined ? step() : this.#pending.then(step, step);
    const settled: Promise<unknown> = result.then(() => {
      if (this.#pending === settled) this.#pending = undefined;
    }, () => {
      if (this.#pending === settled) this.#pending = undefined;
    });
    this.#pending = settled;
    return result;
  }

  async #pull(): Promise<IteratorResult<SseEvent, void>> {
    while (this.#index >= this.#batch.length) {
      if (this.#done) return { value: undefined, done: true };
      let next: IteratorResult<SseEvent[], void>;
      try {
        next = await this.#batches.next();
      } catch (error) {
        this.#finish();
        throw error;
      }
      if (next.done === true) {
        this.#finish();
        return { value: undefined, done: true };
      }
      this.#batch = next.value;
      this.#index = 0;
    }
    return { value: this.#batch[this.#index++]!, done: false };
  }

  async #close(): Promise<IteratorResult<SseEvent, void>> {
    const open = !this.#done;
    this.#finish();
    if (open) await this.#batches.return();
    return { value: undefined, done: true };
  }

  #finish(): void {
    this.#done = true;
    this.#batch = [];
    this.#index = 0;
  }
}

async function* iterateBatches(
  response: Response,
  budget: SseBudget,
  contentDecoding: ContentDecoding,
  onProgress: ((progress: ReadProgress) => void) | undefined,
): AsyncGenerator<SseEvent[], void, undefined> {
  const { limits } = budget;
  const cap = limits.maxResponseBytes;
  const body = response.body;
  if (body === null) return;
  const deadline = new Deadline(limits.timeoutMs, limits.signal, budget.startedAt);
  let reader: BoundedBody | undefined;
  try {
    reader = await openResponseBody(response, body, {
      limits,
      deadline,
      contentEncoding: response.headers.get("content-encoding"),
      contentDecoding,
      onProgress,
      capWholeBody: false,
    }, budget.used);
    const sizer = new SseEventSizer(cap);
    const decoder = new Utf8StreamDecoder();
    let batch: SseEvent[] = [];
    // The last event ID, kept here during a feed and written to the budget after it (a field per
    // event is measurably cheaper than a method call and a getter on 200-byte events).
    let lastId = budget.lastEventId;
    let sawId = false;
    // The parser holds at most the characters of the bytes the sizer has counted since the last
    // event boundary (a character is at least one byte, and it ends a line at a CR at once), so the
    // sizer's per-event bound also bounds the parser's buffers.
    const parser = new SseParser({
      onEvent(data, event, id) {
        if (id !== undefined) {
          lastId = id === "" ? undefined : id;
          sawId = true;
        }
        batch.push({ data, event, id, lastEventId: lastId });
      },
      onRetry(ms) {
        budget.recordRetry(ms);
      },
      // The decoder has already dropped a real BOM (U+FEFF) at the start of the body; a second
      // one, or "\u00EF\u00BB\u00BF" (a UTF-8 BOM read as Latin-1), is text: the start of an
      // unknown field name.
      stripBom: false,
    });
    for (;;) {
      const chunk = await reader.read();
      if (chunk === undefined) break;
      let text: string;
      try {
        text = decoder.decode(chunk);
        const over = sizer.push(chunk, text, decoder.lastWasAscii);
        if (over >= 0) throw new ResponseTooLargeError(cap, over, "event");
        budget.charge(chunk.length);
      } catch (error) {
        throw await reader.fail(error);
      }
      if (text.length > 0) {
        parser.feed(text);
        if (sawId) {
          budget.recordEventId(lastId ?? "");
          sawId = false;
        }
      }
      // Once per chunk: the timer cannot fire while buffered chunks are parsed back to back.
      if (deadline.checkClock()) throw await reader.fail(deadline.error);
      if (batch.length > 0) {
        const ready = batch;
        batch = [];
        yield ready;
      }
    }
  } finally {
    await reader?.close();
    deadline.dispose();
  }
}
