/**
 * What every suite of the conformance runner is made of: the shape of a suite, and the helpers
 * suites judge replies with. A suite lives in its own file of `scripts/_suites/` (or, for the
 * first nine, in `scripts/_vectors.ts`); `_vectors.ts` registers them.
 *
 * @module
 */

/** A reply that answers: a result or an error code. */
export type AnswerReply = { result: unknown } | { error: { code: string } };

/** Why a reply does not meet a vector. */
export interface Verdict {
  /** One line: what was expected and what was seen. */
  reason: string;
  expected?: unknown;
  actual?: unknown;
}

/** What a suite needs from a vector, and how it judges a reply. */
export interface SuiteDef {
  /** Field names a vector must carry (besides id and description). */
  required: string[];
  /**
   * The vectors of a parsed file, for formats that keep them in several sections (upstream's A2A
   * profile, webhook HMAC and receiver files): every vector gets a unique `id` (a stable one is
   * made up for an upstream vector without one) and may get a `kind` naming its section. A string
   * says why the file is not one of this suite's. Without it, a file's vectors are its `vectors`
   * array.
   */
  collect?(doc: Record<string, unknown>): unknown[] | string;
  /** The request's input. */
  input(v: Record<string, unknown>): unknown;
  /** `undefined` when the reply meets the vector; otherwise the failure. */
  judge(v: Record<string, unknown>, reply: AnswerReply): Verdict | undefined;
}

/** Whether a value is a non-array object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Deep equality of JSON values by own keys only, so that own `__proto__` keys (as JSON.parse makes
 * them) are compared like any other key and nothing inherited is ever read.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") {
    return typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) {
    if (!Object.hasOwn(bo, k)) return false;
    const av = Object.getOwnPropertyDescriptor(ao, k)?.value;
    const bv = Object.getOwnPropertyDescriptor(bo, k)?.value;
    if (!jsonEqual(av, bv)) return false;
  }
  return true;
}

/** JSON text with own `__proto__` keys kept, two-space indented, for diffs. */
export function pretty(v: unknown): string {
  return v === undefined ? "(nothing)" : JSON.stringify(v, null, 2);
}

/** A reply as a result or an error code. */
export function resultOf(
  reply: AnswerReply,
): { ok: true; value: unknown } | { ok: false; code: string } {
  return "result" in reply
    ? { ok: true, value: reply.result }
    : { ok: false, code: reply.error.code };
}

/** Compares a plain result against an expected value. */
export function expectResult(expected: unknown, reply: AnswerReply): Verdict | undefined {
  const r = resultOf(reply);
  if (!r.ok) {
    return {
      reason: `threw an error with code ${JSON.stringify(r.code)}`,
      expected,
      actual: reply,
    };
  }
  return jsonEqual(expected, r.value)
    ? undefined
    : { reason: "result differs", expected, actual: r.value };
}

/**
 * The error codes the library throws for the error types the vector files name. A vector states an
 * expected error as a lower-case type (`"expected_error_type": "wrapper_detected"`), the spelling
 * the JSON-lines protocol keeps (vectors/README.md); the library's error classes carry upper-case
 * codes (`WrapperDetectedError.code` is `"WRAPPER_DETECTED"`). A reply passes with either the
 * vector's type or the one code listed for it here, and with nothing else.
 */
export const ERROR_CODES_BY_VECTOR_TYPE: ReadonlyMap<string, string> = new Map([
  ["wrapper_detected", "WRAPPER_DETECTED"],
]);

/**
 * Checks that the implementation threw an error whose `code` is `want`, or the library code
 * {@link ERROR_CODES_BY_VECTOR_TYPE} maps `want` to.
 */
export function expectErrorCode(want: unknown, reply: AnswerReply): Verdict | undefined {
  const r = resultOf(reply);
  if (r.ok) {
    return {
      reason: `expected an error with code ${pretty(want)}`,
      expected: { error: { code: want } },
      actual: reply,
    };
  }
  const libraryCode = typeof want === "string" ? ERROR_CODES_BY_VECTOR_TYPE.get(want) : undefined;
  return r.code === want || (libraryCode !== undefined && r.code === libraryCode)
    ? undefined
    : { reason: "error code differs", expected: want, actual: r.code };
}

/** The reply's object result, or the verdict when it is an error or not an object. */
export function objectResult(
  reply: AnswerReply,
): { ok: true; value: Record<string, unknown> } | { ok: false; verdict: Verdict } {
  const r = resultOf(reply);
  if (!r.ok) {
    return {
      ok: false,
      verdict: { reason: `threw an error with code ${pretty(r.code)}`, actual: reply },
    };
  }
  return isObject(r.value)
    ? { ok: true, value: r.value }
    : { ok: false, verdict: { reason: "expected an object result", actual: r.value } };
}
