// One read's deadline: a timer plus the caller's signal. When either fires, the deadline records
// the error the read must fail with and calls its listeners (which cancel the body).
//
// No AbortController unless someone asks for `signal` (only boundedFetch does, to hand to fetch):
// creating one per read was measurable in the 4 MiB read benchmark.
//
// One timer for all deadlines: a deadline does not start a timer of its own but joins the alarm
// clock below, a heap of the running deadlines ordered by when they end, behind a single runtime
// timer set for the earliest. A call's setTimeout and clearTimeout cost more than the rest of its
// deadline (in Deno 2.9 each is a Node-style Timeout object), and calls with the same timeout end
// in the order they start, so the timer is set again only when a deadline ends sooner than every
// running one. While no deadline runs, the timer is unref'd: it keeps no process alive.
//
// The timer alone is not enough: it can only fire between tasks, and a body whose chunks are
// already buffered is read and parsed without ever leaving the microtask queue. Readers therefore
// also call `checkClock()` once per chunk, which compares the clock with the end and expires the
// deadline (with the error the timer would give) as soon as it has passed.
import { AdcpWireError } from "@adcp-wire/internal";
import { DeadlineExceededError, NetworkError } from "../errors.ts";

/**
 * A running deadline. It expires when `timeoutMs` runs out (error: DeadlineExceededError) or when
 * the caller's signal aborts (error: DeadlineExceededError for a `TimeoutError`, otherwise the
 * caller's reason). Always call `dispose()` when the read ends, so no timer outlives it.
 */
export class Deadline {
  readonly #startedAt: number;
  readonly #timeoutMs: number;
  /** When the deadline runs out (a `performance.now()` value). */
  readonly #endsAt: number;
  readonly #outer: AbortSignal | undefined;
  readonly #listeners = new Set<() => void>();
  /** This deadline's place on the alarm clock, while it runs; `undefined` once it ended. */
  #alarm: Alarm | undefined;
  #onOuterAbort: (() => void) | undefined;
  #expired = false;
  #error: unknown;
  #controller: AbortController | undefined;

  /**
   * Starts a deadline of `timeoutMs` from `startedAt` (a `performance.now()` value; the remaining
   * time is what is left of it now).
   */
  constructor(
    timeoutMs: number,
    outer: AbortSignal | undefined,
    startedAt: number = performance.now(),
  ) {
    this.#timeoutMs = timeoutMs;
    this.#startedAt = startedAt;
    this.#endsAt = startedAt + timeoutMs;
    this.#outer = outer;
    if (outer?.aborted) {
      this.#expire(abortError(outer.reason, startedAt));
      return;
    }
    const remaining = startedAt + timeoutMs - performance.now();
    if (remaining <= 0) {
      this.#expire(this.#timeoutError());
      return;
    }
    this.#alarm = clock.add(this.#endsAt, () => {
      this.#alarm = undefined;
      this.#expire(this.#timeoutError());
    });
    if (outer !== undefined) {
      this.#onOuterAbort = () => this.#expire(abortError(outer.reason, this.#startedAt));
      outer.addEventListener("abort", this.#onOuterAbort, { once: true });
    }
  }

  /** Whether the deadline has fired. */
  get expired(): boolean {
    return this.#expired;
  }

  /** The error the read must fail with, once the deadline has fired. */
  get error(): unknown {
    return this.#error;
  }

  /**
   * Whether {@link Deadline.signal} was handed out: someone (the `fetch` of the request) aborts
   * when the deadline fires, so a read that cannot be cancelled ends with the deadline anyway.
   */
  get signalled(): boolean {
    return this.#controller !== undefined;
  }

  /** An AbortSignal that aborts, with `error` as its reason, when the deadline fires. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#expired) this.#controller.abort(this.#error);
    }
    return this.#controller.signal;
  }

  /**
   * Expires the deadline if its time has run out by the clock, as the timer would once it gets to
   * run; for loops that process buffered chunks without yielding to the event loop. Costs one clock
   * read. Returns whether the deadline has expired (for any reason). A disposed deadline never
   * expires here.
   */
  checkClock(): boolean {
    if (!this.#expired && this.#alarm !== undefined && performance.now() >= this.#endsAt) {
      this.#expire(this.#timeoutError());
    }
    return this.#expired;
  }

  /** Throws the deadline's error if it has fired. */
  throwIfExpired(): void {
    if (this.#expired) throw this.#error;
  }

  /** Calls `listener` once when the deadline fires (not if it already has). */
  onExpire(listener: () => void): void {
    this.#listeners.add(listener);
  }

  /** Removes a listener added with `onExpire`. */
  offExpire(listener: () => void): void {
    this.#listeners.delete(listener);
  }

  /** Stops the timer and detaches from the caller's signal. Idempotent. */
  dispose(): void {
    if (this.#alarm !== undefined) {
      clock.remove(this.#alarm);
      this.#alarm = undefined;
    }
    if (this.#onOuterAbort !== undefined) {
      this.#outer?.removeEventListener("abort", this.#onOuterAbort);
      this.#onOuterAbort = undefined;
    }
  }

  #timeoutError(): DeadlineExceededError {
    return new DeadlineExceededError(this.#timeoutMs, performance.now() - this.#startedAt);
  }

  #expire(error: unknown): void {
    if (this.#expired) return;
    this.dispose();
    this.#expired = true;
    this.#error = error;
    this.#controller?.abort(error);
    for (const listener of this.#listeners) listener();
    this.#listeners.clear();
  }
}

/** A running deadline's entry on the {@link AlarmClock}. */
interface Alarm {
  /** When it rings (a `performance.now()` value). */
  readonly at: number;
  /** Its index in the clock's heap, while it is there. */
  index: number;
  readonly ring: () => void;
}

/** The runtime's timer handle: a Node-style `Timeout` (Deno, Node) or a number (browsers). */
type TimerHandle = ReturnType<typeof setTimeout>;

/**
 * The alarms of every running deadline, in a binary min-heap on `at`, behind one runtime timer set
 * for the earliest (see the top of this file). Adding and removing an alarm cost O(log n).
 */
export class AlarmClock {
  readonly #heap: Alarm[] = [];
  #timer: TimerHandle | undefined;
  /** When the timer fires (a `performance.now()` value); `Infinity` when there is no timer. */
  #timerAt = Infinity;
  /** Whether the timer is ref'd (keeps the process alive). */
  #held = false;

  /** How many alarms are set. */
  get size(): number {
    return this.#heap.length;
  }

  /** Sets an alarm that calls `ring` once the clock reaches `at`; returns it for `remove`. */
  add(at: number, ring: () => void): Alarm {
    const heap = this.#heap;
    const alarm: Alarm = { at, index: heap.length, ring };
    heap.push(alarm);
    this.#up(alarm.index);
    if (at < this.#timerAt) this.#arm(at);
    else if (!this.#held) this.#hold(true);
    return alarm;
  }

  /** Takes back an alarm that has not rung (a no-op for one that has). */
  remove(alarm: Alarm): void {
    const heap = this.#heap;
    const index = alarm.index;
    if (heap[index] !== alarm) return;
    alarm.index = -1;
    const last = heap.pop()!;
    if (last !== alarm) {
      heap[index] = last;
      last.index = index;
      this.#down(index);
      this.#up(last.index);
    }
    // The timer stays set (a later alarm reuses it), but keeps no process alive for nothing.
    if (heap.length === 0) this.#hold(false);
  }

  /**
   * Takes every alarm that is due off the heap, sets the timer for the next one, then rings them in
   * order. A ring that throws does not keep the others from ringing; the first error is rethrown
   * at the end (uncaught, as from a timer of its own).
   */
  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    this.#held = false;
    const heap = this.#heap;
    const now = performance.now();
    const due: Alarm[] = [];
    while (heap.length > 0 && heap[0]!.at <= now) {
      const alarm = heap[0]!;
      this.remove(alarm);
      due.push(alarm);
    }
    if (heap.length > 0) this.#arm(heap[0]!.at);
    let failed = false;
    let failure: unknown;
    for (const alarm of due) {
      try {
        alarm.ring();
      } catch (error) {
        if (!failed) [failed, failure] = [true, error];
      }
    }
    if (failed) throw failure;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - performance.now()));
    this.#held = true;
  }

  /** Refs or unrefs the timer, where the runtime's timers can be (Deno, Node). */
  #hold(held: boolean): void {
    const timer = this.#timer;
    this.#held = held;
    if (typeof timer !== "object" || timer === null) return;
    const handle = timer as { ref?: () => unknown; unref?: () => unknown };
    if (held) handle.ref?.();
    else handle.unref?.();
  }

  #up(index: number): void {
    const heap = this.#heap;
    const alarm = heap[index]!;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex]!;
      if (parent.at <= alarm.at) break;
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = alarm;
    alarm.index = index;
  }

  #down(index: number): void {
    const heap = this.#heap;
    const length = heap.length;
    const alarm = heap[index]!;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && heap[right]!.at < heap[left]!.at ? right : left;
      const smaller = heap[child]!;
      if (smaller.at >= alarm.at) break;
      heap[index] = smaller;
      smaller.index = index;
      index = child;
    }
    heap[index] = alarm;
    alarm.index = index;
  }
}

/** The clock of every deadline of this realm. */
const clock = new AlarmClock();

/**
 * The error a read fails with when the caller's signal aborts with `reason`: a
 * DeadlineExceededError for a `TimeoutError` (as from `AbortSignal.timeout()`), otherwise the
 * reason itself.
 */
export function abortError(reason: unknown, startedAt: number): unknown {
  if (reason instanceof DOMException && reason.name === "TimeoutError") {
    return new DeadlineExceededError(undefined, performance.now() - startedAt, reason);
  }
  return reason;
}

/** Settles like `promise`, or rejects with the deadline's error as soon as the deadline fires. */
export function untilDeadline<T>(promise: Promise<T>, deadline: Deadline): Promise<T> {
  deadline.throwIfExpired();
  return new Promise<T>((resolve, reject) => {
    const onExpire = (): void => reject(deadline.error);
    deadline.onExpire(onExpire);
    promise.then(
      (value) => {
        deadline.offExpire(onExpire);
        resolve(value);
      },
      (error: unknown) => {
        deadline.offExpire(onExpire);
        reject(error);
      },
    );
  });
}

/**
 * What a failed network step throws: the deadline's error once it fired, a transport error as it
 * is, the caller's own abort reason as it is, and anything else the runtime threw (refused, reset,
 * DNS, TLS, a body that broke off) as a {@link NetworkError}.
 */
export function networkFailure(
  error: unknown,
  deadline: Deadline,
  signal?: AbortSignal | null,
): unknown {
  if (deadline.expired) return deadline.error;
  if (error instanceof AdcpWireError) return error;
  if (signal?.aborted && error === signal.reason) return error;
  return new NetworkError(error);
}

/** Cancels, unread, the body of a response that arrives after nobody waits for it any more. */
export function cancelLate(pending: Promise<unknown>): void {
  pending.then(
    (late) => late instanceof Response ? late.body?.cancel().catch(() => {}) : undefined,
    () => {},
  );
}
