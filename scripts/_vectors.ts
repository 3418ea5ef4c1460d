/**
 * The conformance runner's core: vector files, suites, the JSON-lines protocol, the comparison
 * of replies against expectations, the AdCP versions a vector applies to, and the report.
 * Independent of any implementation: an implementation is a function from a request to a reply
 * (in process, or a child process speaking JSON lines).
 *
 * @module
 */
import { ADCP_VERSION } from "@adcp-wire/schemas";
import {
  type AnswerReply,
  ERROR_CODES_BY_VECTOR_TYPE,
  expectErrorCode,
  expectResult,
  isObject,
  jsonEqual,
  pretty,
  resultOf,
  type SuiteDef,
} from "./_suites/_def.ts";
import { suite as a2aProfileExtension } from "./_suites/a2a_profile_extension.ts";
import { suite as adagentsDiscovery } from "./_suites/adagents_discovery.ts";
import {
  bodyIntegritySuite,
  canonicalizationSuite,
  requestSigningSuite,
  webhookSigningSuite,
} from "./_suites/message_signing.ts";
import { suite as webhookHmac } from "./_suites/webhook_hmac.ts";
import { suite as webhookReceiverEnvelope } from "./_suites/webhook_receiver_envelope.ts";

export { type AnswerReply, ERROR_CODES_BY_VECTOR_TYPE, jsonEqual, pretty, type SuiteDef };

/** A request sent to an implementation, one per vector. */
export interface VectorRequest {
  suite: SuiteName;
  id: string;
  input: unknown;
  options: Record<string, unknown> | null;
}

/**
 * An implementation's reply: a result, the `code` of the error it threw, or why it does not answer
 * this vector (`skip`: counted as skipped, never as passed or failed).
 */
export type VectorReply = AnswerReply | { skip: string };

/** Anything that answers requests. */
export type Implementation = (request: VectorRequest) => Promise<VectorReply>;

/**
 * Thrown by an implementation that can no longer answer (its process exited, closed its output,
 * fell silent or sent a line too long to read): this vector and every later one count as failed
 * and are reported together, once, with this message.
 */
export class ImplementationStoppedError extends Error {
  /** The class name, a literal so that minifiers cannot change it. */
  override readonly name: string = "ImplementationStoppedError";
}

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
  "a2a-profile-extension",
  "webhook-receiver-envelope",
  "webhook-hmac",
  "adagents-discovery",
  "request-signing",
  "webhook-signing",
  "target-uri-canonicalization",
  "body-integrity-policy",
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
  /**
   * `not_applicable`: the vector does not apply to the AdCP version of the run (its
   * `adcp_versions`, or {@link UPSTREAM_APPLICABILITY}); it was not sent.
   */
  status: "passed" | "failed" | "skipped" | "not_applicable";
  /** Why it failed, was skipped or does not apply. */
  reason?: string;
  expected?: unknown;
  actual?: unknown;
  /** Set on a failure because the implementation had stopped answering (see `reason`). */
  unanswered?: true;
  /** Set on a failure whose reply was the error code `NOT_IMPLEMENTED` (in any case). */
  notImplemented?: true;
}

/** The outcome of one file. */
export interface FileReport {
  file: string;
  suite: string | null;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /**
   * Vectors that do not apply to the run's AdCP version: neither passed nor failed. Absent counts
   * as 0 (a report built by hand, as the browser page does for a file it cannot read).
   */
  notApplicable?: number;
  /** Set when the whole file was skipped or could not be read. */
  note?: string;
  outcomes: VectorOutcome[];
}

/** How {@link runFile} runs a file. */
export interface RunOptions {
  /**
   * The AdCP version the implementation is checked against: a vector whose `adcp_versions` range
   * does not contain it is reported as not applicable.
   *
   * @default {ADCP_VERSION} (the pinned version `@adcp-wire/schemas` was generated from)
   */
  adcpVersion?: string;
  /**
   * Applicability of vectors that cannot carry `adcp_versions` themselves (upstream's), keyed by
   * `file#id`.
   *
   * @default {UPSTREAM_APPLICABILITY}
   */
  applicability?: ReadonlyMap<string, Applicability>;
}

/** How {@link runFile} runs one file. */
export interface RunFileOptions extends RunOptions {
  /**
   * The file's suite, for a file whose name does not say it: the compliance bundles the runner
   * assembles from upstream's one-vector-per-file folders (`scripts/_compliance.ts`), whose display
   * path is a folder (`vectors/upstream/compliance/3.2.0-beta.5/request-signing/`) or a file named
   * after something else (`canonicalization.json`). `null`: no runner.
   *
   * @default {suiteOf(file)}
   */
  suite?: SuiteName | null;
}

// ---------------------------------------------------------------------------------------------
// AdCP versions

/** A parsed SemVer 2.0.0 version; build metadata is dropped (it has no precedence). */
interface Version {
  core: [number, number, number];
  prerelease: (number | string)[];
}

const NUMBER = String.raw`0|[1-9]\d*`;
const IDENTIFIER = String.raw`(?:${NUMBER}|\d*[A-Za-z-][0-9A-Za-z-]*)`;
/** SemVer 2.0.0: `MAJOR.MINOR.PATCH`, an optional `-pre.release` and `+build`. */
const VERSION_PATTERN = new RegExp(
  String.raw`^(${NUMBER})\.(${NUMBER})\.(${NUMBER})` +
    String.raw`(?:-(${IDENTIFIER}(?:\.${IDENTIFIER})*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$`,
);

function parseVersion(text: string): Version | undefined {
  const match = VERSION_PATTERN.exec(text);
  if (match === null) return undefined;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    prerelease: match[4] === undefined
      ? []
      : match[4].split(".").map((part) => /^\d+$/.test(part) ? Number(part) : part),
  };
}

/**
 * Compares two AdCP versions by SemVer 2.0.0 precedence (semver.org, section 11): major, minor
 * and patch numerically; a pre-release sorts before its release (`3.2.0-beta.5 < 3.2.0`);
 * pre-release identifiers compare one by one, numbers numerically and below words, words in ASCII
 * order (`3.2.0-alpha.9 < 3.2.0-beta.5 < 3.2.0-beta.10 < 3.2.0-rc.1`), and a shorter list of
 * equal identifiers first; build metadata is ignored.
 *
 * @returns A negative number, zero or a positive number as `a` sorts before, with or after `b`.
 * @throws {RangeError} When either is not a SemVer version.
 */
export function compareVersions(a: string, b: string): number {
  const [va, vb] = [a, b].map((text) => {
    const version = parseVersion(text);
    if (version === undefined) {
      throw new RangeError(`Expected a SemVer version such as 3.2.0-beta.5, got ${pretty(text)}`);
    }
    return version;
  }) as [Version, Version];
  for (let i = 0; i < 3; i++) {
    if (va.core[i] !== vb.core[i]) return va.core[i]! - vb.core[i]!;
  }
  const [pa, pb] = [va.prerelease, vb.prerelease];
  if (pa.length === 0 || pb.length === 0) return pb.length - pa.length; // release after pre
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const [x, y] = [pa[i]!, pb[i]!];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

const COMPARATOR = /^(>=|<=|>|<|=)?(.+)$/;

/**
 * Whether `version` lies in `range`: comparators separated by spaces, all of which must hold,
 * each an operator (`>=`, `>`, `<=`, `<`, `=`, or none for `=`) and a version, compared by
 * {@link compareVersions}. Unlike npm's ranges, a pre-release is never treated specially:
 * `<3.2.0` contains `3.2.0-beta.5`, and `>=3.2.0-beta.5` contains `3.2.1` and `3.3.0-rc.1`.
 *
 * @returns `true` when every comparator holds.
 * @throws {RangeError} When `range` is empty or a comparator is not an operator and a version.
 */
export function versionInRange(version: string, range: string): boolean {
  const comparators = range.trim().split(/\s+/).filter((part) => part !== "");
  if (comparators.length === 0) {
    throw new RangeError(`Expected a version range such as ">=3.2.0-beta.5", got ${pretty(range)}`);
  }
  return comparators.every((comparator) => {
    const [, operator = "=", bound = ""] = COMPARATOR.exec(comparator) ?? [];
    if (parseVersion(bound) === undefined) {
      throw new RangeError(
        `Expected comparators such as ">=3.2.0-beta.5" in a version range, got ${
          pretty(comparator)
        } in ${pretty(range)}`,
      );
    }
    const order = compareVersions(version, bound);
    switch (operator) {
      case ">=":
        return order >= 0;
      case ">":
        return order > 0;
      case "<=":
        return order <= 0;
      case "<":
        return order < 0;
      default:
        return order === 0;
    }
  });
}

/** The AdCP versions a vector applies to, and why, for a vector that cannot say so itself. */
export interface Applicability {
  /** A range as in a vector's `adcp_versions` (see {@link versionInRange}). */
  adcpVersions: string;
  /** Why the vector holds only there. */
  reason: string;
}

/**
 * Why upstream's two "missing recovery" vectors of the account codes hold only from 3.2.0-beta.5:
 * the codes are in that version's enums/error-code.json (recovery correctable, so the fallback is
 * surface_to_caller) and not in 3.1.19's, where they are unknown codes, which without a recovery
 * field are terminal (escalate_to_human), as upstream's own mcp-missing-recovery-unknown-code
 * expects.
 */
const ACCOUNT_CODES_REASON = (code: string) =>
  `${code} is a standard (correctable) code only from 3.2.0-beta.5; before, it is unknown and ` +
  "escalates";

/**
 * The project's table of upstream vectors that apply only to some AdCP versions, keyed by
 * `file#id`. Upstream's vector files are unversioned (one copy, overwritten in place, for every
 * schema version), their format has no field for it, and they are never edited here; so where an
 * upstream vector checks what only some versions say, this table declares the range, with the
 * reason. Each entry is checked against the synced files by the runner's tests.
 */
export const UPSTREAM_APPLICABILITY: ReadonlyMap<string, Applicability> = new Map([
  [
    "vectors/upstream/transport-error-mapping.json#mcp-account-moved-missing-recovery",
    { adcpVersions: ">=3.2.0-beta.5", reason: ACCOUNT_CODES_REASON("ACCOUNT_MOVED") },
  ],
  [
    "vectors/upstream/transport-error-mapping.json#mcp-account-identity-conflict-missing-recovery",
    { adcpVersions: ">=3.2.0-beta.5", reason: ACCOUNT_CODES_REASON("ACCOUNT_IDENTITY_CONFLICT") },
  ],
]);

/**
 * Picks a file's suite by the prefix of its name; `null` for a suite without a runner. The
 * compliance bundles the runner assembles are not named after their suite: they carry it
 * explicitly ({@link RunFileOptions.suite}).
 */
export function suiteOf(fileName: string): SuiteName | null {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  for (const s of SUITE_NAMES) {
    if (base === `${s}.json` || (base.startsWith(`${s}-`) && base.endsWith(".json"))) return s;
  }
  return null;
}

/**
 * JSON text with every UTF-16 unit above U+007E as a `\uXXXX` escape (JSON.stringify already
 * escapes the C0 controls), so that bidi, zero-width and other invisible characters show in a
 * terminal instead of acting on it.
 */
function asciiJson(text: string): string {
  return text.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A unified-style line diff of two values' pretty JSON (`-` expected, `+` actual), non-ASCII
 * characters escaped.
 */
export function diffValues(expected: unknown, actual: unknown): string {
  const a = asciiJson(pretty(expected)).split("\n");
  const b = asciiJson(pretty(actual)).split("\n");
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
  "a2a-profile-extension": a2aProfileExtension,
  "webhook-receiver-envelope": webhookReceiverEnvelope,
  "webhook-hmac": webhookHmac,
  "adagents-discovery": adagentsDiscovery,
  "request-signing": requestSigningSuite,
  "webhook-signing": webhookSigningSuite,
  "target-uri-canonicalization": canonicalizationSuite,
  "body-integrity-policy": bodyIntegritySuite,
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
/** Whether a vector applies to `adcpVersion`, or why not, or why its `adcp_versions` is bad. */
function applicabilityOf(
  v: Record<string, unknown>,
  key: string,
  adcpVersion: string,
  table: ReadonlyMap<string, Applicability>,
): { applies: true } | { applies: false; reason: string } | { malformed: string } {
  const ranges: { range: string; why?: string }[] = [];
  if (Object.hasOwn(v, "adcp_versions")) {
    const range = v.adcp_versions;
    if (typeof range !== "string") {
      return { malformed: `adcp_versions must be a string range, got ${compact(range)}` };
    }
    ranges.push({ range });
  }
  const entry = table.get(key);
  if (entry !== undefined) ranges.push({ range: entry.adcpVersions, why: entry.reason });
  for (const { range, why } of ranges) {
    let inside: boolean;
    try {
      inside = versionInRange(adcpVersion, range);
    } catch (error) {
      return { malformed: (error as Error).message };
    }
    if (!inside) {
      const source = why === undefined ? "" : ` (project table: ${why})`;
      return { applies: false, reason: `applies to AdCP ${range}, not ${adcpVersion}${source}` };
    }
  }
  return { applies: true };
}

/**
 * Runs every vector of one parsed file through `impl`. A vector is checked for the fields its
 * suite needs and for a unique id, then for its AdCP versions (its `adcp_versions` and the
 * `applicability` table): one that does not apply is not sent and counts as not applicable.
 */
export async function runFile(
  file: string,
  doc: unknown,
  impl: Implementation,
  options: RunFileOptions = {},
): Promise<FileReport> {
  const adcpVersion = options.adcpVersion ?? ADCP_VERSION;
  const table = options.applicability ?? UPSTREAM_APPLICABILITY;
  const suite = options.suite === undefined ? suiteOf(file) : options.suite;
  const report: FileReport = {
    file,
    suite,
    total: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    notApplicable: 0,
    outcomes: [],
  };
  const def = suite === null ? undefined : SUITES[suite];
  const collected: unknown[] | string = !isObject(doc)
    ? "not a vector file: expected an object"
    : def?.collect !== undefined
    ? def.collect(doc)
    : Array.isArray(doc.vectors)
    ? doc.vectors
    : "not a vector file: expected an object with a `vectors` array";
  if (typeof collected === "string") {
    report.failed = report.total = 1;
    report.note = collected;
    report.outcomes.push({
      id: "(file)",
      description: file,
      status: "failed",
      reason: report.note,
    });
    return report;
  }
  const vectors = collected;
  report.total = vectors.length;
  if (suite === null || def === undefined) {
    report.skipped = vectors.length;
    report.note = "no runner for this suite yet";
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
    const applicability = applicabilityOf(v, `${file}#${id}`, adcpVersion, table);
    if ("malformed" in applicability) {
      fail({ reason: `malformed vector: ${applicability.malformed}` });
      continue;
    }
    if (!applicability.applies) {
      report.notApplicable = (report.notApplicable ?? 0) + 1;
      report.outcomes.push({
        id,
        description,
        status: "not_applicable",
        reason: applicability.reason,
      });
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
      if (e instanceof ImplementationStoppedError) fail({ reason: e.message, unanswered: true });
      else fail({ reason: `no usable reply: ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    if ("skip" in reply) {
      report.skipped++;
      report.outcomes.push({ id, description, status: "skipped", reason: reply.skip });
      continue;
    }
    const verdict = def.judge(v, reply);
    if (verdict === undefined) {
      report.passed++;
      report.outcomes.push({ id, description, status: "passed" });
    } else if ("error" in reply && reply.error.code.toUpperCase() === "NOT_IMPLEMENTED") {
      fail({ ...verdict, notImplemented: true });
    } else fail(verdict);
  }
  return report;
}

/**
 * The report of a file that could not be read, parsed or assembled: one failed `(file)` outcome
 * with the reason, never a crash and never a pass.
 */
export function fileFailure(file: string, suite: string | null, reason: string): FileReport {
  return {
    file,
    suite,
    total: 1,
    passed: 0,
    failed: 1,
    skipped: 0,
    notApplicable: 0,
    note: reason,
    outcomes: [{ id: "(file)", description: file, status: "failed", reason }],
  };
}

/**
 * Checks that a reply has the protocol's shape: `{result}`, `{error: {code}}` (other keys of
 * `error` are dropped) or `{skip: "reason"}`.
 *
 * @throws {Error} When it has none of them.
 */
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
    if (keys.length === 1 && keys[0] === "skip" && typeof reply.skip === "string") {
      return { skip: reply.skip.trim() === "" ? "(no reason given)" : reply.skip };
    }
  }
  throw new Error(
    "reply is neither {result}, {error: {code}} nor {skip: reason}: " +
      compact(reply, 200),
  );
}

/** The counts of a run. */
export interface Totals {
  /** Every vector of every file. */
  total: number;
  /** Vectors whose reply met the expectation. */
  passed: number;
  /** Vectors that failed, were malformed or were never answered. */
  failed: number;
  /** Vectors without a runner, or that the implementation answered with `skip`. */
  skipped: number;
  /** Vectors outside the run's AdCP version (never sent). */
  notApplicable: number;
}

/** Totals over files. */
export function totals(files: FileReport[]): Totals {
  const t = { total: 0, passed: 0, failed: 0, skipped: 0, notApplicable: 0 };
  for (const f of files) {
    t.total += f.total;
    t.passed += f.passed;
    t.failed += f.failed;
    t.skipped += f.skipped;
    t.notApplicable += f.notApplicable ?? 0;
  }
  return t;
}

/** How {@link formatReport} lays out the report. */
export interface FormatOptions {
  /**
   * The AdCP version of the run, named in the last line.
   *
   * @default {ADCP_VERSION}
   */
  adcpVersion?: string;
  /**
   * Lines of each list (failures, not-applicable vectors, skips) before the rest are counted.
   *
   * @default {50}
   */
  maxLines?: number;
  /**
   * Failures shown in full, with their description and a diff, after the one-line list.
   *
   * @default {5}
   */
  maxDetails?: number;
}

/**
 * One-line JSON, with every character outside printable ASCII escaped (seller strings carry bidi
 * and zero-width characters a terminal must not render), cut to `max` characters.
 */
function compact(value: unknown, max = 60): string {
  const text = asciiJson(JSON.stringify(value) ?? "undefined");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A failure's one line: `file#id: reason`, with short expected and actual values appended. */
function failureLine(file: string, o: VectorOutcome): string {
  let line = `${file}#${o.id}: ${o.reason ?? "failed"}`;
  if (o.expected !== undefined && o.actual !== undefined) {
    const [expected, actual] = [compact(o.expected, 1000), compact(o.actual, 1000)];
    if (expected.length <= 60 && actual.length <= 60) {
      line += ` (expected ${expected}, got ${actual})`;
    }
  }
  return line;
}

/** At most `max` of `lines`, then one line counting the rest. */
function capped(lines: string[], max: number, rest: (n: number) => string): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), rest(lines.length - max)];
}

/**
 * The human-readable report: a table per file; skipped vectors grouped by reason;
 * not-applicable vectors and failures one line each (`file#id: reason`), each list capped; a port
 * that stopped answering once, with how it ended, and the vectors answered NOT_IMPLEMENTED in one
 * line; the first failures in full, with a diff; and the totals.
 */
export function formatReport(files: FileReport[], options: FormatOptions = {}): string {
  const { adcpVersion = ADCP_VERSION, maxLines = 50, maxDetails = 5 } = options;
  const rows = files.map((f) => [
    f.file,
    f.suite ?? "-",
    `${f.total}`,
    `${f.passed}`,
    `${f.failed}`,
    `${f.skipped}`,
    `${f.notApplicable ?? 0}`,
  ]);
  const head = ["file", "suite", "vectors", "passed", "failed", "skipped", "n/a"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd();
  const out = [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  const all = files.flatMap((f) => f.outcomes.map((o) => ({ f, o })));
  const t = totals(files);

  // Skips: one line per reason (a port that implements one suite skips hundreds of vectors for
  // one reason; the table has the counts per file).
  const skipGroups = new Map<string, { reason: string; skips: { file: string; id: string }[] }>();
  for (const { f, o } of all) {
    if (o.status !== "skipped") continue;
    const reason = o.reason ?? "skipped";
    const group = skipGroups.get(reason) ?? { reason, skips: [] };
    group.skips.push({ file: f.file, id: o.id });
    skipGroups.set(reason, group);
  }
  if (skipGroups.size > 0) {
    out.push("", `Skipped (${t.skipped}):`);
    const lines = [...skipGroups.values()].map(({ reason, skips }) => {
      const inFiles = new Set(skips.map(({ file }) => file));
      if (skips.length === 1) return `  ${skips[0]!.file}#${skips[0]!.id}: ${reason}`;
      return inFiles.size === 1
        ? `  ${skips[0]!.file}: ${reason} (${skips.length} vectors)`
        : `  ${reason} (${skips.length} vectors in ${inFiles.size} files)`;
    });
    out.push(...capped(lines, maxLines, (n) => `  … and ${n} more; --json FILE has them all`));
  }

  const notApplicable = all.filter(({ o }) => o.status === "not_applicable");
  if (notApplicable.length > 0) {
    out.push("", `Not applicable to AdCP ${adcpVersion} (${notApplicable.length}):`);
    const lines = notApplicable.map(({ f, o }) => `  ${f.file}#${o.id}: ${o.reason}`);
    out.push(...capped(lines, maxLines, (n) => `  … and ${n} more; --json FILE has them all`));
  }

  const failures = all.filter(({ o }) => o.status === "failed");
  if (failures.length > 0) {
    out.push("", `Failures (${failures.length}):`);
    // A stopped implementation is reported once, not once per vector it never answered.
    const unanswered = failures.filter(({ o }) => o.unanswered);
    if (unanswered.length > 0) {
      const { f, o } = unanswered[0]!;
      const reason = o.reason ?? "the implementation stopped answering";
      out.push(
        `  ${reason.charAt(0).toUpperCase()}${reason.slice(1)}: the ${unanswered.length} ` +
          `${unanswered.length === 1 ? "vector" : "vectors"} from ${f.file}#${o.id} on were ` +
          "never answered and count as failed",
      );
    }
    // So is a port that answers NOT_IMPLEMENTED to whole suites: one line, not hundreds.
    const notImplemented = failures.filter(({ o }) => o.notImplemented && !o.unanswered);
    if (notImplemented.length > 0) {
      const inFiles = new Set(notImplemented.map(({ f }) => f.file)).size;
      out.push(
        `  ${notImplemented.length} ${notImplemented.length === 1 ? "vector" : "vectors"} in ` +
          `${inFiles} ${inFiles === 1 ? "file" : "files"} answered NOT_IMPLEMENTED and count as ` +
          'failed (a port replies {"skip": "why"} to a vector it does not implement, which ' +
          "counts as skipped)",
      );
    }
    const answered = failures.filter(({ o }) => !o.unanswered && !o.notImplemented);
    const lines = answered.map(({ f, o }) => `  ${failureLine(f.file, o)}`);
    out.push(
      ...capped(lines, maxLines, (n) => `  … and ${n} more failures; --json FILE has them all`),
    );
    const detailed = answered.slice(0, maxDetails);
    if (detailed.length > 0) {
      out.push(
        "",
        detailed.length === answered.length
          ? "In full:"
          : `The first ${detailed.length} in full (--json FILE has every one):`,
      );
    }
    for (const { f, o } of detailed) {
      out.push("", `✗ ${f.file} › ${o.id}`, `  ${o.description}`, `  ${o.reason ?? "failed"}`);
      if (o.expected !== undefined || o.actual !== undefined) {
        out.push("  --- expected  +++ actual");
        out.push(...diffValues(o.expected, o.actual).split("\n").map((l) => `  ${l}`));
      }
    }
  }
  out.push(
    "",
    `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ` +
      `${t.notApplicable} not applicable (AdCP ${adcpVersion})`,
  );
  return out.join("\n");
}

/** The machine-readable report (`--json`): the AdCP version, the totals, every outcome. */
export function jsonReport(files: FileReport[], adcpVersion: string = ADCP_VERSION): unknown {
  return { adcp_version: adcpVersion, totals: totals(files), files };
}
