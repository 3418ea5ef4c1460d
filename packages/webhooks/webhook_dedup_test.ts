import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { WebhookDedup } from "./webhook_dedup.ts";

const key = (n: number) => `whk_${String(n).padStart(16, "0")}`;

Deno.test("WebhookDedup answers full (429) to a flooding sender and keeps others' keys", () => {
  let now = 0;
  const dedup = new WebhookDedup({ maxKeysPerSender: 100, maxSenders: 3, now: () => now });
  strictEqual(dedup.claim("victim", key(1)).status, "new");
  for (let i = 0; i < 100; i++) strictEqual(dedup.claim("attacker", key(i)).status, "new");
  for (let i = 100; i < 10_000; i++) {
    deepStrictEqual(dedup.claim("attacker", key(i)), { status: "full", retryAfterSeconds: 86400 });
  }
  strictEqual(dedup.size, 101, "memory does not grow past the bound");
  strictEqual(dedup.claim("victim", key(1)).status, "duplicate", "the victim's key survives");
  now += 86_400_000;
  strictEqual(dedup.claim("attacker", key(100_000)).status, "new", "expired keys make room");
});

Deno.test("WebhookDedup bounds the number of senders and admits one when an idle one expired", () => {
  let now = 0;
  const dedup = new WebhookDedup({ maxSenders: 2, ttlSeconds: 10, now: () => now });
  strictEqual(dedup.claim("a", key(1)).status, "new");
  now = 5_000;
  strictEqual(dedup.claim("b", key(1)).status, "new");
  deepStrictEqual(dedup.claim("c", key(1)), { status: "full", retryAfterSeconds: 5 });
  now = 10_000;
  strictEqual(dedup.claim("c", key(1)).status, "new", "a's keys expired: a is dropped");
  strictEqual(dedup.claim("b", key(1)).status, "duplicate");
});

Deno.test("WebhookDedup forgets a key after its TTL and reports fingerprint conflicts", () => {
  let now = 0;
  const dedup = new WebhookDedup({ ttlSeconds: 60, now: () => now });
  strictEqual(dedup.claim("s", key(1), "f1").status, "new");
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
          if (claim.status === "new") live.set(id, now + 2_000);
          if (claim.status === "full" && !(claim.retryAfterSeconds >= 1)) return false;
          if (dedup.size > 24) return false;
        }
        return true;
      },
    ),
    { numRuns: 300 },
  );
});
