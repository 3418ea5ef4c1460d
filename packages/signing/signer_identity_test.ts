// The verified signer identity (security.mdx, "Agent identity"; webhooks.mdx, "Dedup by
// idempotency_key"): signer.agentUrl and senderId come from the verifier's configuration or its key
// source, never from the keyid.
import { ok, strictEqual, throws } from "node:assert/strict";
import {
  AGENT,
  ED,
  KEYS,
  makeVerifier,
  NOW,
  P256,
  PROFILES,
  rejectsOption,
  sign,
  verified,
  verify,
} from "./_test_verify.ts";
import type { KeyResolver } from "./keys.ts";
import { JwksResolver, StaticKeyResolver } from "./jwks.ts";
import { InMemoryReplayStore } from "./replay.ts";

for (const profile of PROFILES) {
  Deno.test(`${profile}: signer.agentUrl and senderId come from the configuration`, async () => {
    const jwks = KEYS.map((k) => k.jwk);
    const viaOption = await verified(profile, await sign(profile), { keys: jwks, agentUrl: AGENT });
    strictEqual(viaOption.signer!.agentUrl, AGENT);
    strictEqual(viaOption.signer!.senderId, AGENT);
    const pinned = new StaticKeyResolver(jwks, { agentUrl: AGENT });
    const viaResolver = await verified(profile, await sign(profile), { keys: pinned });
    strictEqual(viaResolver.signer!.agentUrl, AGENT);
    strictEqual(viaResolver.signer!.senderId, AGENT);
    // Both given: they must agree.
    makeVerifier(profile, { keys: pinned, agentUrl: AGENT });
    throws(() => makeVerifier(profile, { keys: pinned, agentUrl: `${AGENT}/` }), RangeError);
    for (const bad of ["", "seller.example", "ftp://seller.example/", "x".repeat(2049)]) {
      throws(() => makeVerifier(profile, { agentUrl: bad }), TypeError);
      throws(() => new StaticKeyResolver([], { agentUrl: bad }), TypeError);
    }
  });

  Deno.test(`${profile}: every keyid of one key source is one sender`, async () => {
    // A key set that names no agent is one sender: a digest of its public key material.
    const first = await verified(profile, await sign(profile));
    const second = await verified(
      profile,
      await sign(profile, undefined, undefined, { signWith: P256 }),
    );
    strictEqual(first.signer!.agentUrl, undefined);
    ok(/^keys:sha-256:[A-Za-z0-9_-]{43}$/.test(first.signer!.senderId), first.signer!.senderId);
    strictEqual(second.signer!.senderId, first.signer!.senderId, "two keyids, one sender");
    const reordered = await verified(profile, await sign(profile), {
      keys: { keys: [P256.jwk, ED.jwk] },
    });
    strictEqual(reordered.signer!.senderId, first.signer!.senderId, "the set, not its order");
    const other = await verified(profile, await sign(profile), { keys: [ED.jwk] });
    ok(other.signer!.senderId !== first.signer!.senderId, "another set, another sender");
    // A JwksResolver that names no agent is its JWKS URL.
    const jwksUri = "https://keys.seller.example/.well-known/jwks.json";
    const fetch = () => Promise.resolve(Response.json({ keys: KEYS.map((k) => k.jwk) }));
    const viaJwks = await verified(profile, await sign(profile), {
      keys: new JwksResolver(jwksUri, { fetch }),
    });
    strictEqual(viaJwks.signer!.agentUrl, undefined);
    strictEqual(viaJwks.signer!.senderId, `jwks:${jwksUri}`);
    const named = await verified(profile, await sign(profile), {
      keys: new JwksResolver(jwksUri, { fetch, agentUrl: AGENT }),
    });
    strictEqual(named.signer!.senderId, AGENT);
  });

  Deno.test(`${profile}: a custom resolver naming no agent needs the agentUrl option`, async () => {
    const inner = new StaticKeyResolver(KEYS.map((k) => k.jwk));
    const keys: KeyResolver = { resolve: (keyid) => inner.resolve(keyid) };
    const replay = new InMemoryReplayStore();
    await rejectsOption(
      verify(profile, await sign(profile), { keys, replay }),
      TypeError,
      `Cannot verify the ${profile === "webhook" ? "webhook" : "request"} as 'agentUrl' must be ` +
        "the agents[] entry URL of a key source that names no agent (a KeyResolver without " +
        "agentUrl or jwksUri): current value is undefined",
    );
    strictEqual(replay.stats(NOW).entries, 0, "refused before the nonce is burned");
    const ok2 = await verified(profile, await sign(profile), { keys, agentUrl: AGENT });
    strictEqual(ok2.signer!.senderId, AGENT);
  });
}
