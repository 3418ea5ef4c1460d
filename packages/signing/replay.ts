// The (keyid, nonce) replay cache of verifier steps 9a, 12 and 13, behind a small interface, with
// a bounded in-memory default.
import { checkOptionKeys, optionError, optionKeys } from "@adcp-wire/internal";

/** What {@link ReplayStore.insert} did. */
export type ReplayInsertResult =
  /** The pair was new and is now held until its expiry. */
  | "inserted"
  /** The pair is already held: a replay (step 12, re-checked atomically). */
  | "replayed"
  /** A cap (the keyid's, the signer's, or the store's) is reached: nothing was inserted. */
  | "capped";

/**
 * The replay cache a verifier reads and writes, keyed on `(keyid, nonce)` only (never a bearer
 * token or an IP: security.mdx, "Transport replay dedup"). Times are Unix seconds. A distributed
 * store makes {@link ReplayStore.insert} atomic with its cap check (a Redis script, `SET NX`);
 * {@link ReplayStore.capped} is then only the cheap pre-crypto guard of step 9a.
 *
 * The verifiers also pass `signer`, the verified signer identity (`VerifiedSigner.senderId`: the
 * agent URL the key was resolved for). It is not part of the replay key; it scopes the caps, so
 * that the per-keyid cap counts a keyid as resolved for its signer (another seller publishing the
 * same `kid` cannot exhaust it) and one signer's many keyids share one budget ("operators SHOULD
 * budget per-seller": security.mdx, "Webhook replay dedup sizing").
 */
export interface ReplayStore {
  /**
   * Step 9a: whether new signatures of `keyid` must be refused because its entries, its
   * signer's, or the store's, reached their cap.
   *
   * @param keyid The signature's `keyid`.
   * @param now Unix seconds.
   * @param signer The verified signer identity the keyid was resolved for.
   */
  capped(keyid: string, now: number, signer?: string): boolean | Promise<boolean>;
  /**
   * Step 12: whether `(keyid, nonce)` is held and not expired.
   *
   * @param keyid The signature's `keyid`.
   * @param nonce The signature's `nonce`.
   * @param now Unix seconds.
   */
  seen(keyid: string, nonce: string, now: number): boolean | Promise<boolean>;
  /**
   * Step 13: holds `(keyid, nonce)` until `expiresAt`, atomically with the replay and cap checks.
   *
   * @param keyid The signature's `keyid`.
   * @param nonce The signature's `nonce`.
   * @param expiresAt Unix seconds: `expires + 60` (TTL `(expires − now) + 60 s`).
   * @param now Unix seconds.
   * @param signer The verified signer identity the keyid was resolved for.
   */
  insert(
    keyid: string,
    nonce: string,
    expiresAt: number,
    now: number,
    signer?: string,
  ): ReplayInsertResult | Promise<ReplayInsertResult>;
}

/** How an {@link InMemoryReplayStore} is bounded. */
export interface InMemoryReplayStoreOptions {
  /**
   * Entries held per `keyid` of one signer at most (entries inserted without a `signer` count for
   * every signer of the keyid, and a call without a `signer` counts every entry of the keyid); at
   * the cap new signatures of that key are refused (`*_rate_abuse`), never evicted. Default
   * 250,000 (the request-side ceiling the spec recommends is 1,000,000; a quarter of the total
   * keeps other keys served); the webhook verifier's default store uses 100,000 (security.mdx,
   * "Webhook replay dedup sizing").
   */
  readonly maxEntriesPerKeyid?: number;
  /**
   * Entries held per signer at most, across all its keyids: a seller publishing 1,000 keyids
   * gets a quarter of the store, not all of it. Default: the larger of `maxEntriesPerKeyid` and
   * a quarter of `maxEntries` (250,000 at the defaults). Keep it under `maxEntries` so that no
   * one signer can fill the store. Entries inserted without a `signer` count towards no
   * signer's budget.
   */
  readonly maxEntriesPerSigner?: number;
  /**
   * Entries held in all at most; when full, every new signature is refused (`*_rate_abuse`, the
   * spec's aggregate cap: it takes several signers at their cap). Default 1,000,000, roughly
   * 150 MB of memory: raise it deliberately (the spec's ceiling for the aggregate is
   * `min(memory budget, 10,000,000)`).
   */
  readonly maxEntries?: number;
}

/** The keys of {@link InMemoryReplayStoreOptions}. */
const IN_MEMORY_REPLAY_STORE_KEYS = optionKeys<InMemoryReplayStoreOptions>({
  maxEntriesPerKeyid: true,
  maxEntriesPerSigner: true,
  maxEntries: true,
});

/**
 * Default per-keyid cap of request verification: 250,000 entries, a quarter of the default total,
 * so that one abusive key cannot lock every other key out (the spec recommends at most
 * 1,000,000; raise both caps together).
 */
export const DEFAULT_REQUEST_REPLAY_CAP_PER_KEYID = 250_000;
/** Default per-keyid cap of webhook verification: 100,000 entries. */
export const DEFAULT_WEBHOOK_REPLAY_CAP_PER_KEYID = 100_000;
/** Default total cap of an {@link InMemoryReplayStore}: 1,000,000 entries. */
export const DEFAULT_REPLAY_MAX_ENTRIES = 1_000_000;

/** Seconds over which {@link InMemoryReplayStore.stats} counts newly admitted keyids. */
const ADMISSION_WINDOW_S = 300;

function capOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw optionError(
      typeof value === "number" ? RangeError : TypeError,
      "create the replay store",
      name,
      "a positive safe integer",
      value,
    );
  }
  return value;
}

/** The entries one signer holds. */
interface Signer {
  readonly id: string;
  count: number;
  /** Entries per keyid. */
  readonly keyids: Map<string, number>;
}

/** One held `(keyid, nonce)`. */
interface Entry {
  readonly keyid: string;
  readonly nonce: string;
  readonly expiresAt: number;
  /** Who inserted it; `undefined` for an insert without a signer. */
  readonly signer: Signer | undefined;
}

/**
 * The default replay cache: in memory, one process, bounded per keyid of a signer, per signer
 * and in total, expired entries dropped exactly as time passes (a min-heap on expiry: O(log n) a
 * call). Full means refusing (`*_rate_abuse`), never silent eviction, which would open replay
 * windows exactly under attack. A verifier fleet needs a shared store behind the
 * {@link ReplayStore} interface instead (security.mdx, "Cross-endpoint scoping").
 *
 * Spec: security.mdx, "Transport replay dedup" (the per-keyid cap; refuse, never evict) and
 * "Webhook replay dedup sizing" (the aggregate cap; "operators SHOULD budget per-seller").
 *
 * @example A replay is refused; a full key is capped
 * ```ts
 * import { InMemoryReplayStore } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 1 });
 * strictEqual(store.insert("k1", "nonce-a", 1_060, 1_000), "inserted");
 * strictEqual(store.seen("k1", "nonce-a", 1_000), true);
 * strictEqual(store.insert("k1", "nonce-a", 1_060, 1_000), "replayed");
 * strictEqual(store.capped("k1", 1_000), true);
 * strictEqual(store.capped("k1", 1_061), false); // the entry expired
 * ```
 *
 * @example One seller's many keyids share its budget; another seller's same kid is its own
 * ```ts
 * import { InMemoryReplayStore } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 2, maxEntriesPerSigner: 2 });
 * const hostile = "https://hostile.example/mcp";
 * strictEqual(store.insert("k1", "n1", 1_060, 1_000, hostile), "inserted");
 * strictEqual(store.insert("k2", "n2", 1_060, 1_000, hostile), "inserted");
 * strictEqual(store.insert("k3", "n3", 1_060, 1_000, hostile), "capped"); // its budget: 2
 * strictEqual(store.capped("k1", 1_000, "https://honest.example/mcp"), false);
 * ```
 */
export class InMemoryReplayStore implements ReplayStore {
  readonly #perKeyid: number;
  readonly #perSigner: number;
  readonly #total: number;
  /** keyid → nonce → entry. */
  readonly #pairs = new Map<string, Map<string, Entry>>();
  readonly #signers = new Map<string, Signer>();
  /** keyid → entries inserted without a signer. */
  readonly #unattributed = new Map<string, number>();
  /** Every entry, a min-heap on `expiresAt`. */
  readonly #heap: Entry[] = [];
  readonly #admissions: number[] = [];
  /** Keyids ever admitted (bounded by `maxEntries`, oldest forgotten first). */
  readonly #known = new Map<string, true>();

  /**
   * Makes an empty store.
   *
   * @param options The caps.
   * @throws {TypeError} When a cap is not a number, or `options` has another key.
   * @throws {RangeError} When a cap is not a positive safe integer.
   *
   * @example Usage
   * ```ts
   * import { InMemoryReplayStore } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new InMemoryReplayStore().stats(0).entries, 0);
   * ```
   */
  constructor(options: InMemoryReplayStoreOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw optionError(
        TypeError,
        "create the replay store",
        "options",
        "an object",
        options,
      );
    }
    checkOptionKeys("create the replay store", "options", options, IN_MEMORY_REPLAY_STORE_KEYS);
    this.#perKeyid = capOption(
      options.maxEntriesPerKeyid,
      "maxEntriesPerKeyid",
      DEFAULT_REQUEST_REPLAY_CAP_PER_KEYID,
    );
    this.#total = capOption(
      options.maxEntries,
      "maxEntries",
      DEFAULT_REPLAY_MAX_ENTRIES,
    );
    this.#perSigner = capOption(
      options.maxEntriesPerSigner,
      "maxEntriesPerSigner",
      Math.max(this.#perKeyid, Math.floor(this.#total / 4)),
    );
  }

  /** Records a first insert of a keyid (bounded: one timestamp per key held at most). */
  #admit(now: number): void {
    this.#expireAdmissions(now);
    if (this.#admissions.length >= this.#total) {
      this.#admissions.splice(0, this.#admissions.length >> 1);
    }
    this.#admissions.push(now);
  }

  #expireAdmissions(now: number): void {
    let drop = 0;
    while (
      drop < this.#admissions.length &&
      (this.#admissions[drop] as number) <= now - ADMISSION_WINDOW_S
    ) drop++;
    if (drop > 0) this.#admissions.splice(0, drop);
  }

  /** Drops every entry whose `expiresAt` is before `now` (held through it, inclusive). */
  #expire(now: number): void {
    const heap = this.#heap;
    while (heap.length > 0 && heap[0]!.expiresAt < now) {
      const entry = heap[0]!;
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        siftDown(heap, 0);
      }
      const nonces = this.#pairs.get(entry.keyid)!;
      nonces.delete(entry.nonce);
      if (nonces.size === 0) this.#pairs.delete(entry.keyid);
      const signer = entry.signer;
      if (signer === undefined) decrement(this.#unattributed, entry.keyid);
      else {
        signer.count--;
        decrement(signer.keyids, entry.keyid);
        if (signer.count === 0) this.#signers.delete(signer.id);
      }
    }
  }

  /**
   * Step 9a: whether `keyid` of `signer`, `signer`, or the whole store is at its cap (expired
   * entries dropped first).
   *
   * @param keyid The signature's `keyid`.
   * @param now Unix seconds.
   * @param signer The verified signer identity; without it, every entry of the keyid counts.
   * @returns `true` when a new signature of `keyid` must be refused.
   *
   * @example Usage
   * ```ts
   * import { InMemoryReplayStore } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new InMemoryReplayStore().capped("k1", 0), false);
   * ```
   */
  capped(keyid: string, now: number, signer?: string): boolean {
    this.#expire(now);
    if (signer === undefined) {
      // Not attributed: the keyid is counted whoever inserted its entries.
      if ((this.#pairs.get(keyid)?.size ?? 0) >= this.#perKeyid) return true;
    } else {
      const held = this.#signers.get(signer);
      const unattributed = this.#unattributed.get(keyid) ?? 0;
      if ((held?.keyids.get(keyid) ?? 0) + unattributed >= this.#perKeyid) return true;
      if (held !== undefined && held.count >= this.#perSigner) return true;
    }
    return this.#heap.length >= this.#total;
  }

  /**
   * Step 12: whether `(keyid, nonce)` is held: an entry is held through its `expiresAt`
   * inclusive, so that it outlives the window of step 5 (which accepts `expires` up to
   * `now − 60`, the entry being held until `expires + 60`). Whichever signer inserted it.
   *
   * @param keyid The signature's `keyid`.
   * @param nonce The signature's `nonce`.
   * @param now Unix seconds.
   * @returns `true` for a replay.
   *
   * @example Usage
   * ```ts
   * import { InMemoryReplayStore } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const store = new InMemoryReplayStore();
   * store.insert("k1", "n", 100, 0);
   * strictEqual(store.seen("k1", "n", 100), true); // held through its expiry second
   * strictEqual(store.seen("k1", "n", 101), false);
   * ```
   */
  seen(keyid: string, nonce: string, now: number): boolean {
    const entry = this.#pairs.get(keyid)?.get(nonce);
    return entry !== undefined && entry.expiresAt >= now;
  }

  /**
   * Step 13: holds `(keyid, nonce)` until `expiresAt`, unless it is held already or a cap is
   * reached.
   *
   * @param keyid The signature's `keyid`.
   * @param nonce The signature's `nonce`.
   * @param expiresAt Unix seconds.
   * @param now Unix seconds.
   * @param signer The verified signer identity; without it, every entry of the keyid counts and
   * the entry is no signer's.
   * @returns What happened.
   * @throws {TypeError} When `expiresAt` or `now` is not a finite number.
   *
   * @example Usage
   * ```ts
   * import { InMemoryReplayStore } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const store = new InMemoryReplayStore({ maxEntries: 1 });
   * strictEqual(store.insert("k1", "a", 100, 0), "inserted");
   * strictEqual(store.insert("k2", "b", 100, 0), "capped");
   * ```
   */
  insert(
    keyid: string,
    nonce: string,
    expiresAt: number,
    now: number,
    signer?: string,
  ): ReplayInsertResult {
    if (!Number.isFinite(expiresAt) || !Number.isFinite(now)) {
      // A NaN expiry would never leave the heap: refuse it as the programmer error it is.
      throw optionError(
        TypeError,
        "insert into the replay store",
        Number.isFinite(now) ? "expiresAt" : "now",
        "a finite number of Unix seconds",
        Number.isFinite(now) ? expiresAt : now,
      );
    }
    if (this.seen(keyid, nonce, now)) return "replayed";
    if (this.capped(keyid, now, signer)) return "capped";
    let owner: Signer | undefined;
    if (signer !== undefined) {
      owner = this.#signers.get(signer);
      if (owner === undefined) {
        owner = { id: signer, count: 0, keyids: new Map() };
        this.#signers.set(signer, owner);
      }
    }
    let nonces = this.#pairs.get(keyid);
    if (nonces === undefined) {
      nonces = new Map();
      this.#pairs.set(keyid, nonces);
      if (!this.#known.has(keyid)) this.#admit(now);
      this.#known.delete(keyid);
      this.#known.set(keyid, true);
      if (this.#known.size > this.#total) {
        this.#known.delete(this.#known.keys().next().value as string);
      }
    }
    const entry: Entry = { keyid, nonce, expiresAt, signer: owner };
    nonces.set(nonce, entry);
    if (owner === undefined) increment(this.#unattributed, keyid);
    else {
      owner.count++;
      increment(owner.keyids, keyid);
    }
    this.#heap.push(entry);
    siftUp(this.#heap, this.#heap.length - 1);
    return "inserted";
  }

  /**
   * Counts for monitoring: entries held, keyids held, and keyids admitted for the first time in
   * the last 5 minutes (the new-keyid admission pressure a webhook verifier MUST track; alert on
   * it with thresholds of your own: security.mdx, "Webhook replay dedup sizing").
   *
   * @param now Unix seconds.
   * @returns The counts.
   *
   * @example Usage
   * ```ts
   * import { InMemoryReplayStore } from "@adcp-wire/signing";
   * import { deepStrictEqual } from "node:assert/strict";
   *
   * const store = new InMemoryReplayStore();
   * store.insert("k1", "a", 1_000, 0);
   * store.insert("k2", "a", 1_000, 10);
   * deepStrictEqual(store.stats(20), { entries: 2, keyids: 2, newKeyidsLast5Minutes: 2 });
   * ```
   */
  stats(
    now: number,
  ): { entries: number; keyids: number; newKeyidsLast5Minutes: number } {
    this.#expireAdmissions(now);
    return {
      entries: this.#heap.length,
      keyids: this.#pairs.size,
      newKeyidsLast5Minutes: this.#admissions.length,
    };
  }
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = counts.get(key)! - 1;
  if (left === 0) counts.delete(key);
  else counts.set(key, left);
}

function siftUp(heap: Entry[], index: number): void {
  const entry = heap[index]!;
  while (index > 0) {
    const parent = (index - 1) >> 1;
    if (heap[parent]!.expiresAt <= entry.expiresAt) break;
    heap[index] = heap[parent]!;
    index = parent;
  }
  heap[index] = entry;
}

function siftDown(heap: Entry[], index: number): void {
  const entry = heap[index]!;
  const length = heap.length;
  for (;;) {
    let child = 2 * index + 1;
    if (child >= length) break;
    if (child + 1 < length && heap[child + 1]!.expiresAt < heap[child]!.expiresAt) child++;
    if (heap[child]!.expiresAt >= entry.expiresAt) break;
    heap[index] = heap[child]!;
    index = child;
  }
  heap[index] = entry;
}
