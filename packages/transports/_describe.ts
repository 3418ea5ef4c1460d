// Describes a bad option value for TypeError/RangeError messages without echoing its content.

/** A short, safe description of a bad option value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  if (type === "object" || type === "function") {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name !== "" && name !== "Object"
      ? `a ${name}`
      : `an ${type}`;
  }
  if (type === "string") return `a string`;
  return `${type} ${String(value)}`;
}
