// The root of every error class the workspace throws on purpose.

/**
 * The root class of every error an `@adcp-wire/*` package throws for a condition callers are
 * expected to catch. Each package's base class (`AdcpCoreError`, `AdcpRecoveryError`,
 * `AdcpSecurityError`, `AdcpTransportError`) extends it, so one `instanceof` check catches them
 * all, and `code` (an upper-case literal per class) tells them apart. Programmer errors (a bad
 * option) are thrown as built-in `TypeError`/`RangeError` instead.
 *
 * @example Catching anything the library throws on purpose
 * ```ts
 * import { AdcpWireError } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * class ExampleError extends AdcpWireError {
 *   override readonly name = "ExampleError";
 *   readonly code = "EXAMPLE";
 * }
 * const error: unknown = new ExampleError("Cannot read example: it is broken");
 * strictEqual(error instanceof AdcpWireError && error.code, "EXAMPLE");
 * ```
 */
export abstract class AdcpWireError extends Error {
  /** The upper-case code of the condition, a literal per subclass. */
  abstract readonly code: string;

  /**
   * Makes an error with a sentence-case message and an optional `cause`.
   *
   * @param message What was expected and what was seen, without a trailing period.
   * @param options `cause`: the structured details or the underlying error.
   *
   * @example Usage
   * ```ts
   * import { AdcpWireError } from "@adcp-wire/internal";
   * import { strictEqual } from "node:assert/strict";
   *
   * class ExampleError extends AdcpWireError {
   *   override readonly name = "ExampleError";
   *   readonly code = "EXAMPLE";
   * }
   * strictEqual(new ExampleError("Cannot go", { cause: 1 }).cause, 1);
   * ```
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
