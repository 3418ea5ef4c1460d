// The JSON step shared by every reader: depth pre-scan, parse, node bound.
import { checkJsonBounds, checkJsonDepth } from "@adcp-wire/security";
import { MalformedJsonError } from "../errors.ts";

/**
 * Parses `text` under validated bounds (see `parseBoundedJson`).
 *
 * @throws {JsonDepthLimitError | MalformedJsonError | JsonNodeLimitError} (the JSON bound errors of
 * `@adcp-wire/security`)
 */
export function parseJsonWithin(text: string, maxDepth: number, maxNodes: number): unknown {
  // The verdict only (a few native searches for a text with few brackets), before the parser.
  const depth = checkJsonDepth(text, maxDepth);
  if (!depth.valid) throw depth.error;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedJsonError("syntax", text.length);
  }
  // The pre-scan already bounded depth, so the walk is only needed when the text is long enough to
  // hold more than maxNodes values: a text of n values has at least 2n - 1 characters (a scalar
  // needs one; a container of k values its two brackets, k - 1 commas and the values).
  if ((text.length + 1) / 2 <= maxNodes) return value;
  checkValueBounds(value, maxDepth, maxNodes);
  return value;
}

/** Walks a parsed value. @throws {JsonDepthLimitError | JsonNodeLimitError} */
export function checkValueBounds(value: unknown, maxDepth: number, maxNodes: number): void {
  const bounds = checkJsonBounds(value, { maxJsonDepth: maxDepth, maxJsonNodes: maxNodes });
  if (!bounds.valid) throw bounds.error;
}

/** A JSON copy (own enumerable data only), or `undefined` when the value does not serialize. */
export function jsonCopy(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
