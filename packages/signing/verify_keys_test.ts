// Verifier checklist steps 7-9 and the key resolvers: a keyid the keys do not hold is key_unknown,
// a JWK of the wrong purpose or algorithm key_purpose_invalid, a revoked key or a stale list is
// refused before any crypto; a resolver's JwksError maps to the profile's code, its other errors
// propagate, and the verify signal reaches it and ends the verification.
import { ok, strictEqual } from "node:assert/strict";
import {
  codeOf,
  ED,
  failsWith,
  forge,
  NOW,
  OTHER_ED,
  P256,
  PROFILES,
  rejection,
  setParam,
  sign,
  verified,
  verify,
} from "./_test_verify.ts";
import { JwksError } from "./errors.ts";
import type { AdcpJwk, KeyResolver, ResolveKeyContext } from "./keys.ts";
import { InMemoryReplayStore } from "./replay.ts";
import { RevocationList, type RevocationSource } from "./revocation.ts";

for (const profile of PROFILES) {
  Deno.test(`${profile}: a keyid the keys do not hold is key_unknown`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_key_unknown");
    await failsWith(verify(profile, signed, { keys: [P256.jwk] }), code, 7);
    await failsWith(verify(profile, signed, { keys: [] }), code, 7);
    await failsWith(verify(profile, setParam(signed, "keyid", '"test-ed25519 "')), code, 7);
    await failsWith(verify(profile, setParam(signed, "keyid", '"TEST-ED25519"')), code, 7);
    await failsWith(verify(profile, setParam(signed, "keyid", '"__proto__"')), code, 7);
    // A kid published twice names no key.
    await failsWith(verify(profile, signed, { keys: [ED.jwk, OTHER_ED.jwk] }), code, 7);
  });

  Deno.test(`${profile}: a resolver answering another kid or a non-JWK: key_unknown`, async () => {
    const signed = await sign(profile);
    const answers: unknown[] = [{ ...ED.jwk, kid: "someone-else" }, "jwk", null, 42, []];
    for (const answer of answers) {
      const keys: KeyResolver = { resolve: () => Promise.resolve(answer as AdcpJwk) };
      await failsWith(
        verify(profile, signed, { keys }),
        codeOf(profile, "signature_key_unknown"),
        7,
      );
    }
  });

  Deno.test(`${profile}: a JWK of the wrong purpose is key_purpose_invalid`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_key_purpose_invalid");
    const { use: _use, key_ops: _ops, adcp_use: _adcp, ...bare } = ED.jwk;
    const bad: Record<string, AdcpJwk> = {
      "use enc": { ...ED.jwk, use: "enc" },
      "use absent": { ...bare, key_ops: ["verify"], adcp_use: "request-signing" },
      "key_ops sign": { ...ED.jwk, key_ops: ["sign"] },
      "key_ops empty": { ...ED.jwk, key_ops: [] },
      "key_ops absent": { ...bare, use: "sig", adcp_use: "request-signing" },
      "key_ops a string": { ...ED.jwk, key_ops: "verify" as unknown as string[] },
      "adcp_use absent": { ...bare, use: "sig", key_ops: ["verify"] },
      "adcp_use response-signing": { ...ED.jwk, adcp_use: "response-signing" },
      "adcp_use governance-signing": { ...ED.jwk, adcp_use: "governance-signing" },
      "adcp_use upper-case": { ...ED.jwk, adcp_use: "REQUEST-SIGNING" },
      "adcp_use an array": { ...ED.jwk, adcp_use: ["request-signing"] as unknown as string },
      "alg ES256 on an Ed25519 key": { ...ED.jwk, alg: "ES256" },
      "alg absent": Object.fromEntries(Object.entries(ED.jwk).filter(([k]) => k !== "alg")),
      "crv X25519": { ...ED.jwk, crv: "X25519" },
      "kty EC": { ...ED.jwk, kty: "EC" },
      "material that does not import": { ...ED.jwk, x: "AAAA" },
      "material not Base64URL": { ...ED.jwk, x: "+/+/" },
    };
    for (const [name, jwk] of Object.entries(bad)) {
      const error = await failsWith(verify(profile, signed, { keys: [jwk] }), code);
      strictEqual(error.step, 8, `${name}: ${error.message}`);
    }
  });

  Deno.test(`${profile}: a sig alg not matching the JWK is key_purpose_invalid`, async () => {
    // Signed with Ed25519, claiming ecdsa-p256-sha256 (and the reverse).
    const ed = await sign(profile);
    await failsWith(
      verify(profile, setParam(ed, "alg", '"ecdsa-p256-sha256"')),
      codeOf(profile, "signature_key_purpose_invalid"),
      8,
    );
    const ec = await sign(profile, undefined, undefined, { signWith: P256 });
    await failsWith(
      verify(profile, setParam(ec, "alg", '"ed25519"')),
      codeOf(profile, "signature_key_purpose_invalid"),
      8,
    );
    // A P-256 JWK published as P-384.
    await failsWith(
      verify(profile, ec, { keys: [{ ...P256.jwk, crv: "P-384" }] }),
      codeOf(profile, "signature_key_purpose_invalid"),
      8,
    );
  });

  Deno.test(`${profile}: a revoked keyid is key_revoked, before the crypto check`, async () => {
    const revocation = new RevocationList();
    revocation.update({
      updated: new Date((NOW - 60) * 1000).toISOString(),
      next_update: new Date((NOW + 840) * 1000).toISOString(),
      revoked_kids: [ED.kid],
    });
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_key_revoked");
    await failsWith(verify(profile, signed, { revocation }), code, 9);
    // A forged signature is refused as revoked too (step 9 runs before step 10).
    await failsWith(verify(profile, forge(profile, signed), { revocation }), code, 9);
    // Other keys are fine on the same list.
    await verified(profile, await sign(profile, undefined, undefined, { signWith: P256 }), {
      revocation,
    });
  });

  Deno.test(`${profile}: a stale or never-loaded revocation list is revocation_stale`, async () => {
    const signed = await sign(profile);
    const code = codeOf(profile, "signature_revocation_stale");
    await failsWith(verify(profile, signed, { revocation: new RevocationList() }), code, 9);
    const old = new RevocationList();
    old.update({
      updated: new Date((NOW - 10_000) * 1000).toISOString(),
      next_update: new Date((NOW - 9_100) * 1000).toISOString(), // stale after NOW - 5500
      revoked_kids: [],
    });
    await failsWith(verify(profile, signed, { revocation: old }), code, 9);
    // A source answering anything but "valid" or "revoked" fails closed.
    const odd: RevocationSource = { status: () => "unknown" as "valid" };
    await failsWith(verify(profile, signed, { revocation: odd }), code, 9);
    // Async sources are awaited.
    const fresh: RevocationSource = { status: () => Promise.resolve("valid" as const) };
    await verified(profile, signed, { revocation: fresh });
  });
}

for (const profile of PROFILES) {
  Deno.test(`${profile}: a resolver's JwksError is jwks_unavailable / jwks_untrusted`, async () => {
    const signed = await sign(profile);
    for (const reason of ["unavailable", "untrusted"] as const) {
      const cause = new JwksError(reason, "test");
      const keys: KeyResolver = { resolve: () => Promise.reject(cause) };
      const error = await failsWith(
        verify(profile, signed, { keys }),
        codeOf(profile, `signature_jwks_${reason}`),
        7,
      );
      strictEqual(error.cause, cause);
    }
  });

  Deno.test(`${profile}: a resolver's other errors propagate, burning no nonce`, async () => {
    const signed = await sign(profile);
    const boom = new Error("resolver bug");
    const replay = new InMemoryReplayStore();
    const keys: KeyResolver = { resolve: () => Promise.reject(boom) };
    strictEqual(await rejection(verify(profile, signed, { keys, replay })), boom);
    strictEqual(replay.stats(NOW).entries, 0);
  });
}

Deno.test("the verify signal reaches the resolver, which may abort with it", async () => {
  for (const profile of PROFILES) {
    const signed = await sign(profile);
    let received: AbortSignal | undefined;
    const keys: KeyResolver = {
      resolve(_keyid: string, context?: ResolveKeyContext) {
        received = context?.signal;
        return new Promise((_, reject) => {
          const signal = context?.signal;
          if (signal === undefined) return reject(new Error("no signal"));
          if (signal.aborted) return reject(signal.reason);
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      },
    };
    const controller = new AbortController();
    const pending = verify(profile, signed, { keys }, { signal: controller.signal });
    await Promise.resolve();
    controller.abort(new DOMException("stop", "AbortError"));
    const error = await rejection(pending);
    ok(error instanceof DOMException && error.name === "AbortError", `${error}`);
    strictEqual(received, controller.signal);
  }
});

Deno.test({
  name: "an aborted signal ends verification even when the resolver ignores it",
  async fn() {
    const signed = await sign("3.2");
    const keys: KeyResolver = { resolve: () => new Promise(() => {}) };
    const controller = new AbortController();
    const pending = verify("3.2", signed, { keys }, { signal: controller.signal });
    controller.abort();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve("hung"), 1_000);
    });
    try {
      const outcome = await Promise.race([
        pending.then(() => "resolved", () => "rejected"),
        timeout,
      ]);
      strictEqual(outcome, "rejected");
    } finally {
      clearTimeout(timer);
    }
  },
});
