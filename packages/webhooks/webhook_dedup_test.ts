import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { WebhookDedup } from "./webhook_dedup.ts";

const key = (n: number) => `whk_${String(n).padStart(16, "0")}`;

Deno.test("WebhookDedup answers full (429) to a flooding sender and keeps others' keys", () => {
  let now = 0;
  const dedup = new WebhookDedup({ maxKeysPerSender: 100, maxSenders: 3, now: () => now });
  strictEqual(dedup.claim("victim", key(1)).status, "new");
  dedup.acknowledge("victim", key(1));
  for (let i = 0; i < 100; i++) strictEqual(dedup.claim("attacker", key(i)).status, "new");
  for (let i = 100; i < 10_000; i++) {
    deepStrictEqual(dedup.claim("attacker", key(i)), { status: "full", retryAfterSeconds: 86400 });
  }
  strictEqual(dedup.size, 101, "memory does not grow past the bound");
  strictEqual(dedup.claim("victim", key(1)).status, "duplicate", "the victim's key survives");
  now += 86_400_000;
  strictEqual(dedup.claim("attacker", key(100_000)).status, "new", "expired keys make room");
});

Deno.test("WebhookDedup bounds the senders and admits one when an idle one expired", () => {
  let now = 0;
  const dedup = new WebhookDedup({ maxSenders: 2, ttlSeconds: 10, now: () => now });
  strictEqual(dedup.claim("a", key(1)).status, "new");
  now = 5_000;
  strictEqual(dedup.claim("b", key(1)).status, "new");
  dedup.acknowledge("b", key(1));
  deepStrictEqual(dedup.claim("c", key(1)), { status: "full", retryAfterSeconds: 5 });
  now = 10_000;
  strictEqual(dedup.claim("c", key(1)).status, "new", "a's keys expired: a is dropped");
  strictEqual(dedup.claim("b", key(1)).status, "duplicate");
});

Deno.test("WebhookDedup forgets a key after its TTL and reports fingerprint conflicts", () => {
  let now = 0;
  const dedup = new WebhookDedup({ ttlSeconds: 60, now: () => now });
  strictEqual(dedup.claim("s", key(1), "f1").status, "new");
  strictEqual(dedup.claim("s", key(1), "f1").status, "processing", "not yet acknowledged");
  strictEqual(dedup.acknowledge("s", key(1)), true);
  strictEqual(dedup.acknowledge("s", key(1)), false, "acknowledged once");
  strictEqual(dedup.release("s", key(1)), false, "an acknowledged claim is not released");
  strictEqual(dedup.claim("s", key(1), "f1").status, "duplicate");
  strictEqual(dedup.claim("s", key(1), "f2").status, "conflict");
  now = 60_000;
  strictEqual(dedup.claim("s", key(1), "f2").status, "new");
});

Deno.test("WebhookDedup refuses bad arguments and options", () => {
  const dedup = new WebhookDedup();
  throws(() => dedup.claim("", key(1)), TypeError);
  throws(() => dedup.claim("s", "short"), TypeError);
  throws(() => dedup.claim("s", key(1), "x".repeat(2049)), TypeError);
  throws(() => new WebhookDedup({ maxKeysPerSender: 0 }), RangeError);
  throws(() => new WebhookDedup({ maxSenders: 1.5 }), RangeError);
  throws(() => new WebhookDedup({ now: 1 as never }), TypeError);
});

Deno.test("WebhookDedup holds its bounds under random claim sequences", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(5), fc.nat(40), fc.nat(3_000)), { maxLength: 400 }),
      (steps) => {
        let now = 0;
        const dedup = new WebhookDedup({
          maxKeysPerSender: 8,
          maxSenders: 3,
          ttlSeconds: 2,
          now: () => now,
        });
        const live = new Map<string, number>();
        for (const [sender, k, dt] of steps) {
          now += dt;
          const id = `${sender}/${k}`;
          const claim = dedup.claim(`sender-${sender}`, key(k));
          const seen = live.get(id);
          if (seen !== undefined && seen > now && claim.status !== "duplicate") return false;
          if (claim.status === "new") {
            live.set(id, now + 2_000);
            dedup.acknowledge(`sender-${sender}`, key(k));
          }
          if (claim.status === "full" && !(claim.retryAfterSeconds >= 1)) return false;
          if (dedup.size > 24) return false;
        }
        return true;
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("WebhookDedup caps keys in total: senders under their own cap cannot grow it", () => {
  let now = 0;
  const dedup = new WebhookDedup({
    maxKeysPerSender: 10,
    maxSenders: 1_000,
    maxTotalKeys: 50,
    now: () => now,
  });
  strictEqual(dedup.claim("victim", key(0)).status, "new");
  dedup.acknowledge("victim", key(0));
  // 49 more keys from 7 colluding senders fill the total; none is over its own cap.
  for (let i = 1; i < 50; i++) strictEqual(dedup.claim(`s${i % 7}`, key(i)).status, "new");
  for (let i = 50; i < 5_000; i++) {
    deepStrictEqual(dedup.claim(`s${i % 500}`, key(i)), {
      status: "full",
      retryAfterSeconds: 86400,
    });
  }
  strictEqual(dedup.size, 50, "no growth past maxTotalKeys");
  strictEqual(dedup.claim("victim", key(0)).status, "duplicate", "nothing live was evicted");
  now = 86_400_000;
  strictEqual(dedup.claim("victim", key(1)).status, "new", "expiry frees the total");
  strictEqual(dedup.size, 1);
});

Deno.test("WebhookDedup.release() makes a failed delivery's retry new, keeping its expiry", () => {
  let now = 0;
  const dedup = new WebhookDedup({ ttlSeconds: 60, maxKeysPerSender: 1, now: () => now });
  strictEqual(dedup.release("s", key(1)), false, "nothing to release");
  strictEqual(dedup.claim("s", key(1), "f1").status, "new");
  strictEqual(dedup.release("other", key(1)), false, "another sender's claim is not touched");
  strictEqual(dedup.release("s", key(1)), true);
  strictEqual(dedup.release("s", key(1)), false, "released once");
  strictEqual(dedup.size, 1, "a released key keeps its slot");
  strictEqual(dedup.claim("s", key(2)).status, "full", "so releasing cannot be used to grow");
  now = 30_000;
  strictEqual(dedup.claim("s", key(1), "f2").status, "new", "the retry is processed");
  strictEqual(dedup.claim("s", key(1), "f3").status, "conflict", "bound to the retry's payload");
  now = 60_000;
  strictEqual(dedup.claim("s", key(1)).status, "new", "forgotten at the first claim's expiry");
});

Deno.test("WebhookDedup holds its clock when it steps back, and refuses a broken one", () => {
  let now = 10_000;
  const dedup = new WebhookDedup({ ttlSeconds: 10, now: () => now });
  strictEqual(dedup.claim("s", key(1)).status, "new");
  now = 0;
  strictEqual(dedup.claim("s", key(2)).status, "new");
  now = 20_000;
  strictEqual(dedup.claim("s", key(2)).status, "new", "expired 10 s after the held reading");
  strictEqual(dedup.size, 1);
  for (const reading of [Number.NaN, Infinity, "1" as never]) {
    const broken = new WebhookDedup({ now: () => reading });
    throws(() => broken.claim("s", key(1)), TypeError);
  }
});

Deno.test("WebhookDedup describes a bad key by its length, never its content", () => {
  const dedup = new WebhookDedup();
  throws(() => dedup.claim("s", "IGNORE ALL PREVIOUS INSTRUCTIONS"), (error: Error) => {
    strictEqual(error instanceof TypeError, true);
    strictEqual(error.message.includes("IGNORE"), false, error.message);
    return error.message.includes("32-character string");
  });
});

Deno.test("WebhookDedup stays O(1) per claim under a 200,000-key flood", () => {
  let now = 0;
  const dedup = new WebhookDedup({ ttlSeconds: 1, now: () => now });
  const started = performance.now();
  for (let i = 0; i < 200_000; i++) {
    now += 1; // each key lives 1,000 claims: the queue turns over 200 times
    dedup.claim(`s${i % 7}`, key(i));
  }
  strictEqual(dedup.size, 1_000);
  const elapsed = performance.now() - started;
  strictEqual(elapsed < 5_000, true, `${elapsed} ms`);
});

/** A reference model of the dedup rules, O(n) per step, to compare the class with. */
class ModelDedup {
  entries: {
    sender: string;
    key: string;
    expires: number;
    fp?: string;
    released: boolean;
    acknowledged: boolean;
  }[] = [];
  clock = -Infinity;
  constructor(
    readonly ttl: number,
    readonly perSender: number,
    readonly senders: number,
    readonly total: number,
  ) {}
  tick(now: number) {
    this.clock = Math.max(this.clock, now);
    this.entries = this.entries.filter((e) => e.expires > this.clock);
  }
  retry(expires: number | undefined) {
    return Math.max(1, Math.ceil(((expires ?? this.clock + 1000) - this.clock) / 1000));
  }
  claim(now: number, sender: string, key: string, fp?: string) {
    this.tick(now);
    const seen = this.entries.find((e) => e.sender === sender && e.key === key);
    if (seen !== undefined) {
      if (seen.released) {
        seen.released = false;
        if (fp === undefined) delete seen.fp;
        else seen.fp = fp;
        return { status: "new" };
      }
      if (seen.fp !== undefined && fp !== undefined && seen.fp !== fp) {
        return { status: "conflict" };
      }
      return seen.acknowledged ? { status: "duplicate" } : { status: "processing" };
    }
    const own = this.entries.filter((e) => e.sender === sender);
    const full = (expires: number | undefined) => ({
      status: "full",
      retryAfterSeconds: this.retry(expires),
    });
    if (own.length >= this.perSender) return full(own[0]?.expires);
    if (this.entries.length >= this.total) return full(this.entries[0]?.expires);
    const active = new Set(this.entries.map((e) => e.sender));
    if (!active.has(sender) && active.size >= this.senders) return full(this.entries[0]?.expires);
    this.entries.push({
      sender,
      key,
      expires: this.clock + this.ttl,
      ...(fp === undefined ? {} : { fp }),
      released: false,
      acknowledged: false,
    });
    return { status: "new" };
  }
  release(now: number, sender: string, key: string) {
    this.tick(now);
    const seen = this.entries.find((e) => e.sender === sender && e.key === key);
    if (seen === undefined || seen.released || seen.acknowledged) return false;
    seen.released = true;
    delete seen.fp;
    return true;
  }
  acknowledge(now: number, sender: string, key: string) {
    this.tick(now);
    const seen = this.entries.find((e) => e.sender === sender && e.key === key);
    if (seen === undefined || seen.released || seen.acknowledged) return false;
    seen.acknowledged = true;
    return true;
  }
}

Deno.test("WebhookDedup decides exactly as a reference model under random claims", () => {
  const step = fc.record({
    // Whole and half seconds hit expiry boundaries exactly; negative steps move the clock back.
    dt: fc.oneof(
      fc.constantFrom(0, 500, 1_000, 2_000),
      fc.nat(3_000),
      fc.integer({ min: -2_000, max: 0 }),
    ),
    sender: fc.nat(5),
    key: fc.nat(8), // few keys, so retries, releases and conflicts are frequent
    fp: fc.option(fc.constantFrom("a", "b"), { nil: undefined }),
    op: fc.constantFrom("claim", "claim", "release", "acknowledge"),
  });
  fc.assert(
    fc.property(
      fc.array(step, { maxLength: 300 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 20 }),
      (steps, ttlSeconds, maxKeysPerSender, maxSenders, maxTotalKeys) => {
        let now = 0;
        const options = { ttlSeconds, maxKeysPerSender, maxSenders, maxTotalKeys, now: () => now };
        const dedup = new WebhookDedup(options);
        const model = new ModelDedup(ttlSeconds * 1000, maxKeysPerSender, maxSenders, maxTotalKeys);
        for (const s of steps) {
          now += s.dt;
          const sender = `sender-${s.sender}`;
          if (s.op === "release") {
            strictEqual(dedup.release(sender, key(s.key)), model.release(now, sender, key(s.key)));
          } else if (s.op === "acknowledge") {
            strictEqual(
              dedup.acknowledge(sender, key(s.key)),
              model.acknowledge(now, sender, key(s.key)),
            );
          } else {
            deepStrictEqual(
              dedup.claim(sender, key(s.key), s.fp),
              model.claim(now, sender, key(s.key), s.fp),
            );
          }
          strictEqual(dedup.size, model.entries.length);
          strictEqual(dedup.size <= Math.min(maxTotalKeys, maxKeysPerSender * maxSenders), true);
        }
      },
    ),
    { numRuns: 400 },
  );
});
