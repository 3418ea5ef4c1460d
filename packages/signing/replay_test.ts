// Tests of the (keyid, nonce) replay cache of verifier steps 9a, 12 and 13: replays, expiry, the
// per-keyid and total caps (refusal, never eviction), the new-keyid admission count, and the
// option errors.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  DEFAULT_REPLAY_MAX_ENTRIES,
  DEFAULT_REQUEST_REPLAY_CAP_PER_KEYID,
  DEFAULT_WEBHOOK_REPLAY_CAP_PER_KEYID,
  InMemoryReplayStore,
  type ReplayStore,
} from "./replay.ts";

/** Asserts `fn` throws `kind` with exactly `message`. */
function throwsOption(fn: () => unknown, kind: ErrorConstructor, message: string): void {
  throws(fn, (error: unknown) => {
    ok(error instanceof kind, `expected ${kind.name}, got ${error}`);
    strictEqual((error as Error).message, message);
    return true;
  });
}

Deno.test("replay defaults are the spec's recommendations", () => {
  strictEqual(DEFAULT_REQUEST_REPLAY_CAP_PER_KEYID, 250_000);
  strictEqual(DEFAULT_WEBHOOK_REPLAY_CAP_PER_KEYID, 100_000);
  strictEqual(DEFAULT_REPLAY_MAX_ENTRIES, 1_000_000);
});

Deno.test("InMemoryReplayStore answers a second insert of a pair as replayed", () => {
  const store = new InMemoryReplayStore();
  strictEqual(store.seen("k1", "n1", 1_000), false);
  strictEqual(store.insert("k1", "n1", 1_360, 1_000), "inserted");
  strictEqual(store.seen("k1", "n1", 1_000), true);
  strictEqual(store.insert("k1", "n1", 1_360, 1_001), "replayed");
  deepStrictEqual(store.stats(1_001), { entries: 1, keyids: 1, newKeyidsLast5Minutes: 1 });
});

Deno.test("InMemoryReplayStore keys on (keyid, nonce): one nonce under two keys is new", () => {
  const store = new InMemoryReplayStore();
  strictEqual(store.insert("k1", "n", 100, 0), "inserted");
  strictEqual(store.insert("k2", "n", 100, 0), "inserted");
  strictEqual(store.seen("k2", "n", 0), true);
  strictEqual(store.seen("k3", "n", 0), false);
  // No concatenation ambiguity: ("a", "bc") and ("ab", "c") are distinct pairs.
  strictEqual(store.insert("a", "bc", 100, 0), "inserted");
  strictEqual(store.insert("ab", "c", 100, 0), "inserted");
  strictEqual(store.seen("a", "bc", 0), true);
  strictEqual(store.seen("ab", "c", 0), true);
  strictEqual(store.seen("a", "b", 0), false);
});

Deno.test("InMemoryReplayStore holds a pair through its expiry, inclusive", () => {
  const store = new InMemoryReplayStore();
  store.insert("k1", "n", 1_360, 1_000);
  strictEqual(store.seen("k1", "n", 1_359), true);
  strictEqual(store.seen("k1", "n", 1_360), true); // the window of step 5 still accepts here
  strictEqual(store.seen("k1", "n", 1_360.001), false);
  strictEqual(store.insert("k1", "n", 1_800, 1_360), "replayed");
  // After expiry the pair may be inserted again (a fresh signature window).
  strictEqual(store.insert("k1", "n", 1_800, 1_361), "inserted");
  strictEqual(store.seen("k1", "n", 1_700), true);
  strictEqual(store.stats(1_361).entries, 1);
});

Deno.test("InMemoryReplayStore never answers from the prototype chain", () => {
  const store = new InMemoryReplayStore();
  strictEqual(store.seen("__proto__", "constructor", 0), false);
  strictEqual(store.seen("constructor", "__proto__", 0), false);
  strictEqual(store.capped("__proto__", 0), false);
  strictEqual(store.insert("__proto__", "__proto__", 10, 0), "inserted");
  strictEqual(store.seen("__proto__", "__proto__", 0), true);
});

Deno.test("InMemoryReplayStore refuses at the per-keyid cap instead of evicting", () => {
  const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 3 });
  for (const nonce of ["a", "b", "c"]) strictEqual(store.insert("k1", nonce, 500, 0), "inserted");
  strictEqual(store.capped("k1", 0), true);
  strictEqual(store.insert("k1", "d", 500, 0), "capped");
  // Nothing was evicted: every held nonce is still a replay.
  for (const nonce of ["a", "b", "c"]) strictEqual(store.seen("k1", nonce, 1), true);
  strictEqual(store.seen("k1", "d", 1), false);
  strictEqual(store.insert("k1", "a", 500, 1), "replayed");
  // Another keyid is not affected.
  strictEqual(store.capped("k2", 1), false);
  strictEqual(store.insert("k2", "a", 500, 1), "inserted");
  deepStrictEqual(store.stats(1), { entries: 4, keyids: 2, newKeyidsLast5Minutes: 2 });
});

Deno.test("InMemoryReplayStore answers a held pair as replayed even at the cap", () => {
  // Step 12 before step 13: a replay is a replay, not rate abuse.
  const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 1 });
  store.insert("k1", "a", 500, 0);
  strictEqual(store.insert("k1", "a", 500, 0), "replayed");
});

Deno.test("InMemoryReplayStore frees a key's cap as its entries expire", () => {
  const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 2 });
  store.insert("k1", "a", 100, 0);
  store.insert("k1", "b", 200, 0);
  strictEqual(store.capped("k1", 50), true);
  strictEqual(store.capped("k1", 150), false); // "a" expired
  strictEqual(store.insert("k1", "c", 300, 150), "inserted");
  strictEqual(store.capped("k1", 150), true);
  strictEqual(store.insert("k1", "d", 300, 150), "capped");
  strictEqual(store.capped("k1", 300), false); // "b" expired; "c" is held through 300
  strictEqual(store.seen("k1", "c", 300), true);
  strictEqual(store.capped("k1", 301), false); // everything expired
  // Expired entries are dropped as the cap needs room: two fresh inserts fit.
  strictEqual(store.insert("k1", "e", 400, 302), "inserted");
  strictEqual(store.insert("k1", "f", 400, 302), "inserted");
  strictEqual(store.stats(302).entries, 2);
  strictEqual(store.stats(302).keyids, 1);
});

Deno.test("InMemoryReplayStore refuses every keyid at the total cap", () => {
  const store = new InMemoryReplayStore({ maxEntries: 2 });
  strictEqual(store.insert("k1", "a", 100, 0), "inserted");
  strictEqual(store.insert("k2", "a", 200, 0), "inserted");
  strictEqual(store.capped("k3", 0), true);
  strictEqual(store.capped("k1", 0), true);
  strictEqual(store.insert("k3", "a", 100, 0), "capped");
  strictEqual(store.insert("k1", "b", 100, 0), "capped");
  // Nothing was evicted.
  strictEqual(store.seen("k1", "a", 0), true);
  strictEqual(store.seen("k2", "a", 0), true);
  // A capped insert admitted no keyid.
  deepStrictEqual(store.stats(0), { entries: 2, keyids: 2, newKeyidsLast5Minutes: 2 });
  // Once k1's entry expires, there is room again.
  strictEqual(store.capped("k3", 101), false);
  strictEqual(store.insert("k3", "a", 300, 101), "inserted");
  strictEqual(store.stats(101).entries, 2);
});

Deno.test("InMemoryReplayStore with a cap of one holds exactly one pair", () => {
  const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 1, maxEntries: 1 });
  strictEqual(store.insert("k", "a", 10, 0), "inserted");
  strictEqual(store.insert("k", "b", 10, 0), "capped");
  strictEqual(store.insert("j", "b", 10, 0), "capped");
  strictEqual(store.insert("k", "b", 20, 10), "capped"); // "a" is held through 10
  strictEqual(store.insert("k", "b", 20, 11), "inserted");
});

Deno.test("InMemoryReplayStore.stats() counts keyids admitted in the last 5 minutes", () => {
  const store = new InMemoryReplayStore();
  store.insert("k1", "a", 10_000, 0);
  store.insert("k1", "b", 10_000, 10); // not a new keyid
  store.insert("k2", "a", 10_000, 100);
  store.insert("k3", "a", 10_000, 299);
  deepStrictEqual(store.stats(299), { entries: 4, keyids: 3, newKeyidsLast5Minutes: 3 });
  // The window is 300 s: k1's admission at 0 drops out at 300.
  strictEqual(store.stats(300).newKeyidsLast5Minutes, 2);
  strictEqual(store.stats(400).newKeyidsLast5Minutes, 1);
  strictEqual(store.stats(598).newKeyidsLast5Minutes, 1);
  strictEqual(store.stats(599).newKeyidsLast5Minutes, 0);
  // The entries themselves are still held.
  strictEqual(store.stats(599).entries, 4);
});

Deno.test({
  name: "InMemoryReplayStore.stats() counts a keyid once, even when its entries expired between",
  fn() {
    const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 1 });
    store.insert("k1", "a", 100, 0);
    store.insert("k1", "b", 300, 200); // the cap sweep drops "a" first
    strictEqual(store.stats(200).newKeyidsLast5Minutes, 1);
  },
});

Deno.test("InMemoryReplayStore keeps the admission count bounded", () => {
  const store = new InMemoryReplayStore({ maxEntries: 4 });
  for (let i = 0; i < 4; i++) store.insert(`k${i}`, "a", 1, 0);
  // The store is full at t=0; at t=2 everything expired and new keys come in.
  for (let i = 4; i < 8; i++) strictEqual(store.insert(`k${i}`, "a", 10, 2), "inserted");
  ok(store.stats(2).newKeyidsLast5Minutes <= 8);
  ok(store.stats(2).newKeyidsLast5Minutes >= 4);
  strictEqual(store.stats(2).entries, 4);
});

Deno.test("InMemoryReplayStore implements ReplayStore synchronously", () => {
  const store: ReplayStore = new InMemoryReplayStore();
  strictEqual(typeof store.capped("k", 0), "boolean");
  strictEqual(typeof store.seen("k", "n", 0), "boolean");
  strictEqual(store.insert("k", "n", 1, 0), "inserted");
});

Deno.test("InMemoryReplayStore refuses bad caps with the option message", () => {
  const action = "Cannot create the replay store as";
  throwsOption(
    () => new InMemoryReplayStore({ maxEntriesPerKeyid: 0 }),
    RangeError,
    `${action} 'maxEntriesPerKeyid' must be a positive safe integer: current value is 0`,
  );
  throwsOption(
    () => new InMemoryReplayStore({ maxEntriesPerKeyid: -1 }),
    RangeError,
    `${action} 'maxEntriesPerKeyid' must be a positive safe integer: current value is -1`,
  );
  throwsOption(
    () => new InMemoryReplayStore({ maxEntriesPerKeyid: 1.5 }),
    RangeError,
    `${action} 'maxEntriesPerKeyid' must be a positive safe integer: current value is 1.5`,
  );
  throwsOption(
    () => new InMemoryReplayStore({ maxEntries: Number.NaN }),
    RangeError,
    `${action} 'maxEntries' must be a positive safe integer: current value is NaN`,
  );
  throwsOption(
    () => new InMemoryReplayStore({ maxEntries: Infinity }),
    RangeError,
    `${action} 'maxEntries' must be a positive safe integer: current value is Infinity`,
  );
  throwsOption(
    () => new InMemoryReplayStore({ maxEntries: 2 ** 53 }),
    RangeError,
    `${action} 'maxEntries' must be a positive safe integer: current value is 9007199254740992`,
  );
  throwsOption(
    () => new InMemoryReplayStore({ maxEntries: "10" as unknown as number }),
    TypeError,
    `${action} 'maxEntries' must be a positive safe integer: current value is "10"`,
  );
  throwsOption(
    () => new InMemoryReplayStore({ maxEntriesPerKeyid: null as unknown as number }),
    TypeError,
    `${action} 'maxEntriesPerKeyid' must be a positive safe integer: current value is null`,
  );
  throwsOption(
    () => new InMemoryReplayStore(null as unknown as object),
    TypeError,
    `${action} 'options' must be an object: current value is null`,
  );
  throwsOption(
    () => new InMemoryReplayStore("big" as unknown as object),
    TypeError,
    `${action} 'options' must be an object: current value is "big"`,
  );
  // Undefined fields take the defaults.
  const empty = { maxEntries: undefined, maxEntriesPerKeyid: undefined } as unknown as {
    maxEntries: number;
  };
  strictEqual(new InMemoryReplayStore(empty).stats(0).entries, 0);
});

Deno.test("property: the store agrees with a model set, and never holds more than its caps", () => {
  const op = fc.record({
    keyid: fc.constantFrom("k1", "k2", "k3"),
    nonce: fc.constantFrom("a", "b", "c", "d", "e"),
    ttl: fc.integer({ min: 1, max: 50 }),
    advance: fc.integer({ min: 0, max: 20 }),
  });
  fc.assert(
    fc.property(
      fc.array(op, { maxLength: 60 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 8 }),
      (ops, perKeyid, total) => {
        const store = new InMemoryReplayStore({ maxEntriesPerKeyid: perKeyid, maxEntries: total });
        const model = new Map<string, number>(); // `${keyid} ${nonce}` -> expiresAt
        let now = 0;
        for (const { keyid, nonce, ttl, advance } of ops) {
          now += advance;
          for (const [key, expiresAt] of model) if (expiresAt < now) model.delete(key);
          const held = model.has(`${keyid} ${nonce}`);
          strictEqual(store.seen(keyid, nonce, now), held);
          const result = store.insert(keyid, nonce, now + ttl, now);
          if (held) {
            strictEqual(result, "replayed");
            continue;
          }
          const ofKey = [...model.keys()].filter((key) => key.startsWith(`${keyid} `)).length;
          // With whole-second clocks the store is exact: refused iff a cap is reached by the
          // live entries.
          const full = ofKey >= perKeyid || model.size >= total;
          strictEqual(result, full ? "capped" : "inserted");
          if (result === "inserted") model.set(`${keyid} ${nonce}`, now + ttl);
          ok(store.stats(now).entries <= total);
        }
      },
    ),
    { numRuns: 1_000 },
  );
});

Deno.test("with the default caps, one key at its cap leaves room for every other key", () => {
  const store = new InMemoryReplayStore();
  for (let i = 0; i < DEFAULT_REQUEST_REPLAY_CAP_PER_KEYID; i++) {
    strictEqual(store.insert("abusive", `n${i}`, 1_000, 0), "inserted");
  }
  strictEqual(store.insert("abusive", "one-more", 1_000, 0), "capped");
  strictEqual(store.capped("innocent", 0), false);
  strictEqual(store.insert("innocent", "n", 1_000, 0), "inserted");
});

Deno.test("a signer publishing 1,000 keyids cannot fill the store: others keep room", () => {
  const store = new InMemoryReplayStore({
    maxEntriesPerKeyid: DEFAULT_WEBHOOK_REPLAY_CAP_PER_KEYID,
  });
  const hostile = "https://hostile.example/mcp";
  let inserted = 0;
  for (let kid = 0; kid < 1_000; kid++) {
    // Each keyid floods fresh nonces until refused.
    for (let n = 0;; n++) {
      if (store.insert(`kid-${kid}`, `n${n}`, 360, 0, hostile) !== "inserted") break;
      inserted++;
    }
  }
  // The signer's budget, a quarter of the store: not 1,000 keyids' caps.
  strictEqual(inserted, DEFAULT_REPLAY_MAX_ENTRIES / 4);
  for (const honest of ["https://honest.example/mcp", "https://other.example/a2a"]) {
    strictEqual(store.capped("kid-0", 0, honest), false, "another seller's kid of the same name");
    strictEqual(store.capped("main", 0, honest), false);
    strictEqual(store.insert("main", `${honest}-n`, 360, 0, honest), "inserted");
  }
  strictEqual(store.capped("kid-1", 0, hostile), true);
  // The budget frees as the entries expire.
  strictEqual(store.capped("kid-1", 361, hostile), false);
  strictEqual(store.stats(361).entries, 0);
});

Deno.test("InMemoryReplayStore caps a keyid per signer; the replay key is (keyid, nonce)", () => {
  const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 2, maxEntriesPerSigner: 3 });
  strictEqual(store.insert("k1", "a", 100, 0, "seller-a"), "inserted");
  strictEqual(store.insert("k1", "b", 100, 0, "seller-a"), "inserted");
  strictEqual(store.capped("k1", 0, "seller-a"), true, "seller-a's k1 is at its cap");
  strictEqual(store.capped("k1", 0, "seller-b"), false, "seller-b's k1 is another key");
  strictEqual(store.insert("k1", "c", 100, 0, "seller-b"), "inserted");
  strictEqual(store.insert("k2", "a", 100, 0, "seller-a"), "inserted");
  strictEqual(store.insert("k3", "a", 100, 0, "seller-a"), "capped", "seller-a's budget is 3");
  // A nonce is a replay whoever presents it under the keyid.
  strictEqual(store.seen("k1", "a", 0), true);
  strictEqual(store.insert("k1", "a", 100, 0, "seller-b"), "replayed");
  deepStrictEqual(store.stats(0), { entries: 4, keyids: 2, newKeyidsLast5Minutes: 2 });
  throws(() => store.insert("k9", "x", Number.NaN, 0), TypeError);
  throws(() => store.insert("k9", "x", 10, Infinity), TypeError);
  throws(() => new InMemoryReplayStore({ maxEntriesPerSigner: 0 }), RangeError);
});

Deno.test("InMemoryReplayStore counts entries inserted without a signer for every signer", () => {
  // A harness or a migration preloads a keyid's entries without a signer: they still count.
  const store = new InMemoryReplayStore({ maxEntriesPerKeyid: 2 });
  strictEqual(store.insert("k1", "a", 100, 0), "inserted");
  strictEqual(store.capped("k1", 0, "seller-a"), false);
  strictEqual(store.insert("k1", "b", 100, 0, "seller-a"), "inserted");
  strictEqual(store.capped("k1", 0, "seller-a"), true);
  strictEqual(store.capped("k1", 0, "seller-b"), false, "seller-b holds 0 of its own, 1 shared");
  strictEqual(store.capped("k1", 0), true, "unattributed: both entries count");
  strictEqual(store.insert("k1", "c", 100, 0), "capped");
});

Deno.test("property: per-signer caps agree with a model and hold under random inserts", () => {
  const op = fc.record({
    signer: fc.constantFrom("s1", "s2", "s3", undefined),
    keyid: fc.constantFrom("k1", "k2", "k3"),
    nonce: fc.constantFrom("a", "b", "c", "d"),
    ttl: fc.integer({ min: 0, max: 30 }),
    advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20 })),
  });
  fc.assert(
    fc.property(
      fc.array(op, { maxLength: 80 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 10 }),
      (ops, perKeyid, perSigner, total) => {
        const store = new InMemoryReplayStore({
          maxEntriesPerKeyid: perKeyid,
          maxEntriesPerSigner: perSigner,
          maxEntries: total,
        });
        type Held = { signer: string | undefined; keyid: string; nonce: string; expiresAt: number };
        let model: Held[] = [];
        let now = 0;
        for (const { signer, keyid, nonce, ttl, advance } of ops) {
          now += advance;
          model = model.filter((e) => e.expiresAt >= now);
          const held = model.some((e) => e.keyid === keyid && e.nonce === nonce);
          const ofKeyid = model.filter((e) => e.keyid === keyid);
          const ofSigner = model.filter((e) => e.signer === signer);
          // A signer's keyid counts its own entries and the unattributed ones; an unattributed
          // call counts them all.
          const counted = signer === undefined
            ? ofKeyid
            : ofKeyid.filter((e) => e.signer === signer || e.signer === undefined);
          const capped = counted.length >= perKeyid ||
            (signer !== undefined && ofSigner.length >= perSigner) || model.length >= total;
          strictEqual(store.capped(keyid, now, signer), capped);
          const result = store.insert(keyid, nonce, now + ttl, now, signer);
          strictEqual(result, held ? "replayed" : capped ? "capped" : "inserted");
          if (result === "inserted") model.push({ signer, keyid, nonce, expiresAt: now + ttl });
          strictEqual(store.stats(now).entries, model.length);
        }
      },
    ),
    { numRuns: 500 },
  );
});
