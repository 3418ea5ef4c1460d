// Verifier step 9: the revocation list of the signer's operator, behind a small interface, with
// an in-memory default that knows when it is stale.
import { checkOptionKeys, optionError, optionKeys } from "@adcp-wire/internal";

/** What step 9 learns about a keyid. */
export type RevocationStatus =
  /** Not revoked, and the list is fresh. */
  | "valid"
  /** In `revoked_kids`: every signature ever made with it is refused. */
  | "revoked"
  /** The list was not refreshed within `next_update + grace`: new signatures are refused. */
  | "stale";

/** Where a verifier learns whether a keyid is revoked (step 9). */
export interface RevocationSource {
  /**
   * The status of `keyid` at `now`.
   *
   * @param keyid The signature's `keyid`.
   * @param now Unix seconds.
   */
  status(keyid: string, now: number): RevocationStatus | Promise<RevocationStatus>;
}

/**
 * A revocation list as published (security.mdx, "Revocation" and "Transport revocation"); the
 * caller has already verified its JWS signature and `issuer`. Timestamps are RFC 3339 strings.
 */
export interface RevocationListSnapshot {
  /** Origin of the operator whose keys the list governs. */
  readonly issuer?: string;
  /** When the list was produced. */
  readonly updated: string;
  /** When the next list is due: the polling cadence (floor 1 min, ceiling 30 min). */
  readonly next_update: string;
  /** Revoked key ids. */
  readonly revoked_kids: readonly string[];
  /** Revoked token ids (governance; unused by request signatures). */
  readonly revoked_jtis?: readonly string[];
}

/** Shortest polling interval honoured: 60 s (the grace is at least 4 of them). */
export const REVOCATION_POLL_FLOOR_S = 60;
/** Longest polling interval honoured: 1,800 s (30 min). */
export const REVOCATION_POLL_CEILING_S = 1_800;
/** Grace after `next_update`, in polling intervals: 4. */
export const REVOCATION_GRACE_INTERVALS = 4;
/** Revoked kids held at most per list: 100,000. */
export const MAX_REVOKED_KIDS = 100_000;
/**
 * Clock skew allowed between the operator and this verifier: 60 s, the ±60 s tolerance of
 * security.mdx (signature windows, JWS `iat`/`nbf`) and managed-networks.mdx's recommended
 * tolerance for a `last_updated` regression. A list's `updated` may be at most this far after
 * its fetch, and its `next_update` at most this far after the 30-minute ceiling.
 */
export const REVOCATION_CLOCK_SKEW_S = 60;

// RFC 3339 `date-time`: seconds and an offset (`Z` or `±hh:mm`) required.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** Unix seconds of an RFC 3339 timestamp, NaN when it is not one (Feb 30 included). */
function rfc3339Seconds(text: string): number {
  const m = RFC3339.exec(text);
  if (m === null) return NaN;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  const inMonth = new Date(Date.UTC(year!, month! - 1, day!)).getUTCDate() === day;
  if (month! < 1 || month! > 12 || day! < 1 || !inMonth || hour! > 23 || minute! > 59) return NaN;
  if (second! > 60 || Number(m[7] ?? 0) > 23 || Number(m[8] ?? 0) > 59) return NaN;
  return Date.parse(text) / 1000;
}

function seconds(text: unknown, name: string): number {
  const ms = typeof text === "string" ? rfc3339Seconds(text) * 1000 : NaN;
  if (!Number.isFinite(ms)) {
    throw optionError(TypeError, "update the revocation list", name, "an RFC 3339 timestamp", text);
  }
  return ms / 1000;
}

/** Options of a {@link RevocationList}. */
export interface RevocationListOptions {
  /**
   * This verifier's clock, in milliseconds since the epoch: the time of a fetch when
   * {@link RevocationList.update} is given none, and the "now" a snapshot's timestamps are held
   * to.
   *
   * @default {Date.now}
   */
  readonly now?: () => number;
}

const ACTION = "update the revocation list";

/** The keys of {@link RevocationListOptions}. */
const REVOCATION_LIST_KEYS = optionKeys<RevocationListOptions>({ now: true });

/**
 * The default {@link RevocationSource}: the latest snapshot of one operator's list, in memory
 * (security.mdx, "Transport revocation" and "Revocation").
 *
 * - Until the first {@link RevocationList.update} every status is `stale` (nothing is known, so
 *   nothing new is accepted).
 * - The list is stale once `next_update + grace` passes (security.mdx: "verifiers that have not
 *   refreshed within `next_update + grace` MUST reject"), grace being 4 polling intervals, the
 *   interval `next_update − updated` clamped to 60–1,800 s. `next_update` counts at most 1,800 s
 *   after the fetch, timed on this verifier's clock: a list is stale at most 2.5 h after its
 *   fetch whatever it says, and its own dates only ever make it stale sooner (a copy already
 *   past its `next_update + grace` when fetched, an old list served again, is stale on arrival).
 * - A snapshot claiming the future is refused: `updated` more than 60 s after the fetch (a list
 *   dated in the future would make every later, honest list look older), or `next_update` more
 *   than 30 min + 60 s after it (the spec's ceiling; security.mdx: "MUST NOT declare
 *   `next_update` more than 30 minutes in the future").
 * - A snapshot older than the one held is refused (a stale copy must not un-revoke a key). The
 *   age held is the accepted `updated`, but never later than its fetch: a list dated up to 60 s
 *   ahead does not lock out the operator's next list, which its own clock dates earlier.
 *
 * A refused snapshot changes nothing: the list keeps its state and goes stale on schedule, so a
 * poller counts a throw of `update` as a failed refresh (and alerts on it).
 *
 * @example Revoked, valid, then stale
 * ```ts
 * import { RevocationList } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const fetchedAt = Date.parse("2026-04-18T14:00:05Z");
 * const list = new RevocationList({ now: () => fetchedAt });
 * list.update({
 *   updated: "2026-04-18T14:00:00Z",
 *   next_update: "2026-04-18T14:15:00Z",
 *   revoked_kids: ["old-key"],
 * });
 * const now = fetchedAt / 1000 + 60;
 * strictEqual(list.status("old-key", now), "revoked");
 * strictEqual(list.status("new-key", now), "valid");
 * strictEqual(list.status("new-key", now + 4 * 3600), "stale");
 * ```
 *
 * @example A list dated in the future is refused
 * ```ts
 * import { RevocationList } from "@adcp-wire/signing";
 * import { throws } from "node:assert/strict";
 *
 * const list = new RevocationList({ now: () => Date.parse("2026-04-18T14:00:00Z") });
 * throws(
 *   () =>
 *     list.update({
 *       updated: "9999-12-31T23:59:59Z",
 *       next_update: "9999-12-31T23:59:59Z",
 *       revoked_kids: [],
 *     }),
 *   RangeError,
 * );
 * ```
 */
export class RevocationList implements RevocationSource {
  readonly #now: () => number;
  #revoked: ReadonlySet<string> = new Set();
  #staleAt = -Infinity;
  #updated = -Infinity;

  /**
   * Makes an empty list: every status is `stale` until the first update.
   *
   * @param options The clock.
   * @throws {TypeError} When `options` is not an object, has another key than `now`, or `now` is
   * not a function.
   *
   * @example Usage
   * ```ts
   * import { RevocationList } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const list = new RevocationList({ now: () => 0 });
   * strictEqual(list.status("k", 0), "stale");
   * ```
   */
  constructor(options: RevocationListOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw optionError(TypeError, "create the revocation list", "options", "an object", options);
    }
    checkOptionKeys("create the revocation list", "options", options, REVOCATION_LIST_KEYS);
    const now: unknown = options.now ?? Date.now;
    if (typeof now !== "function") {
      throw optionError(TypeError, "create the revocation list", "now", "a function", now);
    }
    this.#now = now as () => number;
  }

  /**
   * Replaces the snapshot (security.mdx, "Transport revocation"). All times are Unix seconds on
   * this verifier's clock; the list's own timestamps only ever shorten its life.
   *
   * @param snapshot The verified list.
   * @param refreshedAt When it was fetched (default: now, by the `now` option): the list is stale
   * at most 2.5 h after it. At most 60 s after now; an earlier time makes the list stale sooner.
   * @throws {TypeError} When a member has the wrong type, or `refreshedAt` is not a number.
   * @throws {RangeError} When `revoked_kids` holds more than 100,000 entries; when `updated` is
   * more than 60 s after the fetch, or `next_update` more than 1,860 s after it; when `updated`
   * is older than the list held; or when `refreshedAt` is not finite or more than 60 s after
   * now.
   *
   * @example Usage
   * ```ts
   * import { RevocationList } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const list = new RevocationList({ now: () => 0 });
   * strictEqual(list.status("k", 0), "stale");
   * list.update({
   *   updated: "1970-01-01T00:00:00Z",
   *   next_update: "1970-01-01T00:15:00Z",
   *   revoked_kids: [],
   * });
   * strictEqual(list.status("k", 0), "valid");
   * strictEqual(list.status("k", 15 * 60 + 4 * 15 * 60 + 1), "stale");
   * ```
   */
  update(snapshot: RevocationListSnapshot, refreshedAt?: number): void {
    if (typeof snapshot !== "object" || snapshot === null) {
      throw optionError(TypeError, ACTION, "snapshot", "an object", snapshot);
    }
    const updated = seconds(snapshot.updated, "updated");
    const next = seconds(snapshot.next_update, "next_update");
    const kids = snapshot.revoked_kids;
    if (!Array.isArray(kids) || !kids.every((k) => typeof k === "string")) {
      throw optionError(TypeError, ACTION, "revoked_kids", "an array of strings", kids);
    }
    if (kids.length > MAX_REVOKED_KIDS) {
      throw optionError(
        RangeError,
        ACTION,
        "revoked_kids",
        `at most ${MAX_REVOKED_KIDS} entries`,
        kids.length,
      );
    }
    // The fetch time is this verifier's: the clock, or the caller's record of the fetch, which
    // cannot be later than now.
    const clock: unknown = this.#now();
    // Checked on every reading: a NaN clock would make every fetch time, and so every list, fresh.
    if (typeof clock !== "number" || !Number.isFinite(clock)) {
      throw optionError(TypeError, ACTION, "now()", "a finite number of milliseconds", clock);
    }
    const now = clock / 1000;
    if (refreshedAt !== undefined && typeof refreshedAt !== "number") {
      throw optionError(TypeError, ACTION, "refreshedAt", "Unix seconds", refreshedAt);
    }
    if (
      refreshedAt !== undefined &&
      !(Number.isFinite(refreshedAt) && refreshedAt <= now + REVOCATION_CLOCK_SKEW_S)
    ) {
      throw optionError(
        RangeError,
        ACTION,
        "refreshedAt",
        `finite Unix seconds no later than now + ${REVOCATION_CLOCK_SKEW_S} s`,
        refreshedAt,
      );
    }
    const fetchedAt = refreshedAt ?? now;
    // A list cannot have been made after it was fetched (beyond the skew): one dated in the
    // future would refuse every honest list after it as older, and so freeze revocation.
    if (updated > fetchedAt + REVOCATION_CLOCK_SKEW_S) {
      throw optionError(
        RangeError,
        ACTION,
        "updated",
        `no later than the fetch + ${REVOCATION_CLOCK_SKEW_S} s of clock skew`,
        snapshot.updated,
      );
    }
    const latestNext = fetchedAt + REVOCATION_POLL_CEILING_S + REVOCATION_CLOCK_SKEW_S;
    if (next > latestNext) {
      throw optionError(
        RangeError,
        ACTION,
        "next_update",
        `no later than the fetch + ${REVOCATION_POLL_CEILING_S} s (the polling ceiling) + ` +
          `${REVOCATION_CLOCK_SKEW_S} s of clock skew`,
        snapshot.next_update,
      );
    }
    if (updated < this.#updated) {
      throw optionError(
        RangeError,
        ACTION,
        "updated",
        "no older than the list held (a stale copy must not un-revoke a key)",
        snapshot.updated,
      );
    }
    const interval = Math.min(
      REVOCATION_POLL_CEILING_S,
      Math.max(REVOCATION_POLL_FLOOR_S, next - updated),
    );
    // The list is due at its `next_update`, and no later than the ceiling after the fetch: its
    // own dates can only shorten its life. A copy already past `next_update + grace` when fetched
    // (an old list served again) is stale on arrival.
    const due = Math.min(fetchedAt + REVOCATION_POLL_CEILING_S, next);
    this.#revoked = new Set(kids);
    // The age held is never later than the fetch: a list dated within the skew ahead cannot make
    // the operator's next list, dated by a clock a little behind, look older.
    this.#updated = Math.max(this.#updated, Math.min(updated, fetchedAt));
    this.#staleAt = due + REVOCATION_GRACE_INTERVALS * interval;
  }

  /**
   * Step 9 for `keyid`.
   *
   * @param keyid The signature's `keyid`.
   * @param now Unix seconds; a value that is not a finite number is `stale` (fails closed).
   * @returns `revoked` for a listed key (even on a stale list), else `stale` or `valid`.
   *
   * @example Usage
   * ```ts
   * import { RevocationList } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new RevocationList().status("k", 0), "stale");
   * ```
   */
  status(keyid: string, now: number): RevocationStatus {
    if (this.#revoked.has(keyid)) return "revoked";
    // `NaN > staleAt` is false: a clock that is not a number must not read as fresh.
    if (typeof now !== "number" || !Number.isFinite(now)) return "stale";
    return now > this.#staleAt ? "stale" : "valid";
  }
}
