import { AdcpWireError } from "@adcp-wire/internal";
import { DuplicateKeyError, JsonDepthLimitError } from "@adcp-wire/security";
import fc from "fast-check";
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { legacyHmacSignature, toHex } from "./_hmac.ts";
import { AdcpWebhookError, WeakWebhookSecretError, WebhookBodyInputError } from "./errors.ts";
import {
  importLegacyWebhookSecret,
  LEGACY_WEBHOOK_MAX_BODY_BYTES,
  LEGACY_WEBHOOK_TOLERANCE_SECONDS,
  type LegacyWebhookHmacRejectionCode,
  type LegacyWebhookHmacVerification,
  signLegacyWebhookHmac,
  signLegacyWebhookPayload,
  verifyLegacyWebhookHmac,
} from "./legacy_hmac.ts";

// The vector files are read as data: upstream's (synced, pinned) and this project's edge cases.
type Vector = Record<string, unknown>;
const upstream = JSON.parse(
  await Deno.readTextFile(
    new URL("../../vectors/upstream/webhook-hmac-sha256.json", import.meta.url),
  ),
) as {
  secret: string;
  vectors: Vector[];
  rejection_vectors: Vector[];
  secret_rejection_vectors: Vector[];
  signer_side: { rejection_vectors: Vector[]; positive_vectors: Vector[] };
};
const local = JSON.parse(
  await Deno.readTextFile(
    new URL("../../vectors/local/webhook-hmac-edge-cases.json", import.meta.url),
  ),
) as { vectors: Vector[] };

const SECRET = upstream.secret;
const secret = await importLegacyWebhookSecret(SECRET);
const T = 1700000000;
const encoder = new TextEncoder();

function codeOf(result: LegacyWebhookHmacVerification): string {
  return result.valid ? "valid" : result.code;
}

function bodyOf(v: Vector): Uint8Array {
  return typeof v.raw_body_base64 === "string"
    ? Uint8Array.from(atob(v.raw_body_base64), (c) => c.charCodeAt(0))
    : encoder.encode(v.raw_body as string);
}

async function signed(body: string | Uint8Array, timestamp = T): Promise<string> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  return await legacyHmacSignature(secret, String(timestamp), bytes);
}

// ---------------------------------------------------------------------------------------------
// Upstream vectors, each with its exact outcome.

/** What verifying each upstream `vectors` entry at now = timestamp gives. */
const SIGN_VERIFY: Record<string, string> = {
  "compact-js-style": "valid",
  "spaced-python-default": "valid",
  "empty-object": "valid",
  "nested": "valid",
  "unicode-utf8": "valid",
  "pretty-printed": "valid",
  "scalars-mixed": "valid",
  "empty-body": "webhook_body_malformed", // not JSON, refused after the HMAC matched
  "timestamp-zero": "valid",
  "timestamp-2040": "valid",
  "null-bytes": "webhook_body_malformed", // a raw U+0000 in a string is not JSON
  "trailing-newline": "valid",
  "compact-whitespace-keys": "valid",
  "unicode-ascii-escaped": "valid",
  "duplicate-keys-conflicting-values": "webhook_body_malformed",
};

Deno.test(
  "the signature function reproduces every upstream signature, the secret as its UTF-8 bytes",
  async () => {
    strictEqual(upstream.vectors.length, Object.keys(SIGN_VERIFY).length);
    for (const v of upstream.vectors) {
      strictEqual(
        await signed(v.raw_body as string, v.timestamp as number),
        v.expected_signature,
        v.id as string,
      );
    }
  },
);

Deno.test(
  "verifyLegacyWebhookHmac() gives each upstream signature vector its exact outcome",
  async () => {
    for (const v of upstream.vectors) {
      const result = await verifyLegacyWebhookHmac(
        v.raw_body as string,
        { signature: v.expected_signature as string, timestamp: v.timestamp as number },
        { secret, now: v.timestamp as number },
      );
      strictEqual(codeOf(result), SIGN_VERIFY[v.id as string], v.id as string);
    }
  },
);

Deno.test(
  "verifyLegacyWebhookHmac() rejects the duplicate-key vector as malformed, not as a mismatch",
  async () => {
    const v = upstream.vectors.find((v) => v.expected_verifier_action === "reject-malformed")!;
    const result = await verifyLegacyWebhookHmac(
      encoder.encode(v.raw_body as string),
      new Headers({
        "X-ADCP-Signature": v.expected_signature as string,
        "X-ADCP-Timestamp": String(v.timestamp),
      }),
      { secret, now: T },
    );
    ok(!result.valid);
    strictEqual(result.code, v.rfc9421_error_code);
    deepStrictEqual(result.duplicateKeys, ["status"]);
    ok(!result.message.includes("rejected"), "no body content in the message");
  },
);

Deno.test(
  "signLegacyWebhookHmac() with allowNonJsonBody signs every upstream body but the duplicate one",
  async () => {
    for (const v of upstream.vectors) {
      const sign = signLegacyWebhookHmac(v.raw_body as string, {
        secret,
        timestamp: v.timestamp as number,
        allowNonJsonBody: true,
      });
      if (v.expected_verifier_action === "reject-malformed") {
        await rejects(sign, DuplicateKeyError);
      } else {
        strictEqual((await sign).signature, v.expected_signature, v.id as string);
      }
    }
  },
);

Deno.test(
  "signLegacyWebhookHmac() refuses the upstream empty and NUL bodies by default",
  async () => {
    for (const id of ["empty-body", "null-bytes"]) {
      const v = upstream.vectors.find((v) => v.id === id)!;
      await rejects(
        signLegacyWebhookHmac(v.raw_body as string, { secret, timestamp: T }),
        (error) => error instanceof WebhookBodyInputError && error.code === "malformed_body_input",
      );
    }
  },
);

/** The exact code of each upstream rejection vector. */
const REJECTION_CODES: Record<string, LegacyWebhookHmacRejectionCode> = {
  "truncated-signature": "malformed_signature",
  "wrong-algorithm-prefix": "malformed_signature",
  "empty-signature": "missing_signature",
  "missing-signature": "missing_signature",
  "timestamp-too-old": "timestamp_out_of_window",
  "timestamp-too-future": "timestamp_out_of_window",
  "non-numeric-timestamp": "malformed_timestamp",
  "body-tampered": "signature_mismatch",
  "double-prefix": "malformed_signature",
  "signer-spaced-wire-compact": "signature_mismatch",
};

Deno.test(
  "verifyLegacyWebhookHmac() gives each upstream rejection vector its exact code",
  async () => {
    strictEqual(upstream.rejection_vectors.length, Object.keys(REJECTION_CODES).length);
    for (const v of upstream.rejection_vectors) {
      const now = typeof v.current_time === "number"
        ? v.current_time
        : typeof v.timestamp === "number"
        ? v.timestamp
        : T;
      const result = await verifyLegacyWebhookHmac(
        v.raw_body as string,
        { signature: v.signature as string | null, timestamp: v.timestamp as string | number },
        { secret, now },
      );
      strictEqual(codeOf(result), REJECTION_CODES[v.id as string], v.id as string);
    }
  },
);

Deno.test(
  "importLegacyWebhookSecret() refuses every upstream weak secret without echoing it",
  async () => {
    const reasons = ["too_short", "too_short", "low_entropy", "low_entropy"];
    strictEqual(upstream.secret_rejection_vectors.length, reasons.length);
    for (const [i, v] of upstream.secret_rejection_vectors.entries()) {
      await rejects(importLegacyWebhookSecret(v.secret as string), (error) => {
        ok(error instanceof WeakWebhookSecretError);
        ok(error instanceof AdcpWebhookError && error instanceof AdcpWireError);
        strictEqual(error.code, "weak_webhook_secret");
        strictEqual(error.reason, reasons[i]);
        strictEqual(error.byteLength, encoder.encode(v.secret as string).length);
        if ((v.secret as string).length > 0) ok(!error.message.includes(v.secret as string));
        return true;
      });
    }
  },
);

Deno.test(
  "signLegacyWebhookHmac() refuses every upstream signer rejection vector with duplicate_key_input",
  async () => {
    strictEqual(upstream.signer_side.rejection_vectors.length, 4);
    for (const v of upstream.signer_side.rejection_vectors) {
      await rejects(
        signLegacyWebhookHmac(v.signer_input_body as string, { secret, timestamp: T }),
        (error) => {
          ok(error instanceof DuplicateKeyError);
          strictEqual(error.code, "duplicate_key_input");
          return true;
        },
      );
    }
  },
);

Deno.test(
  "signLegacyWebhookHmac() signs the upstream clean signer input, and it verifies",
  async () => {
    for (const v of upstream.signer_side.positive_vectors) {
      const body = v.signer_input_body as string;
      const result = await signLegacyWebhookHmac(body, { secret, timestamp: T });
      const verified = await verifyLegacyWebhookHmac(body, result, { secret, now: T });
      ok(verified.valid);
      deepStrictEqual(verified.value, JSON.parse(body));
    }
  },
);

// ---------------------------------------------------------------------------------------------
// Local edge-case vectors (vectors/local/webhook-hmac-edge-cases.json), with exact outcomes.

Deno.test("every local edge-case vector has its exact outcome", async () => {
  ok(local.vectors.length >= 15);
  for (const v of local.vectors) {
    const id = v.id as string;
    switch (v.kind) {
      case "verify-reject":
      case "verify-accept": {
        const result = await verifyLegacyWebhookHmac(
          bodyOf(v),
          {
            signature: v.signature as string | null,
            timestamp: v.timestamp as string | number | null,
          },
          { secret: v.secret as string, now: v.current_time as number },
        );
        strictEqual(codeOf(result), v.kind === "verify-accept" ? "valid" : v.expected_error, id);
        break;
      }
      case "sign": {
        const key = await importLegacyWebhookSecret(v.secret as string);
        const signature = await legacyHmacSignature(key, String(v.timestamp), bodyOf(v));
        strictEqual(signature, v.expected_signature, id);
        const result = await verifyLegacyWebhookHmac(
          bodyOf(v),
          { signature, timestamp: v.timestamp as number },
          { secret: key, now: v.timestamp as number },
        );
        strictEqual(codeOf(result), v.expected_verify, id);
        break;
      }
      case "signer-reject":
        await rejects(
          signLegacyWebhookHmac(bodyOf(v), { secret: v.secret as string, timestamp: T }),
          (error) => error instanceof DuplicateKeyError && error.code === "duplicate_key_input",
          id,
        );
        break;
      case "signer-sign": {
        const result = await signLegacyWebhookHmac(bodyOf(v), {
          secret: v.secret as string,
          timestamp: T,
        });
        const verified = await verifyLegacyWebhookHmac(bodyOf(v), result, {
          secret: v.secret as string,
          now: T,
        });
        ok(verified.valid, id);
        break;
      }
      case "secret-reject":
        await rejects(
          importLegacyWebhookSecret(v.secret as string),
          (error) => error instanceof WeakWebhookSecretError && error.code === v.expected_error,
          id,
        );
        break;
      default:
        throw new Error(`unknown kind in ${id}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Verification order, limits and inputs.

const BODY = '{"event":"test"}';
const GOOD = await signed(BODY);

Deno.test(
  "verifyLegacyWebhookHmac() checks the size first: a body over the limit is body_too_large",
  async () => {
    strictEqual(LEGACY_WEBHOOK_MAX_BODY_BYTES, 1_048_576);
    const big = new Uint8Array(LEGACY_WEBHOOK_MAX_BODY_BYTES + 1);
    const headers = { signature: null, timestamp: null };
    strictEqual(codeOf(await verifyLegacyWebhookHmac(big, headers, { secret })), "body_too_large");
    const atLimit = new Uint8Array(LEGACY_WEBHOOK_MAX_BODY_BYTES);
    strictEqual(
      codeOf(await verifyLegacyWebhookHmac(atLimit, headers, { secret })),
      "missing_signature",
    );
    // A string is measured in UTF-8 bytes: 4 two-byte characters are 8 bytes.
    const options = { secret, now: T, maxBodyBytes: 7 };
    strictEqual(
      codeOf(await verifyLegacyWebhookHmac("\u00e9".repeat(4), headers, options)),
      "body_too_large",
    );
    const body = '{"a":1}'; // 7 bytes, at the limit
    strictEqual(
      codeOf(
        await verifyLegacyWebhookHmac(
          body,
          { signature: await signed(body), timestamp: T },
          options,
        ),
      ),
      "valid",
    );
  },
);

Deno.test(
  "verifyLegacyWebhookHmac() runs the timestamp checks before the signature syntax check",
  async () => {
    const check = async (signature: string, timestamp: string | number) =>
      codeOf(await verifyLegacyWebhookHmac(BODY, { signature, timestamp }, { secret, now: T }));
    strictEqual(await check("sha256=zz", "soon"), "malformed_timestamp");
    strictEqual(await check("sha256=zz", T - 301), "timestamp_out_of_window");
    strictEqual(await check("sha256=zz", T), "malformed_signature");
    strictEqual(await check("", "soon"), "missing_signature");
    strictEqual(await check(GOOD, ""), "missing_timestamp");
  },
);

Deno.test(
  "verifyLegacyWebhookHmac() accepts exactly the window edges and refuses one second past",
  async () => {
    strictEqual(LEGACY_WEBHOOK_TOLERANCE_SECONDS, 300);
    for (
      const [skew, code] of [[300, "valid"], [-300, "valid"], [301, "timestamp_out_of_window"], [
        -301,
        "timestamp_out_of_window",
      ]] as const
    ) {
      const timestamp = T + skew;
      const result = await verifyLegacyWebhookHmac(
        BODY,
        { signature: await signed(BODY, timestamp), timestamp },
        { secret, now: T },
      );
      strictEqual(codeOf(result), code, `skew ${skew}`);
    }
    const narrow = await verifyLegacyWebhookHmac(
      BODY,
      { signature: await signed(BODY, T - 61), timestamp: T - 61 },
      { secret, now: T, toleranceSeconds: 60 },
    );
    strictEqual(codeOf(narrow), "timestamp_out_of_window");
  },
);

Deno.test("verifyLegacyWebhookHmac() signs the timestamp text exactly as received", async () => {
  // A number header value is its decimal digits; the same integer as a string verifies too.
  for (const timestamp of [T, String(T)]) {
    const result = await verifyLegacyWebhookHmac(BODY, { signature: GOOD, timestamp }, {
      secret,
      now: T,
    });
    strictEqual(codeOf(result), "valid");
  }
  for (const timestamp of [T + 0.5, -1, Number.NaN, Infinity, 2 ** 53, "0x10", "1_700_000_000"]) {
    const result = await verifyLegacyWebhookHmac(BODY, { signature: GOOD, timestamp }, {
      secret,
      now: T,
    });
    strictEqual(codeOf(result), "malformed_timestamp", String(timestamp));
  }
});

Deno.test(
  "verifyLegacyWebhookHmac() reads Headers objects and rejects repeated signature headers",
  async () => {
    const headers = new Headers();
    headers.set("x-adcp-signature", ` ${GOOD} `); // HTTP whitespace, which Headers removes
    headers.set("x-adcp-timestamp", String(T));
    strictEqual(codeOf(await verifyLegacyWebhookHmac(BODY, headers, { secret, now: T })), "valid");
    headers.append("X-ADCP-Signature", GOOD);
    strictEqual(
      codeOf(await verifyLegacyWebhookHmac(BODY, headers, { secret, now: T })),
      "malformed_signature",
    );
    strictEqual(
      codeOf(await verifyLegacyWebhookHmac(BODY, new Headers(), { secret, now: T })),
      "missing_signature",
    );
  },
);

Deno.test("verifyLegacyWebhookHmac() reads own header properties only", async () => {
  const inherited = Object.create({ signature: GOOD, timestamp: T });
  strictEqual(
    codeOf(await verifyLegacyWebhookHmac(BODY, inherited, { secret, now: T })),
    "missing_signature",
  );
});

Deno.test(
  "verifyLegacyWebhookHmac() returns the strictly parsed body, ignoring a body signature field",
  async () => {
    const body = '{"__proto__":{"admin":true},"signature":"sha256=00"}';
    const result = await verifyLegacyWebhookHmac(body, {
      signature: await signed(body),
      timestamp: T,
    }, { secret, now: T });
    ok(result.valid);
    strictEqual(result.timestamp, T);
    strictEqual(result.secretIndex, 0);
    ok(Object.hasOwn(result.value as object, "__proto__"));
    strictEqual(Object.getPrototypeOf(result.value), Object.prototype);
  },
);

Deno.test(
  "verifyLegacyWebhookHmac() gives webhook_body_malformed for an authentic non-strict-JSON body",
  async () => {
    const deep = "[".repeat(65) + "]".repeat(65);
    for (
      const body of [
        encoder.encode(""),
        encoder.encode("not json"),
        new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d]), // {"a":"\xC3"}
        new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // BOM then {}
        encoder.encode('{"a":{"b":1,"b":1}}'),
        encoder.encode(deep),
      ]
    ) {
      const result = await verifyLegacyWebhookHmac(body, {
        signature: await signed(body),
        timestamp: T,
      }, { secret, now: T });
      strictEqual(codeOf(result), "webhook_body_malformed");
    }
  },
);

Deno.test(
  "verifyLegacyWebhookHmac() accepts the current or the previous secret during a rotation",
  async () => {
    const previous = await importLegacyWebhookSecret(crypto.getRandomValues(new Uint8Array(32)));
    const current = await importLegacyWebhookSecret(crypto.getRandomValues(new Uint8Array(32)));
    const old = await signLegacyWebhookHmac(BODY, { secret: previous, timestamp: T });
    const result = await verifyLegacyWebhookHmac(BODY, old, {
      secret: [current, previous],
      now: T,
    });
    ok(result.valid);
    strictEqual(result.secretIndex, 1);
    const other = await importLegacyWebhookSecret(crypto.getRandomValues(new Uint8Array(32)));
    strictEqual(
      codeOf(await verifyLegacyWebhookHmac(BODY, old, { secret: [current, other], now: T })),
      "signature_mismatch",
    );
  },
);

Deno.test(
  "verifyLegacyWebhookHmac() refuses bad options with TypeError or RangeError",
  async () => {
    const headers = { signature: GOOD, timestamp: T };
    const cases: [unknown, ErrorConstructor][] = [
      [{ secret, toleranceSeconds: 301 }, RangeError],
      [{ secret, toleranceSeconds: -1 }, RangeError],
      [{ secret, now: -1 }, RangeError],
      [{ secret, now: T + 0.5 }, RangeError],
      [{ secret, now: "1700000000" }, TypeError],
      [{ secret, maxBodyBytes: 1.5 }, RangeError],
      [{ secret: [] }, RangeError],
      [{ secret: [secret, secret, secret] }, RangeError],
      [{ secret: 42 }, TypeError],
      [{ secret: { kind: "legacy-webhook-secret" } }, TypeError], // a forged handle
      [{}, TypeError],
      [null, TypeError],
    ];
    for (const [options, kind] of cases) {
      await rejects(
        verifyLegacyWebhookHmac(BODY, headers, options as never),
        (error) => error instanceof kind && error.constructor === kind,
        JSON.stringify(options),
      );
    }
    await rejects(verifyLegacyWebhookHmac(42 as never, headers, { secret }), TypeError);
    await rejects(verifyLegacyWebhookHmac(BODY, null as never, { secret }), TypeError);
  },
);

Deno.test("a raw secret of the wrong type is described by its type, never its value", async () => {
  await rejects(importLegacyWebhookSecret(12345678901234567890 as never), (error) => {
    ok(error instanceof TypeError);
    ok(!error.message.includes("1234567890"));
    return true;
  });
});

Deno.test("verifyLegacyWebhookHmac() takes raw secrets and refuses weak ones", async () => {
  strictEqual(
    codeOf(
      await verifyLegacyWebhookHmac(BODY, { signature: GOOD, timestamp: T }, {
        secret: SECRET,
        now: T,
      }),
    ),
    "valid",
  );
  await rejects(
    verifyLegacyWebhookHmac(BODY, { signature: GOOD, timestamp: T }, { secret: "0".repeat(32) }),
    WeakWebhookSecretError,
  );
});

// ---------------------------------------------------------------------------------------------
// The signer.

Deno.test(
  "signLegacyWebhookHmac() checks the bytes it signs: lone surrogates becoming one key collide",
  async () => {
    // Both keys encode to U+FFFD, so the body on the wire repeats a key.
    await rejects(
      signLegacyWebhookHmac('{"\uD800":1,"\uDBFF":2}', { secret, timestamp: T }),
      DuplicateKeyError,
    );
  },
);

Deno.test(
  "signLegacyWebhookHmac() refuses bodies that are not strict JSON text unless allowed",
  async () => {
    for (
      const body of [
        "",
        "{",
        '{"a":"\u0000"}',
        "\uFEFF{}",
        new Uint8Array([0x22, 0xff, 0x22]),
      ]
    ) {
      await rejects(
        signLegacyWebhookHmac(body, { secret, timestamp: T }),
        (error) => error instanceof WebhookBodyInputError && error.code === "malformed_body_input",
      );
      const allowed = await signLegacyWebhookHmac(body, {
        secret,
        timestamp: T,
        allowNonJsonBody: true,
      });
      strictEqual(allowed.signature, await signed(body));
    }
  },
);

Deno.test(
  "signLegacyWebhookHmac() refuses a body too deep to check, even when non-JSON bodies are allowed",
  async () => {
    const deep = "[".repeat(65) + "]".repeat(65);
    for (const allowNonJsonBody of [false, true]) {
      await rejects(
        signLegacyWebhookHmac(deep, { secret, timestamp: T, allowNonJsonBody }),
        JsonDepthLimitError,
      );
    }
  },
);

Deno.test(
  "signLegacyWebhookHmac() defaults the timestamp to now in whole Unix seconds",
  async () => {
    const before = Math.floor(Date.now() / 1000);
    const result = await signLegacyWebhookHmac(BODY, { secret });
    const after = Math.floor(Date.now() / 1000);
    ok(/^[1-9][0-9]*$/.test(result.timestamp));
    ok(Number(result.timestamp) >= before && Number(result.timestamp) <= after);
    deepStrictEqual(result.headers, {
      "X-ADCP-Signature": result.signature,
      "X-ADCP-Timestamp": result.timestamp,
    });
    ok((await verifyLegacyWebhookHmac(BODY, result, { secret })).valid);
  },
);

Deno.test("signLegacyWebhookHmac() refuses bad options", async () => {
  for (const timestamp of [-1, 1.5, Number.NaN, 2 ** 53]) {
    await rejects(signLegacyWebhookHmac(BODY, { secret, timestamp }), RangeError);
  }
  await rejects(signLegacyWebhookHmac(BODY, { secret, timestamp: "1" as never }), TypeError);
  await rejects(
    signLegacyWebhookHmac(BODY, { secret, allowNonJsonBody: "yes" as never }),
    TypeError,
  );
  await rejects(signLegacyWebhookHmac(BODY, { secret: undefined as never }), TypeError);
  await rejects(signLegacyWebhookHmac(42 as never, { secret }), TypeError);
  await rejects(signLegacyWebhookHmac(BODY, { secret: "short" }), WeakWebhookSecretError);
});

Deno.test("signLegacyWebhookPayload() serializes compactly and signs those bytes", async () => {
  const value = {
    event: "creative.status_changed",
    creative_id: "creative_123",
    status: "approved",
  };
  const result = await signLegacyWebhookPayload(value, { secret, timestamp: T });
  strictEqual(result.body, JSON.stringify(value));
  strictEqual(result.signature, upstream.vectors[0]!.expected_signature);
  for (
    const bad of [
      undefined,
      () => 1,
      Symbol("x"),
      1n,
      (() => {
        const cycle: Record<string, unknown> = {};
        cycle.self = cycle;
        return cycle;
      })(),
    ]
  ) {
    await rejects(signLegacyWebhookPayload(bad, { secret, timestamp: T }), TypeError);
  }
});

// ---------------------------------------------------------------------------------------------
// Properties.

const anyHeaderValue = fc.oneof(
  fc.anything(),
  fc.string(),
  fc.constantFrom("sha256=", GOOD, GOOD.toUpperCase(), `${GOOD}0`, String(T), "0", ""),
);

Deno.test(
  "verifyLegacyWebhookHmac() never throws on any body or header values, and accepts none",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.string({ maxLength: 64 })),
        anyHeaderValue,
        anyHeaderValue,
        async (body, signature, timestamp) => {
          const result = await verifyLegacyWebhookHmac(
            body,
            { signature, timestamp } as never,
            { secret, now: T },
          );
          strictEqual(typeof result.valid, "boolean");
          if (!result.valid) strictEqual(typeof result.message, "string");
          // Only the one right signature over the right body verifies.
          if (result.valid) {
            strictEqual(signature, await signed(body, Number(timestamp)));
          }
        },
      ),
      { numRuns: 300 },
    );
  },
);

Deno.test(
  "signLegacyWebhookPayload() and verifyLegacyWebhookHmac() round-trip any JSON value",
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 6 }),
        fc.nat({ max: 4_000_000_000 }),
        async (value, timestamp) => {
          const result = await signLegacyWebhookPayload(value, { secret, timestamp });
          const verified = await verifyLegacyWebhookHmac(
            encoder.encode(result.body),
            new Headers(result.headers),
            { secret, now: timestamp },
          );
          ok(verified.valid);
          deepStrictEqual(verified.value, JSON.parse(result.body));
        },
      ),
      { numRuns: 200 },
    );
  },
);

Deno.test("a flipped bit anywhere in the body or the signature fails verification", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.jsonValue({ maxDepth: 3 }),
      fc.boolean(),
      fc.nat(),
      fc.integer({ min: 0, max: 7 }),
      async (value, inBody, index, bit) => {
        const { body, signature } = await signLegacyWebhookPayload(value, { secret, timestamp: T });
        const bytes = encoder.encode(body);
        let sent = signature;
        if (inBody) {
          const at = index % bytes.length;
          bytes[at] = bytes[at]! ^ (1 << bit);
        } else {
          const raw = Uint8Array.from(
            signature.slice(7).match(/../g)!,
            (pair) => parseInt(pair, 16),
          );
          raw[index % 32] = raw[index % 32]! ^ (1 << bit);
          sent = `sha256=${toHex(raw)}`;
        }
        const result = await verifyLegacyWebhookHmac(bytes, { signature: sent, timestamp: T }, {
          secret,
          now: T,
        });
        strictEqual(codeOf(result), "signature_mismatch");
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test(
  "verifyLegacyWebhookHmac() compares signature bytes in constant time, never as text",
  () => {
    // Structure check: the comparison is the constant-time loop of _hmac.ts (its own test shows it
    // reads every byte), and the expected signature is never built as a string to compare.
    const source = verifyLegacyWebhookHmac.toString();
    ok(source.includes("constantTimeEqual(expected, provided)"));
    ok(!source.includes("toHex("));
    ok(!/signature\s*[!=]==\s*(?![\s]|undefined|null|""|"string")/.test(source));
  },
);
