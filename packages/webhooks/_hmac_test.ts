import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  constantTimeEqual,
  isWellFormedSignature,
  signatureBytes,
  signedMessage,
  toHex,
} from "./_hmac.ts";
import { findWeakSecret, smallestPeriod } from "./_hmac_secret.ts";

/** An array-like whose every index read is recorded. */
function recording(bytes: Uint8Array, reads: Set<number>): ArrayLike<number> {
  return new Proxy(bytes, {
    get(target, key) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads.add(Number(key));
      return Reflect.get(target, key);
    },
  }) as ArrayLike<number>;
}

Deno.test(
  "constantTimeEqual() reads every byte of both inputs even when the first byte differs",
  () => {
    for (const at of [0, 1, 16, 31]) {
      const a = new Uint8Array(32).fill(7);
      const b = a.slice();
      b[at] = b[at]! ^ 0x80;
      const readsA = new Set<number>();
      const readsB = new Set<number>();
      strictEqual(constantTimeEqual(recording(a, readsA), recording(b, readsB)), false);
      strictEqual(readsA.size, 32, `difference at ${at}: every index of a read`);
      strictEqual(readsB.size, 32, `difference at ${at}: every index of b read`);
    }
  },
);

Deno.test(
  "constantTimeEqual() is byte equality for equal lengths and false for unequal ones",
  () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (a, b) => {
        const same = a.length === b.length && a.every((byte, i) => byte === b[i]);
        strictEqual(constantTimeEqual(a, b), same);
        strictEqual(constantTimeEqual(a, a.slice()), true);
      }),
    );
  },
);

Deno.test("isWellFormedSignature() accepts only sha256= and 64 lower-case hex digits", () => {
  const hex = "0123456789abcdef".repeat(4);
  ok(isWellFormedSignature(`sha256=${hex}`));
  for (
    const bad of [
      `sha256=${hex.toUpperCase()}`,
      `SHA256=${hex}`,
      `sha256=${hex.slice(1)}`,
      `sha256=${hex}0`,
      `sha256=${hex.slice(1)}g`,
      `sha256=${hex.slice(1)} `,
      ` sha256=${hex.slice(1)}`,
      `sha512=${hex}`,
      `sha256=sha256=${hex.slice(14)}`,
      "",
    ]
  ) {
    strictEqual(isWellFormedSignature(bad), false, JSON.stringify(bad));
  }
});

Deno.test("signatureBytes() and toHex() are inverse on well-formed signatures", () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
      const text = `sha256=${toHex(bytes)}`;
      ok(isWellFormedSignature(text));
      deepStrictEqual(signatureBytes(text), bytes);
    }),
  );
});

Deno.test("signedMessage() is the timestamp's ASCII, a dot, then the body bytes untouched", () => {
  deepStrictEqual(
    signedMessage("17", new Uint8Array([0xff, 0x00, 0x7b])),
    new Uint8Array([0x31, 0x37, 0x2e, 0xff, 0x00, 0x7b]),
  );
  deepStrictEqual(signedMessage("0", new Uint8Array()), new Uint8Array([0x30, 0x2e]));
});

const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("findWeakSecret() refuses secrets under 32 bytes, counting UTF-8 bytes", () => {
  strictEqual(findWeakSecret(new Uint8Array())?.reason, "too_short");
  strictEqual(findWeakSecret(encode("1234567890abcdef1234567890abcde"))?.reason, "too_short");
  strictEqual(findWeakSecret(encode("\u00e9".repeat(15) + "x"))?.reason, "too_short"); // 31 bytes
  strictEqual(findWeakSecret(encode("k3J9xQ2mVw7ZpL0aR5tYbN8cU1eH4sG6")), undefined);
});

Deno.test("findWeakSecret() refuses the documented weak shapes", () => {
  for (
    const weak of [
      "0".repeat(32),
      "a".repeat(32),
      "ab".repeat(16),
      "abc".repeat(11),
      "01101001100101101001011001101001",
      "0123".repeat(8),
      "password".repeat(4),
      "0123456789abcdef".repeat(2),
      "abcdefghijklmnopqrstuvwxyz012345",
      "zyxwvutsrqponmlkjihgfedcba987654",
      "0123456789:;<=>?@ABCDEFGHIJKLMNO",
    ]
  ) {
    strictEqual(findWeakSecret(encode(weak))?.reason, "low_entropy", weak);
  }
  strictEqual(findWeakSecret(new Uint8Array(32).fill(0xff))?.reason, "low_entropy");
});

Deno.test("findWeakSecret() refuses every repetition of a shorter block", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 1, maxLength: 24 }),
      fc.integer({ min: 2, max: 6 }),
      (block, times) => {
        const bytes = new Uint8Array(block.length * times);
        for (let i = 0; i < times; i++) bytes.set(block, i * block.length);
        const finding = findWeakSecret(bytes);
        ok(finding !== undefined);
        strictEqual(finding.reason, bytes.length < 32 ? "too_short" : "low_entropy");
      },
    ),
  );
});

Deno.test("findWeakSecret() accepts random secrets: CSPRNG bytes, hex and base64 text", () => {
  for (let i = 0; i < 2000; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    strictEqual(findWeakSecret(bytes), undefined);
    strictEqual(findWeakSecret(encode(toHex(bytes))), undefined);
    strictEqual(findWeakSecret(encode(btoa(String.fromCharCode(...bytes)))), undefined);
  }
  strictEqual(
    findWeakSecret(encode("cc237f7fe354609bb41360c6530a2deb7926f3cc55e91df3ff90e37202950b6c")),
    undefined,
  );
});

Deno.test("smallestPeriod() is the smallest shift under which the bytes repeat", () => {
  const naive = (bytes: Uint8Array) => {
    for (let p = 1; p < bytes.length; p++) {
      if (bytes.every((byte, i) => i + p >= bytes.length || byte === bytes[i + p])) return p;
    }
    return bytes.length;
  };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40, max: 2 }), (bytes) => {
      strictEqual(smallestPeriod(bytes), naive(bytes));
    }),
  );
});

Deno.test("findWeakSecret() takes linear time on a long secret", () => {
  const bytes = new Uint8Array(4 << 20);
  for (let i = 0; i < bytes.length; i++) bytes[i] = 0x61 + (i & 3);
  bytes[bytes.length - 1] = 0x7a; // abcdabcd…z: no period, so the whole failure function runs
  const started = performance.now();
  strictEqual(findWeakSecret(bytes)?.reason, "low_entropy");
  ok(performance.now() - started < 2000);
});
