import { strictEqual } from "node:assert/strict";
import { knownTaskState, unwrapStreamEnvelope } from "./_a2a.ts";

Deno.test("knownTaskState() maps A2A 1.0 and v0.3 spellings onto the same token", () => {
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
  for (const [raw, expected] of cases) strictEqual(knownTaskState(raw), expected, raw);
});

Deno.test("knownTaskState() rejects anything that only matches after trimming, folding or collapsing", () => {
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
  for (const raw of unknown) strictEqual(knownTaskState(raw), null, JSON.stringify(raw));
  for (const raw of [null, undefined, 1, true, {}, ["completed"]]) {
    strictEqual(knownTaskState(raw), null);
  }
});

Deno.test("knownTaskState() bounds work on long strings", () => {
  strictEqual(knownTaskState("TASK_STATE_" + "A".repeat(1_000_000)), null);
  strictEqual(knownTaskState("x".repeat(15)), null);
});

Deno.test("unwrapStreamEnvelope() unwraps exactly one envelope level", () => {
  const task = { status: { state: "working" } };
  for (const key of ["task", "message", "statusUpdate", "artifactUpdate"]) {
    strictEqual(unwrapStreamEnvelope({ [key]: task }), task, key);
    strictEqual(unwrapStreamEnvelope({ [key]: { [key]: task } }), undefined, `${key} nested`);
    strictEqual(
      unwrapStreamEnvelope({ [key]: { task, id: "t" } }),
      undefined,
      `${key} inner with an envelope key among others`,
    );
  }
  strictEqual(unwrapStreamEnvelope(task), task);
});

Deno.test("unwrapStreamEnvelope() passes non-envelopes through unchanged", () => {
  const twoKeys = { task: {}, id: "x" };
  strictEqual(unwrapStreamEnvelope(twoKeys), twoKeys);
  const nullTask = { task: null };
  strictEqual(unwrapStreamEnvelope(nullTask), nullTask);
  const arrayTask = { task: [] };
  strictEqual(unwrapStreamEnvelope(arrayTask), arrayTask);
  const other = { result: {} };
  strictEqual(unwrapStreamEnvelope(other), other);
  const inherited = Object.create({ task: {} });
  strictEqual(unwrapStreamEnvelope(inherited), inherited);
  strictEqual(unwrapStreamEnvelope("task"), "task");
  strictEqual(unwrapStreamEnvelope(undefined), undefined);
});
