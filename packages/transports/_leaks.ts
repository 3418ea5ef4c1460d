// Heuristics that find internal details in text a seller is about to send to a buyer (Transport
// Error Mapping, Security Considerations, "Seller Requirements": no internal service names,
// hostnames or IP addresses; no database error text, SQL fragments or query plans; no stack traces
// or file paths; no credentials, tokens or session identifiers). They are deliberately eager: a
// false positive costs a "[redacted]" in an error message, a miss leaks infrastructure to every
// buyer.
//
// Every pattern here runs in time linear in the text: repetitions are bounded, or follow a
// lookbehind that allows one start per run of the repeated class, or are extended by hand with a
// `lastIndex` that only moves forward. `check_outgoing_adcp_error_test.ts` times 100 KB adversarial
// inputs against each of them.

import type { LeakKind } from "./check_outgoing_adcp_error.ts";

/** The text put in place of a redacted span. */
export const REDACTED = "[redacted]";

// One stack frame per line: V8/Java/C# "at fn (file:1:2)" / "at pkg.Cls.m(Cls.java:10)" /
// "at <anonymous>", C# "at Ns.Cls.M() in /path/File.cs:line 42", SpiderMonkey/JSC "fn@file:1:2",
// Python 'File "x.py", line 3', Ruby "from /app/x.rb:12:in `m'" (and its first line, without
// "from"), Go goroutine headers and "\tpath/file.go:12 +0x1d" lines, and the Python traceback
// header.
const FRAME_LINE = new RegExp(
  [
    String
      .raw`^\s*at\s+.*(?:\S:\d+:\d+\)?|\.\w+:\d+\)|\((?:native|<anonymous>|Unknown Source)\))\s*$`,
    String.raw`^\s*at\s+<anonymous>\s*$`,
    String.raw`^\s*[\w$.<>\[\]]*@\S+:\d+:\d+\s*$`,
    String.raw`^\s*File\s+".*",\s+line\s+\d+`,
    String.raw`^\s*Traceback \(most recent call last\):?\s*$`,
    String.raw`^\s*at\s+.*\s+in\s+\S+:line\s+\d+\s*$`,
    String.raw`^\s*(?:from\s+)?\S+:\d+:in\s+[\x60'"]`,
    String.raw`^\s*goroutine\s+\d+\s+\[`,
    String.raw`^\s+\S+\.go:\d+(?:\s+\+0x[0-9a-f]+)?\s*$`,
  ].join("|"),
  "i",
);

// Database error text of the common engines, one line at a time (any match redacts the whole line:
// the table and constraint names around the matched phrase are the leak). Case-insensitive
// phrases first, then the case-sensitive codes: PostgreSQL ("relation "x" does not exist",
// constraint violations, psql's "ERROR:  " with two spaces, SQLSTATE), MySQL ("You have an error
// in your SQL syntax", ER_* codes, "ERROR 1146 (42S02)"), SQLite (SQLITE_* codes, "no such
// table:"), SQL Server ("Msg 208, Level 16"), Oracle (ORA-/PLS-/TNS-nnnnn), MongoDB (E11000,
// MongoServerError) and the exception names of common drivers and ORMs.
const DATABASE_ERROR_PHRASE = new RegExp(
  [
    String
      .raw`\b(?:relation|column|table|view|function|schema|database|role|sequence|index|type) "[^"\n]{1,256}"(?: of relation "[^"\n]{1,256}")? does not exist`,
    String.raw`\bduplicate key value violates\b`,
    String.raw`\bviolates (?:foreign key|not-null|check|unique|exclusion) constraint\b`,
    String.raw`\bnull value in column "`,
    String.raw`\bsyntax error at or near\b`,
    String.raw`\bcurrent transaction is aborted\b`,
    String.raw`\bdeadlock detected\b`,
    String.raw`\bcould not serialize access\b`,
    String.raw`\bcanceling statement due to\b`,
    String.raw`\bpassword authentication failed for user\b`,
    String.raw`\bremaining connection slots are reserved\b`,
    String.raw`\byou have an error in your sql syntax\b`,
    String.raw`\bduplicate entry '[^'\n]{0,256}' for key\b`,
    String.raw`\btable '[^'\n]{1,256}' doesn't exist`,
    String.raw`\bunknown column '[^'\n]{1,256}' in '`,
    String.raw`\block wait timeout exceeded\b`,
    String.raw`\bdeadlock found when trying to get lock\b`,
    String.raw`\baccess denied for user '`,
    String.raw`\bno such (?:table|column|function): `,
    String.raw`\b(?:unique|not null|foreign key|check) constraint failed\b`,
    String.raw`\bdatabase (?:is locked|disk image is malformed)\b`,
    String.raw`\binvalid object name '`,
    String.raw`\bincorrect syntax near\b`,
    String.raw`\bviolation of (?:primary|unique) key constraint\b`,
    String.raw`\bcannot insert duplicate key\b`,
    String.raw`\[(?:microsoft|odbc|sql server|mysql|mariadb)\]`,
    String.raw`\bE11000 duplicate key\b`,
  ].join("|"),
  "i",
);
const DATABASE_ERROR_CODE = new RegExp(
  [
    String.raw`\b(?:ERROR|FATAL|PANIC|DETAIL|HINT):  \S`,
    String.raw`\bSQLSTATE\b`,
    String.raw`\bER_[A-Z][A-Z0-9_]{2,63}\b`,
    String.raw`\bERROR \d{4} \([0-9A-Z]{5}\)`,
    String.raw`\bSQLITE_[A-Z][A-Z_]{1,40}\b`,
    String.raw`\bMsg \d{1,6}, Level \d{1,2}\b`,
    String.raw`\b(?:ORA|PLS|TNS|SP2)-\d{5}\b`,
    String
      .raw`\b(?:Mongo(?:Server|Network|BulkWrite|Write|Parse)?Error|Sequelize[A-Za-z]{0,40}Error|QueryFailedError|PrismaClient[A-Za-z]{0,40}Error|(?:PSQL|SQL|SQLIntegrityConstraintViolation|SQLSyntaxErrorException|JdbcSQL)Exception|IntegrityError|OperationalError|ProgrammingError|DatabaseError|SqlException|DbUpdateException)\b`,
  ].join("|"),
);

// SQL fragments, one line at a time. Upper-case keywords are SQL; lower-case ones are English too
// ("select a product from the list"), so they need more structure: `select * from`, `insert into
// t (`, `delete from t where`, `update t set c =`, `union select`. DDL keywords in any case.
const SQL_UPPER_SELECT = /\bSELECT\b/;
const SQL_UPPER_FROM = /\bFROM\b/g;
const SQL_FRAGMENT = new RegExp(
  [
    String.raw`\bINSERT\s+INTO\b`,
    String.raw`\bDELETE\s+FROM\b`,
    String.raw`\bUPDATE\s+\S{1,128}\s+SET\b`,
    String.raw`\bMERGE\s+INTO\b`,
  ].join("|"),
);
const SQL_FRAGMENT_ANY_CASE = new RegExp(
  [
    String.raw`\b(?:drop|alter|create|truncate)\s+table\b`,
    String.raw`\bselect\s+(?:distinct\s+)?(?:\*|count\(\*\))\s+from\b`,
    String.raw`\binsert\s+into\s+[\w."\x60\[\]]{1,128}\s*(?:\(|values\b)`,
    String.raw`\bdelete\s+from\s+[\w."\x60\[\]]{1,128}\s+where\b`,
    String.raw`\bupdate\s+[\w."\x60\[\]]{1,128}\s+set\s+[\w."\x60\[\]]{1,128}\s*=`,
    String.raw`\bunion\s+(?:all\s+)?select\b`,
  ].join("|"),
  "i",
);

// Query plans: PostgreSQL plan nodes ("Seq Scan on t", "Index Scan using i on t") and costs
// ("(cost=0.00..35.50 rows=2550 width=4)"), SQLite's and MySQL's EXPLAIN output, and the EXPLAIN
// keyword itself (upper case only: "explain" is English).
const QUERY_PLAN = new RegExp(
  [
    String
      .raw`\b(?:Parallel )?(?:Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan|Bitmap Index Scan|CTE Scan|Subquery Scan|Function Scan|Foreign Scan|Sample Scan|Tid Scan)(?: Backward)?(?: using \S{1,128})? on \S`,
    String.raw`\(cost=\d{1,20}\.\d{1,4}\.\.\d{1,20}\.\d{1,4} rows=\d`,
    String.raw`\bEXPLAIN\b`,
    String.raw`\bQUERY PLAN\b`,
    String.raw`\b(?:SCAN|SEARCH) TABLE \S`,
    String.raw`\bSEARCH \S{1,128} USING (?:INTEGER PRIMARY KEY|(?:COVERING )?INDEX)\b`,
    String.raw`\bUsing (?:filesort|temporary|index condition)\b`,
  ].join("|"),
);

/** The database leak a line holds, if any. */
function databaseLeak(line: string): LeakKind | undefined {
  if (DATABASE_ERROR_PHRASE.test(line) || DATABASE_ERROR_CODE.test(line)) return "database_error";
  if (QUERY_PLAN.test(line)) return "query_plan";
  if (SQL_FRAGMENT.test(line) || SQL_FRAGMENT_ANY_CASE.test(line)) return "sql_fragment";
  const select = line.search(SQL_UPPER_SELECT);
  if (select >= 0) {
    SQL_UPPER_FROM.lastIndex = select;
    if (SQL_UPPER_FROM.test(line)) return "sql_fragment";
  }
  return undefined;
}

// Every check below runs on one token at a time, anchored, with patterns whose repetitions cannot
// overlap, so the cost is linear in the text: an unanchored scan with nested repetitions over a
// long run like "a.a.a.a..." costs quadratic time (measured: over a second for 16 KiB).
const TOKEN = /[^\s"'`<>(){}\[\],;=|]+/g;
/** Characters that end a sentence after a token: `.`, `:`, `!`, `?` (kept after a redaction). */
const SENTENCE_END: ReadonlySet<number> = new Set([0x2e, 0x3a, 0x21, 0x3f]);
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;
const INTERNAL_SUFFIX =
  /\.(?:internal|local|localdomain|lan|corp|intranet|intra|private|svc|home\.arpa)$/i;
const DOTTED_HOST = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/i;
const PORT = /:\d{1,5}$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6_CHARS = /^[0-9a-f:.]+(?:%[\w.-]+)?$/i;
const SOURCE_EXTENSIONS =
  "ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyc|rb|go|java|kt|scala|cs|php|rs|c|cc|cpp|h|hpp|swift|sql|log|conf|cfg|yaml|yml|ini|env|pem|key|sh";
/** A path-like token: path characters only, with an optional `:line[:column]`. */
const PATH_CHARS = /^[\w.@~\/-]+(?::\d+){0,2}$/;
/** A source or config file name at the end of a token, with an optional `:line[:column]`. */
const SOURCE_TAIL = new RegExp(String.raw`\.(?:${SOURCE_EXTENSIONS})(?::\d+){0,2}$`, "i");
const LINE_SUFFIX = /:\d+(?::\d+)?$/;
/** What follows a location in Ruby and C# frames: `:in` and `:line`. */
const FRAME_SUFFIX = /:(?:in|line)$/i;
const UNIX_ROOT =
  /^(?:~|\/(?:home|usr|var|etc|opt|srv|tmp|app|apps|root|Users|private|proc|sys|mnt|lib|lib64|bin|sbin|workspace|code|data|run|dev|nix|snap|Volumes|Library|System))\//;
const WINDOWS_PATH = /^(?:[a-z]:\\|\\\\[^\\]+\\)/i;

function isIpv6(token: string): boolean {
  if (!IPV6_CHARS.test(token)) return false;
  const bare = token.replace(/%.*$/, "");
  if (!bare.includes("::") && bare.split(":").length !== 8) return false;
  try {
    new URL(`http://[${bare}]/`);
    return true;
  } catch {
    return false;
  }
}

function isIpv4(host: string): boolean {
  return IPV4.test(host);
}

/**
 * The leak a URL holds: `file:`, user information (`postgres://user:secret@db.example`), or an IP,
 * single-label, `localhost` or internal host.
 */
function urlLeak(token: string): LeakKind | undefined {
  let url: URL;
  try {
    url = new URL(token);
  } catch {
    return "file_path";
  }
  if (url.protocol === "file:") return "file_path";
  if (url.username !== "" || url.password !== "") return "credential";
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") || isIpv4(host)) return "ip_address";
  if (host === "localhost" || !host.includes(".") || INTERNAL_SUFFIX.test(host)) {
    return "internal_host";
  }
  return undefined;
}

/** The leak one token (no whitespace, no trailing punctuation) holds, if any. */
function tokenLeak(raw: string): LeakKind | undefined {
  if (URL_START.test(raw)) return urlLeak(raw);
  // Ruby "file.rb:12:in" and C# "File.cs:line" (before the line number): the path is the leak.
  const token = raw.replace(FRAME_SUFFIX, "");
  if (WINDOWS_PATH.test(token)) return "file_path";
  if (token.length <= 4096 && PATH_CHARS.test(token)) {
    if (UNIX_ROOT.test(token)) return "file_path";
    if (SOURCE_TAIL.test(token) && (token.includes("/") || LINE_SUFFIX.test(token))) {
      return "file_path";
    }
  }
  if (token.length <= 300) {
    const port = PORT.test(token);
    const host = port ? token.replace(PORT, "") : token;
    if (isIpv4(host)) return "ip_address";
    if (host.toLowerCase() === "localhost") return "internal_host";
    if (DOTTED_HOST.test(host) && (port || INTERNAL_SUFFIX.test(host))) return "internal_host";
    if (token.includes(":") && isIpv6(token)) return "ip_address";
  }
  return undefined;
}

// Secrets found as spans of text, in priority order: a span that overlaps one found by an earlier
// rule is not reported again. Each rule's pattern finds where a span starts; `extend`, when given,
// finds where it ends (scanning forward only), and `accept` may still turn it down.
interface SpanRule {
  readonly kind: LeakKind;
  readonly pattern: RegExp;
  readonly extend?: (text: string, from: number) => number;
  readonly accept?: (span: string, match: RegExpExecArray, text: string, end: number) => boolean;
  /** The kind of one match, when it is not always `kind`. */
  readonly kindOf?: (match: RegExpExecArray) => LeakKind;
}

/** The end of a run of characters that `inRun` accepts, from `from`. */
function runEnd(text: string, from: number, inRun: (unit: number) => boolean): number {
  let end = from;
  while (end < text.length && inRun(text.charCodeAt(end))) end++;
  return end;
}

const isAlnum = (unit: number): boolean =>
  (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a) ||
  (unit >= 0x61 && unit <= 0x7a);
/** RFC 7235 token68: ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/", then "="s. */
const isToken68 = (unit: number): boolean =>
  isAlnum(unit) || unit === 0x2d || unit === 0x2e || unit === 0x5f || unit === 0x7e ||
  unit === 0x2b || unit === 0x2f;
const isBase64 = (unit: number): boolean => isAlnum(unit) || unit === 0x2b || unit === 0x2f;
/** A value after `key=`: up to whitespace, a quote, `<`, `>`, `,`, `;`, `&` or a closing bracket. */
const isValue = (unit: number): boolean =>
  unit > 0x20 && unit !== 0x22 && unit !== 0x27 && unit !== 0x60 && unit !== 0x3c &&
  unit !== 0x3e && unit !== 0x2c && unit !== 0x3b && unit !== 0x26 && unit !== 0x29 &&
  unit !== 0x5d && unit !== 0x7d && unit !== 0x7f && !(unit >= 0x2028 && unit <= 0x2029);
const isLineChar = (unit: number): boolean => unit !== 0x0a && unit !== 0x0d;

function token68End(text: string, from: number): number {
  return runEnd(text, runEnd(text, from, isToken68), (unit) => unit === 0x3d);
}

/** A Bearer credential: 8+ characters, not an auth-param (`error="..."`), not a plain word. */
function isBearerToken(span: string, match: RegExpExecArray, text: string, end: number): boolean {
  const token = span.slice(match[0].length);
  if (token.length < 8 || text.charCodeAt(end) === 0x22) return false;
  return /\d|[-.~+/=]/.test(token) || (/[a-z]/.test(token) && /[A-Z]/.test(token.slice(1)));
}

/** A Basic credential: base64 of `user:password`. */
function isBasicCredential(span: string, match: RegExpExecArray): boolean {
  const token = span.slice(match[0].length);
  if (token.length < 8 || token.length > 4096) return false;
  try {
    return atob(token).includes(":");
  } catch {
    return false;
  }
}

/** The Shannon entropy of `text`, in bits per character. */
function entropy(text: string): number {
  const counts = new Map<number, number>();
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    counts.set(unit, (counts.get(unit) ?? 0) + 1);
  }
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A long random-looking string, given a run of 32+ base64/base64url characters: all hex with both
 * digits and letters and at least 3 bits of entropy per character, or with upper- and lower-case
 * letters and digits and at least 3.9 bits per character (random base64 of 32 characters measured
 * 3.97 or more in 10,000 draws). Runs starting with `/` are paths, left to the path check.
 */
function isHighEntropy(span: string): boolean {
  const run = span.replace(/=+$/, "");
  if (run.startsWith("/")) return false;
  if (/^[0-9a-f]+$/.test(run) || /^[0-9A-F]+$/.test(run)) {
    return /\d/.test(run) && /[a-f]/i.test(run) && entropy(run) >= 3;
  }
  return /\d/.test(run) && /[a-z]/.test(run) && /[A-Z]/.test(run) && entropy(run) >= 3.9;
}

const CREDENTIAL_KEYS = new Set([
  "password",
  "passwd",
  "pwd",
  "secret",
  "clientsecret",
  "secretkey",
  "privatekey",
]);

const SPAN_RULES: readonly SpanRule[] = [
  // Private key blocks, through their END line when there is one.
  {
    kind: "credential",
    pattern: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----/g,
    extend: (text, from) => {
      const end = text.indexOf("-----END", from);
      if (end < 0) return text.length;
      const close = text.indexOf("-----", end + 8);
      return close < 0 ? text.length : close + 5;
    },
  },
  // "Bearer <token68>" (RFC 6750) and "Basic <base64 of user:password>" (RFC 7617).
  {
    kind: "bearer_token",
    pattern: /(?<![A-Za-z0-9_-])Bearer[ \t]+/gi,
    extend: token68End,
    accept: isBearerToken,
  },
  {
    kind: "credential",
    pattern: /(?<![A-Za-z0-9_-])Basic[ \t]+/gi,
    extend: (text, from) => runEnd(text, runEnd(text, from, isBase64), (unit) => unit === 0x3d),
    accept: isBasicCredential,
  },
  // JWT (RFC 7519 compact form): three base64url segments, the first a JSON object ("eyJ").
  {
    kind: "jwt",
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g,
  },
  // Key shapes of common providers: Stripe secret and restricted keys, AWS access key ids, GitHub
  // tokens, Slack tokens, Google API keys, GitLab personal access tokens.
  {
    kind: "api_key",
    pattern: new RegExp(
      [
        String.raw`(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`,
        String.raw`(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])`,
        String.raw`(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{20,}`,
        String.raw`(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,}`,
        String.raw`(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10,}`,
        String.raw`(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`,
        String.raw`(?<![A-Za-z0-9_-])glpat-[0-9A-Za-z_-]{20,}`,
      ].join("|"),
      "g",
    ),
  },
  // Session identifiers: the cookie names of common frameworks with their value, and Cookie /
  // Set-Cookie header lines.
  {
    kind: "session_id",
    pattern:
      /(?<![A-Za-z0-9_.-])(?:PHPSESSID|JSESSIONID|ASP\.NET_SessionId|ASPSESSIONID[A-Z]{0,12}|connect\.sid|laravel_session|sessionid|session_id|sessid|session[_-]token)[ \t]{0,4}=[ \t]{0,4}/gi,
    extend: (text, from) => runEnd(text, from, isValue),
    accept: (span, match) => span.length > match[0].length,
  },
  {
    kind: "session_id",
    pattern: /(?<![A-Za-z0-9_-])(?:Set-)?Cookie:[ \t]*/gi,
    extend: (text, from) => runEnd(text, from, isLineChar),
    accept: (span, match) => span.length > match[0].length,
  },
  // `key=value` and `"key": "value"` credentials: API keys and tokens, passwords and secrets.
  {
    kind: "api_key",
    pattern:
      /(?<![A-Za-z0-9_-])(api[_-]?key|apikey|x-api-key|access[_-]?token|refresh[_-]?token|id[_-]?token|auth[_-]?token|client[_-]?secret|secret[_-]?key|private[_-]?key|password|passwd|pwd|secret)(["']?)[ \t]{0,4}([=:])[ \t]{0,4}(["']?)/gi,
    extend: (text, from) => runEnd(text, from, isValue),
    kindOf: (match) =>
      CREDENTIAL_KEYS.has(match[1]!.toLowerCase().replace(/[_-]/g, "")) ? "credential" : "api_key",
    accept: (span, match) => {
      const value = span.slice(match[0].length);
      if (value === "") return false;
      if (match[3] === ":" && match[2] === "" && match[4] === "") {
        return /\d/.test(value) || match[1]!.toLowerCase() === "x-api-key";
      }
      return true;
    },
  },
  // Long random-looking strings: see isHighEntropy.
  {
    kind: "api_key",
    pattern: /[A-Za-z0-9+\/_-]{32,}={0,2}/g,
    accept: isHighEntropy,
  },
];

/**
 * Compiles a deny-list of internal service names into one case-insensitive pattern matching each
 * name as a whole word (not preceded or followed by an ASCII letter, digit or `_`), longest names
 * first.
 */
export function compileServiceNames(names: readonly string[]): RegExp | undefined {
  if (names.length === 0) return undefined;
  const alternatives = [...new Set(names)]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&"));
  return new RegExp(`(?<![A-Za-z0-9_])(?:${alternatives.join("|")})(?![A-Za-z0-9_])`, "gi");
}

/** Redacts every span of `text` the span rules (and the deny-list) find. */
function redactSpans(text: string, found: Set<LeakKind>, serviceNames: RegExp | undefined): string {
  const rules: readonly SpanRule[] = serviceNames === undefined
    ? SPAN_RULES
    : [{ kind: "internal_service", pattern: serviceNames }, ...SPAN_RULES];
  const spans: [number, number][] = [];
  let claimed: Uint8Array | undefined;
  for (const rule of rules) {
    const pattern = rule.pattern;
    pattern.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(text)) !== null) {
      const start = match.index;
      let end = start + match[0].length;
      if (rule.extend !== undefined) end = Math.max(end, rule.extend(text, end));
      pattern.lastIndex = Math.max(end, start + 1);
      const span = text.slice(start, end);
      if (rule.accept !== undefined && !rule.accept(span, match, text, end)) continue;
      claimed ??= new Uint8Array(text.length);
      let overlaps = false;
      for (let index = start; index < end && !overlaps; index++) overlaps = claimed[index] === 1;
      if (overlaps) continue;
      claimed.fill(1, start, end);
      spans.push([start, end]);
      found.add(rule.kindOf?.(match) ?? rule.kind);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}

/** Redacts every leaking token of `text`, keeping the punctuation that ends a sentence. */
function redactTokens(text: string, found: Set<LeakKind>): string {
  return text.replace(TOKEN, (raw) => {
    let end = raw.length;
    while (end > 0 && SENTENCE_END.has(raw.charCodeAt(end - 1))) end--;
    const punctuation = raw.slice(end);
    const token = raw.slice(0, end);
    const leak = token === "" ? undefined : tokenLeak(token);
    if (leak === undefined) return raw;
    found.add(leak);
    return REDACTED + punctuation;
  });
}

/**
 * Finds and redacts internal details in `text`, in three passes:
 *
 * 1. lines: each run of stack-frame lines, and each line holding database error text, an SQL
 *    fragment or a query plan, is replaced by one `[redacted]`;
 * 2. spans: private keys, JWTs, Bearer and Basic credentials, API-key shapes, session ids,
 *    `key=value` secrets, long random-looking strings, and the names of `serviceNames`;
 * 3. tokens: file paths, internal host names, IP addresses, and URLs whose scheme is `file:`, that
 *    carry user information, or whose host is an IP literal, a single-label name, `localhost` or
 *    an internal suffix. Other URLs (a public `https://seller.example/setup`) are kept whole.
 */
export function redactLeaks(
  text: string,
  serviceNames?: RegExp,
): { text: string; kinds: LeakKind[] } {
  const found = new Set<LeakKind>();
  const lines = text.split(/\r\n|\r|\n/);
  const kept: string[] = [];
  let inRedacted = false;
  let changed = false;
  for (const line of lines) {
    const leak: LeakKind | undefined = FRAME_LINE.test(line) ? "stack_trace" : databaseLeak(line);
    if (leak !== undefined) {
      found.add(leak);
      changed = true;
      if (!inRedacted) kept.push(REDACTED);
      inRedacted = true;
      continue;
    }
    inRedacted = false;
    kept.push(line);
  }
  const joined = changed ? kept.join("\n") : text;
  return { text: redactTokens(redactSpans(joined, found, serviceNames), found), kinds: [...found] };
}
