// Verifier checklist step 5: a signature is accepted only inside its validity window (at most
// 300 s, 60 s of clock skew at either edge), read against the verifier's clock, fractional or not;
// a clock that answers no number never opens the window.
import { ok } from "node:assert/strict";
import {
  codeOf,
  failsWith,
  makeVerifier,
  NOW,
  PROFILES,
  rejection,
  setParam,
  sign,
  verified,
  verify,
} from "./_test_verify.ts";
import { SignatureVerificationError } from "./errors.ts";

for (const profile of PROFILES) {
  Deno.test(`${profile}: created = now + 60 is accepted, now + 61 is window_invalid`, async () => {
    await verified(profile, await sign(profile, undefined, { created: NOW + 60 }));
    await failsWith(
      verify(profile, await sign(profile, undefined, { created: NOW + 61 })),
      codeOf(profile, "signature_window_invalid"),
      5,
    );
  });

  Deno.test(`${profile}: expires = now - 60 is accepted, now - 61 is window_invalid`, async () => {
    await verified(
      profile,
      await sign(profile, undefined, { created: NOW - 360, expires: NOW - 60 }),
    );
    await failsWith(
      verify(profile, await sign(profile, undefined, { created: NOW - 361, expires: NOW - 61 })),
      codeOf(profile, "signature_window_invalid"),
      5,
    );
  });

  Deno.test(`${profile}: expires - created = 300 is accepted, 301 is window_invalid`, async () => {
    await verified(
      profile,
      await sign(profile, undefined, { created: NOW - 100, expires: NOW + 200 }),
    );
    await failsWith(
      verify(profile, await sign(profile, undefined, { created: NOW - 100, expires: NOW + 201 })),
      codeOf(profile, "signature_window_invalid"),
      5,
    );
  });

  Deno.test(`${profile}: expires <= created is window_invalid`, async () => {
    const signed = await sign(profile);
    for (const expires of [NOW, NOW - 1, 0, -1]) {
      await failsWith(
        verify(profile, setParam(signed, "expires", String(expires))),
        codeOf(profile, "signature_window_invalid"),
        5,
      );
    }
  });

  Deno.test(`${profile}: the window is read against a fractional clock`, async () => {
    // now = NOW + 0.5 s: created = NOW + 60 is within 60 s, NOW + 61 is not.
    const now = () => NOW * 1000 + 500;
    await verified(profile, await sign(profile, undefined, { created: NOW + 60 }), { now });
    await failsWith(
      verify(profile, await sign(profile, undefined, { created: NOW + 61 }), { now }),
      codeOf(profile, "signature_window_invalid"),
      5,
    );
  });

  Deno.test(`${profile}: huge and negative timestamps are window_invalid`, async () => {
    const signed = await sign(profile);
    for (
      const [created, expires] of [
        ["999999999999999", "999999999999999"],
        ["-999999999999999", String(NOW)],
        [String(NOW - 1), "999999999999999"],
        ["0", "300"],
      ]
    ) {
      const parts = setParam(setParam(signed, "created", created!), "expires", expires!);
      await failsWith(verify(profile, parts), codeOf(profile, "signature_window_invalid"), 5);
    }
  });
}

Deno.test({
  name: "a clock that answers NaN or a non-number never opens the window or the replay cache",
  async fn() {
    const expired = await sign("3.2", undefined, { created: NOW - 100_000, expires: NOW - 99_800 });
    for (const now of [() => NaN, () => undefined as unknown as number, () => "soon" as never]) {
      const verifier = makeVerifier("3.2", { now });
      const error = await rejection(verifier.verify(expired));
      ok(
        error instanceof TypeError || error instanceof RangeError ||
          (error instanceof SignatureVerificationError &&
            error.code === "request_signature_window_invalid"),
        `${error}`,
      );
    }
  },
});
