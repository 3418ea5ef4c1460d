// The A2A task states and their normalization (A2A Response Extraction, "State normalization").

/** A final task state (A2A Response Extraction, "Status-Based Extraction"). */
export type A2AFinalTaskState = "completed" | "failed" | "canceled" | "rejected";

/** An interim task state (A2A Response Extraction, "Status-Based Extraction"). */
export type A2AInterimTaskState = "working" | "submitted" | "input-required" | "auth-required";

/** A known task state, normalized: final or interim. */
export type A2ATaskState = A2AFinalTaskState | A2AInterimTaskState;

const FINAL_STATES: ReadonlySet<string> = new Set<A2AFinalTaskState>([
  "completed",
  "failed",
  "canceled",
  "rejected",
]);
const INTERRUPTED_STATES: ReadonlySet<string> = new Set<A2AInterimTaskState>([
  "input-required",
  "auth-required",
]);
const KNOWN_STATES: ReadonlySet<string> = new Set<A2ATaskState>([
  "completed",
  "failed",
  "canceled",
  "rejected",
  "working",
  "submitted",
  "input-required",
  "auth-required",
]);

/** The prefix of the A2A 1.0 ProtoJSON enum names, stripped once. */
const STATE_PREFIX = "TASK_STATE_";
/**
 * Most code units read after the prefix: a longer state is unknown, and its cut is enough to log.
 */
const MAX_STATE_UNITS = 64;
/** Longest known state, `input-required`: normalization keeps the length, so longer is unknown. */
const LONGEST_KNOWN_STATE = 14;

/**
 * The spellings senders use, each mapped to its state by the normalization itself (so the table
 * can only agree with it): the v0.3 token (`input-required`), the A2A 1.0 ProtoJSON name
 * (`TASK_STATE_INPUT_REQUIRED`), and the token in upper case or with `_` for `-`. A string found
 * here skips the unit-by-unit normalization; every other string still goes through it, so every
 * spelling it accepts and every one it refuses stays as it was.
 */
const CANONICAL_SPELLINGS: ReadonlyMap<string, A2ATaskState> = (() => {
  const table = new Map<string, A2ATaskState>();
  for (const known of KNOWN_STATES) {
    const state = known as A2ATaskState;
    const upper = state.toUpperCase();
    const underscored = state.replaceAll("-", "_");
    const upperUnderscored = upper.replaceAll("-", "_");
    for (const spelling of [state, underscored, upper, upperUnderscored]) {
      for (const prefixed of [spelling, STATE_PREFIX + spelling]) {
        const normalized = normalizeSlowly(prefixed);
        if (normalized === state) table.set(prefixed, state);
      }
    }
  }
  return table;
})();

/** Units `start` to `end` of `raw` with ASCII `A`-`Z` lowercased and `_` turned into `-`. */
function normalizeUnits(raw: string, start: number, end: number): string {
  let normalized = "";
  for (let index = start; index < end; index++) {
    const unit = raw.charCodeAt(index);
    if (unit >= 0x41 && unit <= 0x5a) normalized += String.fromCharCode(unit + 0x20);
    else if (unit === 0x5f) normalized += "-";
    else normalized += raw[index];
  }
  return normalized;
}

/**
 * Normalizes a raw A2A `status.state`, known or not: one leading, case-sensitive `TASK_STATE_`
 * stripped, ASCII `A`-`Z` lowercased and `_` turned into `-`, nothing else (no trimming, no Unicode
 * case folding), and at most 64 code units read after the prefix.
 *
 * A2A Response Extraction, "Extraction Algorithm" step 1 and "State normalization".
 *
 * @param raw The seller's `status.state`: any value.
 * @returns The normalized state (unknown ones included, for logging), or `null` for a non-string.
 *
 * @example A2A 1.0 and v0.3 spellings, and an unknown state
 * ```ts
 * import { normalizeA2ATaskState } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(normalizeA2ATaskState("TASK_STATE_INPUT_REQUIRED"), "input-required");
 * strictEqual(normalizeA2ATaskState("completed"), "completed");
 * strictEqual(normalizeA2ATaskState("TASK_STATE_PAUSED"), "paused"); // unknown, kept
 * strictEqual(normalizeA2ATaskState("x".repeat(100))?.length, 64);
 * strictEqual(normalizeA2ATaskState(3), null);
 * ```
 */
export function normalizeA2ATaskState(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  return CANONICAL_SPELLINGS.get(raw) ?? normalizeSlowly(raw);
}

/** {@link normalizeA2ATaskState} of a string, unit by unit. */
function normalizeSlowly(raw: string): string {
  const start = raw.startsWith(STATE_PREFIX) ? STATE_PREFIX.length : 0;
  return normalizeUnits(raw, start, Math.min(raw.length, start + MAX_STATE_UNITS));
}

/**
 * Normalizes a raw A2A `status.state` as {@link normalizeA2ATaskState} does and returns it when it
 * is one of the eight known states; anything else, a non-string included, is unknown.
 *
 * A2A Response Extraction, "Extraction Algorithm" steps 1 and 4 and "State normalization".
 *
 * @param raw The seller's `status.state`: any value.
 * @returns The known, normalized state, or `null`.
 *
 * @example Known states only
 * ```ts
 * import { knownA2ATaskState } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(knownA2ATaskState("TASK_STATE_COMPLETED"), "completed");
 * strictEqual(knownA2ATaskState("Input_Required"), "input-required");
 * strictEqual(knownA2ATaskState("wor\u212Aing"), null); // KELVIN SIGN is not ASCII K
 * strictEqual(knownA2ATaskState(" completed"), null); // never trimmed
 * strictEqual(knownA2ATaskState("TASK_STATE_PAUSED"), null);
 * ```
 */
export function knownA2ATaskState(raw: unknown): A2ATaskState | null {
  if (typeof raw !== "string") return null;
  const canonical = CANONICAL_SPELLINGS.get(raw);
  if (canonical !== undefined) return canonical;
  const start = raw.startsWith(STATE_PREFIX) ? STATE_PREFIX.length : 0;
  if (raw.length - start > LONGEST_KNOWN_STATE) return null; // cheap on a seller's huge string
  const normalized = normalizeUnits(raw, start, raw.length);
  return KNOWN_STATES.has(normalized) ? normalized as A2ATaskState : null;
}

/**
 * Whether a normalized state is final: `completed`, `failed`, `canceled` or `rejected`.
 *
 * A2A Response Extraction, "Status-Based Extraction".
 *
 * @param state A normalized state, from {@link normalizeA2ATaskState} or {@link knownA2ATaskState}.
 * @returns `true` for the four final states.
 *
 * @example Final and interim states
 * ```ts
 * import { isFinalA2ATaskState, normalizeA2ATaskState } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isFinalA2ATaskState(normalizeA2ATaskState("TASK_STATE_REJECTED") ?? ""), true);
 * strictEqual(isFinalA2ATaskState("working"), false);
 * strictEqual(isFinalA2ATaskState("COMPLETED"), false); // not normalized
 * ```
 */
export function isFinalA2ATaskState(state: string): state is A2AFinalTaskState {
  return FINAL_STATES.has(state);
}

/**
 * Whether a normalized state interrupts the task until the caller acts: `input-required` or
 * `auth-required`.
 *
 * A2A Response Extraction, "Status-Based Extraction".
 *
 * @param state A normalized state, from {@link normalizeA2ATaskState} or {@link knownA2ATaskState}.
 * @returns `true` for the two interrupted states.
 *
 * @example Interrupted states
 * ```ts
 * import { isInterruptedA2ATaskState } from "@adcp-wire/core";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isInterruptedA2ATaskState("auth-required"), true);
 * strictEqual(isInterruptedA2ATaskState("working"), false);
 * strictEqual(isInterruptedA2ATaskState("completed"), false);
 * ```
 */
export function isInterruptedA2ATaskState(
  state: string,
): state is "input-required" | "auth-required" {
  return INTERRUPTED_STATES.has(state);
}
