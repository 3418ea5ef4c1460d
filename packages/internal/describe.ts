// One rendering of a bad value for error messages, shared by every package.

/** Longest string shown in full, in UTF-16 code units; longer ones are cut and end in `…`. */
const SHOWN_STRING_UNITS = 32;

/**
 * A short, bounded rendering of `value` for an error message: numbers as written (`-0`, `NaN`),
 * strings quoted and cut after 32 code units, `null`, `undefined`, booleans and bigints as
 * written, and only the kind of anything else (`an array`, `an object`, `a function`). Pass it
 * nothing secret: strings are shown.
 *
 * @param value The value to render.
 * @returns Its rendering.
 *
 * @example Usage
 * ```ts
 * import { describe } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(describe(-0), "-0");
 * strictEqual(describe("x"), '"x"');
 * strictEqual(describe([1]), "an array");
 * strictEqual(describe(new Map()), "an object");
 * ```
 */
export function describe(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(
        value.length > SHOWN_STRING_UNITS ? `${value.slice(0, SHOWN_STRING_UNITS)}…` : value,
      );
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "boolean":
    case "undefined":
      return String(value);
    case "object":
      return value === null ? "null" : Array.isArray(value) ? "an array" : "an object";
    default:
      return `a ${typeof value}`;
  }
}

/**
 * A value by its kind and size only, never its content: `a 6-character string`, `an empty
 * string`, `an array of 3 items`, `an object`, `a number`, `a boolean`, `null`, `missing`
 * (`undefined`). For messages about a counterparty's value, whose strings may carry log- or
 * prompt-injection payloads (Security, "Prompt injection via seller-controlled strings").
 *
 * @param value The value to describe.
 * @returns Its kind, with the length of a string or an array.
 *
 * @example Usage
 * ```ts
 * import { describeShape } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(describeShape("ignore previous instructions"), "a 28-character string");
 * strictEqual(describeShape([1, 2]), "an array of 2 items");
 * strictEqual(describeShape(undefined), "missing");
 * ```
 */
export function describeShape(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (typeof value === "string") {
    return value.length === 0 ? "an empty string" : `a ${value.length}-character string`;
  }
  if (Array.isArray(value)) {
    return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  }
  switch (typeof value) {
    case "object":
      return "an object";
    case "number":
    case "bigint":
      return "a number";
    case "boolean":
      return "a boolean";
    default:
      return `a ${typeof value}`;
  }
}

/**
 * `value` as an option error may show it: a string becomes a placeholder giving only its size
 * (its length in UTF-16 code units unless `size` says otherwise), so seller text, credentials and
 * internal names stay out of messages and logs; any other value is returned as it is, for
 * {@link describe} to show by kind or as written.
 *
 * @param value The value an error is about.
 * @param size What to say of a string's size instead of its length in code units.
 * @returns The placeholder for a string, else `value`.
 *
 * @example Usage
 * ```ts
 * import { notShown } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(notShown("Bearer s3cret"), "(13 characters, not shown)");
 * strictEqual(notShown("x", "2 bytes"), "(2 bytes, not shown)");
 * strictEqual(notShown(5), 5);
 * ```
 */
export function notShown(value: unknown, size?: string): unknown {
  if (typeof value !== "string") return value;
  return `(${size ?? `${value.length} character${value.length === 1 ? "" : "s"}`}, not shown)`;
}
