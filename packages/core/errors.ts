import { AdcpWireError } from "@adcp-wire/internal";

/**
 * Base class of the errors `@adcp-wire/core` throws for conditions callers are expected to catch,
 * under the workspace root {@link AdcpWireError}. Programmer errors (bad options) are `TypeError`
 * or `RangeError` instead.
 *
 * Subclasses set a literal upper-case {@link AdcpCoreError.code}; {@link AnyCoreError} is the
 * union of all of them, for exhaustive `switch` statements on `code`.
 *
 * @example Catching any core error
 * ```ts
 * import { AdcpCoreError, extractAdcpResponseFromA2A } from "@adcp-wire/core";
 * import { ok } from "node:assert/strict";
 *
 * const task = {
 *   status: { state: "completed" },
 *   artifacts: [{ parts: [{ data: { response: { products: [] } } }] }],
 * };
 * let caught: unknown;
 * try {
 *   extractAdcpResponseFromA2A(task);
 * } catch (error) {
 *   caught = error;
 * }
 * ok(caught instanceof AdcpCoreError);
 * ```
 */
export abstract class AdcpCoreError extends AdcpWireError {
  /** Machine-readable error code, an upper-case string literal per subclass. */
  abstract override readonly code: string;
  /** Error name, a string literal per subclass. */
  override readonly name: string = "AdcpCoreError";
}

/**
 * Thrown by {@link extractAdcpResponseFromA2A} when the authoritative DataPart of a final-state
 * task is a framework wrapper: its `data` has exactly one own key, `response`, whose value is a
 * non-null, non-array object (A2A Response Extraction, "Wrapper Rejection" and "Extraction
 * Algorithm" step 2c). This is a server-side bug; the client reports it rather than silently
 * unwrapping.
 *
 * @example Reading the offending part
 * ```ts
 * import { extractAdcpResponseFromA2A, WrapperDetectedError } from "@adcp-wire/core";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const task = {
 *   status: { state: "TASK_STATE_COMPLETED" },
 *   artifacts: [{ parts: [{ text: "Done" }, { data: { response: { products: [] } } }] }],
 * };
 * try {
 *   extractAdcpResponseFromA2A(task);
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof WrapperDetectedError);
 *   strictEqual(error.code, "WRAPPER_DETECTED");
 *   strictEqual(error.partIndex, 1);
 * }
 * ```
 */
export class WrapperDetectedError extends AdcpCoreError {
  /**
   * Always `"WRAPPER_DETECTED"`; the upstream test vectors spell this `expected_error_type` in
   * lower case, `wrapper_detected`.
   */
  readonly code: "WRAPPER_DETECTED" = "WRAPPER_DETECTED";
  /** Always `"WrapperDetectedError"`. */
  override readonly name: "WrapperDetectedError" = "WrapperDetectedError";
  /** Index of the wrapper DataPart in `artifacts[0].parts`. */
  readonly partIndex: number;

  /**
   * Creates the error for the wrapper at `artifacts[0].parts[partIndex]`.
   *
   * @param partIndex Index of the wrapper DataPart in `artifacts[0].parts`.
   */
  constructor(partIndex: number) {
    super(
      `Cannot extract A2A response: artifacts[0].parts[${partIndex}].data is a framework wrapper ` +
        `(expected the AdCP payload, saw a single "response" key holding an object)`,
      { cause: { partIndex } },
    );
    this.partIndex = partIndex;
  }
}

/**
 * The DataPart that extraction selected is larger than `maxDataPartBytes` (default 1 MiB), the
 * size clients bound before schema validation (A2A Response Extraction, Security Considerations,
 * Size Limits: "Clients SHOULD enforce a maximum DataPart size (e.g. 1MB) before schema
 * validation"). The size is that of the part's `data` serialized as JSON, in UTF-8 bytes.
 *
 * @example Reading the fields
 * ```ts
 * import { DataPartTooLargeError, extractAdcpResponseFromA2A } from "@adcp-wire/core";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const task = {
 *   status: { state: "completed" },
 *   artifacts: [{ parts: [{ data: { note: "x".repeat(100) } }] }],
 * };
 * try {
 *   extractAdcpResponseFromA2A(task, { maxDataPartBytes: 64 });
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof DataPartTooLargeError);
 *   strictEqual(error.code, "DATA_PART_TOO_LARGE");
 *   strictEqual(error.limit, 64);
 *   strictEqual(error.observed, 111);
 * }
 * ```
 */
export class DataPartTooLargeError extends AdcpCoreError {
  /** Always `"DATA_PART_TOO_LARGE"`. */
  readonly code: "DATA_PART_TOO_LARGE" = "DATA_PART_TOO_LARGE";
  /** Always `"DataPartTooLargeError"`. */
  override readonly name: "DataPartTooLargeError" = "DataPartTooLargeError";
  /** The limit, in bytes. */
  readonly limit: number;
  /** The part's size in bytes: exact, or for a huge part a lower bound above `limit`. */
  readonly observed: number;

  /**
   * Creates the error.
   *
   * @param limit The limit, in bytes.
   * @param observed The part's size (or a lower bound of it above the limit), in bytes.
   */
  constructor(limit: number, observed: number) {
    super(`Cannot extract A2A response: DataPart exceeded ${limit} bytes (observed ${observed})`, {
      cause: { limit, observed },
    });
    this.limit = limit;
    this.observed = observed;
  }
}

/**
 * The parts extraction read held another number of DataParts than the caller expected: an
 * intermediary may have injected one (A2A Response Extraction, Security Considerations,
 * Intermediary Injection: "Clients operating through intermediaries SHOULD verify that the
 * artifact's part count matches expectations").
 *
 * @example An injected extra DataPart
 * ```ts
 * import { extractAdcpResponseFromA2A, UnexpectedPartCountError } from "@adcp-wire/core";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const task = {
 *   status: { state: "completed" },
 *   artifacts: [{ parts: [{ data: { products: [] } }, { data: { products: ["injected"] } }] }],
 * };
 * try {
 *   extractAdcpResponseFromA2A(task, { expectedDataParts: 1 });
 *   ok(false, "expected a throw");
 * } catch (error) {
 *   ok(error instanceof UnexpectedPartCountError);
 *   strictEqual(error.code, "UNEXPECTED_PART_COUNT");
 *   strictEqual(error.observed, 2);
 * }
 * ```
 */
export class UnexpectedPartCountError extends AdcpCoreError {
  /** Always `"UNEXPECTED_PART_COUNT"`. */
  readonly code: "UNEXPECTED_PART_COUNT" = "UNEXPECTED_PART_COUNT";
  /** Always `"UnexpectedPartCountError"`. */
  override readonly name: "UnexpectedPartCountError" = "UnexpectedPartCountError";
  /** The DataParts expected. */
  readonly expected: number;
  /** The DataParts found. */
  readonly observed: number;

  /**
   * Creates the error.
   *
   * @param expected The DataParts expected.
   * @param observed The DataParts found.
   */
  constructor(expected: number, observed: number) {
    super(`Cannot extract A2A response: expected ${expected} DataPart(s), saw ${observed}`, {
      cause: { expected, observed },
    });
    this.expected = expected;
    this.observed = observed;
  }
}

/** Every error class `@adcp-wire/core` throws, discriminated by `code`. */
export type AnyCoreError =
  | WrapperDetectedError
  | DataPartTooLargeError
  | UnexpectedPartCountError;
