import { describeValue, isJsonObject, own, ownObject } from "./_json.ts";
import {
  type A2AExtractOptions,
  extractAdcpResponseFromA2A,
} from "./extract_adcp_response_from_a2a.ts";

/**
 * The two webhook payload formats (Webhooks, "Payload extraction"): the MCP flat envelope
 * (`core/mcp-webhook-payload.json`) and the A2A native Task (or `StreamResponse`).
 *
 * @example
 * ```ts
 * import { detectWebhookFormat, type WebhookFormat } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * const format: WebhookFormat | null = detectWebhookFormat({ task_id: "t1", status: "completed" });
 * strictEqual(format, "mcp");
 * ```
 */
export type WebhookFormat = "mcp" | "a2a";

const ENVELOPE_KEYS = ["task", "message", "statusUpdate", "artifactUpdate"];

/**
 * Detects a webhook payload's format from its shape (Webhooks, "Format detection"):
 *
 * - `"a2a"`: `status` is an object with a truthy `state`, or the payload is an A2A 1.0
 *   `StreamResponse` envelope (exactly one key of `task`, `message`, `statusUpdate`,
 *   `artifactUpdate`, holding an object), the form A2A 1.0 push notifications take;
 * - `"mcp"`: `status` is a string and `task_id` is present (truthy);
 * - `null` for anything else.
 *
 * Only own properties are read. Detection is a defensive fallback: a receiver SHOULD pass the
 * format it configured to {@linkcode extractAdcpResponseFromWebhook} instead ("Security
 * requirements": a crafted, ambiguous payload must not choose its own extraction path).
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
 * strictEqual(detectWebhookFormat({ statusUpdate: { status: { state: "TASK_STATE_WORKING" } } }), "a2a");
 * strictEqual(detectWebhookFormat({ status: "completed" }), null); // no task_id
 * ```
 */
export function detectWebhookFormat(payload: unknown): WebhookFormat | null {
  if (!isJsonObject(payload)) return null;
  const status = own(payload, "status");
  if (isJsonObject(status) && own(status, "state")) return "a2a";
  const keys = Object.keys(payload);
  if (keys.length === 1 && ENVELOPE_KEYS.includes(keys[0]!) && ownObject(payload, keys[0]!)) {
    return "a2a";
  }
  if (typeof status === "string" && own(payload, "task_id")) return "mcp";
  return null;
}

/**
 * Extracts AdCP data from a webhook payload (Webhooks, "Payload extraction"):
 *
 * - MCP: the `result` field, when it is a non-array object (the same rule as every other AdCP
 *   payload; `null`, a missing `result`, an array or a scalar give `null`);
 * - A2A: {@linkcode extractAdcpResponseFromA2A}, with its stream-envelope, state and wrapper rules
 *   (final states: last DataPart of `artifacts[0]`; interim states: first DataPart of the status
 *   message).
 *
 * The format is `knownFormat` when given (what the receiver configured: the safer path, which the
 * spec says receivers SHOULD use), else {@linkcode detectWebhookFormat}. The returned object is the
 * very one in the payload, never copied; an `adcp_error` in it is returned as data, for the caller
 * to route to error handling.
 *
 * @param payload A parsed webhook body: any JSON value, or `undefined`.
 * @param knownFormat The format the receiver configured for this endpoint.
 * @param options For an A2A push, the DataPart size limit (1 MiB by default) and the expected
 * DataPart count, as for {@linkcode extractAdcpResponseFromA2A}.
 * @returns The AdCP data, or `null`.
 * @throws {TypeError} When `knownFormat` is neither `"mcp"`, `"a2a"` nor `undefined`.
 * @throws {DataPartTooLargeError | UnexpectedPartCountError} For an A2A push, as
 * {@linkcode extractAdcpResponseFromA2A} does.
 * @throws {WrapperDetectedError} As {@linkcode extractAdcpResponseFromA2A} does, for an A2A
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
    throw new TypeError(
      `Invalid knownFormat: expected "mcp", "a2a" or undefined, saw ${describeValue(knownFormat)}`,
    );
  }
  const format = knownFormat ?? detectWebhookFormat(payload);
  if (format === "a2a") return extractAdcpResponseFromA2A(payload, options);
  if (format === "mcp" && isJsonObject(payload)) return ownObject(payload, "result") ?? null;
  return null;
}
