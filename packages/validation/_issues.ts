// Private: turns the failures of a precompiled validator into AdCP issues with bounded, data-free
// messages.
import type { CompiledValidatorError } from "@adcp-wire/schemas/validators";
import {
  ISSUE_MESSAGE_MAX_LENGTH,
  ISSUE_POINTER_MAX_LENGTH,
  type ValidationIssue,
} from "./validation_result.ts";

/** The longest schema value quoted in a message. */
const QUOTE_MAX = 64;

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** A schema value for a message: JSON text, cut to {@link QUOTE_MAX} characters. */
function quote(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return cut(text, QUOTE_MAX);
}

function count(n: unknown, one: string, many: string): string {
  return `${typeof n === "number" ? n : quote(n)} ${n === 1 ? one : many}`;
}

/** Escapes one RFC 6901 reference token. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The message of one failure, from its keyword and its schema-side params only. Params that hold
 * data (the name of an additional property, a property name, the values compared) are never quoted.
 */
function message(keyword: string, p: Readonly<Record<string, unknown>>): string {
  switch (keyword) {
    case "required":
      return `Missing required property ${quote(p.missingProperty)}`;
    case "dependencies":
    case "dependentRequired":
      return `Missing property ${quote(p.missingProperty)}, required when ${
        quote(p.property)
      } is present`;
    case "type":
      return `Expected type ${
        String(p.type).split(",").map((t) => cut(t, QUOTE_MAX)).join(" or ")
      }`;
    case "enum": {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues : [];
      if (allowed.length > 0 && allowed.length <= 5) {
        return `Expected one of ${allowed.map(quote).join(", ")}`;
      }
      return `Expected one of the ${allowed.length} values the schema allows`;
    }
    case "const":
      return `Expected the constant ${quote(p.allowedValue)}`;
    case "pattern":
      return `Expected a string matching the pattern ${quote(p.pattern)}`;
    case "format":
      return `Expected a string in the ${quote(p.format)} format`;
    case "minLength":
      return `Expected at least ${count(p.limit, "character", "characters")}`;
    case "maxLength":
      return `Expected at most ${count(p.limit, "character", "characters")}`;
    case "minItems":
      return `Expected at least ${count(p.limit, "item", "items")}`;
    case "maxItems":
      return `Expected at most ${count(p.limit, "item", "items")}`;
    case "minProperties":
      return `Expected at least ${count(p.limit, "property", "properties")}`;
    case "maxProperties":
      return `Expected at most ${count(p.limit, "property", "properties")}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `Expected a number ${cut(String(p.comparison), 2)} ${quote(p.limit)}`;
    case "multipleOf":
      return `Expected a multiple of ${quote(p.multipleOf)}`;
    case "uniqueItems":
      return `Expected unique items (items ${quote(p.j)} and ${quote(p.i)} are equal)`;
    case "additionalProperties":
      return "Expected no property the schema does not name";
    case "propertyNames":
      return "Expected a property name the schema allows";
    case "additionalItems":
      return `Expected at most ${count(p.limit, "item", "items")}`;
    case "contains":
      return "Expected at least one item matching the schema";
    case "anyOf":
      return "Expected a value matching at least one of the allowed shapes";
    case "oneOf":
      return Array.isArray(p.passingSchemas)
        ? "Expected a value matching exactly one of the allowed shapes " +
          `(it matches ${p.passingSchemas.length})`
        : "Expected a value matching exactly one of the allowed shapes";
    case "not":
      return "Expected a value not matching a shape the schema forbids";
    case "if":
      return `Expected a value matching the ${quote(p.failingKeyword)} branch of a condition`;
    case "false schema":
      return "Expected no value here";
    default:
      return `Expected a value passing the ${quote(keyword)} rule`;
  }
}

/**
 * The pointer of one failure: the instance path, plus the property the keyword names (see
 * ValidationIssue).
 */
function pointerOf(e: CompiledValidatorError): string {
  const p = e.params;
  const child = e.keyword === "required" || e.keyword === "dependencies" ||
      e.keyword === "dependentRequired"
    ? p.missingProperty
    : e.keyword === "additionalProperties"
    ? p.additionalProperty
    : e.keyword === "propertyNames"
    ? p.propertyName
    : undefined;
  return typeof child === "string" ? `${e.instancePath}/${escapeToken(child)}` : e.instancePath;
}

/** Cuts a pointer back to its deepest ancestor within the limit. */
function boundPointer(pointer: string): { pointer: string; cut: boolean } {
  if (pointer.length <= ISSUE_POINTER_MAX_LENGTH) return { pointer, cut: false };
  const slash = pointer.lastIndexOf("/", ISSUE_POINTER_MAX_LENGTH);
  return { pointer: slash <= 0 ? "" : pointer.slice(0, slash), cut: true };
}

/**
 * Issues from a validator's failures.
 *
 * @param errors The validator's `errors` after it returned `false`.
 * @param maxIssues The most issues to return.
 * @param prefix A pointer prepended to every pointer (`/result` for a webhook's result).
 */
export function toIssues(
  errors: readonly CompiledValidatorError[] | null | undefined,
  maxIssues: number,
  prefix = "",
): ValidationIssue[] {
  const list = errors ?? [];
  if (list.length === 0) {
    // Ajv always reports why; this only guards against an empty report.
    return [{
      pointer: prefix,
      message: "Expected a value matching the schema",
      keyword: "schema",
    }];
  }
  // Keep the last failure, the one that stopped validation (the enclosing keyword of the branch
  // failures before it).
  const kept = list.length <= maxIssues
    ? list
    : [...list.slice(0, maxIssues - 1), list[list.length - 1]!];
  return kept.map((e) => {
    const keyword = cut(String(e.keyword), QUOTE_MAX);
    const bounded = boundPointer(`${prefix}${pointerOf(e)}`);
    const text = message(keyword, e.params ?? {});
    return {
      pointer: bounded.pointer,
      message: cut(
        bounded.cut ? `${text} (at a descendant of this pointer)` : text,
        ISSUE_MESSAGE_MAX_LENGTH,
      ),
      keyword,
    };
  });
}
