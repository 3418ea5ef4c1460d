/**
 * The `webhook-receiver-envelope` answers of `@adcp-wire/webhooks`: the envelope check, then a
 * fresh `WebhookDedup` claiming the referenced delivery's key before this one's.
 *
 * @module
 */
import { checkMcpWebhookEnvelope, WebhookDedup } from "@adcp-wire/webhooks";
import { field } from "./_input.ts";

/**
 * Answers one request of the suite.
 *
 * @param input `{payload, previous}`.
 * @param _options Unused.
 * @returns The reply's result.
 */
export function answer(input: unknown, _options: Record<string, unknown> | null): Promise<unknown> {
  const checked = checkMcpWebhookEnvelope(field(input, "payload"));
  if (!checked.valid) return Promise.resolve({ valid: false, error: checked.code });
  const dedup = new WebhookDedup();
  const sender = "https://seller.example";
  const previous = field(input, "previous");
  if (previous !== null && previous !== undefined) {
    const first = checkMcpWebhookEnvelope(previous);
    if (first.valid && dedup.claim(sender, first.idempotencyKey).status === "new") {
      dedup.acknowledge(sender, first.idempotencyKey); // the first delivery was processed
    }
  }
  const claim = dedup.claim(sender, checked.idempotencyKey);
  return Promise.resolve({
    valid: true,
    idempotency_key: checked.idempotencyKey,
    duplicate: claim.status === "duplicate",
  });
}
