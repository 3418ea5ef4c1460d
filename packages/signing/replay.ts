// The (keyid, nonce) replay cache of verifier steps 9a, 12 and 13, behind a small interface, with
// a bounded in-memory default.
import { optionError } from "@adcp-wire/internal";

/** What {@link ReplayStore.insert} did. */
export type ReplayInsertResult =
  /** The pair was new and is now held until its expiry. */
  | "inserted"
  /** The pair is already held: a replay (step 12, re-checked atomically). */
  | "replayed"
  /** The keyid's cap, or the store's total cap, is reached: nothing was inserted (step 13). */
  | "capped";

/**
 * The replay cache a verifier reads and writes, keyed on `(keyid, nonce)` only (never a bearer
 * token or an IP: security.mdx, "Transport replay dedup"). Times are Unix seconds. A distributed
 * store makes {@link ReplayStore.insert} atomic with its cap check (a Redis script, `SET NX`);
 * {@link ReplayStore.capped} is then only the cheap pre-crypto guard of step 9a.
 */
export interface ReplayStore {
  /**
   * Step 9a: whether new signatures of `keyid` must be refused because its entries, or the
   * store's, reached their cap.
   *
   * @param keyid The signature's `keyid`.
   * @param now Unix seconds.
   */
  capped(keyid: string, now: number): boolean | Promise<boolean>;
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
   */
  insert(
    keyid: string,
    nonce: string,
    expiresAt: number,
    now: number,
  ): ReplayInsertResult | Promise<ReplayInsertResult>;
}

/** How an {@link InMemoryReplayStore} is bounded. */
export interface InMemoryReplayStoreOptions {
  /**
   * Entries held per `keyid` at most; at the cap new signatures of that key are refused
   * (`*_rate_abuse`), never evicted. Default 250,000 (the request-side ceiling the spec
   * recommends is 1,000,000; a quarter of the total keeps other keys served); the webhook
   * verifier's default store uses 100,000 (security.mdx, "Webhook replay dedup sizing").
   */
  readonly maxEntriesPerKeyid?: number;
  /**
   * Entries held in all at most; when full, every new signature is refused (`*_rate_abuse`).
   * Default 1,000,000, roughly 150 MB of memory: raise it deliberately (the spec's ceiling for the
   * aggregate is `min(memory budget, 10,000,000)`).
   */
  readonly maxEntries?: number;
}

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

/**
 * The default replay cache: in memory, one process, bounded per keyid and in total, expired
 * entries dropped as it goes. Full means refusing (`*_rate_abuse`), never silent eviction, which
 * would open replay windows exactly under attack. A verifier fleet needs a shared store behind the
 * {@link ReplayStore} interface instead (security.mdx, "Cross-endpoint scoping").
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
 */
export class InMemoryReplayStore implements ReplayStore {
  readonly #perKeyid: number;
  readonly #total: number;
  readonly #keys = new Map<string, Map<string, number>>();
  readonly #lastSweep = new Map<string, number>();
  readonly #admissions: number[] = [];
  /** Keyids ever admitted (bounded by `maxEntries`, oldest forgotten first). */
  readonly #known = new Map<string, true>();
  #lastTotalSweep = -Infinity;
  #size = 0;

  /**
   * Makes an empty store.
   *
   * @param options The caps.
   * @throws {TypeError} When a cap is not a number.
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

  /** Drops the expired entries of one key: at most once a second, so a full key costs O(1). */
  #sweep(
    keyid: string,
    entries: Map<string, number>,
    now: number,
    force: boolean,
  ): void {
    const last = this.#lastSweep.get(keyid);
    if (!force && last !== undefined && now - last < 1) return;
    this.#lastSweep.set(keyid, now);
    for (const [nonce, expiresAt] of entries) {
      if (expiresAt < now) {
        entries.delete(nonce);
        this.#size--;
      }
    }
    if (entries.size === 0) {
      this.#keys.delete(keyid);
      this.#lastSweep.delete(keyid);
    }
  }

  /**
   * Step 9a: whether `keyid`, or the whole store, is at its cap (expired entries dropped first).
   *
   * @param keyid The signature's `keyid`.
   * @param now Unix seconds.
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
  capped(keyid: string, now: number): boolean {
    const entries = this.#keys.get(keyid);
    if (entries !== undefined && entries.size >= this.#perKeyid) {
      this.#sweep(keyid, entries, now, false);
      if (entries.size >= this.#perKeyid) return true;
    }
    if (this.#size >= this.#total) {
      if (now - this.#lastTotalSweep >= 1) {
        this.#lastTotalSweep = now;
        for (const [key, held] of [...this.#keys]) {
          this.#sweep(key, held, now, true);
        }
      }
      return this.#size >= this.#total;
    }
    return false;
  }

  /**
   * Step 12: whether `(keyid, nonce)` is held: an entry is held through its `expiresAt`
   * inclusive, so that it outlives the window of step 5 (which accepts `expires` up to
   * `now − 60`, the entry being held until `expires + 60`).
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
    const expiresAt = this.#keys.get(keyid)?.get(nonce);
    return expiresAt !== undefined && expiresAt >= now;
  }

  /**
   * Step 13: holds `(keyid, nonce)` until `expiresAt`, unless it is held already or a cap is
   * reached.
   *
   * @param keyid The signature's `keyid`.
   * @param nonce The signature's `nonce`.
   * @param expiresAt Unix seconds.
   * @param now Unix seconds.
   * @returns What happened.
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
  ): ReplayInsertResult {
    if (this.seen(keyid, nonce, now)) return "replayed";
    if (this.capped(keyid, now)) return "capped";
    let entries = this.#keys.get(keyid);
    if (entries === undefined) {
      entries = new Map();
      this.#keys.set(keyid, entries);
      if (!this.#known.has(keyid)) this.#admit(now);
      this.#known.delete(keyid);
      this.#known.set(keyid, true);
      if (this.#known.size > this.#total) {
        this.#known.delete(this.#known.keys().next().value as string);
      }
    }
    const previous = entries.get(nonce);
    if (previous !== undefined) {
      entries.delete(nonce); // expired: replaced
      this.#size--;
    }
    entries.set(nonce, expiresAt);
    this.#size++;
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
      entries: this.#size,
      keyids: this.#keys.size,
      newKeyidsLast5Minutes: this.#admissions.length,
    };
  }
}
