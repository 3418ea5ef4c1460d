// Tests of the revocation list of verifier step 9: revoked kids, the staleness math (polling
// interval = next_update - updated clamped to 60..1800 s, grace = 4 intervals, a late fetch fresh
// for one interval), fail-closed before the first update, and the option errors.
import { ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  MAX_REVOKED_KIDS,
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
});

Deno.test("RevocationList is stale for every kid until its first update", () => {
  const list = new RevocationList();
  strictEqual(list.status("k", 0), "stale");
  strictEqual(list.status("k", T), "stale");
  strictEqual(list.status("", -1e12), "stale");
});

Deno.test("RevocationList answers revoked for a listed kid, valid for others", () => {
  const list = new RevocationList();
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
  const list = new RevocationList();
  list.update(snapshot(T, T + 900, ["old-key"]));
  strictEqual(list.status("new-key", T + 1e6), "stale");
  strictEqual(list.status("old-key", T + 1e6), "revoked");
});

Deno.test("RevocationList: stale after next_update + 4 intervals (interval 900 s)", () => {
  const list = new RevocationList();
  list.update(snapshot(T, T + 900));
  // next_update + 4 × 900 = T + 4500; fresh through the deadline, stale after it.
  strictEqual(list.status("k", T + 4_500), "valid");
  strictEqual(list.status("k", T + 4_500.001), "stale");
  strictEqual(lastFresh(list, T), T + 4_500);
});

Deno.test("RevocationList clamps the interval to the 60 s floor", () => {
  const list = new RevocationList();
  list.update(snapshot(T, T + 10)); // a 10 s cadence is read as 60 s
  // due = max(T + 10, T + 60) = T + 60; grace = 240.
  strictEqual(lastFresh(list, T), T + 300);
});

Deno.test("RevocationList clamps the interval to the 1800 s ceiling", () => {
  const list = new RevocationList();
  // A 2 h cadence is still polled within 30 min, and grace is 4 × 1800, not 4 × 7200.
  list.update(snapshot(T, T + 7_200));
  strictEqual(lastFresh(list, T), T + 1_800 + 7_200);
  // A list announcing a next_update decades away goes stale all the same.
  const far = new RevocationList();
  far.update(snapshot(T, T + 3_000_000_000));
  strictEqual(lastFresh(far, T), T + 1_800 + 7_200);
});

Deno.test("RevocationList takes the interval at its bounds exactly", () => {
  const floor = new RevocationList();
  floor.update(snapshot(T, T + 60));
  strictEqual(lastFresh(floor, T), T + 60 + 240);
  const ceiling = new RevocationList();
  ceiling.update(snapshot(T, T + 1_800));
  strictEqual(lastFresh(ceiling, T), T + 1_800 + 7_200);
});

Deno.test("RevocationList reads next_update before updated as the 60 s floor", () => {
  const list = new RevocationList();
  list.update(snapshot(T, T - 600));
  // interval 60; due = max(T - 600, T + 60) = T + 60; stale after T + 300.
  strictEqual(lastFresh(list, T), T + 300);
});

Deno.test("RevocationList: a list fetched after its next_update is due one floor later", () => {
  const list = new RevocationList();
  // Published at T with a 15 min cadence, fetched 2 h later: due at the fetch + 60 s, + 3600 grace.
  list.update(snapshot(T, T + 900), T + 7_200);
  strictEqual(lastFresh(list, T + 7_200), T + 7_260 + 3_600);
  // Fetched early (refreshedAt before next_update - interval): next_update governs.
  const early = new RevocationList();
  early.update(snapshot(T, T + 900), T - 100);
  strictEqual(lastFresh(early, T), T + 4_500);
});

Deno.test("RevocationList.update() replaces the previous snapshot", () => {
  const list = new RevocationList();
  list.update(snapshot(T, T + 900, ["a"]));
  list.update(snapshot(T + 900, T + 1_800, ["b"]));
  strictEqual(list.status("a", T + 901), "valid");
  strictEqual(list.status("b", T + 901), "revoked");
  strictEqual(lastFresh(list, T + 901), T + 1_800 + 3_600);
});

Deno.test("RevocationList.update() copies revoked_kids: later edits change nothing", () => {
  const kids = ["a"];
  const list = new RevocationList();
  list.update({ updated: iso(T), next_update: iso(T + 900), revoked_kids: kids });
  kids.push("b");
  kids[0] = "c";
  strictEqual(list.status("a", T), "revoked");
  strictEqual(list.status("b", T), "valid");
  strictEqual(list.status("c", T), "valid");
});

Deno.test("RevocationList.update() accepts RFC 3339 offsets and fractions", () => {
  const list = new RevocationList();
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
  const list = new RevocationList();
  list.update(snapshot(T, T + 900, kids));
  strictEqual(list.status("k99999", T), "revoked");
});

Deno.test("RevocationList.update() refuses bad snapshots and keeps the previous state", () => {
  const list = new RevocationList();
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
  const list = new RevocationList();
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
      const list = new RevocationList();
      throws(
        () => list.update({ ...snapshot(T, T + 900), updated: bad }),
        TypeError,
        bad,
      );
    }
  },
});

Deno.test("property: stale at clamp(next, base + 60, base + 1800) + 4 intervals", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -4_000, max: 10_000 }),
      fc.option(fc.integer({ min: -4_000, max: 20_000 }), { nil: undefined }),
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }),
      (cadence, refreshed, kids) => {
        const list = new RevocationList();
        const refreshedAt = refreshed === undefined ? undefined : T + refreshed;
        list.update(snapshot(T, T + cadence, kids), refreshedAt);
        const interval = Math.min(1_800, Math.max(60, cadence));
        const base = refreshedAt ?? T;
        const due = Math.min(base + 1_800, Math.max(base + 60, T + cadence));
        const deadline = due + 4 * interval;
        const probe = "\u0000not-listed";
        strictEqual(list.status(probe, deadline), "valid");
        strictEqual(list.status(probe, deadline + 0.5), "stale");
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
  const list = new RevocationList();
  list.update(snapshot(T + 600, T + 1_500, ["k1"]));
  strictEqual(list.status("k1", T + 700), "revoked");
  throws(() => list.update(snapshot(T, T + 900, [])), RangeError);
  strictEqual(list.status("k1", T + 700), "revoked");
  list.update(snapshot(T + 600, T + 1_500, [])); // the same age is accepted (a re-fetch)
  strictEqual(list.status("k1", T + 700), "valid");
});
