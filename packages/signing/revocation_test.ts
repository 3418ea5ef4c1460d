// Tests of the revocation list of verifier step 9: revoked kids, the staleness math (polling
// interval = next_update - updated clamped to 60..1800 s, grace = 4 intervals, a late fetch fresh
// for one interval, all from the fetch on the verifier's clock), snapshots claiming the future,
// fail-closed before the first update, and the option errors.
import { ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  MAX_REVOKED_KIDS,
  REVOCATION_CLOCK_SKEW_S,
  REVOCATION_GRACE_INTERVALS,
  REVOCATION_POLL_CEILING_S,
  REVOCATION_POLL_FLOOR_S,
  RevocationList,
  type RevocationListSnapshot,
} from "./revocation.ts";

/** Unix seconds of 2026-04-18T14:00:00Z. */
const T = 1_776_520_800;

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** A list whose clock reads `seconds` (Unix seconds): the fetch time of its updates. */
function listAt(seconds: number): RevocationList {
  return new RevocationList({ now: () => seconds * 1000 });
}

/** A list on a clock the test moves: `clock.now` is Unix seconds. */
function movingList(start: number): { list: RevocationList; clock: { now: number } } {
  const clock = { now: start };
  return { list: new RevocationList({ now: () => clock.now * 1000 }), clock };
}

function snapshot(
  updated: number,
  next: number,
  revoked: readonly string[] = [],
): RevocationListSnapshot {
  return { updated: iso(updated), next_update: iso(next), revoked_kids: revoked };
}

/** The last second at which `list` is still fresh for a kid that is not revoked. */
function lastFresh(list: RevocationList, from: number): number {
  // Binary search over whole seconds: valid up to the deadline, stale after.
  let lo = from;
  let hi = from + 100_000;
  strictEqual(list.status("x", lo), "valid");
  strictEqual(list.status("x", hi), "stale");
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (list.status("x", mid) === "valid") lo = mid;
    else hi = mid;
  }
  return lo;
}

function throwsOption(fn: () => unknown, kind: ErrorConstructor, message: string): void {
  throws(fn, (error: unknown) => {
    ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
    strictEqual((error as Error).message, message);
    return true;
  });
}

Deno.test("revocation constants are the spec's numbers", () => {
  strictEqual(REVOCATION_POLL_FLOOR_S, 60);
  strictEqual(REVOCATION_POLL_CEILING_S, 1_800);
  strictEqual(REVOCATION_GRACE_INTERVALS, 4);
  strictEqual(MAX_REVOKED_KIDS, 100_000);
  strictEqual(REVOCATION_CLOCK_SKEW_S, 60);
});

Deno.test("RevocationList is stale for every kid until its first update", () => {
  const list = listAt(T);
  strictEqual(list.status("k", 0), "stale");
  strictEqual(list.status("k", T), "stale");
  strictEqual(list.status("", -1e12), "stale");
});

Deno.test("RevocationList answers revoked for a listed kid, valid for others", () => {
  const list = listAt(T);
  list.update(snapshot(T, T + 900, ["old-key", "K2"]));
  strictEqual(list.status("old-key", T + 1), "revoked");
  strictEqual(list.status("K2", T + 1), "revoked");
  strictEqual(list.status("k2", T + 1), "valid");
  strictEqual(list.status("old-key ", T + 1), "valid");
  strictEqual(list.status("new-key", T + 1), "valid");
  strictEqual(list.status("__proto__", T + 1), "valid");
  strictEqual(list.status("toString", T + 1), "valid");
});

Deno.test("RevocationList answers revoked even when the list is stale", () => {
  const list = listAt(T);
  list.update(snapshot(T, T + 900, ["old-key"]));
  strictEqual(list.status("new-key", T + 1e6), "stale");
  strictEqual(list.status("old-key", T + 1e6), "revoked");
});

Deno.test("RevocationList: stale after next_update + 4 intervals (interval 900 s)", () => {
  const list = listAt(T);
  list.update(snapshot(T, T + 900));
  // next_update + 4 × 900 = T + 4500; fresh through the deadline, stale after it.
  strictEqual(list.status("k", T + 4_500), "valid");
  strictEqual(list.status("k", T + 4_500.001), "stale");
  strictEqual(lastFresh(list, T), T + 4_500);
});

Deno.test("RevocationList clamps the interval to the 60 s floor", () => {
  const list = listAt(T);
  list.update(snapshot(T, T + 10)); // a 10 s cadence is read as 60 s
  // due at next_update, T + 10; grace = 4 × 60.
  strictEqual(lastFresh(list, T), T + 250);
});

Deno.test("RevocationList clamps the interval to the 1800 s ceiling", () => {
  const list = listAt(T);
  // next_update 1860 s out (the ceiling plus the skew) is accepted, polled within 30 min, and its
  // grace is 4 × 1800.
  list.update(snapshot(T, T + 1_860));
  strictEqual(lastFresh(list, T), T + 1_800 + 7_200);
  // An old list (updated 2 h before the fetch) announcing a 3 h cadence: grace 4 × 1800 too.
  const old = listAt(T);
  old.update(snapshot(T - 7_200, T + 1_800));
  strictEqual(lastFresh(old, T), T + 1_800 + 7_200);
});

Deno.test("RevocationList takes the interval at its bounds exactly", () => {
  const floor = listAt(T);
  floor.update(snapshot(T, T + 60));
  strictEqual(lastFresh(floor, T), T + 60 + 240);
  const ceiling = listAt(T);
  ceiling.update(snapshot(T, T + 1_800));
  strictEqual(lastFresh(ceiling, T), T + 1_800 + 7_200);
});

Deno.test("RevocationList: next_update before updated is a 60 s interval, stale on arrival", () => {
  const list = listAt(T);
  list.update(snapshot(T, T - 600));
  // interval 60; due at T - 600; stale after T - 360, before the fetch.
  strictEqual(list.status("k", T - 360), "valid");
  strictEqual(list.status("k", T), "stale");
});

Deno.test("RevocationList: a list fetched late is fresh only until next_update + grace", () => {
  // Published at T with a 15 min cadence, fetched 1 h later: within its grace, fresh until
  // T + 900 + 3600, not for a new cadence from the fetch.
  const list = listAt(T + 3_600);
  list.update(snapshot(T, T + 900));
  strictEqual(lastFresh(list, T + 3_600), T + 4_500);
  // Fetched 2 h later (an old copy served again): stale on arrival, with or without a fetch time.
  const late = listAt(T + 7_200);
  late.update(snapshot(T, T + 900));
  strictEqual(late.status("k", T + 7_200), "stale");
  const given = listAt(T + 9_000);
  given.update(snapshot(T, T + 900), T + 7_200);
  strictEqual(given.status("k", T + 7_200), "stale");
  // Fetched while the operator's clock ran 50 s ahead: next_update governs.
  const early = listAt(T);
  early.update(snapshot(T, T + 900), T - 50);
  strictEqual(lastFresh(early, T), T + 4_500);
});

Deno.test("RevocationList.update() replaces the previous snapshot", () => {
  const { list, clock } = movingList(T);
  list.update(snapshot(T, T + 900, ["a"]));
  clock.now = T + 900;
  list.update(snapshot(T + 900, T + 1_800, ["b"]));
  strictEqual(list.status("a", T + 901), "valid");
  strictEqual(list.status("b", T + 901), "revoked");
  strictEqual(lastFresh(list, T + 901), T + 1_800 + 3_600);
});

Deno.test("RevocationList.update() copies revoked_kids: later edits change nothing", () => {
  const kids = ["a"];
  const list = listAt(T);
  list.update({ updated: iso(T), next_update: iso(T + 900), revoked_kids: kids });
  kids.push("b");
  kids[0] = "c";
  strictEqual(list.status("a", T), "revoked");
  strictEqual(list.status("b", T), "valid");
  strictEqual(list.status("c", T), "valid");
});

Deno.test("RevocationList.update() accepts RFC 3339 offsets and fractions", () => {
  const list = listAt(T);
  list.update({
    updated: "2026-04-18T16:00:00.000+02:00", // T
    next_update: "2026-04-18T14:15:00.5Z",
    revoked_kids: [],
  });
  // interval 900.5 s: stale after T + 900.5 + 4 × 900.5 = T + 4502.5.
  strictEqual(lastFresh(list, T), T + 4_502);
  strictEqual(list.status("k", T + 4_502.5), "valid");
  strictEqual(list.status("k", T + 4_502.6), "stale");
});

Deno.test("RevocationList.update() accepts exactly MAX_REVOKED_KIDS entries", () => {
  const kids = Array.from({ length: MAX_REVOKED_KIDS }, (_, i) => `k${i}`);
  const list = listAt(T);
  list.update(snapshot(T, T + 900, kids));
  strictEqual(list.status("k99999", T), "revoked");
});

Deno.test("RevocationList.update() refuses bad snapshots and keeps the previous state", () => {
  const list = listAt(T);
  list.update(snapshot(T, T + 900, ["kept"]));
  const action = "Cannot update the revocation list as";
  const bad: [unknown, ErrorConstructor, string][] = [
    [null, TypeError, `${action} 'snapshot' must be an object: current value is null`],
    ["list", TypeError, `${action} 'snapshot' must be an object: current value is "list"`],
    [
      { ...snapshot(T, T + 900), updated: "yesterday" },
      TypeError,
      `${action} 'updated' must be an RFC 3339 timestamp: current value is "yesterday"`,
    ],
    [
      { ...snapshot(T, T + 900), updated: 1_776_520_800 },
      TypeError,
      `${action} 'updated' must be an RFC 3339 timestamp: current value is 1776520800`,
    ],
    [
      { ...snapshot(T, T + 900), next_update: "2026-04-18T99:00:00Z" },
      TypeError,
      `${action} 'next_update' must be an RFC 3339 timestamp: current value is ` +
      `"2026-04-18T99:00:00Z"`,
    ],
    [
      { ...snapshot(T, T + 900), next_update: undefined },
      TypeError,
      `${action} 'next_update' must be an RFC 3339 timestamp: current value is undefined`,
    ],
    [
      { ...snapshot(T, T + 900), revoked_kids: "a,b" },
      TypeError,
      `${action} 'revoked_kids' must be an array of strings: current value is "a,b"`,
    ],
    [
      { ...snapshot(T, T + 900), revoked_kids: ["a", 1] },
      TypeError,
      `${action} 'revoked_kids' must be an array of strings: current value is an array`,
    ],
    [
      { ...snapshot(T, T + 900), revoked_kids: undefined },
      TypeError,
      `${action} 'revoked_kids' must be an array of strings: current value is undefined`,
    ],
    [
      snapshot(T, T + 900, Array.from({ length: MAX_REVOKED_KIDS + 1 }, (_, i) => `k${i}`)),
      RangeError,
      `${action} 'revoked_kids' must be at most 100000 entries: current value is 100001`,
    ],
  ];
  for (const [value, kind, message] of bad) {
    throwsOption(() => list.update(value as RevocationListSnapshot), kind, message);
    // Nothing changed.
    strictEqual(list.status("kept", T + 1), "revoked");
    strictEqual(lastFresh(list, T), T + 4_500);
  }
});

Deno.test("RevocationList.update() error messages cut long seller strings", () => {
  const list = listAt(T);
  const long = "x".repeat(10_000);
  throws(
    () => list.update({ ...snapshot(T, T + 900), updated: long }),
    (error: unknown) => error instanceof TypeError && error.message.length < 200,
  );
});

Deno.test({
  name: "RevocationList.update() refuses timestamps that are not RFC 3339",
  fn() {
    for (
      const bad of [
        "2026-04-18T14:00:00",
        "2026-04-18T14:00",
        "2026-04-18T14:00:00+0100",
        "2026-02-30T00:00:00Z",
      ]
    ) {
      const list = listAt(T);
      throws(
        () => list.update({ ...snapshot(T, T + 900), updated: bad }),
        TypeError,
        bad,
      );
    }
  },
});

Deno.test("property: stale at min(next_update, fetch + 1800) + 4 intervals", () => {
  // The clock reads C; the fetch is C or a given time from T - 60 to C + 60; the list is updated
  // at T and announces next_update at T + cadence, at most the fetch + 1860.
  const C = T + 20_000;
  fc.assert(
    fc.property(
      fc.option(fc.integer({ min: -60, max: 20_060 }), { nil: undefined }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }),
      (refreshed, position, kids) => {
        const list = listAt(C);
        const refreshedAt = refreshed === undefined ? undefined : T + refreshed;
        const base = refreshedAt ?? C;
        const highest = base - T + 1_860;
        const cadence = Math.floor(-4_000 + position * (highest + 4_000));
        list.update(snapshot(T, T + cadence, kids), refreshedAt);
        const interval = Math.min(1_800, Math.max(60, cadence));
        const due = Math.min(base + 1_800, T + cadence);
        const deadline = due + 4 * interval;
        const probe = "\u0000not-listed";
        strictEqual(list.status(probe, deadline), "valid");
        strictEqual(list.status(probe, deadline + 0.5), "stale");
        // Never fresh longer than 2.5 h after the fetch, whatever the list says.
        ok(deadline <= base + 1_800 + 7_200);
        for (const kid of kids) {
          strictEqual(list.status(kid, deadline), "revoked");
          strictEqual(list.status(kid, deadline + 1), "revoked");
        }
      },
    ),
    { numRuns: 1_000 },
  );
});

Deno.test("RevocationList refuses a snapshot older than the one held (no un-revoking)", () => {
  const list = listAt(T + 600);
  list.update(snapshot(T + 600, T + 1_500, ["k1"]));
  strictEqual(list.status("k1", T + 700), "revoked");
  throws(() => list.update(snapshot(T, T + 900, [])), RangeError);
  strictEqual(list.status("k1", T + 700), "revoked");
  list.update(snapshot(T + 600, T + 1_500, [])); // the same age is accepted (a re-fetch)
  strictEqual(list.status("k1", T + 700), "valid");
});

Deno.test("RevocationList refuses a list dated in the future: revocation keeps working", () => {
  const { list, clock } = movingList(T);
  list.update(snapshot(T, T + 900, ["a"]));
  // A list claiming to be from 9999 (a tampered or misconfigured one) is refused, not held:
  // held, it would make every later list look older and stop every revocation after it.
  throws(
    () =>
      list.update({
        updated: "9999-12-31T23:59:59Z",
        next_update: "9999-12-31T23:59:59Z",
        revoked_kids: [],
      }),
    RangeError,
  );
  strictEqual(list.status("a", T + 1), "revoked");
  // The operator's next list revokes one more key: accepted.
  clock.now = T + 900;
  list.update(snapshot(T + 900, T + 1_800, ["a", "b"]));
  strictEqual(list.status("b", T + 901), "revoked");
  // And without a refresh the list still goes stale on schedule.
  strictEqual(list.status("c", T + 1_800 + 3_600), "valid");
  strictEqual(list.status("c", T + 1_800 + 3_601), "stale");
});

Deno.test("RevocationList refuses updated more than 60 s after the fetch", () => {
  const a = "Cannot update the revocation list as";
  const list = listAt(T);
  throwsOption(
    () => list.update(snapshot(T + 61, T + 900)),
    RangeError,
    `${a} 'updated' must be no later than the fetch + 60 s of clock skew: current value is ` +
      `"${iso(T + 61)}"`,
  );
  // Nothing was loaded: still stale.
  strictEqual(list.status("k", T), "stale");
  // Held to the given fetch time as well.
  throws(() => listAt(T + 3_600).update(snapshot(T + 61, T + 900), T), RangeError);
  // A fresh list is also refused at the first update: never loaded, never fresh.
  const first = listAt(T);
  throws(() => first.update(snapshot(T + 86_400, T + 87_300)), RangeError);
  strictEqual(first.status("k", T + 86_400), "stale");
});

Deno.test("RevocationList: a list up to 60 s ahead, then the operator's next list", () => {
  const { list, clock } = movingList(T);
  // The operator's clock runs 60 s ahead: accepted.
  list.update(snapshot(T + 60, T + 960, ["a"]));
  strictEqual(list.status("a", T), "revoked");
  // Its clock is set right; its next list, 10 s later, is dated before the first: accepted
  // (the age held was the fetch time, T, not T + 60).
  clock.now = T + 10;
  list.update(snapshot(T + 10, T + 910, ["a", "b"]));
  strictEqual(list.status("b", T + 11), "revoked");
  // A list older than the fetch of the first is still refused.
  clock.now = T + 20;
  throws(() => list.update(snapshot(T - 1, T + 899, [])), RangeError);
  strictEqual(list.status("a", T + 21), "revoked");
});

Deno.test("RevocationList refuses next_update beyond the fetch + 1800 s + 60 s", () => {
  const a = "Cannot update the revocation list as";
  const list = listAt(T);
  throwsOption(
    () => list.update(snapshot(T, T + 1_861)),
    RangeError,
    `${a} 'next_update' must be no later than the fetch + 1800 s (the polling ceiling) + 60 s ` +
      `of clock skew: current value is "${iso(T + 1_861)}"`,
  );
  throws(() => list.update(snapshot(T, T + 3_000_000_000)), RangeError);
  throws(() => list.update({ ...snapshot(T, T), next_update: "9999-12-31T23:59:59Z" }), RangeError);
  strictEqual(list.status("k", T), "stale");
  list.update(snapshot(T, T + 1_860));
  strictEqual(list.status("k", T), "valid");
});

Deno.test("RevocationList: a list's own dates only make it stale sooner", () => {
  // A list made a day before its fetch (a replayed copy that predates a revocation): stale on
  // arrival, even on a verifier that holds no newer one.
  const list = listAt(T);
  list.update(snapshot(T - 86_400, T - 86_340));
  strictEqual(list.status("k", T), "stale");
  // A list announcing a cadence longer than the ceiling is due 30 min after the fetch at most.
  const slow = listAt(T);
  slow.update(snapshot(T - 1_800, T + 1_860));
  strictEqual(lastFresh(slow, T), T + 1_800 + 7_200);
  // With no fetch time given, the clock is the fetch time: a list cannot postpone its own
  // staleness by dating itself later (60 s at most, refused beyond).
  const ahead = listAt(T);
  ahead.update(snapshot(T + 60, T + 120));
  strictEqual(lastFresh(ahead, T), T + 120 + 240);
});

Deno.test("RevocationList checks refreshedAt and its clock", () => {
  const a = "Cannot update the revocation list as";
  const list = listAt(T);
  throwsOption(
    () => list.update(snapshot(T, T + 900), "now" as never),
    TypeError,
    `${a} 'refreshedAt' must be Unix seconds: current value is "now"`,
  );
  for (const bad of [NaN, Infinity, T + 61]) {
    throwsOption(
      () => list.update(snapshot(T, T + 900), bad),
      RangeError,
      `${a} 'refreshedAt' must be finite Unix seconds no later than now + 60 s: current value is ` +
        `${bad}`,
    );
  }
  strictEqual(list.status("k", T), "stale");
  list.update(snapshot(T, T + 900), T + 60);
  strictEqual(list.status("k", T), "valid");
  throwsOption(
    () => new RevocationList({ now: 5 as never }),
    TypeError,
    "Cannot create the revocation list as 'now' must be a function: current value is 5",
  );
  throwsOption(
    () => new RevocationList(null as never),
    TypeError,
    "Cannot create the revocation list as 'options' must be an object: current value is null",
  );
  const broken = new RevocationList({ now: () => NaN });
  throwsOption(
    () => broken.update(snapshot(T, T + 900)),
    TypeError,
    `${a} 'now()' must be a finite number of milliseconds: current value is NaN`,
  );
  // Without options the clock is Date.now.
  const real = new RevocationList();
  const now = Math.floor(Date.now() / 1000);
  real.update(snapshot(now, now + 900));
  strictEqual(real.status("k", now + 1), "valid");
});

Deno.test("RevocationList.status() fails closed on a time that is not a number", () => {
  const list = listAt(T);
  list.update(snapshot(T, T + 900, ["r"]));
  strictEqual(list.status("k", NaN), "stale");
  strictEqual(list.status("k", undefined as never), "stale");
  strictEqual(list.status("r", NaN), "revoked");
});
