// Verifier step 9: the revocation list of the signer's operator, behind a small interface, with
// an in-memory default that knows when it is stale.
import { optionError } from "@adcp-wire/internal";

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

/** Shortest polling interval honoured: 60 s. */
export const REVOCATION_POLL_FLOOR_S = 60;
/** Longest polling interval honoured: 1,800 s (30 min). */
export const REVOCATION_POLL_CEILING_S = 1_800;
/** Grace after `next_update`, in polling intervals: 4. */
export const REVOCATION_GRACE_INTERVALS = 4;
/** Revoked kids held at most per list: 100,000. */
export const MAX_REVOKED_KIDS = 100_000;

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

/**
 * The default {@link RevocationSource}: the latest snapshot of one operator's list, in memory.
 * Until the first {@link RevocationList.update} every status is `stale` (nothing is known, so
 * nothing new is accepted). The list is stale once `now` passes its due time plus grace: due is
 * `next_update`, held between 60 s and 1,800 s after the fetch (a list announcing a far
 * `next_update` is still due within 30 minutes); grace is 4 polling intervals, the interval being
 * `next_update − updated` clamped to 60–1,800 s. A snapshot older than the one held is refused.
 *
 * @example Revoked, valid, then stale
 * ```ts
 * import { RevocationList } from "@adcp-wire/signing";
 * import { strictEqual } from "node:assert/strict";
 *
 * const list = new RevocationList();
 * list.update({
 *   updated: "2026-04-18T14:00:00Z",
 *   next_update: "2026-04-18T14:15:00Z",
 *   revoked_kids: ["old-key"],
 * });
 * const now = Date.parse("2026-04-18T14:01:00Z") / 1000;
 * strictEqual(list.status("old-key", now), "revoked");
 * strictEqual(list.status("new-key", now), "valid");
 * strictEqual(list.status("new-key", now + 4 * 3600), "stale");
 * ```
 */
export class RevocationList implements RevocationSource {
  #revoked: ReadonlySet<string> = new Set();
  #staleAt = -Infinity;
  #updated = -Infinity;

  /**
   * Replaces the snapshot.
   *
   * @param snapshot The verified list.
   * @param refreshedAt Unix seconds of the fetch (default: `updated`): the due time is
   * `next_update` held between 60 and 1,800 s after it.
   * @throws {TypeError} When a member has the wrong type.
   * @throws {RangeError} When `revoked_kids` holds more than 100,000 entries, or the snapshot's
   * `updated` is older than the one held.
   *
   * @example Usage
   * ```ts
   * import { RevocationList } from "@adcp-wire/signing";
   * import { strictEqual } from "node:assert/strict";
   *
   * const list = new RevocationList();
   * strictEqual(list.status("k", 0), "stale");
   * list.update({
   *   updated: "1970-01-01T00:00:00Z",
   *   next_update: "1970-01-01T00:15:00Z",
   *   revoked_kids: [],
   * }, 0);
   * strictEqual(list.status("k", 0), "valid");
   * ```
   */
  update(snapshot: RevocationListSnapshot, refreshedAt?: number): void {
    if (typeof snapshot !== "object" || snapshot === null) {
      throw optionError(TypeError, "update the revocation list", "snapshot", "an object", snapshot);
    }
    const updated = seconds(snapshot.updated, "updated");
    const next = seconds(snapshot.next_update, "next_update");
    const kids = snapshot.revoked_kids;
    if (!Array.isArray(kids) || !kids.every((k) => typeof k === "string")) {
      throw optionError(
        TypeError,
        "update the revocation list",
        "revoked_kids",
        "an array of strings",
        kids,
      );
    }
    if (kids.length > MAX_REVOKED_KIDS) {
      throw optionError(
        RangeError,
        "update the revocation list",
        "revoked_kids",
        `at most ${MAX_REVOKED_KIDS} entries`,
        kids.length,
      );
    }
    const interval = Math.min(
      REVOCATION_POLL_CEILING_S,
      Math.max(REVOCATION_POLL_FLOOR_S, next - updated),
    );
    if (updated < this.#updated) {
      throw optionError(
        RangeError,
        "update the revocation list",
        "updated",
        "no older than the list held (a stale copy must not un-revoke a key)",
        snapshot.updated,
      );
    }
    // The next poll is due at `next_update`, held within the floor and ceiling of the fetch time:
    // a list announcing a far `next_update` is still due within 30 minutes.
    const base = refreshedAt ?? updated;
    const due = Math.min(
      base + REVOCATION_POLL_CEILING_S,
      Math.max(base + REVOCATION_POLL_FLOOR_S, next),
    );
    this.#revoked = new Set(kids);
    this.#updated = updated;
    this.#staleAt = due + REVOCATION_GRACE_INTERVALS * interval;
  }

  /**
   * Step 9 for `keyid`.
   *
   * @param keyid The signature's `keyid`.
   * @param now Unix seconds.
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
    return now > this.#staleAt ? "stale" : "valid";
  }
}
