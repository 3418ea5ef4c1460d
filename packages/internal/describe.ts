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
