import { strictEqual } from "node:assert/strict";
import fc from "fast-check";
import { MAX_WWW_AUTHENTICATE_LENGTH, signatureChallengeError } from "./_www_authenticate.ts";

const CODE = "request_signature_key_unknown";

Deno.test("signatureChallengeError() reads the Signature challenge's error parameter", () => {
  const cases: [string | null, string | undefined][] = [
    [`Signature error="${CODE}"`, CODE],
    [`signature ERROR=${CODE}`, CODE],
    [`Signature  error = "${CODE}" , realm="x"`, CODE],
    [`Bearer realm="api", Signature error="${CODE}"`, CODE],
    [`Bearer abc/def+ghi==, Signature error="${CODE}"`, CODE],
    [
      `Signature realm="a\\"b", error="req\\uest_signature_key_unknown"`,
      "request_signature_key_unknown",
    ],
    // Another scheme's error is not the signature's.
    [`Bearer error="${CODE}"`, undefined],
    [`Signature realm="x", Bearer error="${CODE}"`, undefined],
    // Twice with different values is ambiguous; twice the same is that value.
    [`Signature error="${CODE}", error="request_signature_invalid"`, undefined],
    [`Signature error="${CODE}", Signature error="${CODE}"`, CODE],
    // Malformed: nothing is taken.
    [`Signature error="${CODE}`, undefined],
    [`Signature error="${CODE}", @bad`, undefined],
    [`Signature error=`, undefined],
    [``, undefined],
    [null, undefined],
    [`Signature error="${CODE}", realm="${"x".repeat(MAX_WWW_AUTHENTICATE_LENGTH)}"`, undefined],
  ];
  for (const [value, expected] of cases) {
    strictEqual(signatureChallengeError(value), expected, value ?? "null");
  }
});

Deno.test("signatureChallengeError() never throws, and returns a value the header held", () => {
  const alphabet = fc.constantFrom(...'Signature error="\\, ;/+abc_\t'.split(""));
  fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 300 }).map((chars) => chars.join("")), (value) => {
      const found = signatureChallengeError(value);
      if (found !== undefined) strictEqual(typeof found, "string");
    }),
    { numRuns: 2_000 },
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 500 }), (value) => {
      signatureChallengeError(value);
    }),
  );
});

Deno.test("signatureChallengeError() is linear on hostile headers at its length cap", () => {
  const shapes = [
    "Signature " + "error=a, ".repeat(226),
    'Signature error="' + "\\\\".repeat(1_000) + '"',
    "a ".repeat(1_024),
    ",".repeat(2_048),
    "=".repeat(2_048),
  ];
  for (const shape of shapes) {
    const value = shape.slice(0, MAX_WWW_AUTHENTICATE_LENGTH);
    const started = performance.now();
    for (let run = 0; run < 200; run++) signatureChallengeError(value);
    const elapsed = performance.now() - started;
    // 200 passes over 2 KiB: a linear scan is well under a second even on a loaded machine.
    strictEqual(elapsed < 2_000, true, `${shape.slice(0, 20)}: ${elapsed} ms`);
  }
});
