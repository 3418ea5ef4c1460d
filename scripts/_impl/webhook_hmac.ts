/**
 * The project's answers to the `webhook-hmac` suite (the legacy webhook HMAC-SHA256 scheme,
 * deprecated in AdCP 3.x and removed in 4.0); the requests are described in
 * `scripts/_suites/webhook_hmac.ts`.
 *
 * - `configure`: `importLegacyWebhookSecret`; a refused secret throws (`weak_webhook_secret`).
 * - `sign`: the scheme's signature function over the bytes as given (the package's private
 *   `legacyHmacSignature`, which `signLegacyWebhookHmac` calls after its input check): the
 *   signature-computation vectors include a duplicate-key body whose HMAC must still come out
 *   right, while the public signer refuses that body by design (`signer`).
 * - `signer`: `signLegacyWebhookHmac`, input check included (`duplicate_key_input`).
 * - `verify`: `verifyLegacyWebhookHmac` at `current_time` (the clock when `null`).
 *
 * `sign` and `signer` also verify what they produced at `now = timestamp` and reply the outcome as
 * `verify` (`"valid"` or the rejection code).
 *
 * @module
 */
import { field, isObject } from "./_input.ts";
import {
  importLegacyWebhookSecret,
  type LegacyWebhookSecret,
  signLegacyWebhookHmac,
  verifyLegacyWebhookHmac,
} from "@adcp-wire/webhooks";
import { legacyHmacSignature } from "../../packages/webhooks/_hmac.ts";

/** The request's body bytes: `raw_body` as UTF-8, or `raw_body_base64` decoded. */
function bodyOf(input: Record<string, unknown>): Uint8Array {
  const base64 = field(input, "raw_body_base64");
  if (typeof base64 === "string") return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const body = field(input, "raw_body");
  if (typeof body !== "string") throw new TypeError("webhook-hmac: raw_body must be a string");
  return new TextEncoder().encode(body);
}

function timestampOf(input: Record<string, unknown>): number {
  const timestamp = field(input, "timestamp");
  if (typeof timestamp !== "number") {
    throw new TypeError("webhook-hmac: timestamp must be a number");
  }
  return timestamp;
}

/** Verifies a signature the impl produced, at `now = timestamp`. */
async function selfVerify(
  body: Uint8Array,
  signature: string,
  timestamp: number,
  secret: LegacyWebhookSecret,
): Promise<string> {
  const result = await verifyLegacyWebhookHmac(body, { signature, timestamp }, {
    secret,
    now: timestamp,
  });
  return result.valid ? "valid" : result.code;
}

/**
 * Answers one `webhook-hmac` request.
 *
 * @param input The request's input (see the module doc).
 * @param _options The vector's options (unused).
 * @returns The result; a refusal throws an error whose `code` is the reply's.
 */
export async function answer(
  input: unknown,
  _options: Record<string, unknown> | null,
): Promise<unknown> {
  if (!isObject(input)) throw new TypeError("webhook-hmac: input must be an object");
  const operation = field(input, "operation");
  const rawSecret = field(input, "secret") as string;
  switch (operation) {
    case "configure":
      await importLegacyWebhookSecret(rawSecret);
      return { configured: true };
    case "sign": {
      const secret = await importLegacyWebhookSecret(rawSecret);
      const body = bodyOf(input);
      const timestamp = timestampOf(input);
      const signature = await legacyHmacSignature(secret, String(timestamp), body);
      return {
        signature,
        timestamp: String(timestamp),
        verify: await selfVerify(body, signature, timestamp, secret),
      };
    }
    case "signer": {
      const secret = await importLegacyWebhookSecret(rawSecret);
      const body = bodyOf(input);
      const timestamp = timestampOf(input);
      const signed = await signLegacyWebhookHmac(body, { secret, timestamp });
      return {
        signature: signed.signature,
        timestamp: signed.timestamp,
        verify: await selfVerify(body, signed.signature, timestamp, secret),
      };
    }
    case "verify": {
      const now = field(input, "current_time");
      const result = await verifyLegacyWebhookHmac(
        bodyOf(input),
        {
          signature: field(input, "signature") as string | null | undefined,
          timestamp: field(input, "timestamp") as string | number | null | undefined,
        },
        {
          secret: rawSecret,
          ...(typeof now === "number" ? { now } : {}),
        },
      );
      return result.valid ? { valid: true } : { valid: false, error: result.code };
    }
    default:
      throw new TypeError("webhook-hmac: unknown operation");
  }
}
