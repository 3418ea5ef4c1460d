import { isJsonObject, optionError, own, ownObject } from "@adcp-wire/internal";
import {
  type A2AExtractOptions,
  extractAdcpResponseFromA2A,
} from "./extract_adcp_response_from_a2a.ts";
import { isA2AStreamEnvelope } from "./unwrap_a2a_stream_envelope.ts";
import { checkA2AExtractKeys } from "./_a2a.ts";

/**
 * The two webhook payload formats (Webhooks, "Payload extraction"): the MCP flat envelope
 * (`core/mcp-webhook-payload.json`) and the A2A native Task (or `StreamResponse`).
 */
export type WebhookFormat = "mcp" | "a2a";

/**
 * Detects a webhook payload's format from its shape: `"a2a"` for an object `status` with a truthy
 * `state` or an A2A 1.0 stream envelope holding an object, `"mcp"` for a string `status` with a
 * truthy `task_id`, else `null`. A fallback only: receivers should pass the format they configured
 * to {@link extractAdcpResponseFromWebhook}, so a crafted payload cannot pick its own path.
 *
 * Webhooks, "Format detection" (readings: [docs/core.md](../../docs/core.md#webhooks)).
 *
 * @param payload A parsed webhook body: any JSON value, or `undefined`.
 * @returns The format, or `null` when the shape matches neither.
 *
 * @example Both formats, and neither
 * ```ts
 * import { detectWebhookFormat } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(detectWebhookFormat({ task_id: "t1", status: "working", result: {} }), "mcp");
 * strictEqual(detectWebhookFormat({ id: "t1", status: { state: "completed" } }), "a2a");
 * strictEqual(
 *   detectWebhookFormat({ statusUpdate: { status: { state: "TASK_STATE_WORKING" } } }),
 *   "a2a",
 * );
 * strictEqual(detectWebhookFormat({ status: "completed" }), null); // no task_id
 * ```
 */
export function detectWebhookFormat(payload: unknown): WebhookFormat | null {
  if (!isJsonObject(payload)) return null;
  const status = own(payload, "status");
  if (isJsonObject(status) && own(status, "state")) return "a2a";
  if (isA2AStreamEnvelope(payload) && ownObject(payload, Object.keys(payload)[0]!)) return "a2a";
  if (typeof status === "string" && own(payload, "task_id")) return "mcp";
  return null;
}

/**
 * Extracts AdCP data from a webhook payload in `knownFormat` (else the detected one): for MCP its
 * `result` when that is a non-array object, for A2A what {@link extractAdcpResponseFromA2A}
 * returns. The object is the very one in the payload; an `adcp_error` in it is returned as data.
 *
 * Webhooks, "Payload extraction" (readings: [docs/core.md](../../docs/core.md#webhooks)).
 *
 * @param payload A parsed webhook body: any JSON value, or `undefined`.
 * @param knownFormat The format the receiver configured for this endpoint.
 * @param options For an A2A push, the DataPart size limit (1 MiB by default) and the expected
 * DataPart count, as for {@link extractAdcpResponseFromA2A}.
 * @returns The AdCP data, or `null`.
 * @throws {TypeError} When `knownFormat` is neither `"mcp"`, `"a2a"` nor `undefined`, or
 * `options` has a key {@link A2AExtractOptions} does not name (whatever the format).
 * @throws {DataPartTooLargeError | UnexpectedPartCountError} For an A2A push, as
 * {@link extractAdcpResponseFromA2A} does.
 * @throws {WrapperDetectedError} As {@link extractAdcpResponseFromA2A} does, for an A2A
 * final-state `{ response: {...} }` wrapper.
 *
 * @example An MCP and an A2A webhook
 * ```ts
 * import { extractAdcpResponseFromWebhook } from "@adcp-wire/core";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const mcp = { task_id: "t1", status: "completed", result: { media_buy_id: "mb_1" } };
 * deepStrictEqual(extractAdcpResponseFromWebhook(mcp), { media_buy_id: "mb_1" });
 *
 * const a2a = {
 *   id: "t2",
 *   status: { state: "working", message: { parts: [{ kind: "data", data: { percentage: 60 } }] } },
 * };
 * deepStrictEqual(extractAdcpResponseFromWebhook(a2a, "a2a"), { percentage: 60 });
 * strictEqual(extractAdcpResponseFromWebhook(a2a, "mcp"), null); // the configured format wins
 * ```
 */
export function extractAdcpResponseFromWebhook(
  payload: unknown,
  knownFormat?: WebhookFormat,
  options?: A2AExtractOptions,
): Record<string, unknown> | null {
  if (knownFormat !== undefined && knownFormat !== "mcp" && knownFormat !== "a2a") {
    throw optionError(
      TypeError,
      "extract from a webhook payload",
      "knownFormat",
      '"mcp", "a2a" or undefined',
      knownFormat,
    );
  }
  // The keys at the boundary, whatever the format: a misspelled limit must not pass unseen on an
  // MCP push either (the values are read, and checked, only for an A2A push).
  checkA2AExtractKeys(options);
  const format = knownFormat ?? detectWebhookFormat(payload);
  if (format === "a2a") return extractAdcpResponseFromA2A(payload, options);
  if (format === "mcp" && isJsonObject(payload)) return ownObject(payload, "result") ?? null;
  return null;
}
