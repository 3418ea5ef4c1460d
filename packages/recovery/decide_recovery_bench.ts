import { classifyRecovery } from "./classify_recovery.ts";
import { decideRecovery } from "./decide_recovery.ts";
import { normalizeRetryAfter } from "./normalize_retry_after.ts";
import { createRetryPolicy } from "./retry_policy.ts";

const policy = createRetryPolicy({ random: () => 0.5 });
const context = { attempt: 2, elapsedSeconds: 10, policy };
const transient = { code: "RATE_LIMITED", message: "Request rate exceeded", retry_after: 5 };
const backoff = { code: "SERVICE_UNAVAILABLE", recovery: "transient" };
const correctable = {
  code: "BUDGET_TOO_LOW",
  recovery: "correctable",
  field: "budget.total",
  suggestion: "Increase budget",
};
const unknown = { code: "X_ACME_FLOOR_NOT_MET" };

Deno.bench("classifyRecovery() via the code table", { group: "decide", baseline: true }, () => {
  classifyRecovery(transient);
});
Deno.bench("decideRecovery() retry_after, created policy", { group: "decide" }, () => {
  decideRecovery(transient, context);
});
Deno.bench("decideRecovery() backoff, created policy", { group: "decide" }, () => {
  decideRecovery(backoff, context);
});
Deno.bench("decideRecovery() surface_to_caller", { group: "decide" }, () => {
  decideRecovery(correctable, context);
});
Deno.bench("decideRecovery() unknown code", { group: "decide" }, () => {
  decideRecovery(unknown, context);
});
Deno.bench("decideRecovery() options object (validated per call)", { group: "decide" }, () => {
  decideRecovery(transient, { attempt: 2, elapsedSeconds: 10, policy: { maxRetries: 3 } });
});
Deno.bench("normalizeRetryAfter()", { group: "decide" }, () => {
  normalizeRetryAfter(2.2);
});
