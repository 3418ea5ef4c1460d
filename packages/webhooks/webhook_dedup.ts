// Bounded `idempotency_key` dedup per authenticated sender (webhooks.mdx, "Dedup by
// idempotency_key").
import { optionError } from "@adcp-wire/internal";

/** What {@link WebhookDedup.claim} decided for one delivery. */
export type WebhookDedupClaim =
  /** First time this sender sent this key: process the delivery. */
  | { readonly status: "new" }
  /** A retry of a delivery already claimed: answer 2xx and do nothing. */
  | { readonly status: "duplicate" }
  /**
   * The key was claimed with another payload fingerprint: the sender broke the key's binding to
   * its first payload. Do not process; log it (the spec binds a key immutably to one payload).
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
   * Senders remembered at once; past it, a new sender is `full` until an idle one expires.
   * @default {1000}
   */
  readonly maxSenders?: number;
  /**
   * The clock, in milliseconds since the epoch.
   * @default {Date.now}
   */
  readonly now?: () => number;
}

/** The longest sender identity and fingerprint remembered, in UTF-16 units. */
const MAX_IDENTITY_LENGTH = 2048;

/** `core/mcp-webhook-payload.json`, `idempotency_key.pattern`. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{16,255}$/;

interface Entry {
  readonly expires: number;
  readonly fingerprint: string | undefined;
}

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
 * (`maxKeysPerSender`) and in total (`maxSenders`), so a hostile sender flooding fresh keys gets
 * `full` (answer 429) instead of growing the receiver, and can neither evict nor see another
 * sender's keys. Keys expire after `ttlSeconds` (24 hours). Each claim is O(1) amortized.
 *
 * The sender is the identity signature verification established (the RFC 9421 `keyid`'s agent, or
 * the legacy HMAC secret's binding), never a payload field. The spec also requires dedup state
 * that survives restarts and is shared by every endpoint a sender can reach: this class is the
 * policy for one process; put a durable store behind the same rules in production. Details in
 * [docs/webhooks.md](../../docs/webhooks.md).
 *
 * Spec: webhooks.mdx, "Reliability", "Dedup by `idempotency_key`" (scope, 24 h floor, "SHOULD
 * bound dedup cache size per sender and return 429").
 *
 * @example A retry is a duplicate; another sender's key space is its own
 * ```ts
 * import { WebhookDedup } from "@adcp-wire/webhooks";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const dedup = new WebhookDedup({ maxKeysPerSender: 1 });
 * const key = "whk_20260526_example_000031";
 * deepStrictEqual(dedup.claim("https://seller-a.example", key), { status: "new" });
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
  readonly #now: () => number;
  /** Sender → key → entry; both maps in insertion order, senders by last activity. */
  readonly #senders = new Map<string, Map<string, Entry>>();

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
    const now = options.now;
    if (now !== undefined && typeof now !== "function") {
      throw optionError(TypeError, ACTION, "options.now", "a function", now);
    }
    this.#now = now ?? Date.now;
  }

  /**
   * Claims `idempotencyKey` for `sender`: `new` the first time, `duplicate` on a retry (or
   * `conflict` when `fingerprint` differs from the first claim's), `full` when the bounds are
   * reached by live keys.
   *
   * @param sender The authenticated sender identity (1 to 2048 characters).
   * @param idempotencyKey The envelope's key (16 to 255 characters of `[A-Za-z0-9_.:-]`).
   * @param fingerprint Optional digest of the delivery's canonical payload (at most 2048
   * characters), to detect a key reused for another payload.
   * @returns The decision.
   * @throws {TypeError} When an argument is not a string of the allowed form (check the envelope
   * with `checkMcpWebhookEnvelope` first).
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
    if (typeof sender !== "string" || sender === "" || sender.length > MAX_IDENTITY_LENGTH) {
      throw optionError(TypeError, action, "sender", "a string of 1 to 2048 characters", sender);
    }
    if (typeof idempotencyKey !== "string" || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw optionError(
        TypeError,
        action,
        "idempotencyKey",
        "16 to 255 characters of [A-Za-z0-9_.:-]",
        idempotencyKey,
      );
    }
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
    const now = this.#now();
    let keys = this.#senders.get(sender);
    if (keys === undefined) {
      if (this.#senders.size >= this.#maxSenders && !this.#evictIdleSender(now)) {
        return { status: "full", retryAfterSeconds: this.#retryAfter(now, this.#oldestSender()) };
      }
      keys = new Map();
    }
    // Most recently active last, so the first sender is the idlest.
    this.#senders.delete(sender);
    this.#senders.set(sender, keys);
    const seen = keys.get(idempotencyKey);
    if (seen !== undefined && seen.expires > now) {
      return seen.fingerprint !== undefined && fingerprint !== undefined &&
          seen.fingerprint !== fingerprint
        ? { status: "conflict" }
        : { status: "duplicate" };
    }
    if (seen !== undefined) keys.delete(idempotencyKey);
    purgeExpired(keys, now);
    if (keys.size >= this.#maxKeys) {
      return { status: "full", retryAfterSeconds: this.#retryAfter(now, keys) };
    }
    keys.set(idempotencyKey, { expires: now + this.#ttlMs, fingerprint });
    return { status: "new" };
  }

  /**
   * The number of live keys remembered in total (expired ones not yet dropped included).
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
    let total = 0;
    for (const keys of this.#senders.values()) total += keys.size;
    return total;
  }

  /** Drops the idlest sender when all its keys have expired; whether it did. */
  #evictIdleSender(now: number): boolean {
    const first = this.#senders.entries().next();
    if (first.done) return false;
    const [sender, keys] = first.value;
    purgeExpired(keys, now);
    if (keys.size > 0) return false;
    this.#senders.delete(sender);
    return true;
  }

  #oldestSender(): Map<string, Entry> | undefined {
    const first = this.#senders.values().next();
    return first.done ? undefined : first.value;
  }

  /** Seconds until the oldest key of `keys` expires, at least 1. */
  #retryAfter(now: number, keys: Map<string, Entry> | undefined): number {
    const oldest = keys?.values().next();
    const expires = oldest === undefined || oldest.done ? now + 1000 : oldest.value.expires;
    return Math.max(1, Math.ceil((expires - now) / 1000));
  }
}

/** Drops the expired keys at the front (insertion order is expiry order: the TTL is fixed). */
function purgeExpired(keys: Map<string, Entry>, now: number): void {
  for (const [key, entry] of keys) {
    if (entry.expires > now) return;
    keys.delete(key);
  }
}
