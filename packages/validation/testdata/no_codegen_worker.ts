// Test worker: forbids code generation from strings (what a strict Content Security Policy does), then loads every
// validator through the package and validates once with each. Posts `{ blocked, results }`.
const deny = function () {
  throw new EvalError("Code generation from strings is disallowed");
};
for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
  Object.defineProperty(Object.getPrototypeOf(fn), "constructor", { value: deny });
}
Object.defineProperty(globalThis, "Function", { value: deny });
Object.defineProperty(globalThis, "eval", { value: deny });

let blocked = false;
try {
  (function () {}).constructor("return 1");
} catch {
  blocked = true;
}

const v = await import("../mod.ts");
const results: Record<string, boolean> = {};
for (const task of v.knownTasks()) {
  results[task] = (await v.validateTaskResponse(task, { status: "completed" })).valid;
}
results["core/error.json"] = (await v.validateAdcpErrorSchema({ code: "C", message: "m" })).valid;
results["core/mcp-webhook-payload.json"] = (await v.validateWebhookPayload({})).valid;
results["error-details/rate-limited.json"] =
  (await v.validateErrorDetails("RATE_LIMITED", { limit: 1 })).valid;

(globalThis as unknown as { postMessage(m: unknown): void }).postMessage({ blocked, results });
