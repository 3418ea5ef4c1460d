// Bounded `idempotency_key` dedup per authenticated sender (webhooks.mdx, "Dedup by
// idempotency_key").
import { IDEMPOTENCY_KEY_PATTERN, optionError } from "@adcp-wire/internal";

/** What {@link WebhookDedup.claim} decided for one delivery. */
export type WebhookDedupClaim =
  /**
   * First time this sender sent this key (or the first claim after a release): process the
   * delivery, then {@link WebhookDedup.acknowledge} it (or {@link WebhookDedup.release} it when
   * processing failed).
   */
  | { readonly status: "new" }
  /**
   * The same delivery is claimed and not yet acknowledged: another request is processing it.
   * Answer a retryable `503 Service Unavailable`; never start a second publisher.
   */
  | { readonly status: "processing" }
  /** A retry of a delivery already acknowledged: answer 2xx and do nothing. */
  | { readonly status: "duplicate" }
  /**
   * The key was claimed with another payload fingerprint: the sender broke the key's binding to
   * its first payload. Do not process; answer `409 Conflict` (the spec binds a key immutably to
   * one payload).
   */
  | { readonly status: "conflict" }
  /**
   * This sender's (or the receiver's) dedup memory is full of live keys: answer `429 Too Many
   * Requests` with `Retry-After: retryAfterSeconds` rather than grow.
   */
  | { readonly status: "full"; readonly retryAfterSeconds: number };

/** Options of {@link WebhookDedup}. */
export interface WebhookDedupOptions {
  /**
   * How long a claimed key is remembered, in seconds. The spec's floor is 24 hours.
   * @default {86400}
   */
  readonly ttlSeconds?: number;
  /**
   * Live keys remembered per sender; past it, that sender's new keys are `full` (429).
   * @default {10000}
   */
  readonly maxKeysPerSender?: number;
  /**
   * Senders remembered at once; past it, a new sender is `full` until one's keys all expired.
   * @default {1000}
   */
  readonly maxSenders?: number;
  /**
   * Live keys remembered in total, across senders; past it, every new key is `full` (429). About
   * 365 bytes a key at the longest (255-character) `idempotency_key`, so about 365 MB at the
   * default: without it the bound would be `maxKeysPerSender × maxSenders` (10,000,000 keys).
   * @default {1000000}
   */
  readonly maxTotalKeys?: number;
  /**
   * The clock, in milliseconds since the epoch.
   * @default {Date.now}
   */
  readonly now?: () => number;
}

/** The longest sender identity and fingerprint remembered, in UTF-16 units. */
const MAX_IDENTITY_LENGTH = 2048;

/** One remembered key. */
interface Entry {
  readonly sender: string;
  readonly key: string;
  readonly expires: number;
  fingerprint: string | undefined;
  /** Released by {@link WebhookDedup.release}: the next claim of the key is `new` again. */
  released: boolean;
  /** Acknowledged by {@link WebhookDedup.acknowledge}: a later claim is a `duplicate`. */
  acknowledged: boolean;
}

/** Past this many dropped entries at its front, the expiry queue is compacted. */
const COMPACT_AFTER = 1024;

const ACTION = "create a webhook dedup";

function positiveInteger(name: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number") throw optionError(TypeError, ACTION, name, "a number", value);
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw optionError(RangeError, ACTION, name, `an integer from 1 to ${max}`, value);
  }
  return value;
}

/**
 * Remembers claimed `idempotency_key`s per authenticated sender, in memory bounded per sender
 * (`maxKeysPerSender`), in senders (`maxSenders`) and in total (`maxTotalKeys`), so a hostile
 * sender flooding fresh keys gets `full` (answer 429) instead of growing the receiver, and can
 * neither evict nor see another sender's keys. Nothing live is ever evicted: silent eviction would
 * reopen a replay window. Keys expire `ttlSeconds` (24 hours) after their first claim; a retry does
 * not extend it, as the retry horizon counts from the first attempt. Each call is O(1) amortized:
 * every key enters one expiry queue once and leaves it once (the TTL is fixed, so queue order is
 * expiry order; a clock that steps back is held at its latest reading).
 *
 * The sender is the identity signature verification established (the RFC 9421 `keyid`'s agent, or
 * the legacy HMAC secret's binding), never a payload field. The spec also requires dedup state
 * that survives restarts and is shared by every endpoint a sender can reach: this class is the
 * policy for one process; put a durable store behind the same rules in production. Details in
 * [docs/webhooks.md](../../docs/webhooks.md).
 *
 * Spec: webhooks.mdx, "Reliability", "Dedup by `idempotency_key`" (scope, 24 h floor, "SHOULD
 * bound dedup cache size per sender and return 429"); security.mdx, "Webhook replay dedup
 * sizing" (an aggregate cap that rejects rather than evicts).
 *
 * @example A retry is a duplicate once processed; another sender's key space is its own
 * ```ts
 * import { WebhookDedup } from "@adcp-wire/webhooks";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const dedup = new WebhookDedup({ maxKeysPerSender: 1 });
 * const key = "whk_20260526_example_000031";
 * deepStrictEqual(dedup.claim("https://seller-a.example", key), { status: "new" });
 * deepStrictEqual(dedup.claim("https://seller-a.example", key), { status: "processing" });
 * dedup.acknowledge("https://seller-a.example", key); // processed
 * deepStrictEqual(dedup.claim("https://seller-a.example", key), { status: "duplicate" });
 * deepStrictEqual(dedup.claim("https://seller-b.example", key), { status: "new" });
 * const next = dedup.claim("https://seller-a.example", "whk_20260526_example_000032");
 * deepStrictEqual(next, { status: "full", retryAfterSeconds: 86400 });
 * ```
 */
export class WebhookDedup {
  readonly #ttlMs: number;
  readonly #maxKeys: number;
  readonly #maxSenders: number;
  readonly #maxTotal: number;
  readonly #now: () => number;
  /** Sender → key → entry, each map in claim order (so its first entry expires first). */
  readonly #senders = new Map<string, Map<string, Entry>>();
  /** Every remembered entry in claim order, from `#head` on: the expiry queue. */
  #queue: Entry[] = [];
  #head = 0;
  /** The latest clock reading: expiries never go back. */
  #clock = -Infinity;

  /**
   * Makes an empty dedup memory.
   *
   * @param options The TTL, the bounds and the clock.
   * @throws {TypeError} When an option has the wrong type.
   * @throws {RangeError} When a bound or the TTL is not a positive integer in range.
   *
   * @example Usage
   * ```ts
   * import { WebhookDedup } from "@adcp-wire/webhooks";
   * import { throws } from "node:assert/strict";
   *
   * throws(() => new WebhookDedup({ ttlSeconds: 0 }), RangeError);
   * ```
   */
  constructor(options: WebhookDedupOptions = {}) {
    if (options === null || typeof options !== "object") {
      throw optionError(TypeError, ACTION, "options", "an object", options);
    }
    this.#ttlMs = positiveInteger("options.ttlSeconds", options.ttlSeconds, 86_400, 31_536_000) *
      1000;
    this.#maxKeys = positiveInteger(
      "options.maxKeysPerSender",
      options.maxKeysPerSender,
      10_000,
      100_000_000,
    );
    this.#maxSenders = positiveInteger(
      "options.maxSenders",
      options.maxSenders,
      1_000,
      100_000_000,
    );
    this.#maxTotal = positiveInteger(
      "options.maxTotalKeys",
      options.maxTotalKeys,
      1_000_000,
      100_000_000,
    );
    const now = options.now;
    if (now !== undefined && typeof now !== "function") {
      throw optionError(TypeError, ACTION, "options.now", "a function", now);
    }
    this.#now = now ?? Date.now;
  }

  /**
   * Claims `idempotencyKey` for `sender`: `new` the first time (or after
   * {@link WebhookDedup.release}), `processing` on a retry before {@link WebhookDedup.acknowledge},
   * `duplicate` after it (or `conflict` when `fingerprint`
   * differs from the first claim's), `full` when the bounds are reached by live keys; a full
   * memory still answers `duplicate` and `conflict` for the keys it holds.
   *
   * @param sender The authenticated sender identity (1 to 2048 characters).
   * @param idempotencyKey The envelope's key (16 to 255 characters of `[A-Za-z0-9_.:-]`).
   * @param fingerprint Optional digest of the delivery's canonical payload (at most 2048
   * characters), to detect a key reused for another payload.
   * @returns The decision.
   * @throws {TypeError} When an argument is not a string of the allowed form (check the envelope
   * with `checkMcpWebhookEnvelope` first; a bad key is described by its length, never shown), or
   * the clock returns anything but a finite number.
   *
   * @example A key reused for another payload
   * ```ts
   * import { WebhookDedup } from "@adcp-wire/webhooks";
   * import { strictEqual } from "node:assert/strict";
   *
   * const dedup = new WebhookDedup();
   * const key = "whk_20260526_example_000031";
   * strictEqual(dedup.claim("seller", key, "sha256:aa").status, "new");
   * strictEqual(dedup.claim("seller", key, "sha256:bb").status, "conflict");
   * ```
   */
  claim(sender: string, idempotencyKey: string, fingerprint?: string): WebhookDedupClaim {
    const action = "claim a webhook idempotency key";
    checkArguments(action, sender, idempotencyKey);
    if (
      fingerprint !== undefined &&
      (typeof fingerprint !== "string" || fingerprint.length > MAX_IDENTITY_LENGTH)
    ) {
      throw optionError(
        TypeError,
        action,
        "fingerprint",
        "a string of at most 2048 characters",
        fingerprint,
      );
    }
    const now = this.#tick(action);
    let keys = this.#senders.get(sender);
    const seen = keys?.get(idempotencyKey);
    if (seen !== undefined) {
      if (seen.released) {
        // The key keeps its first expiry: its retry horizon counts from the first attempt.
        seen.released = false;
        seen.fingerprint = fingerprint;
        return { status: "new" };
      }
      if (
        seen.fingerprint !== undefined && fingerprint !== undefined &&
        seen.fingerprint !== fingerprint
      ) {
        return { status: "conflict" };
      }
      return seen.acknowledged ? { status: "duplicate" } : { status: "processing" };
    }
    if (keys !== undefined && keys.size >= this.#maxKeys) {
      return { status: "full", retryAfterSeconds: this.#retryAfter(now, firstOf(keys)) };
    }
    if (this.#queue.length - this.#head >= this.#maxTotal) {
      return { status: "full", retryAfterSeconds: this.#retryAfter(now, this.#queue[this.#head]) };
    }
    if (keys === undefined) {
      if (this.#senders.size >= this.#maxSenders) {
        // A sender slot frees when a sender's last key expires, no sooner than the next expiry.
        return {
          status: "full",
          retryAfterSeconds: this.#retryAfter(now, this.#queue[this.#head]),
        };
      }
      keys = new Map();
      this.#senders.set(sender, keys);
    }
    const entry: Entry = {
      sender,
      key: idempotencyKey,
      expires: now + this.#ttlMs,
      fingerprint,
      released: false,
      acknowledged: false,
    };
    keys.set(idempotencyKey, entry);
    this.#queue.push(entry);
    return { status: "new" };
  }

  /**
   * Gives back a `new` claim whose delivery was not processed (the handler failed and the receiver
   * answers 5xx so the sender retries): the next claim of the key is `new` again instead of a
   * `duplicate` acknowledged without processing. The key keeps its memory slot and first expiry.
   *
   * Spec: webhooks.mdx, "Reliability" (at-least-once delivery; a delivery is acknowledged with
   * 2xx only once processed).
   *
   * @param sender The sender identity of the claim.
   * @param idempotencyKey The key of the claim.
   * @returns `true` when a live claim was released, `false` when there was none.
   * @throws {TypeError} When an argument is not a string of the allowed form, or the clock returns
   * anything but a finite number.
   *
   * @example A failed dispatch does not swallow the retry
   * ```ts
   * import { WebhookDedup } from "@adcp-wire/webhooks";
   * import { strictEqual } from "node:assert/strict";
   *
   * const dedup = new WebhookDedup();
   * const key = "whk_20260526_example_000031";
   * strictEqual(dedup.claim("seller", key).status, "new");
   * strictEqual(dedup.release("seller", key), true); // dispatch failed: answer 503
   * strictEqual(dedup.claim("seller", key).status, "new"); // the retry is processed
   * strictEqual(dedup.acknowledge("seller", key), true);
   * strictEqual(dedup.claim("seller", key).status, "duplicate");
   * ```
   */
  release(sender: string, idempotencyKey: string): boolean {
    const action = "release a webhook idempotency key";
    checkArguments(action, sender, idempotencyKey);
    this.#tick(action);
    const entry = this.#senders.get(sender)?.get(idempotencyKey);
    if (entry === undefined || entry.released || entry.acknowledged) return false;
    entry.released = true;
    entry.fingerprint = undefined;
    return true;
  }

  /**
   * Records that a `new` claim's delivery was processed (published, or durably enqueued with one
   * owner): later claims of the key are `duplicate` (answer 2xx), where until now they were
   * `processing` (answer 503).
   *
   * Spec: webhooks.mdx, "Dedup by `idempotency_key`" ("An identical delivery already being
   * processed MUST NOT start a second publisher … After acknowledgement, return `2xx` without
   * republishing").
   *
   * @param sender The sender identity of the claim.
   * @param idempotencyKey The key of the claim.
   * @returns `true` when a live, unacknowledged claim was acknowledged, `false` otherwise.
   * @throws {TypeError} When an argument is not a string of the allowed form, or the clock returns
   * anything but a finite number.
   *
   * @example A retry during processing waits; after it, it is a duplicate
   * ```ts
   * import { WebhookDedup } from "@adcp-wire/webhooks";
   * import { strictEqual } from "node:assert/strict";
   *
   * const dedup = new WebhookDedup();
   * const key = "whk_20260526_example_000031";
   * strictEqual(dedup.claim("seller", key).status, "new");
   * strictEqual(dedup.claim("seller", key).status, "processing"); // answer 503
   * strictEqual(dedup.acknowledge("seller", key), true);
   * strictEqual(dedup.claim("seller", key).status, "duplicate"); // answer 2xx
   * ```
   */
  acknowledge(sender: string, idempotencyKey: string): boolean {
    const action = "acknowledge a webhook idempotency key";
    checkArguments(action, sender, idempotencyKey);
    this.#tick(action);
    const entry = this.#senders.get(sender)?.get(idempotencyKey);
    if (entry === undefined || entry.released || entry.acknowledged) return false;
    entry.acknowledged = true;
    return true;
  }

  /**
   * The number of keys remembered in total, released ones included (they hold their slot until
   * they expire), as of the last call.
   *
   * @returns The count.
   *
   * @example Usage
   * ```ts
   * import { WebhookDedup } from "@adcp-wire/webhooks";
   * import { strictEqual } from "node:assert/strict";
   *
   * const dedup = new WebhookDedup();
   * dedup.claim("seller", "whk_20260526_example_000031");
   * strictEqual(dedup.size, 1);
   * ```
   */
  get size(): number {
    return this.#queue.length - this.#head;
  }

  /** Reads the clock (held at its latest reading) and drops every expired entry. */
  #tick(action: string): number {
    const reading = this.#now();
    if (typeof reading !== "number" || !Number.isFinite(reading)) {
      throw optionError(TypeError, action, "options.now()", "a finite number", reading);
    }
    if (reading > this.#clock) this.#clock = reading; // a step back keeps the last reading
    const now = this.#clock;
    const queue = this.#queue;
    while (this.#head < queue.length && queue[this.#head]!.expires <= now) {
      const entry = queue[this.#head]!;
      this.#head++;
      const keys = this.#senders.get(entry.sender)!;
      keys.delete(entry.key);
      if (keys.size === 0) this.#senders.delete(entry.sender);
    }
    if (this.#head >= COMPACT_AFTER && this.#head * 2 >= queue.length) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
    return now;
  }

  /** Seconds until `entry` expires, at least 1. */
  #retryAfter(now: number, entry: Entry | undefined): number {
    const expires = entry === undefined ? now + 1000 : entry.expires;
    return Math.max(1, Math.ceil((expires - now) / 1000));
  }
}

/** The first entry of a map (the oldest claim of a sender). */
function firstOf(keys: Map<string, Entry>): Entry | undefined {
  const first = keys.values().next();
  return first.done ? undefined : first.value;
}

/** Checks a sender identity and a key. @throws {TypeError} */
function checkArguments(action: string, sender: unknown, idempotencyKey: unknown): void {
  if (typeof sender !== "string" || sender === "" || sender.length > MAX_IDENTITY_LENGTH) {
    throw optionError(TypeError, action, "sender", "a string of 1 to 2048 characters", sender);
  }
  if (typeof idempotencyKey !== "string") {
    throw optionError(TypeError, action, "idempotencyKey", "a string", idempotencyKey);
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    // The optionError message style, but the seller's string described by its length only.
    throw new TypeError(
      `Cannot ${action} as 'idempotencyKey' must be 16 to 255 characters of [A-Za-z0-9_.:-]: ` +
        `current value is a ${idempotencyKey.length}-character string that is not`,
    );
  }
}
