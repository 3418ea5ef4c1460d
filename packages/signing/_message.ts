// The verifiers' one input shape: a standard Request (body read once, bounded) or the parts of a
// message (as conformance vectors and non-fetch servers hold them).
import {
  checkOptionKeys,
  concatBytes,
  integerOption,
  optionError,
  type OptionKeys,
} from "@adcp-wire/internal";
import type { Message } from "./_verify.ts";
import { BodyTimeoutError, BodyTooLargeError } from "./errors.ts";

/** The parts of an HTTP message, for servers that do not hand out a `Request`. */
export interface HttpMessageParts {
  /** The request method. */
  readonly method: string;
  /** The absolute URL as received (scheme, the `Host` authority, path and query). */
  readonly url: string;
  /** The header fields as received. */
  readonly headers?: HeadersInit;
  /** The exact body bytes (a string is UTF-8 encoded); absent or empty for no body. */
  readonly body?: Uint8Array | string;
}

/** Default cap on a body the verifiers read: 4 MiB (4,194,304 bytes). */
export const DEFAULT_MAX_BODY_BYTES = 4_194_304;

/** Default cap on a webhook body: 1 MiB (1,048,576 bytes; webhooks.mdx, "Payload size limit"). */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = 1_048_576;

/** Default deadline for reading a body: 10,000 ms (the webhook body deadline of webhooks.mdx). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

async function readCapped(
  request: Request,
  maxBytes: number,
  timeoutMs: number,
): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(maxBytes);
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One deadline over the whole body: a sender trickling bytes cannot hold the verifier.
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), expired]);
      if (done) break;
      total += value.length;
      if (total > maxBytes) throw new BodyTooLargeError(maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return concatBytes(chunks, total);
}

/**
 * The verifier's view of `input`. A `Request` body is consumed (read it from the result, not the
 * request).
 */
export async function toMessage(
  input: Request | HttpMessageParts,
  maxBodyBytes: number,
  timeoutMs: number,
  action: string,
  authority?: string,
): Promise<Message> {
  if (input instanceof Request) {
    const body = await readCapped(input, maxBodyBytes, timeoutMs);
    return { method: input.method, url: input.url, headers: input.headers, body, authority };
  }
  if (typeof input !== "object" || input === null) {
    throw optionError(TypeError, action, "input", "a Request or message parts", input);
  }
  if (typeof input.method !== "string" || typeof input.url !== "string") {
    throw optionError(TypeError, action, "input", "an object with method and url strings", input);
  }
  const raw = input.body ?? new Uint8Array(0);
  if (typeof raw !== "string" && !(raw instanceof Uint8Array)) {
    throw optionError(TypeError, action, "input.body", "a Uint8Array or a string", raw);
  }
  const body = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
  if (body.length > maxBodyBytes) throw new BodyTooLargeError(maxBodyBytes);
  let headers: Headers;
  try {
    headers = new Headers(input.headers);
  } catch {
    throw optionError(TypeError, action, "input.headers", "valid header fields", input.headers);
  }
  return { method: input.method, url: input.url, headers, body, authority };
}

/** How much of a body a verifier reads, and for how long. */
export interface BodyLimits {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
}

/** The body limits of a verifier's options. */
export function bodyLimitsOf(
  options: { readonly maxBodyBytes?: number; readonly bodyTimeoutMs?: number },
  action: string,
  defaultMaxBytes: number,
): BodyLimits {
  return {
    maxBodyBytes: integerOption(action, "maxBodyBytes", options.maxBodyBytes, defaultMaxBytes, {
      min: 1,
    }),
    bodyTimeoutMs: integerOption(
      action,
      "bodyTimeoutMs",
      options.bodyTimeoutMs,
      DEFAULT_BODY_TIMEOUT_MS,
      { min: 1 },
    ),
  };
}

/**
 * A verify call's input read once within `limits`, after its options object is checked: an
 * object whose keys are all in `keys` (a precomputed set: the check allocates nothing unless it
 * throws).
 */
export function readMessage(
  input: Request | HttpMessageParts,
  options: { readonly authority?: string } | null,
  keys: OptionKeys,
  limits: BodyLimits,
  action: string,
): Promise<Message> {
  if (typeof options !== "object" || options === null) {
    throw optionError(TypeError, action, "options", "an object", options);
  }
  checkOptionKeys(action, "options", options, keys);
  return toMessage(input, limits.maxBodyBytes, limits.bodyTimeoutMs, action, options.authority);
}
