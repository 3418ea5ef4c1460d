/**
 * The conformance runner's core: vector files, suites, the JSON-lines protocol and the comparison
 * of replies against expectations. Independent of any implementation: an implementation is a
 * function from a request to a reply (in process, or a child process speaking JSON lines).
 *
 * @module
 */

/** A request sent to an implementation, one per vector. */
export interface VectorRequest {
  suite: SuiteName;
  id: string;
  input: unknown;
  options: Record<string, unknown> | null;
}

/** An implementation's reply: a result, or the `code` of the error it threw. */
export type VectorReply = { result: unknown } | { error: { code: string } };

/** Anything that answers requests. */
export type Implementation = (request: VectorRequest) => Promise<VectorReply>;

/** The suites the runner knows how to run. */
export const SUITE_NAMES = [
  "mcp-response-extraction",
  "a2a-response-extraction",
  "transport-error-mapping",
  "seller-strings",
  "seller-urls",
  "reserved-addresses",
  "agent-card-binding",
  "retry-decisions",
  "webhook-payload-extraction",
] as const;

/** A suite the runner knows how to run. */
export type SuiteName = typeof SUITE_NAMES[number];

/**
 * Default retry policy figures, used to check backoff delays (error-handling, "Retry with
 * backoff").
 */
export const BACKOFF_DEFAULTS = {
  initialDelaySeconds: 2,
  maxDelaySeconds: 60,
  jitter: 0.25,
  maxRetries: 3,
  maxElapsedSeconds: 300,
} as const;

/** The outcome of one vector. */
export interface VectorOutcome {
  id: string;
  description: string;
  status: "passed" | "failed" | "skipped";
  /** Why it failed or was skipped. */
  reason?: string;
  expected?: unknown;
  actual?: unknown;
}

/** The outcome of one file. */
export interface FileReport {
  file: string;
  suite: string | null;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Set when the whole file was skipped or could not be read. */
  note?: string;
  outcomes: VectorOutcome[];
}

/** Picks a file's suite by the prefix of its name; `null` for a suite without a runner. */
export function suiteOf(fileName: string): SuiteName | null {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  for (const s of SUITE_NAMES) {
    if (base === `${s}.json` || (base.startsWith(`${s}-`) && base.endsWith(".json"))) return s;
  }
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
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

/** A unified-style line diff of two values' pretty JSON (`-` expected, `+` actual). */
export function diffValues(expected: unknown, actual: unknown): string {
  const a = pretty(expected).split("\n");
  const b = pretty(actual).split("\n");
  if (a.length * b.length > 4_000_000) {
    return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)].join("\n");
  }
  // Longest common subsequence table, then a walk that emits the edit script.
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j]
        ? lcs[i + 1]![j + 1]! + 1
        : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push(`- ${a[i]}`);
      i++;
    } else {
      out.push(`+ ${b[j]}`);
      j++;
    }
  }
  return out.join("\n");
}

/** What a suite needs from a vector, and how it judges a reply. */
interface SuiteDef {
  /** Field names a vector must carry (besides id and description). */
  required: string[];
  /** The request's input. */
  input(v: Record<string, unknown>): unknown;
  /** `undefined` when the reply meets the vector; otherwise the failure. */
  judge(
    v: Record<string, unknown>,
    reply: VectorReply,
  ): Omit<VectorOutcome, "id" | "description" | "status"> | undefined;
}

function resultOf(reply: VectorReply): { ok: true; value: unknown } | { ok: false; code: string } {
  return "result" in reply
    ? { ok: true, value: reply.result }
    : { ok: false, code: reply.error.code };
}

/** Compares a plain result against an expected value. */
function expectResult(expected: unknown, reply: VectorReply) {
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
function expectErrorCode(want: unknown, reply: VectorReply) {
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

/**
 * Bounds a conforming backoff delay lies in, for 1-based `attempt` under `options` (see
 * vectors/README.md).
 */
export function backoffBounds(
  attempt: number,
  options: Record<string, unknown> | null,
): { min: number; max: number } {
  const num = (k: keyof typeof BACKOFF_DEFAULTS) => {
    const v = options?.[k];
    return typeof v === "number" ? v : BACKOFF_DEFAULTS[k];
  };
  const cap = num("maxDelaySeconds");
  const base = Math.min(cap, num("initialDelaySeconds") * 2 ** (attempt - 1));
  const j = num("jitter");
  return { min: base * (1 - j), max: Math.min(cap, base * (1 + j)) };
}

function checkDelay(
  expected: unknown,
  actual: Record<string, unknown>,
  attempt: number,
  options: Record<string, unknown> | null,
): string | undefined {
  if (typeof expected === "number") {
    if (actual.delay_source !== "retry_after") {
      return `expected delay_source "retry_after", got ${pretty(actual.delay_source)}`;
    }
    if (actual.delay_seconds !== expected) {
      return `expected delay_seconds ${expected}, got ${pretty(actual.delay_seconds)}`;
    }
    return undefined;
  }
  if (expected === null) {
    if (actual.delay_source !== "backoff") {
      return `expected delay_source "backoff", got ${pretty(actual.delay_source)}`;
    }
    const d = actual.delay_seconds;
    const { min, max } = backoffBounds(attempt, options);
    if (typeof d !== "number" || !(d >= min && d <= max)) {
      return `expected a backoff delay in [${min}, ${max}] for attempt ${attempt}, got ${
        pretty(d)
      }`;
    }
    return undefined;
  }
  return `malformed vector: the expected delay must be a number or null, got ${pretty(expected)}`;
}

const SUITES: Record<SuiteName, SuiteDef> = {
  "webhook-payload-extraction": {
    required: ["payload", "expected_data"],
    input: (v) => ({ payload: v.payload, format: Object.hasOwn(v, "format") ? v.format : null }),
    judge: (v, reply) => {
      if (Object.hasOwn(v, "expected_error_type")) {
        return expectErrorCode(v.expected_error_type, reply);
      }
      const r = resultOf(reply);
      if (!r.ok) {
        return { reason: `threw an error with code ${JSON.stringify(r.code)}`, actual: reply };
      }
      if (!isObject(r.value)) {
        return { reason: "the reply's result is not an object", actual: r.value };
      }
      if (!jsonEqual(v.expected_data, r.value.data)) {
        return {
          reason: "extracted data differs",
          expected: v.expected_data,
          actual: r.value.data,
        };
      }
      if (
        Object.hasOwn(v, "expected_format") &&
        !jsonEqual(v.expected_format, r.value.detected_format)
      ) {
        return {
          reason: "detected format differs",
          expected: v.expected_format,
          actual: r.value.detected_format,
        };
      }
      return undefined;
    },
  },
  "mcp-response-extraction": {
    required: ["response", "expected_data"],
    input: (v) => v.response,
    judge: (v, reply) => expectResult(v.expected_data, reply),
  },
  "a2a-response-extraction": {
    required: ["response", "expected_data"],
    input: (v) => v.response,
    judge: (v, reply) => {
      if (Object.hasOwn(v, "expected_error_type")) {
        return expectErrorCode(v.expected_error_type, reply);
      }
      return expectResult(v.expected_data, reply);
    },
  },
  "transport-error-mapping": {
    required: ["transport", "response", "expected_error", "expected_action"],
    input: (v) => ({ transport: v.transport, response: v.response }),
    judge: (v, reply) => {
      const r = resultOf(reply);
      if (!r.ok) {
        return { reason: `threw an error with code ${JSON.stringify(r.code)}`, actual: reply };
      }
      if (!isObject(r.value)) {
        return { reason: "the reply's result is not an object", actual: r.value };
      }
      const got = r.value;
      const expected = { error: v.expected_error, action: v.expected_action };
      const actual = { error: got.error, action: got.action };
      if (!jsonEqual(expected, actual)) {
        return { reason: "extracted error or action differs", expected, actual };
      }
      if (Object.hasOwn(v, "expected_delay_seconds")) {
        const why = checkDelay(v.expected_delay_seconds, got, 1, null);
        if (why) {
          return {
            reason: why,
            expected: { delay_seconds: v.expected_delay_seconds },
            actual: got,
          };
        }
      }
      return undefined;
    },
  },
  "seller-strings": {
    required: ["input", "max_bytes", "expected"],
    input: (v) => ({ value: v.input, max_bytes: v.max_bytes }),
    judge: (v, reply) => expectResult(v.expected, reply),
  },
  "seller-urls": {
    required: ["purpose", "url", "allowed_hosts", "expected"],
    input: (v) => ({
      purpose: v.purpose,
      url: v.url,
      allowed_hosts: v.allowed_hosts,
      allowed_ports: v.allowed_ports ?? null,
    }),
    judge: (v, reply) => {
      // A rejection carries its reason; a vector that names one holds the reply to it, so a
      // validator that rejects for the wrong reason fails. The reason is compared on its own and
      // left out of the `expected` comparison.
      const r = resultOf(reply);
      if (!r.ok || !isObject(r.value) || !Object.hasOwn(r.value, "reason")) {
        return Object.hasOwn(v, "reason")
          ? {
            reason: "the rejection reason is missing",
            expected: { reason: v.reason },
            actual: reply,
          }
          : expectResult(v.expected, reply);
      }
      const { reason, ...rest } = r.value;
      const shape = expectResult(v.expected, { result: rest });
      if (shape !== undefined) return shape;
      if (Object.hasOwn(v, "reason") && reason !== v.reason) {
        return {
          reason: "rejection reason differs",
          expected: { reason: v.reason },
          actual: { reason },
        };
      }
      return undefined;
    },
  },
  "reserved-addresses": {
    required: ["hostname", "expected"],
    input: (v) => ({ hostname: v.hostname }),
    judge: (v, reply) => expectResult(v.expected, reply),
  },
  "agent-card-binding": {
    required: ["card", "card_url", "expected"],
    input: (v) => ({
      card: v.card,
      card_url: v.card_url,
      allowed_hosts: v.allowed_hosts ?? [],
      allow_http: v.allow_http ?? false,
      allow_reserved_addresses: v.allow_reserved_addresses ?? false,
      protocol_version: v.protocol_version ?? null,
    }),
    judge: (v, reply) => expectResult(v.expected, reply),
  },
  "retry-decisions": {
    required: ["error", "attempt", "elapsed_seconds", "expected"],
    input: (v) => ({ error: v.error, attempt: v.attempt, elapsed_seconds: v.elapsed_seconds }),
    judge: (v, reply) => {
      const r = resultOf(reply);
      if (!r.ok) {
        return { reason: `threw an error with code ${JSON.stringify(r.code)}`, actual: reply };
      }
      if (!isObject(r.value) || !isObject(v.expected)) {
        return {
          reason: "the reply's result or the vector's expected is not an object",
          expected: v.expected,
          actual: r.value,
        };
      }
      const exp = v.expected;
      if (r.value.action !== exp.action) {
        return { reason: "action differs", expected: exp, actual: r.value };
      }
      if (Object.hasOwn(exp, "delay_seconds")) {
        const opts = isObject(v.options) ? v.options : null;
        const why = checkDelay(exp.delay_seconds, r.value, v.attempt as number, opts);
        if (why) return { reason: why, expected: exp, actual: r.value };
      }
      return undefined;
    },
  },
};

/** Runs every vector of one parsed file through `impl`. */
export async function runFile(
  file: string,
  doc: unknown,
  impl: Implementation,
): Promise<FileReport> {
  const suite = suiteOf(file);
  const report: FileReport = {
    file,
    suite,
    total: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    outcomes: [],
  };
  if (!isObject(doc) || !Array.isArray(doc.vectors)) {
    report.failed = report.total = 1;
    report.note = "not a vector file: expected an object with a `vectors` array";
    report.outcomes.push({
      id: "(file)",
      description: file,
      status: "failed",
      reason: report.note,
    });
    return report;
  }
  const vectors = doc.vectors as unknown[];
  report.total = vectors.length;
  if (suite === null) {
    report.skipped = vectors.length;
    report.note = "skipped: no runner for this suite yet";
    for (const [i, v] of vectors.entries()) {
      const vv = isObject(v) ? v : {};
      report.outcomes.push({
        id: typeof vv.id === "string" ? vv.id : `#${i}`,
        description: typeof vv.description === "string" ? vv.description : "",
        status: "skipped",
        reason: report.note,
      });
    }
    return report;
  }
  const def = SUITES[suite];
  const seen = new Set<string>();
  for (const [i, raw] of vectors.entries()) {
    const v = isObject(raw) ? raw : {};
    const id = typeof v.id === "string" ? v.id : `#${i}`;
    const description = typeof v.description === "string" ? v.description : "";
    const fail = (o: Omit<VectorOutcome, "id" | "description" | "status">) => {
      report.failed++;
      report.outcomes.push({ id, description, status: "failed", ...o });
    };
    const missing = ["id", "description", ...def.required].filter((k) => !Object.hasOwn(v, k));
    if (missing.length > 0) {
      fail({ reason: `malformed vector: missing ${missing.join(", ")}` });
      continue;
    }
    if (seen.has(id)) {
      fail({ reason: `malformed vector: duplicate id ${JSON.stringify(id)}` });
      continue;
    }
    seen.add(id);
    if (Object.hasOwn(v, "options") && !isObject(v.options)) {
      fail({ reason: "malformed vector: options must be an object" });
      continue;
    }
    const request: VectorRequest = {
      suite,
      id,
      input: def.input(v),
      options: isObject(v.options) ? v.options : null,
    };
    let reply: VectorReply;
    try {
      reply = checkReply(await impl(request));
    } catch (e) {
      fail({ reason: `no usable reply: ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    const verdict = def.judge(v, reply);
    if (verdict === undefined) {
      report.passed++;
      report.outcomes.push({ id, description, status: "passed" });
    } else fail(verdict);
  }
  return report;
}

/** Checks that a reply has the protocol's shape. */
export function checkReply(reply: unknown): VectorReply {
  if (isObject(reply)) {
    const keys = Object.keys(reply);
    if (keys.length === 1 && keys[0] === "result") return reply as VectorReply;
    if (
      keys.length === 1 && keys[0] === "error" && isObject(reply.error) &&
      typeof reply.error.code === "string"
    ) {
      return { error: { code: reply.error.code } };
    }
  }
  throw new Error(
    `reply is neither {result} nor {error: {code}}: ${JSON.stringify(reply)?.slice(0, 200)}`,
  );
}

/** Totals over files. */
export function totals(
  files: FileReport[],
): { total: number; passed: number; failed: number; skipped: number } {
  const t = { total: 0, passed: 0, failed: 0, skipped: 0 };
  for (const f of files) {
    t.total += f.total;
    t.passed += f.passed;
    t.failed += f.failed;
    t.skipped += f.skipped;
  }
  return t;
}

/** The human-readable report. */
export function formatReport(files: FileReport[]): string {
  const rows = files.map((
    f,
  ) => [f.file, f.suite ?? "-", `${f.total}`, `${f.passed}`, `${f.failed}`, `${f.skipped}`]);
  const head = ["file", "suite", "vectors", "passed", "failed", "skipped"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd();
  const out = [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  for (const f of files) {
    if (f.note && f.suite === null) out.push(`  ${f.file}: ${f.note}`);
  }
  const failures = files.flatMap((f) =>
    f.outcomes.filter((o) => o.status === "failed").map((o) => ({ f, o }))
  );
  if (failures.length > 0) {
    out.push("", `Failures (${failures.length}):`);
    for (const { f, o } of failures) {
      out.push("", `✗ ${f.file} › ${o.id}`, `  ${o.description}`, `  ${o.reason ?? "failed"}`);
      if (o.expected !== undefined || o.actual !== undefined) {
        out.push("  --- expected  +++ actual");
        out.push(...diffValues(o.expected, o.actual).split("\n").map((l) => `  ${l}`));
      }
    }
  }
  const t = totals(files);
  out.push("", `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
  return out.join("\n");
}

/** The machine-readable report (`--json`). */
export function jsonReport(files: FileReport[]): unknown {
  return { totals: totals(files), files };
}
