// Core-specific readers of seller-controlled JSON; the generic own-property readers are those of
// @adcp-wire/internal.
//
// The extraction hot paths read a property with its name written at the call site
// (`result.structuredContent`), so that each site has its own inline cache, then, only when the
// read found a value, ask `isOwnValue` whether it is the object's own: it is when the object has a
// null prototype, or `Object.prototype` as prototype and `Object.prototype` lacks the key (read at
// the call site too: `PROTO.structuredContent`, answered by the inline cache). Only otherwise (any
// other prototype, or a polluted `Object.prototype`) is `Object.hasOwn` asked. The answer is the
// one `own` of @adcp-wire/internal gives; the generic helpers would instead share one cache
// between every key and object (megamorphic) and call `Object.hasOwn` each time (about 7 ns in
// V8, as much as a whole `extractResult` of @adcp/sdk). Like those helpers, these do not defend
// against proxies or accessors, which are not JSON.

import type { JsonRecord } from "@adcp-wire/internal";

const OBJECT_PROTOTYPE: object = Object.prototype;
const ARRAY_PROTOTYPE: object = Array.prototype;

/**
 * `Object.prototype`, to read a key on at the call site for {@link isOwnValue}: `undefined` unless
 * someone polluted it.
 */
export const PROTO: Readonly<Record<string, unknown>> = Object.prototype as Record<
  string,
  unknown
>;

/**
 * Whether `object[key]`, just read and not `undefined`, is an own property of `object`;
 * `inherited` is `PROTO[key]`, read at the call site.
 */
export function isOwnValue(object: object, key: string, inherited: unknown): boolean {
  return (inherited === undefined && Object.getPrototypeOf(object) === OBJECT_PROTOTYPE) ||
    isOwnOtherwise(object, key);
}

/** {@link isOwnValue} off the common case, apart so that the common case stays small to inline. */
function isOwnOtherwise(object: object, key: string): boolean {
  return Object.getPrototypeOf(object) === null || Object.hasOwn(object, key);
}

/**
 * `ownElement` of @adcp-wire/internal: element `index` (a valid array index) of `array` when it is
 * an own element, not a hole filled from a prototype.
 */
export function fastOwnElement(array: readonly unknown[], index: number): unknown {
  const value = array[index];
  // `index in Array.prototype` looks along Array.prototype's chain too (Object.prototype).
  return value === undefined ||
      (Object.getPrototypeOf(array) === ARRAY_PROTOTYPE && !(index in ARRAY_PROTOTYPE)) ||
      Object.hasOwn(array, index)
    ? value
    : undefined;
}

/** The own `adcp_error` of `object`, or `undefined`. */
export function adcpErrorOf(object: JsonRecord): unknown {
  const value = object.adcp_error;
  return value !== undefined && isOwnValue(object, "adcp_error", PROTO.adcp_error)
    ? value
    : undefined;
}

/**
 * Whether `object` carries an `adcp_error`: an own `adcp_error` property whose value is truthy,
 * the test of the reference detection code (`if (x?.adcp_error)`), so `null`, `false`, `0` and
 * `""` carry nothing. A present, truthy but malformed value still counts: it is then the location
 * that decides, and validation turns it into "no structured error" (Transport Error Mapping,
 * "Client Detection Order": "If validation fails, treat as no structured error found").
 */
export function carriesAdcpError(object: JsonRecord): boolean {
  return Boolean(adcpErrorOf(object));
}

/**
 * Whether the only own key of `object` is `adcp_error` (MCP Response Extraction, "Extraction
 * Algorithm" steps 2 and 3: an error response missing its `isError` flag). The keys are listed
 * only when `in` (answered by the inline cache) says `adcp_error` may be one: almost never on
 * success data.
 */
export function isAdcpErrorOnly(object: JsonRecord): boolean {
  return "adcp_error" in object && onlyKeyIs(object, "adcp_error");
}

/** Whether `Object.keys(object)` is `[key]`. */
export function onlyKeyIs(object: JsonRecord, key: string): boolean {
  const keys = Object.keys(object);
  return keys.length === 1 && keys[0] === key;
}
