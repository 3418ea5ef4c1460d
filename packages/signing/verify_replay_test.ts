// Verifier checklist steps 9a, 12 and 13: a verified (keyid, nonce) is never accepted again, even
// at the window's edge, and a keyid, a signer or a store at its cap is rate_abuse before any
// crypto.
import { strictEqual } from "node:assert/strict";
import {
  AGENT,
  codeOf,
  failsWith,
  forge,
  KEYS,
  makeVerifier,
  NOW,
  P256,
  PROFILES,
  sign,
  verified,
  verify,
} from "./_test_verify.ts";
import { InMemoryReplayStore } from "./replay.ts";

for (const profile of PROFILES) {
  Deno.test(`${profile}: a keyid at its replay cap is rate_abuse, before crypto`, async () => {
    const replay = new InMemoryReplayStore({ maxEntriesPerKeyid: 1 });
    await verified(profile, await sign(profile), { replay });
    const code = codeOf(profile, "signature_rate_abuse");
    await failsWith(verify(profile, await sign(profile), { replay }), code, "9a");
    // A forged signature is refused by the cap too, and costs no verification.
    await failsWith(verify(profile, forge(profile, await sign(profile)), { replay }), code, "9a");
    // Another key is not capped.
    await verified(profile, await sign(profile, undefined, undefined, { signWith: P256 }), {
      replay,
    });
    strictEqual(replay.stats(NOW).entries, 2);
  });

  Deno.test(`${profile}: a full store is rate_abuse for every keyid`, async () => {
    const replay = new InMemoryReplayStore({ maxEntries: 1 });
    await verified(profile, await sign(profile), { replay });
    await failsWith(
      verify(profile, await sign(profile, undefined, undefined, { signWith: P256 }), { replay }),
      codeOf(profile, "signature_rate_abuse"),
      "9a",
    );
  });

  Deno.test(`${profile}: the same signed message twice is signature_replayed`, async () => {
    const signed = await sign(profile);
    const verifier = makeVerifier(profile);
    await verifier.verify(signed);
    await failsWith(verifier.verify(signed), codeOf(profile, "signature_replayed"), 12);
    await failsWith(verifier.verify(signed), codeOf(profile, "signature_replayed"), 12);
  });

  Deno.test(`${profile}: the replay budget is the signer's, across its keyids`, async () => {
    // One seller signing under many keyids gets one budget; another seller's is untouched.
    const replay = new InMemoryReplayStore({ maxEntriesPerKeyid: 5, maxEntriesPerSigner: 2 });
    const env = { replay, keys: KEYS.map((k) => k.jwk), agentUrl: AGENT };
    await verified(profile, await sign(profile), env);
    await verified(profile, await sign(profile, undefined, undefined, { signWith: P256 }), env);
    await failsWith(
      verify(profile, await sign(profile), env),
      codeOf(profile, "signature_rate_abuse"),
      "9a",
    );
    // The same kids published by another seller are that seller's keys: not capped.
    await verified(profile, await sign(profile), { ...env, agentUrl: "https://other.example/a" });
    strictEqual(replay.stats(NOW).entries, 3);
  });
}

Deno.test({
  name: "a signature at the window's edge (expires = now - 60) is not accepted twice",
  async fn() {
    for (const profile of PROFILES) {
      const signed = await sign(profile, undefined, { created: NOW - 360, expires: NOW - 60 });
      const verifier = makeVerifier(profile);
      await verifier.verify(signed);
      await failsWith(verifier.verify(signed), codeOf(profile, "signature_replayed"), 12);
    }
  },
});
