import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import {
  JwksResolver,
  resolveAgentJwksUri,
  StaticKeyResolver,
  WebhookSigner,
  WebhookVerifier,
} from "@adcp-wire/signing";
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

Deno.test("WebhookDedup admits a new sender while the reserved half has room", () => {
  let now = 0;
  // 10 keys: 5 reserved (one per group), 5 shared.
  const dedup = new WebhookDedup({
    maxSenders: 5,
    maxTotalKeys: 10,
    ttlSeconds: 10,
    now: () => now,
  });
  strictEqual(dedup.guaranteedKeysPerGroup, 1);
  for (let i = 0; i < 6; i++) strictEqual(dedup.claim("a", key(i)).status, "new");
  deepStrictEqual(dedup.claim("a", key(6)), { status: "full", retryAfterSeconds: 10 });
  now = 5_000;
  for (const sender of ["b", "c", "d", "e"]) {
    strictEqual(dedup.claim(sender, key(1)).status, "new", "each group gets its guaranteed key");
  }
  deepStrictEqual(dedup.claim("f", key(1)), { status: "full", retryAfterSeconds: 5 });
  strictEqual(dedup.size, 10);
  now = 10_000;
  strictEqual(dedup.claim("f", key(1)).status, "new", "a's keys expired: room again");
  strictEqual(dedup.claim("b", key(1)).status, "processing");
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
  throws(() => dedup.claim("s", key(1), "x".repeat(257)), TypeError);
  strictEqual(dedup.claim("s", key(1), "x".repeat(256)).status, "new");
  throws(() => dedup.claim("s".repeat(2049), key(1)), TypeError);
  throws(() => new WebhookDedup({ groupOf: "origin" as never }), TypeError);
  throws(() => new WebhookDedup({ groupOf: () => "" }).claim("s", key(1)), TypeError);
  throws(() => new WebhookDedup({ groupOf: () => 1 as never }).claim("s", key(1)), TypeError);
  throws(() => new WebhookDedup({ maxKeysPerSender: 0 }), RangeError);
  throws(() => new WebhookDedup({ maxSenders: 1.5 }), RangeError);
  throws(() => new WebhookDedup({ ttlSeconds: "60" as never }), {
    name: "TypeError",
    message: "Cannot create a webhook dedup as 'options.ttlSeconds' must be an integer from 1 to " +
      '31536000: current value is "60"',
  });
  throws(() => new WebhookDedup({ maxTotalKeys: 100_000_001 }), {
    name: "RangeError",
    message: "Cannot create a webhook dedup as 'options.maxTotalKeys' must be an integer from 1 " +
      "to 100000000: current value is 100000001",
  });
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
          if (dedup.size > 6 * 8) return false;
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
    maxSenders: 25,
    maxTotalKeys: 50, // 25 reserved (one per group), 25 shared
    now: () => now,
  });
  strictEqual(dedup.claim("victim", key(0)).status, "new");
  dedup.acknowledge("victim", key(0));
  // 7 colluding senders fill the shared half; none is over its own cap.
  for (let i = 1; i <= 32; i++) strictEqual(dedup.claim(`s${i % 7}`, key(i)).status, "new");
  strictEqual(dedup.size, 33);
  // The shared half is full: the 7 are refused, fresh senders still get their guaranteed key.
  for (let i = 33; i < 5_000; i++) {
    deepStrictEqual(dedup.claim(`s${i % 7}`, key(i)), {
      status: "full",
      retryAfterSeconds: 86400,
    });
  }
  for (let i = 0; i < 17; i++) strictEqual(dedup.claim(`fresh${i}`, key(1)).status, "new");
  strictEqual(dedup.size, 50, "no growth past maxTotalKeys");
  deepStrictEqual(dedup.claim("late", key(1)), { status: "full", retryAfterSeconds: 86400 });
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
  strictEqual(dedup.claim("s", key(1), "f1").status, "new", "the retry is processed");
  strictEqual(dedup.claim("s", key(1), "f3").status, "conflict", "bound to the first payload");
  now = 60_000;
  strictEqual(
    dedup.claim("s", key(1), "f3").status,
    "new",
    "forgotten at the first claim's expiry",
  );
});

Deno.test("WebhookDedup keeps a released key bound to its first payload (409, no dispatch)", () => {
  let now = 0;
  const dedup = new WebhookDedup({ ttlSeconds: 60, now: () => now });
  strictEqual(dedup.claim("s", key(1), "first").status, "new");
  strictEqual(dedup.release("s", key(1)), true, "the dispatch failed");
  strictEqual(dedup.claim("s", key(1), "changed").status, "conflict", "a changed payload is 409");
  strictEqual(dedup.claim("s", key(1), "changed").status, "conflict", "and stays 409");
  strictEqual(dedup.acknowledge("s", key(1)), false, "a conflict claimed nothing");
  strictEqual(dedup.claim("s", key(1), "first").status, "new", "the first payload's retry runs");
  strictEqual(dedup.claim("s", key(1), "changed").status, "conflict");
  strictEqual(dedup.claim("s", key(1), "first").status, "processing");
  strictEqual(dedup.release("s", key(1)), true, "failed again");
  now = 59_999;
  strictEqual(dedup.claim("s", key(1), "changed").status, "conflict", "retries do not rebind");
  strictEqual(dedup.claim("s", key(1), "first").status, "new");
  strictEqual(dedup.acknowledge("s", key(1)), true);
  strictEqual(dedup.release("s", key(1)), false, "an acknowledged key is not released");
  strictEqual(dedup.claim("s", key(1), "changed").status, "conflict");
  strictEqual(dedup.claim("s", key(1), "first").status, "duplicate");
  now = 60_000; // 60 s after the first claim: retries did not extend the window
  strictEqual(dedup.claim("s", key(1), "changed").status, "new", "a new window, a new binding");
  strictEqual(dedup.claim("s", key(1), "first").status, "conflict");
});

Deno.test("WebhookDedup binds a key claimed without a fingerprint to the first one given", () => {
  const dedup = new WebhookDedup();
  strictEqual(dedup.claim("s", key(1)).status, "new");
  strictEqual(dedup.claim("s", key(1), "f1").status, "processing", "binds f1");
  strictEqual(dedup.claim("s", key(1), "f2").status, "conflict");
  strictEqual(dedup.claim("s", key(1)).status, "processing", "no fingerprint: not checked");
  strictEqual(dedup.release("s", key(1)), true);
  strictEqual(dedup.claim("s", key(1), "f2").status, "conflict", "the release kept the binding");
  strictEqual(dedup.claim("s", key(1), "f1").status, "new");
  // Released before any fingerprint: the retry's fingerprint binds.
  strictEqual(dedup.claim("s", key(2)).status, "new");
  strictEqual(dedup.release("s", key(2)), true);
  strictEqual(dedup.claim("s", key(2), "g1").status, "new");
  strictEqual(dedup.claim("s", key(2), "g2").status, "conflict");
  // A conflict on another sender's key space is impossible: keyspaces are independent.
  strictEqual(dedup.claim("t", key(1), "f2").status, "new");
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

Deno.test("WebhookDedup: 1,000 hostile identities flooding cannot make a fresh sender full", () => {
  for (const spread of ["one origin", "an origin each"] as const) {
    const dedup = new WebhookDedup(); // the defaults: 1,000,000 keys, 100 guaranteed per group
    const hostile = (i: number) =>
      spread === "one origin"
        ? `https://hostile.example/agents/${i}` // 1,000 agents[] of one brand.json
        : `https://agent-${i}.hostile.example/mcp`; // 1,000 origins
    let claims = 0;
    for (let i = 0; i < 1_000; i++) {
      // Each identity floods fresh keys until refused, then keeps trying.
      for (let n = 0;; n++) {
        claims++;
        if (dedup.claim(hostile(i), key(n)).status === "full") break;
      }
      for (let n = 0; n < 10; n++) {
        strictEqual(dedup.claim(hostile(i), key(1e9 + n)).status, "full");
      }
    }
    ok(claims > 10_000);
    ok(dedup.size <= 1_000_000, `${dedup.size} keys`);
    // The hostile party holds at most the shared half plus 100 keys per group it spans.
    ok(dedup.size <= 500_000 + 100 * (spread === "one origin" ? 1 : 1_000), `${dedup.size}`);
    for (
      const honest of ["https://honest.example/mcp", "https://other.example/a2a", "legacy-hmac-7"]
    ) {
      for (let n = 0; n < 100; n++) {
        strictEqual(dedup.claim(honest, key(n)).status, "new", `${spread}: ${honest} key ${n}`);
      }
    }
  }
});

Deno.test("WebhookDedup: one sender's identities on one origin share its budget", () => {
  const dedup = new WebhookDedup({ maxTotalKeys: 1_000, maxSenders: 10, maxKeysPerSender: 300 });
  strictEqual(dedup.guaranteedKeysPerGroup, 50);
  // 50 guaranteed, then at most 300 shared for the whole origin, however many agents it lists.
  let admitted = 0;
  for (let agent = 0; agent < 100; agent++) {
    for (let n = 0; n < 10; n++) {
      if (dedup.claim(`https://hostile.example/agent-${agent}`, key(n)).status === "new") {
        admitted++;
      }
    }
  }
  strictEqual(admitted, 350);
  // groupOf: "return the sender" gives each identity its own share instead.
  const separate = new WebhookDedup({
    maxTotalKeys: 1_000,
    maxSenders: 10,
    groupOf: (sender) => sender,
  });
  for (let agent = 0; agent < 20; agent++) {
    strictEqual(separate.claim(`https://platform.example/t${agent}`, key(1)).status, "new");
  }
  strictEqual(separate.size, 20);
});

Deno.test("WebhookDedup groups senders by origin, and by groupOf when given", () => {
  const seen: string[] = [];
  const dedup = new WebhookDedup({
    maxTotalKeys: 4,
    maxSenders: 2, // 1 key guaranteed per group, 2 shared
    maxKeysPerSender: 1,
    groupOf: (sender) => {
      seen.push(sender);
      return sender.split(".").slice(-2).join("."); // a registrable-domain stand-in
    },
  });
  strictEqual(dedup.claim("https://a.one.example", key(1)).status, "new");
  strictEqual(dedup.claim("https://b.one.example", key(1)).status, "new"); // shared
  strictEqual(dedup.claim("https://c.one.example", key(1)).status, "full", "one.example's share");
  strictEqual(dedup.claim("https://a.two.example", key(1)).status, "new", "two.example's own");
  deepStrictEqual(seen, [
    "https://a.one.example",
    "https://b.one.example",
    "https://c.one.example",
    "https://a.two.example",
  ]);
  strictEqual(dedup.claim("https://a.one.example", key(1)).status, "processing");
  strictEqual(seen.length, 4, "a sender holding keys keeps its group");
});

/** The default grouping: the origin of an http(s) URL identity, else the identity. */
function originOf(sender: string): string {
  if (!/^https?:\/\//i.test(sender)) return sender;
  try {
    const origin = new URL(sender).origin;
    return origin === "null" ? sender : origin;
  } catch {
    return sender;
  }
}

/** A reference model of the dedup rules, O(n) per step, to compare the class with. */
class ModelDedup {
  entries: {
    sender: string;
    group: string;
    key: string;
    expires: number;
    fp?: string;
    released: boolean;
    acknowledged: boolean;
    reserved: boolean;
  }[] = [];
  clock = -Infinity;
  readonly guaranteed: number;
  readonly reservedCap: number;
  readonly sharedCap: number;
  constructor(
    readonly ttl: number,
    readonly perSender: number,
    groups: number,
    total: number,
    readonly groupOf: (sender: string) => string = originOf,
  ) {
    this.guaranteed = Math.max(1, Math.floor(total / 2 / groups));
    this.reservedCap = Math.min(this.guaranteed * groups, Math.floor(total / 2));
    this.sharedCap = total - this.reservedCap;
  }
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
      if (fp !== undefined) {
        if (seen.fp === undefined) seen.fp = fp;
        else if (seen.fp !== fp) return { status: "conflict" };
      }
      if (seen.released) {
        seen.released = false;
        return { status: "new" };
      }
      return seen.acknowledged ? { status: "duplicate" } : { status: "processing" };
    }
    const full = (expires: number | undefined) => ({
      status: "full",
      retryAfterSeconds: this.retry(expires),
    });
    const own = this.entries.filter((e) => e.sender === sender);
    if (own.length >= this.perSender) return full(own[0]?.expires);
    const group = own[0]?.group ?? this.groupOf(sender);
    const mates = this.entries.filter((e) => e.group === group);
    const reservedUsed = this.entries.filter((e) => e.reserved).length;
    let reserved: boolean;
    if (mates.length < this.guaranteed && reservedUsed < this.reservedCap) reserved = true;
    else if (mates.filter((e) => !e.reserved).length >= this.perSender) {
      return full(mates[0]?.expires);
    } else if (this.entries.length - reservedUsed < this.sharedCap) reserved = false;
    else return full(this.entries[0]?.expires);
    this.entries.push({
      sender,
      group,
      key,
      expires: this.clock + this.ttl,
      ...(fp === undefined ? {} : { fp }),
      released: false,
      acknowledged: false,
      reserved,
    });
    return { status: "new" };
  }
  release(now: number, sender: string, key: string) {
    this.tick(now);
    const seen = this.entries.find((e) => e.sender === sender && e.key === key);
    if (seen === undefined || seen.released || seen.acknowledged) return false;
    seen.released = true;
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

/** Senders over three origins (two agents on one), a bare identity, and a malformed URL. */
const SENDERS = [
  "https://a.example/agent-1",
  "https://a.example/agent-2",
  "https://b.example/mcp",
  "https://c.example:8443/x",
  "legacy-secret-binding",
  "https://[bad",
];

Deno.test("WebhookDedup decides exactly as a reference model under random claims", () => {
  const step = fc.record({
    // Mostly no time at all, so the caps fill; whole and half seconds hit expiry boundaries
    // exactly; negative steps move the clock back.
    dt: fc.oneof(
      fc.constant(0),
      fc.constantFrom(0, 100, 500, 1_000, 2_000),
      fc.nat(3_000),
      fc.integer({ min: -2_000, max: 0 }),
    ),
    sender: fc.nat(SENDERS.length - 1),
    key: fc.nat(11), // few keys, so retries, releases and conflicts are frequent
    fp: fc.option(fc.constantFrom("a", "b"), { nil: undefined }),
    op: fc.constantFrom("claim", "claim", "release", "acknowledge"),
  });
  fc.assert(
    fc.property(
      fc.array(step, { minLength: 20, maxLength: 300 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 30 }),
      fc.boolean(),
      (steps, ttlSeconds, maxKeysPerSender, maxSenders, maxTotalKeys, ownGroups) => {
        let now = 0;
        const groupOf = ownGroups ? (sender: string) => sender : undefined;
        const options = {
          ttlSeconds,
          maxKeysPerSender,
          maxSenders,
          maxTotalKeys,
          now: () => now,
          ...(groupOf === undefined ? {} : { groupOf }),
        };
        const dedup = new WebhookDedup(options);
        const model = new ModelDedup(
          ttlSeconds * 1000,
          maxKeysPerSender,
          maxSenders,
          maxTotalKeys,
          groupOf,
        );
        strictEqual(dedup.guaranteedKeysPerGroup, model.guaranteed);
        for (const s of steps) {
          now += s.dt;
          const sender = SENDERS[s.sender]!;
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
          strictEqual(dedup.size <= maxTotalKeys, true);
        }
      },
    ),
    { numRuns: 400 },
  );
});

/** A fresh Ed25519 webhook key under `kid`: its signer and its published JWK. */
async function sellerKey(kid: string) {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwk = {
    ...await crypto.subtle.exportKey("jwk", pair.publicKey),
    kid,
    alg: "EdDSA",
    use: "sig",
    key_ops: ["verify"],
    adcp_use: "request-signing",
  };
  return { signer: new WebhookSigner({ key: pair.privateKey, keyid: kid, alg: "ed25519" }), jwk };
}

/** A signed webhook delivery carrying `idempotencyKey`. */
function delivery(signer: WebhookSigner, idempotencyKey: string): Promise<Request> {
  return signer.signRequest(
    new Request("https://buyer.example/hooks/adcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ idempotency_key: idempotencyKey, task_id: "t1", status: "working" }),
    }),
  );
}

Deno.test(
  "WebhookDedup keyed on the verified signer: a seller signing under 1,000 keyids is one sender",
  async () => {
    // The hostile seller holds 1,000 keys (the JWKS key cap; a fixed set here, as the 64 KiB
    // JWKS body cap holds about 400 Ed25519 keys) and signs one webhook under each.
    const hostileKeys = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => sellerKey(`hostile-${i}`)),
    );
    const honestKey = await sellerKey("honest-1");
    const documents: Record<string, unknown> = {
      "https://honest.example/.well-known/brand.json": {
        agents: [{ type: "sales", url: "https://honest.example/mcp" }],
      },
      "https://honest.example/.well-known/jwks.json": { keys: [honestKey.jwk] },
    };
    const fetch = (input: string | URL | Request) =>
      Promise.resolve(Response.json(documents[String(input)] ?? {}, {
        status: String(input) in documents ? 200 : 404,
      }));
    const hostile = new WebhookVerifier({
      keys: new StaticKeyResolver(hostileKeys.map((k) => k.jwk), {
        agentUrl: "https://hostile.example/mcp",
      }),
      revocation: null,
    });
    const location = await resolveAgentJwksUri("https://honest.example/mcp", { fetch });
    const honest = new WebhookVerifier({
      keys: JwksResolver.forAgent(location, { fetch }),
      revocation: null,
    });
    // The defaults, save a total small enough to fill: 1,000 keys, 5 guaranteed per group.
    const dedup = new WebhookDedup({ maxTotalKeys: 1_000, maxSenders: 100 });
    const senders = new Set<string>();
    for (let i = 0; i < 1_000; i++) {
      const { signer } = await hostile.verify(await delivery(hostileKeys[i]!.signer, key(i)));
      senders.add(signer.senderId);
      dedup.claim(signer.senderId, key(i)); // the sender verification established
    }
    deepStrictEqual([...senders], ["https://hostile.example/mcp"]);
    ok(dedup.size <= 505, `${dedup.size}: one group's guarantee and the shared half`);
    const { signer } = await honest.verify(await delivery(honestKey.signer, key(0)));
    strictEqual(signer.agentUrl, "https://honest.example/mcp");
    strictEqual(dedup.claim(signer.senderId, key(0)).status, "new");
  },
);
