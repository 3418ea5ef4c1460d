import fc from "fast-check";
import { strictEqual } from "node:assert/strict";
import {
  type A2ATaskState,
  isFinalA2ATaskState,
  isInterruptedA2ATaskState,
  knownA2ATaskState,
  normalizeA2ATaskState,
} from "./a2a_task_state.ts";

const KNOWN: readonly A2ATaskState[] = [
  "completed",
  "failed",
  "canceled",
  "rejected",
  "working",
  "submitted",
  "input-required",
  "auth-required",
];

Deno.test("knownA2ATaskState() maps A2A 1.0 and v0.3 spellings onto the same token", () => {
  const cases: [string, string][] = [
    ["completed", "completed"],
    ["TASK_STATE_COMPLETED", "completed"],
    ["TASK_STATE_FAILED", "failed"],
    ["TASK_STATE_CANCELED", "canceled"],
    ["TASK_STATE_REJECTED", "rejected"],
    ["TASK_STATE_WORKING", "working"],
    ["TASK_STATE_SUBMITTED", "submitted"],
    ["TASK_STATE_INPUT_REQUIRED", "input-required"],
    ["input-required", "input-required"],
    ["input_required", "input-required"],
    ["TASK_STATE_AUTH_REQUIRED", "auth-required"],
    ["COMPLETED", "completed"],
    ["TASK_STATE_completed", "completed"],
    ["Input-Required", "input-required"],
  ];
  for (const [raw, expected] of cases) strictEqual(knownA2ATaskState(raw), expected, raw);
});

Deno.test(
  "knownA2ATaskState() rejects anything that only matches after trimming, folding or " +
    "collapsing",
  () => {
    const unknown = [
      "wor\u212Aing", // KELVIN SIGN: toLowerCase() would fold it to "k"
      "TASK_STATE_WOR\u212AING",
      "TASK_STATE_INPUT__REQUIRED",
      "input--required",
      " completed",
      "completed ",
      "completed\n",
      "Task_State_Completed", // prefix is case-sensitive: becomes "task-state-completed"
      "task_state_completed",
      "TASK_STATE_TASK_STATE_COMPLETED", // one prefix only
      "TASK_STATE_",
      "TASK_STATE_UNSPECIFIED",
      "TASK_STATE_UNKNOWN",
      "",
      "canceled\u0000",
      "c\u00F6mpleted",
      "\u0130nput-required",
      "cancelled",
      "TASK-STATE-COMPLETED",
    ];
    for (const raw of unknown) strictEqual(knownA2ATaskState(raw), null, JSON.stringify(raw));
    for (const raw of [null, undefined, 1, true, {}, ["completed"]]) {
      strictEqual(knownA2ATaskState(raw), null);
    }
  },
);

Deno.test("knownA2ATaskState() bounds work on long strings", () => {
  strictEqual(knownA2ATaskState("TASK_STATE_" + "A".repeat(1_000_000)), null);
  strictEqual(knownA2ATaskState("x".repeat(15)), null);
});

Deno.test("normalizeA2ATaskState() keeps unknown states, normalized, for logging", () => {
  strictEqual(normalizeA2ATaskState("TASK_STATE_PAUSED"), "paused");
  strictEqual(normalizeA2ATaskState("TASK_STATE_UNSPECIFIED"), "unspecified");
  strictEqual(normalizeA2ATaskState("TASK_STATE_TASK_STATE_X"), "task-state-x"); // one prefix only
  strictEqual(normalizeA2ATaskState("Task_State_Completed"), "task-state-completed");
  strictEqual(normalizeA2ATaskState(" Wor\u212Aing "), " wor\u212Aing "); // ASCII only, no trimming
  strictEqual(normalizeA2ATaskState("TASK_STATE_"), "");
  strictEqual(normalizeA2ATaskState(""), "");
  for (const raw of [null, undefined, 1, true, {}, ["completed"]]) {
    strictEqual(normalizeA2ATaskState(raw), null);
  }
});

Deno.test("normalizeA2ATaskState() reads at most 64 code units after the prefix", () => {
  strictEqual(normalizeA2ATaskState("A".repeat(1_000_000)), "a".repeat(64));
  strictEqual(normalizeA2ATaskState("TASK_STATE_" + "B_".repeat(100)), "b-".repeat(32));
  strictEqual(normalizeA2ATaskState("x".repeat(64)), "x".repeat(64));
  strictEqual(normalizeA2ATaskState("x".repeat(65)), "x".repeat(64));
});

Deno.test("knownA2ATaskState() is normalizeA2ATaskState() restricted to the known states", () => {
  const token = fc.constantFrom(...KNOWN, "TASK_STATE_", "_", "-", "A", "\u212A", " ", "paused");
  const raw = fc.oneof(
    fc.array(token, { maxLength: 4 }).map((parts) => parts.join("")),
    fc.constantFrom(...KNOWN).map((state) => state.toUpperCase().replaceAll("-", "_")),
    fc.constantFrom(...KNOWN).map((state) =>
      "TASK_STATE_" + state.toUpperCase().replaceAll("-", "_")
    ),
    fc.string({ maxLength: 80 }),
    fc.string({ unit: "binary", maxLength: 20 }),
    fc.anything(),
  );
  fc.assert(
    fc.property(raw, (value) => {
      const normalized = normalizeA2ATaskState(value);
      const expected = normalized !== null && (KNOWN as readonly string[]).includes(normalized)
        ? normalized
        : null;
      strictEqual(knownA2ATaskState(value), expected);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("isFinalA2ATaskState() and isInterruptedA2ATaskState() split the known states", () => {
  const final = KNOWN.filter((state) => isFinalA2ATaskState(state));
  const interrupted = KNOWN.filter((state) => isInterruptedA2ATaskState(state));
  strictEqual(final.join(), "completed,failed,canceled,rejected");
  strictEqual(interrupted.join(), "input-required,auth-required");
  for (const raw of ["COMPLETED", "TASK_STATE_FAILED", "Input-Required", "", "paused"]) {
    strictEqual(isFinalA2ATaskState(raw), false, raw); // only normalized states match
    strictEqual(isInterruptedA2ATaskState(raw), false, raw);
  }
});

/** The normalization as the spec's prose states it, unit by unit, for the differential tests. */
function referenceNormalize(raw: string): string {
  const body = raw.startsWith("TASK_STATE_") ? raw.slice("TASK_STATE_".length) : raw;
  let out = "";
  for (let index = 0; index < Math.min(body.length, 64); index++) {
    const unit = body.charCodeAt(index);
    out += unit >= 0x41 && unit <= 0x5a
      ? String.fromCharCode(unit + 0x20)
      : unit === 0x5f
      ? "-"
      : body[index];
  }
  return out;
}

/** Every spelling of a known state the table of a2a_task_state.ts may hold, and near misses. */
const spellings = fc.constantFrom(...KNOWN).chain((state) => {
  const upper = state.toUpperCase();
  const forms = [state, upper, state.replaceAll("-", "_"), upper.replaceAll("-", "_")];
  return fc.tuple(
    fc.constantFrom(...forms),
    fc.constantFrom("", "TASK_STATE_", "TASK_STATE_TASK_STATE_", "task_state_", " "),
    fc.constantFrom("", " ", "\n", "_", "-", "\u0000", "s"),
    fc.nat({ max: 20 }),
    fc.constantFrom(null, "K", "\u212A", "\u0130", "_", "-", "a", "A"),
  ).map(([form, prefix, suffix, at, swap]) => {
    const spelled = prefix + form + suffix;
    if (swap === null || at >= spelled.length) return spelled;
    return spelled.slice(0, at) + swap + spelled.slice(at + 1);
  });
});

Deno.test("knownA2ATaskState() and normalizeA2ATaskState() agree with the reference", () => {
  fc.assert(
    fc.property(
      fc.oneof(spellings, fc.string(), fc.string({ unit: "binary", maxLength: 80 })),
      (raw) => {
        const normalized = referenceNormalize(raw);
        strictEqual(normalizeA2ATaskState(raw), normalized, JSON.stringify(raw));
        const known = (KNOWN as readonly string[]).includes(normalized) ? normalized : null;
        strictEqual(knownA2ATaskState(raw), known, JSON.stringify(raw));
      },
    ),
    { numRuns: 5_000 },
  );
});

Deno.test("knownA2ATaskState() answers the canonical spellings of A2A 1.0 and v0.3", () => {
  for (const state of KNOWN) {
    const proto = `TASK_STATE_${state.toUpperCase().replaceAll("-", "_")}`;
    strictEqual(knownA2ATaskState(state), state);
    strictEqual(knownA2ATaskState(proto), state);
    strictEqual(normalizeA2ATaskState(proto), state);
    strictEqual(knownA2ATaskState(` ${proto}`), null);
    strictEqual(knownA2ATaskState(`${state}\u0000`), null);
    strictEqual(knownA2ATaskState(new String(state)), null); // a String object is not a string
  }
});
