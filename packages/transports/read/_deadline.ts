// One read's deadline: a timer plus the caller's signal. When either fires, the deadline records
// the error the read must fail with and calls its listeners (which cancel the body).
//
// No AbortController unless someone asks for `signal` (only boundedFetch does, to hand to fetch):
// creating one per read was measurable in the 4 MiB read benchmark.
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
  #timer: ReturnType<typeof setTimeout> | undefined;
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
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#expire(this.#timeoutError());
    }, remaining);
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
    if (!this.#expired && this.#timer !== undefined && performance.now() >= this.#endsAt) {
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
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
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
