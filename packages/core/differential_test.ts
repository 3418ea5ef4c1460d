// Differential property tests: each extractor agrees with an independent, straightforward
// implementation of the spec's reference snippets as corrected by their prose (UTF-8 byte limits,
// own properties, stream-envelope unwrapping once with smuggling refused, ASCII-only state
// lowercasing, DataParts with or without `kind` and with no other content field, a truthy
// `adcp_error` as the carrier test).
import fc from "fast-check";
import { strictEqual } from "node:assert/strict";
import {
  extractAdcpErrorFromA2A,
  extractAdcpErrorFromMcp,
  extractAdcpResponseFromA2A,
  extractAdcpResponseFromMcp,
} from "./mod.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
const text = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.record({
    adcp_error: fc.oneof(
      fc.record({ code: fc.oneof(fc.string(), fc.integer()) }),
      fc.constantFrom(false, 0, "", null),
      fc.jsonValue(),
    ),
  }).map((v) => JSON.stringify(v)),
);
const item = fc.oneof(fc.record({ type: fc.constantFrom("text", "image"), text }), fc.jsonValue());
const result = fc.record({
  isError: fc.oneof(fc.boolean(), fc.constantFrom(0, 1, "", "yes", null)),
  structuredContent: fc.oneof(
    fc.jsonValue(),
    fc.record({
      adcp_error: fc.oneof(
        fc.record({ code: fc.oneof(fc.string(), fc.integer()), message: fc.string() }),
        fc.constantFrom(false, 0, "", null),
        fc.jsonValue(),
      ),
    }),
  ),
  content: fc.oneof(fc.array(item, { maxLength: 4 }), fc.jsonValue()),
}, { requiredKeys: [] });
function refMcp(response: Any) {
  // reference would throw on null
  if (response == null || typeof response !== "object") return null;
  if (response.isError) return null;
  if (
    response.structuredContent != null && typeof response.structuredContent === "object" &&
    !Array.isArray(response.structuredContent)
  ) {
    const sc = response.structuredContent;
    const keys = Object.keys(sc);
    if (keys.length === 1 && keys[0] === "adcp_error") return null;
    return sc;
  }
  if (response.content && Array.isArray(response.content)) {
    for (const item of response.content) {
      if (item && item.type === "text" && item.text && typeof item.text === "string") {
        try {
          const parsed = JSON.parse(item.text);
          if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
            const keys = Object.keys(parsed);
            if (keys.length === 1 && keys[0] === "adcp_error") continue;
            return parsed;
          }
        } catch { /* not JSON: skip the item */ }
      }
    }
  }
  return null;
}
function validateRef(error: Any) {
  if (!error || typeof error !== "object" || Array.isArray(error)) return null;
  if (typeof error.code !== "string") return null;
  if (error.code.length === 0 || error.code.length > 64) return null;
  if (new TextEncoder().encode(JSON.stringify(error)).length > 4096) return null;
  return error;
}
function refMcpErr(response: Any) {
  if (response == null || typeof response !== "object") return null;
  if (!response.isError) return null;
  const sc = response.structuredContent;
  if (
    sc && typeof sc === "object" && !Array.isArray(sc) && Object.hasOwn(sc, "adcp_error") &&
    sc.adcp_error
  ) return validateRef(sc.adcp_error);
  if (Array.isArray(response.content)) {
    for (const item of response.content) {
      if (item && item.type === "text" && item.text && typeof item.text === "string") {
        try {
          const parsed = JSON.parse(item.text);
          if (
            parsed && typeof parsed === "object" && !Array.isArray(parsed) &&
            Object.hasOwn(parsed, "adcp_error") && parsed.adcp_error
          ) return validateRef(parsed.adcp_error);
        } catch { /* not JSON: skip the item */ }
      }
    }
  }
  return null;
}
const isObj = (v: Any) => v !== null && typeof v === "object" && !Array.isArray(v);
const ENV = ["task", "message", "statusUpdate", "artifactUpdate"];
function unwrap(input: Any): Any {
  if (!isObj(input)) return input;
  const keys = Object.keys(input);
  if (keys.length === 1 && ENV.includes(keys[0]!) && isObj(input[keys[0]!])) {
    const inner = input[keys[0]!];
    if (Object.keys(inner).some((k) => ENV.includes(k))) return undefined;
    return inner;
  }
  return input;
}
function norm(s: Any) {
  if (typeof s !== "string") return null;
  return s.replace(/^TASK_STATE_/, "").replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/_/g, "-");
}
// A Part setting another content field besides `data` is malformed (A2A 1.0 strict oneof).
const isDataPart = (p: Any) =>
  isObj(p) && Object.hasOwn(p, "data") && isObj(p.data) &&
  ["text", "raw", "url", "file"].every((k) =>
    p[k] === undefined || p[k] === null ||
    !Object.hasOwn(p, k)
  );
function fromMessage(task: Any) {
  const st = task.status;
  if (!isObj(st)) return null;
  const msg = st.message;
  if (!isObj(msg)) return null;
  const parts = msg.parts;
  if (!Array.isArray(parts)) return null;
  const dp = parts.find(isDataPart);
  return dp ? dp.data : null;
}
function ref(input: Any) {
  const task = unwrap(input);
  if (!isObj(task)) return null;
  const st = task.status;
  const state = norm(isObj(st) ? st.state : undefined);
  if (!state) return null;
  if (["completed", "failed", "canceled", "rejected"].includes(state)) {
    const arts = task.artifacts;
    const art = Array.isArray(arts) ? arts[0] : undefined;
    if (isObj(art) && Array.isArray(art.parts)) {
      const dps = art.parts.filter(isDataPart);
      if (dps.length > 0) {
        const last = dps[dps.length - 1].data;
        const keys = Object.keys(last);
        if (keys.length === 1 && keys[0] === "response" && isObj(last.response)) {
          throw { code: "WRAPPER_DETECTED" };
        }
        return last;
      }
    }
    return fromMessage(task);
  }
  if (["working", "submitted", "input-required", "auth-required"].includes(state)) {
    return fromMessage(task);
  }
  return null;
}
const run = (f: () => unknown) => {
  try {
    return JSON.stringify(f());
  } catch (e: Any) {
    return "THROW " + e?.code;
  }
};
const data = fc.oneof(
  fc.jsonValue(),
  fc.record({ response: fc.oneof(fc.jsonValue(), fc.record({ p: fc.integer() })) }),
  fc.record({ adcp_error: fc.record({ code: fc.string() }) }),
);
const part = fc.oneof(
  fc.record({
    kind: fc.constantFrom("data", "text"),
    data,
    text: fc.oneof(fc.string(), fc.constant(null)),
    url: fc.oneof(fc.webUrl(), fc.constant(null)),
  }, { requiredKeys: [] }),
  fc.jsonValue(),
);
const state = fc.oneof(
  fc.constantFrom(
    "completed",
    "failed",
    "canceled",
    "rejected",
    "working",
    "submitted",
    "input-required",
    "auth-required",
    "TASK_STATE_COMPLETED",
    "TASK_STATE_INPUT_REQUIRED",
    "TASK_STATE_AUTH_REQUIRED",
    "COMPLETED",
    "input_required",
    "\u212Aompleted",
    "Completed",
    "TASK_STATE_INPUT__REQUIRED",
    " completed",
    "unknown",
  ),
  fc.string(),
  fc.jsonValue(),
);
const task = fc.record({
  status: fc.oneof(
    fc.record({
      state,
      message: fc.oneof(fc.record({ parts: fc.array(part, { maxLength: 3 }) }), fc.jsonValue()),
    }, { requiredKeys: [] }),
    fc.jsonValue(),
  ),
  artifacts: fc.oneof(
    fc.array(fc.oneof(fc.record({ parts: fc.array(part, { maxLength: 3 }) }), fc.jsonValue()), {
      maxLength: 2,
    }),
    fc.jsonValue(),
  ),
}, { requiredKeys: [] });
const input = fc.oneof(
  task,
  fc.record({ task }),
  fc.record({ statusUpdate: task }),
  fc.record({ task: fc.record({ task }) }),
  fc.record({ task, extra: fc.integer() }),
  fc.jsonValue(),
);
function refErr(input: Any) {
  const task = unwrap(input);
  if (!isObj(task)) return null;
  if (Array.isArray(task.artifacts)) {
    for (const artifact of task.artifacts) {
      const parts = isObj(artifact) && Array.isArray(artifact.parts) ? artifact.parts : [];
      for (const part of parts.filter(isDataPart)) {
        if (part.data.adcp_error) return validateRef(part.data.adcp_error);
      }
    }
  }
  const st = task.status;
  const msg = isObj(st) ? st.message : undefined;
  const parts = isObj(msg) ? msg.parts : undefined;
  if (Array.isArray(parts)) {
    for (const part of parts) {
      if (isDataPart(part) && part.data.adcp_error) return validateRef(part.data.adcp_error);
    }
  }
  return null;
}

Deno.test(
  "extractAdcpResponseFromMcp() and extractAdcpErrorFromMcp() agree with the corrected " +
    "reference",
  () => {
    fc.assert(
      fc.property(result, (r) => {
        strictEqual(JSON.stringify(extractAdcpResponseFromMcp(r)), JSON.stringify(refMcp(r)));
        strictEqual(JSON.stringify(extractAdcpErrorFromMcp(r)), JSON.stringify(refMcpErr(r)));
      }),
      { numRuns: 3000 },
    );
  },
);

Deno.test(
  "extractAdcpResponseFromA2A() and extractAdcpErrorFromA2A() agree with the corrected " +
    "reference",
  () => {
    fc.assert(
      fc.property(input, (i) => {
        strictEqual(run(() => extractAdcpResponseFromA2A(i)), run(() => ref(i)));
        strictEqual(run(() => extractAdcpErrorFromA2A(i)), run(() => refErr(i)));
      }),
      { numRuns: 3000 },
    );
  },
);
