// Bounded `idempotency_key` dedup per authenticated sender (webhooks.mdx, "Dedup by
// idempotency_key"), its capacity shared fairly between sender groups.
import {
  checkOptionKeys,
  IDEMPOTENCY_KEY_PATTERN,
  integerOption,
  optionError,
  optionKeys,
} from "@adcp-wire/internal";

/** What {@link WebhookDedup.claim} decided for one delivery. */
export type WebhookDedupClaim =
  /**
   * First time this sender sent this key (or the first claim of the same payload after a
   * release): process the delivery, then {@link WebhookDedup.acknowledge} it (or
   * {@link WebhookDedup.release} it when processing failed).
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
   * The key is bound to another payload fingerprint: the sender broke the key's binding to its
   * first payload. Do not process; answer `409 Conflict` (the spec binds a key immutably to one
   * payload for the whole retry window, released or not).
   */
  | { readonly status: "conflict" }
  /**
   * The sender (or its group, or the receiver) has no room for another live key: answer `429 Too
   * Many Requests` with `Retry-After: retryAfterSeconds` rather than grow.
   */
  | { readonly status: "full"; readonly retryAfterSeconds: number };

/** Options of {@link WebhookDedup}. */
export interface WebhookDedupOptions {
  /**
   * How long a claimed key is remembered, in seconds from its first claim. The spec's floor is
   * 24 hours; set it to the sender's `delivery_retry_horizon_seconds` when that is longer.
   * @default {86400}
   */
  readonly ttlSeconds?: number;
  /**
   * Live keys per sender at most; past it, that sender's new keys are `full` (429). It also caps
   * the keys a sender group holds beyond its guaranteed share (see {@link WebhookDedup}).
   * @default {10000}
   */
  readonly maxKeysPerSender?: number;
  /**
   * The number of sender groups the reserved half of `maxTotalKeys` is divided among: each group
   * is guaranteed `max(1, floor(maxTotalKeys / 2 / maxSenders))` live keys (100 at the
   * defaults), so a group is refused its first keys only once this many other groups hold
   * guaranteed keys and the shared half is full. Not a cap on senders: senders are bounded by
   * the keys they hold.
   * @default {5000}
   */
  readonly maxSenders?: number;
  /**
   * Live keys remembered in total, across senders; never exceeded. Half is reserved for the
   * groups' guaranteed shares, half is shared. About 800 bytes a key at worst (a 255-character
   * key, a 256-character fingerprint: about 800 MB at the default), about 400 with 40-character
   * keys and 64-character digests, plus one record per sender and group holding keys (its
   * identity string and about 200 bytes).
   * @default {1000000}
   */
  readonly maxTotalKeys?: number;
  /**
   * The group a sender's capacity is accounted in, from its identity. The default groups an
   * `http:`/`https:` URL identity by its origin (every agent URL an operator lists on one origin
   * shares one budget) and leaves any other identity on its own. Map to the registrable domain
   * to bound an operator that mints subdomains, or return `sender` to give every sender its own
   * share. Called once per sender while it holds keys; must return 1 to 2048 characters.
   * @default {origin of a URL identity, else the identity}
   */
  readonly groupOf?: (sender: string) => string;
  /**
   * The clock, in milliseconds since the epoch.
   * @default {Date.now}
   */
  readonly now?: () => number;
}

/** The longest sender identity (and group) accepted, in UTF-16 units. */
const MAX_IDENTITY_LENGTH = 2048;
/** The longest payload fingerprint accepted, in UTF-16 units: a digest, with room to spare. */
const MAX_FINGERPRINT_LENGTH = 256;

/** The capacity a group of senders holds. */
interface Group {
  readonly id: string;
  /** Live keys of the group's senders, released ones included. */
  keys: number;
  /** Of them, the keys charged to the group's guaranteed share. */
  reserved: number;
  /** The group's live entries in claim order, from `head` on (its first expires first). */
  queue: Entry[];
  head: number;
}

/** One sender holding keys. */
interface Sender {
  readonly id: string;
  readonly group: Group;
  /** Key → entry, in claim order (so its first entry expires first). */
  readonly keys: Map<string, Entry>;
}

/** One remembered key. */
interface Entry {
  readonly sender: Sender;
  readonly key: string;
  readonly expires: number;
  /** Charged to the group's guaranteed share (else to the shared half). */
  readonly reserved: boolean;
  /** The first fingerprint given for the key: its binding, kept across releases. */
  fingerprint: string | undefined;
  /** Released by {@link WebhookDedup.release}: the next claim of its payload is `new` again. */
  released: boolean;
  /** Acknowledged by {@link WebhookDedup.acknowledge}: a later claim is a `duplicate`. */
  acknowledged: boolean;
}

/** Past this many dropped entries at its front, a queue is compacted. */
const COMPACT_AFTER = 1024;

const ACTION = "create a webhook dedup";

/** The keys of {@link WebhookDedupOptions}. */
const WEBHOOK_DEDUP_KEYS = optionKeys<WebhookDedupOptions>({
  ttlSeconds: true,
  maxKeysPerSender: true,
  maxSenders: true,
  maxTotalKeys: true,
  groupOf: true,
  now: true,
});

/** The default group of a sender: the origin of an http(s) URL identity, else the identity. */
function originGroup(sender: string): string {
  if (!/^https?:\/\//i.test(sender)) return sender;
  try {
    const origin = new URL(sender).origin;
    return origin === "null" ? sender : origin;
  } catch {
    return sender;
  }
}

/**
 * Remembers claimed `idempotency_key`s per authenticated sender, in bounded memory that no sender
 * can deny to the others, so a hostile sender flooding fresh keys (or spreading them over many
 * identities) gets `full` (answer 429) instead of growing the receiver or locking anyone out. A
 * key is bound to the first payload fingerprint given for it until it expires, released or not:
 * a changed payload is `conflict` (409), and a release frees the key for a retry of that payload
 * only. Nothing live is ever evicted: silent eviction would reopen a replay window. Keys expire
 * `ttlSeconds` (24 hours) after their first claim; a retry does not extend it. Each call is O(1)
 * amortized (one expiry queue; the TTL is fixed, so claim order is expiry order; a clock that
 * steps back is held at its latest reading).
 *
 * Capacity is accounted per sender group (by default the origin of an agent URL identity): half
 * of `maxTotalKeys` is reserved, every group being guaranteed `G = max(1, floor(maxTotalKeys / 2
 * / maxSenders))` keys of it (100 at the defaults); the other half is shared, each group taking
 * at most `maxKeysPerSender` keys beyond its guarantee, each sender at most `maxKeysPerSender` in
 * all. So a sender whose group holds fewer than `G` keys is refused only when `maxSenders`
 * (5,000) other groups hold guaranteed keys and the shared half is full: one party fills the
 * shared half only with 50 groups at the defaults, and cannot reach another group's guarantee
 * with fewer than 5,000 groups, whatever number of key ids, agents on one origin, or keys it has.
 * Memory stays under `maxTotalKeys` entries plus one record per sender and group holding keys
 * (see {@link WebhookDedupOptions.maxTotalKeys}).
 *
 * The sender is the identity signature verification established (`signer.senderId` of
 * `@adcp-wire/signing`: the agent URL of the brand.json `agents[]` entry the key was resolved
 * for, never the `keyid`, of which one seller can publish 1,000; or the legacy HMAC secret's
 * binding), never a payload field. The spec also requires dedup state that survives restarts and
 * is shared by every endpoint a sender can reach: this class is the policy for one process; put a
 * durable store behind the same rules in production. Details in
 * [docs/webhooks.md](../../docs/webhooks.md).
 *
 * Spec: webhooks.mdx, "Reliability", "Dedup by `idempotency_key`" (scope, the sender identity,
 * the binding to the first payload, 24 h floor, "SHOULD bound dedup cache size per sender and
 * return 429"); security.mdx, "Webhook replay dedup sizing" (reject rather than evict; budget per
 * seller).
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
 *
 * @example Many identities of one party cannot lock a fresh sender out
 * ```ts
 * import { WebhookDedup } from "@adcp-wire/webhooks";
 * import { strictEqual } from "node:assert/strict";
 *
 * const dedup = new WebhookDedup({ maxTotalKeys: 1_000, maxSenders: 10 }); // 50 keys guaranteed
 * for (let agent = 0; agent < 100; agent++) {
 *   for (let n = 0; n < 100; n++) {
 *     dedup.claim(`https://hostile.example/agent-${agent}`, `whk_flood_${agent}_${n}_padding`);
 *   }
 * }
 * strictEqual(dedup.size <= 1_000, true);
 * const fresh = dedup.claim("https://honest.example/mcp", "whk_20260526_example_000031");
 * strictEqual(fresh.status, "new");
 * ```
 */
export class WebhookDedup {
  readonly #ttlMs: number;
  readonly #maxKeys: number;
  readonly #guaranteed: number;
  readonly #reservedCap: number;
  readonly #sharedCap: number;
  readonly #groupOf: (sender: string) => string;
  readonly #now: () => number;
  readonly #senders = new Map<string, Sender>();
  readonly #groups = new Map<string, Group>();
  /** Every remembered entry in claim order, from `#head` on: the expiry queue. */
  #queue: Entry[] = [];
  #head = 0;
  #reservedUsed = 0;
  #sharedUsed = 0;
  /** The latest clock reading: expiries never go back. */
  #clock = -Infinity;

  /**
   * Makes an empty dedup memory.
   *
   * @param options The TTL, the bounds, the grouping and the clock.
   * @throws {TypeError} When an option has the wrong type or an unknown name.
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
    checkOptionKeys(ACTION, "options", options, WEBHOOK_DEDUP_KEYS);
    const count = (name: string, value: unknown, fallback: number, max: number) =>
      integerOption(ACTION, `options.${name}`, value, fallback, { min: 1, max });
    this.#ttlMs = count("ttlSeconds", options.ttlSeconds, 86_400, 31_536_000) * 1000;
    this.#maxKeys = count("maxKeysPerSender", options.maxKeysPerSender, 10_000, 100_000_000);
    const groups = count("maxSenders", options.maxSenders, 5_000, 100_000_000);
    const total = count("maxTotalKeys", options.maxTotalKeys, 1_000_000, 100_000_000);
    this.#guaranteed = Math.max(1, Math.floor(total / 2 / groups));
    this.#reservedCap = Math.min(this.#guaranteed * groups, Math.floor(total / 2));
    this.#sharedCap = total - this.#reservedCap;
    const groupOf = options.groupOf;
    if (groupOf !== undefined && typeof groupOf !== "function") {
      throw optionError(TypeError, ACTION, "options.groupOf", "a function", groupOf);
    }
    this.#groupOf = groupOf ?? originGroup;
    const now = options.now;
    if (now !== undefined && typeof now !== "function") {
      throw optionError(TypeError, ACTION, "options.now", "a function", now);
    }
    this.#now = now ?? Date.now;
  }

  /**
   * Claims `idempotencyKey` for `sender`: `new` the first time (or for the bound payload after
   * {@link WebhookDedup.release}), `processing` on a retry before {@link WebhookDedup.acknowledge},
   * `duplicate` after it, `conflict` when `fingerprint` differs from the key's binding (the first
   * fingerprint given for it, kept until the key expires), `full` when the sender, its group or
   * the memory has no room for a new key; a full memory still answers for the keys it holds.
   *
   * Spec: webhooks.mdx, "Dedup by `idempotency_key`" ("Same key plus a changed canonical payload
   * is not a duplicate. The receiver returns non-retryable 409 Conflict, preserves the first
   * binding, and does not dispatch the changed payload").
   *
   * @param sender The authenticated sender identity (1 to 2048 characters).
   * @param idempotencyKey The envelope's key (16 to 255 characters of `[A-Za-z0-9_.:-]`).
   * @param fingerprint Digest of the delivery's canonical payload (at most 256 characters). Pass
   * one on every claim: a claim without one is never a `conflict`, and a key claimed without one
   * is bound by the first claim that has one.
   * @returns The decision.
   * @throws {TypeError} When an argument is not a string of the allowed form (check the envelope
   * with `checkMcpWebhookEnvelope` first; a bad key is described by its length, never shown),
   * the clock returns anything but a finite number, or `options.groupOf` returns anything but a
   * string of 1 to 2048 characters.
   *
   * @example A key reused for another payload, released or not
   * ```ts
   * import { WebhookDedup } from "@adcp-wire/webhooks";
   * import { strictEqual } from "node:assert/strict";
   *
   * const dedup = new WebhookDedup();
   * const key = "whk_20260526_example_000031";
   * strictEqual(dedup.claim("seller", key, "sha256:aa").status, "new");
   * strictEqual(dedup.claim("seller", key, "sha256:bb").status, "conflict");
   * dedup.release("seller", key); // processing failed
   * strictEqual(dedup.claim("seller", key, "sha256:bb").status, "conflict"); // still bound
   * strictEqual(dedup.claim("seller", key, "sha256:aa").status, "new"); // the retry
   * ```
   */
  claim(sender: string, idempotencyKey: string, fingerprint?: string): WebhookDedupClaim {
    const action = "claim a webhook idempotency key";
    checkArguments(action, sender, idempotencyKey);
    if (
      fingerprint !== undefined &&
      (typeof fingerprint !== "string" || fingerprint.length > MAX_FINGERPRINT_LENGTH)
    ) {
      throw optionError(
        TypeError,
        action,
        "fingerprint",
        `a string of at most ${MAX_FINGERPRINT_LENGTH} characters`,
        fingerprint,
      );
    }
    const now = this.#tick(action);
    const known = this.#senders.get(sender);
    const seen = known?.keys.get(idempotencyKey);
    if (seen !== undefined) {
      if (fingerprint !== undefined) {
        if (seen.fingerprint === undefined) seen.fingerprint = fingerprint;
        else if (seen.fingerprint !== fingerprint) return { status: "conflict" };
      }
      if (seen.released) {
        // The key keeps its first expiry and binding: its retry horizon counts from the first
        // attempt.
        seen.released = false;
        return { status: "new" };
      }
      return seen.acknowledged ? { status: "duplicate" } : { status: "processing" };
    }
    if (known !== undefined && known.keys.size >= this.#maxKeys) {
      return { status: "full", retryAfterSeconds: this.#retryAfter(now, firstOf(known.keys)) };
    }
    const groupId = known?.group.id ?? this.#groupIdOf(sender, action);
    const group = known?.group ?? this.#groups.get(groupId);
    const held = group?.keys ?? 0;
    let reserved: boolean;
    if (held < this.#guaranteed && this.#reservedUsed < this.#reservedCap) reserved = true;
    else if (held - (group?.reserved ?? 0) >= this.#maxKeys) {
      // The group took all the shared keys it may: only its own expiries make room.
      return {
        status: "full",
        retryAfterSeconds: this.#retryAfter(now, group?.queue[group.head]),
      };
    } else if (this.#sharedUsed < this.#sharedCap) reserved = false;
    else {
      return { status: "full", retryAfterSeconds: this.#retryAfter(now, this.#queue[this.#head]) };
    }
    const owner = known ?? this.#addSender(sender, groupId, group);
    const entry: Entry = {
      sender: owner,
      key: idempotencyKey,
      expires: now + this.#ttlMs,
      reserved,
      fingerprint,
      released: false,
      acknowledged: false,
    };
    owner.keys.set(idempotencyKey, entry);
    owner.group.keys++;
    owner.group.queue.push(entry);
    if (reserved) {
      owner.group.reserved++;
      this.#reservedUsed++;
    } else this.#sharedUsed++;
    this.#queue.push(entry);
    return { status: "new" };
  }

  /**
   * Gives back a `new` claim whose delivery was not processed (the handler failed and the receiver
   * answers 5xx so the sender retries): the next claim of the key with the same payload is `new`
   * again instead of a `duplicate` acknowledged without processing. The key keeps its memory slot,
   * its first expiry and its payload binding: a claim with another fingerprint stays `conflict`.
   *
   * Spec: webhooks.mdx, "Reliability" (at-least-once delivery; a delivery is acknowledged with
   * 2xx only once processed) and "Dedup by `idempotency_key`" (the binding lasts the retry
   * window).
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
   * strictEqual(dedup.claim("seller", key, "sha256:aa").status, "new");
   * strictEqual(dedup.release("seller", key), true); // dispatch failed: answer 503
   * strictEqual(dedup.claim("seller", key, "sha256:aa").status, "new"); // the retry is processed
   * strictEqual(dedup.acknowledge("seller", key), true);
   * strictEqual(dedup.claim("seller", key, "sha256:aa").status, "duplicate");
   * ```
   */
  release(sender: string, idempotencyKey: string): boolean {
    const action = "release a webhook idempotency key";
    checkArguments(action, sender, idempotencyKey);
    this.#tick(action);
    const entry = this.#senders.get(sender)?.keys.get(idempotencyKey);
    if (entry === undefined || entry.released || entry.acknowledged) return false;
    entry.released = true;
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
    const entry = this.#senders.get(sender)?.keys.get(idempotencyKey);
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

  /**
   * The keys every sender group is guaranteed: `max(1, floor(maxTotalKeys / 2 / maxSenders))`.
   *
   * @returns The count.
   *
   * @example Usage
   * ```ts
   * import { WebhookDedup } from "@adcp-wire/webhooks";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new WebhookDedup().guaranteedKeysPerGroup, 100);
   * const small = new WebhookDedup({ maxTotalKeys: 1_000, maxSenders: 10 });
   * strictEqual(small.guaranteedKeysPerGroup, 50);
   * ```
   */
  get guaranteedKeysPerGroup(): number {
    return this.#guaranteed;
  }

  /** The group of a sender not yet remembered, checked. @throws {TypeError} */
  #groupIdOf(sender: string, action: string): string {
    const id = this.#groupOf(sender);
    if (typeof id !== "string" || id === "" || id.length > MAX_IDENTITY_LENGTH) {
      throw optionError(
        TypeError,
        action,
        "options.groupOf()",
        "a string of 1 to 2048 characters",
        id,
      );
    }
    return id;
  }

  /** Remembers a sender (and its group) as it is admitted its first key. */
  #addSender(sender: string, groupId: string, group: Group | undefined): Sender {
    let owner = group;
    if (owner === undefined) {
      owner = { id: groupId, keys: 0, reserved: 0, queue: [], head: 0 };
      this.#groups.set(groupId, owner);
    }
    const record: Sender = { id: sender, group: owner, keys: new Map() };
    this.#senders.set(sender, record);
    return record;
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
      const sender = entry.sender;
      const group = sender.group;
      sender.keys.delete(entry.key);
      if (sender.keys.size === 0) this.#senders.delete(sender.id);
      // The group's queue is in the same order: this entry is at its head.
      group.head++;
      group.keys--;
      if (entry.reserved) {
        group.reserved--;
        this.#reservedUsed--;
      } else this.#sharedUsed--;
      if (group.keys === 0) this.#groups.delete(group.id);
      else if (group.head >= COMPACT_AFTER && group.head * 2 >= group.queue.length) {
        group.queue = group.queue.slice(group.head);
        group.head = 0;
      }
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
