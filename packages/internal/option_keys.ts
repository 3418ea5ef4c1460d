// Unknown option keys are refused, in the one option-error style, with the nearest known name: a
// misspelled or misplaced option (`{ timeoutMs }` where `{ limits: { timeoutMs } }` was meant)
// must not pass silently with its limit left at the default.
import { optionError } from "./option_error.ts";

/** The keys an options object may have, made by {@link optionKeys}. */
export type OptionKeys = ReadonlySet<string>;

/**
 * The key set of options type `T`, from an object naming every key of `T` (required and
 * optional) with `true`: the type checker refuses a missing or an extra key, so the set cannot
 * drift from the interface it checks.
 *
 * @typeParam T The options interface.
 * @param keys Every key of `T`, each `true`.
 * @returns The keys, as a set.
 *
 * @example Usage
 * ```ts
 * import { optionKeys } from "@adcp-wire/internal";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * interface ReadOptions {
 *   readonly maxBytes?: number;
 *   readonly timeoutMs?: number;
 * }
 * const keys = optionKeys<ReadOptions>({ maxBytes: true, timeoutMs: true });
 * deepStrictEqual([...keys], ["maxBytes", "timeoutMs"]);
 * ```
 */
export function optionKeys<T>(
  keys: { readonly [K in keyof Required<T> & string]: true },
): OptionKeys {
  return new Set(Object.keys(keys));
}

/** Names longer than this are compared on their first this many units. */
const MAX_COMPARED_LENGTH = 64;

/** The edit distance of `a` and `b` (insertions, deletions, substitutions), ASCII case folded. */
function distance(a: string, b: string): number {
  const left = a.slice(0, MAX_COMPARED_LENGTH).toLowerCase();
  const right = b.slice(0, MAX_COMPARED_LENGTH).toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = previous[j - 1]! + (left[i - 1] === right[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[right.length]!;
}

/** Whether `short` (3 units or more) is a subsequence of `long`, ASCII case folded. */
function isAbbreviation(short: string, long: string): boolean {
  if (short.length < 3 || short.length > long.length) return false;
  const a = short.toLowerCase();
  const b = long.toLowerCase();
  let i = 0;
  for (let j = 0; i < a.length && j < b.length; j++) if (a[i] === b[j]) i++;
  return i === a.length;
}

/** How far `name` is from `candidate`: the edit distance, at most 2 for an abbreviation. */
function score(name: string, candidate: string): number {
  const d = distance(name, candidate);
  const cut = name.slice(0, MAX_COMPARED_LENGTH);
  return isAbbreviation(cut, candidate) || isAbbreviation(candidate, cut) ? Math.min(d, 2) : d;
}

/**
 * The candidate nearest to `name` by edit distance (case-insensitive, an abbreviation such as
 * `maxBytes` of `maxResponseBytes` counting as near; a dotted candidate is compared by its last
 * segment, so `timeoutMs` finds `limits.timeoutMs`), the first of equals winning; `undefined`
 * when there is no candidate.
 *
 * @param name The name that was not found.
 * @param candidates The names that exist.
 * @returns The nearest of them.
 *
 * @example Usage
 * ```ts
 * import { nearestName } from "@adcp-wire/internal";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(nearestName("timeotMs", ["headers", "limits.timeoutMs"]), "limits.timeoutMs");
 * strictEqual(nearestName("x", []), undefined);
 * ```
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const dot = candidate.lastIndexOf(".");
    const d = score(name, dot === -1 ? candidate : candidate.slice(dot + 1)) +
      (dot === -1 ? 0 : 0.5); // a direct key beats a nested one at the same distance
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Refuses an options object that has an own key not in `known`: a `TypeError` in the one
 * option-error style naming the key (as `<name>.<key>`) and the nearest known option, among
 * `known` and the keys of the nested option objects `nested` names (`{ limits: LIMIT_KEYS }`
 * suggests `options.limits.timeoutMs` for a top-level `timeoutMs`). A value that is not a plain
 * object is left to the option's own type check.
 *
 * @param action What could not be done, e.g. `"connect to the agent"`.
 * @param name What the caller called the object, e.g. `"options"`.
 * @param value The options object.
 * @param known Its keys ({@link optionKeys}).
 * @param nested Nested option objects by key, for the suggestion only.
 * @throws {TypeError} When `value` has a key that is not in `known`.
 *
 * @example A misplaced limit is refused with where it belongs
 * ```ts
 * import { checkOptionKeys, optionKeys } from "@adcp-wire/internal";
 * import { throws } from "node:assert/strict";
 *
 * const limits = optionKeys<{ timeoutMs?: number }>({ timeoutMs: true });
 * const keys = optionKeys<{ headers?: unknown; limits?: unknown }>({
 *   headers: true,
 *   limits: true,
 * });
 * checkOptionKeys("connect", "options", { limits: { timeoutMs: 5 } }, keys, { limits });
 * throws(
 *   () => checkOptionKeys("connect", "options", { timeoutMs: 5 }, keys, { limits }),
 *   {
 *     name: "TypeError",
 *     message: "Cannot connect as 'options.timeoutMs' must be a known option (the nearest is " +
 *       "'options.limits.timeoutMs'): current value is 5",
 *   },
 * );
 * ```
 */
export function checkOptionKeys(
  action: string,
  name: string,
  value: unknown,
  known: OptionKeys,
  nested?: Readonly<Record<string, OptionKeys>>,
): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || known.has(key)) continue;
    const candidates = [...known];
    if (nested !== undefined) {
      for (const [parent, keys] of Object.entries(nested)) {
        for (const child of keys) candidates.push(`${parent}.${child}`);
      }
    }
    const nearest = nearestName(key, candidates);
    const requirement = nearest === undefined
      ? "absent (this object takes no options)"
      : `a known option (the nearest is '${name}.${nearest}')`;
    throw optionError(
      TypeError,
      action,
      `${name}.${key.slice(0, MAX_COMPARED_LENGTH)}`,
      requirement,
      (value as Record<string, unknown>)[key],
    );
  }
}
