// Private: how receiving functions describe a seller value in a message: by type and size only,
// never by content (seller strings may carry log-injection or prompt-injection payloads).

/**
 * The type of `value` and, for a string or an array, its length: `a 6-character string`,
 * `an array of 3 items`, `an object`, `a number`, `null`, `nothing` (`undefined`).
 */
export function describeShape(value: unknown): string {
  if (value === undefined) return "nothing";
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
