// The leak heuristics of the outgoing-error check: what counts as a stack trace, a path, an
// internal host, database text, a credential or a service name, and how it is redacted.
//
// Why one file past 600 lines: the patterns are a vocabulary read together (each one is tuned
// against the others to avoid false positives), so they stay in one place with their tests in
// check_outgoing_adcp_error_test.ts and testdata/outgoing_leaks.json.

/**
 * What the leak heuristics of {@link checkOutgoingAdcpError} found: a stack trace, a file path, an
 * internal host name, an IP address, database error text, an SQL fragment, a query plan, a Bearer
 * token, a JWT, an API key (or another long random-looking string), another credential, a session
 * id, or a name of `internalServiceNames`. What each kind matches is in `docs/outgoing-errors.md`.
 *
 * Spec: Transport Error Mapping, Security Considerations, Seller Requirements.
 */
export type LeakKind =
  | "stack_trace"
  | "file_path"
  | "internal_host"
  | "ip_address"
  | "database_error"
  | "sql_fragment"
  | "query_plan"
  | "bearer_token"
  | "jwt"
  | "api_key"
  | "credential"
  | "session_id"
  | "internal_service";
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

/** The text put in place of a redacted span. */
export const REDACTED = "[redacted]";

// One stack frame per line: V8/Java/C# "at fn (file:1:2)" / "at pkg.Cls.m(Cls.java:10)" /
// "at <anonymous>", C# "at Ns.Cls.M() in /path/File.cs:line 42", SpiderMonkey/JSC "fn@file:1:2",
// Python 'File "x.py", line 3', Ruby "from /app/x.rb:12:in `m'" (and its first line, without
// "from"), Go goroutine headers and "\tpath/file.go:12 +0x1d" lines, and the Python traceback
// header.
const FRAME_LINE = new RegExp(
  [
    String.raw`^\s*at\s+.*(?:\S:\d+:\d+\)?|\.\w+:\d+\)|\((?:native|<anonymous>|` +
    String.raw`Unknown Source)\))\s*$`,
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
// constraint violations, "permission denied for table", "invalid input syntax for type", the
// "Key (c)=(v)" detail, psql's "ERROR:  " with two spaces, SQLSTATE), MySQL ("You have an error in
// your SQL syntax", "a foreign key constraint fails", "Data too long for column", ER_* codes,
// "ERROR 1146 (42S02)"), SQLite (SQLITE_* codes, "no such table:", 'near "x": syntax error'),
// SQL Server ("Msg 208, Level 16", "Invalid column name", "Cannot insert the value NULL into
// column"), Oracle (ORA-/PLS-/TNS-nnnnn), MongoDB and Mongoose (E11000, MongoServerError,
// MongoServerSelectionError, "Cast to ObjectId failed") and the exception names of common drivers
// and ORMs.
const DATABASE_ERROR_PHRASE = new RegExp(
  [
    String.raw`\b(?:relation|column|table|view|function|schema|database|role|sequence|index|` +
    String.raw`type) "[^"\n]{1,256}"(?: of relation "[^"\n]{1,256}")? does not exist`,
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
    String.raw`\bpermission denied for (?:table|relation|schema|sequence|database|function|` +
    String.raw`view|column|large object)\b`,
    String.raw`\binvalid input syntax for (?:type|integer)\b`,
    String.raw`\bvalue too long for type\b`,
    String.raw`\bcolumn reference "[^"\n]{1,256}" is ambiguous`,
    String.raw`\bKey \([^)\n]{1,256}\)=\(`,
    String.raw`\bdivision by zero\b`,
    String.raw`\bconnection to server (?:at|on socket) "`,
    String.raw`\bcould not connect to server: (?:Connection refused|No such file or directory|` +
    String.raw`Connection timed out)`,
    String.raw`\byou have an error in your sql syntax\b`,
    String.raw`\bduplicate entry '[^'\n]{0,256}' for key\b`,
    String.raw`\btable '[^'\n]{1,256}' doesn't exist`,
    String.raw`\bunknown column '[^'\n]{1,256}' in '`,
    String.raw`\block wait timeout exceeded\b`,
    String.raw`\bdeadlock found when trying to get lock\b`,
    String.raw`\baccess denied for user '`,
    String.raw`\bcannot (?:add|delete) or update a (?:child|parent) row\b`,
    String.raw`\ba foreign key constraint fails\b`,
    String.raw`\bdata too long for column\b`,
    String.raw`\bcolumn '[^'\n]{1,256}' cannot be null`,
    String.raw`\bincorrect \w{1,32} value: '`,
    String.raw`\bfor column '[^'\n]{1,256}' at row \d`,
    String.raw`\bcan't connect to (?:local )?mysql server\b`,
    String.raw`\bno such (?:table|column|function): `,
    String.raw`\b(?:unique|not null|foreign key|check) constraint failed\b`,
    String.raw`\bdatabase (?:is locked|disk image is malformed)\b`,
    String.raw`\bnear "[^"\n]{1,256}": syntax error\b`,
    String.raw`\btable \S{1,128} has no column named\b`,
    String.raw`\binvalid object name '`,
    String.raw`\binvalid column name '`,
    String.raw`\bincorrect syntax near\b`,
    String.raw`\bviolation of (?:primary|unique) key constraint\b`,
    String.raw`\bcannot insert duplicate key\b`,
    String.raw`\bcannot insert the value null into column\b`,
    String.raw`\bconversion failed when converting\b`,
    String.raw`\b(?:insert|update|delete|merge) statement conflicted with\b`,
    String.raw`\bstring or binary data would be truncated\b`,
    String.raw`\blogin failed for user '`,
    String.raw`\[(?:microsoft|odbc|sql server|mysql|mariadb)\]`,
    String.raw`\b(?:ora|pls|tns)-\d{5}:`,
    String.raw`\bE11000 duplicate key\b`,
    String.raw`\bcast to \w{1,64} failed for value\b`,
    String.raw`\bpath \x60[^\x60\n]{1,256}\x60 is required\b`,
    String.raw`\bns not found\b`,
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
    String.raw`\b(?:Mongo(?:ose)?[A-Za-z]{0,40}Error|Sequelize[A-Za-z]{0,40}Error|` +
    String.raw`QueryFailedError|PrismaClient[A-Za-z]{0,40}Error|(?:PSQL|SQL|` +
    String.raw`SQLIntegrityConstraintViolation|SQLSyntaxErrorException|JdbcSQL)Exception|` +
    String.raw`IntegrityError|OperationalError|ProgrammingError|DatabaseError|SqlException|` +
    String.raw`DbUpdateException)\b`,
  ].join("|"),
);

// Query plans: PostgreSQL plan nodes ("Seq Scan on t", "Index Scan using i on t", "->  Hash Join"),
// costs ("(cost=0.00..35.50 rows=2550 width=4)") and detail lines ("Filter: (", "Index Cond: (",
// "Sort Key:", "Planning Time: 0.1 ms"), SQLite's ("SCAN t", "SEARCH t USING INDEX") and MySQL's
// (a "| 1 | SIMPLE |" row, the "select_type" header) EXPLAIN output, and the EXPLAIN keyword
// itself (upper case only: "explain" is English).
const QUERY_PLAN = new RegExp(
  [
    String.raw`\b(?:Parallel )?(?:Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan|` +
    String.raw`Bitmap Index Scan|CTE Scan|Subquery Scan|Function Scan|Foreign Scan|Sample Scan|` +
    String.raw`Tid Scan)(?: Backward)?(?: using \S{1,128})? on \S`,
    String.raw`\(cost=\d{1,20}\.\d{1,4}\.\.\d{1,20}\.\d{1,4} rows=\d`,
    String.raw`->[ \t]{2,8}(?:Hash Join|Merge Join|Nested Loop|Hash|Sort|Incremental Sort|` +
    String.raw`Aggregate|HashAggregate|GroupAggregate|Limit|Materialize|Memoize|Gather|` +
    String.raw`Gather Merge|Append|Merge Append|Unique|Result|WindowAgg|Seq Scan|Index Scan|` +
    String.raw`Index Only Scan|Bitmap Heap Scan|Bitmap Index Scan)\b`,
    String.raw`(?<![\w-])(?:Filter|Index Cond|Recheck Cond|Hash Cond|Merge Cond|Join Filter|` +
    String.raw`One-Time Filter|TID Cond): \(`,
    String.raw`\b(?:Sort Key|Group Key|Presorted Key|Cache Key|Sort Method|Heap Fetches|` +
    String.raw`Workers Planned|Workers Launched|Rows Removed by (?:Filter|Index Recheck|` +
    String.raw`Join Filter)): \S`,
    String.raw`\b(?:Planning|Execution) Time: \d{1,12}(?:\.\d{1,6})? ms\b`,
    String.raw`\bEXPLAIN\b`,
    String.raw`\bQUERY PLAN\b`,
    String.raw`\b(?:SCAN|SEARCH) TABLE \S`,
    String.raw`\bSCAN [a-z_]\w{0,127}\b`,
    String.raw`\bSCAN CONSTANT ROW\b`,
    String.raw`\bUSE TEMP B-TREE FOR\b`,
    String.raw`\bSEARCH \S{1,128} USING (?:INTEGER PRIMARY KEY|(?:COVERING )?INDEX)\b`,
    String.raw`\bUsing (?:filesort|temporary|index condition)\b`,
    String.raw`\bselect_type\b`,
    String.raw`\|[ \t]{0,16}\d{1,6}[ \t]{0,16}\|[ \t]{0,16}(?:SIMPLE|PRIMARY|SUBQUERY|DERIVED|` +
    String.raw`UNION|UNION RESULT|DEPENDENT SUBQUERY|DEPENDENT UNION|MATERIALIZED|` +
    String.raw`UNCACHEABLE SUBQUERY)[ \t]{0,16}\|`,
  ].join("|"),
);

/** The database error or query plan a line holds, if any. */
function databaseLeak(line: string): LeakKind | undefined {
  if (DATABASE_ERROR_PHRASE.test(line) || DATABASE_ERROR_CODE.test(line)) return "database_error";
  if (QUERY_PLAN.test(line)) return "query_plan";
  return undefined;
}

// SQL fragments, matched over the whole text (a statement is often written over several lines),
// each match redacting every line it touches. Upper-case keywords are SQL; lower-case ones are
// English too ("select a product from the list"), so they need more structure: `select * from`,
// `select "id", "name" from` (a column list that is quoted, qualified or comma-separated),
// `insert into t (`, `delete from t where`, `update t set c =`, `union select`. DDL keywords in any
// case. Each repetition is bounded, or a run of whitespace between literals.
const SQL_FRAGMENT = new RegExp(
  [
    String.raw`\bINSERT\s+INTO\b`,
    String.raw`\bDELETE\s+FROM\b`,
    String.raw`\bUPDATE\s+\S{1,128}\s+SET\b`,
    String.raw`\bMERGE\s+INTO\b`,
    String.raw`\bWHERE\s+[\w."\x60\[\]]{1,128}\s*(?:=|<>|!=|<=|>=|<|>|IS\s|IN\s*\(|LIKE\s|` +
    String.raw`BETWEEN\s)`,
  ].join("|"),
  "g",
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
  "gi",
);
/** An SQL identifier: quoted (`"id"`, `` `id` ``, `[id]`) or bare. */
const SQL_IDENTIFIER = String
  .raw`(?:"[^"\n]{1,128}"|\x60[^\x60\n]{1,128}\x60|\[[^\]\n]{1,128}\]|[A-Za-z_][\w$]{0,127})`;
const SQL_COLUMN = String.raw`${SQL_IDENTIFIER}(?:\.(?:${SQL_IDENTIFIER}|\*)){0,2}`;
/** `select <columns> from` in any case; accepted only for a quoted, qualified or listed column. */
const SQL_SELECT_LIST = new RegExp(
  String.raw`\bselect\s+(?:distinct\s+)?(${SQL_COLUMN}(?:\s*,\s*${SQL_COLUMN}){0,63})\s+from\b`,
  "gi",
);
const SQL_UPPER_SELECT = /\bSELECT\b/g;
const SQL_UPPER_FROM = /\bFROM\b/g;
/** Most characters between an upper-case SELECT and the FROM after it on a later line. */
const MAX_SELECT_FROM_SPAN = 1024;
// A line that continues a statement on the line before it: an upper-case clause keyword, a
// lower-case one that English rarely starts a line with, an indented line, or a bracket or comma.
const SQL_CONTINUATION = new RegExp(
  [
    String.raw`^[ \t]*(?:WHERE|AND|OR|ORDER BY|GROUP BY|HAVING|LIMIT|OFFSET|(?:(?:INNER|LEFT|` +
    String.raw`RIGHT|FULL|CROSS) )?(?:OUTER )?JOIN|ON|UNION|VALUES|SET|RETURNING|FROM|INTO)\b`,
    String.raw`^[ \t]*(?:where|order by|group by|having|returning|(?:(?:inner|left|right|full|` +
    String.raw`cross) )?(?:outer )?join)\s`,
    String.raw`^[ \t]*(?:(?:limit|offset)\s+\d|values\s*\()`,
    String.raw`^[ \t]+\S`,
    String.raw`^[ \t]*[(),]`,
  ].join("|"),
);

/** The index of the line holding `position`, given the start of each line. */
function lineOf(starts: readonly number[], position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Marks the lines an SQL fragment touches: each match of the fragment patterns, and each upper-case
 * SELECT with the first FROM after it, on the same line or at most 1024 characters on. The FROMs
 * are found with one forward scan, so the cost is linear in the text.
 */
function sqlLines(text: string, starts: readonly number[]): Uint8Array {
  const marked = new Uint8Array(starts.length);
  const mark = (start: number, end: number): void => {
    marked.fill(1, lineOf(starts, start), lineOf(starts, Math.max(start, end - 1)) + 1);
  };
  for (const pattern of [SQL_FRAGMENT, SQL_FRAGMENT_ANY_CASE, SQL_SELECT_LIST]) {
    pattern.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(text)) !== null) {
      // A single bare column ("select name from") is English as often as SQL.
      if (pattern === SQL_SELECT_LIST && !/[,."\x60\[]/.test(match[1]!)) continue;
      mark(match.index, match.index + match[0].length);
    }
  }
  SQL_UPPER_SELECT.lastIndex = 0;
  let from = -1;
  let markedThrough = -1;
  let select: RegExpExecArray | null;
  while ((select = SQL_UPPER_SELECT.exec(text)) !== null) {
    const after = select.index + select[0].length;
    if (from < after) {
      SQL_UPPER_FROM.lastIndex = after;
      const found = SQL_UPPER_FROM.exec(text);
      if (found === null) break;
      from = found.index;
    }
    const first = lineOf(starts, select.index);
    const last = lineOf(starts, from);
    if (from - after <= MAX_SELECT_FROM_SPAN || last === first) {
      // Both ends only move forward: each line is filled at most once.
      marked.fill(1, Math.max(first, markedThrough + 1), last + 1);
      markedThrough = Math.max(markedThrough, last);
    }
  }
  return marked;
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
const SOURCE_EXTENSIONS = "ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyc|rb|go|java|kt|scala|cs|php|rs|" +
  "c|cc|cpp|h|hpp|swift|sql|log|conf|cfg|yaml|yml|ini|env|pem|key|sh";
/** A path-like token: path characters only, with an optional `:line[:column]`. */
const PATH_CHARS = /^[\w.@~\/-]+(?::\d+){0,2}$/;
/** A source or config file name at the end of a token, with an optional `:line[:column]`. */
const SOURCE_TAIL = new RegExp(String.raw`\.(?:${SOURCE_EXTENSIONS})(?::\d+){0,2}$`, "i");
const LINE_SUFFIX = /:\d+(?::\d+)?$/;
/** What follows a location in Ruby and C# frames: `:in` and `:line`. */
const FRAME_SUFFIX = /:(?:in|line)$/i;
const UNIX_ROOT = new RegExp(
  String.raw`^(?:~|\/(?:home|usr|var|etc|opt|srv|tmp|app|apps|root|Users|private|proc|sys|mnt|` +
    String.raw`lib|lib64|bin|sbin|workspace|code|data|run|dev|nix|snap|Volumes|Library|System))\/`,
);
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
  readonly extend?: (text: string, from: number, match: RegExpExecArray) => number;
  readonly accept?: (span: string, match: RegExpExecArray, text: string, end: number) => boolean;
  /** The kind of one match, when it is not always `kind`. */
  readonly kindOf?: (match: RegExpExecArray, span: string) => LeakKind;
  /** Redact only what `extend` added, keeping the match itself (a header name). */
  readonly keepMatch?: boolean;
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
/**
 * A value after `key=`: up to whitespace, a quote, `<`, `>`, `,`, `;`, `&` or a closing bracket.
 */
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
  "auth",
  "secretaccesskey",
  "awssecretaccesskey",
]);

/** Session cookie names specific enough to need no digit in a `name: value` form. */
const SESSION_COOKIE_NAMES = new RegExp(
  String.raw`^(?:PHPSESSID|JSESSIONID|ASP\.NET_SessionId|ASPSESSIONID[A-Z]{0,12}|connect\.sid|` +
    String.raw`laravel_session)$`,
  "i",
);

/**
 * A `key=value` or `key: value` pair whose value is non-empty. An unquoted `key: value` reads as
 * English too ("token: missing", "session: expired"), so its value needs a digit, unless `strong`
 * says the key alone is enough.
 */
function isKeyValue(span: string, match: RegExpExecArray, strong: boolean): boolean {
  const value = span.slice(match[0].length);
  if (value === "") return false;
  if (match[3] === ":" && match[2] === "" && match[4] === "") return strong || /\d/.test(value);
  return true;
}

/** The end of a header value: the closing quote when the value is quoted, else the line end. */
function headerValueEnd(text: string, from: number, match: RegExpExecArray): number {
  const quote = match[2] === "" ? undefined : match[2]!.charCodeAt(0);
  return runEnd(text, from, (unit) => isLineChar(unit) && unit !== quote);
}

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
  // tokens, Slack tokens, Google API keys, GitLab personal access tokens, npm tokens, OpenAI and
  // Anthropic keys, SendGrid keys, Slack webhook URLs.
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
        String.raw`(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])`,
        String.raw`(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin|ant-api\d{2}|` +
        String.raw`ant-admin\d{2})-[A-Za-z0-9_-]{20,}`,
        String.raw`(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`,
        String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{8,}`,
      ].join("|"),
      "g",
    ),
  },
  // `Authorization:` and `Proxy-Authorization:` header values, whatever their scheme, through the
  // end of the line (or the closing quote of a quoted value). Runs after the Bearer and Basic
  // rules, so a credential they found keeps its kind and the rest of the line stays.
  {
    kind: "credential",
    pattern: /(?<![A-Za-z0-9_-])(?:proxy-)?authorization(["']?)[ \t]{0,4}:[ \t]{0,4}(["']?)/gi,
    extend: headerValueEnd,
    keepMatch: true,
    accept: (span) => span.trim() !== "",
    kindOf: (_match, span) => /^bearer\b/i.test(span) ? "bearer_token" : "credential",
  },
  // Session identifiers: Cookie / Set-Cookie header lines, whole; then the cookie names of common
  // frameworks (PHP, Java, ASP.NET, Express, Laravel, Django, Flask's `session`, Rails'
  // `_app_session`, `sid`) with their value after `=` or `:`.
  {
    kind: "session_id",
    pattern: /(?<![A-Za-z0-9_-])(?:Set-)?Cookie:[ \t]*/gi,
    extend: (text, from) => runEnd(text, from, isLineChar),
    accept: (span, match) => span.length > match[0].length,
  },
  {
    kind: "session_id",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_.-])(PHPSESSID|JSESSIONID|ASP\.NET_SessionId|` +
        String.raw`ASPSESSIONID[A-Z]{0,12}|connect\.sid|laravel_session|sessionid|session_id|` +
        String.raw`sessid|session[_-]token|session|sid|_(?:[A-Za-z0-9_-]{0,64}_)?session(?:_id)?)` +
        String.raw`(["']?)[ \t]{0,4}([=:])[ \t]{0,4}(["']?)`,
      "gi",
    ),
    extend: (text, from) => runEnd(text, from, isValue),
    accept: (span, match) => isKeyValue(span, match, SESSION_COOKIE_NAMES.test(match[1]!)),
  },
  // "session <uuid>" and "session id <hex>": an identifier after the word, without a separator.
  {
    kind: "session_id",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_-])(?:session|sid)(?:[ _-]?id)?[ \t]{1,4}` +
        String.raw`(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})` +
        String.raw`(?![0-9a-z_-])`,
      "gi",
    ),
  },
  // `key=value` and `"key": "value"` credentials: API keys and tokens (a bare `token`, `auth` or
  // `bearer` too), passwords and secrets.
  {
    kind: "api_key",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_-])(api[_-]?key|apikey|x-api-key|access[_-]?token|` +
        String.raw`refresh[_-]?token|id[_-]?token|auth[_-]?token|(?:x-)?(?:csrf|xsrf)[_-]?token|` +
        String.raw`(?:x-amz-)?security[_-]?token|client[_-]?secret|` +
        String.raw`(?:aws[_-]?)?secret[_-]?access[_-]?key|secret[_-]?key|private[_-]?key|` +
        String.raw`password|passwd|pwd|secret|token|auth|bearer)` +
        String.raw`(["']?)[ \t]{0,4}([=:])[ \t]{0,4}(["']?)`,
      "gi",
    ),
    extend: (text, from) => runEnd(text, from, isValue),
    kindOf: (match) => {
      const key = match[1]!.toLowerCase().replace(/[_-]/g, "");
      if (key === "bearer") return "bearer_token";
      return CREDENTIAL_KEYS.has(key) ? "credential" : "api_key";
    },
    accept: (span, match) => isKeyValue(span, match, match[1]!.toLowerCase() === "x-api-key"),
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
    .map(namePattern);
  return new RegExp(`(?<![A-Za-z0-9_])(?:${alternatives.join("|")})(?![A-Za-z0-9_])`, "gi");
}

/**
 * Characters a buyer strips before reading seller text (zero-width, bidi and other format
 * characters, the soft hyphen, tags: Security 14b). They are removed before the scan, so that
 * `inventory\u200B-svc` or `SE\u200BLECT` cannot hide from it: the reader sees them joined. (A text
 * in which nothing is found is sent as it was.)
 */
const INVISIBLE = new RegExp(
  String.raw`[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F` +
    String.raw`\uFEFF\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]`,
  "g",
);

/**
 * Separators that read alike in a service name: `inventory-svc`, `inventory_svc`, `inventory svc`.
 */
const SEPARATOR = String.raw`[-_.\s\u2010-\u2015\u2212]`;

/** One name as a pattern, its separators interchangeable. */
function namePattern(name: string): string {
  return [...name]
    .map((char) =>
      /^[-_.\s\u2010-\u2015\u2212]$/.test(char)
        ? SEPARATOR
        : char.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&")
    )
    .join("");
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
      let start = match.index;
      let end = start + match[0].length;
      if (rule.extend !== undefined) end = Math.max(end, rule.extend(text, end, match));
      pattern.lastIndex = Math.max(end, start + 1);
      if (rule.keepMatch === true) start += match[0].length;
      const span = text.slice(start, end);
      if (rule.accept !== undefined && !rule.accept(span, match, text, end)) continue;
      claimed ??= new Uint8Array(text.length);
      let overlaps = false;
      for (let index = start; index < end && !overlaps; index++) overlaps = claimed[index] === 1;
      if (overlaps) continue;
      claimed.fill(1, start, end);
      spans.push([start, end]);
      found.add(rule.kindOf?.(match, span) ?? rule.kind);
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
 * Finds and redacts internal details in `text` (with the characters readers strip, `INVISIBLE`,
 * removed first), in three passes:
 *
 * 1. lines: each run of stack-frame lines, each line holding database error text or a query plan,
 *    and each line an SQL fragment touches (a statement may span lines, and the lines after it
 *    that continue it go too) is replaced by one `[redacted]`;
 * 2. spans: private keys, JWTs, Bearer and Basic credentials, `Authorization:` header values,
 *    API-key shapes, session ids, `key=value` secrets and tokens, long random-looking strings, and
 *    the names of `serviceNames`;
 * 3. tokens: file paths, internal host names, IP addresses, and URLs whose scheme is `file:`, that
 *    carry user information, or whose host is an IP literal, a single-label name, `localhost` or
 *    an internal suffix. Other URLs (a public `https://seller.example/setup`) are kept whole.
 */
export function redactLeaks(
  text: string,
  serviceNames?: RegExp,
): { text: string; kinds: LeakKind[] } {
  text = text.replace(INVISIBLE, "");
  const found = new Set<LeakKind>();
  const lines: string[] = [];
  const starts: number[] = [];
  const lineBreak = /\r\n|\r|\n/g;
  let at = 0;
  for (let brk = lineBreak.exec(text); brk !== null; brk = lineBreak.exec(text)) {
    starts.push(at);
    lines.push(text.slice(at, brk.index));
    at = brk.index + brk[0].length;
  }
  starts.push(at);
  lines.push(text.slice(at));
  const sql = sqlLines(text, starts);
  const kept: string[] = [];
  let inRedacted = false;
  let changed = false;
  let afterSql = false;
  lines.forEach((line, index) => {
    let leak: LeakKind | undefined = FRAME_LINE.test(line) ? "stack_trace" : databaseLeak(line);
    if (leak === undefined && (sql[index] === 1 || (afterSql && SQL_CONTINUATION.test(line)))) {
      leak = "sql_fragment";
    }
    afterSql = leak === "sql_fragment";
    if (leak !== undefined) {
      found.add(leak);
      changed = true;
      if (!inRedacted) kept.push(REDACTED);
      inRedacted = true;
      return;
    }
    inRedacted = false;
    kept.push(line);
  });
  const joined = changed ? kept.join("\n") : text;
  return { text: redactTokens(redactSpans(joined, found, serviceNames), found), kinds: [...found] };
}
