// A webhook POST body read within bounds and parsed strictly, before signature checks and
// dispatch (webhooks.mdx, "Payload size limit"; security.mdx, duplicate object keys).
import { checkOptionKeys, optionError, optionKeys } from "@adcp-wire/internal";
import {
  DuplicateKeyError,
  JsonDepthLimitError,
  type JsonLimits,
  JsonNodeLimitError,
  parseJsonStrict,
} from "@adcp-wire/security";

export type { JsonLimits } from "@adcp-wire/security";

/** The default body limit of {@link readWebhookBody}: 1 MiB (1,048,576 bytes). */
export const WEBHOOK_MAX_BODY_BYTES = 1_048_576;

/** The default time {@link readWebhookBody} waits for the whole body: 10 seconds. */
export const WEBHOOK_BODY_TIMEOUT_MS = 10_000;

/** Why {@link readWebhookBody} refused a body, and the HTTP status to answer with. */
export type WebhookBodyErrorCode =
  /** A `Request` whose `Content-Type` is not `application/json`: answer 415. */
  | "body_content_type"
  /** Over `maxBodyBytes` (by `Content-Length` or while reading): answer 413. */
  | "body_too_large"
  /** Not sent within `timeoutMs`: answer 408. */
  | "body_timeout"
  /** The body stream failed or was already read: answer 400. */
  | "body_unreadable"
  /** Not UTF-8, or starts with a byte order mark: answer 400. */
  | "body_not_utf8"
  /** Not JSON: answer 400. */
  | "body_malformed"
  /**
   * An object repeats a key (the parser-differential attack class): answer 400. The verifier's
   * code of security.mdx, webhook verifier checklist step 14.
   */
  | "webhook_body_malformed"
  /** Nested deeper or holding more values than the JSON limits: answer 413. */
  | "body_json_limits";

/** What {@link readWebhookBody} returns. */
export type WebhookBody =
  | {
    readonly valid: true;
    /** The exact bytes received, for signature verification. */
    readonly rawBody: Uint8Array;
    /** The strictly parsed JSON value (seller data). */
    readonly value: unknown;
  }
  | {
    readonly valid: false;
    readonly code: WebhookBodyErrorCode;
    /** The HTTP status the receiver should answer with. */
    readonly status: 400 | 408 | 413 | 415;
    /** What is wrong, without any byte of the body. */
    readonly message: string;
  };

/** Options of {@link readWebhookBody}. */
export interface ReadWebhookBodyOptions extends JsonLimits {
  /**
   * The largest body accepted, in bytes; checked before any signature work.
   * @default {1048576}
   */
  readonly maxBodyBytes?: number;
  /**
   * How long the whole body may take to arrive, in milliseconds.
   * @default {10000}
   */
  readonly timeoutMs?: number;
  /**
   * Whether a `Request` must declare `Content-Type: application/json` (any case, parameters
   * allowed, a `charset` only `utf-8`); a missing or other type is `body_content_type` (415)
   * before a byte is read. Bytes passed as a `Uint8Array` have no header to check: check it where
   * the bytes come from.
   * @default {true}
   */
  readonly requireJsonContentType?: boolean;
}

const ACTION = "read the webhook body";

/** The keys of {@link ReadWebhookBodyOptions}, its {@link JsonLimits} included. */
const READ_WEBHOOK_BODY_KEYS = optionKeys<ReadWebhookBodyOptions>({
  maxBodyBytes: true,
  timeoutMs: true,
  requireJsonContentType: true,
  maxJsonDepth: true,
  maxJsonNodes: true,
});

function refuse(
  code: WebhookBodyErrorCode,
  status: 400 | 408 | 413 | 415,
  message: string,
): WebhookBody {
  return { valid: false, code, status, message: `Cannot read the webhook body: ${message}` };
}

function limitOption(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number") throw optionError(TypeError, ACTION, name, "a number", value);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw optionError(RangeError, ACTION, name, "a positive safe integer", value);
  }
  return value;
}

/** Reads a stream into one array, stopping the moment it passes `max` or the deadline. */
async function readBounded(
  body: ReadableStream<Uint8Array>,
  max: number,
  timeoutMs: number,
): Promise<Uint8Array | WebhookBody> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  try {
    while (true) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late") {
        reader.cancel().catch(() => {});
        return refuse("body_timeout", 408, `not received within ${timeoutMs} ms`);
      }
      if (next.done) break;
      if (!(next.value instanceof Uint8Array)) {
        reader.cancel().catch(() => {});
        return refuse("body_unreadable", 400, "the stream yielded something other than bytes");
      }
      size += next.value.byteLength;
      if (size > max) {
        reader.cancel().catch(() => {});
        return refuse("body_too_large", 413, `exceeded ${max} bytes`);
      }
      chunks.push(next.value);
    }
  } catch {
    return refuse("body_unreadable", 400, "the body stream failed");
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Whether a `Content-Type` value is `application/json` (type and subtype in any case, optional
 * whitespace), with parameters allowed but a `charset` only `utf-8` (quoted or not, any case).
 */
function isJsonMediaType(value: string | null): boolean {
  if (value === null) return false;
  const [type, ...parameters] = value.split(";");
  if (type!.trim().toLowerCase() !== "application/json") return false;
  for (const parameter of parameters) {
    const equals = parameter.indexOf("=");
    const name = (equals === -1 ? parameter : parameter.slice(0, equals)).trim().toLowerCase();
    if (name !== "charset") continue;
    const charset = parameter.slice(equals + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase();
    if (equals === -1 || charset !== "utf-8") return false;
  }
  return true;
}

/**
 * Reads a webhook POST body within bounds (1 MiB, 10 s for the whole body; a `Content-Length`
 * over the limit, or a `Request` not declaring `Content-Type: application/json`, is refused
 * before a byte is read) and parses it as strict JSON: UTF-8 without a byte order mark, no
 * duplicate object keys at any depth, under the JSON depth and node limits.
 * Returns the exact bytes for signature verification beside the value, or a code and the HTTP
 * status to answer. Never throws for anything the sender controls.
 *
 * Spec: webhooks.mdx, Security, "Payload size limit: Receivers SHOULD enforce a 1MB limit. Reject
 * before signature verification", "Content-Type validation: … Receivers MUST reject other types
 * before signature verification"; security.mdx, duplicate object keys (MUST reject).
 *
 * @param input The incoming `Request`, or the body's bytes.
 * @param options The limits.
 * @returns `{ valid: true, rawBody, value }` or `{ valid: false, code, status, message }`.
 * @throws {TypeError} When `input` is neither a `Request` nor a `Uint8Array`, or an option has the
 * wrong type or an unknown name (before a byte is read).
 * @throws {RangeError} When a limit is out of range.
 *
 * @example A body with a repeated key is refused before anyone acts on either value
 * ```ts
 * import { readWebhookBody } from "@adcp-wire/webhooks";
 * import { strictEqual } from "node:assert/strict";
 *
 * const body = '{"status":"approved","status":"rejected"}';
 * const headers = { "content-type": "application/json" };
 * const request = new Request("https://buyer.example/webhooks", { method: "POST", headers, body });
 * const read = await readWebhookBody(request);
 * strictEqual(!read.valid && read.code, "webhook_body_malformed");
 * strictEqual(!read.valid && read.status, 400);
 *
 * const text = new Request("https://buyer.example/webhooks", { method: "POST", body: "{}" });
 * const refused = await readWebhookBody(text); // Content-Type: text/plain;charset=UTF-8
 * strictEqual(!refused.valid && refused.status, 415);
 * ```
 */
export async function readWebhookBody(
  input: Request | Uint8Array,
  options: ReadWebhookBodyOptions = {},
): Promise<WebhookBody> {
  if (options === null || typeof options !== "object") {
    throw optionError(TypeError, ACTION, "options", "an object", options);
  }
  checkOptionKeys(ACTION, "options", options, READ_WEBHOOK_BODY_KEYS);
  const max = limitOption("options.maxBodyBytes", options.maxBodyBytes, WEBHOOK_MAX_BODY_BYTES);
  const timeoutMs = limitOption("options.timeoutMs", options.timeoutMs, WEBHOOK_BODY_TIMEOUT_MS);
  const requireJson = options.requireJsonContentType ?? true;
  if (typeof requireJson !== "boolean") {
    throw optionError(
      TypeError,
      ACTION,
      "options.requireJsonContentType",
      "a boolean",
      requireJson,
    );
  }
  const limits: JsonLimits = {
    ...(options.maxJsonDepth === undefined ? {} : { maxJsonDepth: options.maxJsonDepth }),
    ...(options.maxJsonNodes === undefined ? {} : { maxJsonNodes: options.maxJsonNodes }),
  };
  let bytes: Uint8Array;
  if (input instanceof Uint8Array) {
    if (input.byteLength > max) return refuse("body_too_large", 413, `exceeded ${max} bytes`);
    bytes = input;
  } else if (input instanceof Request) {
    if (requireJson && !isJsonMediaType(input.headers.get("content-type"))) {
      input.body?.cancel().catch(() => {});
      return refuse("body_content_type", 415, "expected Content-Type application/json");
    }
    const declared = input.headers.get("content-length");
    if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > max) {
      input.body?.cancel().catch(() => {});
      return refuse("body_too_large", 413, `Content-Length is over ${max} bytes`);
    }
    if (input.bodyUsed) return refuse("body_unreadable", 400, "the body was already read");
    if (input.body === null) {
      bytes = new Uint8Array(0);
    } else {
      const read = await readBounded(input.body, max, timeoutMs);
      if (!(read instanceof Uint8Array)) return read;
      bytes = read;
    }
  } else {
    throw optionError(TypeError, ACTION, "input", "a Request or a Uint8Array", input);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return refuse("body_not_utf8", 400, "expected UTF-8");
  }
  if (text.startsWith("\uFEFF")) {
    return refuse("body_not_utf8", 400, "expected no byte order mark");
  }
  try {
    return { valid: true, rawBody: bytes, value: parseJsonStrict(text, limits) };
  } catch (error) {
    if (error instanceof DuplicateKeyError) {
      return refuse("webhook_body_malformed", 400, error.message.replace(/^Cannot [^:]*: /, ""));
    }
    if (error instanceof JsonDepthLimitError || error instanceof JsonNodeLimitError) {
      return refuse("body_json_limits", 413, error.message.replace(/^Cannot [^:]*: /, ""));
    }
    if (error instanceof SyntaxError) return refuse("body_malformed", 400, "expected JSON");
    throw error;
  }
}
