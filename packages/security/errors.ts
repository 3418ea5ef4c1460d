// The error family of @adcp-wire/security: conditions a caller is expected to catch when untrusted
// seller data breaks a safety limit or rule. Programmer errors (bad options) are
// TypeError/RangeError. JsonDepthLimitError and JsonNodeLimitError are declared here only: every
// package that bounds JSON (@adcp-wire/transports included) throws these classes.
import { AdcpWireError } from "@adcp-wire/internal";
import { MAX_KEY_NAMES, sanitizeKeyNamesUnchecked } from "./_key_names.ts";

/** The literal `code` of every error in the `@adcp-wire/security` family. */
export type AdcpSecurityErrorCode =
  | "JSON_DEPTH_LIMIT"
  | "JSON_NODE_LIMIT"
  | "DANGEROUS_KEY"
  | "BASE64_SIZE_LIMIT"
  | "INVALID_BASE64"
  | "duplicate_key_input";

/**
 * Base class of the `@adcp-wire/security` error family, under the workspace root
 * `AdcpWireError` of `@adcp-wire/internal`. Catch it to handle every security rejection at once,
 * or narrow on {@link AdcpSecurityError.code}.
 *
 * @example Narrowing on the code
 * ```ts
 * import { AdcpSecurityError, checkJsonBounds } from "@adcp-wire/security";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const result = checkJsonBounds([[[]]], { maxJsonDepth: 2 });
 * ok(!result.valid);
 * ok(result.error instanceof AdcpSecurityError);
 * strictEqual(result.error.code, "JSON_DEPTH_LIMIT");
 * ```
 */
export abstract class AdcpSecurityError extends AdcpWireError {
  /** Stable machine-readable identifier of the condition. */
  abstract override readonly code: AdcpSecurityErrorCode;
}

/** Structured fields shared by the limit errors, also set as their `cause`. */
export interface LimitErrorDetails {
  /** The configured limit. */
  readonly limit: number;
  /** The value seen when the limit was exceeded. */
  readonly observed: number;
}

/**
 * JSON nesting depth exceeded the limit. Depth counts nested containers: a scalar has depth 0,
 * `[]` has depth 1, `[[1]]` has depth 2. `observed` is the depth at which checking stopped (the
 * first level beyond the limit); the input may nest deeper, since checking stops early. Thrown by
 * this package's JSON checks and by the readers of `@adcp-wire/transports`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @example Reading the limit and the observed depth
 * ```ts
 * import { JsonDepthLimitError } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const error = new JsonDepthLimitError(64, 65);
 * strictEqual(error.message, "Cannot accept JSON: nesting exceeded 64 levels (observed 65)");
 * strictEqual(error.observed, 65);
 * deepStrictEqual(error.cause, { limit: 64, observed: 65 });
 * ```
 */
export class JsonDepthLimitError extends AdcpSecurityError {
  /** Always `"JSON_DEPTH_LIMIT"`. */
  readonly code: "JSON_DEPTH_LIMIT" = "JSON_DEPTH_LIMIT";
  /** Always `"JsonDepthLimitError"`. */
  override readonly name: "JsonDepthLimitError" = "JsonDepthLimitError";
  /** The configured maximum depth. */
  readonly limit: number;
  /** The depth at which checking stopped (at least `limit + 1`). */
  readonly observed: number;

  /**
   * Creates the error.
   *
   * @param limit The configured maximum depth.
   * @param observed The depth at which checking stopped.
   *
   * @example Usage
   * ```ts
   * import { JsonDepthLimitError } from "@adcp-wire/security";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new JsonDepthLimitError(2, 3).limit, 2);
   * ```
   */
  constructor(limit: number, observed: number) {
    super(`Cannot accept JSON: nesting exceeded ${limit} levels (observed ${observed})`, {
      cause: { limit, observed } satisfies LimitErrorDetails,
    });
    this.limit = limit;
    this.observed = observed;
  }
}

/**
 * JSON node count exceeded the limit. Every JSON value counts as one node (the root, each array
 * element, each object member value); object keys are not counted separately. `observed` is the
 * count at which checking stopped (`limit + 1`); the input may hold more. Thrown by this
 * package's JSON checks and by the readers of `@adcp-wire/transports`.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Size Limits.
 *
 * @example Reading the limit and the observed count
 * ```ts
 * import { JsonNodeLimitError } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new JsonNodeLimitError(10, 11);
 * strictEqual(error.message, "Cannot accept JSON: size exceeded 10 values (observed 11)");
 * strictEqual(error.code, "JSON_NODE_LIMIT");
 * ```
 */
export class JsonNodeLimitError extends AdcpSecurityError {
  /** Always `"JSON_NODE_LIMIT"`. */
  readonly code: "JSON_NODE_LIMIT" = "JSON_NODE_LIMIT";
  /** Always `"JsonNodeLimitError"`. */
  override readonly name: "JsonNodeLimitError" = "JsonNodeLimitError";
  /** The configured maximum node count. */
  readonly limit: number;
  /** The count at which checking stopped (`limit + 1`). */
  readonly observed: number;

  /**
   * Creates the error.
   *
   * @param limit The configured maximum node count.
   * @param observed The count at which checking stopped.
   *
   * @example Usage
   * ```ts
   * import { JsonNodeLimitError } from "@adcp-wire/security";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new JsonNodeLimitError(3, 4).observed, 4);
   * ```
   */
  constructor(limit: number, observed: number) {
    super(`Cannot accept JSON: size exceeded ${limit} values (observed ${observed})`, {
      cause: { limit, observed } satisfies LimitErrorDetails,
    });
    this.limit = limit;
    this.observed = observed;
  }
}

/** The keys that can reach an object's prototype chain when merged or assigned. */
export type DangerousKey = "__proto__" | "constructor" | "prototype";

/**
 * A seller-controlled object carried a key (`__proto__`, `constructor` or `prototype`) that
 * {@link mergeSafe} refuses to merge. `pointer` is an RFC 6901 JSON Pointer to the key; its
 * seller-controlled segments are sanitized with {@link sanitizeSellerString} and capped at 64
 * bytes, so it is safe to log but may not resolve in the original value.
 *
 * Spec: MCP Response Extraction 3.3.0-beta.0, Security Considerations, Prototype Pollution.
 *
 * @example Reading where the key was found
 * ```ts
 * import { DangerousKeyError } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new DangerousKeyError("__proto__", "/a/__proto__");
 * strictEqual(
 *   error.message,
 *   'Cannot merge seller data: key "__proto__" is not allowed (at /a/__proto__)',
 * );
 * ```
 */
export class DangerousKeyError extends AdcpSecurityError {
  /** Always `"DANGEROUS_KEY"`. */
  readonly code: "DANGEROUS_KEY" = "DANGEROUS_KEY";
  /** Always `"DangerousKeyError"`. */
  override readonly name: "DangerousKeyError" = "DangerousKeyError";
  /** The refused key. */
  readonly key: DangerousKey;
  /** RFC 6901 pointer to the refused key, with sanitized segments. */
  readonly pointer: string;

  /**
   * Creates the error.
   *
   * @param key The refused key.
   * @param pointer RFC 6901 pointer to the key (segments already sanitized by the caller).
   *
   * @example Usage
   * ```ts
   * import { DangerousKeyError } from "@adcp-wire/security";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new DangerousKeyError("prototype", "/prototype").key, "prototype");
   * ```
   */
  constructor(key: DangerousKey, pointer: string) {
    super(`Cannot merge seller data: key "${key}" is not allowed (at ${pointer})`, {
      cause: { key, pointer },
    });
    this.key = key;
    this.pointer = pointer;
  }
}

/**
 * A base64 payload would decode to more bytes than allowed. Raised from the encoded length alone,
 * before any decoding work.
 *
 * Spec: A2A Response Extraction, Security Considerations, FilePart URI validation.
 *
 * @example Reading the limit and the implied size
 * ```ts
 * import { Base64SizeLimitError } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new Base64SizeLimitError(1024, 3000);
 * strictEqual(
 *   error.message,
 *   "Cannot decode base64: decoded size would exceed 1024 bytes (implied 3000)",
 * );
 * ```
 */
export class Base64SizeLimitError extends AdcpSecurityError {
  /** Always `"BASE64_SIZE_LIMIT"`. */
  readonly code: "BASE64_SIZE_LIMIT" = "BASE64_SIZE_LIMIT";
  /** Always `"Base64SizeLimitError"`. */
  override readonly name: "Base64SizeLimitError" = "Base64SizeLimitError";
  /** The configured maximum decoded size in bytes. */
  readonly limit: number;
  /** The decoded size the encoded length implies, in bytes. */
  readonly observed: number;

  /**
   * Creates the error.
   *
   * @param limit The configured maximum decoded size in bytes.
   * @param observed The decoded size implied by the encoded length.
   *
   * @example Usage
   * ```ts
   * import { Base64SizeLimitError } from "@adcp-wire/security";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new Base64SizeLimitError(4, 6).observed, 6);
   * ```
   */
  constructor(limit: number, observed: number) {
    super(
      `Cannot decode base64: decoded size would exceed ${limit} bytes (implied ${observed})`,
      { cause: { limit, observed } satisfies LimitErrorDetails },
    );
    this.limit = limit;
    this.observed = observed;
  }
}

/** Why a base64 payload was rejected by {@link decodeBase64Bounded}. */
export type InvalidBase64Reason =
  | "invalid_character"
  | "invalid_length"
  | "invalid_padding"
  | "mixed_alphabets"
  | "non_canonical";

/**
 * A base64 payload is not valid strict base64 (see {@link decodeBase64Bounded} for the
 * accepted syntax).
 *
 * @example Reading the reason and the position
 * ```ts
 * import { InvalidBase64Error } from "@adcp-wire/security";
 * import { strictEqual } from "node:assert/strict";
 *
 * const error = new InvalidBase64Error("invalid_character", 3);
 * strictEqual(error.message, "Cannot decode base64: invalid_character at index 3");
 * ```
 */
export class InvalidBase64Error extends AdcpSecurityError {
  /** Always `"INVALID_BASE64"`. */
  readonly code: "INVALID_BASE64" = "INVALID_BASE64";
  /** Always `"InvalidBase64Error"`. */
  override readonly name: "InvalidBase64Error" = "InvalidBase64Error";
  /** What is wrong with the payload. */
  readonly reason: InvalidBase64Reason;
  /** UTF-16 index of the offending character, or of the end of the payload for length errors. */
  readonly position: number;

  /**
   * Creates the error.
   *
   * @param reason What is wrong with the payload.
   * @param position UTF-16 index where the problem was detected.
   *
   * @example Usage
   * ```ts
   * import { InvalidBase64Error } from "@adcp-wire/security";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new InvalidBase64Error("invalid_length", 5).position, 5);
   * ```
   */
  constructor(reason: InvalidBase64Reason, position: number) {
    super(`Cannot decode base64: ${reason} at index ${position}`, {
      cause: { reason, position },
    });
    this.reason = reason;
    this.position = position;
  }
}

/** Structured fields of {@link DuplicateKeyError}, also set as its `cause`. */
export interface DuplicateKeyErrorDetails {
  /** The sanitized duplicate key names: at most 4, then `<...N more>` when there are more. */
  readonly keys: readonly string[];
  /** How many duplicate members the text holds (every repeat of a key in its object counts). */
  readonly count: number;
}

/**
 * JSON text holds an object with the same key twice (compared after decoding escapes), at any
 * depth. The constructor sanitizes the names it is given (step 14b: a name with a non-printable
 * code point becomes `<sanitized:N>`, others are cut to 32 UTF-8 bytes, at most 4 names then
 * `<...N more>`), so `keys` and the message are safe to log and never hold a raw name. The `code`
 * is the lower-case `duplicate_key_input` the spec makes normative (case-sensitive, no prefix or
 * suffix) rather than this package's upper-case style, so that code written against any AdCP SDK
 * dispatches on it. Thrown by {@link parseJsonStrict}.
 *
 * Spec: security.mdx, Legacy HMAC-SHA256 fallback, Duplicate object keys; webhook verifier
 * checklist steps 14, 14a and 14b.
 *
 * @example Reading the sanitized names and the count
 * ```ts
 * import { DuplicateKeyError } from "@adcp-wire/security";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const error = new DuplicateKeyError(["status", "evil\u202Ename"]);
 * strictEqual(error.code, "duplicate_key_input");
 * deepStrictEqual(error.keys, ["status", "<sanitized:4>"]);
 * strictEqual(
 *   error.message,
 *   'Cannot accept JSON: object keys must be unique (2 duplicates: "status", "<sanitized:4>")',
 * );
 * ```
 */
export class DuplicateKeyError extends AdcpSecurityError {
  /** Always `"duplicate_key_input"`, the identifier security.mdx makes normative. */
  readonly code: "duplicate_key_input" = "duplicate_key_input";
  /** Always `"DuplicateKeyError"`. */
  override readonly name: "DuplicateKeyError" = "DuplicateKeyError";
  /** The sanitized names: at most 4, then `<...N more>` when there are more. */
  readonly keys: readonly string[];
  /** How many duplicate members were found. */
  readonly count: number;

  /**
   * Creates the error from the raw decoded names of the duplicate members, one per repeat, in
   * text order; they are sanitized here.
   *
   * @param names The raw names, at least one.
   *
   * @example Usage
   * ```ts
   * import { DuplicateKeyError } from "@adcp-wire/security";
   * import { deepStrictEqual, strictEqual } from "node:assert/strict";
   *
   * const error = new DuplicateKeyError(["a", "b", "c", "d", "e", "f"]);
   * strictEqual(error.count, 6);
   * deepStrictEqual(error.keys, ["a", "b", "c", "d", "<...2 more>"]);
   * ```
   */
  constructor(names: readonly string[]) {
    const keys = Object.freeze(sanitizeKeyNamesUnchecked(names));
    const count = names.length;
    const list = keys.map((key, index) =>
      // The overflow marker is ours, not a key: it stays unquoted.
      index === MAX_KEY_NAMES ? key : JSON.stringify(key)
    ).join(", ");
    super(
      `Cannot accept JSON: object keys must be unique (${count} ` +
        `${count === 1 ? "duplicate" : "duplicates"}: ${list})`,
      { cause: { keys, count } satisfies DuplicateKeyErrorDetails },
    );
    this.keys = keys;
    this.count = count;
  }
}

/** Any error of the `@adcp-wire/security` family, discriminated by `code`. */
export type AnySecurityError =
  | JsonDepthLimitError
  | JsonNodeLimitError
  | DangerousKeyError
  | Base64SizeLimitError
  | InvalidBase64Error
  | DuplicateKeyError;
