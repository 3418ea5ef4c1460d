import { IDEMPOTENCY_KEY_PATTERN as KEY_PATTERN, optionError } from "@adcp-wire/internal";

/** What the option errors of {@link withIdempotencyKey} say could not be done. */
const ACTION = "add an idempotency key";

/**
 * Returns `args` with an `idempotency_key`: the one `args` already has, else `key` when given,
 * else a fresh UUID v4. Call it once per logical request and pass the result to every attempt, so
 * that a retry resends the same payload with the same key. `args` is not modified (the result is
 * a new object unless `args` already had a key).
 *
 * Spec: Security, "Request safety".
 *
 * @param args The task arguments.
 * @param key The key to use instead of a fresh UUID v4 (for example one persisted for a retry
 * after a restart).
 * @returns The arguments with their `idempotency_key`.
 * @throws {TypeError} When `args` is not an object, or `key` (when given, even if unused) or an
 * existing `idempotency_key` does not match the schemas' pattern `^[A-Za-z0-9_.:-]{16,255}$`.
 *
 * @example One key across every attempt of a mutating call
 * ```ts
 * import { withIdempotencyKey } from "@adcp-wire/transports";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const input = { buyer_ref: "campaign-7", packages: [] };
 * const keyed = withIdempotencyKey(input);
 * ok(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(
 *   keyed.idempotency_key,
 * ));
 * strictEqual(withIdempotencyKey(keyed), keyed); // already keyed: unchanged
 * strictEqual("idempotency_key" in input, false); // the input is not modified
 * ```
 */
export function withIdempotencyKey<T extends Record<string, unknown>>(
  args: T,
  key?: string,
): T & { readonly idempotency_key: string } {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw optionError(TypeError, ACTION, "args", "an object", args);
  }
  // A given key is held to the same pattern as an existing one, whether or not it is used.
  if (key !== undefined) checkKey("key", key);
  if (Object.hasOwn(args, "idempotency_key")) {
    checkKey("args.idempotency_key", args.idempotency_key);
    return args as T & { readonly idempotency_key: string };
  }
  return { ...args, idempotency_key: key ?? crypto.randomUUID() };
}

function checkKey(name: string, value: unknown): void {
  if (typeof value !== "string" || !KEY_PATTERN.test(value)) {
    throw optionError(TypeError, ACTION, name, `a string matching ${KEY_PATTERN.source}`, value);
  }
}
